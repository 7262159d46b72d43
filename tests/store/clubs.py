"""A club's server for the store tests that need one made by ``airboss club-server start``."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app.club_server import Started


@contextmanager
def club(passwords: dict[str, str], **start: Any) -> Iterator[tuple[Path, Started]]:
    """A club's server made by ``club_server.start(**start)`` in a temporary folder, its
    passwords put in ``passwords``; stopped and removed afterwards."""
    from app import club_server

    root = Path(tempfile.mkdtemp(prefix="airboss-club-"))
    try:
        started = club_server.start(root=root, **start)
        passwords.update(started.passwords)
        yield root, started
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


def remember_all(started: Started, passwords: dict[str, str]) -> Started:
    """Every machine's password in this test's keyring (as the club's laptop holds them)."""
    from app.store import passwords as kept

    for m in started.machines:
        kept.remember(m.url, passwords[m.role])
    return started
