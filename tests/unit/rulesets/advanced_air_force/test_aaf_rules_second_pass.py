"""Advanced Air Force, the second rules pass (issue 15): rule 13's second sentence, rule 28,
and the open readings offered as variants (V. Dive rule 3, rules 12/15, 26, 27)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from aaf_helpers import VDIVE, apply, game
from pydantic import ValidationError

from app.core.dice import TableDice
from rulesets.advanced_air_force import RULESET

GF = RULESET.procedures["gun_fire"]


def fire(proc: Any = GF, **kw: Any) -> Any:
    return proc.parse({"total_gun_factors": 8, "range_hexes": 1, **kw})


@pytest.mark.parametrize("mode", ["snapshot_front", "interlocking"])
def test_rule_13_inverted_high_deflection_adds_the_high_deflection_roll(mode: str) -> None:
    """Rule 13: "Add High Deflection restriction when High Deflection is combined with any
    inverted attitude": single-roll F Gunnery (rules 8, 11) needs a 6; inverted at the target's
    4 o'clock the High Deflection roll (above 4) is added: 1/6 x 2/6 to enter."""
    upright = GF.odds(fire(fire_mode=mode, target_clock=4))
    inverted = GF.odds(fire(fire_mode=mode, target_clock=4, attacker_inverted=True))
    assert upright["miss"] == Fraction(5, 6)
    assert inverted["miss"] == 1 - Fraction(1, 6) * Fraction(2, 6)
    # not at High Deflection: nothing added
    assert GF.odds(fire(fire_mode=mode, target_clock=6, attacker_inverted=True))["miss"] == (
        Fraction(5, 6)
    )


def test_rule_13_inverted_normal_fire_keeps_one_high_deflection_roll() -> None:
    """Normal fire at High Deflection already rolls it (rule 12): inverted adds no second roll,
    and rule 13's two-hex range holds."""
    odds = GF.odds(fire(target_clock=2, attacker_inverted=True, range_hexes=2))
    assert odds == GF.odds(fire(target_clock=2, range_hexes=2))
    # the one roll made whatever the dice show (a dry run of decide): the fire result follows
    # only a High Deflection roll that lets the fire through (rule 12), asked when reached
    assert GF.dice_needed(fire(target_clock=2, attacker_inverted=True, range_hexes=2)) == [
        ("d6", "High Deflection roll"),
    ]
    with pytest.raises(ValidationError, match="rule 13"):
        fire(target_clock=2, attacker_inverted=True, range_hexes=3)


def test_rule_28_medium_arcs_reach_100_ft() -> None:
    """Rule 28: '"Medium" arcs altitude limits; 100 ft. above and below the Resulting Game-Turn
    Altitude'."""
    assert GF.odds(fire(medium_arc=True, altitude_difference_ft=100))
    assert GF.odds(fire(medium_arc=True, altitude_difference_ft=-100))
    with pytest.raises(ValidationError, match="rule 28"):
        fire(medium_arc=True, altitude_difference_ft=200)
    with pytest.raises(ValidationError, match="needs the altitude difference"):
        fire(medium_arc=True)
    assert GF.odds(fire(altitude_difference_ft=300))  # not a Medium arc: rule 5's limits


def test_rules_12_15_flexible_high_deflection_reading() -> None:
    """Rules 12 and 15 (open reading): by default F guns at High Deflection roll the 6 of rule
    15 and the High Deflection roll; with flexible_high_deflection_one_roll the High Deflection
    roll only (above 4: 2/6)."""
    one = RULESET.bind(["flexible_high_deflection_one_roll"]).procedures["gun_fire"]
    both = GF.odds(fire(gun_type="F", target_clock=8))
    only_hd = one.odds(fire(one, gun_type="F", target_clock=8))
    assert both["miss"] == 1 - Fraction(1, 6) * Fraction(2, 6)
    assert only_hd["miss"] == 1 - Fraction(2, 6)
    # away from High Deflection the variant changes nothing
    assert one.odds(fire(one, gun_type="F", target_clock=6)) == GF.odds(
        fire(gun_type="F", target_clock=6)
    )


@pytest.mark.parametrize(("variants", "hemisphere"), [((), "front"), (("beam_hits_rear",), "rear")])
def test_rule_26_beam_fire_reading(variants: tuple[str, ...], hemisphere: str) -> None:
    """Rule 26 (open reading): a G hit from the 3 o'clock costs flexible factors on the front
    hemisphere by default, the rear with beam_hits_rear (column 4, roll 4 = F3WG)."""
    proc = RULESET.bind(variants).procedures["gun_fire"]
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    r = proc.resolve(
        fire(
            proc,
            attacker="blue",
            target="red",
            target_clock=3,
            range_hexes=2,
            target_straight_ahead=True,
        ),
        TableDice([4]),
        e,
    )
    red = apply(e, r).aircraft["red"]
    assert red.attributes["g_hits"][hemisphere] == 1
    assert red.attributes["flexible_gun_loss"][hemisphere] == 4


def test_v_dive_rule_3_rate_reading() -> None:
    """V. Dive rule 3 (open reading): '+ 500%, 400% from Maneuver Sp.' of a 1200 ft black Max.
    Dive is 6000 ft (4800) by default; 7200 ft (6000) with v_dive_rate_added; the second
    consecutive V. Dive '+ 400%' 4800 ft or 6000 ft."""
    added = RULESET.bind(["v_dive_rate_added"]).procedures["vertical_dive"]

    def rate(proc: Any, **kw: Any) -> str:
        (label,) = proc.odds(proc.parse({**VDIVE, **kw}))
        return str(label).split(",")[0]

    plain = RULESET.procedures["vertical_dive"]
    assert rate(plain) == "V. Dive 6000 ft" and rate(added) == "V. Dive 7200 ft"
    assert rate(plain, from_maneuver_speed=True) == "V. Dive 4800 ft"
    assert rate(added, from_maneuver_speed=True) == "V. Dive 6000 ft"
    assert rate(plain, game_turn=2, current_speed=14) == "V. Dive 4800 ft"
    assert rate(added, game_turn=2, current_speed=14) == "V. Dive 6000 ft"


def test_rule_27_w_intact_reading_defaults_to_the_unhit_boxes() -> None:
    """Rule 27 (open reading): '7+ W intact' -- the natural reading, the W boxes still unhit,
    is the variant chosen by default for a new game."""
    assert "w_intact_remaining" in RULESET.default_variants
    help_text = next(v.help for v in RULESET.variants if v.id == "w_intact_remaining")
    assert "Default (on)" in help_text
