"""The damage table as data (UFO rules, Damage), validated by pydantic at load."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.data import Missing, load_table

DAMAGE_TABLE = Path(__file__).parent / "tables" / "damage_table.toml"
ARCS_TABLE = Path(__file__).parent / "tables" / "arcs.toml"

Rolled = Literal["d6", "2d6"]


class Effect(BaseModel):
    """One cell of the damage table: the printed text and what it does."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    text: str = Field(min_length=1)
    dp: int | Rolled = 0
    max_speed: int | Literal["d6"] = 0
    anti_grav: int = Field(0, ge=0)
    ray_gun: Literal["d6"] | None = None
    hard_points: bool = False
    pilot_killed: bool = False
    destroyed: bool = False
    crash: bool = False

    @property
    def label(self) -> str:
        """The outcome label: the printed text, with the one "1DP" spelt like the others."""
        return re.sub(r"(\d)DP\b", r"\1 DP", self.text)


class Row(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    roll: int = Field(ge=2, le=12)
    fighter: Effect
    ufo: Effect


class DamageTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rule: str
    rows: list[Row]

    @model_validator(mode="after")
    def _every_roll(self) -> DamageTable:
        rolls = sorted(r.roll for r in self.rows)
        if rolls != list(range(2, 13)):
            raise ValueError("the damage table needs exactly one row for each 2d6 roll 2-12")
        return self

    def effect(self, roll: int, kind: Literal["fighter", "ufo"]) -> Effect:
        row = next(r for r in self.rows if r.roll == roll)
        return row.fighter if kind == "fighter" else row.ufo


def damage_table() -> DamageTable:
    """The damage table with the umpire's overrides merged (``DataFileError`` if malformed)."""
    return load_table("ufo_interception", DAMAGE_TABLE, DamageTable)


Width = Annotated[int, Field(gt=0, le=360)]


class Arcs(BaseModel):
    """The cannon's forward arc and a missile's front arc (UFO rules, Firing), full widths in
    degrees centred on the nose; not printed."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    title: str
    rule: str
    cannon_forward_arc_degrees: Width | Missing
    missile_front_arc_degrees: Width | Missing


def arcs() -> Arcs:
    """The arc widths with the umpire's values merged in."""
    return load_table("ufo_interception", ARCS_TABLE, Arcs)
