"""The typed per-aircraft State (issue 19): every value the procedures keep is declared, read
typed, and a value the model refuses is a programming error caught by the draft."""

from __future__ import annotations

import pytest
from aaf_helpers import apply, game

from app.core.dice import TableDice
from app.core.events import AttributesSet
from app.core.procedure import Draft
from rulesets.advanced_air_force import RULESET
from rulesets.advanced_air_force.state import State, state_of


def test_the_ruleset_declares_its_state() -> None:
    assert RULESET.State is State
    e = game(("blue", "Blue", "spitfire_sample"))
    assert state_of(e.aircraft["blue"]) == State()


def test_the_draft_refuses_an_undeclared_or_mistyped_value() -> None:
    e = game(("blue", "Blue", "spitfire_sample"))
    draft = Draft(e, RULESET.State)
    with pytest.raises(TypeError):
        draft.emit(AttributesSet(aircraft="blue", values={"air_speed": 3}))
    with pytest.raises(TypeError):
        draft.emit(AttributesSet(aircraft="blue", values={"airspeed": "fast"}))


def test_hit_effects_and_airspeeds_read_typed() -> None:
    """Rule 26 (a G hit from 6 o'clock) and rules 2, 16-21 (the Resulting Airspeed) are kept
    as typed values the next procedure reads."""
    e = game(("blue", "Blue", "spitfire_sample"), ("red", "Red", "bf110_sample"))
    gf = RULESET.procedures["gun_fire"]
    shot = gf.parse(
        {
            "attacker": "blue",
            "target": "red",
            "total_gun_factors": 8,
            "range_hexes": 2,
            "target_clock": 6,
            "target_straight_ahead": True,
        }
    )
    e = apply(e, gf.resolve(shot, TableDice([4]), e))
    red = state_of(e.aircraft["red"])
    assert red.g_hits == {"front": 0, "rear": 1}
    assert red.flexible_gun_loss == {"front": 0, "rear": 4}
    speed = RULESET.procedures["speed_change"]
    go = speed.parse({"aircraft": "blue", "current_speed": 6, **speed.prefill(e, "blue", None)})
    e = apply(e, speed.resolve(go, TableDice([]), e))
    assert state_of(e.aircraft["blue"]).airspeed == 6
    assert speed.prefill(e, "blue", None)["current_speed"] == 6
