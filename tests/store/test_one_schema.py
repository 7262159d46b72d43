"""One schema (issue 36): the SQLModel tables (``app.store.tables``) are the one declaration;
the Alembic migrations and the SQL the sqlite3 path writes out as literals are checked against
them here, so the three can never drift apart unnoticed. Opening a game file still imports
no SQLAlchemy (issue 20): the check lives in the tests, not in the open path."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from sqlmodel import SQLModel

import app.store.tables  # noqa: F401 - registers the tables on SQLModel.metadata
from app.store import file_store, store
from app.store.chain import HASHED
from app.store.schema_sql import render
from app.store.tables import EventRow, GameRow


def _differences(url: str) -> list[object]:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, SQLModel.metadata)
    finally:
        engine.dispose()
    # alembic_version is Alembic's own table, not a declared one
    return [d for d in diff if "alembic_version" not in repr(d)]


def _migrated_new_file(path: Path) -> Path:
    """An empty database brought to the head revision by the migrations, as every game file
    was made before ``schema.sql``."""
    sqlite3.connect(path).close()
    file_store._migrate_file(path)
    return path


def test_the_migrations_make_the_declared_tables_in_a_game_file(tmp_path: Path) -> None:
    path = _migrated_new_file(tmp_path / "migrated.airboss")
    assert _differences(f"sqlite:///{path}") == []


def test_a_new_game_file_has_the_declared_tables(tmp_path: Path) -> None:
    path = tmp_path / "g.airboss"
    file_store.FileStore.create(path).close()
    assert _differences(f"sqlite:///{path}") == []


def test_schema_sql_is_the_tables_compiled_for_sqlite() -> None:
    """``app/store/schema.sql``, which makes every new game file, is what the SQLModel tables
    compile to (regenerate it with ``python -m app.store.schema_sql``)."""
    assert file_store.SCHEMA.read_text(encoding="utf-8") == render(), (
        "app/store/schema.sql is not the tables' schema: run "
        "`.venv/bin/python -m app.store.schema_sql > app/store/schema.sql`"
    )


def _shape(path: Path) -> dict[str, object]:
    """Everything of a file's schema that SQLite tells apart (not the text it was made with):
    each table's columns, keys and indexes, and the revision and format rows."""
    with closing(sqlite3.connect(path)) as db:
        shape: dict[str, object] = {}
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in sorted(tables):
            indexes = {}
            for row in db.execute(f'PRAGMA index_list("{t}")'):
                columns = [c[2] for c in db.execute(f'PRAGMA index_info("{row[1]}")')]
                name = row[1] if not row[1].startswith("sqlite_autoindex") else "(key)"
                indexes[name] = (bool(row[2]), row[3], columns)
            shape[t] = {
                "columns": sorted(db.execute(f'PRAGMA table_xinfo("{t}")').fetchall(), key=str),
                "foreign keys": sorted(db.execute(f'PRAGMA foreign_key_list("{t}")').fetchall()),
                "indexes": indexes,
            }
        shape["rows"] = (
            db.execute("SELECT * FROM alembic_version").fetchall(),
            db.execute("SELECT * FROM airboss_info").fetchall(),
        )
    return shape


def test_a_new_game_file_is_what_the_migrations_make(tmp_path: Path) -> None:
    """A file made from ``schema.sql`` and one the migrations made from nothing hold the same
    tables, columns, keys, indexes, revision and format: a later migration starts from either
    alike."""
    new = tmp_path / "new.airboss"
    file_store.FileStore.create(new).close()
    migrated = _migrated_new_file(tmp_path / "migrated.airboss")
    made, expected = _shape(new), _shape(migrated)
    for t, part in expected.items():  # columns in another order: compared by name
        if isinstance(part, dict):
            part["columns"] = sorted((c[1:] for c in part["columns"]), key=str)
            made_part = made[t]
            assert isinstance(made_part, dict)
            made_part["columns"] = sorted((c[1:] for c in made_part["columns"]), key=str)
    assert made == expected


def test_the_migrations_make_the_declared_tables_on_a_server(pg_url: str) -> None:
    from app.store import open_store

    open_store(pg_url).close()  # migrated to the head
    assert _differences("postgresql+psycopg://" + pg_url.split("://", 1)[1]) == []


def _columns(sql: str) -> list[str]:
    """The column list of an INSERT or SELECT written out as a literal."""
    m = re.search(r"INSERT INTO \w+ \(([^)]*)\)", sql) or re.search(r"SELECT (.*?) FROM", sql)
    assert m, sql
    return [c.strip() for c in m.group(1).split(",")]


def test_the_sqlite3_paths_column_lists_are_the_tables_columns() -> None:
    event = [c.name for c in EventRow.__table__.columns if c.name != "id"]  # type: ignore[attr-defined]
    game = [c.name for c in GameRow.__table__.columns]  # type: ignore[attr-defined]
    assert sorted(store.EVENT_COLUMNS) == sorted(event)
    assert sorted(store._GAME_COLUMNS) == sorted(game)
    for sql in (store.INSERT_EVENT, store._SELECT_EVENTS):
        assert _columns(sql) == list(store.EVENT_COLUMNS)
    assert re.findall(r":(\w+)", store.INSERT_EVENT) == list(store.EVENT_COLUMNS)
    for sql in (store.INSERT_GAME, store._SELECT_GAMES):
        assert _columns(sql) == list(store._GAME_COLUMNS)
    assert re.findall(r":(\w+)", store.INSERT_GAME) == list(store._GAME_COLUMNS)
    assert list(HASHED) == list(store.EVENT_COLUMNS[: len(HASHED)])  # the chain's columns
    assert store.EVENT_COLUMNS[len(HASHED) :] == ("hash",)
    # what a game file may hold (anything else is refused at open, issue 30)
    assert file_store.OUR_TABLES == set(SQLModel.metadata.tables) | {"alembic_version"}
    assert file_store.OUR_INDEXES == {
        i.name for t in SQLModel.metadata.tables.values() for i in t.indexes
    }


def test_making_and_opening_a_game_file_import_no_sqlalchemy(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom app.session import GameSession\nfrom app.store import open_store\n"
        f"GameSession.create({str(tmp_path / 'g.airboss')!r}, ruleset='phantoms', title='L')"
        ".close()\n"
        f"s = open_store({str(tmp_path / 'g.airboss')!r})\n"
        "g = s.game(None)\ns.check_chain(g.id)\nassert s.events(g.id)\ns.close()\n"
        "assert 'sqlalchemy' not in sys.modules, 'sqlalchemy imported'\n"
        "assert 'alembic' not in sys.modules, 'alembic imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
