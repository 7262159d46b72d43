"""UFO rules, Damage: the 2d6 damage table, crashes, the vital-system check, hit location."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ufo_helpers import at, fold, perform, standard

from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.sequence import CANNON_1, MISSILES

DAMAGE = RULESET.procedures["damage_roll"]
WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def test_fighter_column_odds() -> None:
    """Fighter column, counted by hand from the ways to roll each 2d6 total."""
    odds = DAMAGE.odds(DAMAGE.Inputs(target_type="fighter"))
    assert odds == {
        "Pilot killed- Automatic Crash": Fraction(WAYS[2], 36),
        "4 DP": Fraction(WAYS[3], 36),
        "Roll for each hardpoint, 6 = lost": Fraction(WAYS[4], 36),
        "1 DP plus Engine: max speed-1": Fraction(WAYS[5], 36),
        "2 DP": Fraction(WAYS[6] + WAYS[8], 36),
        "1 DP": Fraction(WAYS[7] + WAYS[10], 36),
        "3 DP": Fraction(WAYS[9], 36),
        "2 DP plus Engine: max speed-1": Fraction(WAYS[11], 36),
        "Critical- plane destroyed": Fraction(WAYS[12], 36),
    }
    assert sum(odds.values()) == 1


def test_ufo_column_odds() -> None:
    """UFO column; the "1DP" printed at 10 is the same result as "1 DP" at 6 and 7."""
    odds = DAMAGE.odds(DAMAGE.Inputs(target_type="ufo"))
    assert odds == {
        "Power Plant D6 DP, Max speed -d6": Fraction(WAYS[2], 36),
        "1 DP plus Engine: max speed-1": Fraction(WAYS[3], 36),
        "1 DP plus Anti Grav-1": Fraction(WAYS[4] + WAYS[11], 36),
        "3 DP": Fraction(WAYS[5], 36),
        "1 DP": Fraction(WAYS[6] + WAYS[7] + WAYS[10], 36),
        "2 DP and Ray gun with highest charge loses d6": Fraction(WAYS[8], 36),
        "2 DP": Fraction(WAYS[9], 36),
        "2D6 DP": Fraction(WAYS[12], 36),
    }


def hit(e, target, kind, dice):  # type: ignore[no-untyped-def]
    return perform(e, "damage_roll", {"target": target, "target_type": kind}, dice)


def test_ufo_power_plant() -> None:
    """2: Power Plant D6 DP, Max speed -d6."""
    e, res = hit(standard(), "saucer", "ufo", [1, 1, 4, 3])
    u = e.aircraft["saucer"]
    assert (u.damage, u.ledger("max_speed")) == (4, 3)
    assert "4 DP" in res.narrative


def test_ufo_engine_and_anti_grav() -> None:
    """3: 1 DP plus Engine: max speed-1; 4 and 11: 1 DP plus Anti Grav-1."""
    e, _ = hit(standard(), "saucer", "ufo", [1, 2])
    e, _ = hit(e, "saucer", "ufo", [5, 6])
    u = e.aircraft["saucer"]
    assert (u.damage, u.ledger("max_speed"), u.ledger("anti_grav")) == (2, 5, 6)


def test_ufo_ray_gun_loses_d6_charge() -> None:
    """8: 2 DP and Ray gun with highest charge loses d6 (never below 0)."""
    e, _ = hit(standard(), "saucer", "ufo", [4, 4, 5])
    u = e.aircraft["saucer"]
    assert (u.damage, u.ledger("ray_gun_1")) == (2, 4)
    e, _ = hit(e, "saucer", "ufo", [3, 5, 6])
    assert e.aircraft["saucer"].ledger("ray_gun_1") == 0


def test_ufo_crashes_at_zero_anti_grav() -> None:
    """Any UFO reduced to 0 Anti-Grav crashes."""
    e = fold(standard(), [LedgerChanged(aircraft="saucer", ledger="anti_grav", delta=-6)])
    e, res = hit(e, "saucer", "ufo", [5, 6])
    u = e.aircraft["saucer"]
    assert u.ledger("anti_grav") == 0 and "crashed" in u.status and not u.in_play
    with pytest.raises(RuleViolation, match="out of play"):
        hit(e, "saucer", "ufo", [3, 4])


def test_a_ufo_at_max_speed_0_flies_on_only_0_anti_grav_crashes_it() -> None:
    """UFO rules, Damage: "Any aircraft reduced to 0 speed crashes" is for aircraft; "Any UFO
    reduced to 0 Anti-Grav crashes" is the UFO's one crash (issue 15)."""
    e = fold(standard(), [LedgerChanged(aircraft="saucer", ledger="max_speed", delta=-5)])
    e, _ = hit(e, "saucer", "ufo", [1, 2])  # 3: Engine, max speed -1: down to 0
    u = e.aircraft["saucer"]
    assert u.ledger("max_speed") == 0 and "crashed" not in u.status and u.in_play


def test_ufo_destroyed_at_its_damage_points() -> None:
    """12: 2D6 DP; a Small UFO has 10 DP."""
    e, _ = hit(standard(), "saucer", "ufo", [6, 6, 5, 5])
    u = e.aircraft["saucer"]
    assert u.damage == 10 and "destroyed" in u.status and "pilot_killed" not in u.status


def test_fighter_pilot_killed_and_critical() -> None:
    """2: Pilot killed- Automatic Crash; 12: Critical- plane destroyed, and the pilot dies."""
    e, _ = hit(standard(), "blue1", "fighter", [1, 1])
    b = e.aircraft["blue1"]
    assert {"pilot_killed", "crashed"} <= b.status
    assert b.criticals[0].result == "Pilot killed- Automatic Crash"
    e, _ = hit(e, "blue2", "fighter", [6, 6])
    assert {"destroyed", "pilot_killed"} <= e.aircraft["blue2"].status


def test_fighter_destroyed_at_6_dp() -> None:
    """3: 4 DP, twice: 8 DP on a 6 DP fighter destroys it, and the pilot dies."""
    e, _ = hit(standard(), "blue1", "fighter", [1, 2])
    assert e.aircraft["blue1"].damage == 4 and e.aircraft["blue1"].in_play
    e, _ = hit(e, "blue1", "fighter", [2, 1])
    assert {"destroyed", "pilot_killed"} <= e.aircraft["blue1"].status


def test_fighter_engine_and_crash_at_zero_speed() -> None:
    """5: 1 DP plus Engine: max speed-1; any aircraft reduced to 0 speed crashes."""
    e, _ = hit(standard(), "blue1", "fighter", [2, 3])
    b = e.aircraft["blue1"]
    assert (b.damage, b.ledger("max_speed"), b.attributes["speed"]) == (1, 7, 7)
    e = fold(e, [LedgerChanged(aircraft="blue1", ledger="max_speed", delta=-6)])
    e, _ = hit(e, "blue1", "fighter", [5, 6])
    b = e.aircraft["blue1"]
    assert b.ledger("max_speed") == 0 and "crashed" in b.status


def test_fighter_hard_points_lost_on_a_6() -> None:
    """4: Roll for each hardpoint, 6 = lost; the AMRAAM hard point adds d6 DP if hit."""
    e, res = hit(standard(), "blue1", "fighter", [1, 3, 6, 2, 6, 3, 1])
    b = e.aircraft["blue1"]
    assert b.attributes["hard_points_lost"] == [1, 3]
    assert b.ledgers["hard_point_3"].maximum == 0 and b.ledger("hard_point_2") == 3
    assert b.damage == 3
    # a lost hard point is not rolled for again: three dice for HP2-HP4 ... minus HP3
    e, _ = hit(e, "blue1", "fighter", [2, 2, 1, 1])
    assert e.aircraft["blue1"].attributes["hard_points_lost"] == [1, 3]


def test_extra_dp_only_on_a_weapon_hit_location_reading() -> None:
    """Tornado card "+d6 DP if hit" beside Hard Point 3 (open reading): with
    extra_dp_on_location_only, losing HP3 to damage result 4 adds no d6 (only the result's own
    nothing); the weapon hit location roll picking HP3 still adds it."""
    only = ("extra_dp_on_location_only",)
    e, _ = perform(
        standard(),
        "damage_roll",
        {"target": "blue1", "target_type": "fighter"},
        [1, 3, 6, 2, 6, 3],
        only,
    )
    b = e.aircraft["blue1"]
    assert b.attributes["hard_points_lost"] == [1, 3] and b.damage == 0
    e, res = perform(
        standard(), "hit_location", {"aircraft": "blue1", "type_id": "tornado"}, [4, 5], only
    )
    assert e.aircraft["blue1"].damage == 5


def test_column_must_match_the_target() -> None:
    with pytest.raises(RuleViolation, match="UFO|ufo"):
        hit(standard(), "saucer", "fighter", [3, 4])


def test_damage_rolls_due_count_down() -> None:
    e = at(standard(), CANNON_1)
    e, _ = perform(e, "cannon", {"attacker": "blue1", "target": "saucer", "range_inches": 2}, [4])
    assert e.aircraft["saucer"].attributes["damage_rolls_due"] == 3
    e, _ = hit(e, "saucer", "ufo", [3, 4])
    assert e.aircraft["saucer"].attributes["damage_rolls_due"] == 2


VITAL = RULESET.procedures["vital_system"]


@pytest.mark.parametrize("total", range(9))
def test_vital_system_odds(total: int) -> None:
    """Any turn a plane takes damage roll d6: LESS than the total damage -> pilot ejects."""
    p = Fraction(sum(1 for f in range(1, 7) if f < total), 6)
    odds = VITAL.odds(VITAL.Inputs(total_damage=total))
    assert odds.get("vital system hit: pilot ejects", Fraction(0)) == p
    assert sum(odds.values()) == 1


def test_vital_system_check_ejects() -> None:
    e, _ = hit(standard(), "blue1", "fighter", [4, 5])  # 9: 3 DP
    with pytest.raises(RuleViolation, match="no damage"):
        perform(e, "vital_system", {"aircraft": "blue2", "total_damage": 0}, [1])
    e2, res = perform(e, "vital_system", {"aircraft": "blue1", "total_damage": 3}, [3])
    assert res.outcome == "miss" and e2.aircraft["blue1"].in_play
    with pytest.raises(RuleViolation, match="already"):
        perform(e2, "vital_system", {"aircraft": "blue1", "total_damage": 3}, [1])
    e3, res = perform(e, "vital_system", {"aircraft": "blue1", "total_damage": 3}, [2])
    assert "ejected" in e3.aircraft["blue1"].status
    with pytest.raises(RuleViolation, match="UFO"):
        perform(e, "vital_system", {"aircraft": "saucer", "total_damage": 3}, [2])


HIT_LOCATION = RULESET.procedures["hit_location"]


def test_hit_location_table() -> None:
    """Tornado: 1 HP1 Cannon, 2-3 HP2, 4 HP3 (+d6 DP if hit), 5-6 HP4."""
    assert HIT_LOCATION.odds(HIT_LOCATION.Inputs(type_id="tornado")) == {
        "Hard Point 1 (Cannon)": Fraction(1, 6),
        "Hard Point 2 (Sidewinder)": Fraction(2, 6),
        "Hard Point 3 (Amraam)": Fraction(1, 6),
        "Hard Point 4 (Sidewinder)": Fraction(2, 6),
    }
    with pytest.raises(RuleViolation, match="no hit location"):
        HIT_LOCATION.odds(HIT_LOCATION.Inputs(type_id="small_ufo"))


def test_hit_location_amraam_adds_d6_dp_and_cannon_loss() -> None:
    e, res = perform(standard(), "hit_location", {"aircraft": "blue1"}, [4, 5])
    b = e.aircraft["blue1"]
    assert res.outcome == "Hard Point 3 (Amraam)"
    assert b.damage == 5 and b.ledgers["hard_point_3"].value == 0
    e, _ = perform(e, "hit_location", {"aircraft": "blue1"}, [1])
    with pytest.raises(RuleViolation, match="no cannon"):
        perform(at(e, CANNON_1), "cannon", {"attacker": "blue1", "range_inches": 1}, [3])


def test_results_beyond_plain_dp_go_on_the_critical_log() -> None:
    """Engine, anti-grav, ray gun, hard points and the killing results are logged; plain DP
    is only the damage track."""
    e, _ = hit(standard(), "blue1", "fighter", [3, 4])  # 7: 1 DP
    assert e.aircraft["blue1"].criticals == ()
    e, _ = hit(e, "blue1", "fighter", [5, 6])  # 11: 2 DP plus Engine
    (entry,) = e.aircraft["blue1"].criticals
    assert entry.result == "2 DP plus Engine: max speed-1" and entry.roll == 11
    assert "max speed -1" in entry.effect
    assert "engine_damaged" in e.aircraft["blue1"].status
    e, _ = hit(standard(), "saucer", "ufo", [4, 4, 1])
    assert e.aircraft["saucer"].criticals[0].effect.startswith("2 DP")


def test_vital_system_total_or_this_turn_variant() -> None:
    """ "LESS than the total damage taken": by default the plane's total so far; the variant
    vital_this_turn counts only this turn's damage."""
    e, _ = hit(standard(), "blue1", "fighter", [2, 4])  # turn 1: 2 DP
    e = at(e, 0, turn=2)
    e, _ = hit(e, "blue1", "fighter", [3, 4])  # turn 2: 1 DP
    e, _ = hit(e, "blue1", "fighter", [1, 5])  # turn 2: 2 DP
    assert e.aircraft["blue1"].in_play
    assert VITAL.prefill(e, "blue1", None) == {"total_damage": 5}
    assert e.aircraft["blue1"].attributes["damage_this_turn"] == 3
    this_turn = RULESET.bind(["vital_this_turn"]).procedures["vital_system"]
    assert this_turn.prefill(e, "blue1", None) == {"total_damage": 3}
    assert this_turn.prefill(at(e, 0, turn=3), "blue1", None) == {"total_damage": 0}


RAY = {"attacker": "saucer", "target": "blue1", "charge": 9, "range_inches": 5}


def test_a_damage_roll_opens_the_hits_next_roll() -> None:
    """UFO rules, Hitting: a cannon's 3 hits are 3 rolls on the Damage Table. Each roll names
    the next as the roll the desk opens at once while any is due; the last names none, and nor
    does a roll that puts the target out of play (12: "Critical- plane destroyed")."""
    e = at(standard(), CANNON_1)
    e, _ = perform(e, "cannon", {"attacker": "blue1", "target": "saucer", "range_inches": 2}, [4])
    for left in (2, 1):
        e, res = hit(e, "saucer", "ufo", [3, 4])  # 7: 1 DP
        assert res.follow_ups == (("damage_roll", "saucer"),)
        assert e.aircraft["saucer"].attributes["damage_rolls_due"] == left
    e, res = hit(e, "saucer", "ufo", [3, 4])
    assert (e.aircraft["saucer"].attributes["damage_rolls_due"], res.follow_ups) == (0, ())
    e, _ = perform(at(standard(), MISSILES), "ray_gun", RAY, [5, 1, 6, 4])  # 2 hits
    e, res = hit(e, "blue1", "fighter", [6, 6])
    assert not e.aircraft["blue1"].in_play and res.follow_ups == ()


def test_the_each_roll_reading_opens_the_check_then_the_next_roll() -> None:
    """UFO rules, Damage, the ``vital_each_damage_roll`` reading: after a damage roll that
    does damage the check is owed before the next roll: the roll names the check, the check
    names the hit's next roll; a check that ejects the pilot names none."""
    each = ["vital_each_damage_roll"]
    fighter = {"target": "blue1", "target_type": "fighter"}
    e, _ = perform(at(standard(), MISSILES), "ray_gun", RAY, [5, 1, 6, 4])  # 2 hits
    e, res = perform(e, "damage_roll", fighter, [3, 4], each)  # 7: 1 DP
    assert res.follow_ups == (("vital_system", "blue1"),)
    e, res = perform(e, "vital_system", {"aircraft": "blue1", "total_damage": 1}, [3], each)
    assert (res.outcome, res.follow_ups) == ("miss", (("damage_roll", "blue1"),))
    e, res = perform(e, "damage_roll", fighter, [3, 4], each)
    assert res.follow_ups == (("vital_system", "blue1"),)
    e, res = perform(e, "vital_system", {"aircraft": "blue1", "total_damage": 2}, [1], each)
    assert res.outcome == "vital system hit: pilot ejects" and res.follow_ups == ()
