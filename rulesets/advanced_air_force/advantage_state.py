"""Advantage as tracked game state (rules 2, 3, 6, 7).

The game's ``advantage`` record (``state.GameState``) maps the advantaged aircraft's id to
its ``Advantage``: the target, the Game-Turn declared, first or second consecutive. An
advantage stands until the umpire ends it (or the pursuer declares it again); declaring it
over the same target on the next Game-Turn makes it the Second Consecutive Advantage.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from app.core.engagement import Engagement
from app.core.events import GameAttributesSet

from .state import Advantage, game_of

AdvantageStatus = Literal["none", "first", "second_consecutive", "disadvantaged"]
KEY = "advantage"


def advantages(engagement: Engagement) -> dict[str, Advantage]:
    """A copy of the advantage table: advantaged aircraft id -> its entry."""
    return dict(game_of(engagement).advantage)


def table_set(table: Mapping[str, Advantage]) -> GameAttributesSet:
    """The event that keeps ``table`` as the game's advantages."""
    return GameAttributesSet(values={KEY: {k: v.model_dump() for k, v in table.items()}})


def disadvantaged(engagement: Engagement) -> set[str]:
    """The aircraft some pursuer holds an advantage over."""
    return {e.target for e in advantages(engagement).values()}


def status(engagement: Engagement, attacker: str, target: str) -> AdvantageStatus:
    """The attacker's advantage status against this target, as far as firing is concerned."""
    entry = advantages(engagement).get(attacker)
    if entry is not None and entry.target == target:
        return "second_consecutive" if entry.consecutive >= 2 else "first"
    if attacker in disadvantaged(engagement):
        return "disadvantaged"
    return "none"
