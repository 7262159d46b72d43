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


#: the kinds are parameters (never SQL text, issue 30): one per entry of ``STACK_KINDS``
_OUTLINE = (
    "SELECT seq, action, CASE WHEN kind IN (:k0, :k1, :k2, :k3) THEN payload END FROM event "
    "WHERE game_id = :game AND seq > :start ORDER BY seq LIMIT :page"
)
assert len(STACK_KINDS) == 4, "one parameter of _OUTLINE per kind"


class Outlined(NamedTuple):
    seq: int
    action: int
    event: Event | None


def outline(store: Store, game_id: str, page: int = 20_000) -> Iterator[Outlined]:
    """The log oldest first, ``page`` rows at a time."""
    kinds = {f"k{i}": k for i, k in enumerate(STACK_KINDS)}
    start = 0
    while True:
        rows = store._rows(_OUTLINE, {"game": game_id, "start": start, "page": page, **kinds})
        for seq, action, payload in rows:
            yield Outlined(seq, action, None if payload is None else event_from_json(payload))
        if len(rows) < page:
            return
        start = rows[-1][0]
