"""The desk's glance at its last game: what the window showed when the desk last closed on a
game (its title, status bar, which panels the game uses, and the Roster and Turn panels as
plain data), kept beside the settings so that the next start paints that game at once, before
pydantic, the game's models and its ruleset are loaded; the live panels replace the glance a
moment later (issue 20).

A glance is shown only when it is proven current. It is written after the game was closed,
with the game file's mark: its size and modification time to the nanosecond, and the number
of events in its log and the last one's sequence number, read from the file itself. At the
next start the mark is read again before anything is opened: a file that changed in any way,
a write-ahead log beside it (another program has it open), a server game, another version of
Airboss, or a glance file that cannot be read, and the desk starts as it always did, with the
game opened before the window paints.

Pure Python (``json``, ``sqlite3``): nothing here may import Qt, pydantic or the game's core.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: the glance file, in the umpire's data folder beside the settings
GLANCE_NAME = "glance.json"
#: the glance file's format; another number is not read
FORMAT = 1


def log_mark(where: str) -> dict[str, int] | None:
    """The mark of a game file as it lies on disk now, or None when a glance of it cannot be
    trusted: a server game, a file that is not there, one with a write-ahead log beside it (it
    is open, perhaps being written, elsewhere) or one whose log cannot be read."""
    if "://" in where:
        return None
    try:
        path = Path(where).resolve()  # the real file: its -wal lies beside it (issue 31)
    except (OSError, RuntimeError):
        return None
    if Path(f"{path}-wal").exists():
        return None
    try:
        before = path.stat()
        if not stat.S_ISREG(before.st_mode):
            return None  # a FIFO would block the read below; a folder is no game (issue 31)
        uri = "file:" + quote(str(path.absolute()), safe="/") + "?mode=ro&immutable=1"
        with closing(sqlite3.connect(uri, uri=True)) as db:
            count, last = db.execute("SELECT count(*), coalesce(max(seq), 0) FROM event").fetchone()
        after = path.stat()
    except (OSError, sqlite3.Error, TypeError, ValueError):
        return None
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns):
        return None  # written while it was read
    return {
        "size": after.st_size,
        "mtime_ns": after.st_mtime_ns,
        "events": int(count),
        "last_seq": int(last),
    }


def _key(where: str) -> str:
    return "" if "://" in where else str(Path(where).resolve())


def save_glance(folder: Path, where: str, version: str, shown: dict[str, Any]) -> bool:
    """Keep ``shown`` as the glance of the game file ``where`` (closed by now), for this
    version of Airboss; False (and no glance kept) when the file's mark cannot be read. The
    file is replaced whole, never left half-written."""
    mark = log_mark(where)
    target = folder / GLANCE_NAME
    if mark is None:
        forget_glance(folder)
        return False
    record = {"format": FORMAT, "version": version, "game": _key(where), "mark": mark}
    record["shown"] = shown
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, target)
    return True


def read_glance(folder: Path, where: str | None, version: str) -> tuple[str, dict[str, Any]] | None:
    """The game file and what the desk showed of it when it last closed on it, if that is
    still what the file holds (see the module's docstring); otherwise None. ``where``: the
    game file to show, or None for the game the desk last closed on."""
    try:
        record = json.loads((folder / GLANCE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return None
    game = record.get("game")
    if record.get("version") != version or not isinstance(game, str) or not game:
        return None
    if where is not None and game != _key(where):
        return None
    shown = record.get("shown")
    if not isinstance(shown, dict):
        return None
    mark = log_mark(game)
    if mark is None or record.get("mark") != mark:
        return None
    return game, shown


def load_glance(folder: Path, where: str, version: str) -> dict[str, Any] | None:
    """What the desk showed of the game file ``where`` when it last closed on it, if that is
    still what the file holds; otherwise None."""
    found = read_glance(folder, where, version)
    return found[1] if found is not None else None


def start_glance(game: str | None, game_id: str | None) -> tuple[str, dict[str, Any]] | None:
    """The glance the desk starts with (``airboss [GAME]``): of GAME, or with no GAME of the
    game the desk last closed on (the caller checks that it is still the last game); None for
    a game chosen by id on a server, or when there is no current glance."""
    from app import __version__
    from app.core.paths import user_data_dir

    if game_id:
        return None
    return read_glance(user_data_dir(), game, __version__)


def same_game(a: str, b: str) -> bool:
    """Two names of one game file (a server address is never a glanced game)."""
    return bool(_key(a)) and _key(a) == _key(b)


def forget_glance(folder: Path) -> None:
    """No glance: the next start opens its game before it paints."""
    try:
        (folder / GLANCE_NAME).unlink()
    except FileNotFoundError:
        pass
