"""Issue 32: Nth Fleet keeps the whole ruleset contract (app.testing.check_ruleset), with the
air-to-air attack table and the defence values filled in as the conftest's umpire does (test
values kept consistent with the two printed cells)."""

from __future__ import annotations

from typing import Any

from app.testing import check_ruleset
from rulesets.nth_fleet import RULESET

#: a what-if combat the rules accept (both attack totals, no counters named), checked besides
#: the generated inputs (most of which name counters, which a what-if has none of)
INPUTS = {"air_combat": ({"first_attack": 30, "second_attack": 20, "cap": "first"},)}


def test_nth_fleet_keeps_the_ruleset_contract(fills: dict[str, Any]) -> None:
    """The fills: conftest.FILLS (test values consistent with the two printed cells)."""
    check_ruleset(RULESET, fills=fills, details={"base": "Nimitz", "unit_sides": 2}, inputs=INPUTS)
