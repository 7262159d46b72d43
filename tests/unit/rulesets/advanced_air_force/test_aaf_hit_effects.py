"""Rules 22-27: what C, E, G and W hits do."""

from __future__ import annotations

import pytest
from aaf_helpers import apply, game

from app.core.dice import TableDice
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.hits import (
    c_multiplier,
    damage_effects,
    engine_losses,
    wing_losses,
)


@pytest.mark.parametrize(("factors", "mult"), [(1, 2), (7, 2), (8, 3), (20, 3)])
def test_rule_22_flexible_c_hits(factors: int, mult: int) -> None:
    """Rule 22: F gun factors of seven or less x2 each C hit, eight or above x3."""
    assert c_multiplier(flexible_guns=True, gun_factors=factors, bomber_from_12_straight=False) == (
        mult
    )
    assert (
        c_multiplier(flexible_guns=False, gun_factors=factors, bomber_from_12_straight=False) == 1
    )


def test_rule_23_bomber_from_12_oclock_doubles_c_hits() -> None:
    """Rule 23: multi-engine bomber fired on from its 12 o'clock straight path: C x2."""
    assert c_multiplier(flexible_guns=False, gun_factors=10, bomber_from_12_straight=True) == 2
    assert c_multiplier(flexible_guns=True, gun_factors=10, bomber_from_12_straight=True) == 6


@pytest.mark.parametrize(
    ("e", "level", "pf"), [(0, 0, 0), (1, 1, 0), (2, 1, 1), (3, 1, 2), (4, 1, 3)]
)
def test_rule_24_single_engine(e: int, level: int, pf: int) -> None:
    """Rule 24: single engine: -1 Max. Level Sp. first E hit, -1 PF per additional; -.1 climb."""
    assert engine_losses("single_engine", e) == (level, pf, 100 * e)


@pytest.mark.parametrize(
    ("e", "level", "pf"), [(0, 0, 0), (1, 0, 1), (2, 1, 1), (3, 2, 1), (4, 3, 1)]
)
def test_rule_24_twin_engine(e: int, level: int, pf: int) -> None:
    """Rule 24: twin engine: -1 PF first E hit, -1 Max. Level Sp. per additional; -.1 climb."""
    assert engine_losses("twin_engine", e) == (level, pf, 100 * e)


@pytest.mark.parametrize(("e", "both"), [(1, 0), (2, 0), (3, 1), (4, 2)])
def test_rule_24_il_2(e: int, both: int) -> None:
    """Rule 24: Il-2: -1 PF and -1 Max. Level Sp. from the 3rd E hit only."""
    assert engine_losses("il_2", e) == (both, both, 100 * e)


@pytest.mark.parametrize(("e", "level", "pf"), [(1, 0, 0), (2, 1, 0), (3, 2, 1), (4, 3, 2)])
def test_rule_24_p47_group(e: int, level: int, pf: int) -> None:
    """Rule 24: P-47, FW-190F, G, A-8/R2, F4U, F6F: -1 Level from 2nd E hit, -1 PF from 3rd."""
    assert engine_losses("p_47_group", e) == (level, pf, 100 * e)


def test_rule_24_more_engines_have_no_effect_in_the_text() -> None:
    assert engine_losses(None, 3) == (0, 0, 0)


@pytest.mark.parametrize(
    ("w", "boxes", "dive", "rate", "limit"),
    [
        (1, 6, 0, 100, False),
        (2, 6, 1, 200, False),
        (3, 6, 1, 300, False),
        (4, 6, 2, 400, True),
        (5, 6, 2, 400, True),
        (4, 8, 2, 400, False),
        (5, 8, 2, 500, True),
        (7, 8, 3, 500, True),
    ],
)
def test_rule_27_w_hits(w: int, boxes: int, dive: int, rate: int, limit: bool) -> None:
    """Rule 27: -1 Max. Dive Sp. per two W hits; -.1 dive rate per W up to -.4 (-.5 with 7+ W)."""
    assert wing_losses(w, boxes, heavy_bomber=False) == (dive, rate, limit)


def test_rule_27_not_for_heavy_bombers() -> None:
    assert wing_losses(6, 12, heavy_bomber=True) == (0, 0, False)


def test_rule_25_c_hits_remove_half_loops_then_half_rolls() -> None:
    """Rule 25: the first C hit removes Half-Loops, the second Half-Rolls."""
    one = damage_effects(
        boxes={"C": 1}, engine_rule=None, w_boxes=6, heavy_bomber=False, g_hits_by_hemisphere={}
    )
    assert (one.half_loops_allowed, one.half_rolls_allowed) == (False, True)
    two = damage_effects(
        boxes={"C": 2}, engine_rule=None, w_boxes=6, heavy_bomber=False, g_hits_by_hemisphere={}
    )
    assert (two.half_loops_allowed, two.half_rolls_allowed) == (False, False)


def test_rule_26_g_hits_cost_four_flexible_factors_per_hemisphere() -> None:
    """Rule 26: -4 Gun Factors on the front or rear hemisphere per G hit on F guns."""
    e = damage_effects(
        boxes={"G": 3},
        engine_rule=None,
        w_boxes=6,
        heavy_bomber=False,
        g_hits_by_hemisphere={"front": 1, "rear": 2},
    )
    assert e.flexible_gun_loss == {"front": 4, "rear": 8}


def test_rule_27_limit_adds_level_speed_loss_and_forbids_maneuvers() -> None:
    """Rule 27: at the limit, -1 Max. Level Sp. and no Slip/H-Loop/H-Roll (with rule 24)."""
    e = damage_effects(
        boxes={"W": 4, "E": 1},
        engine_rule="single_engine",
        w_boxes=6,
        heavy_bomber=False,
        g_hits_by_hemisphere={},
    )
    assert e.max_level_speed_loss == 2
    assert e.max_dive_speed_loss == 2
    assert e.dive_rate_loss_ft == 400
    assert not (e.slips_allowed or e.half_loops_allowed or e.half_rolls_allowed)


@pytest.mark.parametrize(
    ("rule", "e", "level", "pf"),
    [
        ("p_47_group", 2, 1, 0),
        ("p_47_group", 4, 1, 1),
        ("il_2", 2, 0, 0),
        ("il_2", 4, 1, 1),
    ],
)
def test_rule_24_variant_named_losses_once(rule: str, e: int, level: int, pf: int) -> None:
    """Variant e_hits_named_once: rule 24's named-type losses are taken once each."""
    assert engine_losses(rule, e, named_once=True) == (level, pf, 100 * e)  # type: ignore[arg-type]


def test_rule_27_variant_intact_counts_unhit_boxes() -> None:
    """Variant w_intact_remaining: with 11 W boxes and 5 hits only 6 are intact: cap -.4."""
    assert wing_losses(5, 11, heavy_bomber=False) == (2, 500, True)
    assert wing_losses(5, 11, heavy_bomber=False, intact_remaining=True) == (2, 400, True)
    assert wing_losses(4, 12, heavy_bomber=False, intact_remaining=True) == (2, 400, False)


def test_variants_reach_gun_fire() -> None:
    rs = RULESET.bind(["e_hits_named_once"])
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "p47_sample"))
    gf = rs.procedures["gun_fire"]
    # 29+ factors at 1 hex: column 19; roll 1 = 7F3W3E: P-47 with 3 E hits
    i = gf.parse({"total_gun_factors": 30, "range_hexes": 1, "target": "red"})
    red = apply(e, gf.resolve(i, TableDice([1]), e)).aircraft["red"]
    assert (red.attributes["e_level_speed_loss"], red.attributes["power_factor_loss"]) == (1, 1)
    plain = RULESET.procedures["gun_fire"]
    red = apply(e, plain.resolve(i, TableDice([1]), e)).aircraft["red"]
    assert (red.attributes["e_level_speed_loss"], red.attributes["power_factor_loss"]) == (2, 1)
