"""UFO rules, Firing and Hitting: cannon, ray gun charge and recharge, missiles."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ufo_helpers import at, fold, perform, standard

from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.sequence import CANNON_1, CANNON_2, FIRST_HALF, MISSILES

RECHARGE = RULESET.procedures["recharge"]


def test_cannon_fire_on_the_table() -> None:
    """Cannon at the half way point and again at the end; d6+1-range hits."""
    e = at(standard(), CANNON_1)
    shot = {"attacker": "blue1", "target": "saucer", "range_inches": 3}
    e, res = perform(e, "cannon", shot, [5])
    assert res.outcome == "3 hits"
    assert e.aircraft["saucer"].attributes["damage_rolls_due"] == 3
    with pytest.raises(RuleViolation, match="already fired"):
        perform(e, "cannon", shot, [5])
    e, res = perform(at(e, CANNON_2), "cannon", shot, [2])
    assert res.outcome == "miss" and e.aircraft["saucer"].attributes["damage_rolls_due"] == 3
    with pytest.raises(RuleViolation, match="Cannon firing"):
        perform(at(e, FIRST_HALF), "cannon", shot, [2])
    with pytest.raises(RuleViolation, match="forward arc"):
        perform(at(e, CANNON_1, turn=2), "cannon", {**shot, "in_forward_arc": False}, [2])


def test_ray_gun_fire_spends_its_charge() -> None:
    """Roll one die per point of charge minus one per inch; 5 or 6 hits; the gun is spent."""
    e = at(standard(), MISSILES)
    shot = {"attacker": "saucer", "target": "blue1", "charge": 9, "range_inches": 5}
    e2, res = perform(e, "ray_gun", shot, [5, 1, 6, 4])
    assert res.outcome == "2 hits"
    assert e2.aircraft["saucer"].ledger("ray_gun_1") == 0
    assert e2.aircraft["blue1"].attributes["damage_rolls_due"] == 2
    with pytest.raises(RuleViolation, match="holds 0 charge"):
        perform(e2, "ray_gun", shot, [5, 1, 6, 4])
    with pytest.raises(RuleViolation, match="already fired"):
        perform(e2, "ray_gun", {**shot, "charge": 0}, [])
    with pytest.raises(RuleViolation, match="Missile Firing"):
        perform(at(e, CANNON_1), "ray_gun", shot, [5, 1, 6, 4])
    with pytest.raises(RuleViolation, match="not a UFO"):
        perform(e, "ray_gun", {**shot, "attacker": "blue2"}, [5, 1, 6, 4])
    # a gun that fired may not recharge that turn
    pre = RECHARGE.prefill(e2, "saucer", None)
    assert pre == {"gun": 1, "charge": 0, "power": 9, "recharge_dice": 1}
    with pytest.raises(RuleViolation, match="only a gun that does not fire"):
        perform(e2, "recharge", {**pre, "aircraft": "saucer"}, [4])
    e3, res = perform(at(e2, MISSILES, turn=2), "recharge", {**pre, "aircraft": "saucer"}, [4])
    assert res.outcome == "charge 4" and e3.aircraft["saucer"].ledger("ray_gun_1") == 4


def test_ray_gun_keeps_charge_reading() -> None:
    """UFO rules, Firing: UFO (open reading): the text does not say that firing spends the
    charge. With ray_gun_keeps_charge the charge stays after firing (the gun still may not
    recharge in a turn it fired), so it can fire again next turn at full charge."""
    keep = ("ray_gun_keeps_charge",)
    e = at(standard(), MISSILES)
    shot = {"attacker": "saucer", "target": "blue1", "charge": 9, "range_inches": 5}
    e2, res = perform(e, "ray_gun", shot, [5, 1, 6, 4], keep)
    assert res.outcome == "2 hits" and e2.aircraft["saucer"].ledger("ray_gun_1") == 9
    with pytest.raises(RuleViolation, match="already fired"):
        perform(e2, "ray_gun", shot, [5, 1, 6, 4], keep)
    e3, res = perform(at(e2, MISSILES, turn=2), "ray_gun", shot, [6, 6, 6, 6], keep)
    assert res.outcome == "4 hits" and e3.aircraft["saucer"].ledger("ray_gun_1") == 9


def test_recharge_excess_lost() -> None:
    """Roll the recharge dice and add to the charge; any points over maximum are lost."""
    odds = RECHARGE.odds(RECHARGE.Inputs(charge=5, power=9, recharge_dice=1))
    assert odds == {
        "charge 6": Fraction(1, 6),
        "charge 7": Fraction(1, 6),
        "charge 8": Fraction(1, 6),
        "charge 9": Fraction(3, 6),
    }
    two = RECHARGE.odds(RECHARGE.Inputs(charge=0, power=9, recharge_dice=2))
    assert two["charge 9"] == Fraction(4 + 3 + 2 + 1, 36)
    e = fold(
        at(standard(), MISSILES), [LedgerChanged(aircraft="saucer", ledger="ray_gun_1", delta=-4)]
    )
    e, res = perform(
        e, "recharge", {"aircraft": "saucer", "charge": 5, "power": 9, "recharge_dice": 1}, [6]
    )
    assert res.outcome == "charge 9" and "2 over maximum lost" in res.narrative
    assert e.aircraft["saucer"].ledger("ray_gun_1") == 9
    with pytest.raises(RuleViolation, match="charge 9"):
        perform(
            e, "recharge", {"aircraft": "saucer", "charge": 5, "power": 9, "recharge_dice": 1}, [6]
        )


def launch(e, **kw):  # type: ignore[no-untyped-def]
    return perform(e, "missile_launch", {"attacker": "blue1", "target": "saucer", **kw})


def test_missile_ranges() -> None:
    """Nominate a target within 24in for AMRAAM or 12 inches for Sidewinder."""
    e = at(standard(), MISSILES)
    with pytest.raises(RuleViolation, match="within 12 inches"):
        launch(e, missile="sidewinder", range_inches=13)
    launch(e, missile="sidewinder", range_inches=12)
    with pytest.raises(RuleViolation, match="within 24 inches"):
        launch(e, missile="amraam", range_inches=25)
    launch(e, missile="amraam", range_inches=24)


def test_two_sidewinders_from_hp2_and_hp4() -> None:
    """If 2 sidewinders fired at once one must come from HP2 and one from HP4."""
    e = at(standard(), MISSILES)
    e2, res = launch(e, missile="sidewinder", count=2, range_inches=8)
    b = e2.aircraft["blue1"]
    assert (b.ledger("hard_point_2"), b.ledger("hard_point_4")) == (2, 2)
    assert "hard points 2 and 4" in res.narrative
    assert [m["id"] for m in e2.attributes["missiles"]] == ["M1", "M2"]
    with pytest.raises(RuleViolation, match="different hard points"):
        launch(e, missile="sidewinder", count=2, range_inches=8, hard_points=[2, 2])
    with pytest.raises(RuleViolation, match="carries no AMRAAM"):
        launch(e, missile="amraam", range_inches=8, hard_points=[2])
    # each missile is used only once; one firing per step ("or fire guns once")
    with pytest.raises(RuleViolation, match="already fired"):
        launch(e2, missile="amraam", range_inches=8)
    with pytest.raises(RuleViolation, match="already fired"):
        perform(e2, "cannon", {"attacker": "blue1", "range_inches": 2}, [3])


def test_missiles_run_out() -> None:
    e = fold(
        at(standard(), MISSILES), [LedgerChanged(aircraft="blue1", ledger="hard_point_3", delta=-2)]
    )
    e, _ = launch(e, missile="amraam", range_inches=20)
    assert e.aircraft["blue1"].ledger("hard_point_3") == 0
    with pytest.raises(RuleViolation, match="no 1 AMRAAM"):
        launch(at(e, MISSILES, turn=2), missile="amraam", range_inches=20)


FLIGHT = RULESET.procedures["missile_flight"]


def test_missile_hit_is_1d6_damage_rolls() -> None:
    """If a missile gets within 1" at any point of its move it explodes for 1d6 rolls."""
    odds = FLIGHT.odds(FLIGHT.Inputs(came_within_1_inch=True))
    assert odds == {
        "1 damage roll": Fraction(1, 6),
        **{f"{n} damage rolls": Fraction(1, 6) for n in range(2, 7)},
    }
    assert FLIGHT.odds(FLIGHT.Inputs(came_within_1_inch=False)) == {"miss": Fraction(1)}
    e, _ = launch(at(standard(), MISSILES), missile="sidewinder", range_inches=10)
    e, res = perform(e, "missile_flight", {"missile": "M1", "came_within_1_inch": True}, [4])
    assert res.outcome == "4 damage rolls"
    assert e.aircraft["saucer"].attributes["damage_rolls_due"] == 4
    assert e.attributes["missiles"] == []


def test_amraam_lasts_3_turns_sidewinder_1() -> None:
    e, _ = launch(at(standard(), MISSILES), missile="amraam", range_inches=20)
    stay = {"missile": "M1", "came_within_1_inch": False}
    for turn in (1, 2):
        e, res = perform(at(e, MISSILES, turn=turn), "missile_flight", stay)
        assert res.outcome == "miss" and "tracking" in res.narrative
        with pytest.raises(RuleViolation, match="already moved"):
            perform(e, "missile_flight", stay)
    assert e.attributes["missiles"][0]["turns_left"] == 1
    e, res = perform(at(e, MISSILES, turn=3), "missile_flight", stay)
    assert "runs out" in res.narrative and e.attributes["missiles"] == []
    e, _ = launch(at(e, MISSILES, turn=4), missile="sidewinder", range_inches=5)
    e, res = perform(e, "missile_flight", {"missile": "M2", "came_within_1_inch": False})
    assert "runs out" in res.narrative and e.attributes["missiles"] == []


def test_missile_loses_lock_out_of_front_arc() -> None:
    """If at the end of its move the target is not in its front arc, it is removed."""
    e, _ = launch(at(standard(), MISSILES), missile="amraam", range_inches=20)
    e, res = perform(
        e,
        "missile_flight",
        {"missile": "M1", "came_within_1_inch": False, "target_in_front_arc": False},
    )
    assert "loses lock" in res.narrative and e.attributes["missiles"] == []
    with pytest.raises(RuleViolation, match="no missile M1"):
        perform(e, "missile_flight", {"missile": "M1", "came_within_1_inch": True}, [3])


def test_ray_gun_prefill_reads_the_charge() -> None:
    e = standard()
    assert RULESET.procedures["ray_gun"].prefill(e, "saucer", "blue1") == {"gun": 1, "charge": 9}
    assert RULESET.procedures["ray_gun"].prefill(e, "blue1", "saucer") == {}


def test_recharge_d6_read_as_a_roll_for_the_number_of_dice() -> None:
    """Small UFO card "Power 9 Recharge d6"; Firing: UFO: "Roll a number of dice equal to its
    recharge rating, and add result to current charge. Any points over maximum are lost."
    Default: one die. ``recharge_dice_rolled``: a d6 gives the number of dice, then that many
    d6 -- checked against a hand enumeration of every roll (capped at the power, 9)."""
    from itertools import product

    rolled = RULESET.bind(["recharge_dice_rolled"]).procedures["recharge"]
    inputs = rolled.Inputs(charge=0, power=9, recharge_dice=1)
    expected: dict[str, Fraction] = {}
    for k in range(1, 7):
        for faces in product(range(1, 7), repeat=k):
            label = f"charge {min(9, sum(faces))}"
            expected[label] = expected.get(label, Fraction(0)) + Fraction(1, 6) / 6**k
    odds = rolled.odds(inputs)
    assert odds == expected and sum(odds.values()) == 1
    assert odds["charge 1"] == Fraction(1, 36)  # a 1 for the number, then a 1
    # one die (the default reading) never passes 6
    assert set(RECHARGE.odds(inputs)) == {f"charge {n}" for n in range(1, 7)}
    # at the table: the number typed first, then exactly that many dice
    assert rolled.dice_needed(inputs) == [("d6", "number of recharge dice")]
    typed = rolled.Inputs(charge=0, power=9, recharge_dice=1, dice_count=2)
    assert rolled.dice_needed(typed) == [("2d6", "recharge dice")]
    e = at(standard(), MISSILES)
    e = fold(e, [LedgerChanged(aircraft="saucer", ledger="ray_gun_1", delta=-9)])
    pre = {"aircraft": "saucer", "charge": 0, "power": 9, "recharge_dice": 1}
    e2, res = perform(e, "recharge", pre, [3, 4, 2, 1], ["recharge_dice_rolled"])
    assert res.outcome == "charge 7" and "3 dice rolled" in res.narrative
    _, res = perform(e, "recharge", {**pre, "dice_count": 2}, [3, 4], ["recharge_dice_rolled"])
    assert res.outcome == "charge 7"
    # without the reading the count is not asked for, and a typed one is refused
    assert "dice_count" in RECHARGE.inputs_off() and not rolled.inputs_off()
    with pytest.raises(RuleViolation, match="recharge_dice_rolled"):
        perform(e, "recharge", {**pre, "dice_count": 2}, [3, 4])


def test_a_hit_names_the_damage_roll_it_owes() -> None:
    """UFO rules, Hitting: a cannon's, a ray gun's and a missile's hits are rolls on the
    Damage Table, owed at once: the result names the target's damage roll as the roll the
    desk opens next (``follow_ups``), so a desk that has its ruleset calls answered later
    opens it too. A miss, or a what-if with no target, owes none."""
    owed = (("damage_roll", "saucer"),)
    shot = {"attacker": "blue1", "target": "saucer", "range_inches": 3}
    _, res = perform(at(standard(), CANNON_1), "cannon", shot, [5])
    assert (res.outcome, res.follow_ups) == ("3 hits", owed)
    _, res = perform(at(standard(), CANNON_1), "cannon", shot, [2])
    assert (res.outcome, res.follow_ups) == ("miss", ())
    _, res = perform(at(standard(), CANNON_1), "cannon", {"range_inches": 3}, [5])
    assert (res.outcome, res.follow_ups) == ("3 hits", ())
    ray = {"attacker": "saucer", "target": "blue1", "charge": 9, "range_inches": 5}
    _, res = perform(at(standard(), MISSILES), "ray_gun", ray, [5, 1, 6, 4])
    assert (res.outcome, res.follow_ups) == ("2 hits", (("damage_roll", "blue1"),))
    _, res = perform(at(standard(), MISSILES), "ray_gun", ray, [1, 1, 2, 4])
    assert (res.outcome, res.follow_ups) == ("miss", ())
    e, _ = launch(at(standard(), MISSILES), missile="sidewinder", range_inches=10)
    _, res = perform(e, "missile_flight", {"missile": "M1", "came_within_1_inch": True}, [4])
    assert (res.outcome, res.follow_ups) == ("4 damage rolls", owed)
    _, res = perform(e, "missile_flight", {"missile": "M1", "came_within_1_inch": False})
    assert res.follow_ups == ()
