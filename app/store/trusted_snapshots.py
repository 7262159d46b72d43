"""The snapshots this computer trusts (issue 46).

A snapshot says what the game was at one event, so that opening a long game need not replay
the whole log; but it is only a row, and whoever can write one (a club's station through the
server's ``airboss_save_snapshot``, the holder of a game file) can make it say anything. So a
snapshot is trusted only when this computer wrote it from its own replay, or replayed the log
once and found the same game: each such snapshot is remembered here by its game, its event,
that event's hash (so the log it was checked against is named too) and the SHA-256 of its
data. Any other snapshot is checked against a replay before it is used
(``app.session.GameSession.open``).

The list is a small JSON file in the umpire's data folder, the newest ``KEEP`` entries.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from app.core.paths import user_data_dir

log = logging.getLogger(__name__)

#: the entries kept (a game writes one snapshot every 500 events)
KEEP = 2000
FILE = "trusted-snapshots.json"


def _path() -> Path:
    return user_data_dir() / FILE


def digest(game_id: str, seq: int, head: str, data: bytes) -> str:
    """What names one snapshot of one log: its game, event, event's hash and data."""
    inner = hashlib.sha256(data).hexdigest()
    return hashlib.sha256(f"{game_id}|{seq}|{head}|{inner}".encode()).hexdigest()


def _read(path: Path) -> list[str]:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(kept, list):
        return []
    return [k for k in kept if isinstance(k, str)]


def trusted(game_id: str, seq: int, head: str | None, data: bytes) -> bool:
    """This computer wrote this snapshot of this log, or checked it against a replay."""
    if head is None:
        return False
    return digest(game_id, seq, head, data) in _read(_path())


def remember(game_id: str, seq: int, head: str, data: bytes) -> None:
    """Trust this snapshot from now on (written here, or found equal to a replay). A data
    folder that cannot be written costs the next open a replay, never the action."""
    path = _path()
    kept = [k for k in _read(path)]
    entry = digest(game_id, seq, head, data)
    if entry in kept:
        return
    kept = [*kept, entry][-KEEP:]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{FILE}.{os.getpid()}.part")
        part.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(part, path)
    except OSError as e:
        log.warning("%s: the trusted snapshots were not kept: %s", path, e)
