"""Tamper-evident history (issue 30): each event records the hash of its columns and of the
event before it; an event changed or removed outside Airboss is named, at its seq, when the
game is opened and while a desk follows it, and the game is read-only from then on. A game
file whose schema holds anything Airboss did not make is refused, unchanged."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path

import psycopg
import pytest

from app.core.errors import RuleViolation, Tampered
from app.session import GameSession
from app.store import StoreError


def _game(target: str | Path) -> GameSession:
    s = GameSession.create(target, ruleset="skirmish", title="Honest")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    for _ in range(4):
        s.clock.next_step()
    return s


def _sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute(statement, args)
    db.close()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("change", "seq"),
    [
        ("UPDATE event SET narrative = 'Red 1 shot down' WHERE seq = 3", 3),
        ("UPDATE event SET payload = replace(payload, ':2', ':3') WHERE seq = 5", 5),
        ("UPDATE event SET time = '2020-01-01 00:00:00.000000' WHERE seq = 2", 2),
        ("DELETE FROM event WHERE seq = 4", 4),
    ],
)
def test_a_file_changed_outside_airboss_is_named_at_open(tmp_path: Path, change, seq) -> None:
    path = tmp_path / "g.airboss"
    _game(path).close()
    _sql(path, change)
    with pytest.raises(Tampered, match=f"changed outside Airboss at seq {seq};") as e:
        GameSession.open(path)
    assert e.value.seq == seq


@pytest.mark.parametrize("other", [None, "aa-before", "zz-after"])
def test_an_event_removed_is_named_even_with_another_games_event_in_its_place(
    tmp_path: Path, other: str | None
) -> None:
    """The events of a one-game file are counted from the pages of an index (issue 44); a
    removed event hidden by another game's row put in (so the file holds as many rows as the
    newest's number) is still named: another game's rows make the game's own count."""
    path = tmp_path / "g.airboss"
    s = _game(path)
    while s.engagement.seq < 520:  # a snapshot past the event removed: its chain not read again
        s.clock.next_step()
    s.close()
    _sql(path, "DELETE FROM event WHERE seq = 4")
    if other is None:  # removed, nothing put in its place
        with pytest.raises(Tampered, match="changed outside Airboss at seq 4;"):
            GameSession.open(path)
        return
    _sql(
        path,
        "INSERT INTO event (seq, action, time, actor, rule, narrative, kind, payload, id, "
        "game_id) SELECT seq, action, time, actor, rule, narrative, kind, payload, id + 1000, ? "
        "FROM event WHERE seq = 3",
        other,
    )
    with pytest.raises(Tampered, match="changed outside Airboss at seq 4;"):
        GameSession.open(path)


def test_a_file_changed_while_a_desk_follows_is_seen_live(tmp_path: Path) -> None:
    path = tmp_path / "g.airboss"
    station = _game(path)
    desk = GameSession.open(path)
    desk.log.follow()
    station.clock.next_step()
    assert desk.log.follow()  # an honest append: taken in
    last = station.engagement.seq
    _sql(path, "UPDATE event SET narrative = 'forged' WHERE seq = ?", last)
    with pytest.raises(Tampered, match=f"at seq {last};"):
        desk.log.follow()
    assert desk.read_only
    with pytest.raises(RuleViolation, match="read-only"):
        desk.clock.next_step()
    desk.close()
    station.close()


def test_an_event_removed_while_a_desk_follows_is_seen_live(tmp_path: Path) -> None:
    path = tmp_path / "g.airboss"
    station = _game(path)
    desk = GameSession.open(path)
    desk.log.follow()
    _sql(path, "DELETE FROM event WHERE seq = 2")
    station.close()
    with pytest.raises(Tampered, match="at seq 2;"):
        desk.log.follow()
    desk.close()


def test_a_server_log_edited_or_cut_with_psql_is_seen_live_and_at_reopen(pg_url: str) -> None:
    """The server's owner edits an event with psql (no station announces it): a following
    desk says so within about a second; reopening the game says where, and replays nothing."""
    station = _game(pg_url)
    gid = station.game_id
    desk = GameSession.open(pg_url, game=gid)
    desk.log.follow()
    station.clock.next_step()
    deadline = time.monotonic() + 5
    while desk.engagement != station.engagement and time.monotonic() < deadline:
        desk.log.follow()
        time.sleep(0.1)
    assert desk.engagement == station.engagement
    last = station.engagement.seq
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE event SET narrative = 'forged' WHERE game_id = %s AND seq = %s", (gid, last)
        )
    deadline = time.monotonic() + 5
    with pytest.raises(Tampered, match=f"at seq {last};"):
        while time.monotonic() < deadline:
            desk.log.follow()
            time.sleep(0.2)
    assert desk.read_only
    with pytest.raises(Tampered, match=f"at seq {last};"):
        GameSession.open(pg_url, game=gid)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DELETE FROM event WHERE game_id = %s AND seq = 2", (gid,))
    with pytest.raises(Tampered, match="at seq 2;"):
        GameSession.open(pg_url, game=gid, read_only=True)
    desk.close()
    station.close()


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE TRIGGER gone AFTER INSERT ON event BEGIN DELETE FROM event WHERE seq = 1; END",
        "CREATE VIEW everything AS SELECT * FROM event",
        "CREATE TABLE notes (x TEXT)",
        "CREATE INDEX ix_mine ON event (kind)",
    ],
)
def test_a_file_whose_schema_holds_what_airboss_did_not_make_is_refused_unchanged(
    tmp_path: Path, schema: str
) -> None:
    path = tmp_path / "g.airboss"
    _game(path).close()
    _sql(path, schema)
    before = _sha(path)
    for read_only in (False, True):
        with pytest.raises(StoreError, match="Airboss did not make") as e:
            GameSession.open(path, read_only=read_only)
        assert "not changed" in str(e.value)
    assert _sha(path) == before
    assert not Path(f"{path}-wal").exists()


@pytest.mark.parametrize(
    ("change", "seq"),
    [
        ("UPDATE event SET narrative = 'forged' WHERE seq = 7", 7),  # after the snapshot
        ("DELETE FROM event WHERE seq = 2", 2),  # before it: a gap
        ("UPDATE event SET hash = 'x' WHERE seq = 5", 5),  # the snapshot's own event
    ],
)
def test_a_game_with_a_snapshot_is_checked_from_it_at_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, seq: int
) -> None:
    """Opening a long game checks its chain from the newest snapshot, which recorded its
    event's hash when Airboss wrote it (issue 30: opening stays fast), and that no event is
    missing anywhere."""
    import app.session.log

    monkeypatch.setattr(app.session.log, "SNAPSHOT_EVERY", 5)
    path = tmp_path / "g.airboss"
    s = _game(path)  # 7 events: a snapshot at 5
    s.clock.next_step()
    s.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT seq, head IS NOT NULL FROM snapshot").fetchall() == [(5, 1)]
    db.close()
    GameSession.open(path).close()  # whole
    _sql(path, change)
    with pytest.raises(Tampered, match=f"at seq {seq};"):
        GameSession.open(path)


def test_an_old_event_edited_with_psql_is_seen_live(pg_url: str, monkeypatch) -> None:
    """An event far behind what the desk holds (beyond the recent check's window), changed on
    the server: the server's count of changed rows makes the desk check the whole log."""
    from app.store import store as store_module

    original = store_module.Store.check_recent
    monkeypatch.setattr(
        store_module.Store,
        "check_recent",
        lambda self, g, head, window=1: original(self, g, head, 1),
    )
    station = _game(pg_url)
    desk = GameSession.open(pg_url, game=station.game_id)
    desk.log.follow()
    time.sleep(1.1)
    desk.log.follow()  # the server's count of changed rows read once
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE event SET narrative = 'forged' WHERE game_id = %s AND seq = 2",
            (station.game_id,),
        )
    deadline = time.monotonic() + 6
    with pytest.raises(Tampered, match="at seq 2;"):
        while time.monotonic() < deadline:
            desk.log.follow()
            time.sleep(0.2)
    desk.close()
    station.close()


def test_an_event_before_the_snapshot_edited_in_a_file_is_found_by_the_desk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    """Opening checks the chain from the newest snapshot (issue 30: opening stays fast), so an
    event changed before it opens; the desk then checks the whole log in the background and
    says where it was changed, the game read-only from then on, nothing written."""
    import app.session.log
    from app.ui.model import EngagementModel

    monkeypatch.setattr(app.session.log, "SNAPSHOT_EVERY", 5)
    path = tmp_path / "g.airboss"
    s = _game(path)  # 7 events: a snapshot at 5
    s.clock.next_step()
    s.close()
    _sql(path, "UPDATE event SET narrative = 'forged' WHERE seq = 3")
    opened = GameSession.open(path)  # from the snapshot: the change is behind it
    with pytest.raises(Tampered, match="at seq 3;"):
        opened.log.check_history()
    model = EngagementModel()
    said: list[str] = []
    model.refused.connect(said.append)
    model.set_session(opened)
    qtbot.waitUntil(lambda: not model.can_act, timeout=10_000)
    assert any("changed outside Airboss at seq 3" in m and "read-only" in m for m in said), said
    before = _sha(path)
    model.set_session(None)
    assert _sha(path) == before


@pytest.mark.parametrize(
    "change",
    [
        # an undo record made to undo another action: the stacks are built from it before
        # its place in the chain is read
        "UPDATE event SET payload = replace(payload, ':7', ':2') WHERE kind = 'reverted'",
        "UPDATE event SET payload = '{not json' WHERE kind = 'reverted'",
        "UPDATE event SET kind = 'x', payload = '{\"kind\": \"x\"}' WHERE kind = 'reverted'",
    ],
)
def test_a_log_with_no_snapshot_changed_where_its_replay_breaks_first_is_said_changed(
    tmp_path: Path, change: str
) -> None:
    """Issue 31: with no snapshot the chain is checked as the log is read for its replay,
    once; whatever breaks the replay first, a changed log is said changed, at its seq."""
    path = tmp_path / "g.airboss"
    s = _game(path)
    s.undo()  # reverts action 7 (a clock step) at seq 8
    s.clock.next_step()
    s.close()
    _sql(path, "DELETE FROM snapshot")
    _sql(path, change)
    before = _sha(path)
    with pytest.raises(Tampered, match="changed outside Airboss at seq 8;"):
        GameSession.open(path)
    with pytest.raises(Tampered, match="changed outside Airboss at seq 8;"):
        GameSession.open(path, read_only=True)
    assert _sha(path) == before


def test_a_long_log_with_no_snapshot_changed_near_its_end_is_said_and_not_snapshotted(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.airboss"
    s = _game(path)
    for _ in range(2100):  # more than a page of the read (2,000 rows)
        s.clock.next_step()
    s.close()
    _sql(path, "DELETE FROM snapshot")
    _sql(path, "UPDATE event SET narrative = 'x' WHERE seq = 2104")
    with pytest.raises(Tampered, match="at seq 2104;"):
        GameSession.open(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM snapshot").fetchone() == (0,)
    db.close()


def test_a_log_checked_whole_at_open_is_not_checked_again_by_the_desk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: a log with no snapshot has its whole chain checked as it is read at open, so
    the desk's background check of the whole log (``check_history``) has nothing left to do;
    opened from a snapshot, it still checks what lies before it."""
    from app.store.file_store import FileStore

    path = tmp_path / "g.airboss"
    _game(path).close()
    _sql(path, "DELETE FROM snapshot")
    opened = GameSession.open(path)
    reopened: list[object] = []
    real_open = FileStore.open
    monkeypatch.setattr(FileStore, "open", lambda *a, **k: reopened.append(a) or real_open(*a, **k))
    opened.log.check_history()
    assert reopened == []
    opened.close()
    import app.session.log

    monkeypatch.setattr(app.session.log, "SNAPSHOT_EVERY", 3)
    GameSession.open(path).close()  # stores a snapshot (a log of 7 events)
    with GameSession.open(path) as again:
        reopened.clear()
        again.log.check_history()
    assert len(reopened) == 1
