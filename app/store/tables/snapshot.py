"""A projection snapshot every so many events, so opening a long game is fast."""

from sqlalchemy import LargeBinary
from sqlmodel import Column, Field, SQLModel


class SnapshotRow(SQLModel, table=True):
    __tablename__ = "snapshot"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    seq: int = Field(primary_key=True)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    #: the hash of event ``seq`` when the snapshot was written: opening checks the log's chain
    #: of hashes from here (issue 30); ``None`` in a snapshot written before
    head: str | None = Field(default=None, max_length=64)
