"""Game files as an older Airboss (or anyone holding the file) could have left them (issue 46):
text changed in the log by SQL, and the chain of hashes made again over the whole log, as the
file's holder can do without anyone seeing it (README, "What the chain of hashes catches").
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from app.store.chain import HASHED, event_hash


def rechain(db: sqlite3.Connection) -> None:
    """Make every event's hash again, oldest first, over what the log now holds."""
    cols = ", ".join(HASHED)
    prev = ""
    for row in db.execute(f"SELECT {cols}, id FROM event ORDER BY seq").fetchall():
        prev = event_hash(prev, list(row[:-1]))
        db.execute("UPDATE event SET hash = ? WHERE id = ?", (prev, row[-1]))
    db.execute("UPDATE snapshot SET head = NULL")
    db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")


def replace_text(path: Path, old: str, new: str) -> None:
    """Every ``old`` in the log's payloads, log lines and the game's title becomes ``new``
    (JSON-escaped in payloads), the chain made again: an older file holding ``new``."""
    db = sqlite3.connect(path)
    with db:
        in_json = json.dumps(new)[1:-1]
        db.execute(
            "UPDATE event SET payload = replace(payload, ?, ?), "
            "narrative = replace(narrative, ?, ?)",
            (old, in_json, old, new),
        )
        db.execute("UPDATE game SET title = replace(title, ?, ?)", (old, new))
        db.execute("DELETE FROM snapshot")
        rechain(db)
    db.close()
