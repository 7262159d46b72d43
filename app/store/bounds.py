"""A stored game checked against the documented limits (``app.core.limits``) when it is
opened (issue 31): the lengths are read by the database (``length()``), never the values, so a
file holding a name of 64 MB is refused at once, named, and left unchanged. A game file whose
largest event row is within the shortest limit in bytes (``Store.largest_event_row``: SQLite's
page headers, not the rows) has no field to measure (issue 44)."""

from __future__ import annotations

from app.core import limits
from app.core.errors import StoreError
from app.store.store import Store

#: the lengths of every game row's fields (``check_games``)
_GAME_SIZES = (
    "SELECT substr(id, 1, 40), length(id), length(ruleset), length(title), "
    "length(variants) FROM game"
)
#: the first event with a field over its limit (``check_log``): the table read through in
#: its own order, not row by row through the (game, seq) index (a ``CAST``, which no index
#: answers: a tenth less work, issue 44; only the rows over a limit, none in a good file, are
#: sorted)
_EVENT_SIZES = (
    "SELECT seq, length(payload), length(narrative), length(actor), length(rule) "
    "FROM event WHERE CAST(game_id AS TEXT) = :game AND (length(payload) > :payload "
    "OR length(narrative) > :text OR length(actor) > :text OR length(rule) > :text) "
    "ORDER BY seq LIMIT 1"
)
#: the newest snapshot's size
_SNAPSHOT_SIZE = (
    "SELECT seq, length(data) FROM snapshot WHERE game_id = :game ORDER BY seq DESC LIMIT 1"
)


def _over(where: str, what: str, chars: int, limit: int) -> StoreError:
    return StoreError(
        f"{where}: {what} is {limits.amount(chars)}; the limit is {limit:,} characters. "
        "Refused; the file was not changed."
    )


def check_games(store: Store, where: str) -> None:
    """Every game row's id, ruleset, title and variants within ``MAX_TEXT``."""
    rows = store._rows(_GAME_SIZES, {})
    for gid, *sizes in rows:
        for what, size in zip(
            ("its id", "its ruleset", "its title", "its variants"), sizes, strict=True
        ):
            if size is not None and size > limits.MAX_TEXT:
                raise _over(where, f"game {gid!r}: {what}", int(size), limits.MAX_TEXT)


def check_log(store: Store, where: str, game_id: str) -> None:
    """The game's event count, each event's payload and text fields, and its newest
    snapshot within their limits."""
    text, payload = limits.MAX_TEXT, limits.MAX_PAYLOAD
    last = store.last_seq(game_id)
    if last > limits.MAX_EVENTS:
        raise StoreError(
            f"{where}: the log holds {last:,} events; the limit is {limits.MAX_EVENTS:,}. "
            "Refused; the file was not changed."
        )
    # no event row is longer in bytes than the shortest limit in characters (a character is
    # at least a byte): no field of any event can be over, and none is measured (issue 44)
    biggest = store.largest_event_row()
    fits = biggest is not None and biggest <= min(text, payload)
    rows = (
        []
        if fits
        else store._rows(_EVENT_SIZES, {"game": game_id, "payload": payload, "text": text})
    )
    if rows:
        seq, *sizes = rows[0]
        for what, size, limit in zip(
            ("its payload", "its log line", "its actor", "its rule"),
            sizes,
            (payload, text, text, text),
            strict=True,
        ):
            if size is not None and size > limit:
                raise _over(where, f"event {seq}: {what}", int(size), limit)
    snap = store._rows(_SNAPSHOT_SIZE, {"game": game_id})
    if snap and snap[0][1] is not None and snap[0][1] > limits.MAX_SNAPSHOT:
        raise StoreError(
            f"{where}: the snapshot at event {snap[0][0]} is {int(snap[0][1]):,} bytes; the "
            f"limit is {limits.MAX_SNAPSHOT:,}. Refused; the file was not changed."
        )
