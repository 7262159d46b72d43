"""Duel's gun shot. Rule 1: a hit on 2d6 + guns + the range modifier (rule 2) of 10 or more; a
hit is one damage point and every shot spends one round."""

from typing import Any

from pydantic import Field

from airboss_duel.card import Card
from airboss_duel.tables import ranges
from app.core.data import cell
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import DamageTaken, LedgerChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.ruleset import ProcedureInputs


class ShotInputs(ProcedureInputs):
    guns: int = Field(title="Gun value", ge=0, le=10)
    range_hexes: int = Field(title="Range (hexes)", ge=1, le=3)


class Shot(Procedure):
    """Rule 1: a hit on 2d6 + guns + range modifier (rule 2) of 10 or more; one damage."""

    id, title, rule, Inputs = "shot", "Gun shot", "1", ShotInputs
    card_fields = frozenset({"guns"})

    def decide(self, i: ShotInputs, dice: DiceSource, draft: Draft) -> Decision:
        table = ranges()
        modifier = cell(table.modifiers[i.range_hexes - 1], "Ranges", f"{i.range_hexes}", "2")
        if i.attacker:
            draft.emit(LedgerChanged(aircraft=i.attacker, ledger="ammunition", delta=-1))
        total = dice.roll("2d6", "shot").total + i.guns + modifier
        outcome = "hit" if total >= 10 else "miss"
        if outcome == "hit" and i.target:
            draft.emit(DamageTaken(aircraft=i.target, points=1))
        return Decision(outcome, f"2d6{i.guns + modifier:+d} = {total}: {outcome} (1)")

    def prefill(self, e: Engagement, attacker: str | None, target: str | None) -> dict[str, Any]:
        return {"guns": e.get(attacker).typed(Card, "card").guns} if attacker else {}
