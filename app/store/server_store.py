"""Games on a club's PostgreSQL server, through SQLAlchemy and psycopg (issue 17).

Every station appends in one call of the server's own function, which checks the action,
makes its hashes and announces the append (``NOTIFY`` on the game's channel) in one transaction
(``app.store.server_functions``, issue 46), and follows the others by ``LISTEN``ing on a
connection of its own. Every connection proves the server before it sends a password
(``app.store.server_trust``).

Every statement is an SQLAlchemy Core construct built from the SQLModel tables
(``app.store.server_sql``, issue 36): the SQL text ``Store`` hands to ``_rows`` and ``_write``
(the file path's) only names which. ``LISTEN``, which SQLAlchemy cannot say, is composed by
psycopg with the channel quoted as an identifier.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import Executable, create_engine, make_url, text
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
)

from app.core.errors import ConcurrentAppend, StoreError, Unsettled
from app.core.events import event_to_json
from app.store import passwords, server_sql, server_trust
from app.store.chain import canonical_time
from app.store.migrate import check_schema, migrate
from app.store.store import Batch, Params, Store, channel

log = logging.getLogger(__name__)


#: time limits on every connection to a server (issue 30): a server that does not answer the
#: connection within ``CONNECT_S``, a statement running longer than ``STATEMENT_MS``, and a
#: network that went silent (no answer to keepalives, unacknowledged data) within
#: ``DEAD_AFTER_MS`` are errors, never a desk that hangs
CONNECT_S = 4
STATEMENT_MS = 8_000
DEAD_AFTER_MS = 8_000
#: the desk's own limit on one use of a connection (its statements and COMMIT): a network
#: that swallows what is sent (no error, no answer) is cut here, on this side
DEADLINE_S = 8.0
#: how long a following desk waits before it tries a server that did not answer again
LISTEN_AGAIN_S = 8.0
#: how often a following desk looks for changes no station announces (seconds)
EDITS_EVERY_S = 1.0
#: a failure this quick is a pooled connection the server dropped (restarted), not a network
STALE_S = 1.0
#: an action whose fate the server's silence hides is asked after, up to this long from its
#: start: the umpire hears "saved", "not written" or "not known yet" within 15 s
SETTLE_S = 13.0


def connect_args() -> dict[str, Any]:
    """The libpq parameters of every server connection (the time limits above)."""
    return {
        "connect_timeout": CONNECT_S,
        "keepalives": 1,
        "keepalives_idle": 3,
        "keepalives_interval": 2,
        "keepalives_count": 3,
        "tcp_user_timeout": DEAD_AFTER_MS,
        # a transaction left open by a station whose network died is ended by the server
        # times read and written in UTC, as the log's chain of hashes reads them
        "options": f"-c statement_timeout={STATEMENT_MS} "
        f"-c idle_in_transaction_session_timeout={STATEMENT_MS} -c timezone=UTC",
    }


def _engine(url: str) -> tuple[Any, dict[str, str]]:
    """A server database and the libpq parameters that prove the server before a password
    is sent (``app.store.server_trust``, issue 46); a plain ``postgresql://`` URL uses psycopg
    (version 3). The password comes from the URL, this run or the keyring
    (``app.store.passwords``)."""
    bare, password = passwords.for_connecting(url)
    if bare.startswith("postgresql://") or bare.startswith("postgres://"):
        bare = "postgresql+psycopg://" + bare.split("://", 1)[1]
    try:
        target = make_url(bare)
        if password is not None:
            target = target.set(password=password)
    except ArgumentError:
        raise StoreError(
            f"{passwords.shown(url)}: not a server address; it looks like "
            "postgresql://airboss_station_2@club-laptop:5433/club"
        ) from None
    security = server_trust.connection_security(
        target.host, target.port, dict(target.query), password is not None
    )
    try:
        # pooled, but never checked by a round trip before use (that check would wait on a
        # silent network before any time limit started): a connection the server dropped
        # fails at once in use, and is replaced (``_use``, ``_rows``, ``append``)
        engine = create_engine(
            target,
            pool_size=2,
            max_overflow=8,
            pool_pre_ping=False,
            connect_args={**connect_args(), **security},
        )
    except ModuleNotFoundError as e:
        raise StoreError(
            f"the database driver {e.name!r} is not installed: pip install 'airboss[postgres]'"
        ) from None
    return engine, security


class _Deadline:
    """Cuts a connection's socket (on this side) if its work is not done in time: the driver's
    wait then ends with an error instead of waiting on a silent network for ever."""

    def __init__(self, fd: int, seconds: float) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.done = False
        self.timer = threading.Timer(seconds, self.fire)
        self.timer.daemon = True
        self.timer.start()

    def fire(self) -> None:
        with self.lock:
            if self.done:
                return
            try:
                cut = socket.socket(fileno=os.dup(self.fd))
                cut.shutdown(socket.SHUT_RDWR)
                cut.close()
            except OSError:
                pass

    def finish(self) -> None:
        with self.lock:
            self.done = True
        self.timer.cancel()


class PasswordNeeded(StoreError):
    """The server asks for a password this computer does not hold (or refused the one sent)."""


def _problem(where: str, e: DBAPIError, written: str = "nothing was changed") -> StoreError:
    """One sentence for the umpire about a server that refused or could not be reached: what
    happened, whether anything was written, what to do (issue 30). The driver's own words go
    to the log file only."""
    first = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
    log.warning("%s: %s", where, first)
    low = first.lower()
    user = passwords.user_of(where) or "this role"
    if "password authentication failed" in low or "no password supplied" in low:
        return PasswordNeeded(
            f"{where}: the server refused the user name or password ({user}); {written}; type "
            "the password the club's umpire gave for it (this computer's keyring keeps it)."
        )
    if getattr(e.orig, "sqlstate", None) == "22023":  # the server's functions' own refusal
        return StoreError(f"{where}: the server refused it ({first}); {written}.")
    unproven = _unproven(low)
    if unproven is not None:
        log.warning("%s: the server did not prove itself: %s", where, first)
        return server_trust.ServerUnproven(f"{where}: {unproven}; {written}.")
    if "does not exist" in low and "database" in low:
        why = "the server has no such database"
        todo = "check the address the club's server printed"
    elif "permission denied" in low or "must be owner" in low:
        why = f"the server does not let {user} do this"
        todo = "a station's address acts and a viewer's only reads, so ask the club's umpire"
    elif "pg_hba.conf" in low or "no encryption" in low:
        why = "the server does not accept this computer or role"
        todo = "ask the club's umpire to start the server for the club's network"
    elif "timeout" in low or "timed out" in low or "canceling statement" in low:
        why = "the server did not answer in time"
        todo = "check the network, then try again"
    elif "connection" in low or "server closed" in low or "could not" in low:
        why = "cannot reach the server"
        todo = "check that it runs, the address and the network, then try again"
    else:
        why = "the server refused"
        todo = "the log file holds the server's own words"
    return StoreError(f"{where}: {why}; {written}; {todo}.")


def _unproven(low: str) -> str | None:
    """What libpq's refusal of a server that did not prove itself means, for the umpire
    (``app.store.server_trust``); ``None`` for any other error."""
    if "certificate verify failed" in low or "certificate" in low and "verif" in low:
        return (
            "the server's certificate is not the one this computer trusts for it (an "
            "impostor, or the club's laptop made a new one), so no password was sent; ask the "
            "club's umpire for the fingerprint its server printed"
        )
    if "does not support ssl" in low or "ssl was required" in low:
        return (
            "the server offers no TLS, so it cannot prove it is the club's server and no "
            "password was sent; a club server started without --tls is reached with "
            "?sslmode=disable (and the club's network can read the games)"
        )
    if "cleartext password" in low or "requirement" in low and "scram" in low:
        return (
            "the server asked for the password by a method that would show it (not SCRAM), so "
            "it was not sent: this is not the club's server"
        )
    if "channel binding" in low:
        return (
            "the server would not bind its proof of the password to its TLS certificate, so "
            "the password was not sent"
        )
    return None


def _listen_sql(game_id: str) -> Any:
    """``LISTEN`` on a game's channel, the channel's name quoted by psycopg as an identifier
    (never put into SQL text by hand: a game id is data, issue 30)."""
    from psycopg import sql

    return sql.SQL("LISTEN {}").format(sql.Identifier(channel(game_id)))


def _statement(sql: str) -> Executable:
    """The construct ``server_sql.STATEMENTS`` holds for a statement of ``Store``'s; one it
    lacks (a statement added to the file path and not yet here, which the test of
    ``server_sql`` names) runs as the text it is, its values bound all the same."""
    found = server_sql.STATEMENTS.get(sql)
    if found is None:
        log.warning("no SQLAlchemy construct for %r: run as text", sql)
        return text(sql)
    return found


class ServerStore(Store):
    """Any number of games in one server database."""

    def __init__(self, url: str, read_only: bool = False) -> None:
        """The server at ``url``, its schema checked (and made, in an empty database); one
        clear line for a server that cannot be reached, a refused password or a database
        that is not Airboss's. The URL in messages never shows a password. Read-only, the
        schema is only checked: nothing is created, locked or migrated (issue 30)."""
        self.engine, self._security = _engine(url)
        super().__init__(passwords.shown(url), read_only)
        #: what this store sends and reads crosses the network as clear text (issue 46)
        self.plain_text = server_trust.plain_text(self.engine.url.host, self.engine.url.query)
        #: the connection that LISTENs for other stations' appends
        self._listen: Any = None
        self._notices = 0
        #: the server's process of the last connection used, and those of appends whose
        #: connection was lost (uid -> process), ended before their fate is asked
        self._backend = 0
        self._lost: dict[str, int] = {}
        #: the server's count of changed and removed events, and when it was last read
        self._edits: int | None = None
        self._edits_query: tuple[str, dict[str, Any]] | None = None
        self._edits_seen_at = 0.0
        #: when to try the LISTEN connection again after the server did not answer
        self._listen_again_at = 0.0
        self._listen_wait = 0.0
        try:
            if read_only:
                check_schema(self.engine, self.where)
            else:
                migrate(self.engine, self.where)
        except DBAPIError as e:
            self.close()
            if "password authentication failed" in str(e.orig).lower():
                passwords.forget(url)
            raise _problem(self.where, e) from None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._listen is not None:
            self._listen.close()
            self._listen = None
        self.engine.dispose()

    @contextmanager
    def _use(self, write: bool = False) -> Iterator[Any]:
        """A connection for one use, cut by ``DEADLINE_S``; with ``write`` its statements run
        in one transaction committed before the deadline ends. A connection that failed never
        goes back to the pool."""
        conn = self.engine.connect()
        raw = conn.connection.dbapi_connection
        self._backend = int(raw.info.backend_pid)
        deadline = _Deadline(raw.fileno(), DEADLINE_S)
        try:
            if write:
                with conn.begin():
                    yield conn
            else:
                yield conn
        except DBAPIError as e:
            if isinstance(e, OperationalError | InterfaceError):
                conn.invalidate()
            raise
        finally:
            deadline.finish()
            conn.close()

    def _rows(self, sql: str | Executable, params: Params) -> list[tuple[Any, ...]]:
        """The rows of a statement: ``Store``'s SQL text (its construct is run) or one of
        ``server_sql``'s own."""
        statement = _statement(sql) if isinstance(sql, str) else sql
        for attempt in (1, 2):
            began = time.monotonic()
            try:
                with self._use() as conn:
                    return [tuple(r) for r in conn.execute(statement, dict(params))]
            except (OperationalError, InterfaceError) as e:
                if attempt == 1 and time.monotonic() - began < STALE_S:
                    continue  # a pooled connection the server had dropped: a new one
                raise _problem(self.where, e, "nothing was written") from None
            except DBAPIError as e:
                raise _problem(self.where, e, "nothing was written") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _write(self, *batches: Batch) -> None:
        try:
            with self._use(write=True) as conn:
                for sql, rows in batches:
                    if rows:
                        conn.execute(_statement(sql), [dict(r) for r in rows])
        except IntegrityError:
            raise ConcurrentAppend from None
        except DBAPIError as e:
            raise _problem(self.where, e, "nothing was written") from None

    def append(self, envelopes: Any, uid: str | None = None) -> None:
        """One call of the server's ``airboss_append`` (``app.store.server_functions``, issue
        46): the server checks the action's shape and its place in the log, makes each
        event's hash and, at the commit, announces the append to every station LISTENing on
        this game. A station holds no right to write the tables itself.

        Exactly once (issue 30): when the connection is lost after the action was sent (the
        answer to COMMIT lost, a reset, a network gone silent), the server is asked whether
        the action's ``uid`` is in the log: if it is, the append returns (saved); if it is
        not, "not written"; if the server does not answer within ``SETTLE_S``, ``Unsettled``
        (the desk asks again later with ``saved``). A second send of a saved action is
        refused by the log's unique key and found saved, never stored twice."""
        self._refuse_read_only()
        if not envelopes:
            return
        start = time.monotonic()
        game, last = envelopes[0].game, envelopes[-1].seq
        action = {"game": game, "events": self._action_json(envelopes, uid)}
        for attempt in (1, 2):
            began = time.monotonic()
            connected = inserted = False
            try:
                with self._use(write=True) as conn:
                    connected = True
                    digest = conn.execute(server_sql.APPEND, action).scalar_one()
                    inserted = True
            except IntegrityError:
                if uid is not None and self._settle(uid, start) is True:
                    self._head(game, last, None)
                    return  # this very action was saved before (a repeat): once is enough
                raise ConcurrentAppend from None
            except (OperationalError, InterfaceError) as e:
                if uid is None or not connected:
                    raise _problem(self.where, e, "nothing of this action was written") from None
                log.warning("%s: the connection was lost during an append: %s", self.where, e)
                self._lost[uid] = self._backend
                state = self._settle(uid, start)
                if state is True:
                    log.warning("%s: ... and the action was saved", self.where)
                    self._head(game, last, None)
                    return
                stale = not inserted and time.monotonic() - began < STALE_S
                if state is False and stale and attempt == 1:
                    continue  # a pooled connection the server had dropped: sent again, once
                if state is False:
                    raise StoreError(
                        f"{self.where}: the connection to the server was lost while this "
                        "action was being saved, and the server says it was not written; "
                        "check the network, then do it again."
                    ) from None
                raise Unsettled(
                    f"{self.where}: the connection to the server was lost while this action "
                    "was being saved, and the server has not answered since, so whether it "
                    "was saved is not known yet; the desk keeps asking and says which when "
                    "the server answers, so do not do it again meanwhile."
                ) from None
            except DBAPIError as e:
                raise _problem(self.where, e, "nothing of this action was written") from None
            self._head(game, last, str(digest))
            return

    def _action_json(self, envelopes: Any, uid: str | None) -> str:
        """One action's events as ``airboss_append`` takes them: a JSON list of their
        columns, the time as the chain reads it (UTC, to the microsecond)."""
        return json.dumps(
            [
                {
                    "seq": e.seq,
                    "action": e.action,
                    "time": canonical_time(e.time),
                    "actor": e.actor,
                    "rule": e.rule,
                    "narrative": e.narrative,
                    "kind": e.event.kind,
                    "payload": event_to_json(e.event),
                    "uid": None if uid is None else f"{uid}/{n}",
                }
                for n, e in enumerate(envelopes)
            ],
            ensure_ascii=False,
        )

    def _head(self, game: str, seq: int, digest: str | None) -> None:
        """The action just saved is the chain's head: its newest event's hash, as the server
        made it (read back when the answer that carried it was lost)."""
        if digest is None:
            digest = self.hash_at(game, seq)
        if digest is not None and seq >= self.heads.get(game, (0, ""))[0]:
            self.heads[game] = (seq, digest)

    def add_game(self, game_id: str, ruleset: str, title: str, variants: Any) -> None:
        """A new game's row, through the server's ``airboss_add_game`` (issue 46)."""
        self._refuse_read_only()
        self._call(
            server_sql.ADD_GAME,
            {
                "id": game_id,
                "ruleset": ruleset,
                "title": title,
                "variants": json.dumps(list(variants)),
                "created": None,
            },
        )

    def _store_snapshot(self, game_id: str, seq: int, data: bytes) -> bool:
        """Through the server's ``airboss_save_snapshot``, which takes the event's hash from
        the log itself (issue 46); whether it was stored (another station's came first)."""
        rows = self._call(server_sql.SAVE_SNAPSHOT, {"game": game_id, "seq": seq, "data": data})
        return bool(rows and rows[0][0])

    def _take_copy(self, game: dict[str, Any], rows: list[dict[str, Any]]) -> None:
        """A game copied here (from a file) in one transaction through the server's own
        functions: its row, then its log, whose every hash the server makes again (a file's
        log whose chain is broken is refused, as at its open)."""
        events = [
            {
                **{c: r[c] for c in ("seq", "action", "actor", "rule", "narrative", "kind")},
                "time": canonical_time(r["time"]),
                "payload": r["payload"],
                "uid": r["uid"],
            }
            for r in rows
        ]
        created = game["created"]
        try:
            with self._use(write=True) as conn:
                conn.execute(
                    server_sql.ADD_GAME,
                    {
                        "id": game["id"],
                        "ruleset": game["ruleset"],
                        "title": game["title"],
                        "variants": game["variants"],
                        "created": canonical_time(created) if created is not None else None,
                    },
                )
                # an action at a time would cost a round trip each: the log in pages
                for start in range(0, len(events), 5000):
                    conn.execute(
                        server_sql.APPEND,
                        {"game": game["id"], "events": json.dumps(events[start : start + 5000])},
                    )
        except IntegrityError:
            raise ConcurrentAppend from None
        except DBAPIError as e:
            raise _problem(self.where, e, "nothing was copied") from None

    def _call(self, statement: Executable, params: Params) -> list[tuple[Any, ...]]:
        """One of the server's functions, in a transaction of its own."""
        try:
            with self._use(write=True) as conn:
                return [tuple(r) for r in conn.execute(statement, dict(params))]
        except IntegrityError:
            raise ConcurrentAppend from None
        except DBAPIError as e:
            raise _problem(self.where, e, "nothing was written") from None

    def saved(self, uid: str) -> bool:
        """``Store.saved``; after a lost connection, the server's process that served it is
        ended first (its open transaction rolled back), so a COMMIT still on its way can never
        make a "not written" answer false."""
        pid = self._lost.get(uid)
        if pid:
            rows = self._rows(server_sql.TERMINATE, {"pid": pid})
            if rows and not rows[0][0]:
                raise StoreError(f"{self.where}: the lost connection's process is still there")
            del self._lost[uid]
        return super().saved(uid)

    def _settle(self, uid: str, start: float) -> bool | None:
        """Whether the action ``uid`` is in the log, asked until ``SETTLE_S`` after ``start``;
        ``None`` if the server did not answer by then."""
        while True:
            try:
                return self.saved(uid)
            except StoreError:
                pass
            if time.monotonic() + CONNECT_S + 0.5 > start + SETTLE_S:
                return None
            time.sleep(0.5)

    def _time(self, value: Any) -> datetime:
        return value  # type: ignore[no-any-return]

    # -- following other stations -------------------------------------------------------------

    def data_version(self, game_id: str) -> int | None:
        """The count of ``NOTIFY`` messages ``append`` sends, received on a ``LISTEN``
        connection of its own; ``None`` while the server cannot be reached."""
        import psycopg

        if self._listen is None and time.monotonic() < self._listen_again_at:
            return None  # the server did not answer lately: the desk is not held up asking
        try:
            if self._listen is None:
                url = self.engine.url.set(drivername="postgresql")
                self._listen = psycopg.connect(
                    url.render_as_string(hide_password=False),
                    autocommit=True,
                    **{**connect_args(), **self._security, "connect_timeout": 2},
                )
                self._listen.execute(_listen_sql(game_id))
                self._notices += 1  # (re)connected: what was said meanwhile was not heard
            for _ in self._listen.notifies(timeout=0):
                self._notices += 1
            now = time.monotonic()
            if now - self._edits_seen_at >= EDITS_EVERY_S:
                # a change no station announces (an UPDATE or DELETE made with psql):
                # counted by the server's statistics, looked at once a second (issue 30)
                self._edits_seen_at = now
                row = self._listen.execute(*self._edits_sql()).fetchone()
                edits = int(row[0]) if row and row[0] is not None else 0
                # LISTEN again (it changes nothing): the connection's last statement is how
                # ``watching`` counts the stations following this game
                self._listen.execute(_listen_sql(game_id))
                if self._edits is not None and edits != self._edits:
                    self._notices += 1
                    self.suspect = True  # the whole log is checked again (``refresh``)
                self._edits = edits
        except psycopg.Error:
            # the server went away: listen again a little later, and catch up then
            if self._listen is not None:
                self._listen.close()
                self._listen = None
            # tried again after 0.5 s, then twice as long each time up to LISTEN_AGAIN_S
            self._listen_wait = min(LISTEN_AGAIN_S, max(0.5, self._listen_wait * 2))
            self._listen_again_at = time.monotonic() + self._listen_wait
            return None
        self._listen_wait = 0.0
        return self._notices

    def _edits_sql(self) -> tuple[str, dict[str, Any]]:
        """``server_sql.EDITS`` as the LISTEN connection (psycopg's own) runs it: compiled
        by SQLAlchemy for this server (once), its values bound."""
        if self._edits_query is None:
            compiled = server_sql.EDITS.compile(dialect=self.engine.dialect)
            self._edits_query = (str(compiled), dict(compiled.params))
        return self._edits_query

    def listen_socket(self) -> int | None:
        if self._listen is None:
            return None
        try:
            return int(self._listen.fileno())
        except Exception:  # noqa: BLE001 - a connection closed meanwhile: none to watch
            return None

    def watching(self, game_id: str) -> int | None:
        """How many connections follow this game, counted by the server's own function (a
        station reads no other connection's statements, issue 46)."""
        rows = self._rows(server_sql.WATCHING, {"listen": _listen_sql(game_id).as_string(None)})
        return int(rows[0][0] or 0)
