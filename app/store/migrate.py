"""Bringing a store's schema to the head revision with Alembic, on an SQLAlchemy connection.

Imported only when a schema is created or due for a migration, or for a server (issue 20):
opening a current game file never loads SQLAlchemy or Alembic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, delete, func, insert, inspect, select
from sqlalchemy.exc import ProgrammingError

from app.core.errors import EmptyStore, StoreError
from app.store import revisions, server_functions
from app.store.tables import InfoRow

#: the PostgreSQL advisory lock key held while the schema is checked or migrated ("airb")
MIGRATION_LOCK = 0x61697262


def _alembic_config(connection: Any) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(revisions.MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def current_revision(conn: Any) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    row = conn.exec_driver_sql("SELECT version_num FROM alembic_version").first()
    return str(row[0]) if row else None


def _functions(conn: Any) -> str | None:
    """The version of the server's own functions (``app.store.server_functions``) a
    PostgreSQL database holds; ``None`` if none."""
    info = InfoRow.__table__  # type: ignore[attr-defined]
    row = conn.execute(
        select(info.c.value).where(info.c.key == server_functions.VERSION_KEY)
    ).first()
    return None if row is None else str(row[0])


def _up_to_date(engine: Engine) -> bool:
    """The schema at the head revision, marked as Airboss's, and on PostgreSQL the server's
    functions of this version: nothing to do, seen without any lock (issue 46: a station
    never takes the migration's lock, which another station could hold to keep it out)."""
    with engine.connect() as conn:
        if current_revision(conn) != revisions.head_revision():
            return False
        info = InfoRow.__table__  # type: ignore[attr-defined]
        present = conn.execute(select(info.c.value).where(info.c.key == "format")).first()
        if present is None or present[0] != revisions.FORMAT:
            return False
        return conn.dialect.name != "postgresql" or _functions(conn) == server_functions.VERSION


def migrate(engine: Engine, where: str, before_upgrade: Callable[[], None] | None = None) -> None:
    """Bring the schema to the head revision (``before_upgrade`` runs first when there is
    something to do: the backup of a file), and on PostgreSQL install the server's own
    functions (``app.store.server_functions``). On PostgreSQL the check and any migration run
    under a transaction-level advisory lock, so stations opening an empty database at once
    migrate it once and never see each other's half-made tables; a database with nothing to
    do is not locked at all. A role that may not do what is to be done (a club's station) is
    told to have the club's umpire start the server with this Airboss."""
    if _up_to_date(engine):
        return
    head = revisions.head_revision()
    try:
        with engine.begin() as conn:
            _migrate(conn, where, head, before_upgrade)
    except ProgrammingError as e:
        if "permission denied" not in str(e.orig).lower() and "must be owner" not in str(e.orig):
            raise
        raise StoreError(
            f"{where}: the server was set up by another Airboss than this one, and only the "
            "club's umpire may update it: run `airboss club-server start` on the club's "
            "laptop with this version. Nothing was changed."
        ) from None


def _migrate(conn: Any, where: str, head: str, before_upgrade: Callable[[], None] | None) -> None:
    postgres = conn.dialect.name == "postgresql"
    if postgres:
        conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
    current = current_revision(conn)
    if current is None:
        others = inspect(conn).get_table_names()
        if others:
            raise StoreError(
                f"{where}: holds another program's tables ({', '.join(others[:3])}"
                f"{' ...' if len(others) > 3 else ''}), not Airboss games: give Airboss "
                "a database of its own. Nothing was changed."
            )
    if current is not None and current not in revisions.known_revisions():
        raise StoreError(
            f"{where}: written by a newer Airboss (schema {current}); "
            "update Airboss to open it. Nothing was changed."
        )
    if current != head:
        if before_upgrade is not None:
            before_upgrade()
        from alembic import command

        command.upgrade(_alembic_config(conn), "head")
    info = InfoRow.__table__  # type: ignore[attr-defined]
    present = conn.execute(select(info.c.value).where(info.c.key == "format")).first()
    if present is None:
        conn.execute(insert(info).values(key="format", value=revisions.FORMAT))
    elif present[0] != revisions.FORMAT:
        raise StoreError(f"{where}: not an Airboss database")
    if postgres and _functions(conn) != server_functions.VERSION:
        for statement in server_functions.INSTALL:
            conn.exec_driver_sql(statement)
        conn.execute(delete(info).where(info.c.key == server_functions.VERSION_KEY))
        conn.execute(
            insert(info).values(key=server_functions.VERSION_KEY, value=server_functions.VERSION)
        )


def check_schema(engine: Engine, where: str) -> None:
    """For a store opened read-only (issue 30): the schema is Airboss's, at the head revision,
    read without creating, locking or migrating anything."""
    head = revisions.head_revision()
    with engine.connect() as conn:
        current = current_revision(conn)
        if current is None:
            others = inspect(conn).get_table_names()
            if others:
                raise StoreError(
                    f"{where}: holds another program's tables, not Airboss games. "
                    "Nothing was changed."
                )
            raise EmptyStore(
                f"{where}: holds no Airboss games yet; opened read-only, nothing was created"
            )
        if current not in revisions.known_revisions():
            raise StoreError(
                f"{where}: written by a newer Airboss (schema {current}); "
                "update Airboss to open it. Nothing was changed."
            )
        if current != head or (
            conn.dialect.name == "postgresql" and _functions(conn) != server_functions.VERSION
        ):
            raise StoreError(
                f"{where}: its games are stored by another Airboss (schema {current}); "
                "opened read-only, nothing was changed: the club's umpire updates the server "
                "with `airboss club-server start`."
            )
