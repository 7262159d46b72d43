"""One schema (issue 36): the SQLModel tables (``app.store.tables``) are the one declaration;
the Alembic migrations and the SQL the sqlite3 path writes out as literals are checked against
them here, so the three can never drift apart unnoticed. Opening a game file still imports
no SQLAlchemy (issue 20): the check lives in the tests, not in the open path."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from sqlmodel import SQLModel

import app.store.tables  # noqa: F401 - registers the tables on SQLModel.metadata
from app.store import file_store, store
from app.store.chain import HASHED
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


def test_the_migrations_make_the_declared_tables_in_a_game_file(tmp_path: Path) -> None:
    path = tmp_path / "g.airboss"
    file_store.FileStore.create(path).close()
    assert _differences(f"sqlite:///{path}") == []


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


def test_opening_a_game_file_imports_no_sqlalchemy(tmp_path: Path) -> None:
    from app.session import GameSession

    GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Light").close()
    code = (
        "import sys\nfrom app.store import open_store\n"
        f"s = open_store({str(tmp_path / 'g.airboss')!r})\n"
        "g = s.game(None)\ns.check_chain(g.id)\nassert s.events(g.id)\ns.close()\n"
        "assert 'sqlalchemy' not in sys.modules, 'sqlalchemy imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
