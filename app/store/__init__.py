"""Storage of game logs: game files on ``sqlite3``, servers on SQLAlchemy, Alembic migrations."""

from app.store.errors import ConcurrentAppend, StoreError
from app.store.opening import create_store, open_store
from app.store.store import Game, Store, StoredEvent, is_url

__all__ = [
    "ConcurrentAppend",
    "Game",
    "Store",
    "StoreError",
    "StoredEvent",
    "create_store",
    "is_url",
    "open_store",
]
