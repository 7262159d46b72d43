"""A game whose file keeps no rows is worked out by a child process while the desk builds its
window (issue 36, ``app.startup.summary_child``): the child's rows are the rows the desk makes of
the game, it writes nothing to the file, and a child that fails, hangs or is killed is no answer
(the desk then opens the game itself, as without it). The child is forked, so each case runs
in a fresh process, as the command line does before Qt or any thread exists."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest

from app.session import GameSession
from app.startup.summary import kept_rows, session_rows
from app.startup.summary_child import last_game, start

ROOT = Path(__file__).resolve().parents[2]
#: the child works on a second core (``start`` makes none on one)
needs_two_cores = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="the child works on a second core"
)
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def forget_rows(game: Path) -> None:
    with closing(sqlite3.connect(game)) as db, db:
        db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.airboss"
    s = GameSession.create(path, ruleset="phantoms", title="Child")
    types = list(s.ruleset.aircraft)
    for i in range(6):
        s.add_aircraft(side="Blue" if i % 2 else "Red", type_id=types[i % len(types)], name=f"J{i}")
    s.clock.next_step()
    s.close()
    forget_rows(path)
    return path


def in_fresh_process(game: Path, before: str = "", wait: float = 5.0) -> dict[str, object]:
    """``start(game).rows(wait)`` in a fresh process (``before``: code run first); what it
    returned and whether the child was still there afterwards."""
    code = (
        "import json, os, sys, time\n"
        "import app.startup.summary_child as child\n"
        f"{before}\n"
        f"pending = child.start({str(game)!r})\n"
        "began = time.monotonic()\n"
        f"rows = pending.rows({wait!r}) if pending else 'not started'\n"
        "took = time.monotonic() - began\n"
        "try:\n"
        "    os.kill(pending._pid, 0); alive = True\n"
        "except (ProcessLookupError, AttributeError):\n"
        "    alive = False\n"
        "print(json.dumps({'rows': rows, 'took': took, 'alive': alive}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@needs_two_cores
def test_the_childs_rows_are_the_rows_of_the_game_and_it_writes_nothing(game: Path) -> None:
    before = game.read_bytes()
    got = in_fresh_process(game)
    assert game.read_bytes() == before
    # nothing left beside it: a -wal would tell the desk the game is open elsewhere
    assert [p.name for p in game.parent.iterdir()] == [game.name]
    with GameSession.open(game) as s:  # as the desk opens it (it changes nothing)
        expected = json.loads(json.dumps(session_rows(s)))
    assert got["rows"] == expected
    assert not got["alive"]  # exited and reaped
    assert kept_rows(str(game)) is None  # the desk keeps rows, the child does not


@needs_two_cores
def test_a_child_that_fails_is_no_answer(game: Path) -> None:
    """A game the child cannot open (here: opening it raises) gives no rows: the desk opens it
    itself and says why, as without the child."""
    fails = "import app.session\napp.session.GameSession.open = lambda *a, **k: 1 / 0"
    got = in_fresh_process(game, before=fails)
    assert got["rows"] is None and not got["alive"]


@needs_two_cores
def test_a_child_that_hangs_is_stopped_and_no_answer(game: Path) -> None:
    hang = "child._child = lambda where, out: (time.sleep(60), os._exit(0))"
    got = in_fresh_process(game, before=hang, wait=0.5)
    assert got["rows"] is None
    assert 0.4 < float(got["took"]) < 5  # type: ignore[arg-type]
    assert not got["alive"]


@needs_two_cores
def test_a_child_that_is_killed_is_no_answer(game: Path) -> None:
    killed = "import signal\nchild._child = lambda where, out: os.kill(os.getpid(), signal.SIGKILL)"
    got = in_fresh_process(game, before=killed)
    assert got["rows"] is None and not got["alive"]


@needs_two_cores
def test_a_file_an_older_airboss_made_is_left_to_the_desk(game: Path) -> None:
    """Opening it would migrate it (with a backup copy): that is the desk's to do, with its
    messages; the child does not touch it."""
    with closing(sqlite3.connect(game)) as db, db:
        db.execute("UPDATE alembic_version SET version_num = '0001'")
    got = in_fresh_process(game)
    assert got["rows"] is None
    assert not list(game.parent.glob("*.bak"))
    with closing(sqlite3.connect(game)) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"


def test_no_child_where_it_would_not_help_or_not_be_safe(game: Path, tmp_path: Path) -> None:
    longer = "child.LONGEST = 2"  # a log longer than the child opens
    assert in_fresh_process(game, before=longer)["rows"] == "not started"
    assert in_fresh_process(tmp_path / "missing.airboss")["rows"] == "not started"
    assert start("postgresql://club/airboss") is None
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert start(str(game)) is None  # a process with threads does not fork
    finally:
        stop.set()
        worker.join()
    one_core = "os.sched_getaffinity = lambda pid: {0}"
    assert in_fresh_process(game, before=one_core)["rows"] == "not started"
    no_proc = "def listdir(path):\n    raise FileNotFoundError(path)\nos.listdir = listdir"
    assert in_fresh_process(game, before=no_proc)["rows"] == "not started"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[General]\nlast_game=/games/a b.airboss\n", "/games/a b.airboss"),
        ("[dice]\nplayers_roll=false\n\n[General]\nlast_game=/g.airboss\n", "/g.airboss"),
        ('[General]\nlast_game="/games/a,b.airboss"\n', None),  # quoted: left to Qt
        ("[General]\nlast_game=C:\\\\games\\\\x.airboss\n", None),  # escaped: left to Qt
        ("[General]\nlast_game=@Invalid()\n", None),
        ("[other]\nlast_game=/g.airboss\n", None),
        ("[General]\nlast_game=\n", None),
        ("", None),
    ],
)
def test_the_last_game_is_read_from_the_settings_only_when_plain(tmp_path, text, expected):
    f = tmp_path / "settings.ini"
    f.write_text(text, encoding="utf-8")
    assert last_game(str(f)) == expected
    assert last_game(str(tmp_path / "none.ini")) is None
