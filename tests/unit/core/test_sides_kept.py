"""Issue 44: ``Engagement.sides`` is worked out once and carried to the states that follow; it
is always what a scan of the roster says, whatever changed (an aircraft added, its side
changed, one removed, a state change), folded event by event (``apply``) or in a draft
(``apply_all``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.engagement import Engagement, apply, apply_all
from app.core.events import (
    AircraftAdded,
    AircraftChanged,
    AircraftRemoved,
    AttributesSet,
    DamageTaken,
    Event,
)

SIDES = ("Blue", "Red", "Green")
IDS = ("a", "b", "c", "d")


def scanned(state: Engagement) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a.side for a in state.aircraft.values()))


def event(kind: str, aircraft: str, side: str, state: Engagement) -> Event | None:
    """One event of ``kind`` that can apply to ``state`` (None if none can)."""
    here = aircraft in state.aircraft
    if kind == "add":
        return (
            None
            if here
            else AircraftAdded(aircraft=aircraft, name=aircraft, side=side, type_id="jet")
        )
    if not here:
        return None
    if kind == "side":
        return AircraftChanged(aircraft=aircraft, side=side)
    if kind == "remove":
        return AircraftRemoved(aircraft=aircraft)
    if kind == "damage":
        return DamageTaken(aircraft=aircraft, points=1)
    return AttributesSet(aircraft=aircraft, values={"speed": 3})


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "side", "remove", "damage", "attributes"]),
        st.sampled_from(IDS),
        st.sampled_from(SIDES),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(STEPS)
def test_the_sides_kept_are_the_sides_of_the_roster(steps: list[tuple[str, str, str]]) -> None:
    state, seq, folded = Engagement(), 0, []
    for kind, aircraft, side in steps:
        ev = event(kind, aircraft, side, state)
        if ev is None:
            continue
        assert state.sides == scanned(state)  # asked before: kept, then carried on
        seq += 1
        state = apply(state, ev, seq)
        folded.append((ev, seq))
        assert state.sides == scanned(state)
    drafted = apply_all(Engagement(), folded)
    assert drafted.sides == scanned(drafted) == state.sides


def test_the_sides_are_not_a_field() -> None:
    """Kept beside the fields: never compared, stored or copied into a new state."""
    state = apply(Engagement(), AircraftAdded(aircraft="a", name="A", side="Blue", type_id="j"), 1)
    assert state.sides == ("Blue",)
    assert state == apply(
        Engagement(), AircraftAdded(aircraft="a", name="A", side="Blue", type_id="j"), 1
    )
    assert "_sides" not in Engagement.__dataclass_fields__
