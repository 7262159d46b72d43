"""The game store: SQLite files (``*.airboss``, WAL) or a PostgreSQL database, same schema.

Each ``append`` is one transaction; when it returns, the events are durable (SQLite WAL with
``synchronous=FULL`` unless ``AIRBOSS_SQLITE_SYNC=normal``). Opening checks, without writing,
that the file is an Airboss store of a schema this version knows; a corrupt, foreign or newer
file is refused with a message and never modified. An older file is backed up before its
migration.

``Store`` holds what both kinds share: the statements, plain SQL with named parameters, and
the envelopes made from their rows. ``FileStore`` runs them on Python's own ``sqlite3``
(opening a game file imports neither SQLAlchemy nor Alembic: issue 20); ``ServerStore`` runs,
for each, its SQLAlchemy construct built from the SQLModel tables (``app.store.server_sql``,
issue 36), on psycopg. ``open_store`` and ``create_store``
choose between them.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from app.core.errors import StoreError, Tampered
from app.core.events import Envelope, Event, event_from_json, event_to_json, events_from_json
from app.core.text import shown
from app.core.where import is_url
from app.store import trusted_snapshots
from app.store.chain import HASHED, check_rows, event_hash

__all__ = ["Game", "Store", "StoredEvent", "channel", "is_url"]

Params = Mapping[str, Any]
#: one statement and the rows it runs once each
Batch = tuple[str, Sequence[Params]]

#: the stored columns of one event, in the order every statement here reads them. The SQL
#: below is written out as literals (never built from data, issue 30); a test checks that
#: the lists agree with these names and with the tables (``tests/store/test_sql_safety.py``)
EVENT_COLUMNS = (*HASHED, "hash")  # the columns a hash covers, then the hash
_SELECT_EVENTS = (
    "SELECT game_id, seq, action, time, actor, rule, narrative, kind, payload, uid, hash FROM event"
)
INSERT_EVENT = (
    "INSERT INTO event "
    "(game_id, seq, action, time, actor, rule, narrative, kind, payload, uid, hash) "
    "VALUES (:game_id, :seq, :action, :time, :actor, :rule, :narrative, :kind, :payload, "
    ":uid, :hash)"
)
#: one event's hash (the chain's link to the next)
_SELECT_HASH = "SELECT hash FROM event WHERE game_id = :game AND seq = :seq"
#: how many events a game's log holds, and its newest
_SELECT_COUNT = "SELECT count(*), max(seq) FROM event WHERE game_id = :game"
#: whether an action (the id its station made) is in the log: its first event's seq
_SELECT_UID = "SELECT seq FROM event WHERE uid = :uid"
_GAME_COLUMNS = ("id", "ruleset", "title", "variants", "created")
_SELECT_GAMES = "SELECT id, ruleset, title, variants, created FROM game ORDER BY created"
INSERT_GAME = (
    "INSERT INTO game (id, ruleset, title, variants, created) "
    "VALUES (:id, :ruleset, :title, :variants, :created)"
)
#: the pages of a log, oldest first or newest first
_PAGE_FORWARD = _SELECT_EVENTS + (
    " WHERE game_id = :game AND seq > :start ORDER BY seq ASC LIMIT :page"
)
_PAGE_BACKWARD = _SELECT_EVENTS + (
    " WHERE game_id = :game AND seq < :start ORDER BY seq DESC LIMIT :page"
)
_SELECT_ACTION = _SELECT_EVENTS + " WHERE game_id = :game AND action = :action ORDER BY seq"
_SELECT_LOG = _SELECT_EVENTS + " WHERE game_id = :game ORDER BY seq"
_SELECT_SEQS = "SELECT seq FROM event WHERE game_id = :game ORDER BY seq"
_SELECT_LAST_SEQ = "SELECT max(seq) FROM event WHERE game_id = :game"
_SELECT_LAST_TIME = "SELECT max(time) FROM event WHERE game_id = :game"
INSERT_SNAPSHOT = (
    "INSERT INTO snapshot (game_id, seq, data, head) VALUES (:game, :seq, :data, :head)"
)
#: the newest snapshot that recorded its event's hash (where the check at open starts)
_SELECT_ANCHOR = (
    "SELECT seq, head FROM snapshot WHERE game_id = :game AND head IS NOT NULL "
    "ORDER BY seq DESC LIMIT 1"
)
_SELECT_SNAPSHOT = "SELECT seq, data FROM snapshot WHERE game_id = :game ORDER BY seq DESC LIMIT 1"


def _unreadable(e: BaseException) -> str:
    """Why a stored payload is no event, in one line: the kind this Airboss does not know,
    or the first field that does not fit (a pydantic error's), never the error's dump."""
    errors = getattr(e, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
        except Exception:  # noqa: BLE001 - not pydantic's after all
            first = None
        if isinstance(first, dict):
            if first.get("type") == "union_tag_invalid":
                tag = first.get("ctx", {}).get("tag", "")
                return f"its kind {tag!r} is no event this Airboss knows"[:300]
            where = ".".join(str(p) for p in first.get("loc", ()))
            return f"its {where or 'payload'}: {first.get('msg', 'not readable')}"[:300]
    lines = [line for line in str(e).strip().splitlines() if line.strip()]
    return f"its payload cannot be read ({lines[0] if lines else type(e).__name__})"[:300]


def channel(game_id: str) -> str:
    """The PostgreSQL NOTIFY channel of one game's appends."""
    return f"airboss_{game_id}"[:63]


class StoredEvent(NamedTuple):
    """A stored event as a reader of the whole log takes it: the columns as stored and the
    event decoded (and checked), with the fields of an ``Envelope`` but not one: checking the
    envelope around an event already checked took a quarter of reading a long log (issue 20)."""

    game: str
    seq: int
    action: int
    time: datetime
    actor: str
    rule: str
    narrative: str
    event: Event


#: what a paged read gives, an ``Envelope`` or a ``StoredEvent``
Read = TypeVar("Read", Envelope, StoredEvent)


@dataclass(frozen=True)
class Game:
    """A game's row: its ruleset, title, chosen variants (a JSON list) and when it began."""

    id: str
    ruleset: str
    title: str
    variants: str
    created: datetime


class Store(ABC):
    """One database holding one game (a file) or many (a server).

    The kinds differ in four things they supply: ``_rows`` (a query's rows as tuples),
    ``_write`` (statements run in one transaction), ``_time`` (a stored time as a
    ``datetime``) and ``_stored_time`` (a ``datetime`` as the column stores it); and in what
    only one kind can do (copy a file, follow a server).
    """

    def __init__(self, where: str, read_only: bool = False) -> None:
        self.where = where
        #: opened read-only (the file or its folder cannot be written, or asked for)
        self.read_only = read_only
        #: the game file (``None`` for a server)
        self.path: Path | None = None
        #: the game was open elsewhere (another window or program) when this store opened it:
        #: a game file's lock held (``app.store.file_locks``)
        self.open_elsewhere = False
        #: game -> (seq, hash) of the newest event checked or written here (issue 30)
        self.heads: dict[str, tuple[int, str]] = {}
        #: something changed the store that no station announces (a server's count of
        #: changed or removed events moved): a following desk checks the whole log again
        self.suspect = False
        self._sending: tuple[str, int, str] | None = None
        #: stored events whose payload is not an event this Airboss can read (seq -> why):
        #: left out of every reading, and said (issue 46)
        self.undecodable: dict[int, str] = {}
        #: the seq of a snapshot found not to agree with a replay of its log (issue 46)
        self.disagreeing_snapshot: int | None = None

    # -- what each kind supplies --------------------------------------------------------------

    @abstractmethod
    def _rows(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        """The rows of a query, as tuples."""

    @abstractmethod
    def _write(self, *batches: Batch) -> None:
        """Run each statement once per row, all in one transaction; ``ConcurrentAppend`` when
        a row breaks a unique key (another station wrote it first): nothing is written."""

    def _time(self, value: Any) -> datetime:
        return value  # type: ignore[no-any-return]

    def _stored_time(self, value: datetime) -> Any:
        return value

    @abstractmethod
    def close(self) -> None:
        """Close every connection of this store."""

    def check_beside(self) -> None:  # noqa: B027 - a server's store leaves none
        """Begin a check of the store left to be made while it is read (``damage``)."""

    def damage(self) -> StoreError | None:
        """A check of the store made beside its opening, waited for: the refusal it ended
        with, or None (a game file's check of every page, ``FileStore.open``)."""
        return None

    def writable(self) -> None:
        """Switch a store opened for checking to writing (unless it is read-only)."""
        return  # a server's store writes through the connection it checked with

    def data_version(self, game_id: str) -> int | None:
        """A number that changes whenever another connection appends to this game, so asking
        costs no read of the log; ``None`` where the store cannot tell."""
        return None

    def listen_socket(self) -> int | None:
        """The socket that becomes readable when another station's append is announced
        (a server, once ``data_version`` has been asked); ``None`` otherwise."""
        return None

    def watching(self, game_id: str) -> int | None:
        """How many stations LISTEN to this game now (a server), ``None`` elsewhere."""
        return None

    def save_copy(self, target: str | Path) -> Path:
        """A consistent copy of a game file in a new file."""
        raise StoreError(f"{self.where}: a game on a server cannot be copied to a file")

    def integrity_ok(self) -> bool:
        """The database's own check of itself (always true for a server)."""
        return True

    def largest_event_row(self) -> int | None:
        """The bytes of the largest stored event row (every field of it), read off the
        database's pages without reading a value (``app.store.bounds``, issue 44); ``None``
        where the store cannot tell (a server)."""
        return None

    # -- games --------------------------------------------------------------------------------

    def _refuse_read_only(self) -> None:
        if self.read_only:
            raise StoreError(f"{self.where}: opened read-only; nothing was written")

    def add_game(self, game_id: str, ruleset: str, title: str, variants: Sequence[str]) -> None:
        self._refuse_read_only()
        game = {
            "id": game_id,
            "ruleset": ruleset,
            "title": title,
            "variants": json.dumps(list(variants)),
            "created": self._stored_time(datetime.now(UTC)),
        }
        self._write((INSERT_GAME, [game]))

    def games(self) -> list[Game]:
        rows = self._rows(_SELECT_GAMES, {})
        return [Game(r[0], r[1], r[2], r[3], self._time(r[4])) for r in rows]

    def game(self, game_id: str | None) -> Game:
        """The game with this id; with no id, the only game in the store."""
        games = self.games()
        if game_id is None:
            if len(games) != 1:
                ids = ", ".join(g.id for g in games) or "none"
                raise StoreError(f"{self.where}: holds {len(games)} games ({ids}); name one")
            return games[0]
        for g in games:
            if g.id == game_id:
                return g
        raise StoreError(f"{self.where}: no game {game_id!r}")

    def last_action_time(self, game_id: str) -> datetime | None:
        rows = self._rows(_SELECT_LAST_TIME, {"game": game_id})
        return self._time(rows[0][0]) if rows and rows[0][0] is not None else None

    # -- the log ------------------------------------------------------------------------------

    def _event_row(self, e: Envelope, uid: str | None = None) -> dict[str, Any]:
        return {
            "uid": uid,
            "game_id": e.game,
            "seq": e.seq,
            "action": e.action,
            "time": self._stored_time(e.time),
            "actor": e.actor,
            "rule": e.rule,
            "narrative": e.narrative,
            "kind": e.event.kind,
            "payload": event_to_json(e.event),
        }

    def append(self, envelopes: Sequence[Envelope], uid: str | None = None) -> None:
        """Store one action's envelopes in one transaction; ``ConcurrentAppend`` on a lost race.
        ``uid`` is the id the station made for the action before sending it (issue 30): each
        event is stored with ``<uid>/<n>``, unique in the log, so the same action is never
        stored twice and ``saved`` can tell whether it was."""
        self._refuse_read_only()
        self._write((INSERT_EVENT, self._rows_of(envelopes, uid)))
        self._sent()

    def _rows_of(self, envelopes: Sequence[Envelope], uid: str | None) -> list[dict[str, Any]]:
        """The rows of one action, each chained to the event before it (``app.store.chain``)."""
        if not envelopes:
            return []
        game, before = envelopes[0].game, envelopes[0].seq - 1
        head = self.heads.get(game)  # the event before, checked or written here: not read again
        prev = head[1] if head is not None and head[0] == before else self.hash_at(game, before)
        prev = prev or ""
        rows = []
        for n, e in enumerate(envelopes):
            row = self._event_row(e, None if uid is None else f"{uid}/{n}")
            values = [e.time if c == "time" else row[c] for c in HASHED]
            row["hash"] = prev = event_hash(prev, values)
            rows.append(row)
        self._sending = (envelopes[-1].game, envelopes[-1].seq, prev)
        return rows

    def _sent(self) -> None:
        """The action being sent is in the log: its newest event is the chain's head."""
        if self._sending is not None:
            game, seq, digest = self._sending
            self.heads[game] = (seq, digest)
            self._sending = None

    def hash_at(self, game_id: str, seq: int) -> str | None:
        """The hash recorded with event ``seq`` (``None`` before the first, or if missing)."""
        if seq < 1:
            return None
        rows = self._rows(_SELECT_HASH, {"game": game_id, "seq": seq})
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def check_chain(
        self, game_id: str, after: int = 0, prev: str | None = None, page: int = 2000
    ) -> tuple[int, str]:
        """Check the log after event ``after`` (whose hash is ``prev``, read if not given):
        every event in its place, each hash that of its columns and of the event before.
        The newest event's (seq, hash); ``Tampered`` naming the first event that breaks the
        chain (changed, removed, or slipped in)."""
        if prev is None:
            prev = self.hash_at(game_id, after) or ""
            if after and not prev:
                raise Tampered(self.where, after)
        pages = self._checked_pages(game_id, after, prev, page)
        while True:
            try:
                next(pages)
            except StopIteration as end:
                newest: tuple[int, str] = end.value
                return newest

    def read_checked(
        self, game_id: str, page: int = 2000
    ) -> Iterator[list[tuple[int, int, Event]]]:
        """The whole log, oldest first, a page at a time, each event as ``(seq, action,
        event)``; each page's chain of hashes checked as ``check_chain`` checks it before its
        events are decoded (and so checked by their types): opening a long log with no
        snapshot reads it once for both (issue 31). ``Tampered`` where the chain breaks,
        before any event from there on is given; read to its end, the newest event is the
        chain's head (``heads``). A payload that is no event is left out (``undecodable``)."""
        for rows in self._checked_pages(game_id, 0, "", page):
            yield self.decoded(rows, 1, 2, 8)

    def decoded(
        self, rows: Sequence[Sequence[Any]], seq: int, action: int, payload: int
    ) -> list[tuple[int, int, Event]]:
        """``(seq, action, event)`` of stored rows (their columns at these places), decoded
        in one go; a payload that is no event this Airboss reads is left out and said in
        ``undecodable`` (issue 46: never a game that cannot be opened)."""
        try:
            events = events_from_json([r[payload] for r in rows])
        except Exception:  # noqa: BLE001 - found row by row below
            return [
                (r[seq], r[action], e)
                for r in rows
                if (e := self._event_of(r[seq], r[payload])) is not None
            ]
        return [(r[seq], r[action], e) for r, e in zip(rows, events, strict=True)]

    def _event_of(self, seq: int, payload: Any) -> Event | None:
        """One stored payload decoded; ``None`` (and said in ``undecodable``) if it is no
        event this Airboss reads."""
        try:
            return event_from_json(payload)
        except Exception as e:  # noqa: BLE001 - any garbled payload: left out, said
            self.undecodable[int(seq)] = _unreadable(e)
            return None

    def _checked_pages(
        self, game_id: str, after: int, prev: str, page: int
    ) -> Generator[list[tuple[Any, ...]], None, tuple[int, str]]:
        """The log's rows after event ``after`` (whose hash is ``prev``), a page at a time,
        each page's chain checked before it is given (``Tampered`` where it breaks); at the
        end the newest event's (seq, hash), which becomes the chain's head (``heads``)."""
        expected, start = after + 1, after
        while True:
            rows = self._rows(_PAGE_FORWARD, {"game": game_id, "start": start, "page": page})
            broken, prev = check_rows(prev, expected, rows)
            if broken is not None:
                raise Tampered(self.where, broken)
            expected = int(rows[-1][1]) + 1 if rows else expected
            yield rows
            if len(rows) < page:
                if expected - 1 >= self.heads.get(game_id, (0, ""))[0]:
                    self.heads[game_id] = (expected - 1, prev)
                return expected - 1, prev
            start = expected - 1

    def check_recent(self, game_id: str, head: tuple[int, str], window: int = 50) -> None:
        """A cheap check for a desk that follows the game (issue 30): nothing removed anywhere
        (as many events as the newest's number), the event the desk saw last unchanged, and
        the ``window`` events before it whole. ``check_chain`` checks the whole log."""
        seq, known = head
        count, newest = self._counted(game_id)
        if count != newest:
            first = self._first_gap(game_id)
            raise Tampered(self.where, first)
        if seq < 1:
            return
        if self.hash_at(game_id, seq) != known:
            raise Tampered(self.where, seq)
        start = max(0, seq - window)
        last = self.check_chain(game_id, after=start)
        if last[0] < seq:
            raise Tampered(self.where, last[0] + 1)

    def _counted(self, game_id: str) -> tuple[int, int]:
        """How many events the game's log holds, and the newest one's number: equal when
        nothing was removed (issue 30)."""
        count, newest = self._rows(_SELECT_COUNT, {"game": game_id})[0]
        return int(count or 0), int(newest or 0)

    def _first_gap(self, game_id: str) -> int:
        seqs = [int(r[0]) for r in self._rows(_SELECT_SEQS, {"game": game_id})]
        for n, seq in enumerate(seqs, start=1):
            if seq != n:
                return n
        return len(seqs) + 1

    def saved(self, uid: str) -> bool:
        """Whether the action the station sent with ``uid`` is in the log."""
        return bool(self._rows(_SELECT_UID, {"uid": f"{uid}/0"}))

    def last_seq(self, game_id: str) -> int:
        rows = self._rows(_SELECT_LAST_SEQ, {"game": game_id})
        return int(rows[0][0] or 0) if rows else 0

    def _envelopes(self, rows: Sequence[Sequence[Any]]) -> list[Envelope]:
        """Envelopes of stored rows; a row whose payload is no event is left out (said in
        ``undecodable``)."""
        return [
            Envelope(
                game=r[0],
                seq=r[1],
                action=r[2],
                time=self._time(r[3]),
                actor=r[4],
                rule=r[5],
                narrative=shown(r[6]),  # an older file's control characters: escaped
                event=event,
            )
            for r in rows
            if (event := self._event_of(r[1], r[8])) is not None
        ]

    def _stored(self, rows: Sequence[Sequence[Any]]) -> list[StoredEvent]:
        """``StoredEvent``s of stored rows, as ``_envelopes`` makes envelopes."""
        return [
            StoredEvent(r[0], r[1], r[2], self._time(r[3]), r[4], r[5], shown(r[6]), event)
            for r in rows
            if (event := self._event_of(r[1], r[8])) is not None
        ]

    def events(self, game_id: str, after: int = 0) -> list[Envelope]:
        """The log of a game after sequence number ``after``, oldest first."""
        return list(self.iter_events(game_id, after))

    def iter_events(self, game_id: str, after: int = 0, page: int = 2000) -> Iterator[Envelope]:
        """The log after ``after``, oldest first, read ``page`` rows at a time, so a reader
        that keeps only what it needs never holds the whole log (issue 20)."""
        return self._pages(game_id, after, page, False, self._envelopes)

    def iter_stored(self, game_id: str, after: int = 0, page: int = 2000) -> Iterator[StoredEvent]:
        """The log after ``after`` as ``iter_events`` reads it, but as ``StoredEvent`` rows,
        for a reader that keeps only a summary of each (the history panels' index)."""
        return self._pages(game_id, after, page, False, self._stored)

    def iter_events_newest_first(self, game_id: str, page: int = 200) -> Iterator[Envelope]:
        """The log from its newest event back, ``page`` rows at a time (for a question the
        end of the log answers)."""
        return self._pages(game_id, self.last_seq(game_id) + 1, page, True, self._envelopes)

    def _pages(
        self,
        game_id: str,
        start: int,
        page: int,
        newest_first: bool,
        made: Callable[[Sequence[Sequence[Any]]], list[Read]],
    ) -> Iterator[Read]:
        """The log beyond sequence number ``start`` (after it, or before it going back), each
        page of rows ``made`` into envelopes or lighter rows."""
        sql = _PAGE_BACKWARD if newest_first else _PAGE_FORWARD
        while True:
            rows = self._rows(sql, {"game": game_id, "start": start, "page": page})
            yield from made(rows)
            if len(rows) < page:
                return
            start = int(rows[-1][1])

    def action(self, game_id: str, action: int) -> list[Envelope]:
        return self._envelopes(self._rows(_SELECT_ACTION, {"game": game_id, "action": action}))

    # -- snapshots ----------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: bytes) -> None:
        """Keep a snapshot of the game at event ``seq`` (written by this Airboss from its own
        replay of the log, so this computer trusts it: ``app.store.trusted_snapshots``)."""
        if self.read_only:
            return
        if self._store_snapshot(game_id, seq, data):
            head = self._head_at(game_id, seq)
            if head is not None:
                trusted_snapshots.remember(game_id, seq, head, data)

    def _head_at(self, game_id: str, seq: int) -> str | None:
        head = self.heads.get(game_id)
        return head[1] if head is not None and head[0] == seq else self.hash_at(game_id, seq)

    def _store_snapshot(self, game_id: str, seq: int, data: bytes) -> bool:
        """Store the snapshot row, with the hash of its event (``head``); whether it was."""
        row = {"game": game_id, "seq": seq, "data": data, "head": self._head_at(game_id, seq)}
        self._write((INSERT_SNAPSHOT, [row]))
        return True

    def check_log(self, game_id: str, whole: bool = True) -> bool:
        """The check of a game's log at open (issue 30): nothing removed anywhere, and the
        chain of hashes whole, from the newest snapshot (whose event's hash it recorded when
        Airboss wrote it) or, with none, from the first event. ``Tampered`` where it breaks.

        With ``whole=False`` a log with no such snapshot is left for the caller to check as
        it reads it (``read_checked``): the answer is then ``True``, the chain not checked."""
        count, newest = self._counted(game_id)
        if count != newest:
            raise Tampered(self.where, self._first_gap(game_id))
        anchor = self._rows(_SELECT_ANCHOR, {"game": game_id})
        if not anchor:
            if not whole:
                return True
            self.check_chain(game_id)
            return False
        seq, head = int(anchor[0][0]), str(anchor[0][1])
        if self.hash_at(game_id, seq) != head:
            raise Tampered(self.where, seq)
        self.check_chain(game_id, after=seq, prev=head)
        return False

    def latest_snapshot(self, game_id: str) -> tuple[int, bytes] | None:
        rows = self._rows(_SELECT_SNAPSHOT, {"game": game_id})
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None

    # -- copies -------------------------------------------------------------------------------

    def copy_game(self, game_id: str, target: Store) -> None:
        """Copy one game, its row and its whole log as stored (payloads, narratives and times
        byte for byte), into another store: a server game taken home to a file, or a file
        brought to the club's server (issue 17). Refused if the target already holds it, or
        if the log's chain of hashes breaks."""
        target._refuse_read_only()
        games = {g.id: g for g in self.games()}
        if game_id not in games:
            raise StoreError(f"{self.where}: no game {game_id!r}")
        # a log changed outside Airboss is never copied (issue 46: a server makes every hash
        # again, which would hide where it was changed): ``Tampered`` naming the seq
        self.check_chain(game_id)
        if any(g.id == game_id for g in target.games()):
            raise StoreError(f"{target.where}: holds this game already; nothing was copied")
        game = asdict(games[game_id])
        game["created"] = target._stored_time(game["created"])
        rows = [
            dict(zip(EVENT_COLUMNS, r, strict=True))
            for r in self._rows(_SELECT_LOG, {"game": game_id})
        ]
        for r in rows:
            r["time"] = target._stored_time(self._time(r["time"]))
        target._take_copy(game, rows)

    def _take_copy(self, game: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        """Store a copied game's row and its log as they were stored, in one transaction."""
        self._write((INSERT_GAME, [game]), (INSERT_EVENT, rows))
