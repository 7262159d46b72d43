"""UFO rules, Turn Order: initiative per plane, ties, roll-off, and who acts in each step."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ufo_helpers import at, fold, game, perform, standard

from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from app.core.procedure import Procedure
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.sequence import (
    CANNON_1,
    CANNON_2,
    FIRST_HALF,
    INITIATIVE,
    MISSILES,
    SECOND_HALF,
    UFO_MOVES,
)

INIT = RULESET.procedures["initiative"]


def said(lines):
    """(who, what) of each "who acts now" line."""
    return [(line.who, line.what) for line in lines]


def test_steps_are_the_turn_order_as_printed() -> None:
    labels = [s.label for s in RULESET.steps(standard())]
    assert labels == [
        "Roll Initiative",
        "UFO Moves",
        "Move first half",
        "Cannon firing, at the half way point",
        "Move second half",
        "Cannon firing, at the end of the move",
        "Missile Firing",
    ]
    assert all(s.rule == "UFO rules, Turn Order" for s in RULESET.steps(standard()))


def test_initiative_odds_higher_reaction_moves_second() -> None:
    """d6+2 against d6+1: A moves first only when b >= a + 2 (10 of 36); a tie in the totals
    goes to the higher reaction, which moves second."""
    odds = INIT.odds(INIT.Inputs(planes=["A", "B"], reactions=[2, 1]))
    assert odds == {"A, B": Fraction(10, 36), "B, A": Fraction(26, 36)}


def test_initiative_odds_equal_reactions_roll_off() -> None:
    odds = INIT.odds(INIT.Inputs(planes=["A", "B"], reactions=[1, 1]))
    assert odds == {
        "A, B": Fraction(15, 36),
        "B, A": Fraction(15, 36),
        "[A = B roll off]": Fraction(6, 36),
    }
    three = INIT.odds(INIT.Inputs(planes=["A", "B", "C"], reactions=[0, 0, 0]))
    assert three["[A = B = C roll off]"] == Fraction(6, 216)
    assert sum(three.values()) == 1


def test_initiative_inputs_checked() -> None:
    with pytest.raises(ValueError):
        INIT.Inputs(planes=["A", "B"], reactions=[1])
    with pytest.raises(ValueError):
        INIT.Inputs(planes=["A", "A"], reactions=[1, 1])


def test_initiative_sets_the_order() -> None:
    """Blue1 3+2 = 5 ties Blue2 4+1 = 5: Blue1's higher reaction moves second."""
    e, res = perform(
        standard(), "initiative", {"planes": ["blue1", "blue2"], "reactions": [2, 1]}, [3, 4]
    )
    assert e.initiative_order == ("blue2", "blue1")
    assert e.initiative_scores == {"blue1": 5, "blue2": 5}
    assert res.outcome == "blue2, blue1"
    with pytest.raises(RuleViolation, match="reaction is 2"):
        perform(standard(), "initiative", {"planes": ["blue1"], "reactions": [1]}, [3])
    with pytest.raises(RuleViolation, match="Roll Initiative"):
        perform(
            at(standard(), UFO_MOVES), "initiative", {"planes": ["blue1"], "reactions": [2]}, [3]
        )
    with pytest.raises(RuleViolation, match="not an aircraft with a pilot"):
        perform(standard(), "initiative", {"planes": ["saucer"], "reactions": [0]}, [3])


def test_roll_off_for_tied_players_only() -> None:
    e = game(
        ("A", "tornado", {"reaction": 1}),
        ("B", "tornado", {"reaction": 1}),
        ("C", "tornado", {"reaction": 3}),
    )
    e, res = perform(
        e, "initiative", {"planes": ["a", "b", "c"], "reactions": [1, 1, 3]}, [4, 4, 1]
    )
    assert res.outcome == "c, [a = b roll off]"
    assert e.attributes["initiative_ties"] == [["a", "b"]]
    with pytest.raises(RuleViolation, match=r"only planes tied .*; tied now: A, B$"):
        perform(e, "initiative_roll_off", {"planes": ["a", "c"]}, [1, 2])
    # the roll-off form comes filled with the tied planes, never typed ids (issue 14)
    assert RULESET.procedures["initiative_roll_off"].prefill(e, None, None) == {
        "planes": ["a", "b"]
    }
    e2, res = perform(e, "initiative_roll_off", {"planes": ["a", "b"]}, [3, 3])
    assert e2.attributes["initiative_ties"] == [["a", "b"]]
    e3, res = perform(e2, "initiative_roll_off", {"planes": ["a", "b"]}, [5, 2])
    # the higher roll moves second
    assert e3.initiative_order == ("c", "b", "a")
    assert e3.attributes["initiative_ties"] == []


def test_roll_off_winner_reading() -> None:
    """UFO rules, Turn Order (open reading): who wins a roll-off is unsaid; with
    roll_off_higher_moves_first the higher roll moves first (default: second)."""
    first = ("roll_off_higher_moves_first",)
    e = game(("A", "tornado", {"reaction": 1}), ("B", "tornado", {"reaction": 1}))
    e, _ = perform(e, "initiative", {"planes": ["a", "b"], "reactions": [1, 1]}, [4, 4], first)
    e2, res = perform(e, "initiative_roll_off", {"planes": ["a", "b"]}, [5, 2], first)
    assert e2.initiative_order == ("a", "b") and res.outcome == "a, b"
    e3, _ = perform(e, "initiative_roll_off", {"planes": ["a", "b"]}, [5, 2])
    assert e3.initiative_order == ("b", "a")
    off = RULESET.bind(first).procedures["initiative_roll_off"]
    assert off.odds(off.parse({"planes": ["a", "b"]}), e) == RULESET.procedures[
        "initiative_roll_off"
    ].odds(off.parse({"planes": ["a", "b"]}), e)


def test_every_plane_rolls_initiative_not_only_six() -> None:
    """UFO rules, Turn Order: "Each plane rolls d6+pilot reaction" -- eight planes, eight
    rolls; the odds of the whole order are refused beyond six (too many orders), not the roll."""
    e = game(
        *((f"P{i}", "tornado", {"reaction": 1}) for i in range(8)), ("Saucer", "small_ufo", {})
    )
    pre = INIT.prefill(e, None, None)
    assert len(pre["planes"]) == 8
    e, res = perform(e, "initiative", pre, [1, 2, 3, 4, 5, 6, 1, 2])
    assert len(e.initiative_order) == 8
    assert e.initiative_scores["p7"] == 3 and e.initiative_scores["p5"] == 7
    with pytest.raises(RuleViolation, match="more than the 46,656 exact odds read"):
        INIT.odds(INIT.parse(pre))


def rolled() -> object:
    e, _ = perform(
        standard(), "initiative", {"planes": ["blue1", "blue2"], "reactions": [2, 1]}, [6, 2]
    )
    return e  # Blue1 8, Blue2 3


def test_acting_in_each_step() -> None:
    e = rolled()
    assert said(RULESET.acting(at(e, INITIATIVE))) == [
        ("blue1", "rolls d6 + pilot reaction 2"),
        ("blue2", "rolls d6 + pilot reaction 1"),
    ]
    assert said(RULESET.acting(at(e, UFO_MOVES))) == [
        ("saucer", "moves up to 6 inches (may change direction up to 90 degrees first)")
    ]
    assert [a for a, _ in said(RULESET.acting(at(e, FIRST_HALF)))] == ["blue2", "blue1"]
    assert said(RULESET.acting(at(e, SECOND_HALF)))[0] == (
        "blue2",
        "moves second half of its move (4 inches) (initiative 3)",
    )
    assert [a for a, _ in said(RULESET.acting(at(e, CANNON_1)))] == ["blue1", "blue2"]


def test_missile_firing_with_ufo_initiative_13_minus_charge() -> None:
    """Full charge 9: UFO initiative 4, between Blue1 (8) and Blue2 (3); charge 4: 9, first."""
    e = at(rolled(), MISSILES)
    assert [a for a, _ in said(RULESET.acting(e))] == ["blue1", "saucer", "blue2"]
    assert said(RULESET.acting(e))[1] == ("saucer", "fires its ray gun or recharges (initiative 4)")
    e = fold(e, [LedgerChanged(aircraft="saucer", ledger="ray_gun_1", delta=-5)])
    assert [a for a, _ in said(RULESET.acting(e))] == ["saucer", "blue1", "blue2"]
    e = fold(e, [LedgerChanged(aircraft="saucer", ledger="ray_gun_1", delta=1)])
    assert "tied with Blue1" in said(RULESET.acting(e))[0][1]


def test_new_turn_clears_the_initiative() -> None:
    e = at(rolled(), MISSILES)
    events = RULESET.on_clock(e, 2, 0)
    e2 = fold(e, events)
    assert e2.initiative_order == () and e2.initiative_scores == {}
    assert RULESET.on_clock(e, 1, 5) == []


def test_missile_firing_lists_damage_due_and_vital_checks() -> None:
    e = at(rolled(), CANNON_1)
    e, _ = perform(e, "cannon", {"attacker": "blue1", "target": "saucer", "range_inches": 2}, [3])
    e, _ = perform(e, "damage_roll", {"target": "blue2", "target_type": "fighter"}, [3, 4])
    acts = said(RULESET.acting(at(e, MISSILES)))
    assert ("saucer", "2 roll(s) on the damage table due") in acts
    assert ("blue2", "vital system check: d6 less than total damage ejects") in acts


def test_initiative_for_a_plane_whose_name_is_its_id() -> None:
    e = game(("solo", "tornado", {"reaction": 1}))
    e, _ = perform(e, "initiative", {"planes": ["solo"], "reactions": [1]}, [2])
    assert e.initiative_order == ("solo",) and e.initiative_scores == {"solo": 3}


def test_every_named_procedure_exists() -> None:
    """Each "who acts now" line that names a procedure names one of this ruleset's."""
    e = rolled()
    for step in (INITIATIVE, UFO_MOVES, FIRST_HALF, CANNON_1, SECOND_HALF, MISSILES):
        for line in RULESET.acting(at(e, step)):
            assert not line.procedure or line.procedure in RULESET.procedures


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_initiative_odds_are_the_walk_over_decide(n: int) -> None:
    """The odds kept apart from ``decide`` (one d6 per plane, enumerated by faces) equal the
    generic walk over ``decide`` wherever that walk fits."""
    planes = [f"P{i}" for i in range(n)]
    inputs = INIT.Inputs(planes=planes, reactions=[i % 2 for i in range(n)])
    assert INIT.odds(inputs) == Procedure.odds(INIT, inputs)
    roll_off = RULESET.procedures["initiative_roll_off"]
    tied = roll_off.Inputs(planes=planes)
    assert roll_off.odds(tied) == Procedure.odds(roll_off, tied)


DUE_STEPS = [(1, s) for s in (CANNON_1, SECOND_HALF, CANNON_2, MISSILES)] + [
    (2, s) for s in (INITIATIVE, UFO_MOVES, FIRST_HALF)
]


def test_a_hits_damage_rolls_are_listed_in_every_step_until_rolled() -> None:
    """UFO rules, Hitting: "Roll d6+1 and subtract range in inches- this is number of hits on
    Damage Table". The rolls are owed from the hit on: who acts now lists them in the step of
    the hit and in every step after it (the next turn's too), counting down as they are
    rolled, and not once all are rolled (not only in Missile Firing: the umpire walk's
    finding)."""
    e = at(rolled(), CANNON_1)
    shot = {"attacker": "blue1", "target": "saucer", "range_inches": 2}
    e, _ = perform(e, "cannon", shot, [3])  # 3 + 1 - 2 = 2 hits
    for turn, step in DUE_STEPS:
        acts = said(RULESET.acting(at(e, step, turn)))
        assert ("saucer", "2 roll(s) on the damage table due") in acts, (turn, step)
    ufo_column = {"target": "saucer", "target_type": "ufo"}
    e, _ = perform(at(e, SECOND_HALF), "damage_roll", ufo_column, [3, 4])
    for turn, step in DUE_STEPS:
        acts = said(RULESET.acting(at(e, step, turn)))
        assert ("saucer", "1 roll(s) on the damage table due") in acts, (turn, step)
    e, _ = perform(e, "damage_roll", ufo_column, [3, 4])
    for turn, step in DUE_STEPS:
        assert all(line.procedure != "damage_roll" for line in RULESET.acting(at(e, step, turn)))


CHECK = ("blue2", "vital system check: d6 less than total damage ejects")


def test_the_once_a_turn_vital_check_is_listed_in_missile_firing() -> None:
    """UFO rules, Damage: "Any turn a plane takes damage roll d6" (the text's reading: once a
    turn, after the turn's damage): a plane damaged at the half way point has its check listed
    in Missile Firing, the turn's last step, not before (more damage may come)."""
    e = at(rolled(), CANNON_1)
    e, _ = perform(e, "damage_roll", {"target": "blue2", "target_type": "fighter"}, [3, 4])
    for step in (CANNON_1, SECOND_HALF, CANNON_2):
        assert CHECK not in said(RULESET.acting(at(e, step)))
    assert CHECK in said(RULESET.acting(at(e, MISSILES)))


def test_the_check_after_each_damage_roll_is_listed_in_every_step() -> None:
    """UFO rules, Damage, the ``vital_each_damage_roll`` reading: a check is owed after each
    damage roll that does damage, before the next roll; listed from that roll until made."""
    each = RULESET.bind(["vital_each_damage_roll"])
    e = at(rolled(), CANNON_1)
    fighter = {"target": "blue2", "target_type": "fighter"}
    e, _ = perform(e, "damage_roll", fighter, [3, 4], ["vital_each_damage_roll"])
    for turn, step in DUE_STEPS:
        assert CHECK in said(each.acting(at(e, step, turn))), (turn, step)


def test_the_once_a_turn_vital_check_waits_for_the_planes_damage_rolls() -> None:
    """UFO rules, Damage: the check compares the d6 with "the total damage taken", so the
    text's reading lists it once the plane's damage rolls are all rolled, not between them."""
    e = at(rolled(), MISSILES)
    ray = {"attacker": "saucer", "target": "blue1", "charge": 9, "range_inches": 5}
    e, _ = perform(e, "ray_gun", ray, [5, 1, 6, 4])  # 2 hits
    check = ("blue1", "vital system check: d6 less than total damage ejects")
    e, _ = perform(e, "damage_roll", {"target": "blue1", "target_type": "fighter"}, [3, 4])
    assert check not in said(RULESET.acting(e))
    e, _ = perform(e, "damage_roll", {"target": "blue1", "target_type": "fighter"}, [3, 4])
    assert check in said(RULESET.acting(e))
