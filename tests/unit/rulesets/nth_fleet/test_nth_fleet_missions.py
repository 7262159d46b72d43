"""Nth Fleet 2.1-2.3: launching missions, effectiveness rolls, returning to base."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest
from pydantic import ValidationError

from app.core.dice import DiceError, TableDice
from app.core.engagement import Engagement
from app.core.errors import RuleViolation


def effectiveness_odds(rs, points: int, kind: str = "strategic") -> dict[str, Fraction]:
    p = rs.procedures["mission_effectiveness"]
    return p.odds(p.parse({"points": points, "kind": kind}))


def test_2_3_rcn_mission_of_3_points_is_75_percent_effective(rs) -> None:
    """Nth Fleet 2.3: "a RCN mission with 3 aircraft has only a 75% chance of being effective"."""
    assert effectiveness_odds(rs, 3) == {"effective": Fraction(3, 4), "ineffective": Fraction(1, 4)}


@pytest.mark.parametrize("points", [1, 2, 3, 4, 5, 12])
def test_2_2_2_3_effectiveness_odds_by_hand(rs, points: int) -> None:
    """Nth Fleet 2.2, 2.3: a d4 roll of at most the air points; exact, against enumeration."""
    faces = range(1, 5)
    good = Fraction(sum(1 for f in faces if f <= points), 4)
    odds = effectiveness_odds(rs, points, "support")
    assert odds.get("effective", Fraction(0)) == good
    assert odds.get("ineffective", Fraction(0)) == 1 - good
    assert sum(odds.values()) == 1


def test_2_1_launch_moves_unused_points_aloft_or_on_cap(game: Callable) -> None:
    """Nth Fleet 2.1, 2.2: strikes are allocated in air points (a tactical strike may be one)."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    f = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    res = g.perform("launch_mission", {"aircraft": a, "points": 1, "mission": "tactical strike"})
    assert res.outcome == "launched"
    assert g.tracks(a) == {"unused": 3, "aloft": 1, "cap": 0, "used": 0}
    assert g.state.get(a).attributes["mission"] == "tactical strike"
    assert g.state.get(a).attributes["effective"] is True  # tactical strikes do not roll
    g.perform("launch_mission", {"aircraft": f, "points": 2, "mission": "cap"})
    assert g.tracks(f) == {"unused": 2, "aloft": 0, "cap": 2, "used": 0}
    assert g.state.get(f).attributes["mission"] is None


def test_launch_refusals(game: Callable) -> None:
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    with pytest.raises(RuleViolation, match="only 4 air point"):
        g.perform("launch_mission", {"aircraft": a, "points": 5, "mission": "strike"})
    with pytest.raises(RuleViolation, match="only fighters fly cap"):
        g.perform("launch_mission", {"aircraft": a, "points": 2, "mission": "cap"})
    with pytest.raises(RuleViolation, match="only fighters fly escort"):
        g.perform("launch_mission", {"aircraft": a, "points": 2, "mission": "escort"})
    g.perform("launch_mission", {"aircraft": a, "points": 2, "mission": "strike"})
    with pytest.raises(RuleViolation, match="one mission at a time"):
        g.perform("launch_mission", {"aircraft": a, "points": 1, "mission": "rcn"})
    with pytest.raises(RuleViolation, match="needs the counter"):
        g.perform("launch_mission", {"points": 1, "mission": "rcn"})
    with pytest.raises(ValidationError):
        g.perform("launch_mission", {"aircraft": a, "points": 0, "mission": "strike"})
    with pytest.raises(ValidationError):
        g.perform("launch_mission", {"aircraft": a, "points": 1, "mission": "bombing"})


def test_2_3_small_strategic_mission_rolls_and_ineffective_stays_aloft(game: Callable) -> None:
    """Nth Fleet 2.3: under 4 points a d4 at most the points; ineffective ones stay aloft."""
    g = game()
    r = g.add("Red", "tu95rt", "Bears", base="Olenya", air_points=3)
    g.perform("launch_mission", {"aircraft": r, "points": 3, "mission": "rcn"})
    assert g.state.get(r).attributes["effective"] is None  # the roll is still to be made
    res = g.perform("mission_effectiveness", {"aircraft": r, "points": 3, "kind": "strategic"}, [4])
    assert res.outcome == "ineffective"
    assert "return-to-base phase" in res.narrative
    assert g.state.get(r).attributes["effective"] is False
    assert g.tracks(r) == {"unused": 0, "aloft": 3, "cap": 0, "used": 0}
    res = g.perform("mission_effectiveness", {"aircraft": r, "points": 3, "kind": "strategic"}, [3])
    assert res.outcome == "effective"
    assert g.state.get(r).attributes["effective"] is True


def test_2_3_four_points_or_more_need_no_roll(rs, game: Callable) -> None:
    """Nth Fleet 2.3: only missions of fewer than 4 air points roll."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    b = g.add("Blue", "a6e", "VA-65", base="Nimitz", unit_sides=2)
    g.perform("launch_mission", {"aircraft": a, "points": 4, "mission": "strike"})
    assert g.state.get(a).attributes["effective"] is True
    # a mission of two counters, 2 + 2 points: four points, effective without a roll
    g.perform("launch_mission", {"aircraft": b, "points": 2, "mission": "strike"})
    g.perform("move_air_points", {"aircraft": a, "source": "aloft", "dest": "unused", "points": 2})
    p = rs.procedures["mission_effectiveness"]
    inputs = p.parse({"aircraft": a, "other_groups": [b], "points": 4})
    assert p.dice_needed(inputs, g.state) == []
    res = g.perform("mission_effectiveness", inputs.model_dump(), [])
    assert res.outcome == "effective"
    assert res.rolls == ()
    assert g.state.get(b).attributes["effective"] is True


def test_2_2_support_aircraft_roll_their_points(game: Callable) -> None:
    """Nth Fleet 2.2: AEW and EW must roll their number of air points on a d4."""
    g = game()
    e = g.add("Blue", "ea6b", "VAQ-136", base="Nimitz", unit_sides=1)
    g.perform("launch_mission", {"aircraft": e, "points": 2, "mission": "ew"})
    with pytest.raises(RuleViolation, match="not a strategic mission"):
        g.perform("mission_effectiveness", {"aircraft": e, "points": 2, "kind": "strategic"}, [1])
    with pytest.raises(RuleViolation, match="2 air point"):
        g.perform("mission_effectiveness", {"aircraft": e, "points": 1, "kind": "support"}, [1])
    with pytest.raises(DiceError):
        g.perform("mission_effectiveness", {"aircraft": e, "points": 2, "kind": "support"}, [5])
    res = g.perform("mission_effectiveness", {"aircraft": e, "points": 2, "kind": "support"}, [2])
    assert res.outcome == "effective"
    assert g.state.get(e).attributes["effective"] is True


def test_missions_that_do_not_roll_are_refused(game: Callable) -> None:
    g = game()
    f = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    g.perform("launch_mission", {"aircraft": f, "points": 2, "mission": "escort"})
    with pytest.raises(RuleViolation, match="escort"):
        g.perform("mission_effectiveness", {"aircraft": f, "points": 2, "kind": "strategic"}, [1])


def test_2_1_return_to_base_lands_on_used(game: Callable) -> None:
    """Nth Fleet 2.1: aircraft that completed their mission (or CAP) go to the used track."""
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    f = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    g.perform("launch_mission", {"aircraft": a, "points": 3, "mission": "strike", "name": "Alpha"})
    g.perform("launch_mission", {"aircraft": f, "points": 4, "mission": "cap"})
    g.perform("return_to_base", {"aircraft": a})
    assert g.tracks(a) == {"unused": 1, "aloft": 0, "cap": 0, "used": 3}
    assert g.state.get(a).attributes["mission"] is None
    g.perform("return_to_base", {"aircraft": f, "source": "cap", "points": 1})
    assert g.tracks(f) == {"unused": 0, "aloft": 0, "cap": 3, "used": 1}
    with pytest.raises(RuleViolation, match="no air points aloft"):
        g.perform("return_to_base", {"aircraft": a})
    with pytest.raises(RuleViolation, match="only 3"):
        g.perform("return_to_base", {"aircraft": f, "source": "cap", "points": 4})


def test_2_1_umpire_moves_points_between_tracks(game: Callable) -> None:
    g = game()
    a = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2, track="used")
    g.perform("move_air_points", {"aircraft": a, "source": "used", "dest": "unused", "points": 3})
    assert g.tracks(a) == {"unused": 3, "aloft": 0, "cap": 0, "used": 1}
    with pytest.raises(RuleViolation, match="already there"):
        g.perform("move_air_points", {"aircraft": a, "source": "used", "dest": "used"})
    with pytest.raises(ValidationError):
        g.perform("move_air_points", {"aircraft": a, "source": "used", "dest": "aloft"})


def test_tracks_always_add_up_to_the_air_points(game: Callable) -> None:
    g = game()
    a = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    steps = [
        ("launch_mission", {"aircraft": a, "points": 3, "mission": "cap"}),
        ("launch_mission", {"aircraft": a, "points": 2, "mission": "escort"}),
        ("return_to_base", {"aircraft": a, "source": "cap"}),
        ("move_air_points", {"aircraft": a, "source": "used", "dest": "unused", "points": 2}),
    ]
    for proc, inputs in steps:
        g.perform(proc, inputs)
        assert sum(g.tracks(a).values()) == g.state.get(a).ledger("air_points") == 8
    assert g.tracks(a) == {"unused": 5, "aloft": 2, "cap": 0, "used": 1}


def test_effectiveness_dice_by_enumeration(rs) -> None:
    """Exact odds of every effectiveness roll: each d4 face is 1/4."""
    p = rs.procedures["mission_effectiveness"]
    for points, face in itertools.product(range(1, 4), range(1, 5)):
        res = p.resolve(p.parse({"points": points}), TableDice([face]), Engagement())
        assert res.outcome == ("effective" if face <= points else "ineffective")
