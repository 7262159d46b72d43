"""Which kind of store a target names: a URL is a server, anything else a game file.

The server's module (SQLAlchemy, psycopg) is imported only for a URL, so opening a game file
costs neither (issue 20).
"""

from __future__ import annotations

from pathlib import Path

from app.store.file_store import FileStore
from app.store.store import Store, is_url


def open_store(target: str | Path, read_only: bool = False, *, check_beside: bool = False) -> Store:
    """An existing store, checked before anything is written (``app.store.file_store``,
    ``app.store.server_store``). Read-only, a club station's address is opened as the
    viewer's where this computer holds its password (issue 30). ``check_beside``: a game
    file's check of every page is made while the caller reads it (``Store.damage``)."""
    if is_url(target):
        from app.store import passwords
        from app.store.server_store import ServerStore

        url = passwords.for_reading(str(target)) if read_only else str(target)
        return ServerStore(url, read_only=read_only)
    return FileStore.open(target, read_only=read_only, check_beside=check_beside)


def create_store(target: str | Path) -> Store:
    """A new store: a new game file (refused if the file exists) or a server URL."""
    if is_url(target):
        from app.store.server_store import ServerStore

        return ServerStore(str(target))
    return FileStore.create(target)
