"""Advantage as tracked state: rules 2, 3, 6, 7 and V. Dive rule 6."""

from __future__ import annotations

from typing import Any

import pytest
from aaf_helpers import apply, game, next_turn

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.advantage_state import status

ADV = RULESET.procedures["declare_advantage"]
END = RULESET.procedures["end_advantage"]
GF = RULESET.procedures["gun_fire"]


def declare(e: Engagement, att: str, tgt: str, **kw: Any) -> Engagement:
    return apply(
        e, ADV.resolve(ADV.parse({"attacker": att, "target": tgt, **kw}), TableDice([]), e)
    )


def three() -> Engagement:
    return game(
        ("blue", "Blue", "spitfire_sample"),
        ("red", "Red", "bf110_sample"),
        ("red2", "Red", "spitfire_sample"),
    )


@pytest.mark.parametrize(("d", "ok"), [(1200, True), (-1200, True), (1300, False), (-1500, False)])
def test_rule_3_altitude_limit(d: int, ok: bool) -> None:
    """Rule 3: Advantage altitude limits are 1200 ft above or below."""
    i = ADV.parse({"altitude_difference_ft": d})
    if ok:
        assert ADV.odds(i) == {"advantage": 1}
    else:
        with pytest.raises(RuleViolation, match="rule 3"):
            ADV.odds(i)


def test_v_dive_rules_4_6_advantage_between_v_divers() -> None:
    """V. Dive rule 6: 2400 ft directly below, only on a V. Diving aircraft .1 or more below,
    within 2 hexes of its V. Dive hex (rule 4); no Advantage between V. Divers and others."""
    both = {"pursuer_in_v_dive": True, "target_in_v_dive": True}
    assert ADV.odds(ADV.parse({"altitude_difference_ft": -2400, **both}))
    assert ADV.odds(ADV.parse({"altitude_difference_ft": -100, "hexes_from_v_dive_hex": 2, **both}))
    for d in (0, 200, -2500):
        with pytest.raises(RuleViolation, match="V. Dive rule 6"):
            ADV.odds(ADV.parse({"altitude_difference_ft": d, **both}))
    with pytest.raises(RuleViolation, match="V. Dive rules 4, 6"):
        ADV.odds(ADV.parse({"altitude_difference_ft": -600, "hexes_from_v_dive_hex": 3, **both}))
    with pytest.raises(RuleViolation, match="non-V. Divers"):
        ADV.odds(ADV.parse({"altitude_difference_ft": -600, "pursuer_in_v_dive": True}))


def test_rule_2_first_then_second_consecutive_advantage() -> None:
    e = declare(three(), "blue", "red")
    assert status(e, "blue", "red") == "first"
    assert status(e, "red", "blue") == "disadvantaged"
    with pytest.raises(RuleViolation, match="already declared"):
        declare(e, "blue", "red")
    e = declare(next_turn(e), "blue", "red")
    assert status(e, "blue", "red") == "second_consecutive"


def test_rule_2_advantage_forbids_disadvantaging_others() -> None:
    e = declare(three(), "blue", "red")
    with pytest.raises(RuleViolation, match="rule 2"):
        declare(e, "blue", "red2")
    e = apply(e, END.resolve(END.parse({"aircraft": "blue"}), TableDice([]), e))
    declare(e, "blue", "red2")


def test_rule_2_no_fire_at_other_disadvantaged_fighters() -> None:
    """Rule 2: declaring the Advantage forbids firing at other Disadvantaged fighter targets."""
    e = game(
        ("blue", "Blue", "spitfire_sample"),
        ("blue2", "Blue", "p47_sample"),
        ("red", "Red", "bf110_sample"),
        ("red2", "Red", "spitfire_sample"),
    )
    e = declare(declare(e, "blue", "red"), "blue2", "red2")
    with pytest.raises(RuleViolation, match="rule 2"):
        GF.resolve(
            GF.parse(
                {
                    "total_gun_factors": 8,
                    "range_hexes": 1,
                    "attacker": "blue",
                    "target": "red2",
                    "advantage": "none",
                }
            ),
            TableDice([1]),
            e,
        )


def test_rule_2_non_fighter_without_fixed_guns_cannot_be_advantaged() -> None:
    e = game(("b17", "Blue", "b17_sample"), ("red", "Red", "spitfire_sample"))
    with pytest.raises(RuleViolation, match="rule 2"):
        declare(e, "b17", "red")


def test_rule_7_disadvantaged_cannot_hold_an_advantage() -> None:
    e = declare(three(), "blue", "red")
    with pytest.raises(RuleViolation, match="rule 7"):
        declare(e, "red", "blue")


def test_rule_7_new_disadvantage_cancels_the_targets_own_advantage() -> None:
    """Rule 7: a Disadvantaged aircraft cannot hold an Advantage, so it loses the one it had."""
    e = game(
        ("blue", "Blue", "spitfire_sample"),
        ("blue2", "Blue", "p47_sample"),
        ("red", "Red", "bf110_sample"),
    )
    e = declare(e, "red", "blue")
    r = ADV.resolve(ADV.parse({"attacker": "blue2", "target": "red"}), TableDice([]), e)
    assert "loses its own Advantage (rule 7)" in r.narrative
    e = apply(e, r)
    assert status(e, "red", "blue") == "disadvantaged"
    assert status(e, "blue", "red") == "none"


def test_rule_2_movement_order() -> None:
    """Rule 2: unaffected aircraft write their movement, then Disadvantaged move, then
    Advantaged plot."""
    e = declare(three(), "blue", "red")
    order = RULESET.acting(e)
    assert [line.who for line in order] == ["red2", "red", "blue"]
    assert "Disadvantaged" in order[1].what
    assert "Advantaged" in order[2].what


def test_advantage_not_repeated_expires_at_the_following_turn() -> None:
    e = declare(three(), "blue", "red")
    e1 = next_turn(e)
    assert RULESET.on_clock(e, 2, 0) == []
    e2 = next_turn(e1)
    assert e2.turn == 3
    evs = RULESET.on_clock(e1, 3, 0)
    after = apply(e1, evs)
    assert status(after, "blue", "red") == "none"
