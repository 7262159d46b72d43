"""Issue 31: a long log is folded into a draft (``apply_all``), not a new state per event;
the state must be exactly the one applying the events one by one gives, on a real log of
every ruleset (procedures, positions, the clock, ledgers, damage, undo and redo, a removed
aircraft) and on any sequence of the kinds the draft folds itself, refusals included; and a
game file opened with no snapshot (its log read once, chain and events checked) must come
back as the game the desk played."""

from __future__ import annotations

import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.core.dice import SeededDice
from app.core.engagement import Engagement, apply, apply_all
from app.core.errors import RuleViolation
from app.core.events import (
    AircraftAdded,
    AircraftRemoved,
    AttributesSet,
    ClockSet,
    DamageTaken,
    DiceSet,
    GameAttributesSet,
    PositionSet,
    ProcedureResolved,
)
from app.core.history import Timeline
from app.session import GameSession
from tests.unit.test_after_action_every_ruleset import (
    RULESETS,
    candidates,
    eight_aircraft,
    missions,
)


def one_by_one(state: Engagement, events: list) -> Engagement:
    for event, seq in events:
        state = apply(state, event, seq)
    return state


def played(path: Path, rid: str) -> GameSession:
    """A game of every kind of action the desk records, some undone, some redone."""
    s = eight_aircraft(path, rid)
    if rid == "nth_fleet":
        missions(s)
    planes = list(s.engagement.aircraft)
    for n, a in enumerate(planes):
        for facing in (60 * (n % 6), 30 + 60 * (n % 6)):
            try:  # a hex map takes a facing towards a hex side, an open table any
                s.roster.place(a, float(n), 0.0, facing=facing, altitude=n % 4)
                break
            except RuleViolation:
                continue
    s.clock.next_step()
    for n, proc in enumerate(s.ruleset.procedures.values()):
        try:
            tried = candidates(s, proc)[:3]
        except RuleViolation:  # not open to these aircraft as they stand now
            tried = []
        for inputs in tried:
            try:
                s.perform(proc.id, inputs, SeededDice(n))
            except (RuleViolation, ValidationError):
                continue
        if n % 3 == 0:
            s.undo()
        if n % 5 == 0 and s.log.timeline.can_redo:
            s.redo()
        s.clock.next_step()
    s.roster.set_dice("Blue", "the blue d10s")
    s.roster.place(planes[0], None, None)
    s.roster.mark_printed(planes[:2])
    s.roster.remove_aircraft(planes[-1])
    s.roster.change_aircraft(planes[1], name="Renamed")
    s.undo()
    return s


@pytest.mark.parametrize("rid", RULESETS)
def test_the_draft_folds_a_real_log_of_every_ruleset_as_one_by_one(
    rid: str, tmp_path: Path
) -> None:
    s = played(tmp_path / f"{rid}.airboss", rid)
    envs = s.events()
    kinds = {type(e.event) for e in envs}
    assert {ProcedureResolved, PositionSet, ClockSet, AircraftRemoved} <= kinds
    replayed = Timeline.replay(envs)
    active = set(replayed.undo_stack)
    counted = [
        (e.event, e.seq)
        for e in envs
        if not e.is_meta
        and type(e.event).__name__ != "CardsPrinted"
        and (e.action in active or e.action == 1)
    ]
    by_one = one_by_one(Engagement(), counted)
    assert apply_all(Engagement(), counted) == by_one
    assert replayed.state == s.engagement  # the desk's state, built action by action
    for a in by_one.aircraft.values():
        assert replayed.state.aircraft[a.id].revision == a.revision
    # each prefix too: the draft never lets a later event reach an earlier state
    for cut in range(0, len(counted), max(1, len(counted) // 7)):
        assert apply_all(Engagement(), counted[:cut]) == one_by_one(Engagement(), counted[:cut])

    # the file opened with no snapshot: read once, its chain checked, snapshotted again
    path = s.store.path
    s.close()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM snapshot")
    with GameSession.open(path) as again:
        assert again.engagement == replayed.state
        assert again.log.timeline.undo_stack == replayed.undo_stack
        assert again.log.timeline.redo_stack == replayed.redo_stack
        assert dict(again.roster.printed) == dict(replayed.printed)


def test_the_draft_never_changes_the_state_it_starts_from() -> None:
    start = one_by_one(
        Engagement(),
        [
            (AircraftAdded(aircraft="a", name="A", side="Blue", type_id="jet"), 1),
            (AttributesSet(aircraft="a", values={"speed": 1}), 2),
        ],
    )
    before = start.aircraft["a"]
    kept = dict(before.__dict__)
    after = apply_all(
        start,
        [
            (AttributesSet(aircraft="a", values={"speed": 2}), 3),
            (PositionSet(aircraft="a", x=1.0, y=2.0), 4),
        ],
    )
    assert start.aircraft["a"] is before and before.__dict__ == kept
    assert after.aircraft["a"].attributes == {"speed": 2} and after.aircraft["a"].revision == 4
    assert start.seq == 2 and after.seq == 4


planes = st.sampled_from(["a", "b", "gone"])
events = st.one_of(
    st.builds(
        AttributesSet,
        aircraft=planes,
        values=st.dictionaries(st.sampled_from("xy"), st.integers(0, 3)),
    ),
    st.builds(
        PositionSet,
        aircraft=planes,
        x=st.one_of(st.none(), st.floats(-5, 5), st.just(float("inf"))),
        y=st.one_of(st.none(), st.floats(-5, 5)),
        facing=st.integers(0, 300),
        altitude=st.integers(0, 4),
    ),
    st.builds(ClockSet, turn=st.integers(0, 4), step=st.integers(-1, 3)),
    st.builds(DiceSet, side=st.just("Blue"), dice=st.just("red")),
    st.builds(GameAttributesSet, values=st.dictionaries(st.sampled_from("pq"), st.integers(0, 3))),
    st.builds(DamageTaken, aircraft=planes, points=st.integers(0, 2)),
    st.builds(AircraftRemoved, aircraft=planes),
    st.builds(
        AircraftAdded, aircraft=planes, name=st.just("N"), side=st.just("Red"), type_id=st.just("t")
    ),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(events, max_size=25))
def test_any_sequence_folds_or_is_refused_as_one_by_one(seq: list) -> None:
    start = one_by_one(
        Engagement(),
        [
            (
                AircraftAdded(
                    aircraft="a", name="A", side="Blue", type_id="jet", ledgers={"f": Fraction(2)}
                ),
                1,
            ),
            (AircraftAdded(aircraft="b", name="B", side="Red", type_id="jet"), 2),
        ],
    )
    pairs = [(e, n + 3) for n, e in enumerate(seq)]
    try:
        expected: Engagement | str = one_by_one(start, pairs)
    except RuleViolation as e:
        expected = str(e)
    try:
        got: Engagement | str = apply_all(start, pairs)
    except RuleViolation as e:
        got = str(e)
    assert got == expected
