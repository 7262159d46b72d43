"""Issue 36: the server store reads and writes through SQLAlchemy constructs built from the
SQLModel tables (``app.store.server_sql``). Every statement a store runs while a game is
created, played, opened, checked, copied and read has its construct, and each construct gives
the very rows the SQL text the file path runs gives, on a game file and on PostgreSQL."""

from __future__ import annotations

import ast
import inspect
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Insert, Select, text
from sqlalchemy.dialects import sqlite as sqlite_dialect

from app.core.dice import TableDice
from app.session import GameSession
from app.store import bounds, file_store, server_sql, summary
from app.store.outline import STACK_KINDS, outline
from app.store.store import Store


def _file_only() -> set[str]:
    """The SQL only the sqlite3 path runs (its PRAGMAs, the kept summary): every string
    written in ``file_store`` and ``summary``."""
    found: set[str] = set()
    for module in (file_store, summary):
        tree = ast.parse(inspect.getsource(module))
        found |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        found |= {v for v in vars(module).values() if isinstance(v, str)}
    return found


def _play(path: Path) -> str:
    """A game played, undone, snapshotted, opened again and copied: what a store runs."""
    s = GameSession.create(path, ruleset="skirmish", title="Everything")
    a = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    b = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.perform("gun_attack", {"attacker": a, "target": b}, TableDice([2]))
    s.undo()
    s.perform("gun_attack", {"attacker": a, "target": b}, TableDice([5]))
    gid = s.game_id
    store = s.store
    store.save_snapshot(gid, 2, b"an older snapshot, never read")  # the newest is read
    store.save_snapshot(gid, s.engagement.seq, s.log.timeline.snapshot())
    s.close()
    with GameSession.open(path) as again:
        store = again.store
        store.check_log(gid)
        store.check_recent(gid, store.heads[gid])
        assert store._first_gap(gid) == store.last_seq(gid) + 1
        assert store.latest_snapshot(gid) is not None
        store.last_action_time(gid)
        store.saved("no such action")
        store.action(gid, 2)
        list(store.iter_events_newest_first(gid))
        list(store.iter_stored(gid))
        list(outline(store, gid))
        bounds.check_games(store, store.where)
        bounds.check_log(store, store.where, gid)
        again.save_copy(path.with_name("copy.airboss"))
    return gid


def test_every_statement_a_store_runs_has_its_construct(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: set[str] = set()
    rows, write = file_store.FileStore._rows, file_store.FileStore._write

    def recorded_rows(self: Store, sql: str, params: Any) -> Any:
        ran.add(sql)
        return rows(self, sql, params)  # type: ignore[arg-type]

    def recorded_write(self: Store, *batches: Any) -> None:
        ran.update(sql for sql, _ in batches)
        write(self, *batches)  # type: ignore[arg-type]

    monkeypatch.setattr(file_store.FileStore, "_rows", recorded_rows)
    monkeypatch.setattr(file_store.FileStore, "_write", recorded_write)
    _play(tmp_path / "g.airboss")
    shared = ran - _file_only()
    assert len(shared) >= 15, sorted(shared)
    missing = sorted(shared - set(server_sql.STATEMENTS))
    assert missing == [], "statements with no construct in app.store.server_sql"


@pytest.fixture
def game_file(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    path = tmp_path / "g.airboss"
    yield path, _play(path)


def _params(gid: str) -> dict[str, Any]:
    """A value for every parameter any statement takes (each takes the ones it names)."""
    return {
        "game": gid,
        "seq": 3,
        "start": 4,  # a page of 2 after it, or before it going back
        "page": 2,
        "action": 2,
        "uid": "none/0",
        "payload": 10,
        "text": 8,
        **{f"k{i}": kind for i, kind in enumerate(STACK_KINDS)},
    }


def _selects() -> list[tuple[str, Select[Any]]]:
    return [(sql, q) for sql, q in server_sql.STATEMENTS.items() if isinstance(q, Select)]


def test_the_constructs_are_built_from_the_tables_and_cover_reads_and_writes() -> None:
    inserts = [q for q in server_sql.STATEMENTS.values() if isinstance(q, Insert)]
    assert {q.table.name for q in inserts} == {"game", "event", "snapshot"}
    for _, q in _selects():
        assert {t.name for t in q.get_final_froms()} <= {"game", "event", "snapshot"}


def test_each_construct_gives_the_rows_of_its_sql_in_a_game_file(
    game_file: tuple[Path, str],
) -> None:
    path, gid = game_file
    params = _params(gid)
    db = sqlite3.connect(path)
    try:
        for sql, q in _selects():
            compiled = q.compile(dialect=sqlite_dialect.dialect(paramstyle="named"))
            bound = {**compiled.params, **params}
            by_text = db.execute(sql, params).fetchall()
            by_construct = db.execute(str(compiled), bound).fetchall()
            assert by_construct == by_text, sql
            assert by_text or ":uid" in sql, f"no rows to compare: {sql}"
    finally:
        db.close()


def test_each_construct_gives_the_rows_of_its_sql_on_a_server(
    pg_url: str, game_file: tuple[Path, str]
) -> None:
    from app.store import open_store

    path, gid = game_file
    with GameSession.open(path) as s:
        s.save_copy(pg_url)  # the game and its whole log on the server
    store = open_store(pg_url)
    try:
        store.save_snapshot(gid, 4, b"a snapshot")  # through its construct
        params = _params(gid)
        engine = store.engine  # type: ignore[attr-defined]
        with engine.connect() as conn:
            for sql, q in _selects():
                by_text = [tuple(r) for r in conn.execute(text(sql), params)]
                by_construct = [tuple(r) for r in conn.execute(q, params)]
                assert by_construct == by_text, sql
        assert store.latest_snapshot(gid) == (4, b"a snapshot")
        assert [e.seq for e in store.events(gid)] == [e.seq for e in open_store(path).events(gid)]
    finally:
        store.close()


def test_a_statement_with_no_construct_still_runs_bound(pg_url: str) -> None:
    """A statement added to the file path and not yet to ``server_sql`` is not lost on a
    server: it runs as text, its values bound (and the test above names it)."""
    from app.store import open_store

    store = open_store(pg_url)
    try:
        assert store._rows("SELECT :n + 1", {"n": 41}) == [(42,)]
    finally:
        store.close()
