"""Nth Fleet 2.1 (air points and the Air Base Display) and 2.4 (prorated values)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from pydantic import ValidationError

from app.core.errors import RuleViolation
from app.core.ruleset import KeyValues, Table, Track
from rulesets.nth_fleet.card import Details, per_point
from rulesets.nth_fleet.displays import base_display, base_totals


def test_2_1_two_sided_unit_is_four_air_points(rs, game: Callable) -> None:
    """Nth Fleet 2.1: a two-sided air unit becomes four air points."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    s = g.state.get(a)
    assert s.count == 4
    assert s.ledger("air_points") == 4
    assert g.tracks(a) == {"unused": 4, "aloft": 0, "cap": 0, "used": 0}
    assert s.pilot is None
    assert rs.uses_pilot_quality is False


def test_2_1_single_sided_unit_is_two_air_points(game: Callable) -> None:
    """Nth Fleet 2.1: a single-sided unit (typically RCN) becomes two air points."""
    g = game()
    bear = g.add("Red", "tu95rt", "Bear", base="Olenya", unit_sides=1)
    # without a count, the type's own counter gives it: the sample Tu-95RT is single-sided
    bear2 = g.add("Red", "tu95rt", "Bear 2", base="Olenya")
    fulcrums = g.add("Red", "mig29", "Fulcrums", base="Olenya")
    assert [g.state.get(a).count for a in (bear, bear2, fulcrums)] == [2, 2, 4]


def test_2_1_several_units_and_direct_air_points(game: Callable) -> None:
    g = game()
    vf1 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=3)
    vf2 = g.add("Blue", "f14a", "VF-2", base="Nimitz", air_points=3)
    assert g.state.get(vf1).count == 12
    assert g.state.get(vf2).count == 3


def test_count_is_another_name_for_air_points(game: Callable) -> None:
    """API.md: ``add_aircraft(..., count=N)`` puts a counter of N air points on the display."""
    g = game()
    a = g.add("Blue", "f14a", "VF-1", base="Nimitz", count=6)
    assert g.state.get(a).count == 6
    assert g.state.get(a).details["air_points"] == 6
    # a form that sends every field, unset ones as None, still gets the type's own count
    b = g.add("Blue", "e2c", "VAW-117", base="Nimitz", air_points=None, unit_sides=None)
    assert g.state.get(b).count == 2


def test_details_are_validated() -> None:
    with pytest.raises(ValidationError, match="not both"):
        Details(base="Nimitz", air_points=4, unit_sides=2)
    with pytest.raises(ValidationError, match="air_points"):
        Details(base="Nimitz")
    with pytest.raises(ValidationError):
        Details(base="Nimitz", unit_sides=3)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Details(base="", air_points=2)
    with pytest.raises(ValidationError):
        Details(base="Nimitz", air_points=0)


def test_bad_details_are_refused_as_rule_violations(game: Callable) -> None:
    g = game()
    with pytest.raises(RuleViolation, match="air_points"):
        g.add("Blue", "a6e", "VA-35", base="Nimitz", air_points=-1)
    with pytest.raises(RuleViolation, match="no aircraft type"):
        g.add("Blue", "b52", "Buff", base="Guam", air_points=4)


def test_2_1_counters_can_start_on_another_track(game: Callable) -> None:
    g = game()
    a = g.add("Blue", "f14a", "VF-1", base="Nimitz", air_points=4, track="used")
    assert g.tracks(a) == {"unused": 0, "aloft": 0, "cap": 0, "used": 4}


def test_2_1_each_base_has_its_own_display(game: Callable) -> None:
    """Nth Fleet 2.1: each airbase (CV or land) records its aircraft on its own display."""
    g = game()
    g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    g.add("Blue", "e2c", "VAW-117", base="Nimitz")
    g.add("Red", "mig29", "Fulcrums", base="Olenya", track="cap")
    shown = base_display(g.state)
    assert list(shown) == ["Nimitz", "Olenya"]
    assert shown["Nimitz"]["unused"] == {"VA-35": 4, "VF-1": 8, "VAW-117": 2}
    assert shown["Olenya"]["cap"] == {"Fulcrums": 4}
    assert base_totals(g.state, "Nimitz") == {"unused": 14, "aloft": 0, "cap": 0, "used": 0}
    with pytest.raises(RuleViolation, match="no air base"):
        base_totals(g.state, "Midway")


def test_2_4_values_are_prorated_per_air_point() -> None:
    """Nth Fleet 2.4: an air point's air-surface and ASW values are prorated from the unit's."""
    assert per_point(10, 2) == Fraction(10, 4)
    assert per_point(6, 2) == Fraction(3, 2)
    assert per_point(1, 1) == Fraction(1, 2)
    assert per_point(None, 2) is None


def test_card_shows_values_display_and_air_points(rs, game: Callable) -> None:
    """The card: prorated values (2.4), the base's display (2.1) and the air points track."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    g.perform("launch_mission", {"aircraft": a, "points": 3, "mission": "strike"})
    spec = rs.card_spec(g.state.get(a), g.state)
    assert spec.title == "A-6E"
    values = next(b for b in spec.blocks if isinstance(b, KeyValues) and b.title == "Values")
    # the sample A-6E prints air-surface 10 for its two-sided unit: 10/4 = 5/2 per air point
    assert ("Air-surface per air point (2.4)", "5/2 (10 now)") in values.items
    assert ("Defence value", "missing (Defence Value Table)") in values.items
    display = next(b for b in spec.blocks if isinstance(b, Table))
    assert display.title == "Air Base Display: Nimitz (2.1)"
    assert display.header == ("Counter", "Unused", "Aloft", "CAP", "Used")
    assert display.rows == (
        ("VA-35", "1", "3", "0", "0"),
        ("VF-1", "4", "0", "0", "0"),
        ("Total", "5", "3", "0", "0"),
    )
    track = next(b for b in spec.blocks if isinstance(b, Track))
    assert (track.title, track.total, track.used) == ("Air points", 4, 0)
    counter = next(b for b in spec.blocks if isinstance(b, KeyValues) and b.title == "Counter")
    assert ("Mission", "strike, roll pending") in counter.items


def test_card_shows_defence_and_half_attack_once_filled(rs, game: Callable, filled: None) -> None:
    """Nth Fleet 2.7, 2.8 on the card: defence 4 gives an A-6E attack value of 2."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    values = rs.card_spec(g.state.get(a), g.state).blocks[1]
    assert isinstance(values, KeyValues)
    assert ("Defence value", "4") in values.items
    assert ("Attack value", "2") in values.items


def test_2_1_the_desk_shows_each_base_display(rs, game: Callable) -> None:
    """Nth Fleet 2.1: each air base's display, its three tracks (and points aloft), as a table."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    g.add("Red", "mig29", "Fulcrums", base="Olenya")
    g.perform("launch_mission", {"aircraft": a, "points": 3, "mission": "strike"})
    boards = rs.displays(g.state)
    assert [b.title for b in boards] == [
        "Air Base Display: Nimitz (2.1)",
        "Air Base Display: Olenya (2.1)",
    ]
    nimitz = boards[0]
    assert nimitz.header == ("Counter", "Unused", "Aloft", "CAP", "Used")
    assert nimitz.rows == (
        ("VA-35", "1", "3", "0", "0"),
        ("VF-1", "4", "0", "0", "0"),
        ("Total", "5", "3", "0", "0"),
    )
