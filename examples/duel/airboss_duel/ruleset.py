"""Duel: one gun shot (rules 1, 2). The Ruleset object: its card, procedure, ledger, table."""

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

from pydantic import BaseModel

from airboss_duel.card import Card, catalogue
from airboss_duel.guns import Shot
from airboss_duel.tables import RANGES
from app.core.ruleset import LedgerSpec, Ruleset


class Duel(Ruleset):
    id, title, Card, procedure_types = "duel", "Duel", Card, (Shot,)
    ledgers = (LedgerSpec("ammunition", "Ammunition", "ammunition", Fraction(1), "1"),)
    uses_pilot_quality = False

    @property
    def aircraft(self) -> Mapping[str, BaseModel]:
        return catalogue()

    def table_files(self) -> Mapping[str, Path]:
        return {"Ranges (rule 2)": RANGES}
