"""The projection and undo/redo (DESIGN.md "state changes flow one way")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.engagement import Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import (
    AircraftAdded,
    AircraftRemoved,
    CardsPrinted,
    ClockSet,
    CriticalHit,
    DamageTaken,
    Envelope,
    Event,
    GameCreated,
    LedgerChanged,
    Restored,
    Reverted,
    StatusChanged,
)
from app.core.history import Timeline


class Log:
    """An in-memory log that appends actions the way GameSession does."""

    def __init__(self) -> None:
        self.envs: list[Envelope] = []
        self.t = Timeline(load_action=self.action, load_all=lambda: list(self.envs))
        self.do(GameCreated(ruleset="x", title="t"))

    def action(self, a: int) -> list[Envelope]:
        return [e for e in self.envs if e.action == a]

    def do(self, *events: Event) -> bool:
        first = self.t.state.seq + 1
        envs = [
            Envelope(game="g", seq=first + i, action=first, event=e) for i, e in enumerate(events)
        ]
        try:
            checked = self.t.check(envs)
        except RuleViolation:
            return False
        self.envs += envs
        self.t.append(envs, checked)
        return True

    def undo(self) -> bool:
        return bool(self.t.undo_stack) and self.do(Reverted(action=self.t.undo_stack[-1]))

    def redo(self) -> bool:
        return bool(self.t.redo_stack) and self.do(Restored(action=self.t.redo_stack[-1]))


def add(name: str, ammo: int = 2) -> AircraftAdded:
    return AircraftAdded(
        aircraft=name,
        name=name,
        side="Blue",
        type_id="jet",
        ledgers={"ammo": Fraction(ammo)},
        max_damage=4,
    )


def test_ledger_cannot_go_negative_and_nothing_changes() -> None:
    log = Log()
    log.do(add("a", ammo=1))
    assert log.do(LedgerChanged(aircraft="a", ledger="ammo", delta=Fraction(-1, 2)))
    before = log.t.state
    assert not log.do(LedgerChanged(aircraft="a", ledger="ammo", delta=Fraction(-1)))
    assert log.t.state is before
    assert log.t.state.aircraft["a"].ledgers["ammo"].value == Fraction(1, 2)


def test_unknown_aircraft_and_duplicate_ids_refused() -> None:
    log = Log()
    log.do(add("a"))
    assert not log.do(add("a"))
    assert not log.do(DamageTaken(aircraft="zz", points=1))


def test_undo_redo_round_trip() -> None:
    log = Log()
    log.do(add("a"))
    s1 = log.t.state
    log.do(
        DamageTaken(aircraft="a", points=2, boxes={"F": 1}),
        CriticalHit(aircraft="a", roll=8, result="fire"),
        StatusChanged(aircraft="a", set=(Status.ON_FIRE,)),
    )
    s2 = log.t.state
    assert s2.aircraft["a"].damage == 2 and Status.ON_FIRE in s2.aircraft["a"].status
    log.undo()
    assert log.t.state.aircraft == s1.aircraft
    log.redo()
    assert log.t.state.aircraft == s2.aircraft


def test_new_action_after_undo_makes_undone_final() -> None:
    log = Log()
    log.do(add("a"))
    log.do(DamageTaken(aircraft="a", points=1))
    log.undo()
    log.do(ClockSet(turn=2, step=0))
    assert not log.t.can_redo
    assert log.t.state.aircraft["a"].damage == 0
    assert Timeline.replay(log.envs).state == log.t.state


def test_game_creation_is_not_undoable() -> None:
    log = Log()
    assert not log.t.can_undo


def test_printing_is_not_undone() -> None:
    log = Log()
    log.do(add("a"))
    log.do(CardsPrinted(revisions={"a": 2}))
    assert log.t.printed == {"a": 2}
    log.undo()  # undoes the aircraft, not the print
    assert log.t.printed == {"a": 2}
    assert "a" not in log.t.state.aircraft


def test_deep_undo_beyond_cache_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.core.history as history

    monkeypatch.setattr(history, "CACHED_UNDO_STATES", 2)
    log = Log()
    log.do(add("a", ammo=10))
    for _ in range(6):
        log.do(LedgerChanged(aircraft="a", ledger="ammo", delta=Fraction(-1)))
    for _ in range(5):
        log.undo()
    assert log.t.state.aircraft["a"].ledgers["ammo"].value == 9
    assert Timeline.replay(log.envs).state == log.t.state


def test_removed_aircraft_comes_back_on_undo() -> None:
    log = Log()
    log.do(add("a"))
    log.do(AircraftRemoved(aircraft="a"))
    assert "a" not in log.t.state.aircraft
    log.undo()
    assert "a" in log.t.state.aircraft


def test_snapshot_round_trip_resumes_identically() -> None:
    log = Log()
    log.do(add("a"))
    log.do(DamageTaken(aircraft="a", points=1))
    snap = log.t.snapshot()
    seq = log.t.state.seq
    log.do(LedgerChanged(aircraft="a", ledger="ammo", delta=Fraction(-1, 2)))
    log.undo()
    resumed = Timeline.from_snapshot(
        snap,
        [e for e in log.envs if e.seq > seq],
        load_action=log.action,
        load_all=lambda: log.envs,
    )
    assert resumed.state == log.t.state
    assert resumed.redo_stack == log.t.redo_stack


def test_the_clock_step_now_is_known_through_undo_redo_and_snapshots() -> None:
    """Issue 20: the state names the clock step it is in, so a reader of "who acted in this
    step" starts there; a snapshot from before the field resumes with 0 (read from the start)."""
    log = Log()
    assert log.t.state.clock_seq == 0
    log.do(ClockSet(turn=1, step=1))
    first = log.t.state.seq
    log.do(add("a"))
    log.do(ClockSet(turn=1, step=2))
    second = log.t.state.seq
    assert log.t.state.clock_seq == second
    log.undo()
    assert log.t.state.clock_seq == first
    log.redo()
    assert log.t.state.clock_seq == second
    assert Timeline.replay(log.envs).state == log.t.state
    old = log.t.snapshot().replace(b'"clock_seq":%d,' % second, b"")
    assert b"clock_seq" not in old
    assert Timeline.from_snapshot(old, []).state.clock_seq == 0


ops = st.lists(
    st.one_of(
        st.tuples(st.just("spend"), st.sampled_from("ab"), st.sampled_from([1, 2, 3])),
        st.tuples(st.just("damage"), st.sampled_from("ab"), st.integers(1, 3)),
        st.tuples(st.just("undo"), st.none(), st.none()),
        st.tuples(st.just("redo"), st.none(), st.none()),
        st.tuples(st.just("clock"), st.none(), st.integers(1, 3)),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(ops)
def test_any_sequence_keeps_ledgers_non_negative_and_replay_equal(seq: list) -> None:
    log = Log()
    log.do(add("a", ammo=3))
    log.do(add("b", ammo=2))
    for op, who, n in seq:
        if op == "spend":
            log.do(LedgerChanged(aircraft=who, ledger="ammo", delta=Fraction(-n, 2)))
        elif op == "damage":
            log.do(DamageTaken(aircraft=who, points=n))
        elif op == "undo":
            log.undo()
        elif op == "redo":
            log.redo()
        else:
            log.do(ClockSet(turn=n, step=0))
        for a in log.t.state.aircraft.values():
            assert all(led.value >= 0 for led in a.ledgers.values())
    replayed = Timeline.replay(log.envs)
    assert replayed.state == log.t.state
    assert replayed.undo_stack == log.t.undo_stack
    assert replayed.redo_stack == log.t.redo_stack


def test_engagement_sides_in_join_order() -> None:
    e = Engagement()
    e = e.apply(add("a"), 1)
    e = e.apply(AircraftAdded(aircraft="r", name="r", side="Red", type_id="x"), 2)
    assert e.sides == ("Blue", "Red")


def test_a_reading_derived_from_a_state_is_worked_out_once_per_state() -> None:
    """``derived``: a ruleset's reading of the whole roster is worked out once per game state
    (a dry run for the dice asks it at every branch, issue 36) and anew for the next state."""
    from app.core.engagement import derived

    log = Log()
    log.do(add("a"))
    asked: list[Engagement] = []

    def in_play(e: Engagement) -> frozenset[str]:
        asked.append(e)
        return frozenset(k for k, a in e.aircraft.items() if a.in_play)

    first = log.t.state
    assert derived(first, in_play) == derived(first, in_play) == {"a"}
    assert asked == [first]
    log.do(StatusChanged(aircraft="a", set=(Status.DESTROYED,)))
    assert derived(log.t.state, in_play) == frozenset()
    assert asked == [first, log.t.state]
    assert derived(first, in_play) == {"a"}  # the earlier state's reading is its own
