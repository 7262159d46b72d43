"""UFO rules, Movement: the limits the desk checks."""

from __future__ import annotations

from fractions import Fraction

import pytest
from ufo_helpers import at, fold, perform, standard

from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from rulesets.ufo_interception import RULESET
from rulesets.ufo_interception.sequence import FIRST_HALF, SECOND_HALF, UFO_MOVES

UFO_MOVE = RULESET.procedures["ufo_move"]
MOVE = RULESET.procedures["aircraft_move"]


def ufo_inputs(**kw: int) -> object:
    return UFO_MOVE.Inputs(**{"anti_grav": 7, **kw})


def test_ufo_moves_up_to_6_inches_turning_up_to_90() -> None:
    """UFO may move any distance up to 6 inches; it may change direction up to 90'."""
    assert UFO_MOVE.odds(ufo_inputs(inches=6, direction_change=90)) == {"legal": Fraction(1)}
    assert UFO_MOVE.odds(ufo_inputs(inches=7)) == {"illegal": Fraction(1)}
    assert UFO_MOVE.odds(ufo_inputs(inches=3, direction_change=91)) == {"illegal": Fraction(1)}


def test_ufo_no_turn_after_moving_further_than_anti_grav() -> None:
    """It may not change direction if it moved further than its current anti-grav rating."""
    assert UFO_MOVE.odds(
        ufo_inputs(inches=2, anti_grav=5, moved_last_turn=6, direction_change=10)
    ) == {"illegal": Fraction(1)}
    assert UFO_MOVE.odds(
        ufo_inputs(inches=2, anti_grav=6, moved_last_turn=6, direction_change=10)
    ) == {"legal": Fraction(1)}


def test_ufo_move_on_the_table() -> None:
    e = fold(
        at(standard(), UFO_MOVES), [LedgerChanged(aircraft="saucer", ledger="anti_grav", delta=-3)]
    )
    inputs = {"aircraft": "saucer", "inches": 6, "anti_grav": 4, "direction_change": 90}
    e, res = perform(e, "ufo_move", inputs)
    assert e.aircraft["saucer"].attributes["moved"] == [1, 6]
    with pytest.raises(RuleViolation, match="already moved"):
        perform(e, "ufo_move", inputs)
    e2 = at(e, UFO_MOVES, turn=2)
    assert UFO_MOVE.prefill(e2, "saucer", None)["moved_last_turn"] == 6
    with pytest.raises(RuleViolation, match="may not change direction"):
        perform(e2, "ufo_move", {**inputs, "moved_last_turn": 6, "inches": 3})
    e3, _ = perform(e2, "ufo_move", {**inputs, "moved_last_turn": 6, "direction_change": 0})
    # a damaged power plant lowers the maximum speed below 6
    e4 = fold(
        at(e3, UFO_MOVES, turn=3), [LedgerChanged(aircraft="saucer", ledger="max_speed", delta=-2)]
    )
    with pytest.raises(RuleViolation, match="up to 4 inches"):
        perform(
            e4,
            "ufo_move",
            {
                "aircraft": "saucer",
                "inches": 5,
                "anti_grav": 4,
                "max_speed": 4,
                "moved_last_turn": 6,
            },
        )


def plan(**kw: int) -> object:
    return MOVE.Inputs(**{"speed": 8, "previous_speed": 8, "top_speed": 8, **kw})


def test_aircraft_limits() -> None:
    """Top speed 8 inches; speed change up to 3; turns up to 45' at halfway and at the end."""
    assert MOVE.odds(plan()) == {"legal": Fraction(1)}
    assert MOVE.odds(plan(speed=9)) == {"illegal": Fraction(1)}
    assert MOVE.odds(plan(speed=4)) == {"illegal": Fraction(1)}
    assert MOVE.odds(plan(speed=5, turn=45)) == {"legal": Fraction(1)}
    assert MOVE.odds(plan(turn=46)) == {"illegal": Fraction(1)}
    assert MOVE.odds(plan(speed=0, previous_speed=2)) == {"crashes": Fraction(1)}


def test_aircraft_move_on_the_table() -> None:
    e = at(standard(), FIRST_HALF)
    pre = MOVE.prefill(e, "blue1", None)
    assert pre == {"speed": 8, "previous_speed": 8, "top_speed": 8, "half": 1}
    with pytest.raises(RuleViolation, match="not made the first half"):
        perform(at(e, SECOND_HALF), "aircraft_move", {**pre, "aircraft": "blue1", "half": 2})
    e, res = perform(e, "aircraft_move", {**pre, "aircraft": "blue1", "speed": 6, "turn": 45})
    assert "3 inches" in res.narrative
    assert e.aircraft["blue1"].attributes["speed"] == 6
    e = at(e, SECOND_HALF)
    pre2 = MOVE.prefill(e, "blue1", None)
    assert pre2 == {"speed": 6, "previous_speed": 8, "top_speed": 8, "half": 2}
    with pytest.raises(RuleViolation, match="only at the start"):
        perform(e, "aircraft_move", {**pre2, "aircraft": "blue1", "speed": 7})
    e, _ = perform(e, "aircraft_move", {**pre2, "aircraft": "blue1", "turn": 30})
    # next turn: the change is measured from 6
    e = at(e, FIRST_HALF, turn=2)
    assert MOVE.prefill(e, "blue1", None)["previous_speed"] == 6
    with pytest.raises(RuleViolation, match="up to 3 inches"):
        perform(
            e,
            "aircraft_move",
            {"aircraft": "blue1", "speed": 2, "previous_speed": 6, "top_speed": 8},
        )


def test_aircraft_reduced_to_0_speed_crashes() -> None:
    e = at(standard(), FIRST_HALF)
    e = fold(e, [])
    e, _ = perform(
        e, "aircraft_move", {"aircraft": "blue2", "speed": 5, "previous_speed": 8, "top_speed": 8}
    )
    e = at(e, FIRST_HALF, turn=2)
    e, _ = perform(
        e, "aircraft_move", {"aircraft": "blue2", "speed": 2, "previous_speed": 5, "top_speed": 8}
    )
    e = at(e, FIRST_HALF, turn=3)
    e, res = perform(
        e, "aircraft_move", {"aircraft": "blue2", "speed": 0, "previous_speed": 2, "top_speed": 8}
    )
    assert res.outcome == "crashes" and "crashed" in e.aircraft["blue2"].status


def test_a_narrative_says_one_inch_not_one_inches() -> None:
    """UFO rules, Movement (found at the desk: "UFO moves 1 inches"): a distance read aloud
    is "1 inch" or "1/2 inch", "6 inches" for more."""
    e = at(standard(), UFO_MOVES)
    _, res = perform(e, "ufo_move", {"aircraft": "saucer", "inches": 1, "anti_grav": 7})
    assert "UFO moves 1 inch " in res.narrative
    e = at(standard(), FIRST_HALF)
    pre = MOVE.prefill(e, "blue1", None)
    _, res = perform(e, "aircraft_move", {**pre, "aircraft": "blue1", "speed": 7})
    assert "7/2 inches at speed 7" in res.narrative
