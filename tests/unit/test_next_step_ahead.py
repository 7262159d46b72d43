"""The next step worked out ahead (issue 48, ``app.session.ahead``): a step on from the game
the work started on writes exactly what a step on without it writes, shows the same "who acts
now" lines, refusals and prepared form, and runs none of the rules in the desk's thread; a
game changed since, a ruleset that fails or hangs in the work ahead, and a form's question
changed since each leave the step to be worked out when asked, as before."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from app.core import guest
from app.core.data import clear_table_cache
from app.core.prepared import Prepared, Question
from app.session import GameSession
from app.startup.demo import create_demo_game
from tests.games import build

RULESETS = ["phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception"]
WAIT = 30.0


def twins(tmp_path: Path, ruleset_id: str | None) -> tuple[GameSession, GameSession]:
    """The same game twice: one steps on with the work ahead, one without."""
    if ruleset_id is None:  # the Phantoms demo: 8 aircraft, steps of eight gun lines
        return create_demo_game(tmp_path / "a.airboss"), create_demo_game(tmp_path / "b.airboss")
    a = GameSession.open(build(tmp_path / "a.airboss", ruleset_id))
    b = GameSession.open(build(tmp_path / "b.airboss", ruleset_id))
    return a, b


class Spied:
    """The ruleset's sequence, lines and clock calls made while ``watching`` (the step on
    and the rows made then), in whatever thread (a guarded call runs in a worker)."""

    def __init__(self, session: GameSession, monkeypatch: pytest.MonkeyPatch) -> None:
        self.watching = False
        self.called: list[str] = []
        rs = session.ruleset
        for name in ("steps", "acting", "on_clock"):
            real = getattr(rs, name)

            def spy(*args: object, _real=real, _name=name) -> object:
                if self.watching:
                    self.called.append(_name)
                return _real(*args)

            monkeypatch.setattr(rs, name, spy)

    def step(self, session: GameSession) -> tuple[object, ...]:
        """The step on and what the desk shows of it, watched."""
        self.watching, self.called = True, []
        try:
            session.clock.next_step()
            return seen(session)
        finally:
            self.watching = False


def seen(session: GameSession) -> tuple[object, ...]:
    """What the desk shows of the step: the game, its lines and why each cannot act."""
    lines = session.who_acts.acting()
    procedures = session.ruleset.procedures
    refusals = [
        session.refusals.line_refusal(line.procedure, line.who, line.other or None)
        for line in lines
        if line.procedure in procedures
    ]
    return session.engagement, lines, refusals, session.clock.steps()


def logged(session: GameSession) -> list[tuple[object, ...]]:
    return [(env.seq, env.narrative, env.rule, env.event) for env in session.events()]


@pytest.mark.parametrize("ruleset_id", [*RULESETS, None], ids=[*RULESETS, "phantoms-demo"])
def test_a_step_worked_out_ahead_is_the_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset_id: str | None
) -> None:
    """Two turns stepped on, each step worked out ahead: every step logs the same events and
    leaves the same game, lines, refusals and sequence of play as the twin that did not look
    ahead, and the step with the rows made after it asks none of the rules in this thread."""
    ahead, plain = twins(tmp_path, ruleset_id)
    spied = Spied(ahead, monkeypatch)
    with ahead, plain:
        turns = len(plain.clock.steps()) * 2
        for _ in range(turns):
            work = ahead.clock.look_ahead()
            assert work is not None and work.wait(WAIT)
            assert work.answer() is not None
            shown = spied.step(ahead)
            assert spied.called == []  # all of it was worked out ahead
            plain.clock.next_step()
            assert shown == seen(plain)
        assert logged(ahead) == logged(plain)


def test_a_game_changed_since_is_stepped_on_as_it_is(tmp_path: Path) -> None:
    """Worked out ahead, then an aircraft renamed: the step on is made from the renamed game
    (the work ahead was for the game before), and keeps the new name."""
    ahead, plain = twins(tmp_path, "phantoms")
    with ahead, plain:
        work = ahead.clock.look_ahead()
        assert work is not None and work.wait(WAIT)
        for s in (ahead, plain):
            s.roster.change_aircraft("blue-1", name="Olds 1")
            s.clock.next_step()
        assert ahead.engagement.aircraft["blue-1"].name == "Olds 1"
        assert seen(ahead) == seen(plain)
        assert logged(ahead) == logged(plain)


def test_a_ruleset_failing_ahead_says_it_when_the_step_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work ahead meets the ruleset's failure and tells no one; the step on, made for
    real, meets it again, guarded, and says it (issue 31); nothing is written."""
    (s, _) = twins(tmp_path, "phantoms")
    told: list[guest.GuestError] = []
    monkeypatch.setattr(guest, "watchers", [told.append])

    def broken(*args: object) -> object:
        raise ZeroDivisionError("a bug in on_clock")

    monkeypatch.setattr(s.ruleset, "on_clock", broken)
    with s:
        before = s.engagement
        work = s.clock.look_ahead()
        assert work is not None and work.wait(WAIT)
        assert work.answer() is None
        assert told == []
        with pytest.raises(guest.GuestError, match="on_clock"):
            s.clock.next_step()
        assert [e.call for e in told] == ["on_clock (what happens by itself)"]
        assert s.engagement is before


def test_a_ruleset_slow_ahead_is_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ruleset hangs in the work ahead: the step on does not wait for it and is made
    as it always was; while it hangs, no second work ahead is started (one worker held, not
    one per game)."""
    ahead, plain = twins(tmp_path, "phantoms")
    release = threading.Event()
    real = ahead.ruleset.acting
    first = [True]

    def hangs_once(engagement: object) -> object:
        if first[0]:
            first[0] = False
            release.wait(WAIT)
        return real(engagement)

    monkeypatch.setattr(ahead.ruleset, "acting", hangs_once)
    with ahead, plain:
        try:
            work = ahead.clock.look_ahead()
            assert work is not None and not work.done
            for s in (ahead, plain):
                s.clock.next_step()
            assert seen(ahead) == seen(plain)
            assert ahead.clock.look_ahead() is work  # still the one under way
        finally:
            release.set()
        assert work.wait(WAIT)
        again = ahead.clock.look_ahead()
        assert again is not work and again is not None and again.wait(WAIT)
        for s in (ahead, plain):
            s.clock.next_step()
        assert seen(ahead) == seen(plain)
        assert logged(ahead) == logged(plain)


def test_a_form_prepared_ahead_is_its_question_answered(tmp_path: Path) -> None:
    """The Combat form's question (a gun attack as it stands) prepared ahead: asked on the
    step it was worked out for, the same question is answered with it, equal to the twin's
    own prepare; a question changed since (a value typed) is prepared afresh."""
    ahead, plain = twins(tmp_path, None)
    with ahead, plain:
        roles: dict[str, str | None] = {"attacker": "olds-1", "target": "red-1"}
        question = Question("gun_attack", roles, {}, frozenset())
        work = ahead.clock.look_ahead([question])
        assert work is not None and work.wait(WAIT)
        kept = work.answer().prepared[0][1]
        for s in (ahead, plain):
            s.clock.next_step()

        def asked(s: GameSession, typed: dict[str, object]) -> object:
            return s.actions.prepare("gun_attack", roles, typed, frozenset(), check=True)

        assert asked(ahead, {}) is kept
        assert shown(kept) == shown(asked(plain, {}))
        typed = {"position_modifier": 2}
        other = asked(ahead, typed)
        assert other is not kept
        assert shown(other) == shown(asked(plain, typed))
        assert shown(other) != shown(kept)


def shown(p: object) -> object:
    """A prepared action as compared: pydantic's error object (compared by identity) left
    out, its text (``error``) kept."""
    assert isinstance(p, Prepared)
    return replace(p, invalid=None)


def test_tables_saved_since_leave_the_step_to_be_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The umpire saves a table (the Tables editor: ``save_override`` forgets the loaded
    tables) after the step was worked out ahead: the step on and its rows are worked out
    again with the tables as they are now, in this thread."""
    ahead, plain = twins(tmp_path, None)
    spied = Spied(ahead, monkeypatch)
    with ahead, plain:
        work = ahead.clock.look_ahead()
        assert work is not None and work.wait(WAIT)
        clear_table_cache()  # what saving a table does
        shown = spied.step(ahead)
        assert {"on_clock", "acting"} <= set(spied.called)
        plain.clock.next_step()
        assert shown == seen(plain)
