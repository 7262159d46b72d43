"""The SQLModel tables of a game store, one table per module."""

from app.store.tables.event import EventRow
from app.store.tables.game import GameRow
from app.store.tables.info import InfoRow
from app.store.tables.snapshot import SnapshotRow

__all__ = ["EventRow", "GameRow", "InfoRow", "SnapshotRow"]
