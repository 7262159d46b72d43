"""The desk's summary of a game, kept in the game file beside its log (issue 36).

The rows the desk draws its Roster, Turn panel, title and status bar from (``app.startup.summary``)
are kept as one JSON record in the file's ``airboss_info`` table, under ``summary:<game id>``,
with the sequence number of the last event they reflect. No schema change: the key is a row of
a table every Airboss file has. Only game files keep one (a server game opens before it
paints).

Written (``keep_summary``) in one statement that writes nothing unless the log still ends at
that sequence number, so a summary is never newer or older than the log it says it reflects.
Read (``read_summary``) at start-up with plain ``sqlite3`` and ``json``, before pydantic, the
game's models or its ruleset are imported, and used only when it is current: the same game,
the same version of Airboss, and the log's last sequence number is the summary's. Anything else
(a file an older Airboss or another program wrote to last, a damaged record, a desk or script
killed before it kept them) and the desk opens the game before it paints, as it did before
there were summaries. Every Airboss program that writes to a game file keeps them: the desk
after every change, a ``GameSession`` as it closes.
"""

from __future__ import annotations

import json
import sqlite3
import stat
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from app.store.store import Store

#: the record's format; another number is not read
FORMAT = 1
#: the ``airboss_info`` key of a game's summary: this and the game's id
PREFIX = "summary:"

KEEP = (
    "INSERT INTO airboss_info (key, value) SELECT :key, :value "
    "WHERE (SELECT coalesce(max(seq), 0) FROM event WHERE game_id = :game) = :seq "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


def record(game_id: str, seq: int, version: str, rows: dict[str, Any]) -> str:
    """The stored text of a summary: the rows, the game, the last sequence number they
    reflect and the version of Airboss that made them."""
    head = {"format": FORMAT, "version": version, "game": game_id, "seq": seq}
    return json.dumps({**head, **rows}, ensure_ascii=False, separators=(",", ":"))


def keep_summary(store: Store, game_id: str, seq: int, version: str, rows: dict[str, Any]) -> None:
    """Keep the summary of a game file's game as of sequence number ``seq``; nothing is written
    if the log has gone on since (another window's action: its own summary follows) or if the
    store is not a file or is read-only."""
    if store.path is None or store.read_only:
        return
    value = record(game_id, seq, version, rows)
    params = {"key": PREFIX + game_id, "value": value, "game": game_id, "seq": seq}
    store._write((KEEP, [params]))


def _open_read(where: str) -> sqlite3.Connection | None:
    """The game file ``where`` opened for reading only (None for a server, a missing file or
    one that is not a regular file: a FIFO would block the read; a folder is no game, issue 31)."""
    if "://" in where:
        return None
    path = Path(where).resolve()
    if not stat.S_ISREG(path.stat().st_mode):
        return None
    uri = "file:" + quote(str(path), safe="/") + "?mode=ro"
    if not Path(f"{path}-wal").exists():
        uri += "&immutable=1"  # nothing else has it open: no -shm made by looking
    return sqlite3.connect(uri, uri=True)


def _only_game(db: sqlite3.Connection) -> tuple[str, int] | None:
    """The file's one game and the last sequence number of its log (None: not one game)."""
    games = db.execute("SELECT id FROM game").fetchall()
    if len(games) != 1:
        return None
    game_id = str(games[0][0])
    (last,) = db.execute(
        "SELECT coalesce(max(seq), 0) FROM event WHERE game_id = ?", (game_id,)
    ).fetchone()
    return game_id, int(last)


def last_seq(where: str) -> int | None:
    """The last sequence number of the log of the game file ``where``'s one game; None if it
    is not a readable game file of one game. Reads the file without writing to it."""
    try:
        db = _open_read(where)
        if db is None:
            return None
        with closing(db):
            found = _only_game(db)
    except (OSError, RuntimeError, sqlite3.Error, ValueError, TypeError):
        return None
    return None if found is None else found[1]


def read_summary(where: str, version: str) -> dict[str, Any] | None:
    """The summary kept in the game file ``where``, if it is current (see the module's
    docstring); otherwise None. Reads the file without writing to it."""
    try:
        db = _open_read(where)
        if db is None:
            return None
        with closing(db):
            found_game = _only_game(db)
            if found_game is None:
                return None
            game_id, last = found_game
            row = db.execute(
                "SELECT value FROM airboss_info WHERE key = ?", (PREFIX + game_id,)
            ).fetchone()
            if row is None:
                return None
        found = json.loads(row[0])
    except (OSError, RuntimeError, sqlite3.Error, ValueError, TypeError):
        return None
    if not isinstance(found, dict):
        return None
    head = (found.get("format"), found.get("version"), found.get("game"), found.get("seq"))
    if head != (FORMAT, version, game_id, last):
        return None
    return found
