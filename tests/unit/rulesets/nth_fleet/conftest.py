"""Fixtures for the Nth Fleet tests: the ruleset, a game built from events, filled-in tables.

The rules text prints only two cells of the air-to-air attack table and no defence values, so
tests that need more fill them in as the umpire would (``save_override``), with values chosen
for the test and kept consistent with the two printed cells (40 and 50 columns, roll 5: 10, 11).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.core.data import save_override
from app.core.dice import SeededDice, TableDice
from app.core.engagement import Engagement
from app.core.events import GameCreated
from app.core.ruleset import Resolution
from rulesets.nth_fleet import RULESET, NthFleet

#: test-only defence values (the Defence Value Table is not in the rules text)
DEFENCE = {
    "f15c": 5,
    "f14a": 5,
    "fa18c": 4,
    "tornado_f": 4,
    "mig29": 4,
    "a6e": 4,
    "su24": 3,
    "ea6b": 3,
    "e2c": 2,
    "tu95rt": 5,
}


def attack_cell(column: int, roll: int) -> int:
    """Test-only attack table: 40 -> 2r, 50 -> 2r+1 (printed roll 5: 10, 11); lower c/10*r/2."""
    if column == 40:
        return 2 * roll
    if column == 50:
        return 2 * roll + 1
    return column // 10 * roll // 2


#: every cell the rules text does not print, filled with the test values above
FILLS: dict[str, dict[str, Any]] = {
    "air_to_air_attack": {
        "lower_columns": [10, 20, 30],
        "cells": {
            str(c): {str(r): attack_cell(c, r) for r in range(11)} for c in (10, 20, 30, 40, 50)
        },
    },
    "defence_values": {"values": DEFENCE},
}


def fill_tables() -> None:
    """Fill every missing cell as an umpire would, through the override files."""
    for name, values in FILLS.items():
        save_override("nth_fleet", name, values)


@pytest.fixture
def fills() -> dict[str, dict[str, Any]]:
    return FILLS


@pytest.fixture
def rs() -> NthFleet:
    return RULESET


@pytest.fixture
def filled() -> None:
    fill_tables()


class Game:
    """A projection built by applying events, as GameSession does, without storage."""

    def __init__(self, ruleset: NthFleet = RULESET) -> None:
        self.rs = ruleset
        self.state = Engagement().apply(GameCreated(ruleset="nth_fleet", title="test"), 1)

    def add(self, side: str, type_id: str, name: str, **details: Any) -> str:
        aid = name.lower().replace(" ", "-")
        ev = self.rs.new_aircraft(aid, name, side, type_id, None, details)
        self.state = self.state.apply(ev, self.state.seq + 1)
        return aid

    def perform(
        self, proc: str, inputs: dict[str, Any], dice: list[int] | None = None
    ) -> Resolution:
        p = self.rs.procedures[proc]
        source = TableDice(dice) if dice is not None else SeededDice(1)
        res = p.resolve(p.parse(inputs), source, self.state)
        state = self.state
        for ev in res.events:
            state = state.apply(ev, state.seq + 1)
        self.state = state
        return res

    def tracks(self, aid: str) -> dict[str, int]:
        return dict(self.state.get(aid).attributes["tracks"])


@pytest.fixture
def game() -> Callable[[], Game]:
    return Game
