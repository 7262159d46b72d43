"""Issue 32: Nth Fleet keeps the whole ruleset contract (app.testing.check_ruleset), with the
air-to-air attack table and the defence values filled in as the conftest's umpire does (test
values kept consistent with the two printed cells)."""

from __future__ import annotations

from app.testing import check_ruleset
from rulesets.nth_fleet import RULESET

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


COLUMNS = (10, 20, 30, 40, 50)
FILLS = {
    "air_to_air_attack": {
        "lower_columns": [10, 20, 30],
        "cells": {str(c): {str(r): attack_cell(c, r) for r in range(11)} for c in COLUMNS},
    },
    "defence_values": {"values": DEFENCE},
}


#: a what-if combat the rules accept (both attack totals, no counters named), checked besides
#: the generated inputs (most of which name counters, which a what-if has none of)
INPUTS = {"air_combat": ({"first_attack": 30, "second_attack": 20, "cap": "first"},)}


def test_nth_fleet_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, fills=FILLS, details={"base": "Nimitz", "unit_sides": 2}, inputs=INPUTS)
