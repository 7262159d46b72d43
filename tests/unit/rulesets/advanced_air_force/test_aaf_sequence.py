"""Issue 14: Advanced Air Force's "who acts now" in each step of a Game-Turn, every line
opening its procedure (rules 2, 3, 12-15)."""

from __future__ import annotations

from aaf_helpers import apply, game

from app.core.acting import ActingLine
from app.core.events import ClockSet, GameAttributesSet
from rulesets.advanced_air_force import RULESET


def at(e, step):  # noqa: ANN001, ANN201 - a test helper
    return apply(e, [ClockSet(turn=e.turn, step=step)])


def test_a_game_turn_of_who_acts_now_with_one_advantage() -> None:
    e = game(
        ("blue", "Blue", "spitfire_sample"),
        ("red", "Red", "bf110_sample"),
        ("grey", "Red", "spitfire_sample"),
    )
    held = {"blue": {"target": "red", "turn": e.turn, "consecutive": 1}}  # a state.Advantage
    e = apply(e, [GameAttributesSet(values={"advantage": held})])
    # rule 2: unaffected plot secretly, then the Disadvantaged move, then the Advantaged plot
    assert RULESET.acting(at(e, 0)) == [
        ActingLine("grey", "writes its movement secretly (airspeed)", procedure="speed_change"),
        ActingLine("red", "moves first: Disadvantaged (airspeed)", procedure="speed_change"),
        ActingLine("blue", "plots last: Advantaged (airspeed)", procedure="speed_change"),
    ]
    # rules 2, 3: the Advantaged repeats its Advantage, the others may declare one
    assert RULESET.acting(at(e, 1)) == [
        ActingLine(
            "blue", "repeats its Advantage over Red", procedure="declare_advantage", other="red"
        ),
        ActingLine(
            "red",
            "may declare an Advantage (pursuer within 1200 ft)",
            procedure="declare_advantage",
        ),
        ActingLine(
            "grey",
            "may declare an Advantage (pursuer within 1200 ft)",
            procedure="declare_advantage",
        ),
    ]
    # fire: the Advantaged at its target first, never "writes its movement" here
    fire = RULESET.acting(at(e, 2))
    assert fire[0] == ActingLine(
        "blue", "fires at Red: Advantaged", procedure="gun_fire", other="red"
    )
    assert {line.who for line in fire[1:]} == {"red", "grey"}
    assert all(line.procedure == "gun_fire" for line in fire)
    for step in range(3):  # every line opens a procedure the ruleset has
        assert all(line.procedure in RULESET.procedures for line in RULESET.acting(at(e, step)))
