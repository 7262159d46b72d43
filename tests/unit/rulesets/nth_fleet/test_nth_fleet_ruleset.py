"""The nth_fleet ruleset as a plugin: registration, procedures, sequence of play, prefill."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest

from app.core.acting import ActingLine
from app.core.errors import RuleViolation
from app.plugins import load_ruleset
from rulesets.nth_fleet import RULESET


def test_registered_and_loadable() -> None:
    rs = load_ruleset("nth_fleet")
    assert rs.id == "nth_fleet"
    assert set(rs.procedures) == {
        "launch_mission",
        "mission_effectiveness",
        "air_attack",
        "air_combat",
        "return_to_base",
        "move_air_points",
    }
    assert rs.uses_pilot_quality is False


def test_every_procedure_cites_its_rule() -> None:
    for p in RULESET.procedures.values():
        assert p.rule.startswith("Nth Fleet 2.")
        assert p.__doc__ and p.__doc__.startswith("Nth Fleet 2.")


def test_variants_are_known_and_bind() -> None:
    assert {v.id for v in RULESET.variants} == {
        "one_roll_for_split",
        "ints_screen",
        "below_table_no_damage",
        "ew_each",
    }
    assert RULESET.bind(["ints_screen"]).chosen == frozenset({"ints_screen"})
    with pytest.raises(RuleViolation, match="no variant"):
        RULESET.bind(["house"])


@pytest.mark.parametrize(
    ("proc", "inputs"),
    [
        ("launch_mission", {}),
        ("mission_effectiveness", {"points": 2}),
        ("air_attack", {"attack_total": 95, "enemy_ew": True}),
        ("air_combat", {"first_attack": 52, "second_attack": 36, "cap": "second"}),
        ("return_to_base", {}),
        ("move_air_points", {}),
    ],
)
def test_odds_are_exact_and_sum_to_one(proc: str, inputs: dict, filled: None) -> None:
    p = RULESET.procedures[proc]
    odds = p.odds(p.parse(inputs))
    assert all(isinstance(v, Fraction) and v > 0 for v in odds.values())
    assert sum(odds.values()) == 1


def test_steps_and_who_acts(game: Callable) -> None:
    """Nth Fleet 2.3, 2.13, 2.14: the air phases the text names, in order."""
    g = game()
    steps = RULESET.steps(g.state)
    assert [s.phase for s in steps] == [
        "Strategic air phase",
        "Activation phase",
        "Return to base phase",
    ]
    r = g.add("Red", "tu95rt", "Bears", base="Olenya", air_points=2)
    b = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    # strategic phase: counters with unused points may fly strategic missions (2.2)
    assert RULESET.acting(g.state) == [
        ActingLine(r, "may fly a strategic mission (2.2)", procedure="launch_mission"),
        ActingLine(b, "may fly a strategic mission (2.2)", procedure="launch_mission"),
    ]
    g.perform("launch_mission", {"aircraft": r, "points": 2, "mission": "rcn"})
    assert RULESET.acting(g.state) == [
        ActingLine(b, "may fly a strategic mission (2.2)", procedure="launch_mission"),
        ActingLine(r, "rolls for mission effectiveness (2.3)", procedure="mission_effectiveness"),
    ]
    # activation: launches, and with both sides up, the air combat (2.9-2.12); its line
    # names a counter of each force, so the combat opens with both (issue 28)
    g.perform("launch_mission", {"aircraft": b, "points": 4, "mission": "cap"})
    activation = RULESET.acting(replace(g.state, step=1))
    assert (
        ActingLine(b, "may launch a strike, escort or CAP (2.2)", procedure="launch_mission")
        in activation
    )
    assert activation[-1] == ActingLine(
        r, "Red: air combat against Blue's forces (2.9-2.12)", procedure="air_combat", other=b
    )
    assert RULESET.acting(replace(g.state, step=2)) == [
        ActingLine(r, "returns to base (2.1)", procedure="return_to_base")
    ]
    assert RULESET.acting(replace(g.state, step=9)) == []


def test_air_combat_takes_attacker_and_target_and_prefills(game: Callable, filled: None) -> None:
    g = game()
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2)
    g.perform("launch_mission", {"aircraft": f14, "points": 4, "mission": "intercept"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "cap"})
    p = RULESET.procedures["air_combat"]
    pre = p.prefill(replace(g.state, step=1), f14, mig)
    assert pre == {
        "phase": "activation",
        "cap": "second",
        # each force: its lead and every other counter of its side fighting where it does
        # (none here); the leads are listed too (issue 43)
        "first": [f14],
        "second": [mig],
        "first_attack": 44,
        "second_attack": 36,
        "first_ew": False,
        "second_ew": False,
    }
    odds = p.odds(p.parse({"attacker": f14, "target": mig, **pre}), replace(g.state, step=1))
    assert sum(odds.values()) == 1
    # 4 x 11 = 44 -> 40 column, 2d5 = 5 -2 -> row 3: 6 damage; 4 x 9 = 36 -> 30 column,
    # 2d5 = 1 +2 -> row 3: 4 damage. 6 damage: 1 MiG (defence 4); 4 damage: no F-14A (5).
    res = g.perform("air_combat", {"attacker": f14, "target": mig, **pre}, [2, 3, 0, 1])
    assert res.outcome == "first force 6, second force 4 damage points"
    assert g.tracks(mig)["cap"] == 3
    assert g.tracks(f14)["aloft"] == 4
    assert res.events[0].attacker == f14
    assert res.events[0].target == mig


def test_air_combat_prefill_without_the_tables(game: Callable) -> None:
    """With a missing Defence Value Table cell the prefill leaves the totals to the umpire."""
    g = game()
    a6 = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2, track="cap")
    g.perform("launch_mission", {"aircraft": a6, "points": 4, "mission": "strike"})
    pre = RULESET.procedures["air_combat"].prefill(g.state, a6, mig)
    assert pre == {"phase": "strategic air", "cap": "second", "first": [a6], "second": [mig]}


def test_air_combat_opens_with_both_forces_and_totals_that_follow_them(
    game: Callable, filled: None
) -> None:
    """Issue 29: the combat line opens with every counter up on each side in its force, the
    totals summed over them; a counter unticked leaves its force's total."""
    g = game()
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    f14b = g.add("Blue", "f14a", "VF-2", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2)
    for a in (f14, f14b):
        g.perform("launch_mission", {"aircraft": a, "points": 4, "mission": "intercept"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "cap"})
    p = RULESET.procedures["air_combat"]
    e = replace(g.state, step=1)
    pre = p.prefill(e, f14, mig)
    assert pre["first"] == [f14, f14b] and pre["second"] == [mig]
    assert pre["first_attack"] == 88  # 2 x 4 points x 11
    alone = p.complete(e, {"attacker": f14, "target": mig, **{**pre, "first": [f14]}})
    assert alone["first_attack"] == 44
