"""Duel: one gun shot. Rule 1: a hit on 2d6 + guns + the range modifier (rule 2) of 10 or
more; a hit is one damage point and every shot spends one round."""

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.core.data import Missing, cell, load_catalogue, load_table
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import DamageTaken, LedgerChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.ruleset import LedgerSpec, ProcedureInputs, Ruleset

HERE = Path(__file__).parent


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    guns: int = Field(ge=0, le=10)
    ammunition: int = Field(ge=0, le=20)
    sample: bool = False


class Ranges(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    rule: str
    modifiers: list[int | Missing] = Field(min_length=3, max_length=3)


def ranges() -> Ranges:
    return load_table("duel", HERE / "tables" / "ranges.toml", Ranges)


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


class Duel(Ruleset):
    id, title, Card, procedure_types = "duel", "Duel", Card, (Shot,)
    ledgers = (LedgerSpec("ammunition", "Ammunition", "ammunition", Fraction(1), "1"),)
    uses_pilot_quality = False

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return load_catalogue(HERE / "aircraft", Card, "duel")

    def table_files(self) -> Mapping[str, Path]:
        return {"Ranges (rule 2)": HERE / "tables" / "ranges.toml"}
