"""A game's log in outline: each event's sequence number and action, and the event itself
only where replaying needs it to build the undo and redo stacks (a new game, undo, redo and
print records). Reading it skips decoding every other payload: the first of the two passes
that open a long log with no snapshot (issue 31)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from app.core.events import Event, Restored, Reverted
from app.core.text import shown
from app.store.chain import canonical_time
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


#: an ``Outlined`` made of a row as it is (no Python-level ``__new__`` per row)
_outlined = tuple.__new__


def outline(store: Store, game_id: str, page: int = 20_000) -> Iterator[Outlined]:
    """The log oldest first, ``page`` rows at a time."""
    kinds = {f"k{i}": k for i, k in enumerate(STACK_KINDS)}
    start = 0
    while True:
        rows = store._rows(_OUTLINE, {"game": game_id, "start": start, "page": page, **kinds})
        # (seq, action, None): most of a log, taken as it is; a record whose payload is no
        # event is left out (said in the store's ``undecodable``, issue 46)
        yield from [
            _outlined(Outlined, row) if row[2] is None else Outlined(row[0], row[1], event)
            for row in rows
            if row[2] is None or (event := store._event_of(row[0], row[2])) is not None
        ]
        if len(rows) < page:
            return
        start = rows[-1][0]


#: the undo and redo records (kinds as parameters, never SQL text: issue 30)
_UNDO_REDO = (
    "SELECT seq, payload FROM event WHERE game_id = :game AND kind IN (:k0, :k1) ORDER BY seq"
)
#: a page of what ``airboss log`` prints of each event
_LINES = (
    "SELECT seq, action, time, narrative, kind FROM event "
    "WHERE game_id = :game AND seq > :start ORDER BY seq LIMIT :page"
)


def undone(store: Store, game_id: str) -> set[int]:
    """The actions undone at the end of the log, as ``app.core.log_index.LogReader`` reads
    them, from the undo and redo records alone (each decoded and checked)."""
    out: set[int] = set()
    for seq, payload in store._rows(
        _UNDO_REDO, {"game": game_id, "k0": "reverted", "k1": "restored"}
    ):
        event = store._event_of(seq, payload)
        if isinstance(event, Reverted):
            out.add(event.action)
        elif isinstance(event, Restored):
            out.discard(event.action)
    return out


class Line(NamedTuple):
    """What ``airboss log`` prints of one event: the time as ``HH:MM:SS`` (UTC, as stored)."""

    seq: int
    action: int
    clock: str
    narrative: str
    meta: bool


def lines(store: Store, game_id: str, page: int = 20_000) -> Iterator[Line]:
    """The log oldest first as ``airboss log`` prints it, ``page`` rows at a time, without
    decoding the payloads (issue 31: a log of a million events printed in seconds)."""
    start = 0
    while True:
        rows = store._rows(_LINES, {"game": game_id, "start": start, "page": page})
        for seq, action, when, narrative, kind in rows:
            if not (type(when) is str and len(when) == 26 and when[10] == " " and when[19] == "."):
                when = canonical_time(when)  # a server's time, or one written otherwise
            # an older file's control characters shown, never sent to the terminal (issue 46)
            yield Line(seq, action, when[11:19], shown(narrative), kind in _META_KINDS)
        if len(rows) < page:
            return
        start = rows[-1][0]


_META_KINDS = frozenset({"reverted", "restored"})
