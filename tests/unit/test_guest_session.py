"""Issue 31 through the session: every ``GameSession`` call that runs a ruleset's own code
(steps, acting, on_clock, prefill, decide, odds, new_aircraft) turns each misbehaviour of the
hostile test ruleset (tests/fixtures/hostile_site/airboss_hostile/guest.py) into a
``GuestError`` naming the ruleset, the call and the error, writes nothing, and ends a hang
within the time limit; a call that still hangs is refused at once; a "who acts now" line's dry
run never lets a guest's exit or hang out. Also the guard's own parts: a caller that must not
wait (``answer_later``, issue 44) and the control-card checker."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import app.session.guard
from app.core import guest
from app.core.acting import ActingLine
from app.core.dice import SeededDice
from app.core.errors import RuleViolation
from app.core.guest import GuestError, GuestTimeout, call_guest
from app.core.ruleset import CardSpec, KeyValues, Lines, Step, Table, Track
from app.session import GameSession

NAME = "Guest (hostile test ruleset) (guest)"
LIMIT = 0.3
#: the time limit raised for a call that must not wait for one still hanging: waiting would
#: take all of it, far beyond what the call takes on the busiest machine (half of it)
RAISED = 60.0
HOWS = ("raise", "exit", "interrupt", "hang", "wrong_type")


@pytest.fixture
def game(
    hostile_site: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[GameSession]:
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", LIMIT)
    s = GameSession.create(tmp_path / "guest.airboss", ruleset="guest", title="Guest")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.clock.next_step()
    s.clock.next_step()  # Combat: each aircraft may fire its guns
    yield s
    s.close()


ROLES = {"attacker": "blue-1", "target": "red-1"}


def session_calls(s: GameSession) -> dict[str, tuple[str, Callable[[], Any]]]:
    """For each misbehaving method: the session call that runs it, and its name in messages."""
    ready = s.actions.prepare("gun_attack", ROLES)  # made while the ruleset behaves
    return {
        "steps": ("steps (sequence of play)", s.clock.next_step),
        "acting": ("acting (who acts now)", s.who_acts.acting),
        "on_clock": ("on_clock (what happens by itself)", s.clock.next_step),
        "prefill": ("prepare Gun attack", lambda: s.actions.prepare("gun_attack", ROLES)),
        "decide": ("resolve Gun attack", lambda: s.actions.resolve(ready, SeededDice(3))),
        "odds": ("odds of Gun attack", lambda: s.odds.odds(ready)),
        "new_aircraft": (
            "new_aircraft (add an aircraft)",
            lambda: s.add_aircraft(side="Blue", type_id="jet", name="Blue 2"),
        ),
    }


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize(
    "method", ["steps", "acting", "on_clock", "prefill", "decide", "odds", "new_aircraft"]
)
def test_each_session_call_refuses_a_misbehaving_guest(
    game: GameSession, hostile_site: ModuleType, method: str, how: str
) -> None:
    call, run = session_calls(game)[method]
    before = [(env.seq, env.narrative) for env in game.events()]
    hostile_site.MISBEHAVE[method] = how
    start = time.monotonic()
    with pytest.raises(GuestError) as e:
        run()
    assert time.monotonic() - start < LIMIT + 3
    text = str(e.value)
    if how == "hang":
        assert isinstance(e.value, GuestTimeout)
        assert text.startswith(f"the ruleset {NAME} did not answer in {LIMIT:g} s ({call})")
    else:
        assert text.startswith(f"the ruleset {NAME} failed in {call}: ")
    assert text.endswith("nothing was recorded")
    assert [(env.seq, env.narrative) for env in game.events()] == before
    reopened = GameSession.open(game.store.where)
    try:
        assert len(reopened.events()) == len(before)
    finally:
        reopened.close()


@pytest.mark.parametrize("how", HOWS)
def test_perform_refuses_a_misbehaving_decide(
    game: GameSession, hostile_site: ModuleType, how: str
) -> None:
    """A script's ``perform`` meets the same guard as the desk's Resolve."""
    n = len(game.events())
    hostile_site.MISBEHAVE["decide"] = how
    with pytest.raises(GuestError) as e:
        game.perform("gun_attack", ROLES, SeededDice(3))
    assert str(e.value).startswith(f"the ruleset {NAME} ")
    # decide runs when the action is prepared (a dry run finds its dice, issue 32) and when
    # it is resolved: the guard names whichever call met the misbehaviour first
    said = str(e.value)
    assert any(f"{call} Gun attack" in said for call in ("prepare", "resolve")), said
    assert len(game.events()) == n


def _stored_odds(s: GameSession) -> Any:
    from app.core.events import ProcedureResolved

    [record] = [e.event for e in s.events()[-3:] if isinstance(e.event, ProcedureResolved)]
    return record.odds


@pytest.mark.parametrize("how", ["raise", "exit", "interrupt", "wrong_type"])
def test_a_roll_whose_odds_fail_is_recorded_without_them(
    game: GameSession, hostile_site: ModuleType, how: str
) -> None:
    """Issue 44: the odds stored with a roll are worked out in the resolve's own hand-over to
    the ruleset's worker; odds that fail there (issue 34: the action is recorded without
    them) never refuse the roll."""
    n = len(game.events())
    hostile_site.MISBEHAVE["odds"] = how
    game.perform("gun_attack", ROLES, SeededDice(3))
    assert len(game.events()) > n and _stored_odds(game) is None


def test_a_roll_whose_odds_were_given_up_is_recorded_at_once_without_them(
    game: GameSession, hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Odds that hung when the desk asked for them (given up after the time limit, still
    working) are not asked again by the resolve, which would wait for them as long: the roll
    is recorded at once, without them."""
    ready = game.actions.prepare("gun_attack", ROLES)
    hostile_site.MISBEHAVE["odds"] = "hang"
    with pytest.raises(GuestTimeout):
        game.odds.odds(ready)
    n = len(game.events())
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", RAISED)
    start = time.monotonic()
    game.actions.resolve(ready, SeededDice(3))
    assert time.monotonic() - start < RAISED / 2  # the odds still hanging were not waited for
    assert len(game.events()) > n and _stored_odds(game) is None


def test_a_scripts_perform_hands_its_rules_to_the_worker_once(
    game: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: a script's ``perform`` gives the ruleset's worker one job: the action made
    ready and resolved, then the odds stored with it, worked out by the same worker right
    after (``call_guest_then``) without a second hand-over, each a thread's wake-up that a
    loaded machine makes wait for a core. The odds are the ones the desk would show."""
    jobs: list[str] = []
    real = guest._Worker.run.__func__  # type: ignore[attr-defined]

    def counted(cls: Any, job: Any) -> None:
        jobs.append(getattr(job.fn, "__qualname__", "?"))
        real(cls, job)

    monkeypatch.setattr(guest._Worker, "run", classmethod(counted))
    game.perform("gun_attack", ROLES, SeededDice(3))
    assert len(jobs) == 1, jobs
    monkeypatch.undo()
    shown = game.odds.odds(game.actions.prepare("gun_attack", ROLES))
    game.perform("gun_attack", ROLES, SeededDice(3))
    assert dict(_stored_odds(game)) == shown and shown


def test_odds_that_hang_after_a_scripts_perform_leave_the_roll_recorded_without_them(
    game: GameSession, hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds worked out after the resolve, in the same worker, have a time limit of their
    own: they hang, the roll is recorded without them once it passes, and they are given up
    (still busy: the next roll's odds are not asked for again meanwhile, issue 31)."""
    hostile_site.MISBEHAVE["odds"] = "hang"
    n = len(game.events())
    start = time.monotonic()
    game.perform("gun_attack", ROLES, SeededDice(3))
    assert time.monotonic() - start < LIMIT + 3
    assert len(game.events()) > n and _stored_odds(game) is None
    assert (NAME, "odds of Gun attack") in guest.hanging()
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", RAISED)
    start = time.monotonic()
    game.perform("gun_attack", ROLES, SeededDice(3))
    assert time.monotonic() - start < RAISED / 2  # the odds still hanging were not waited for
    assert _stored_odds(game) is None


def test_a_scripts_perform_does_not_ask_who_acts_now(
    game: GameSession, hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: a script's ``perform`` is the resolve, the durable append and the apply; the
    "who acts now" line a result makes owed is the desk's to open (``actions.resolve`` finds
    it), so a script's action does not ask the ruleset who acts for it."""
    asked: list[int] = []
    real = type(game.ruleset).acting
    monkeypatch.setattr(
        type(game.ruleset), "acting", lambda rs, e: asked.append(e.seq) or real(rs, e)
    )
    res = game.perform("gun_attack", ROLES, SeededDice(3))
    assert asked == [] and res.follows is None
    game.actions.resolve(game.actions.prepare("gun_attack", ROLES), SeededDice(3))
    assert asked  # the desk's resolve asks, to open the roll the result owes


def test_the_odds_shown_are_the_odds_stored_and_not_worked_out_again(
    game: GameSession, hostile_site: ModuleType
) -> None:
    """The odds the desk showed for these inputs on this game are those stored with the roll,
    even for a prepared action made again with the same inputs (a die typed, a page's dice
    taken; issue 48): the ruleset is not asked for them again."""
    proc = game.ruleset.procedures["gun_attack"]
    asked: list[Any] = []
    real = proc.odds

    def counted(inputs: Any, engagement: Any = None) -> Any:
        asked.append(inputs)
        return real(inputs, engagement)

    proc.odds = counted  # type: ignore[method-assign]
    try:
        shown = game.odds.odds(game.actions.prepare("gun_attack", ROLES))
        again = game.actions.prepare("gun_attack", ROLES)  # another object, the same inputs
        game.actions.resolve(again, SeededDice(3))
    finally:
        del proc.odds
    assert len(asked) == 1
    assert dict(_stored_odds(game)) == shown


@pytest.mark.parametrize("how", ["raise", "exit", "interrupt", "hang", "wrong_type"])
@pytest.mark.parametrize("method", ["prefill", "decide"])
def test_a_who_acts_line_never_lets_a_guest_out(
    game: GameSession, hostile_site: ModuleType, method: str, how: str
) -> None:
    """The dry run that marks a line that cannot act (issue 29) runs the ruleset's prefill
    and decide: an exit or interrupt stays inside, a hang ends in the limit and is said on the
    line; a guest's bug is said when the line is opened."""
    hostile_site.MISBEHAVE[method] = how
    start = time.monotonic()
    why = game.refusals.line_refusal("gun_attack", "blue-1", "red-1")
    assert time.monotonic() - start < LIMIT + 3
    if how == "hang":  # the step's lines are worked out in one guarded call
        call = "who acts now (can each line act)"
        assert why.startswith(f"the ruleset {NAME} did not answer in {LIMIT:g} s ({call})")
    elif method == "prefill" or how in ("raise", "exit", "interrupt"):
        # decide too runs when the line is prepared: a dry run finds its dice (issue 32)
        assert why.startswith(f"the ruleset {NAME} failed in prepare Gun attack: ")
    else:
        assert why == ""  # a result of the wrong type is refused when the line is resolved


def test_a_call_that_still_hangs_is_refused_at_once(
    game: GameSession, hostile_site: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit is paid once: the same call again, while the first has not returned, is
    refused without waiting; once the ruleset answers, it is asked again."""
    hostile_site.MISBEHAVE["acting"] = "hang"
    with pytest.raises(GuestTimeout) as first:
        game.who_acts.acting()
    assert not first.value.still
    assert (NAME, "acting (who acts now)") in guest.hanging()
    monkeypatch.setattr(app.session.guard, "TIME_LIMIT", RAISED)
    start = time.monotonic()
    with pytest.raises(GuestTimeout) as again:
        game.who_acts.acting()
    assert time.monotonic() - start < RAISED / 2
    assert again.value.still
    assert str(again.value) == (
        f"the ruleset {NAME} did not answer in {LIMIT:g} s (acting (who acts now)), and is "
        "still busy with it; nothing was recorded"
    )
    game.clock.steps()  # another call of the same ruleset is not held up by it
    hostile_site.MISBEHAVE.clear()
    hostile_site.RELEASE.set()
    assert guest.settle()
    assert guest.hanging() == []
    assert game.who_acts.acting()


@pytest.fixture
def quick() -> Iterator[None]:
    """Guarded calls in this thread are waited for a twentieth of a second at most (as the
    desk's GUI thread waits for them, issue 44)."""
    guest.answer_later(0.05)
    yield
    guest.answer_later(None)


def test_a_quick_caller_is_answered_later_and_the_action_done_again_asks_nothing_twice(
    quick: None,
) -> None:
    """Issue 44: a call that does not answer within the caller's time raises
    ``GuestPending`` (which no ``except Exception`` swallows) and goes on in its worker; the
    action done again in ``replaying`` takes the answers of its first run in order, and the
    ruleset is asked each question once."""
    release = threading.Event()
    asked: list[str] = []

    def quick_one() -> int:
        asked.append("quick")
        return 1

    def slow_one() -> int:
        asked.append("slow")
        release.wait(5)
        return 2

    def action() -> int:
        return call_guest("Odd rules", "quick", quick_one, time_limit=5) + call_guest(
            "Odd rules", "slow", slow_one, time_limit=5
        )

    record = guest.Record()
    with pytest.raises(guest.GuestPending) as e, guest.replaying(record):
        try:
            action()
        except Exception:  # noqa: BLE001 - what a caller's error handling does
            pytest.fail("GuestPending was caught as an error")
    pending = e.value.call
    assert (pending.ruleset, pending.call, pending.answered) == ("Odd rules", "slow", False)
    release.set()
    assert pending.job.done.wait(5) and pending.answered
    with guest.replaying(record):
        assert action() == 3
    assert asked == ["quick", "slow"]
    # outside any record the same questions are asked afresh
    assert action() == 3 and asked == ["quick", "slow", "quick", "slow"]


def test_an_action_done_again_that_asks_another_question_is_answered_afresh(quick: None) -> None:
    record = guest.Record()
    release = threading.Event()
    with pytest.raises(guest.GuestPending), guest.replaying(record):
        call_guest("Odd rules", "first", release.wait, 5, time_limit=5)
    release.set()
    with guest.replaying(record):
        assert call_guest("Odd rules", "other", lambda: "other", time_limit=5) == "other"
    assert [c.call for c in record.calls] == ["first", "other"]


def test_a_call_given_up_ends_the_action_done_again_as_its_time_limit_would(
    hostile_site: ModuleType, quick: None
) -> None:
    """``Call.give_up`` (the umpire stopped waiting, or the time limit the desk watches): the
    action done again meets the ``GuestTimeout`` saying so; the same call asked afresh while it
    still hangs is refused at once; another call goes through."""
    record = guest.Record()
    try:
        with pytest.raises(guest.GuestPending) as e, guest.replaying(record):
            call_guest("Odd rules", "steps", hostile_site.RELEASE.wait, time_limit=5)
        e.value.call.give_up(1.23)
        with pytest.raises(GuestTimeout) as timeout, guest.replaying(record):
            call_guest("Odd rules", "steps", hostile_site.RELEASE.wait, time_limit=5)
        assert timeout.value.stopped and timeout.value.seconds == 1.2
        assert str(timeout.value) == (
            "the ruleset Odd rules did not answer in 1.2 s (steps): the umpire stopped "
            "waiting; nothing was recorded"
        )
        assert guest.hanging() == [("Odd rules", "steps")]
        with pytest.raises(GuestTimeout, match="and is still busy with it"):
            call_guest("Odd rules", "steps", lambda: 1, time_limit=5)
        assert call_guest("Odd rules", "sum", sum, [1, 2], time_limit=5) == 3
        # given up at its time limit: said as the time limit
        record = guest.Record()
        with pytest.raises(guest.GuestPending) as e, guest.replaying(record):
            call_guest("Odd rules", "acting", hostile_site.RELEASE.wait, time_limit=0.4)
        e.value.call.give_up()
        with (
            pytest.raises(GuestTimeout, match=r"did not answer in 0.4 s \(acting\); nothing"),
            guest.replaying(record),
        ):
            call_guest("Odd rules", "acting", hostile_site.RELEASE.wait, time_limit=0.4)
    finally:
        hostile_site.RELEASE.set()
        assert guest.settle()
        hostile_site.RELEASE.clear()


def test_other_threads_wait_for_their_calls(quick: None) -> None:
    """Only the thread that said ``answer_later`` is answered later: another one waits (up
    to the time limit) as before."""
    seen: list[object] = []

    def slow() -> int:
        time.sleep(0.2)
        return 7

    other = threading.Thread(target=lambda: seen.append(call_guest("Odd", "s", slow, time_limit=2)))
    other.start()
    other.join(5)
    assert seen == [7]


def test_worker_threads_are_reused_and_a_hung_one_is_not(hostile_site: ModuleType) -> None:
    def thread() -> threading.Thread:
        return threading.current_thread()

    first = call_guest("Odd rules", "which", thread, time_limit=2)
    assert first is not threading.current_thread() and first.daemon
    assert call_guest("Odd rules", "which", thread, time_limit=2) is first
    with pytest.raises(GuestTimeout):
        call_guest("Odd rules", "hang", hostile_site.RELEASE.wait, time_limit=0.2)
    other = call_guest("Odd rules", "which", thread, time_limit=2)
    assert other is not first  # the hung thread is never handed another call
    hostile_site.RELEASE.set()
    assert guest.settle()


def card(*blocks: Any, title: Any = "Jet") -> CardSpec:
    return CardSpec(title, tuple(blocks))


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("a card", "returned str 'a card', not a CardSpec"),
        (card(title=None), "the card's title as NoneType None, not text"),
        (CardSpec("Jet", "blocks"), "the card's blocks as str 'blocks', not a list"),
        (card("a block"), "block 1 as str 'a block', not a card block"),
        (card(Lines(7, ())), "block 1's title as int 7, not text"),
        (card(Lines("Notes", ("ok", 3))), "block 1's lines as int 3, not text"),
        (card(KeyValues("Data", (("gun", 6),))), "block 1's item as int 6, not text"),
        (card(KeyValues("Data", (("gun",),))), "not a (name, value) pair"),
        (card(Table("T", ("a",), [["1", None]])), "block 1's row as NoneType None, not text"),
        (card(Track("Ammo", 4.5, 0)), "block 1's total as float 4.5, not a whole number"),
        (card(Track("Ammo", 4, True)), "block 1's used as bool True, not a whole number"),
        (card(Track("Ammo", 4, 1, note=None)), "block 1's note as NoneType None, not text"),
    ],
)
def test_a_card_of_the_wrong_shape_is_refused_before_the_painter(spec: Any, why: str) -> None:
    with pytest.raises(GuestError, match=why.replace("(", r"\(").replace(")", r"\)")):
        call_guest("Odd rules", "card_spec", lambda: spec, returns=guest.card_spec)


def test_a_card_of_the_right_shape_passes() -> None:
    good = card(
        KeyValues("Data", (("gun", "6"),)),
        Table("Hits", ("1", "2"), (("a", "b"),)),
        Track("Ammo", 4, 1, grey_from=3, note="half points"),
        Lines("Notes", ("one", "two")),
    )
    assert call_guest("Odd rules", "card_spec", lambda: good, returns=guest.card_spec) is good


def test_the_rulesets_own_refusal_is_not_a_guest_error(game: GameSession) -> None:
    with pytest.raises(RuleViolation, match="not an aircraft of this game") as e:
        game.actions.prepare("gun_attack", {"attacker": "nobody"})
    assert not isinstance(e.value, GuestError)


@pytest.mark.parametrize(
    ("method", "result", "why"),
    [
        ("steps", [Step("Combat", 3)], "step 1's title as int 3, not text"),
        ("steps", [Step("Impulse", "Fire", impulse=1.5)], "step 1's impulse as float 1.5"),
        ("acting", [("blue-1",)], "line 1 as tuple ('blue-1',), not an ActingLine"),
        (
            "acting",
            [ActingLine("blue-1", "fires", other=None)],  # type: ignore[arg-type]
            "line 1's other as NoneType None, not text",
        ),
        ("on_clock", [Step("Combat", "Combat")], "item 0 is Step"),
    ],
)
def test_a_result_of_the_wrong_shape_inside_is_refused(
    game: GameSession,
    hostile_site: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    result: Any,
    why: str,
) -> None:
    """Not only the container: each step, line and event is checked before the desk uses it."""
    n = len(game.events())
    monkeypatch.setitem(hostile_site.WRONG, method, result)
    hostile_site.MISBEHAVE[method] = "wrong_type"
    run = {
        "steps": game.clock.steps,
        "acting": game.who_acts.acting,
        "on_clock": game.clock.next_step,
    }[method]
    with pytest.raises(GuestError, match=why.replace("(", r"\(").replace(")", r"\)")):
        run()
    assert len(game.events()) == n


def test_a_guarded_call_within_one_runs_in_its_thread() -> None:
    """Nested guarded calls (a line's prepare within the step's lines) take no second thread:
    the outer call's time limit governs; their errors are still named by their own call."""

    def inner() -> threading.Thread:
        return threading.current_thread()

    def outer() -> tuple[threading.Thread, threading.Thread, str]:
        try:
            call_guest("Odd rules", "inner failing", lambda: 1 / 0, time_limit=5)
        except GuestError as e:
            said = str(e)
        here = call_guest("Odd rules", "inner", inner, time_limit=5)
        return threading.current_thread(), here, said

    outside, inside, said = call_guest("Odd rules", "outer", outer, time_limit=5)
    assert outside is inside is not threading.current_thread()
    assert said.startswith("the ruleset Odd rules failed in inner failing: ZeroDivisionError")


def test_who_acts_now_lines_are_worked_out_together_once_per_state(game: GameSession) -> None:
    lines = [("gun_attack", "blue-1", None), ("gun_attack", "red-1", None)]
    calls: list[object] = []
    real = game.refusals._refusal

    def counted(at: Any, *line: Any) -> str:
        calls.append(line)
        return real(at, *line)

    game.refusals._refusal = counted  # type: ignore[method-assign]
    assert [game.refusals.line_refusal(*line) for line in lines] == ["", ""]
    assert sorted(calls) == sorted(lines)  # both at the first question, none at the second
    game.perform("gun_attack", ROLES, SeededDice(3))  # the game changes: worked out afresh
    assert game.refusals.line_refusal(*lines[0]) == ""
    assert len(calls) == 4


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        (  # the form before issue 44: a positional tuple
            [("blue-1", "may fire its guns", "gun_attack")],
            "line 1 as tuple ('blue-1',",
        ),
        ([ActingLine("blue-1", 42)], "line 1's what as int 42, not text"),  # type: ignore[arg-type]
        (
            [ActingLine("blue-1", "fires"), ActingLine("red-1", "fires", procedure=None)],  # type: ignore[arg-type]
            "line 2's procedure as NoneType None, not text",
        ),
    ],
)
def test_who_acts_now_not_typed_lines_is_refused_naming_the_line(
    game: GameSession,
    hostile_site: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[Any],
    said: str,
) -> None:
    """Issue 44: "who acts now" is a list of ``ActingLine`` (named fields); a third-party
    ruleset that returns anything else (the old tuples, a field that is not text) is refused
    by the guest checks with a message naming the line, and nothing is written."""
    n = len(game.events())
    monkeypatch.setitem(hostile_site.WRONG, "acting", lines)
    hostile_site.MISBEHAVE["acting"] = "wrong_type"
    with pytest.raises(GuestError) as e:
        game.who_acts.acting()
    assert str(e.value).startswith(f"the ruleset {NAME} failed in acting (who acts now): ")
    assert said in str(e.value)
    if isinstance(lines[0], tuple):
        assert "not an ActingLine (app.core.ruleset.ActingLine(who, what, " in str(e.value)
    assert len(game.events()) == n


def test_who_acts_now_lines_have_named_fields(game: GameSession) -> None:
    """Issue 44: the Combat step's lines, read by name."""
    assert game.who_acts.acting() == [
        ActingLine("blue-1", "may fire its guns", procedure="gun_attack"),
        ActingLine("red-1", "may fire its guns", procedure="gun_attack"),
    ]
    line = game.who_acts.acting()[0]
    assert (line.who, line.procedure, line.other) == ("blue-1", "gun_attack", "")
