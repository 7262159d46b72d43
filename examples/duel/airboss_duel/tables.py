"""Duel's table (rule 2): the range modifier of a gun shot, one cell not printed."""

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from app.core.data import Missing, load_table

RANGES = Path(__file__).parent / "tables" / "ranges.toml"


class Ranges(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    rule: str
    modifiers: list[int | Missing] = Field(min_length=3, max_length=3)


def ranges() -> Ranges:
    return load_table("duel", RANGES, Ranges)
