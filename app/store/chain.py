"""The log's chain of hashes (issue 30): each event records the SHA-256 of its own columns and
of the event before it, so an event changed, removed or slipped in outside Airboss breaks the
chain at its place, and opening or following the game says where.

Light to import (no SQLAlchemy): the sqlite3 path and the migration that fills the chain of an
older log both use it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

#: how a time enters the hash: UTC, to the microsecond, as a game file stores it
TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"
#: the columns a hash covers, in this order (``app.store.store.EVENT_COLUMNS`` without it)
HASHED = (
    "game_id",
    "seq",
    "action",
    "time",
    "actor",
    "rule",
    "narrative",
    "kind",
    "payload",
    "uid",
)


def canonical_time(value: Any) -> str:
    """A stored or given time as the hash reads it (a file stores text, a server a
    ``datetime``; an aware time is taken to UTC)."""
    when: datetime
    if isinstance(value, str):
        if len(value) == 26 and value[10] == " " and value[19] == ".":
            return value  # as a game file stores it (``TIME_FORMAT``): the common case
        when = datetime.fromisoformat(value)
    elif isinstance(value, datetime):
        when = value
    else:
        return str(value)
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return time_text(when)


def time_text(when: datetime) -> str:
    """``when``'s own date and clock (any zone left out) as ``TIME_FORMAT`` writes them:
    ``isoformat`` writes the same text (then the zone, cut) for a four-digit year at under
    half the work of ``strftime`` (issue 44: three of them an action), which writes the rest."""
    if when.year >= 1000:
        return when.isoformat(" ", "microseconds")[:26]
    return when.strftime(TIME_FORMAT)


def _cell(value: Any) -> str:
    """One value, its length first, so no two rows read alike (``None`` is not ``""``)."""
    if value is None:
        return "-|"
    text = str(value)
    return f"{len(text)}:{text}|"


def event_hash(prev: str, values: Sequence[Any]) -> str:
    """The hash of one event: the previous event's hash and this one's ``HASHED`` values.

    Opening a long log with no snapshot hashes every event (issue 31): a row as a game file
    stores it (whole numbers for ``seq`` and ``action``, text elsewhere, ``uid`` text or none)
    is written out in one go; anything else cell by cell. Both read alike (a test compares
    them), so the hash does not depend on the way taken."""
    game, seq, action, when, actor, rule, narrative, kind, payload, uid = values
    when = canonical_time(when)
    if not (
        type(seq) is int
        and type(action) is int
        and type(prev) is str
        and type(game) is str
        and type(actor) is str
        and type(rule) is str
        and type(narrative) is str
        and type(kind) is str
        and type(payload) is str
        and (uid is None or type(uid) is str)
    ):
        return _hash_cells(prev, values)
    s, a = str(seq), str(action)
    text = (
        f"{len(prev)}:{prev}|{len(game)}:{game}|{len(s)}:{s}|{len(a)}:{a}|{len(when)}:{when}|"
        f"{len(actor)}:{actor}|{len(rule)}:{rule}|{len(narrative)}:{narrative}|"
        f"{len(kind)}:{kind}|{len(payload)}:{payload}|"
    ) + ("-|" if uid is None else f"{len(uid)}:{uid}|")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _hash_cells(prev: str, values: Sequence[Any]) -> str:
    """``event_hash`` of any values, each cell written out by ``_cell``."""
    cells = list(values)
    cells[3] = canonical_time(cells[3])
    text = _cell(prev) + "".join(map(_cell, cells))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def check_rows(prev: str, expected: int, rows: Sequence[Sequence[Any]]) -> tuple[int | None, str]:
    """Check stored rows (the ``HASHED`` columns, then the hash), oldest first, that follow
    the event numbered ``expected - 1`` whose hash is ``prev``: each in its place and hashed
    as ``event_hash`` hashes it (written out here, row after row, the cells a log repeats
    (its game, actor, rule and kind) made once: opening a long log with no snapshot checks
    every event, issue 31). ``(seq, prev)``: the first event that breaks the chain (``None``
    if none does) and the hash of the last event found good."""
    sha = hashlib.sha256
    made: dict[tuple[Any, ...], tuple[str, str, str]] = {}
    for r in rows:
        game, seq, action, when, actor, rule, narrative, kind, payload, uid, digest = r
        if type(seq) is not int:
            seq = int(seq)
        if seq != expected:
            return expected, prev
        repeated = (game, actor, rule, kind)
        cells = made.get(repeated)
        if cells is None and all(type(v) is str for v in repeated):
            cells = made[repeated] = (
                f"{len(game)}:{game}|",
                f"{len(actor)}:{actor}|{len(rule)}:{rule}|",
                f"{len(kind)}:{kind}|",
            )
        if (
            cells is not None
            and type(action) is int
            and type(when) is str
            and len(when) == 26
            and when[10] == " "
            and when[19] == "."
            and type(narrative) is str
            and type(payload) is str
            and (uid is None or type(uid) is str)
            and type(r[1]) is int
        ):
            s, a = str(seq), str(action)
            text = (
                f"{len(prev)}:{prev}|{cells[0]}{len(s)}:{s}|{len(a)}:{a}|26:{when}|{cells[1]}"
                f"{len(narrative)}:{narrative}|{cells[2]}{len(payload)}:{payload}|"
            ) + ("-|" if uid is None else f"{len(uid)}:{uid}|")
            good = digest == sha(text.encode("utf-8", "surrogatepass")).hexdigest()
        else:
            good = digest == event_hash(prev, r[:10])
        if not good:
            return seq, prev
        prev, expected = str(digest), seq + 1
    return None, prev
