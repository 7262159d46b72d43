"""Nth Fleet 2.9-2.15: the odds shown before an air attack or combat are what ``resolve`` does.

The shipped tables print two cells; the kit's check (test_nth_fleet_kit.py) fills them for
generated what-if inputs, and here they are checked on filled-in tables (``conftest.fill_tables``),
with counters too:
``resolve`` is run with every sequence of 2d5 totals typed at the table, each weighted by its
chance, and the result must equal ``odds`` exactly. That covers both ways the odds are worked
out: ``decide`` walked (one roll) and the convolution of a split attack.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from app.core.dice import DiceError, TableDice, distribution
from app.core.engagement import Engagement
from rulesets.nth_fleet import RULESET

TWO_D5 = distribution("2d5")


def faces(total: int) -> list[int]:
    """Two dice marked 0-5 (1.2) showing ``total``."""
    first = min(total, 5)
    return [first, total - first]


def typed_odds(proc: Any, inputs: Any, engagement: Engagement) -> dict[str, Fraction]:
    """``resolve`` over every sequence of typed 2d5 totals, each weighted by its chance."""
    out: dict[str, Fraction] = {}
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        totals, p = stack.pop()
        try:
            dice = TableDice([f for t in totals for f in faces(t)])
            res = proc.resolve(inputs, dice, engagement)
        except DiceError as e:
            assert "no value typed" in str(e)
            stack += [([*totals, t], p * q) for t, q in TWO_D5.items()]
            continue
        out[res.outcome] = out.get(res.outcome, Fraction(0)) + p
    return out


@pytest.mark.parametrize(
    "variants", [(), ("one_roll_for_split",), ("below_table_no_damage", "one_roll_for_split")]
)
@pytest.mark.parametrize(
    "inputs",
    [
        {"attack_total": 9},
        {"attack_total": 40, "on_cap": True, "friendly_ew": True},
        {"attack_total": 55, "attacking_cap": True},
        {"attack_total": 90, "enemy_ew": True},
        {"attack_total": 150, "attacking_cap": True},  # three rolls
        {"attack_total": 145, "on_cap": True},  # 40 + 50 + 50
    ],
)
def test_2_9_air_attack_odds_equal_every_typed_roll(
    inputs: dict, variants: tuple[str, ...], filled: None
) -> None:
    p = RULESET.bind(variants).procedures["air_attack"]
    parsed = p.parse(inputs)
    odds = p.odds(parsed)
    assert sum(odds.values()) == 1
    assert odds == typed_odds(p, parsed, Engagement())


def test_2_9_a_large_attack_is_exact_and_fast(filled: None) -> None:
    """Nth Fleet 2.9: 1000 points are twenty rolls on the 50 column: exact, not walked."""
    p = RULESET.procedures["air_attack"]
    odds = p.odds(p.parse({"attack_total": 1000, "attacking_cap": True}))
    assert sum(odds.values()) == 1
    assert "miss" not in odds
    low = 20 * (2 * 0 + 1)  # every roll 0-2: row 0 of the test 50 column
    assert odds[f"{low} damage points"] == (TWO_D5[0] + TWO_D5[1] + TWO_D5[2]) ** 20


@pytest.mark.parametrize(
    "variants", [(), ("one_roll_for_split",), ("ints_screen", "below_table_no_damage")]
)
def test_2_12_air_combat_odds_with_counters_equal_every_typed_roll(
    game: Callable, variants: tuple[str, ...], filled: None
) -> None:
    """Nth Fleet 2.9-2.15: Blue 8 F-14A x 11 + 4 A-6E x 2 = 96 (40 + 50 columns) against 4
    MiG-29 on CAP x 9 = 36 (30 column): three rolls, odds from the game's counters."""
    rs = RULESET.bind(variants)
    g = game(rs)
    a6 = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2, units=2)
    g.perform("launch_mission", {"aircraft": a6, "points": 4, "mission": "strike"})
    g.perform("launch_mission", {"aircraft": f14, "points": 8, "mission": "escort"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "cap"})
    p = rs.procedures["air_combat"]
    inputs = p.parse({"first": [a6, f14], "second": [mig], "cap": "second", "phase": "activation"})
    odds = p.odds(inputs, g.state)
    assert sum(odds.values()) == 1
    assert odds == typed_odds(p, inputs, g.state)


def test_2_12_air_combat_what_if_odds_equal_every_typed_roll(filled: None) -> None:
    p = RULESET.procedures["air_combat"]
    inputs = p.parse({"first_attack": 90, "second_attack": 36, "first_ew": True, "cap": "first"})
    assert p.odds(inputs) == typed_odds(p, inputs, Engagement())
