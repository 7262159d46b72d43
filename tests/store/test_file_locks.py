"""A game is "also open elsewhere" when a window or program has it open now, not when a desk
that was killed left its write-ahead log beside it (``app.store.file_locks``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.session import GameSession
from app.startup.demo import create_demo_game
from app.store import file_store as file_store_module
from app.store import open_store
from app.store.file_locks import held_open
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow

LINUX = pytest.mark.skipif(
    not Path("/proc/locks").exists(), reason="the kernel's lock table is Linux's /proc/locks"
)

#: a desk's session holding the game open: it plays one action, says so, and waits to be killed
HOLDER = """
import sys, time
from app.session import GameSession
s = GameSession.open(sys.argv[1])
s.clock.next_step()
print("acted", flush=True)
time.sleep(60)
"""


def make_game(path: Path) -> int:
    """The demo game; how many events it has."""
    with create_demo_game(path) as s:
        return len(s.events())


def hold(path: Path) -> subprocess.Popen[str]:
    """Another program with the game open, once it has played an action."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "acted"
    return holder


@LINUX
def test_a_game_another_program_has_open_is_open_elsewhere(tmp_path: Path) -> None:
    path = tmp_path / "g.airboss"
    make_game(path)
    holder = hold(path)
    try:
        assert held_open(path) is True
        store = open_store(path)
        assert store.open_elsewhere
        store.close()
    finally:
        holder.kill()
        holder.wait()


@LINUX
def test_a_killed_desk_leaves_its_log_but_the_game_is_not_open_elsewhere(
    tmp_path: Path, qtbot
) -> None:
    """The desk that had the game open was killed: its -wal lies beside the game, nothing
    holds the game, and the next desk opens it with the killed desk's action and no notice that
    it is "also open elsewhere"."""
    path = tmp_path / "g.airboss"
    made = make_game(path)
    holder = hold(path)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert Path(f"{path}-wal").exists()
    assert held_open(path) is False
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    model = EngagementModel()
    window = MainWindow(model, settings)
    qtbot.addWidget(window)
    assert window.open_game(path)
    assert "open elsewhere" not in window.refusal.message
    assert not model.session.store.open_elsewhere and model.session.store.log_beside
    assert len(model.session.events()) == made + 1  # the killed desk's action is there
    model.set_session(None)


def test_where_the_locks_cannot_be_read_the_log_beside_the_game_tells(
    tmp_path: Path, monkeypatch
) -> None:
    """Not Linux (no /proc/locks): a -wal beside the game is taken as open elsewhere, as it
    always was; a game alone beside nothing is not."""
    monkeypatch.setattr(file_store_module, "held_open", lambda path: None)
    path = tmp_path / "g.airboss"
    make_game(path)
    store = open_store(path)
    assert not store.open_elsewhere
    other = GameSession.open(path)  # this one writes: its log lies beside the game
    other.clock.next_step()
    again = open_store(path)
    assert again.open_elsewhere
    for s in (again, store):
        s.close()
    other.close()


def test_the_lock_table_is_read_by_inode(tmp_path: Path) -> None:
    """/proc/locks' lines, a waiter's ("->") among them, matched on the file's inode, whatever
    device they name (btrfs names another than ``stat`` gives); another file's lock does not
    count, and no table is None."""
    game = tmp_path / "g.airboss"
    game.write_bytes(b"")
    st = game.stat()
    here = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    other = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino + 1}"
    table = tmp_path / "locks"
    table.write_text(f"1: POSIX  ADVISORY  READ 4242 {other} 128 128\n")
    assert held_open(game, table) is False
    table.write_text(
        f"1: POSIX  ADVISORY  READ 4242 {other} 128 128\n"
        f"2: -> POSIX  ADVISORY  WRITE 4243 {here} 1073741826 1073742335\n"
    )
    assert held_open(game, table) is True
    table.write_text(f"7: OFDLCK ADVISORY  READ -1 {here} 0 EOF\n")
    assert held_open(game, table) is True
    table.write_text(f"3: POSIX  ADVISORY  READ 4242 00:2f:{st.st_ino} 128 128\n")  # btrfs
    assert held_open(game, table) is True
    table.write_text("3: POSIX  ADVISORY  READ 4242 garbled\n4: FLOCK\n")
    assert held_open(game, table) is False
    assert held_open(game, tmp_path / "no such table") is None
    assert held_open(tmp_path / "no such game", table) is None
