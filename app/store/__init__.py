"""Storage of game logs: SQLModel tables, the Store, Alembic migrations."""

from app.store.store import ConcurrentAppend, Store, StoreError

__all__ = ["ConcurrentAppend", "Store", "StoreError"]
