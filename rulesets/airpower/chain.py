"""Air Power's chain of follow-up rolls (issue 45), for the odds to the end of the chain.

Each hit of a gun, rocket or Genie attack waits on its target for its damage roll (rule
"Aircraft Damage Resolution": a d10 in the attack rating's column, rockets -2 "just like direct
missile hits"), rolled oldest first as ``DamageRoll`` does. The state that matters (``Hits``)
is the hits still waiting and the results come so far. The damage table is not printed in
this text: its results are the umpire's codes, and which of them take an aircraft out of the
fight is the table's ``outcomes.out_of_the_fight`` line, which the umpire fills in too.

Facts (``ChainOdds.chances``): "damage result X" for each result code that comes; "destroyed"
and "out of the fight" once one of the results the umpire named out of the fight comes (not
known until the table names them). The text gives no pilot, ejection or fire rule: those
facts are not listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from app.core.chain_model import ChainModel
from app.core.data import MISSING
from app.core.engagement import Engagement
from app.core.markov import Weighted
from rulesets.airpower.damage import NO_EFFECT
from rulesets.airpower.state import State
from rulesets.airpower.tables import DAMAGE, damage_table, modifiers


class Hits(NamedTuple):
    """The hits waiting for their damage roll, (attack rating, weapon), oldest first, and the
    results come since before the action."""

    pending: tuple[tuple[int, str], ...]
    results: frozenset[str]


class AirPowerChain(ChainModel[Hits]):
    """The damage rolls an Air Power action owes (see the module)."""

    listed = ("destroyed", "out of the fight")

    def __init__(self, variants: frozenset[str]) -> None:
        self.variants = variants
        self.table = damage_table()
        self._memo: dict[Any, Any] = {}

    @property
    def memo(self) -> dict[Any, Any]:
        return self._memo

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> Hits:
        a = engagement.get(aircraft)
        pending = tuple(
            (h.attack_rating, h.source) for h in a.typed(State, "attributes").hits_to_resolve
        )
        old = len(before.get(aircraft).criticals) if before is not None else len(a.criticals)
        results = frozenset(c.result for c in a.criticals[old:])
        return Hits(pending, results)

    def owed(self, s: Hits) -> str | None:
        return "damage" if s.pending else None

    def roll(self, s: Hits) -> Weighted[Hits]:
        """Rule "Aircraft Damage Resolution": a d10 (rockets -2) in the rating's column."""
        (rating, weapon), rest = s.pending[0], s.pending[1:]
        mod = modifiers().rocket_damage_roll if weapon == "rocket" else 0
        out: dict[Hits, int] = {}
        for roll in range(1, 11):
            result = self.table.result(rating, roll + mod, DAMAGE)
            seen = s.results if result == NO_EFFECT else s.results | {result}
            nxt = Hits(rest, seen)
            out[nxt] = out.get(nxt, 0) + 1
        return Weighted(out, 10)

    def facts(self, s: Hits) -> frozenset[str]:
        facts = {f"damage result {r}" for r in s.results}
        out = self.table.out_of_the_fight
        if out != MISSING and s.results & set(out):
            facts |= {"destroyed", "out of the fight"}
        return frozenset(facts)

    def not_known(self) -> Mapping[str, str]:
        if self.table.out_of_the_fight != MISSING:
            return {}
        why = (
            f"needs {DAMAGE}: which results take an aircraft out of the fight (not printed in "
            "the rules text; its 'outcomes' section in the Tables editor)"
        )
        return {"destroyed": why, "out of the fight": why}


__all__ = ["AirPowerChain"]
