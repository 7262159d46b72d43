"""A game: its ruleset, title and chosen variants."""

from datetime import datetime

from sqlmodel import Field, SQLModel


class GameBase(SQLModel):
    ruleset: str = Field(max_length=64)
    title: str = Field(max_length=200)
    variants: str = Field(default="[]", description="JSON list of variant ids")
    created: datetime


class GameRow(GameBase, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True, max_length=64)
