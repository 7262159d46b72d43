"""Advantage as tracked game state (rules 2, 3, 6, 7).

The game attribute ``advantage`` maps the advantaged aircraft's id to
``{"target": id, "turn": declared, "consecutive": 1 or 2}``. An advantage stands until the
umpire ends it (or the pursuer declares it again); declaring it over the same target on the
next Game-Turn makes it the Second Consecutive Advantage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from app.core.engagement import Engagement

AdvantageStatus = Literal["none", "first", "second_consecutive", "disadvantaged"]
KEY = "advantage"


def advantages(engagement: Engagement) -> dict[str, dict[str, Any]]:
    """A copy of the advantage table: advantaged aircraft id -> its entry."""
    raw = engagement.attributes.get(KEY, {})
    if not isinstance(raw, Mapping):
        return {}
    return {k: dict(v) for k, v in raw.items()}


def disadvantaged(engagement: Engagement) -> set[str]:
    """The aircraft some pursuer holds an advantage over."""
    return {str(e["target"]) for e in advantages(engagement).values()}


def status(engagement: Engagement, attacker: str, target: str) -> AdvantageStatus:
    """The attacker's advantage status against this target, as far as firing is concerned."""
    entry = advantages(engagement).get(attacker)
    if entry is not None and entry["target"] == target:
        return "second_consecutive" if int(entry["consecutive"]) >= 2 else "first"
    if attacker in disadvantaged(engagement):
        return "disadvantaged"
    return "none"
