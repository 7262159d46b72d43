"""A game's log in outline: each event's sequence number and action, and the event itself
only where replaying needs it to build the undo and redo stacks (a new game, undo, redo and
print records). Reading it skips decoding every other payload: the first of the two passes
that open a long log with no snapshot (issue 31)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from app.core.events import Event, event_from_json
from app.store.store import Store

#: the kinds whose events the stacks are built from (a new game is never on them)
STACK_KINDS = ("game_created", "reverted", "restored", "cards_printed")


class Outlined(NamedTuple):
    seq: int
    action: int
    event: Event | None


def outline(store: Store, game_id: str, page: int = 20_000) -> Iterator[Outlined]:
    """The log oldest first, ``page`` rows at a time."""
    kinds = ", ".join(f"'{k}'" for k in STACK_KINDS)
    sql = (
        f"SELECT seq, action, CASE WHEN kind IN ({kinds}) THEN payload END FROM event "
        "WHERE game_id = :game AND seq > :start ORDER BY seq LIMIT :page"
    )
    start = 0
    while True:
        rows = store._rows(sql, {"game": game_id, "start": start, "page": page})
        for seq, action, payload in rows:
            yield Outlined(seq, action, None if payload is None else event_from_json(payload))
        if len(rows) < page:
            return
        start = rows[-1][0]
