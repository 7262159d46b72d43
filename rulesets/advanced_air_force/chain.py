"""Advanced Air Force's chain (issue 45), for the odds to the end of the chain.

A burst of fire is resolved whole (the entry rolls of rules 12 and 15, then the d6 on the
fire column): it owes no later roll, so its chain is the burst itself, and what it leaves on
the target is read off the target's hit boxes and hit effects.

The text says what E, C, G and W hits do (rules 22-27) but not what an aircraft whose boxes of
a hit type are all marked is: the reading here is that the data card's boxes are the hits the
aircraft can take (V. Dive rules 2-3 speak of its "remaining # of "W" hits" and forbid a
second V. Dive "with 4 remaining "W" hits or less"), so with every box of one hit type marked
it is out of the fight.

Facts (``ChainOdds.chances``): "destroyed" and "out of the fight" (every box of some hit type
marked); "X boxes exhausted" naming the type; "engine damaged" (an E hit, rule 24); "Max.
Level Sp. lost" (to E hits, rule 24, or the W limit, rule 27); "W limit reached (27)". No
pilot, ejection or fire rule: those facts are not listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

from app.core.chain_model import ChainModel
from app.core.engagement import Engagement, Status

from .card import Card
from .hits import HIT_TYPES
from .state import state_of


class Boxes(NamedTuple):
    """What a burst left on the target: the hit types whose boxes are all marked, and the
    effects it brought since before the action."""

    exhausted: tuple[str, ...]
    engine_damaged: bool
    speed_lost: bool
    w_limit: bool


class AafChain(ChainModel[Boxes]):
    """Gunfire resolved whole: no roll owed after it (see the module)."""

    listed = ("destroyed", "out of the fight", "engine damaged")

    def __init__(self, variants: frozenset[str]) -> None:
        self.variants = variants

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> Boxes:
        a = engagement.get(aircraft)
        b = before.get(aircraft) if before is not None else a
        card = a.typed(Card, "card")
        full = tuple(t for t in HIT_TYPES if a.boxes.get(t, 0) >= card.hit_boxes[t] > 0)
        now, then = state_of(a), state_of(b)
        return Boxes(
            full,
            Status.ENGINE_DAMAGED in a.status,
            now.max_level_speed_loss > then.max_level_speed_loss,
            now.w_limit_reached and not then.w_limit_reached,
        )

    def owed(self, s: Boxes) -> str | None:
        return None

    def roll(self, s: Boxes) -> Mapping[Boxes, Fraction]:  # pragma: no cover - owes none
        raise AssertionError("gunfire owes no later roll")

    def facts(self, s: Boxes) -> frozenset[str]:
        facts = {f"{t} boxes exhausted" for t in s.exhausted}
        if s.exhausted:
            facts |= {"destroyed", "out of the fight"}
        if s.engine_damaged:
            facts.add("engine damaged")
        if s.speed_lost:
            facts.add("Max. Level Sp. lost")
        if s.w_limit:
            facts.add("W limit reached (27)")
        return frozenset(facts)
