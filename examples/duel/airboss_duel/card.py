"""Duel's card: one aircraft's guns and rounds, and the sample aircraft in ``aircraft/``."""

from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from app.core.data import load_catalogue


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    name: str
    guns: int = Field(ge=0, le=10)
    ammunition: int = Field(ge=0, le=20)
    sample: bool = False


def catalogue() -> Mapping[str, Card]:
    return load_catalogue(Path(__file__).parent / "aircraft", Card, "duel")
