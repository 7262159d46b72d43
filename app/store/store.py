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
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, func, insert, select
from sqlalchemy.exc import IntegrityError

from app.core.events import Envelope, event_from_json, event_to_json
from app.store.tables import EventRow, GameRow, InfoRow, SnapshotRow

MIGRATIONS = Path(__file__).parent / "migrations"
FORMAT = "airboss"


class StoreError(Exception):
    """A store that cannot be used: the message names the file or database and the reason."""


class ConcurrentAppend(StoreError):
    """Another station appended to this game first; nothing of ours was written."""


def _alembic_config(connection: Any = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def known_revisions() -> set[str]:
    return {s.revision for s in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}


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


def _sqlite_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}")
    sync = _sync_mode()

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
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
        return create_engine(url)
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
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
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
            row = db.execute("SELECT version_num FROM alembic_version").fetchone()
            return str(row[0]) if row else None
    except sqlite3.DatabaseError as e:
        raise StoreError(f"{path}: not a readable Airboss game ({e}); it was not changed") from None


class Store:
    """One database holding one game (a file) or many (a server)."""

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        self.where = where

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def create(cls, target: str | Path) -> Store:
        """A new store: a new SQLite file (refused if the file exists) or a server URL."""
        if is_url(target):
            store = cls(_server_engine(str(target)), str(target))
        else:
            path = Path(target)
            if path.exists():
                raise StoreError(f"{path}: a file of that name exists already; choose another")
            path.parent.mkdir(parents=True, exist_ok=True)
            store = cls(_sqlite_engine(path), str(path))
        store._migrate(backup=None)
        return store

    @classmethod
    def open(cls, target: str | Path) -> Store:
        """An existing store, checked before anything is written, migrated after a backup."""
        if is_url(target):
            store = cls(_server_engine(str(target)), str(target))
            store._migrate(backup=None)
            return store
        path = Path(target)
        revision = inspect_sqlite(path)
        if revision is None:
            raise StoreError(f"{path}: an empty database, not an Airboss game; it was not changed")
        if revision not in known_revisions():
            raise StoreError(
                f"{path}: written by a newer Airboss (schema {revision}); "
                "update Airboss to open it. The file was not changed."
            )
        store = cls(_sqlite_engine(path), str(path))
        if revision != head_revision():
            store._migrate(backup=path)
        return store

    def _migrate(self, backup: Path | None) -> None:
        if backup is not None:
            # through SQLite's backup API, so what is still in the WAL is in the copy too
            copy = backup.with_name(f"{backup.name}.before-migration.bak")
            n = 1
            while copy.exists():
                n += 1
                copy = backup.with_name(f"{backup.name}.before-migration-{n}.bak")
            self.save_copy(copy)
        with self.engine.begin() as conn:
            command.upgrade(_alembic_config(conn), "head")
            present = conn.execute(select(InfoRow).where(InfoRow.key == "format")).first()
            if present is None:
                conn.execute(insert(InfoRow).values(key="format", value=FORMAT))
            elif present.value != FORMAT:
                raise StoreError(f"{self.where}: not an Airboss database")

    def close(self) -> None:
        self.engine.dispose()

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
                conn.execute(insert(EventRow.__table__), rows)
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
        t = EventRow.__table__
        q = self._select().where(t.c.game_id == game_id, t.c.seq > after).order_by(t.c.seq)
        return list(self._rows(q))

    def action(self, game_id: str, action: int) -> list[Envelope]:
        t = EventRow.__table__
        q = self._select().where(t.c.game_id == game_id, t.c.action == action).order_by(t.c.seq)
        return list(self._rows(q))

    # -- snapshots ----------------------------------------------------------------------------

    def save_snapshot(self, game_id: str, seq: int, data: bytes) -> None:
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
                with closing(sqlite3.connect(path)) as dst:
                    src.backup(dst)  # type: ignore[union-attr]
        except (sqlite3.Error, OSError) as e:
            path.unlink(missing_ok=True)
            raise StoreError(f"could not copy the game to {path}: {e}") from None
        return path

    def integrity_ok(self) -> bool:
        """SQLite's own check of the file (always true for a server)."""
        if self.engine.dialect.name != "sqlite":
            return True
        with self.engine.connect() as conn:
            return conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
