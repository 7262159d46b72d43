"""One event of a game's log; ``(game_id, seq)`` is unique, which keeps two stations honest."""

from datetime import datetime

from sqlalchemy import DateTime, Index, Text
from sqlmodel import Column, Field, SQLModel


class EventBase(SQLModel):
    seq: int
    action: int
    #: UTC, stored without a zone (a file as text, ``app.store.chain.TIME_FORMAT``); declared
    #: here rather than left to SQLModel, whose newer releases make it zoned (issue 36)
    time: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    actor: str = Field(max_length=64)
    rule: str = Field(default="", max_length=200)
    narrative: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    kind: str = Field(max_length=64)
    payload: str = Field(sa_column=Column(Text, nullable=False))


class EventRow(EventBase, table=True):
    __tablename__ = "event"
    __table_args__ = (
        Index("ix_event_game_seq", "game_id", "seq", unique=True),
        Index("ix_event_game_action", "game_id", "action"),
        Index("ix_event_uid", "uid", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    #: the id the station made for this event's action before sending it, with the event's
    #: place in the action (``<action id>/<n>``): the log refuses a second one (issue 30)
    uid: str | None = Field(default=None, max_length=80)
    #: SHA-256 of this event's columns and the previous event's hash (``app.store.chain``)
    hash: str | None = Field(default=None, max_length=64)
