"""A game file (``*.airboss``): one SQLite database in WAL mode, on Python's own ``sqlite3``.

Opening a file whose schema is current reads it without SQLAlchemy or Alembic (issue 20), and a
new file is made from ``schema.sql`` (issue 36): both are imported only to migrate an older
file (``app.store.migrate``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
import weakref
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from app.core.errors import ConcurrentAppend, StoreError, Tampered
from app.core.events import Event
from app.store import chain_worker, revisions
from app.store.chain import time_text
from app.store.file_locks import held_open
from app.store.store import Batch, Game, Params, Store

#: a log of at least this many events has its chain of hashes checked by a process of its
#: own while it is replayed (``FileStore.read_checked``; issue 31)
PARALLEL_CHAIN = 20_000
#: how long that process may take before the chain is checked here instead
CHAIN_TIME_LIMIT = 600.0
#: a page of the log as a replay reads it when another process checks the chain
_PAGE_EVENTS = (
    "SELECT seq, action, payload FROM event "
    "WHERE game_id = :game AND seq > :start ORDER BY seq LIMIT :page"
)

#: how a time is stored in a file: as SQLAlchemy's SQLite ``DateTime`` wrote it, so files
#: written before and after the store left SQLAlchemy read alike
TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"


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


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


#: SQLite's words for what befell a write, as the umpire reads them (issue 46)
_SAID = {
    "database or disk is full": "the disk is full",
    "disk i/o error": "the disk could not be written or read (an I/O error)",
    "database is locked": "another program holds the game locked",
    "attempt to write a readonly database": "the file cannot be written",
    "unable to open database file": "the file cannot be made or opened there",
}


def said_of(e: BaseException) -> str:
    """An SQLite or file system error in the umpire's words, not the library's."""
    if isinstance(e, OSError) and not isinstance(e, sqlite3.Error):
        return e.strerror or str(e)
    text = str(e).strip()
    return _SAID.get(text.lower(), text)


def regular_file(path: Path) -> None:
    """Refuse at once a path that is not a regular file (issue 31): a FIFO would block the
    open until something wrote to it, a device or a folder is never a game."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise StoreError(f"{path}: no such file") from None
    except OSError as e:
        raise StoreError(
            f"{path}: cannot be read ({e.strerror or e}); nothing was opened"
        ) from None
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path}: is {_kind(mode)}, not a game file; nothing was opened")


def real_path(target: str | Path, doing: str = "nothing was opened") -> Path:
    """The game file a name means, every symbolic link followed first (issue 31), so that
    following the game, choosing ``immutable`` and looking for its write-ahead log all use
    the real file; a link to nothing (or a loop of links) is refused naming the link."""
    given = Path(target).absolute()
    try:
        real = given.resolve()
    except (OSError, RuntimeError) as e:  # a loop of links
        raise StoreError(f"{given}: its symbolic links cannot be followed ({e}); {doing}") from None
    if given.is_symlink() and not real.exists():
        raise StoreError(
            f"{given}: a symbolic link to {os.readlink(given)}, which does not exist; {doing}"
        )
    return real


def _missing_shm(path: Path) -> StoreError | None:
    """A write-ahead log without its shared-memory index in a folder that cannot be written
    (a read-only mount, a CD, a copy of two of the three files): SQLite cannot read the log,
    and saying "not a readable game" would be false."""
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if wal.exists() and not shm.exists() and not _can_write(path.parent):
        return StoreError(
            f"{path}: its write-ahead log ({wal.name}), which holds the newest actions, lies "
            f"beside it without its index ({shm.name}), and this folder cannot be written to "
            "make one, so the game cannot be read here. Copy all three files to a folder you "
            "can write, or open it where it was written; nothing was changed."
        )
    return None


def _can_write(path: Path) -> bool:
    """Writable for us, and not marked read-only by its owner (no write bit at all: a file
    the user made read-only is honoured even by an administrator's account)."""
    return os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o222)


def connect(path: Path, read_only: bool = False, create: bool = False) -> sqlite3.Connection:
    """A connection to exactly ``path``, in autocommit mode (transactions are explicit).
    A writing connection keeps its log in WAL, synced as ``_sync_mode`` says, with foreign
    keys enforced; a reading one is ``query_only``."""
    uri = sqlite_uri(path, read_only)
    if create:
        uri = uri.replace("mode=rw", "mode=rwc")
    db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    if read_only:
        db.execute("PRAGMA query_only=ON")
    else:
        db.execute("PRAGMA journal_mode=WAL")
        full = _sync_mode() == "FULL"
        db.execute("PRAGMA synchronous=FULL" if full else "PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
    return db


def inspect_sqlite(path: Path, *, check_pages: bool = True) -> str | None:
    """The schema revision of an Airboss file, read without writing; ``StoreError`` if it is
    not one. ``None`` for a file with no tables at all (a brand-new store). ``check_pages``:
    SQLite's check of every page (``damaged``) is made here; without it the caller makes it
    (``PageCheck``)."""
    if not path.exists():
        raise StoreError(f"{path}: no such file")
    try:
        with closing(connect(path, read_only=True)) as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return None
            if "airboss_info" not in tables or "alembic_version" not in tables:
                raise StoreError(
                    f"{path}: this is an SQLite database, but not an Airboss game; "
                    "it was not changed"
                )
            info = dict(db.execute("SELECT key, value FROM airboss_info").fetchall())
            if info.get("format") != revisions.FORMAT:
                raise StoreError(f"{path}: not an Airboss game (format {info.get('format')!r})")
            foreign = _foreign_schema(db)
            if foreign:
                raise StoreError(
                    f"{path}: its schema holds what Airboss did not make ({', '.join(foreign)}); "
                    "a game file never has triggers, views or other tables. Refused; the file "
                    "was not changed."
                )
            if check_pages:
                damage = damaged(db, path)
                if damage is not None:
                    raise damage
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
            return str(row[0]) if row else None
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path}: not a readable Airboss game ({e}); it was not changed") from None


def damaged(db: sqlite3.Connection, path: Path) -> StoreError | None:
    """SQLite's check of every page of the file (``quick_check``): the refusal naming the first
    damage it found, or None."""
    check = db.execute("PRAGMA quick_check").fetchall()
    if [tuple(r) for r in check] == [("ok",)]:
        return None
    first = str(check[0][0]).splitlines()[0] if check else "no answer"
    return StoreError(f"{path}: the file is damaged (SQLite's check: {first}); it was not changed")


def damaged_file(path: Path) -> StoreError | None:
    """``damaged`` on a read-only connection of its own."""
    with closing(connect(path, read_only=True)) as db:
        return damaged(db, path)


class PageCheck:
    """``damaged`` made in a thread of its own on its own read-only connection, while the
    opening reads the game (issue 44: the check reads every page of the file, the longest part
    of opening a long game; SQLite lets Python's other thread run meanwhile, on the other
    core). ``verdict()`` waits for it: the refusal, or None. The opening asks for it before the
    file is opened for writing, and first when anything else failed (damage explains it)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._verdict: StoreError | None = None
        self._thread = threading.Thread(target=self._run, name="airboss page check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            with closing(connect(self._path, read_only=True)) as db:
                self._verdict = damaged(db, self._path)
        except sqlite3.DatabaseError as e:
            self._verdict = StoreError(
                f"{self._path}: not a readable Airboss game ({e}); it was not changed"
            )

    def verdict(self) -> StoreError | None:
        self._thread.join()
        return self._verdict


#: what Airboss makes in a game file (``app.store.tables``, the migrations); SQLite's own
#: indexes of primary keys and unique columns are named ``sqlite_autoindex_<table>_<n>``
OUR_TABLES = frozenset({"airboss_info", "alembic_version", "game", "event", "snapshot"})
OUR_INDEXES = frozenset({"ix_event_game_seq", "ix_event_game_action", "ix_event_uid"})


def _foreign_schema(db: sqlite3.Connection) -> list[str]:
    """What a file's schema holds that Airboss did not make (issue 30): a trigger that runs
    on the desk's next append, a view, another table or index. Read, never run."""
    found = []
    for kind, name, table in db.execute("SELECT type, name, tbl_name FROM sqlite_master"):
        if kind == "table" and name in OUR_TABLES:
            continue
        if kind == "index" and (
            name in OUR_INDEXES or (name.startswith("sqlite_autoindex_") and table in OUR_TABLES)
        ):
            continue
        found.append(f"{kind} {name!r}")
    return sorted(found)[:5]


def backup(db: sqlite3.Connection, target: Path) -> Path:
    """Copy the database behind ``db`` to a new file through SQLite's online backup, so what
    is still in the write-ahead log is in the copy; ``StoreError`` (and no file) if it fails."""
    if target.exists():
        raise StoreError(f"{target}: a file of that name exists already; choose another")
    try:
        with closing(connect(target, create=True)) as dst:
            db.backup(dst)
    except (sqlite3.Error, OSError) as e:
        target.unlink(missing_ok=True)
        raise StoreError(f"could not copy the game to {target}: {e}") from None
    return target


#: the schema of a new game file: the SQLModel tables compiled for SQLite
#: (``app.store.schema_sql``, checked against the tables and the migrations by a test)
SCHEMA = Path(__file__).with_name("schema.sql")


def _new_file(path: Path) -> None:
    """Make the schema of a new game file from ``schema.sql`` in one transaction, stamped with
    the head revision and the format row, as the migrations leave a file they created
    (issue 36: creating a game imports neither SQLAlchemy nor Alembic)."""
    statements, pending = [], ""
    for line in SCHEMA.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("--"):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    with closing(connect(path, create=True)) as db:
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                db.execute(statement)
            db.execute(
                "INSERT INTO alembic_version (version_num) VALUES (?)",
                (revisions.head_revision(),),
            )
            db.execute(
                "INSERT INTO airboss_info (key, value) VALUES ('format', ?)", (revisions.FORMAT,)
            )
        except BaseException:
            if db.in_transaction:  # SQLite ends it itself on some errors (a full disk)
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def _migrate_file(path: Path) -> None:
    """Bring an older file to the head revision after a backup copy beside it
    (``name.before-migration.bak``, numbered if one is there)."""
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from app.store.migrate import migrate

    def before_upgrade() -> None:
        copy = path.with_name(f"{path.name}.before-migration.bak")
        n = 1
        while copy.exists():
            n += 1
            copy = path.with_name(f"{path.name}.before-migration-{n}.bak")
        with closing(connect(path, read_only=True)) as db:
            backup(db, copy)

    def for_sqlalchemy() -> sqlite3.Connection:
        db = connect(path)
        # sqlite3's own transactions, which SQLAlchemy drives ("DEFERRED": the default, "")
        db.isolation_level = "DEFERRED"
        return db

    engine = create_engine("sqlite://", creator=for_sqlalchemy, poolclass=NullPool)
    try:
        migrate(engine, str(path), before_upgrade)
    finally:
        engine.dispose()


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """End the chain checker if it still runs (its verdict no longer wanted)."""
    if worker.poll() is None:
        worker.kill()
        worker.wait()


#: the largest event row's bytes, from the pages of the event table (``dbstat`` in its one
#: row a table form)
_LARGEST_EVENT_ROW = "SELECT mx_payload FROM dbstat('main', 1) WHERE name = 'event'"


#: ``Store._counted`` in one statement (one view of the file): every event of the file counted
#: by SQLite from its index's pages, the game's newest, and whether another game has any
_COUNTED_ALONE = (
    "SELECT (SELECT count(*) FROM event), "
    "(SELECT max(seq) FROM event WHERE game_id = :game), "
    "EXISTS(SELECT 1 FROM event WHERE game_id < :game) "
    "OR EXISTS(SELECT 1 FROM event WHERE game_id > :game)"
)


class FileStore(Store):
    """One game in one SQLite file. It is opened read-only for checking; ``writable()``
    reopens it for writing once the game has been read and found good."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        super().__init__(str(path), read_only=read_only)
        self.file = self.path = path
        self._db: sqlite3.Connection | None = connect(path, read_only=True)
        self._watch: sqlite3.Connection | None = None
        #: a write-ahead log lay beside the file when it was opened (left by a desk that has it
        #: open, or by one that was killed: ``open_elsewhere`` tells which)
        self.log_beside = False
        #: the connections were made ``immutable`` (no write-ahead log beside the file then)
        self._immutable = not Path(f"{path}-wal").exists()
        #: how many times they were reopened without ``immutable`` (see ``data_version``)
        self._reopened = 0
        #: every page still to check (``open(check_beside=True)``), and the check begun
        self._pages_unchecked = False
        self._page_check: PageCheck | None = None

    @classmethod
    def create(cls, target: str | Path) -> FileStore:
        """A new game file (refused if the file exists), its schema made from ``schema.sql``
        (the migrations' result, without them)."""
        given = Path(target).absolute()  # recent games work from any folder (issue 14)
        if given.is_symlink() and not given.exists():  # never write through a link to nothing
            raise StoreError(
                f"{given}: a symbolic link to {os.readlink(given)}, which does not exist; "
                "no game was written. Choose another name."
            )
        if given.exists():
            raise StoreError(f"{given}: a file of that name exists already; choose another")
        path = real_path(given, "no game was written")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            _new_file(path)
            store = cls(path)
            store.writable()
        except BaseException as e:
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
            if isinstance(e, sqlite3.Error | OSError):  # a full disk, a folder not writable
                raise StoreError(
                    f"{path}: the game could not be made ({said_of(e)}); no file was left"
                ) from None
            raise
        return store

    @classmethod
    def open(
        cls, target: str | Path, read_only: bool = False, *, check_beside: bool = False
    ) -> FileStore:
        """An existing file, checked before anything is written, migrated after a backup.

        A file is opened READ-ONLY (``read_only``, nothing is ever written) when asked, or when
        the file or its folder cannot be written. Call ``writable()`` once the game has been
        read and found good: only then is the file opened for writing. ``check_beside``: the
        check of every page is left to the caller, to begin in a thread while it reads the
        game (``check_beside()``) and wait for (``damage()``, which ``writable()`` asks).
        """
        path = real_path(target)  # links followed first: the real file is the game
        regular_file(path)  # a FIFO, a device, a folder: refused before anything reads it
        log_beside = Path(f"{path}-wal").exists()  # removed when the last connection closes
        held = held_open(path)  # a killed desk leaves its log beside the game, but no lock
        elsewhere = log_beside if held is None else held
        no_index = _missing_shm(path)
        if no_index is not None:
            raise no_index
        revision = inspect_sqlite(path, check_pages=not check_beside)
        if revision is None:
            raise StoreError(f"{path}: an empty database, not an Airboss game; it was not changed")
        if revision not in revisions.known_revisions():
            raise StoreError(
                f"{path}: written by a newer Airboss (schema {revision}); "
                "update Airboss to open it. The file was not changed."
            )
        ro = read_only or not _can_write(path) or not _can_write(path.parent)
        unchecked = check_beside
        if revision != revisions.head_revision():
            if ro:
                raise StoreError(
                    f"{path}: written by an older Airboss and needs updating, but the file "
                    "cannot be written; copy it somewhere writable. It was not changed."
                )
            if unchecked:  # checked before the migration writes
                damage = damaged_file(path)
                if damage is not None:
                    raise damage
                unchecked = False
            _migrate_file(path)
        store = cls(path, read_only=ro)
        store._pages_unchecked = unchecked
        store.open_elsewhere = elsewhere
        store.log_beside = log_beside
        return store

    def game(self, game_id: str | None) -> Game:
        """``Store.game``; a file with no game at all and no write-ahead log beside it is
        named for what it most likely is (issue 31), not asked to name one of none."""
        if not self.log_beside and not self._rows("SELECT 1 FROM game LIMIT 1", {}):
            path = self.file
            raise StoreError(
                f"{path}: holds no game, and no write-ahead log ({path.name}-wal) lies beside "
                "it: a copy made while Airboss had the game open, without that file, which "
                "holds the game? Copy it too (or close the game in Airboss and copy again); "
                "the file was not changed."
            )
        return super().game(game_id)

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"{self.where}: the game is closed")
        return self._db

    def check_beside(self) -> None:
        """Begin the check of every page left by ``open(check_beside=True)`` in its thread
        (after a first import of a ruleset is forked: a process of one thread forks)."""
        if self._pages_unchecked and self._page_check is None:
            self._page_check = PageCheck(self.file)

    def damage(self) -> StoreError | None:
        """The check of every page left by ``open(check_beside=True)``, waited for (made
        now if it was not begun): the refusal naming the damage, or None."""
        if not self._pages_unchecked:
            return None
        pages, self._page_check = self._page_check, None
        self._pages_unchecked = False
        return pages.verdict() if pages is not None else damaged_file(self.file)

    def writable(self) -> None:
        damage = self.damage()  # never written before every page is found good
        if damage is not None:
            raise damage
        if self.read_only:
            return
        self.close()
        try:
            self._db = connect(self.file)
        except sqlite3.Error as e:
            raise StoreError(
                f"{self.where}: cannot be opened for writing ({said_of(e)}); nothing was written"
            ) from None

    def close(self) -> None:
        # the watcher (read-only) first: the last connection to close checkpoints the log and
        # removes the -wal and -shm files, which a read-only one cannot; one left behind would
        # tell the next desk that the game is open elsewhere
        for db in (self._watch, self._db):
            if db is not None:
                db.close()
        self._db = self._watch = None

    # -- statements ---------------------------------------------------------------------------

    def _counted(self, game_id: str) -> tuple[int, int]:
        """``Store._counted``: when the file holds no other game's events (a game file holds
        one), the count of the whole table, which SQLite takes from the pages of an index
        without stepping a row (issue 44: 11 ms of a 100,000-event open, now 2 ms; at every
        open and every check of a followed game)."""
        total, newest, others = self._rows(_COUNTED_ALONE, {"game": game_id})[0]
        if others:
            return super()._counted(game_id)
        return int(total or 0), int(newest or 0)

    def largest_event_row(self) -> int | None:
        """SQLite's ``dbstat`` table (its pages' cell headers, never a value; about a seventh
        of the work of measuring every field of every event); ``None`` where this SQLite is
        built without it."""
        try:
            rows = self._conn().execute(_LARGEST_EVENT_ROW).fetchall()
        except sqlite3.Error:
            return None
        return int(rows[0][0]) if rows and isinstance(rows[0][0], int) else None

    def _rows(self, sql: str, params: Params) -> list[tuple[Any, ...]]:
        try:
            return self._conn().execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.where}: cannot be read ({e})") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._conn()
        db.execute("BEGIN IMMEDIATE")  # the write lock now, not halfway through
        try:
            yield db
        except BaseException:
            if db.in_transaction:  # SQLite ends it itself on some errors (a full disk)
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _write(self, *batches: Batch) -> None:
        try:
            with self._transaction() as db:
                for sql, rows in batches:
                    db.executemany(sql, rows)
        except sqlite3.IntegrityError:
            raise ConcurrentAppend from None
        except sqlite3.Error as e:
            raise StoreError(
                f"{self.where}: could not write ({said_of(e)}); nothing was written"
            ) from None

    # -- the log read for a replay (issue 31) ---------------------------------------------------

    def read_checked(
        self, game_id: str, page: int = 2000
    ) -> Iterator[list[tuple[int, int, Event]]]:
        """``Store.read_checked``; on a computer of more than one core, a long log's chain of
        hashes is checked by a process of its own (``chain_worker``), started now, while its
        events are decoded here, so opening it takes about the time of the replay alone. Its
        verdict is taken once the log has been read to its end: the replay, whose result is
        not used before, may fail first (``GameSession.open`` then checks the chain here); a
        process that fails or takes too long, a break it found, and the events appended
        after it read the log are checked here."""
        worker = self._chain_worker(game_id)
        if worker is None:
            return super().read_checked(game_id, page)
        pages = self._read_apart(game_id, page, worker)
        weakref.finalize(pages, _stop, worker)  # a read given up before it began
        return pages

    def _read_apart(
        self, game_id: str, page: int, worker: subprocess.Popen[bytes]
    ) -> Iterator[list[tuple[int, int, Event]]]:
        try:
            expected, start = 1, 0
            while True:
                rows = self._rows(_PAGE_EVENTS, {"game": game_id, "start": start, "page": page})
                for r in rows:
                    if int(r[0]) != expected:  # a gap: where the chain breaks first, said
                        self.check_chain(game_id)
                        raise Tampered(self.where, expected)
                    expected += 1
                yield self.decoded(rows, 0, 1, 2)
                if len(rows) < page:
                    break
                start = expected - 1
            self._take_verdict(game_id, worker, expected - 1)
        finally:
            _stop(worker)

    def _chain_worker(self, game_id: str) -> subprocess.Popen[bytes] | None:
        """The process checking a long log's chain (``None``: check it here: a short log, a
        single core, a frozen bundle, or no process could be started)."""
        if getattr(sys, "frozen", False) or (os.cpu_count() or 1) < 2:
            return None
        if self.last_seq(game_id) < PARALLEL_CHAIN:
            return None
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
        try:
            return subprocess.Popen(
                [sys.executable, "-c", chain_worker.RUN, sqlite_uri(self.file, True), game_id],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return None

    def _take_verdict(self, game_id: str, worker: subprocess.Popen[bytes], last: int) -> None:
        """The chain checker's verdict on the log read to event ``last``: the chain's head;
        where it found a break or gave no verdict, the chain is checked here (``Tampered``
        naming the first event that breaks it, in the log's order)."""
        try:
            out, _ = worker.communicate(timeout=CHAIN_TIME_LIMIT)
            verdict = json.loads(out) if worker.returncode == 0 else None
        except (subprocess.TimeoutExpired, ValueError, OSError):
            verdict = None
        if not isinstance(verdict, dict) or not (
            isinstance(verdict.get("broken"), int)
            or (isinstance(verdict.get("seq"), int) and isinstance(verdict.get("hash"), str))
        ):
            self.check_chain(game_id)
            return
        if isinstance(verdict.get("broken"), int):  # said where, in order, by this process
            self.check_chain(game_id)
            return
        seq, digest = verdict["seq"], verdict["hash"]
        if seq < last:  # appended after the process read the log: the rest checked here
            self.check_chain(game_id, after=seq, prev=digest)
            return
        if seq > last:
            digest = self.hash_at(game_id, last) or ""
        if last >= self.heads.get(game_id, (0, ""))[0]:
            self.heads[game_id] = (last, digest)

    def _time(self, value: Any) -> datetime:
        return datetime.fromisoformat(value) if isinstance(value, str) else value

    def _stored_time(self, value: datetime) -> Any:
        return time_text(value)  # as ``strftime(TIME_FORMAT)`` writes it, quicker

    # -- what only a file does ----------------------------------------------------------------

    def data_version(self, game_id: str) -> int | None:
        """SQLite's ``PRAGMA data_version`` on a connection of its own: it changes whenever
        another connection (another window, another program) commits to the file."""
        try:
            if self.read_only and self._immutable and Path(f"{self.file}-wal").exists():
                # a station opened the file after this read-only desk did: an immutable
                # connection would never see its actions (issue 31), so reopen without it
                self.close()
                self._immutable = False
                self._reopened += 1
                self._db = connect(self.file, read_only=True)
            if self._watch is None:
                self._watch = connect(self.file, read_only=True)
            version = int(self._watch.execute("PRAGMA data_version").fetchone()[0])
            return version + (self._reopened << 40)
        except sqlite3.Error as e:
            raise StoreError(f"{self.where}: cannot be read any more ({e})") from None

    def save_copy(self, target: str | Path) -> Path:
        return backup(self._conn(), Path(target))

    def integrity_ok(self) -> bool:
        return bool(self._rows("PRAGMA integrity_check", {}) == [("ok",)])
