"""Storage of game logs: game files on ``sqlite3``, servers on SQLAlchemy, Alembic migrations.

The errors and ``is_url`` are imported with the package; the stores themselves (and with them
the game's events and pydantic) only when first asked for, so the desk can name a store's
errors and paint before any store is loaded (issue 20).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from app.core.errors import ConcurrentAppend, StoreError
from app.core.where import is_url

if TYPE_CHECKING:
    from app.store.opening import create_store, open_store
    from app.store.store import Game, Store, StoredEvent

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

#: the names loaded when first asked for, and their modules
_LATER = {
    "Game": "app.store.store",
    "Store": "app.store.store",
    "StoredEvent": "app.store.store",
    "create_store": "app.store.opening",
    "open_store": "app.store.opening",
}


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
