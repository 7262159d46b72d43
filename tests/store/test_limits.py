"""Issue 31: a game's documented limits (app/core/limits.py) checked at append and at open; a
long log with no snapshot opened a page at a time and snapshotted; a path that is not a
regular file (FIFO, device, folder) refused at once, by the session and by ``airboss log``."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.core import limits
from app.core.errors import RuleViolation
from app.core.history import Timeline
from app.session import SNAPSHOT_EVERY, GameSession
from app.session.log import GameLog
from app.store import StoreError, bounds
from app.store.opening import open_store

BIG = "x" * (64 * 2**20)  # 64 MB


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def quickly(call: Callable[[], Any], seconds: float = 20) -> BaseException | None:
    """Run ``call`` in a thread; fail if it has not ended within ``seconds``; its error."""
    box: dict[str, BaseException] = {}

    def run() -> None:
        try:
            call()
        except BaseException as e:  # noqa: BLE001 - returned to the test
            box["e"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still running after {seconds} s"
    return box.get("e")


@pytest.fixture
def game(tmp_path: Path) -> GameSession:
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Limits")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    return s


def test_a_64_mb_name_is_refused_with_its_size_and_the_limit(game: GameSession) -> None:
    n = len(game.events())
    start = time.monotonic()
    with pytest.raises(RuleViolation) as e:
        game.add_aircraft(side="Blue", type_id="jet", name=BIG)
    assert time.monotonic() - start < 5
    assert str(e.value).startswith("name: 67,108,864 characters (64.0 MB); the limit is 10,000")
    for call in (
        lambda: game.add_aircraft(side=BIG, type_id="jet", name="B"),
        lambda: game.roster.change_aircraft("blue-1", name=BIG),
        lambda: game.roster.adjust_ledger("blue-1", "ammunition", -1, BIG),
        lambda: GameSession.create(game.store.path.parent / "t.airboss", "skirmish", BIG),
    ):
        with pytest.raises(RuleViolation, match=r"64\.0 MB.*the limit is"):
            call()
    assert len(game.events()) == n
    assert not (game.store.path.parent / "t.airboss").exists()


def test_an_event_over_the_payload_limit_is_refused(game: GameSession) -> None:
    n = len(game.events())
    card = {**game.engagement.get("blue-1").card, "name": "x" * 2_000_000}
    with pytest.raises(RuleViolation, match=r"aircraft changed: the event is 2,000,\d+ characters"):
        game.roster.change_aircraft("blue-1", card=card)
    with pytest.raises(RuleViolation, match=r"the log line: 2,000,0\d\d characters \(1\.9 MB\)"):
        game.perform("initiative", {"sides": ["x" * 2_000_000]})
    assert len(game.events()) == n


def test_the_event_count_limit(game: GameSession, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_EVENTS", 4)
    with pytest.raises(RuleViolation, match="holds 4 events, the most one game may"):
        game.add_aircraft(side="Blue", type_id="jet", name="Blue 2")
        game.add_aircraft(side="Blue", type_id="jet", name="Blue 3")
    path = game.store.path
    game.close()
    monkeypatch.setattr(limits, "MAX_EVENTS", 2)
    before = sha(path)
    with pytest.raises(StoreError, match="the log holds 4 events; the limit is 2"):
        GameSession.open(path)
    assert sha(path) == before


def _write(path: Path, sql: str, *params: Any) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, params)
    db.close()


@pytest.mark.parametrize(
    ("sql", "said"),
    [
        (
            "UPDATE event SET payload = json_set(payload, '$.name', ?) "
            "WHERE kind = 'aircraft_added'",
            r"event 2: its payload is 67,10\d,\d+ characters \(64\.0 MB\); the limit is 1,000,000",
        ),
        (
            "UPDATE event SET narrative = ? WHERE seq = 3",
            r"event 3: its log line is 67,108,864 characters \(64\.0 MB\); the limit is 10,000",
        ),
        ("UPDATE game SET title = ?", r"its title is 67,108,864 characters \(64\.0 MB\)"),
    ],
)
def test_a_file_over_a_limit_is_refused_at_open_unchanged(
    game: GameSession, sql: str, said: str
) -> None:
    path = game.store.path
    game.close()
    _write(path, sql, BIG)
    before = sha(path)
    start = time.monotonic()
    with pytest.raises(StoreError, match=said):
        GameSession.open(path)
    assert time.monotonic() - start < 10
    assert sha(path) == before


@pytest.mark.parametrize(("chars", "refused"), [(10_000, False), (10_001, True)])
def test_a_log_line_is_measured_in_characters_not_bytes(
    game: GameSession, chars: int, refused: bool
) -> None:
    """Limits 31: a log line of 10,000 two-byte characters (20,000 bytes) is within the limit
    of 10,000 characters; one more is refused, said in characters (issue 44: the bytes are
    read first, the characters counted only when the bytes are over)."""
    path, gid = game.store.path, game.game_id
    game.close()
    _write(path, "UPDATE event SET narrative = ? WHERE seq = 3", "\u00e9" * chars)
    store = open_store(path, read_only=True)
    try:
        if refused:
            with pytest.raises(StoreError, match=r"event 3: its log line is 10,001 characters"):
                bounds.check_log(store, str(path), gid)
        else:
            bounds.check_log(store, str(path), gid)
    finally:
        store.close()


def test_a_log_within_the_limits_in_bytes_is_not_measured_field_by_field(
    game: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: SQLite's page headers say the largest event row's bytes (every field of
    it, its overflow pages too); a log whose largest row is within the shortest limit is not
    measured field by field, one over it is, and so is one whose SQLite cannot say."""
    path, gid = game.store.path, game.game_id
    game.close()
    measured: list[str] = []
    store = open_store(path, read_only=True)
    try:
        with sqlite3.connect(path) as db:
            rows = db.execute(
                "SELECT length(CAST(payload AS BLOB)) + length(CAST(narrative AS BLOB)) "
                "+ length(CAST(actor AS BLOB)) + length(CAST(rule AS BLOB)) FROM event"
            ).fetchall()
        db.close()
        biggest = store.largest_event_row()
        assert biggest is not None and max(r[0] for r in rows) < biggest < limits.MAX_TEXT
        rows_of = store._rows
        monkeypatch.setattr(store, "_rows", lambda sql, p: measured.append(sql) or rows_of(sql, p))
        bounds.check_log(store, str(path), gid)
        assert bounds._EVENT_SIZES not in measured
        monkeypatch.setattr(store, "largest_event_row", lambda: None)
        bounds.check_log(store, str(path), gid)
        assert bounds._EVENT_SIZES in measured
    finally:
        store.close()
    _write(path, "UPDATE event SET narrative = ? WHERE seq = 3", BIG)
    store = open_store(path, read_only=True)
    try:
        assert (store.largest_event_row() or 0) > len(BIG)  # its overflow pages counted
        with pytest.raises(StoreError, match=r"event 3: its log line is 67,108,864 characters"):
            bounds.check_log(store, str(path), gid)
    finally:
        store.close()


def _long_log(path: Path, events: int) -> None:
    """A game whose log goes on with ``events`` events written by another program: no
    snapshot, an undo and a redo along the way."""
    with GameSession.create(path, ruleset="skirmish", title="Long") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        game, seq, when = s.game_id, s.engagement.seq, s.events()[-1].time
    rows = []
    while seq < events:
        seq += 1
        if seq % 100 == 0:
            kind, payload = "reverted", {"kind": "reverted", "action": seq - 1}
        elif seq % 100 == 1 and seq > 100:
            kind, payload = "restored", {"kind": "restored", "action": seq - 2}
        else:
            kind = "attributes_set"
            payload = {"kind": kind, "aircraft": "blue-1", "values": {"speed": seq % 9}}
        rows.append((game, seq, seq, when, "umpire", "", f"event {seq}", kind, json.dumps(payload)))
    from app.store.chain import event_hash

    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM snapshot")
        first = rows[0][1] - 1
        prev = db.execute("SELECT hash FROM event WHERE seq = ?", (first,)).fetchone()[0]
        chained = []
        for g, q, a, w, *rest in rows:  # written as Airboss writes: chained (issue 30)
            row = (g, q, a, f"{w:%Y-%m-%d %H:%M:%S.%f}", *rest, None)
            prev = event_hash(prev, row)
            chained.append((*row, prev))
        db.executemany(
            "INSERT INTO event (game_id, seq, action, time, actor, rule, narrative, kind, payload,"
            " uid, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            chained,
        )
    db.close()


def test_a_long_log_without_snapshot_is_replayed_by_pages_and_snapshotted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.airboss"
    _long_log(path, 3 * SNAPSHOT_EVERY + 7)
    with GameSession.open(path) as s:
        whole = Timeline.replay(s.events())
        assert s.engagement == whole.state
        assert s.log.timeline.undo_stack == whole.undo_stack
        assert s.log.timeline.redo_stack == whole.redo_stack
        assert s.store.latest_snapshot(s.game_id) is not None
        state = s.engagement

    def whole_log(*a: Any, **k: Any) -> Any:
        raise AssertionError("the whole log was read into a list")

    monkeypatch.setattr(GameLog, "events", whole_log)
    with GameSession.open(path) as again:  # from the snapshot now
        assert again.engagement == state
        again.undo()
        again.redo()


def test_a_read_only_open_of_a_long_log_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "long.airboss"
    _long_log(path, SNAPSHOT_EVERY + 50)
    before = sha(path)
    with GameSession.open(path, read_only=True) as s:
        assert s.engagement.seq == SNAPSHOT_EVERY + 50
        assert s.store.latest_snapshot(s.game_id) is None
    assert sha(path) == before


def _not_regular(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind == "fifo":
        path = tmp_path / "pipe.airboss"
        os.mkfifo(path)
        return path, "is a named pipe (FIFO), not a game file"
    if kind == "folder":
        path = tmp_path / "folder.airboss"
        path.mkdir()
        return path, "is a folder, not a game file"
    return Path("/dev/null"), "is a device, not a game file"


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_path_that_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, said = _not_regular(tmp_path, kind)
    for read_only in (False, True):
        error = quickly(lambda: GameSession.open(path, read_only=read_only), 10)  # noqa: B023
        assert isinstance(error, StoreError) and said in str(error)
    assert quickly(lambda: main(["log", str(path)]), 10) is None
    assert said in capsys.readouterr().err
