"""Issue 31: a long game file with no snapshot has its chain of hashes checked by a process
of its own while its events are replayed (``FileStore.read_checked``). The game opened must be
the one opened with the chain checked in-process; a changed log is said changed at its seq,
nothing written; a checker that fails, says nonsense or is not there leaves the check to the
opening process, which still finds every change."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

import app.store.chain_worker
import app.store.file_store
from app.core.errors import Tampered
from app.session import GameSession


def _long_game(path: Path, steps: int = 120) -> None:
    s = GameSession.create(path, ruleset="skirmish", title="Long")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    for n in range(steps):
        s.clock.next_step()
        if n % 17 == 0:
            s.undo()
        if n % 34 == 0:
            s.redo()
    s.close()
    _sql(path, "DELETE FROM snapshot")


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    with db:
        db.execute(statement)
    db.close()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every log checked by the worker process; the processes started, listed."""
    started: list[object] = []
    real = app.store.file_store.FileStore._chain_worker

    def worker(self, game_id):
        proc = real(self, game_id)
        started.append(proc)
        return proc

    monkeypatch.setattr(app.store.file_store, "PARALLEL_CHAIN", 1)
    monkeypatch.setattr(app.store.file_store.FileStore, "_chain_worker", worker)
    return started


def test_a_log_checked_by_the_worker_opens_as_checked_here(tmp_path: Path, parallel) -> None:
    path = tmp_path / "g.airboss"
    _long_game(path)
    here = tmp_path / "here.airboss"
    here.write_bytes(path.read_bytes())
    with GameSession.open(path, read_only=True) as s:
        checked_apart = (s.engagement, list(s.log.timeline.undo_stack), dict(s.store.heads))
    assert parallel and all(p is not None and p.returncode == 0 for p in parallel)
    app.store.file_store.PARALLEL_CHAIN = 10**9  # undone by monkeypatch
    with GameSession.open(here, read_only=True) as s:
        assert (s.engagement, list(s.log.timeline.undo_stack), dict(s.store.heads)) == checked_apart


@pytest.mark.parametrize(
    ("change", "seq"),
    [
        ("UPDATE event SET narrative = 'forged' WHERE seq = 40", 40),
        ("UPDATE event SET payload = replace(payload, ':2', ':3') WHERE seq = 9", 9),
        ("UPDATE event SET time = '2020-01-01 00:00:00.000000' WHERE seq = 131", 131),
        ("UPDATE event SET payload = '{not json' WHERE kind = 'reverted' AND seq < 30", 5),
        ("UPDATE event SET hash = NULL WHERE seq = 3", 3),
    ],
)
def test_a_change_is_said_at_its_seq_and_nothing_written(
    tmp_path: Path, parallel, change: str, seq: int
) -> None:
    path = tmp_path / "g.airboss"
    _long_game(path)
    _sql(path, change)
    before = _sha(path)
    with pytest.raises(Tampered, match=f"changed outside Airboss at seq {seq};"):
        GameSession.open(path)
    assert _sha(path) == before and parallel  # started before the undo stacks are read


@pytest.mark.parametrize(
    "run",
    [
        "import sys; sys.exit(3)",
        "print('nonsense')",
        'print(\'{"seq": "1"}\')',
        "import time; time.sleep(30)",
    ],
)
def test_a_checker_that_fails_leaves_the_check_here(
    tmp_path: Path, parallel, monkeypatch: pytest.MonkeyPatch, run: str
) -> None:
    monkeypatch.setattr(app.store.chain_worker, "RUN", run)
    monkeypatch.setattr(app.store.file_store, "CHAIN_TIME_LIMIT", 2.0)
    path = tmp_path / "g.airboss"
    _long_game(path)
    with GameSession.open(path, read_only=True) as s:
        assert s.engagement.seq > 120
    _sql(path, "UPDATE event SET narrative = 'forged' WHERE seq = 77")
    with pytest.raises(Tampered, match="at seq 77;"):
        GameSession.open(path, read_only=True)
    assert all(p.poll() is not None for p in parallel)  # none left running
