"""The game store: SQLite files (``*.airboss``, WAL) or a PostgreSQL database, same schema.

Each ``append`` is one transaction; when it returns, the events are durable (SQLite WAL with
``synchronous=FULL`` unless ``AIRBOSS_SQLITE_SYNC=normal``). Opening checks, without writing,
that the file is an Airboss store of a schema this version knows; a corrupt, foreign or newer
file is refused with a message and never modified. An older file is backed up before its
migration.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, func, insert, make_url, select, text
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import QueuePool

from app.core.events import Envelope, event_from_json, event_to_json
from app.store.tables import EventRow, GameRow, InfoRow, SnapshotRow

MIGRATIONS = Path(__file__).parent / "migrations"
FORMAT = "airboss"


class StoreError(Exception):
    """A store that cannot be used: the message names the file or database and the reason."""


class ConcurrentAppend(StoreError):
    """Another station appended to this game first; nothing of ours was written."""


def _alembic_config(connection: Any = None) -> Any:
    from alembic.config import Config  # imported only when a migration is due (issue 20)

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


_REVISION = re.compile(r"^(down_revision|revision)\s*=\s*(None|['\"]([^'\"]+)['\"])", re.M)


def _revision_graph() -> dict[str, str | None]:
    """revision -> down_revision, read from the migration scripts' text without Alembic."""
    graph: dict[str, str | None] = {}
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = {m[1]: m[3] for m in _REVISION.finditer(script.read_text(encoding="utf-8"))}
        if "revision" in found and found["revision"]:
            graph[found["revision"]] = found.get("down_revision")
    return graph


def head_revision() -> str:
    graph = _revision_graph()
    heads = set(graph) - {d for d in graph.values() if d}
    assert len(heads) == 1, heads
    return heads.pop()


def known_revisions() -> set[str]:
    return set(_revision_graph())


def is_url(target: str | Path) -> bool:
    return "://" in str(target)


def _sync_mode() -> str:
    """FULL (default) makes every commit survive a power cut: the WAL is synced to disk before
    the append returns. NORMAL survives a crash or kill of Airboss but not of the computer; it
    is for disks whose sync is slow, chosen with ``AIRBOSS_SQLITE_SYNC=normal``."""
    mode = os.environ.get("AIRBOSS_SQLITE_SYNC", "full").upper()
    if mode not in ("FULL", "NORMAL"):
        raise StoreError(f"AIRBOSS_SQLITE_SYNC must be 'full' or 'normal', not {mode.lower()!r}")
    return mode


def sqlite_uri(path: Path, read_only: bool = False) -> str:
    """An SQLite ``file:`` URI addressing exactly ``path``: every character of the name that
    means something in a URI (``?``, ``#``, ``%``, spaces, non-ASCII) is percent-quoted, so a
    name a user typed can never select another file or pass URI parameters.

    Read-only URIs are ``immutable`` when no write-ahead log lies beside the file, so that
    looking at a file (or a game in a read-only folder) never creates ``-wal``/``-shm`` files.
    """
    uri = "file:" + quote(str(path.absolute()), safe="/")
    if not read_only:
        return uri + "?mode=rw"
    if Path(f"{path}-wal").exists():
        return uri + "?mode=ro"
    return uri + "?mode=ro&immutable=1"


def _can_write(path: Path) -> bool:
    """Writable for us, and not marked read-only by its owner (no write bit at all: a file
    the user made read-only is honoured even by an administrator's account)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def _connect(path: Path, read_only: bool = False, create: bool = False) -> sqlite3.Connection:
    uri = sqlite_uri(path, read_only)
    if create:
        uri = uri.replace("mode=rw", "mode=rwc")
    return sqlite3.connect(uri, uri=True, check_same_thread=False)


def _sqlite_engine(path: Path, read_only: bool = False, create: bool = False) -> Engine:
    engine = create_engine(
        "sqlite://",
        creator=lambda: _connect(path, read_only, create),
        poolclass=QueuePool,
    )
    sync = _sync_mode()

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        if read_only:
            cur.execute("PRAGMA query_only=ON")
            cur.close()
            return
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={sync}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    return engine


def _server_engine(url: str) -> Engine:
    """A server database; a plain ``postgresql://`` URL uses psycopg (version 3)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    try:
        # a connection the server dropped (restarted, a network blip) is replaced before use
        return create_engine(url, pool_pre_ping=True)
    except ModuleNotFoundError as e:
        raise StoreError(
            f"the database driver {e.name!r} is not installed: pip install 'airboss[postgres]'"
        ) from None


def inspect_sqlite(path: Path) -> str | None:
    """The schema revision of an Airboss file, read without writing; ``StoreError`` if it is
    not one. ``None`` for a file with no tables at all (a brand-new store)."""
    if not path.exists():
        raise StoreError(f"{path}: no such file")
    try:
        with closing(_connect(path, read_only=True)) as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return None
            if "airboss_info" not in tables or "alembic_version" not in tables:
                raise StoreError(
                    f"{path}: this is an SQLite database, but not an Airboss game; "
                    "it was not changed"
                )
            info = dict(db.execute("SELECT key, value FROM airboss_info").fetchall())
            if info.get("format") != FORMAT:
                raise StoreError(f"{path}: not an Airboss game (format {info.get('format')!r})")
            check = db.execute("PRAGMA quick_check").fetchall()
            if [tuple(r) for r in check] != [("ok",)]:
                first = str(check[0][0]).splitlines()[0] if check else "no answer"
                raise StoreError(
                    f"{path}: the file is damaged (SQLite's check: {first}); it was not changed"
                )
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
            return str(row[0]) if row else None
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path}: not a readable Airboss game ({e}); it was not changed") from None


#: the PostgreSQL advisory lock key held while the schema is checked or migrated ("airb")
MIGRATION_LOCK = 0x61697262


def _current_revision(conn: Any) -> str | None:
    if not sa_inspect(conn).has_table("alembic_version"):
        return None
    row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
    return str(row[0]) if row else None


def _server_problem(where: str, e: DBAPIError) -> str:
    """One line for the umpire about a server that refused or could not be reached."""
    text = str(e.orig).strip().splitlines()[0] if e.orig is not None else str(e)
    low = text.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        why = "the server refused the user name or password"
    elif "does not exist" in low and "database" in low:
        why = f"the server has no such database ({text})"
    elif "connection" in low and ("failed" in low or "refused" in low or "bad" in low):
        why = f"cannot reach the server: is it running, and is the address right? ({text})"
    else:
        why = text
    return f"{where}: {why}. Nothing was changed."


def channel(game_id: str) -> str:
    """The PostgreSQL NOTIFY channel of one game's appends."""
    return f"airboss_{game_id}"[:63]


class Store:
    """One database holding one game (a file) or many (a server)."""

    def __init__(self, engine: Engine, where: str, read_only: bool = False) -> None:
        self.engine = engine
        self.where = where
        #: opened read-only (the file or its folder cannot be written, or asked for)
        self.read_only = read_only
        self._path: Path | None = None
        self._watch: sqlite3.Connection | None = None
        #: PostgreSQL: the connection that LISTENs for other stations' appends
        self._listen: Any = None
        self._notices = 0
        #: the file was open elsewhere when this store opened it (its write-ahead log was there)
        self.open_elsewhere = False

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def _server(cls, url: str, read_only: bool) -> Store:
        """A server store, its schema checked; one clear line for a server that cannot be
        reached, a refused password or a database that is not Airboss's (issue 17). The URL
        in messages never shows a password."""
        engine = _server_engine(url)
        shown = make_url(url).render_as_string(hide_password=True)
        store = cls(engine, shown, read_only=read_only)
        try:
            store._migrate(backup=None)
        except DBAPIError as e:
            store.close()
            raise StoreError(_server_problem(shown, e)) from None
        return store

    @classmethod
    def create(cls, target: str | Path) -> Store:
        """A new store: a new SQLite file (refused if the file exists) or a server URL."""
        if is_url(target):
            return cls._server(str(target), read_only=False)
        else:
            path = Path(target).absolute()  # recent games work from any folder (issue 14)
            if path.exists():
                raise StoreError(f"{path}: a file of that name exists already; choose another")
            path.parent.mkdir(parents=True, exist_ok=True)
            store = cls(_sqlite_engine(path, create=True), str(path))
            store._path = path
        store._migrate(backup=None)
        return store

    @classmethod
    def open(cls, target: str | Path, read_only: bool = False) -> Store:
        """An existing store, checked before anything is written, migrated after a backup.

        A file is opened READ-ONLY (``Store.read_only``, nothing is ever written) when asked,
        or when the file or its folder cannot be written. Call ``writable()`` once the game
        has been read and found good: only then is the file opened for writing.
        """
        if is_url(target):
            return cls._server(str(target), read_only=read_only)
        path = Path(target).absolute()
        elsewhere = Path(f"{path}-wal").exists()  # removed when the last connection closes
        revision = inspect_sqlite(path)
        if revision is None:
            raise StoreError(f"{path}: an empty database, not an Airboss game; it was not changed")
        if revision not in known_revisions():
            raise StoreError(
                f"{path}: written by a newer Airboss (schema {revision}); "
                "update Airboss to open it. The file was not changed."
            )
        ro = read_only or not _can_write(path) or not _can_write(path.absolute().parent)
        if revision != head_revision():
            if ro:
                raise StoreError(
                    f"{path}: written by an older Airboss and needs updating, but the file "
                    "cannot be written; copy it somewhere writable. It was not changed."
                )
            store = cls(_sqlite_engine(path), str(path))
            store._migrate(backup=path)
            store.close()
        store = cls(_sqlite_engine(path, read_only=True), str(path), read_only=ro)
        store._path = path
        store.open_elsewhere = elsewhere
        return store

    def writable(self) -> None:
        """Switch a file opened for checking to writing (unless it is read-only)."""
        if self._path is None or self.read_only:
            return
        self.engine.dispose()
        self.engine = _sqlite_engine(self._path)

    def _migrate(self, backup: Path | None) -> None:
        """Bring the schema to the head revision. The revision is read first, WITHOUT Alembic
        (not imported at all when the schema is current); on PostgreSQL the check and any
        migration run under a transaction-level advisory lock, so stations opening an empty
        database at once migrate it once and never see each other's half-made tables."""
        head = head_revision()
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            current = _current_revision(conn)
            if current is None:
                others = sa_inspect(conn).get_table_names()
                if others:
                    raise StoreError(
                        f"{self.where}: holds another program's tables ({', '.join(others[:3])}"
                        f"{' ...' if len(others) > 3 else ''}), not Airboss games: give Airboss "
                        "a database of its own. Nothing was changed."
                    )
            if current is not None and current not in known_revisions():
                raise StoreError(
                    f"{self.where}: written by a newer Airboss (schema {current}); "
                    "update Airboss to open it. Nothing was changed."
                )
            if current != head:
                if backup is not None:
                    # through SQLite's backup API, so what is still in the WAL is in the copy
                    copy = backup.with_name(f"{backup.name}.before-migration.bak")
                    n = 1
                    while copy.exists():
                        n += 1
                        copy = backup.with_name(f"{backup.name}.before-migration-{n}.bak")
                    self.save_copy(copy)
                from alembic import command  # only now: a migration is due (issue 20)

                command.upgrade(_alembic_config(conn), "head")
            present = conn.execute(select(InfoRow).where(InfoRow.key == "format")).first()
            if present is None:
                conn.execute(insert(InfoRow).values(key="format", value=FORMAT))
            elif present.value != FORMAT:
                raise StoreError(f"{self.where}: not an Airboss database")

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        if self._listen is not None:
            self._listen.close()
            self._listen = None
        self.engine.dispose()

    def _notified(self, game_id: str) -> int | None:
        if self.engine.dialect.name != "postgresql":
            return None
        import psycopg

        try:
            if self._listen is None:
                url = self.engine.url.set(drivername="postgresql")
                self._listen = psycopg.connect(
                    url.render_as_string(hide_password=False), autocommit=True, connect_timeout=2
                )
                self._listen.execute(f'LISTEN "{channel(game_id)}"')
                self._notices += 1  # (re)connected: what was said meanwhile was not heard
            for _ in self._listen.notifies(timeout=0):
                self._notices += 1
        except psycopg.Error:
            # the server went away: listen again on the next ask, and catch up then
            if self._listen is not None:
                self._listen.close()
                self._listen = None
            return None
        return self._notices

    def listen_socket(self) -> int | None:
        """The socket of the LISTEN connection (PostgreSQL, once ``data_version`` has been
        asked): readable when another station's append is announced, so a desk can follow at
        once instead of at its next look. ``None`` for a file or before listening."""
        if self._listen is None:
            return None
        try:
            return int(self._listen.fileno())
        except Exception:  # noqa: BLE001 - a connection closed meanwhile: none to watch
            return None

    def data_version(self, game_id: str) -> int | None:
        """A number that changes whenever another connection (another window, another
        program, another station) appends to this game, so asking costs no read of the log:
        SQLite's ``PRAGMA data_version`` on a connection of its own; on PostgreSQL the count
        of ``NOTIFY`` messages ``append`` sends, received on a ``LISTEN`` connection of its
        own (issue 17). ``None`` for another server."""
        if self._path is None:
            return self._notified(game_id)
        try:
            if self._watch is None:
                self._watch = _connect(self._path, read_only=True)
            return int(self._watch.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error as e:
            raise StoreError(f"{self._path}: cannot be read any more ({e})") from None

    # -- games --------------------------------------------------------------------------------

    def add_game(self, game_id: str, ruleset: str, title: str, variants: Sequence[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(GameRow).values(
                    id=game_id,
                    ruleset=ruleset,
                    title=title,
                    variants=json.dumps(list(variants)),
                    created=datetime.now(UTC),
                )
            )

    def last_action_time(self, game_id: str) -> datetime | None:
        q = select(func.max(EventRow.time)).where(EventRow.game_id == game_id)
        with self.engine.connect() as conn:
            value = conn.execute(q).scalar()
        return value if isinstance(value, datetime) else None

    def watching(self, game_id: str) -> int | None:
        """How many stations LISTEN to this game now (PostgreSQL), ``None`` elsewhere."""
        if self.engine.dialect.name != "postgresql":
            return None
        q = text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND query = :listen"
        )
        with self.engine.connect() as conn:
            return int(conn.execute(q, {"listen": f'LISTEN "{channel(game_id)}"'}).scalar() or 0)

    def games(self) -> list[GameRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(GameRow.__table__).order_by(GameRow.created)).all()
        return [GameRow.model_validate(r._mapping) for r in rows]

    def game(self, game_id: str | None) -> GameRow:
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

    # -- the log ------------------------------------------------------------------------------

    def append(self, envelopes: Sequence[Envelope]) -> None:
        """Store one action's envelopes in one transaction; ``ConcurrentAppend`` on a lost race."""
        if self.read_only:
            raise StoreError(f"{self.where}: opened read-only; nothing was written")
        rows = [
            {
                "game_id": e.game,
                "seq": e.seq,
                "action": e.action,
                "time": e.time,
                "actor": e.actor,
                "rule": e.rule,
                "narrative": e.narrative,
                "kind": e.event.kind,
                "payload": event_to_json(e.event),
            }
            for e in envelopes
        ]
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "sqlite":
                    # executemany of one cached statement: a multi-row INSERT is compiled
                    # afresh for every action (about 0.6 ms of each append, issue 20)
                    conn.execute(insert(EventRow.__table__), rows)
                else:
                    # one multi-row INSERT, not executemany: psycopg's pipeline would print
                    # "pipeline aborted" on every lost race
                    conn.execute(insert(EventRow.__table__).values(rows))
                if conn.dialect.name == "postgresql" and envelopes:
                    # every station LISTENing on this game hears of it at commit (issue 17)
                    conn.execute(
                        text("SELECT pg_notify(:channel, :seq)"),
                        {"channel": channel(envelopes[0].game), "seq": str(envelopes[-1].seq)},
                    )
        except IntegrityError:
            raise ConcurrentAppend(
                "another station changed this game at the same moment; nothing of this action "
                "was written. The desk has been brought up to date: look, then act again."
            ) from None

    def last_seq(self, game_id: str) -> int:
        q = select(func.max(EventRow.seq)).where(EventRow.game_id == game_id)
        with self.engine.connect() as conn:
            return int(conn.execute(q).scalar() or 0)

    def _rows(self, query: Any) -> Iterator[Envelope]:
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        for r in rows:
            yield Envelope(
                game=r.game_id,
                seq=r.seq,
                action=r.action,
                time=r.time,
                actor=r.actor,
                rule=r.rule,
                narrative=r.narrative,
                event=event_from_json(r.payload),
            )

    def _select(self) -> Any:
        t = EventRow.__table__
        return select(
            t.c.game_id,
            t.c.seq,
            t.c.action,
            t.c.time,
            t.c.actor,
            t.c.rule,
            t.c.narrative,
            t.c.payload,
        )

    def events(self, game_id: str, after: int = 0) -> list[Envelope]:
        """The log of a game after sequence number ``after``, oldest first."""
        return list(self.iter_events(game_id, after))

    def iter_events(self, game_id: str, after: int = 0, page: int = 2000) -> Iterator[Envelope]:
        """The log after ``after``, oldest first, read ``page`` rows at a time, so a reader
        that keeps only what it needs never holds the whole log (issue 20)."""
        t = EventRow.__table__
        while True:
            q = (
                self._select()
                .where(t.c.game_id == game_id, t.c.seq > after)
                .order_by(t.c.seq)
                .limit(page)
            )
            n = 0
            for env in self._rows(q):
                n += 1
                after = env.seq
                yield env
            if n < page:
                return

    def action(self, game_id: str, action: int) -> list[Envelope]:
        t = EventRow.__table__
        q = self._select().where(t.c.game_id == game_id, t.c.action == action).order_by(t.c.seq)
        return list(self._rows(q))

    # -- snapshots ----------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: bytes) -> None:
        if self.read_only:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(SnapshotRow).values(game_id=game_id, seq=seq, data=data))

    def latest_snapshot(self, game_id: str) -> tuple[int, bytes] | None:
        q = (
            select(SnapshotRow.seq, SnapshotRow.data)
            .where(SnapshotRow.game_id == game_id)
            .order_by(SnapshotRow.seq.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        return (int(row.seq), bytes(row.data)) if row else None

    def save_copy(self, target: str | Path) -> Path:
        """A consistent copy of an SQLite store in a new file (SQLite's online backup)."""
        if self.engine.dialect.name != "sqlite":
            raise StoreError(f"{self.where}: a game on a server cannot be copied to a file")
        path = Path(target)
        if path.exists():
            raise StoreError(f"{path}: a file of that name exists already; choose another")
        try:
            with self.engine.connect() as conn:
                src = conn.connection.dbapi_connection
                with closing(_connect(path, create=True)) as dst:
                    src.backup(dst)  # type: ignore[union-attr]
        except (sqlite3.Error, OSError) as e:
            path.unlink(missing_ok=True)
            raise StoreError(f"could not copy the game to {path}: {e}") from None
        return path

    def copy_game(self, game_id: str, target: Store) -> None:
        """Copy one game, its row and its whole log as stored (payloads, narratives and times
        byte for byte), into another store: a server game taken home to a file, or a file
        brought to the club's server (issue 17). Refused if the target already holds it."""
        if target.read_only:
            raise StoreError(f"{target.where}: opened read-only; nothing was written")
        games = {g.id: g for g in self.games()}
        if game_id not in games:
            raise StoreError(f"{self.where}: no game {game_id!r}")
        if any(g.id == game_id for g in target.games()):
            raise StoreError(f"{target.where}: holds this game already; nothing was copied")
        ev = EventRow.__table__
        with self.engine.connect() as conn:
            rows = [
                dict(r._mapping)
                for r in conn.execute(select(ev).where(ev.c.game_id == game_id).order_by(ev.c.seq))
            ]
        for r in rows:
            r.pop("id", None)
        g = games[game_id]
        with target.engine.begin() as conn:
            conn.execute(insert(GameRow.__table__).values(**g.model_dump()))
            if rows:
                conn.execute(insert(ev).values(rows))

    def integrity_ok(self) -> bool:
        """SQLite's own check of the file (always true for a server)."""
        if self.engine.dialect.name != "sqlite":
            return True
        with self.engine.connect() as conn:
            return conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
