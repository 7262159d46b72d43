"""gun_fire: fire tables, entry rolls (rules 8, 11, 12, 15), limits (rules 2, 5, 6, 13, 14, 22)
and the hits marked on the target with their effects (rules 22-27)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from aaf_helpers import apply, game, next_turn
from pydantic import ValidationError

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import DamageTaken, LedgerChanged
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.tables import load_fire_tables

GF = RULESET.procedures["gun_fire"]


def inputs(**kw: Any) -> Any:
    return GF.parse({"total_gun_factors": 8, "range_hexes": 2, **kw})


def test_api_example_labels_are_printed_codes() -> None:
    """8 factors at 2 hexes: column 4 (range table); its six codes at 1/6 each (API.md)."""
    odds = GF.odds(inputs())
    assert odds == {
        "4F": Fraction(1, 6),
        "3FW2L": Fraction(1, 6),
        "F3W2L": Fraction(1, 6),
        "F3WG": Fraction(1, 6),
        "2F2E": Fraction(1, 6),
        "3WCEL": Fraction(1, 6),
    }


@pytest.mark.parametrize("factors", [1, 2, 3, 5, 7, 9, 11, 13, 16, 19, 24, 29, 45])
@pytest.mark.parametrize("rng", range(1, 7))
def test_odds_are_the_column_six_results_merged(factors: int, rng: int) -> None:
    """Exact odds = the column's six results at 1/6 each, equal codes merged; no "miss"."""
    t = load_fire_tables()
    col = t.fire_column(factors, rng)
    expected: dict[str, Fraction] = {}
    for roll in range(1, 7):
        code = t.result(col, roll)
        expected[code] = expected.get(code, Fraction(0)) + Fraction(1, 6)
    odds = GF.odds(inputs(total_gun_factors=factors, range_hexes=rng))
    assert odds == expected
    assert sum(odds.values()) == 1
    assert "miss" not in odds


def test_resolve_reads_the_table() -> None:
    """Column 4, roll 2: 3FW2L."""
    r = GF.resolve(inputs(), TableDice([2]), Engagement())
    assert r.outcome == "3FW2L"
    assert [x.total for x in r.rolls] == [2]


def test_rule_14_silhouette_added_to_fh_only() -> None:
    """Rule 14: the Silhouette Modifier is added to "FH" gun factors only (8+2=10: col 6)."""
    fh = inputs(gun_type="FH", silhouette_modifier=2)
    ff = inputs(gun_type="FF", silhouette_modifier=2)
    assert GF.column(fh) == 6
    assert GF.column(ff) == 4


@pytest.mark.parametrize(
    ("kw", "above"),
    [
        ({}, 4),
        ({"silhouette_modifier": 4}, 3),
        ({"k14_sight": True}, 2),
        ({"k14_sight": True, "silhouette_modifier": 5}, 2),
    ],
)
def test_rule_12_high_deflection_entry(kw: dict[str, Any], above: int) -> None:
    """Rule 12: from 2, 4, 8, 10 o'clock roll above 4 (above 3 if silhouette > 3, above 2 with
    K-14) to enter fire; each code then has (6-above)/6 x 1/6."""
    for clock in (2, 4, 8, 10):
        odds = GF.odds(inputs(target_clock=clock, **kw))
        assert odds["miss"] == Fraction(above, 6)
        assert odds["4F"] == Fraction(6 - above, 6) * Fraction(1, 6)
        assert sum(odds.values()) == 1


def test_rule_12_miss_spends_ammunition() -> None:
    """Rule 12: a missed High Deflection roll still spends ammunition."""
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    r = GF.resolve(inputs(attacker="blue", target="red", target_clock=2), TableDice([4]), e)
    assert r.outcome == "miss"
    assert [type(x) for x in r.events[1:]].count(LedgerChanged) == 1
    assert not any(isinstance(x, DamageTaken) for x in r.events)
    after = apply(e, r)
    assert after.aircraft["blue"].ledgers["ammunition"].value == 5


def test_rule_15_flexible_guns_need_a_six() -> None:
    """Rule 15: "F" guns enter on a 6 (one roll: 1/6); with three rolls 1-(5/6)^3 = 91/216."""
    one = GF.odds(inputs(gun_type="F"))
    assert one["miss"] == Fraction(5, 6)
    three = GF.odds(inputs(gun_type="F", flexible_rolls=3))
    assert three["miss"] == Fraction(125, 216)
    assert three["4F"] == Fraction(91, 216) / 6


def test_rule_15_six_oclock_straight_path_needs_above_4() -> None:
    odds = GF.odds(inputs(gun_type="F", six_oclock_straight_path=True))
    assert odds["miss"] == Fraction(4, 6)


def test_rule_12_and_15_both_apply_to_flexible_high_deflection() -> None:
    """Rule 12 applies to "F" gunfire too: 1/6 to enter, then 2/6 on the HD roll (no K-14)."""
    odds = GF.odds(inputs(gun_type="F", target_clock=4, k14_sight=True))
    assert odds["miss"] == 1 - Fraction(1, 6) * Fraction(2, 6)


def test_flexible_rolls_stop_at_the_first_six() -> None:
    r = GF.resolve(inputs(gun_type="F", flexible_rolls=3), TableDice([3, 6, 1]), Engagement())
    assert [x.total for x in r.rolls] == [3, 6, 1]
    assert r.outcome == "4F"


@pytest.mark.parametrize("mode", ["snapshot_front", "interlocking"])
def test_rules_8_and_11_single_roll_f_gunnery(mode: str) -> None:
    """Rules 8 and 11: treat as single-roll "F" Gunnery Play: a 6 to enter, even fixed guns."""
    odds = GF.odds(inputs(range_hexes=1, fire_mode=mode, flexible_rolls=3))
    assert odds["miss"] == Fraction(5, 6)


def test_rule_8_fixed_snapshot_is_k14_high_deflection_at_1_hex() -> None:
    """Rule 8: fixed Snapshot fire is 1 hex range K-14 High Deflection (above 2: 4/6)."""
    odds = GF.odds(inputs(range_hexes=1, fire_mode="snapshot"))
    assert odds["miss"] == Fraction(2, 6)
    with pytest.raises(ValidationError, match="rule 8"):
        inputs(range_hexes=2, fire_mode="snapshot")


def test_rule_13_inverted_limits_range_to_two() -> None:
    inputs(range_hexes=2, attacker_inverted=True)
    with pytest.raises(ValidationError, match="rule 13"):
        inputs(range_hexes=3, attacker_inverted=True)


def test_rule_5_ff_altitude_limits() -> None:
    """Rule 5: "FF" guns: at most 600 ft from below and 1200 ft from above."""
    inputs(altitude_difference_ft=600)
    inputs(altitude_difference_ft=-1200)
    with pytest.raises(ValidationError, match="rule 5"):
        inputs(altitude_difference_ft=700)
    with pytest.raises(ValidationError, match="rule 5"):
        inputs(altitude_difference_ft=-1300)
    inputs(gun_type="FH", altitude_difference_ft=900)


def test_rule_6_no_fixed_fire_from_inverted_12_oclock() -> None:
    with pytest.raises(ValidationError, match="rule 6"):
        inputs(range_hexes=1, attacker_inverted=True, target_clock=12, target_straight_ahead=True)


def test_rule_22_flexible_guns_not_in_turn_or_slip_hex() -> None:
    with pytest.raises(ValidationError, match="rule 22"):
        inputs(gun_type="F", in_turn_or_slip_hex=True)


def test_rules_2_6_7_fixed_gun_aiming() -> None:
    """Rule 2: on the First Advantage the target must be directly ahead in a straight path, or
    in the 12 o'clock if its Silhouette Modifier is 4+; the 12 o'clock suffices on the Second
    Consecutive Advantage; rule 6 (facing 12 o'clock) and rule 7 (Disadvantaged) impose it."""
    with pytest.raises(ValidationError, match="straight"):
        inputs(advantage="first", target_at_12_oclock=True)
    inputs(advantage="first", target_straight_ahead=True)
    inputs(advantage="first", target_at_12_oclock=True, silhouette_modifier=4)
    inputs(advantage="second_consecutive", target_at_12_oclock=True)
    with pytest.raises(ValidationError, match="straight"):
        inputs(advantage="disadvantaged", target_at_12_oclock=True)
    with pytest.raises(ValidationError, match="straight"):
        inputs(advantage="second_consecutive", target_at_12_oclock=True, target_clock=12)
    inputs(gun_type="F", advantage="first")


def _duel() -> Any:
    return game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))


def test_hits_are_marked_and_effects_applied() -> None:
    """Column 4 roll 5 = 2F2E on a twin (rule 24: -1 PF, -1 Level, -.2 climb)."""
    e = _duel()
    r = GF.resolve(inputs(attacker="blue", target="red"), TableDice([5]), e)
    assert r.outcome == "2F2E"
    after = apply(e, r)
    red = after.aircraft["red"]
    assert dict(red.boxes) == {"F": 2, "E": 2}
    assert red.attributes["power_factor_loss"] == 1
    assert red.attributes["max_level_speed_loss"] == 1
    assert red.attributes["climb_loss_ft"] == 200
    assert "engine_damaged" in red.status
    assert after.aircraft["blue"].ledgers["ammunition"].value == 5


def test_rule_22_flexible_c_hits_marked_multiplied() -> None:
    """Rule 22: a "F" gun fire of 2 factors: 3WCEL... C hit x2 (and W on the Spitfire)."""
    e = _duel()
    r = GF.resolve(
        inputs(attacker="red", target="blue", gun_type="F", total_gun_factors=2, range_hexes=1),
        TableDice([6, 6]),
        e,
    )
    assert r.outcome == "2WCEL"
    hit = next(x for x in r.events if isinstance(x, DamageTaken))
    assert hit.boxes == {"W": 2, "C": 2, "E": 1, "L": 1}
    blue = apply(e, r).aircraft["blue"]
    assert blue.attributes["half_loops_allowed"] is False
    assert blue.attributes["half_rolls_allowed"] is False


def test_rule_26_g_hits_on_the_hemisphere_fired_on() -> None:
    """Column 4 roll 4 = F3WG: one G hit from 6 o'clock costs the rear "F" guns 4 factors."""
    e = _duel()
    r = GF.resolve(
        inputs(attacker="blue", target="red", target_clock=6, target_straight_ahead=True),
        TableDice([4]),
        e,
    )
    red = apply(e, r).aircraft["red"]
    assert red.attributes["g_hits"] == {"front": 0, "rear": 1}
    assert red.attributes["flexible_gun_loss"] == {"front": 0, "rear": 4}


def test_rule_14_once_by_fixed_and_once_by_flexible_per_turn() -> None:
    e = game(
        ("blue", "Blue", "spitfire_sample"),
        ("blue2", "Blue", "p47_sample"),
        ("red", "Red", "bf110_sample"),
    )
    e = apply(e, GF.resolve(inputs(attacker="blue", target="red"), TableDice([1]), e))
    with pytest.raises(RuleViolation, match="rule 14"):
        GF.resolve(inputs(attacker="blue2", target="red"), TableDice([1]), e)
    # a new Game-Turn clears the record
    e2 = next_turn(e)
    GF.resolve(inputs(attacker="blue2", target="red"), TableDice([1]), e2)


def test_rule_15_three_flexible_rolls_per_target_and_one_entry_per_aircraft() -> None:
    e = game(
        ("b17", "Blue", "b17_sample"),
        ("b17b", "Blue", "b17_sample"),
        ("red", "Red", "spitfire_sample"),
        ("red2", "Red", "spitfire_sample"),
    )
    f = {"gun_type": "F", "total_gun_factors": 10, "range_hexes": 2}
    r = GF.resolve(
        inputs(attacker="b17", target="red", flexible_rolls=2, **f), TableDice([1, 2]), e
    )
    assert r.outcome == "miss"
    e = apply(e, r)
    with pytest.raises(RuleViolation, match="1 left"):
        GF.resolve(inputs(attacker="b17b", target="red", flexible_rolls=2, **f), TableDice([6]), e)
    r = GF.resolve(inputs(attacker="b17b", target="red", **f), TableDice([6, 3]), e)
    assert r.outcome != "miss"
    e = apply(e, r)
    with pytest.raises(RuleViolation, match="rule 15"):
        GF.resolve(inputs(attacker="b17b", target="red2", **f), TableDice([6, 3]), e)


def test_rule_15_a_card_without_a_number_rolls_once_per_game_turn_in_all() -> None:
    """Rule 15: "No indication means one roll only" -- per aircraft per Game-Turn, whatever
    the target: a Bf 110 that missed its one roll at Red may not roll again at Red 2."""
    e = game(
        ("bf110", "Blue", "bf110_sample"),
        ("red", "Red", "spitfire_sample"),
        ("red2", "Red", "spitfire_sample"),
    )
    f = {"gun_type": "F", "total_gun_factors": 1, "range_hexes": 1}
    e = apply(e, GF.resolve(inputs(attacker="bf110", target="red", **f), TableDice([2]), e))
    with pytest.raises(RuleViolation, match=r"rule 15: Bf110 .* 1 time\(s\) per Game-Turn"):
        GF.resolve(inputs(attacker="bf110", target="red2", **f), TableDice([6, 3]), e)
    e2 = next_turn(e)  # a new Game-Turn, a new roll
    GF.resolve(inputs(attacker="bf110", target="red2", **f), TableDice([6, 3]), e2)


def test_advantage_status_must_match_the_game() -> None:
    e = _duel()
    with pytest.raises(RuleViolation, match="advantage status"):
        GF.resolve(
            inputs(attacker="blue", target="red", advantage="first", target_straight_ahead=True),
            TableDice([1]),
            e,
        )


def test_impossible_die_is_refused() -> None:
    with pytest.raises(RuleViolation, match="not a face"):
        GF.resolve(inputs(), TableDice([7]), Engagement())


@pytest.mark.parametrize(
    "bad",
    [{"range_hexes": 0}, {"range_hexes": 7}, {"total_gun_factors": 0}, {"target_clock": 13}],
)
def test_out_of_range_inputs_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        inputs(**bad)


def test_v_dive_rule_6_fire_at_a_v_diver_is_f_gunnery_and_high_deflection() -> None:
    """V. Dive rule 6: from a non-V. Diver at a V. Diver: "F" Gunnery Play (a 6) and High
    Deflection (above 4): 1/6 x 2/6 to enter."""
    odds = GF.odds(inputs(fire_mode="at_v_diver"))
    assert odds["miss"] == 1 - Fraction(1, 6) * Fraction(2, 6)
    flex = GF.odds(inputs(fire_mode="at_v_diver", gun_type="F", flexible_rolls=2))
    assert flex["miss"] == 1 - (1 - Fraction(25, 36)) * Fraction(2, 6)


def test_v_dive_rule_6_fire_from_a_v_diver_has_the_inverted_range_limit() -> None:
    inputs(fire_mode="from_v_dive", range_hexes=2)
    with pytest.raises(ValidationError, match="V. Dive rule 6"):
        inputs(fire_mode="from_v_dive", range_hexes=3)


def test_gun_factors_cannot_exceed_the_card_after_rule_26_losses() -> None:
    """Rule 26: a G hit from the rear costs the Bf 110's rear "F" guns 4 factors (2 -> 0)."""
    e = _duel()
    with pytest.raises(RuleViolation, match="has 8 fixed gun factors"):
        GF.resolve(inputs(attacker="blue", target="red", total_gun_factors=9), TableDice([1]), e)
    r = GF.resolve(
        inputs(attacker="blue", target="red", target_clock=6, target_straight_ahead=True),
        TableDice([4]),
        e,
    )
    e = apply(e, r)
    with pytest.raises(RuleViolation, match="has 0"):
        GF.resolve(
            inputs(attacker="red", target="blue", gun_type="F", total_gun_factors=2),
            TableDice([6, 1]),
            e,
        )


def test_rule_11_needs_10_combined_speed_points() -> None:
    inputs(fire_mode="interlocking", combined_speed=10)
    with pytest.raises(ValidationError, match="rule 11"):
        inputs(fire_mode="interlocking", combined_speed=9)


def test_sight_and_flexible_rolls_come_from_the_card() -> None:
    """Rule 12's K-14 and rule 15's number of rolls must be on the firer's card."""
    e = _duel()
    with pytest.raises(RuleViolation, match="K-14"):
        GF.resolve(
            inputs(attacker="blue", target="red", k14_sight=True, target_clock=2),
            TableDice([6, 1]),
            e,
        )
    with pytest.raises(RuleViolation, match="may roll 1 time"):
        GF.resolve(
            inputs(
                attacker="red", target="blue", gun_type="F", total_gun_factors=2, flexible_rolls=2
            ),
            TableDice([6, 1]),
            e,
        )


def test_v_dive_rule_5_ff_guns_reach_1800_ft_downward_in_gun_fire_as_in_gun_range() -> None:
    """V. Dive rule 5: in a V. Dive every "FF" gun reaches 1800 ft downward (300 ft = 1 hex,
    so 6 hexes), downward only; gun range and gun fire agree on a 1500 ft shot."""
    rng = RULESET.procedures["gun_range"]
    r = rng.result(
        rng.parse(
            {"horizontal_hexes": 0, "altitude_difference_ft": -1500, "attacker_in_v_dive": True}
        )
    )
    assert r.outcome == "range 5"
    shot = inputs(range_hexes=5, altitude_difference_ft=-1500, attacker_in_v_dive=True)
    assert sum(GF.odds(shot).values()) == 1
    with pytest.raises(ValidationError, match="1200 ft downward"):
        inputs(range_hexes=5, altitude_difference_ft=-1500)
    with pytest.raises(ValidationError, match="at most 1800 ft"):
        inputs(range_hexes=6, altitude_difference_ft=-2100, attacker_in_v_dive=True)
    with pytest.raises(ValidationError, match="downward only"):
        inputs(range_hexes=1, altitude_difference_ft=300, attacker_in_v_dive=True)


F_GUNNERY_TEXTS = (
    "Rule 8: \"If target hex is entered from the front hemisphere, treat all 'Snapshot' fire "
    "as 1 hex single roll 'F' Gunnery Play.\" Rule 11: \"Treat any fire at a Resulting Sp. of "
    "10+ combined Sp. Points as single roll 'F' Gunnery Play.\" Rule 14: \"Do not add "
    "Silhouette Modifier to non-'FH' guns.\" Rule 22: \"For Flexible ('F') gunfire, Gun Factors "
    "of seven or less multiply each 'C' hit by two, and those of eight or above multiply each "
    "'C' hit by three. 'F' Gun Factors do not use the Silhouette Modifier\""
)


@pytest.mark.parametrize("mode", ["snapshot_front", "interlocking"])
def test_fixed_fh_guns_in_f_gunnery_play_both_readings(mode: str) -> None:
    """``F_GUNNERY_TEXTS``: 8 "FH" factors, target Silhouette 2, 1 hex. Default: 8 + 2 = 10
    factors, column 8, C hits once. ``fixed_f_gunnery_as_flexible``: 8 factors, column 5, each
    C hit x3 (eight factors). Either way a single roll above 5 enters (1/6)."""
    fh = {"gun_type": "FH", "silhouette_modifier": 2, "range_hexes": 1, "fire_mode": mode}
    if mode == "interlocking":
        fh["combined_speed"] = 10
    as_f = RULESET.bind(["fixed_f_gunnery_as_flexible"]).procedures["gun_fire"]
    t = load_fire_tables()
    assert GF.column(inputs(**fh)) == 8 and as_f.column(inputs(**fh)) == 5
    for proc, col in ((GF, 8), (as_f, 5)):
        expected = {"miss": Fraction(5, 6)}
        for roll in range(1, 7):
            code = t.result(col, roll)
            expected[code] = expected.get(code, Fraction(0)) + Fraction(1, 36)
        assert proc.odds(inputs(**fh)) == expected
    r = GF.resolve(inputs(**fh), TableDice([6, 6]), Engagement())
    assert r.outcome == "3W2CEL" and "x" not in r.narrative.split("(")[-1]
    assert "+2 silhouette (rule 14)" in r.narrative
    r = as_f.resolve(inputs(**fh), TableDice([6, 6]), Engagement())
    assert r.outcome == "3WCEL" and "each C hit x3 (rules 22, 23)" in r.narrative
    # fire not treated as "F" Gunnery Play keeps rule 14 under the reading too
    assert as_f.column(inputs(gun_type="FH", silhouette_modifier=2)) == GF.column(
        inputs(gun_type="FH", silhouette_modifier=2)
    )
