"""The store: SQLite game files in WAL mode, migrations, refusal of foreign or newer files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.session import GameSession
from app.store import StoreError, create_store, open_store
from app.store.revisions import head_revision


def make_game(path: Path) -> GameSession:
    s = GameSession.create(path, ruleset="skirmish", title="Store test")
    a = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1", pilot="ace")
    b = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.perform("gun_attack", {"attacker": a, "target": b, "hit_number": 6}, TableDice([1]))
    return s


def test_file_is_sqlite_in_wal_mode(tmp_path: Path) -> None:
    s = make_game(tmp_path / "g.airboss")
    s.close()
    with sqlite3.connect(tmp_path / "g.airboss") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert (
            db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == head_revision()
        )


def test_reopen_gives_the_same_projection(tmp_path: Path) -> None:
    s = make_game(tmp_path / "g.airboss")
    state, events = s.engagement, s.events()
    s.close()
    r = GameSession.open(tmp_path / "g.airboss")
    assert r.engagement == state
    assert r.events() == events
    r.close()


def test_migrations_run_on_an_empty_file(tmp_path: Path) -> None:
    store = create_store(tmp_path / "new.airboss")
    assert store.games() == []
    assert store.integrity_ok()
    store.close()
    open_store(tmp_path / "new.airboss").close()


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    p = tmp_path / "g.airboss"
    p.write_bytes(b"precious")
    with pytest.raises(StoreError, match="exists already"):
        GameSession.create(p, ruleset="skirmish", title="x")
    assert p.read_bytes() == b"precious"


def test_corrupt_file_refused_and_untouched(tmp_path: Path) -> None:
    p = tmp_path / "bad.airboss"
    p.write_bytes(b"this is not a database at all" * 100)
    before = p.read_bytes()
    with pytest.raises(StoreError, match="not a readable Airboss game"):
        GameSession.open(p)
    assert p.read_bytes() == before


def test_foreign_sqlite_refused_and_untouched(tmp_path: Path) -> None:
    p = tmp_path / "other.airboss"
    with sqlite3.connect(p) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    before = p.read_bytes()
    with pytest.raises(StoreError, match="not an Airboss game"):
        GameSession.open(p)
    assert p.read_bytes() == before
    assert not (tmp_path / "other.airboss-wal").exists()


def test_newer_file_refused_and_untouched(tmp_path: Path) -> None:
    p = tmp_path / "g.airboss"
    make_game(p).close()
    with sqlite3.connect(p) as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    before = p.read_bytes()
    with pytest.raises(StoreError, match="newer Airboss"):
        GameSession.open(p)
    assert p.read_bytes() == before


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such file"):
        GameSession.open(tmp_path / "nope.airboss")


def test_game_needing_an_uninstalled_ruleset(tmp_path: Path) -> None:
    p = tmp_path / "g.airboss"
    make_game(p).close()
    with sqlite3.connect(p) as db:
        db.execute("UPDATE game SET ruleset = 'kriegsspiel'")
    with pytest.raises(StoreError, match="not installed"):
        GameSession.open(p)


def test_concurrent_append_is_refused_not_overwritten(tmp_path: Path) -> None:
    """DESIGN.md Storage: an append that lost the race is refused; nothing is overwritten."""
    p = tmp_path / "g.airboss"
    make_game(p).close()
    one, two = GameSession.open(p), GameSession.open(p)
    one.clock.next_step()
    with pytest.raises(StoreError, match="another station"):
        two.clock.next_step()
    # the loser was brought up to date and can act again
    assert two.engagement == one.engagement
    two.clock.next_step()
    one.log.refresh()
    assert one.engagement == two.engagement
    assert one.engagement.step == 2
    one.close()
    two.close()


def test_snapshots_make_reopen_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import app.session.log as session

    monkeypatch.setattr(session, "SNAPSHOT_EVERY", 5)
    p = tmp_path / "g.airboss"
    s = make_game(p)
    for _ in range(12):
        s.clock.next_step()
    s.undo()
    state = s.engagement
    s.close()
    store = open_store(p)
    game = store.game(None)
    assert store.latest_snapshot(game.id) is not None
    store.close()
    r = GameSession.open(p)
    assert r.engagement == state
    r.undo()  # deeper than the snapshot: served by replay from the store
    r.redo()
    r.close()


def test_an_older_file_is_backed_up_before_it_is_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DESIGN.md Storage: opening an older game file migrates it after a backup copy."""
    import app.store.revisions as store_module

    p = tmp_path / "old.airboss"
    game = make_game(p)
    events = game.events()
    game.close()
    # this build pretends to know a newer schema, so the file on disk is the older one
    monkeypatch.setattr(store_module, "head_revision", lambda: "9999")
    known = store_module.known_revisions()
    monkeypatch.setattr(store_module, "known_revisions", lambda: {*known, "9999"})
    open_store(p).close()
    backup = tmp_path / "old.airboss.before-migration.bak"
    with GameSession.open(backup) as s:
        assert s.events() == events
    open_store(p).close()  # a second opening never writes over the first backup
    assert (tmp_path / "old.airboss.before-migration-2.bak").exists()
    with GameSession.open(backup) as s:
        assert s.events() == events


def test_a_file_of_the_first_schema_is_migrated_chained_and_backed_up(tmp_path: Path) -> None:
    """Issue 30's migrations (0002 the action ids, 0003 the chain of hashes) on a real file
    of the first schema: backed up, migrated, its log chained as it stood, and it plays on."""
    import sqlite3

    from alembic import command
    from sqlalchemy import create_engine

    from app.store.migrate import _alembic_config

    p = tmp_path / "first.airboss"
    game = make_game(p)
    events, gid = game.events(), game.game_id
    game.close()
    engine = create_engine(f"sqlite:///{p}")
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0001")
    engine.dispose()
    with sqlite3.connect(p) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
        assert "hash" not in [r[1] for r in db.execute("PRAGMA table_info(event)")]
    db.close()
    with GameSession.open(p) as s:
        assert s.events() == events
        assert s.store.check_chain(gid)[0] == events[-1].seq
        s.clock.next_step()
    assert (tmp_path / "first.airboss.before-migration.bak").exists()
    with sqlite3.connect(p) as db:
        now = db.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    db.close()
    assert now == head_revision()


def test_iter_events_reads_the_log_in_pages(tmp_path: Path) -> None:
    """The paged reader returns the same log as ``events`` (issue 20: panels keep a summary
    of a long log, never the whole log at once)."""
    from app.session import GameSession

    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Pages")
    for i in range(7):
        s.add_aircraft(side="Blue", type_id="jet", name=f"Jet {i}")
    whole = s.events()
    paged = list(s.store.iter_events(s.game_id, page=3))
    assert [e.seq for e in paged] == [e.seq for e in whole]
    assert [e.seq for e in s.store.iter_events(s.game_id, after=4, page=2)] == [
        e.seq for e in whole if e.seq > 4
    ]
    # the same log as rows with an envelope's fields, for the log index (no envelope built)
    rows = list(s.store.iter_stored(s.game_id, after=2, page=3))
    assert [tuple(r) for r in rows] == [
        (e.game, e.seq, e.action, e.time, e.actor, e.rule, e.narrative, e.event)
        for e in whole
        if e.seq > 2
    ]
    s.close()


def test_a_game_file_is_read_and_written_without_sqlalchemy(tmp_path: Path) -> None:
    """Issue 20: SQLAlchemy, SQLModel and Alembic are off the path of opening a current game
    file and acting on it (they are for servers and migrations)."""
    import subprocess
    import sys

    path = tmp_path / "g.airboss"
    make_game(path).close()
    site = Path(__file__).parents[1] / "fixtures" / "site"  # the test ruleset
    code = (
        f"import sys\nsys.path.insert(0, {str(site)!r})\nfrom app.session import GameSession\n"
        f"s = GameSession.open({str(path)!r})\n"
        "s.add_aircraft(side='Red', type_id='jet', name='Late')\ns.undo()\ns.close()\n"
        "heavy = [m for m in ('sqlalchemy', 'sqlmodel', 'alembic') if m in sys.modules]\n"
        "assert heavy == [], heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with GameSession.open(path) as s:
        assert [a.name for a in s.engagement.aircraft.values()][-1] != "Late"
        assert s.events()[-1].event.kind == "reverted"


def test_a_snapshot_from_before_the_clock_step_was_named_still_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20: a snapshot written before the state kept the clock step's sequence number
    opens with it read from the log's clock steps and undo records, as a full replay gives."""
    import json

    import app.session.log as session_module

    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", 4)
    path = tmp_path / "old.airboss"
    s = make_game(path)
    for _ in range(5):
        s.clock.next_step()
    s.undo()  # the last step does not count
    for _ in range(6):
        s.add_aircraft(side="Blue", type_id="jet", name="Late")
    replayed = s.engagement.clock_seq
    s.close()
    assert replayed > 0
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seq, data FROM snapshot").fetchall()
        assert rows
        for seq, data in rows:  # as the first release wrote them
            snap = json.loads(data)
            del snap["state"]["clock_seq"]
            db.execute(
                "UPDATE snapshot SET data = ? WHERE seq = ?", (json.dumps(snap).encode(), seq)
            )
    with GameSession.open(path) as r:
        assert r.engagement.clock_seq == replayed


def test_the_log_read_from_its_newest_event_back(tmp_path: Path) -> None:
    s = make_game(tmp_path / "g.airboss")
    for _ in range(5):
        s.clock.next_step()
    whole = [e.seq for e in s.events()]
    assert [e.seq for e in s.store.iter_events_newest_first(s.game_id, page=2)] == whole[::-1]
    s.close()


def test_a_game_closed_after_being_followed_leaves_no_log_beside_it(tmp_path: Path) -> None:
    """A desk follows its game's changes on a read-only connection of its own; closing the game
    closes that one first, so the last connection checkpoints and removes the -wal and -shm
    files (left behind, they told the next desk the game was open elsewhere)."""
    path = tmp_path / "g.airboss"
    make_game(path).close()
    s = GameSession.open(path)
    s.clock.next_step()
    assert s.store.data_version(s.game_id) is not None  # the watching connection is open
    s.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.airboss"]
    again = open_store(path)
    assert not again.open_elsewhere
    again.close()
