"""Calculators: gun range (1, 4, 5, 13), Snapshot (8), stall (10), climb (9), airspeed
(2, 16-21, 29), Vertical Dives and Climbs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from aaf_helpers import VDIVE, apply, game, next_turn

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.core.events import StatusChanged
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.gun_range import altitude_hexes

P = RULESET.procedures


def label(proc: str, **kw: Any) -> str:
    p = P[proc]
    (only,) = p.odds(p.parse(kw))
    return only


@pytest.mark.parametrize(
    ("ft", "hexes"), [(0, 0), (299, 0), (300, 1), (599, 1), (600, 2), (-1200, 4)]
)
def test_rule_4_300_ft_is_one_hex_fractions_ignored(ft: int, hexes: int) -> None:
    assert altitude_hexes(ft) == hexes


def test_gun_range_default_and_variant() -> None:
    """Rule 4 reading: the larger of hexes apart and altitude hexes; the variant adds them."""
    assert label("gun_range", horizontal_hexes=2, altitude_difference_ft=-900) == "range 3"
    assert label("gun_range", horizontal_hexes=0, altitude_difference_ft=0) == "range 1"
    added = RULESET.bind(["range_adds_altitude"]).procedures["gun_range"]
    i = added.parse({"horizontal_hexes": 2, "altitude_difference_ft": -900})
    assert added.odds(i) == {"range 5": Fraction(1)}


def test_rule_5_and_13_in_gun_range() -> None:
    with pytest.raises(RuleViolation, match="rule 5"):
        label("gun_range", horizontal_hexes=1, altitude_difference_ft=900)
    assert label("gun_range", horizontal_hexes=1, altitude_difference_ft=900, gun_type="FH")
    with pytest.raises(RuleViolation, match="rule 13"):
        label("gun_range", horizontal_hexes=3, attacker_inverted=True)


def test_v_dive_rule_5_vertical_range_1800_ft() -> None:
    """V. Dive rule 5: downward in the V. Dive hex only, at most 1800 ft = 6 hexes."""
    assert (
        label(
            "gun_range", horizontal_hexes=0, altitude_difference_ft=-1800, attacker_in_v_dive=True
        )
        == "range 6"
    )
    with pytest.raises(RuleViolation, match="V. Dive rule 5"):
        label("gun_range", horizontal_hexes=1, altitude_difference_ft=-600, attacker_in_v_dive=True)


def _snap(**kw: Any) -> str:
    base = {
        "target_disadvantaged_or_straight_bomber": True,
        "hexes_beyond": 2,
        "attacker_current_altitude_ft": 10000,
        "attacker_resulting_altitude_ft": 8700,
        "target_resulting_altitude_ft": 9000,
    }
    return label("snapshot_check", **{**base, **kw})


def test_rule_8_snapshot() -> None:
    """Rule 8: from above, the attacker must end 300 ft below the target; at most 2 hexes
    beyond; only on a Disadvantaged aircraft or straight-course bomber."""
    assert _snap() == "snapshot allowed"
    assert _snap(attacker_current_altitude_ft=8000, attacker_resulting_altitude_ft=9300)
    assert _snap(attacker_current_altitude_ft=9000, attacker_resulting_altitude_ft=9000)
    with pytest.raises(RuleViolation, match="8700"):
        _snap(attacker_resulting_altitude_ft=9000)
    with pytest.raises(RuleViolation, match="2 hexes"):
        _snap(hexes_beyond=3)
    with pytest.raises(RuleViolation, match="Disadvantaged"):
        _snap(target_disadvantaged_or_straight_bomber=False)


def test_rule_10_stall_speed() -> None:
    assert label("stall_speed", stall_speed=4, level_bank_without_maneuvers=True) == "stall speed 3"
    assert label("stall_speed", stall_speed=4) == "stall speed 4"
    assert (
        label("stall_speed", stall_speed=4, level_bank_without_maneuvers=True, exempt_type=True)
        == "stall speed 4"
    )


@pytest.mark.parametrize(
    ("climb", "kw", "out"),
    [
        (500, {"non_level_or_inverted_flying": True}, 200),
        (800, {"non_level_or_inverted_flying": True}, 400),
        (500, {}, 500),
        (
            500,
            {"non_level_or_inverted_flying": True, "inverted_only_from_climbing_half_loop": True},
            500,
        ),
    ],
)
def test_rule_9_climb_rate_halved_ignoring_50_ft(climb: int, kw: dict[str, Any], out: int) -> None:
    """Rule 9: 50% after non-level or inverted flying, 50 ft fractions ignored (500 -> 200)."""
    assert label("climb_rate", available_climb_ft=climb, **kw) == f"climb {out} ft"


SPEED = {
    "current_speed": 8,
    "max_level_speed": 10,
    "max_dive_speed": 14,
    "power_factors": 2,
    "brake_factors": 2,
}


def speed(**kw: Any) -> str:
    return label("speed_change", **{**SPEED, **kw})


def test_speed_power_and_brake() -> None:
    assert speed(power_used=2) == "airspeed 10"
    assert speed(brake_used=2) == "airspeed 6"
    with pytest.raises(RuleViolation, match="only 2 Power"):
        speed(power_used=3)


def test_rule_17_power_adds_no_dive_speed_and_dive_needs_a_gain() -> None:
    with pytest.raises(RuleViolation, match="rule 17"):
        speed(current_speed=10, power_used=1)
    assert speed(current_speed=10, dive_gain=2) == "airspeed 12"
    with pytest.raises(RuleViolation, match="rule 17"):
        speed(current_speed=12, brake_used=1, power_used=1)


def test_rule_2_advantage_exception_for_power_in_dive_speed() -> None:
    """Rule 2: with Advantage, Power may add Dive Speed Points only if the plotted costs bring
    the Resulting Airspeed below Dive Speed."""
    assert (
        speed(
            current_speed=12,
            brake_used=1,
            power_used=1,
            maneuver_and_climb_cost=3,
            advantage_exception=True,
        )
        == "airspeed 9"
    )


def test_rule_18_dive_speed_uses_a_brake_factor() -> None:
    with pytest.raises(RuleViolation, match="rule 18"):
        speed(current_speed=12)
    assert speed(current_speed=12, brake_used=1, dive_gain=1) == "airspeed 12"


def test_rule_19_acceleration_beyond_max_dive_is_void() -> None:
    assert speed(current_speed=13, brake_used=1, dive_gain=5) == "airspeed 14"


def test_rule_16_slip_cost_and_inverted() -> None:
    """Rule 16: Slip -2 (-0 in Dive Speed); no Slip inverted."""
    assert speed(slips=1) == "airspeed 6"
    assert speed(current_speed=12, brake_used=1, dive_gain=1, slips=1) == "airspeed 12"
    with pytest.raises(RuleViolation, match="rule 16"):
        speed(slips=1, inverted=True)


#: an H-Loop flown at its full rate (rule 20): test values
FULL = {"h_loop_altitude_ft": 1200, "h_loop_full_rate_ft": 1200}
DIVING = {"half_loop": "diving", "dive_gain": 1, "max_dive_acceleration": 1, **FULL}


def test_rules_20_21_half_loop() -> None:
    """Rule 21: H-Loop -1 in dive, -0 climbing below 29.9, -1 above; no Power with it.
    Rule 20: not climbing from inverted; only from L or I Bank; no outside loop above 4."""
    assert speed(**DIVING) == "airspeed 8"
    assert speed(half_loop="climbing", altitude_ft=20000, **FULL) == "airspeed 8"
    assert speed(half_loop="climbing", altitude_ft=30000, **FULL) == "airspeed 7"
    with pytest.raises(RuleViolation, match="rule 21"):
        speed(**DIVING, power_used=1)
    with pytest.raises(RuleViolation, match="rule 20"):
        speed(half_loop="climbing", inverted=True, **FULL)
    with pytest.raises(RuleViolation, match="rule 20"):
        speed(**DIVING, h_loop_from_level_or_inverted_bank=False)
    with pytest.raises(RuleViolation, match="rule 20"):
        speed(outside_loop=True)


def test_rule_19_diving_half_loop_gains_the_max_dive_acceleration() -> None:
    """Rule 19: "Diving H-Loop mandatory Max. Dive additions = 0 acceler.: Use Max. Dive.
    Acceler. only (-H-Loop cost)": the dive gain is exactly the Max. Dive Acceleration (test
    value 3), less the H-Loop's 1."""
    assert speed(**{**DIVING, "max_dive_acceleration": 3, "dive_gain": 3}) == "airspeed 10"
    with pytest.raises(RuleViolation, match="exactly the Max. Dive Acceleration"):
        speed(**{**DIVING, "max_dive_acceleration": 3, "dive_gain": 1})
    with pytest.raises(RuleViolation, match="give the card's value"):
        speed(**{**DIVING, "max_dive_acceleration": None})


def test_rule_20_half_loop_uses_the_full_rate() -> None:
    """Rule 20: an H-Loop "must use full Special H-Loop Max. Dive Rate or full Max. Dive Sp.
    Climb always": a partial altitude change is refused, and the full rate must be given."""
    with pytest.raises(RuleViolation, match="full Special H-Loop Max. Dive Rate"):
        speed(**{**DIVING, "h_loop_altitude_ft": 800})
    with pytest.raises(RuleViolation, match="full Max. Dive Sp. Climb"):
        speed(half_loop="climbing", h_loop_altitude_ft=600, h_loop_full_rate_ft=900)
    with pytest.raises(RuleViolation, match="give the H-Loop's altitude change"):
        speed(half_loop="climbing")


def test_rule_21_advantaged_half_loop_defers_the_power_loss() -> None:
    """Rule 21: "No Power Factors allowed in the Current Game-Turn with H-Loop (if Advantaged,
    then Power Factor loss applies only in the Resulting Game-Turn)": the Advantaged aircraft
    uses Power now, and none in the next Game-Turn."""
    from app.core.events import ClockSet

    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    p = P["speed_change"]
    loop = {**SPEED, **DIVING, "aircraft": "blue", "advantaged": True, "power_used": 1}
    r = p.resolve(p.parse(loop), TableDice([]), e)
    assert "no Power Factors next Game-Turn" in r.narrative
    e = apply(e, r)
    e = e.apply(ClockSet(turn=e.turn + 1, step=0), e.seq + 1)
    plain = {**SPEED, "aircraft": "blue", "current_speed": 8, "power_used": 1}
    with pytest.raises(RuleViolation, match="rule 21"):
        p.resolve(p.parse(plain), TableDice([]), e)
    assert p.resolve(p.parse({**plain, "power_used": 0}), TableDice([]), e).outcome


def test_rule_29_half_rolls() -> None:
    assert speed(half_rolls=2) == "airspeed 8"
    assert speed(full_half_rolls=1) == "airspeed 7"


def test_rules_25_27_hits_remove_maneuvers_for_a_tracked_aircraft() -> None:
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    gf = P["gun_fire"]
    r = gf.resolve(
        gf.parse({"total_gun_factors": 2, "range_hexes": 1, "attacker": "red", "target": "blue"}),
        TableDice([6]),
        e,
    )
    e = apply(e, r)  # 2WCEL: one C hit: no Half-Loops (rule 25)
    p = P["speed_change"]
    pre = p.prefill(e, "blue", None)
    assert pre["max_level_speed"] == 10  # single engine, first E hit: -1 (rule 24)
    with pytest.raises(RuleViolation, match="rule"):
        p.resolve(
            p.parse(
                {
                    **pre,
                    "aircraft": "blue",
                    "current_speed": 6,
                    "half_loop": "diving",
                    "dive_gain": 1,
                }
            ),
            TableDice([]),
            e,
        )


def vdive(**kw: Any) -> str:
    return label("vertical_dive", **{**VDIVE, **kw})


def test_v_dive_rules_1_to_3() -> None:
    """1st Game-Turn: 500% (400% from Maneuver Sp.) of black Max. Dive, -500 ft per Movement
    Point spent; exit 2 below Max. Dive Sp. 2nd: 400%, exit 1 below; not with 4 W left."""
    assert vdive() == "V. Dive 6000 ft, exit airspeed 14"
    assert vdive(movement_points_spent=3) == "V. Dive 4500 ft, exit airspeed 14"
    assert vdive(from_maneuver_speed=True) == "V. Dive 4800 ft, exit airspeed 14"
    assert vdive(game_turn=2, current_speed=14) == "V. Dive 4800 ft, exit airspeed 15"
    with pytest.raises(RuleViolation, match="7 or less"):
        vdive(current_speed=8)
    with pytest.raises(RuleViolation, match="4 or fewer"):
        vdive(game_turn=2, remaining_w_hits=4)
    with pytest.raises(RuleViolation, match="V. Dive Maneuver"):
        vdive(v_dive_requirement=None)


@pytest.mark.parametrize(
    ("w", "under", "p"),
    [(6, True, Fraction(4, 6)), (6, False, 1), (3, False, Fraction(3, 6)), (2, True, 0)],
)
def test_v_dive_rule_3_survival_odds(w: int, under: bool, p: Fraction) -> None:
    """Survival: a d6 at least 2 below the remaining W hits if under 50% black Max. Dive used,
    otherwise not above them."""
    proc = P["vertical_dive_survival"]
    odds = proc.odds(proc.parse({"remaining_w_hits": w, "under_half_max_dive_used": under}))
    assert odds.get("survives", 0) == p
    assert sum(odds.values()) == 1


def test_v_dive_survival_failure_crashes_the_aircraft() -> None:
    e = game(("blue", "Blue", "spitfire_sample"))
    proc = P["vertical_dive_survival"]
    i = proc.parse({"aircraft": "blue", "remaining_w_hits": 5, "under_half_max_dive_used": True})
    r = proc.resolve(i, TableDice([4]), e)
    assert r.outcome == "does not survive"
    assert any(isinstance(x, StatusChanged) and "crashed" in x.set for x in r.events)


def test_v_climb() -> None:
    """V. Climb: +.1 per Sp. Point above Stall and per voided Movement Point over the black
    Dive Sp. Climb; Resulting Airspeed 1 above Stall, or -2 and a stall if within 2 of it."""
    base = {"stall_speed": 3, "dive_speed_climb_ft": 800}
    assert label("vertical_climb", current_speed=8, voided_movement_points=3, **base) == (
        "V. Climb 1600 ft, airspeed 4"
    )
    assert label("vertical_climb", current_speed=5, **base) == "V. Climb 1000 ft, airspeed 3, stall"
    assert label("vertical_climb", current_speed=8, fired_guns=True, **base).endswith("stall")
    with pytest.raises(RuleViolation, match="Level Bank"):
        label("vertical_climb", current_speed=8, from_level_bank=False, **base)


def test_rule_24_e_hit_level_point_needs_no_dive_but_keeps_dive_restrictions() -> None:
    """Rule 24: a Max. Level Sp. point removed by an E hit remains, under the Dive Speed Power
    and Brake Factor restrictions (rules 17-18); one removed by W hits is true Dive Sp."""
    kw = {**SPEED, "max_level_speed": 9, "e_hit_level_loss": 1}
    assert label("speed_change", **{**kw, "current_speed": 10, "brake_used": 1}) == "airspeed 9"
    assert (
        label("speed_change", **{**kw, "current_speed": 10, "brake_used": 1, "dive_gain": 1})
        == "airspeed 10"
    )
    with pytest.raises(RuleViolation, match="rule 18"):
        label("speed_change", **{**kw, "current_speed": 10})
    with pytest.raises(RuleViolation, match="rule 17"):
        label("speed_change", **{**kw, "current_speed": 10, "brake_used": 1, "power_used": 1})
    with pytest.raises(RuleViolation, match="rule 17"):
        label("speed_change", **{**kw, "current_speed": 9, "power_used": 1})
    # rules 24 + 16: at 10 (the E-hit point) a Slip costs 2 as at any level speed, not the
    # Dive Speed 0: 10 - 2 - 1 (brake) = 7
    slip = {**kw, "current_speed": 10, "brake_used": 1, "slips": 1}
    assert label("speed_change", **slip) == "airspeed 7"
    # in true Dive Speed (above the original Max. Level Sp.) the Slip is free: 11 - 1 = 10
    assert label("speed_change", **{**slip, "current_speed": 11}) == "airspeed 10"


def test_gun_fire_prefill_from_cards() -> None:
    e = game(
        ("b17", "Blue", "b17_sample"),
        ("blue", "Blue", "p47_sample"),
        ("red", "Red", "bf110_sample"),
    )
    gf = P["gun_fire"]
    assert gf.prefill(e, "blue", "red") | {} == {
        "k14_sight": True,
        "flexible_rolls": 1,
        "gun_type": "FF",
        "total_gun_factors": 12,
        "silhouette_modifier": 2,
        "multi_engine_bomber_target": False,
        "advantage": "none",
    }
    pre = gf.prefill(e, "b17", None)
    assert (pre["gun_type"], pre["total_gun_factors"], pre["flexible_rolls"]) == ("F", 10, 3)


def test_rule_30_red_values() -> None:
    """Rule 30: red beyond the highest black value: not twice in a row the same way, and the
    next Game-Turn needs .1 (100 ft) of the opposite change; climbs use the red loss."""
    base = {"highest_black_ft": 800}
    assert label("altitude_change", direction="climb", change_ft=800, **base) == "climb 800 ft"
    assert (
        label("altitude_change", direction="climb", change_ft=1000, **base) == "climb 1000 ft (red)"
    )
    with pytest.raises(RuleViolation, match="rule 30"):
        label(
            "altitude_change",
            direction="climb",
            change_ft=300,
            previous_red_direction="climb",
            **base,
        )
    with pytest.raises(RuleViolation, match="rule 30"):
        label(
            "altitude_change", direction="dive", change_ft=0, previous_red_direction="climb", **base
        )
    assert (
        label(
            "altitude_change",
            direction="dive",
            change_ft=100,
            previous_red_direction="climb",
            **base,
        )
        == "dive 100 ft"
    )


def test_rule_30_tracked_on_the_aircraft() -> None:
    e = game(("blue", "Blue", "spitfire_sample"))
    p = P["altitude_change"]
    r = p.resolve(
        p.parse(
            {"aircraft": "blue", "direction": "dive", "change_ft": 1500, "highest_black_ft": 1200}
        ),
        TableDice([]),
        e,
    )
    e = next_turn(apply(e, r))
    again = p.parse(
        {"aircraft": "blue", "direction": "dive", "change_ft": 500, "highest_black_ft": 1200}
    )
    with pytest.raises(RuleViolation, match="100 ft of climb"):
        p.resolve(again, TableDice([]), e)
    ok = p.parse(
        {"aircraft": "blue", "direction": "climb", "change_ft": 100, "highest_black_ft": 500}
    )
    assert p.resolve(ok, TableDice([]), e).outcome == "climb 100 ft"


def test_rule_2_repeat_advantage_power_and_brake_on_the_current_airspeed_only() -> None:
    """Rule 2: "To repeat the Advantage the pursuer is required to use Power and Brake Factors
    only on the Current Game-Turn Airspeed, even if it initially doubles Brake/Power
    potential": the airspeed calculator applies them to the Current Airspeed only and never
    beyond the card's factors, Advantaged or not (the doubled potential is not the desk's)."""
    assert speed(advantaged=True, power_used=2) == "airspeed 10"
    assert speed(advantaged=True, brake_used=2) == "airspeed 6"
    with pytest.raises(RuleViolation, match="only 2 Power"):
        speed(advantaged=True, power_used=4)
    with pytest.raises(RuleViolation, match="only 2 Brake"):
        speed(advantaged=True, brake_used=4)


RULE_2_REPEAT = (
    "To repeat the Advantage the pursuer is required to use Power and Brake Factors only on the "
    "Current Game-Turn Airspeed, even if it initially doubles Brake/Power potential. This "
    "requirement exists and is possible only if a Second Consecutive Advantage is to be obtained."
)


def test_rule_2_factors_on_the_resulting_airspeed_double_the_potential() -> None:
    """Rule 2 (``RULE_2_REPEAT``): outside a repeated Advantage the factors may be used on the
    Current and again on the Resulting Airspeed, each up to the card's factors: 8 + 2 + 2 = 12
    is Dive Speed, which Power may not add (rule 17); 8 - 2 - 2 = 4."""
    assert speed(power_used=1, power_on_resulting=1) == "airspeed 10"
    assert speed(brake_used=2, brake_on_resulting=2) == "airspeed 4"
    with pytest.raises(RuleViolation, match="rule 17"):
        speed(power_used=2, power_on_resulting=2)
    with pytest.raises(RuleViolation, match="only 2 Brake"):
        speed(brake_on_resulting=3)


def test_rule_2_repeating_the_advantage_factors_on_the_current_airspeed_only() -> None:
    """Rule 2 (``RULE_2_REPEAT``): a pursuer repeating the Advantage may not use factors on the
    Resulting Airspeed; one that did may not repeat it that Game-Turn."""
    with pytest.raises(RuleViolation, match="only on the Current Game-Turn Airspeed"):
        speed(repeating_advantage=True, brake_on_resulting=1)
    assert speed(repeating_advantage=True, brake_used=2) == "airspeed 6"

    e = game(("blue", "Allies", "spitfire_sample"), ("red", "Axis", "bf110_sample"))
    adv = P["declare_advantage"]
    e = apply(e, adv.resolve(adv.parse({"attacker": "blue", "target": "red"}), TableDice([]), e))
    e = next_turn(e)
    sp = P["speed_change"]
    pre = sp.prefill(e, "blue", None)
    assert pre["repeating_advantage"] is True  # it holds last Game-Turn's Advantage
    base = {**pre, "aircraft": "blue", "current_speed": 6}
    base.update(repeating_advantage=False, brake_on_resulting=1)
    e2 = apply(e, sp.resolve(sp.parse(base), TableDice([]), e))
    assert e2.get("blue").attributes["factors_on_resulting_turn"] == e2.turn
    with pytest.raises(RuleViolation, match="rule 2: .* Resulting Airspeed this Game-Turn"):
        adv.resolve(adv.parse({"attacker": "blue", "target": "red"}), TableDice([]), e2)
    # without the factors on the Resulting Airspeed it repeats; then none may follow
    e3 = apply(e, adv.resolve(adv.parse({"attacker": "blue", "target": "red"}), TableDice([]), e))
    assert e3.attributes["advantage"]["blue"]["consecutive"] == 2
    with pytest.raises(RuleViolation, match="repeated its Advantage this Game-Turn"):
        sp.resolve(sp.parse(base), TableDice([]), e3)


SPECIAL_DATA_CARD_NOTE = (
    "Under the Speed Increments Chart color code box, the altitude limitation of Loaded "
    "condition indicated in the last line of the box applies only to Stall Speed and not to "
    'Level Speed, unless the line begins with "Both".'
)


def test_special_data_card_note_loaded_limit_applies_to_stall_speed_only() -> None:
    """``SPECIAL_DATA_CARD_NOTE``: the sample Bf 110 (stall 4, level 10; Loaded stall 5, level
    9 above 15,000 ft). Loaded below the limit: stall 4 (the limit holds it back), level 9 (not
    limited); above: stall 5, level 9. With "Both": level 10 below the limit."""
    from rulesets.advanced_air_force.card import catalogue

    card = catalogue()["bf110_sample"]
    assert card.loaded_altitude_limit_ft == 15000 and not card.loaded_limit_both
    assert card.loaded_speeds(10000) == (4, 9)
    assert card.loaded_speeds(20000) == (5, 9)
    both = card.model_copy(update={"loaded_limit_both": True})
    assert both.loaded_speeds(10000) == (4, 10)
    assert both.loaded_speeds(20000) == (5, 9)

    e = game(("bf", "Axis", "bf110_sample"))
    pre = P["stall_speed"].prefill(e, "bf", None)
    assert pre["loaded_stall_speed"] == 5 and pre["loaded_altitude_limit_ft"] == 15000
    assert label("stall_speed", **pre, loaded=True, altitude_ft=10000) == "stall speed 4"
    assert label("stall_speed", **pre, loaded=True, altitude_ft=20000) == "stall speed 5"
    assert label("stall_speed", **pre, altitude_ft=20000) == "stall speed 4"  # not Loaded
    # rule 10's Level Bank reduction comes after
    assert (
        label(
            "stall_speed", **pre, loaded=True, altitude_ft=20000, level_bank_without_maneuvers=True
        )
        == "stall speed 4"
    )
    with pytest.raises(RuleViolation, match="Loaded stall speed"):
        label("stall_speed", stall_speed=4, loaded=True)


def test_special_data_card_note_on_the_printed_card() -> None:
    """``SPECIAL_DATA_CARD_NOTE``: the card says what the Loaded limitation covers."""
    from app.core.ruleset import KeyValues

    e = game(("bf", "Axis", "bf110_sample"))
    spec = RULESET.card_spec(e.get("bf"), e)
    data = dict(next(b for b in spec.blocks if isinstance(b, KeyValues)).items)
    assert data["Loaded stall speed"] == "5 (above 15000 ft)"
    assert data["Loaded max. level speed"] == "9 (every altitude)"
