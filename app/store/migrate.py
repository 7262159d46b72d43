"""Bringing a store's schema to the head revision with Alembic, on an SQLAlchemy connection.

Imported only when a schema is created or due for a migration, or for a server (issue 20):
opening a current game file never loads SQLAlchemy or Alembic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, func, insert, inspect, select

from app.store import revisions
from app.store.errors import EmptyStore, StoreError
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


def migrate(engine: Engine, where: str, before_upgrade: Callable[[], None] | None = None) -> None:
    """Bring the schema to the head revision (``before_upgrade`` runs first when there is
    something to do: the backup of a file). On PostgreSQL the check and any migration run
    under a transaction-level advisory lock, so stations opening an empty database at once
    migrate it once and never see each other's half-made tables."""
    head = revisions.head_revision()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
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
        if current != head:
            raise StoreError(
                f"{where}: its games are stored by an older Airboss (schema {current}); "
                "opened read-only, nothing was changed: the club's umpire updates the server "
                "with `airboss club-server start`, or a station opens it."
            )
