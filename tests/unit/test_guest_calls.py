"""Issue 31: a ruleset is a guest. ``app.core.guest.call_guest`` turns every misbehaviour of a
ruleset's method (an exception, SystemExit, KeyboardInterrupt, a hang, a result of the wrong
type) into a ``GuestError`` (a ``RuleViolation``) naming the ruleset, the call and the error;
the contract's own refusals pass through. Driven by the hostile test ruleset ``guest``
(tests/fixtures/hostile_site/airboss_hostile/guest.py), method by method."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from app.core.acting import ActingLine
from app.core.dice import SeededDice
from app.core.errors import RuleViolation
from app.core.events import AircraftAdded
from app.core.guest import (
    GuestError,
    GuestTimeout,
    call_guest,
    call_guest_then,
    mapping_of,
    odds_table,
    sequence_of,
    still_busy,
)
from app.core.procedure import Decision, Draft
from app.core.ruleset import CardSpec, Step
from app.session import GameSession

NAME = "Guest (hostile test ruleset) (guest)"


@pytest.fixture
def game(hostile_site: ModuleType, tmp_path: Path) -> Iterator[GameSession]:
    s = GameSession.create(tmp_path / "guest.airboss", ruleset="guest", title="Guest")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    yield s
    s.close()


def calls(s: GameSession) -> dict[str, tuple[Callable[[], Any], Any]]:
    """Each guarded method: the call, and the check its result must pass."""
    rs, e = s.ruleset, s.engagement
    gun = rs.procedures["gun_attack"]
    inputs = gun.parse({"attacker": "blue-1", "target": "red-1"})
    return {
        "steps": (lambda: rs.steps(e), sequence_of(Step)),
        "acting": (lambda: rs.acting(e), sequence_of(ActingLine)),
        "on_clock": (lambda: rs.on_clock(e, 1, 1), sequence_of(BaseModel)),
        "card_spec": (lambda: rs.card_spec(e.get("blue-1"), e), CardSpec),
        "new_aircraft": (
            lambda: rs.new_aircraft("b2", "Blue 2", "Blue", "jet", "average", {}),
            AircraftAdded,
        ),
        "prefill": (lambda: gun.prefill(e, "blue-1", "red-1"), mapping_of(str, object)),
        "decide": (lambda: gun.decide(inputs, SeededDice(1), Draft(e)), Decision),
        "odds": (lambda: gun.odds(inputs, e), odds_table),
    }


METHODS = ["steps", "acting", "on_clock", "card_spec", "new_aircraft", "prefill", "decide", "odds"]


def test_well_behaved_calls_pass_their_checks(game: GameSession) -> None:
    for method, (call, check) in calls(game).items():
        assert call_guest(game.ruleset, method, call, returns=check) is not None
        assert call_guest(game.ruleset, method, call, returns=check, time_limit=30) is not None


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("raise", "ZeroDivisionError: the guest's {m} divides by zero"),
        ("exit", "SystemExit: the guest's {m} exits"),
        ("interrupt", "KeyboardInterrupt"),
    ],
)
def test_an_exception_is_named(
    game: GameSession, hostile_site: ModuleType, method: str, how: str, said: str
) -> None:
    call, check = calls(game)[method]
    n = len(game.events())
    hostile_site.MISBEHAVE[method] = how
    for limit in (None, 30):
        with pytest.raises(GuestError) as e:
            call_guest(game.ruleset, method, call, returns=check, time_limit=limit)
        text = str(e.value)
        assert text.startswith(f"the ruleset {NAME} failed in {method}: ")
        assert said.format(m=method) in text and text.endswith("nothing was recorded")
        assert (e.value.ruleset, e.value.call) == (NAME, method)
        assert isinstance(e.value, RuleViolation)
    assert len(game.events()) == n


@pytest.mark.parametrize("method", METHODS)
def test_a_hang_ends_within_the_limit(
    game: GameSession, hostile_site: ModuleType, method: str
) -> None:
    call, check = calls(game)[method]
    hostile_site.MISBEHAVE[method] = "hang"
    start = time.monotonic()
    with pytest.raises(GuestTimeout) as e:
        call_guest(game.ruleset, method, call, returns=check, time_limit=0.3)
    assert time.monotonic() - start < 3
    assert str(e.value) == (
        f"the ruleset {NAME} did not answer in 0.3 s ({method}); nothing was recorded"
    )
    assert e.value.seconds == 0.3


def test_a_game_closes_at_once_while_its_ruleset_is_still_busy(
    game: GameSession, hostile_site: ModuleType
) -> None:
    """Closing a game it wrote to keeps the desk's rows (issue 36), which asks the ruleset;
    a ruleset still busy with a call it did not answer is not asked, nor waited for."""
    call, check = calls(game)["acting"]
    hostile_site.MISBEHAVE["acting"] = "hang"
    assert not still_busy(game.ruleset)
    with pytest.raises(GuestTimeout):
        call_guest(game.ruleset, "acting", call, returns=check, time_limit=0.3)
    assert still_busy(game.ruleset)
    start = time.monotonic()
    game.close()
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("method", METHODS)
def test_a_result_of_the_wrong_type_is_refused(
    game: GameSession, hostile_site: ModuleType, method: str
) -> None:
    call, check = calls(game)[method]
    hostile_site.MISBEHAVE[method] = "wrong_type"
    with pytest.raises(GuestError, match=rf"failed in {method}: returned "):
        call_guest(game.ruleset, method, call, returns=check)


def test_the_rulesets_own_refusals_pass_through(game: GameSession) -> None:
    gun = game.ruleset.procedures["gun_attack"]
    with pytest.raises(RuleViolation, match="no aircraft 'nobody'") as e:
        call_guest(game.ruleset, "prefill", gun.prefill, game.engagement, "nobody", None)
    assert not isinstance(e.value, GuestError)
    with pytest.raises(RuleViolation, match="no aircraft") as e:
        call_guest(
            game.ruleset, "prefill", gun.prefill, game.engagement, "nobody", None, time_limit=9
        )
    assert not isinstance(e.value, GuestError)


@pytest.mark.parametrize(
    ("odds", "why"),
    [
        ([("hit", Fraction(1))], "not a mapping"),
        ({1: Fraction(1)}, "label int 1, not text"),
        ({"hit": 0.5, "miss": 0.5}, "not a Fraction"),
        ({"hit": True}, "not a Fraction"),
        ({"hit": Fraction(3, 2), "miss": Fraction(-1, 2)}, "outside 0 to 1"),
        ({"hit": Fraction(1, 3)}, "summing to 1/3"),
    ],
)
def test_odds_table_names_what_is_wrong(odds: Any, why: str) -> None:
    with pytest.raises(GuestError, match=why):
        call_guest("Odd rules", "odds of Gun attack", lambda: odds, returns=odds_table)
    good = {"hit": Fraction(1, 3), "miss": 2 * Fraction(1, 3)}
    assert call_guest("Odd rules", "odds", lambda: good, returns=odds_table) == good


def test_a_call_and_the_one_after_it_run_in_one_worker_without_a_second_hand_over() -> None:
    """``call_guest_then`` (issue 44): the second call starts in the worker that answered the
    first, given its value, before anyone asks for it; it is guarded as its own call."""
    import threading

    started = threading.Event()
    where: list[str] = []

    def then(value: int) -> int:
        where.append(threading.current_thread().name)
        started.set()
        return value * 2

    value, later = call_guest_then("Tester", "first", lambda: 21, "second", then, time_limit=5)
    assert value == 21
    assert started.wait(5)  # begun without ``result`` being asked
    assert later.result(5, int) == 42 and where == ["airboss guest"]
    _, failing = call_guest_then(
        "Tester", "first", lambda: 1, "second", lambda v: 1 / 0, time_limit=5
    )
    with pytest.raises(GuestError, match=r"failed in second: ZeroDivisionError"):
        failing.result(5)
    _, wrong = call_guest_then("Tester", "first", lambda: 1, "second", lambda v: "x", time_limit=5)
    with pytest.raises(GuestError, match="returned str, not int"):
        wrong.result(5, int)


def test_the_call_after_a_failed_one_is_never_run() -> None:
    ran: list[int] = []
    with pytest.raises(GuestError, match="failed in first"):
        call_guest_then("Tester", "first", lambda: 1 / 0, "second", ran.append, time_limit=5)
    time.sleep(0.05)
    assert ran == []


def test_the_call_after_inside_a_guarded_call_is_made_when_asked() -> None:
    """Inside a guarded call (already in a worker) both run where they are asked, the second
    only when its answer is wanted."""
    ran: list[int] = []

    def outer() -> tuple[int, int]:
        value, later = call_guest_then(
            "Tester", "first", lambda: 2, "second", lambda v: ran.append(v) or v + 1, time_limit=5
        )
        before = len(ran)
        return before, later.result(5)

    assert call_guest("Tester", "outer", outer, time_limit=5) == (0, 3)
    assert ran == [2]
