"""A game: its ruleset, title and chosen variants."""

from datetime import datetime

from sqlalchemy import DateTime
from sqlmodel import Column, Field, SQLModel


class GameBase(SQLModel):
    ruleset: str = Field(max_length=64)
    title: str = Field(max_length=200)
    variants: str = Field(default="[]", description="JSON list of variant ids")
    #: UTC, without a zone, as the migrations made it (see ``EventBase.time``)
    created: datetime = Field(sa_column=Column(DateTime(), nullable=False))


class GameRow(GameBase, table=True):
    __tablename__ = "game"

    id: str = Field(primary_key=True, max_length=64)
