"""Every Advanced Air Force procedure keeps the contract: cited rule, exact odds summing to 1,
optional aircraft references, and a log record first."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from app.core.dice import SeededDice
from app.core.engagement import Engagement
from app.core.events import ProcedureResolved
from rulesets.advanced_air_force import RULESET

# The smallest valid inputs of each procedure (a what-if, no aircraft).
MINIMAL: dict[str, dict[str, Any]] = {
    "gun_fire": {"total_gun_factors": 8, "range_hexes": 2},
    "gun_range": {"horizontal_hexes": 2},
    "snapshot_check": {
        "target_disadvantaged_or_straight_bomber": True,
        "hexes_beyond": 1,
        "attacker_current_altitude_ft": 9000,
        "attacker_resulting_altitude_ft": 9000,
        "target_resulting_altitude_ft": 9000,
    },
    "declare_advantage": {},
    "end_advantage": {},
    "speed_change": {
        "current_speed": 6,
        "max_level_speed": 10,
        "max_dive_speed": 14,
        "power_factors": 2,
        "brake_factors": 2,
    },
    "stall_speed": {"stall_speed": 3},
    "climb_rate": {"available_climb_ft": 500},
    "altitude_change": {"direction": "climb", "change_ft": 500, "highest_black_ft": 500},
    "vertical_dive": {
        "current_speed": 6,
        "max_dive_ft": 1000,
        "max_dive_speed": 14,
        "v_dive_requirement": 2,
        "remaining_w_hits": 6,
    },
    "vertical_dive_survival": {"remaining_w_hits": 4, "under_half_max_dive_used": False},
    "vertical_climb": {"current_speed": 6, "stall_speed": 3, "dive_speed_climb_ft": 500},
}


def test_every_procedure_is_covered() -> None:
    assert set(MINIMAL) == set(RULESET.procedures)


@pytest.mark.parametrize("pid", sorted(MINIMAL))
def test_procedure_contract(pid: str) -> None:
    proc = RULESET.procedures[pid]
    assert "rule" in proc.rule.lower() or "table" in proc.rule.lower()
    assert proc.__doc__ and ("rule" in proc.__doc__.lower() or "table" in proc.__doc__.lower())
    fields = proc.Inputs.model_fields
    assert {"attacker", "target"} <= set(fields) or "aircraft" in fields
    inputs = proc.parse(MINIMAL[pid])
    odds = proc.odds(inputs)
    assert all(isinstance(p, Fraction) and p > 0 for p in odds.values())
    assert sum(odds.values()) == 1
    res = proc.resolve(inputs, SeededDice(7), Engagement())
    assert isinstance(res.events[0], ProcedureResolved)
    assert res.outcome in odds
