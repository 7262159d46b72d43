"""Issue 47: what the ``airboss`` command does before and around the desk, each in a process of
its own (the log file, faulthandler and the exception hook are the process's): the log file
takes the server driver's own words (``--list`` prints one sentence), an uncaught exception is
logged and said in a dialog naming the log while nothing saved is lost, a crash of Python
itself leaves its traceback in the log, and a start with no display is one line, or offscreen
for a screenshot, never Qt's abort."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.session import GameSession

ROOT = Path(__file__).resolve().parents[2]


def airboss(
    *args: str, data: Path, env: dict[str, str] | None = None, timeout: int = 120
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    base.update(env or {"QT_QPA_PLATFORM": "offscreen"})
    base["AIRBOSS_DATA_DIR"] = str(data)
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_list_says_one_sentence_and_the_drivers_words_go_to_the_log(tmp_path):
    """The README's claim: a server error reaches the umpire as one sentence, the driver's own
    words go to the log file only (issue 47: ``--list`` printed the driver's raw error)."""
    done = airboss("--db", "postgresql://airboss_viewer@127.0.0.1:1/club", "--list", data=tmp_path)
    assert done.returncode == 2
    assert "cannot reach the server" in done.stderr
    assert "Connection refused" not in done.stderr and "connection failed" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    log = (tmp_path / "log" / "airboss.log").read_text()
    assert "Connection refused" in log and "airboss --db started" in log


CRASHING_DESK = """
import os, sys
from app import log_file
log_file.start("airboss")
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
from app.session import GameSession
from app.ui.shell.qt_app import application
from app.ui.shell import uncaught

app = application()
uncaught.install()
desk = QMainWindow()  # the desk's window: the dialog closing does not end the program
desk.show()
game = GameSession.create(sys.argv[1], "phantoms", "Crash")
game.add_aircraft("USAF", "f4e", "Olds 1")  # saved: the umpire was told
said = []

def answer():
    box = QApplication.activeModalWidget()
    if box is None:
        QTimer.singleShot(20, answer)
        return
    said.append(box.windowTitle() + "|" + box.text())
    box.accept()

def boom():
    raise ZeroDivisionError("a ruleset divided by zero")

def after():  # the desk went on after the dialog: then it is killed, as a crash would
    print(said[0].replace("\\n", " "), flush=True)
    os._exit(3)

QTimer.singleShot(0, boom)
QTimer.singleShot(20, answer)
QTimer.singleShot(500, after)
app.exec()
"""


def test_an_uncaught_exception_is_logged_and_said_and_nothing_saved_is_lost(tmp_path):
    game = tmp_path / "crash.airboss"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AIRBOSS_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", CRASHING_DESK, str(game)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr  # the desk carried on after the dialog
    log = tmp_path / "log" / "airboss.log"
    title, _, text = done.stdout.strip().partition("|")
    assert title == "Airboss met an error"
    assert "ZeroDivisionError: a ruleset divided by zero" in text
    assert "Nothing already saved is lost" in text and str(log) in text
    logged = log.read_text()
    assert "uncaught exception" in logged and "Traceback" in logged
    assert "ZeroDivisionError: a ruleset divided by zero" in logged
    assert "Traceback" not in done.stderr  # the log has it; nothing for a terminal
    with GameSession.open(game) as s:  # the action saved before the error is there
        assert [a.name for a in s.engagement.aircraft.values()] == ["Olds 1"]


def test_a_crash_of_python_itself_leaves_its_traceback_in_the_log(tmp_path):
    code = "from app import log_file\nlog_file.start()\nimport faulthandler\n"
    code += "faulthandler._sigsegv()"
    env = {**os.environ, "AIRBOSS_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
    assert done.returncode != 0
    logged = (tmp_path / "log" / "airboss.log").read_text()
    assert "Fatal Python error: Segmentation fault" in logged


def test_the_log_file_is_put_aside_when_it_grew_large(tmp_path):
    code = "from app import log_file\nlog_file.start()"
    env = {**os.environ, "AIRBOSS_DATA_DIR": str(tmp_path)}
    log = tmp_path / "log" / "airboss.log"
    log.parent.mkdir()
    log.write_text("x" * 1_000_001)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    assert (tmp_path / "log" / "airboss.log.1").stat().st_size == 1_000_001
    assert log.stat().st_size < 200 and "started" in log.read_text()


NO_DISPLAY = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}


def test_no_display_is_one_line_and_a_screenshot_goes_offscreen(tmp_path):
    """Issue 47: ``airboss --screenshot`` with no display aborted with a core dump."""
    desk = airboss(data=tmp_path, env=NO_DISPLAY)
    assert desk.returncode == 2, desk.stderr  # not Qt's abort (-6)
    assert desk.stderr.startswith("airboss: no display to open the desk on (DISPLAY is not set)")
    assert len(desk.stderr.strip().splitlines()) == 1
    png = tmp_path / "desk.png"
    shot = airboss("--screenshot", str(png), data=tmp_path, env=NO_DISPLAY, timeout=300)
    assert shot.returncode == 0, shot.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_qt_platform_that_cannot_load_is_named(tmp_path, monkeypatch):
    """Qt's xcb plugin that the dynamic linker refuses (a library missing) is said in one line
    that names what to run, instead of Qt's abort; a screenshot goes offscreen."""
    from app import cli

    plugin = tmp_path / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.parent.mkdir(parents=True)
    plugin.write_bytes(b"not a shared object")
    spec = importlib.util.spec_from_loader("PySide6", loader=None, is_package=True)
    assert spec is not None
    spec.submodule_search_locations = [str(tmp_path / "PySide6")]
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: spec)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    problem = cli.qt_platform_problem(offscreen_will_do=False)
    assert problem is not None and problem.startswith("Qt's X11 platform cannot load (")
    assert "./scripts/setup" in problem
    assert cli.qt_platform_problem(offscreen_will_do=True) is None
    assert os.environ["QT_QPA_PLATFORM"] == "offscreen"


@pytest.mark.parametrize("chosen", ["offscreen", "wayland", "vnc"])
def test_a_platform_the_umpire_chose_is_left_to_qt(chosen, monkeypatch):
    from app import cli

    monkeypatch.setenv("QT_QPA_PLATFORM", chosen)
    monkeypatch.delenv("DISPLAY", raising=False)
    assert cli.qt_platform_problem(offscreen_will_do=False) is None
    assert os.environ["QT_QPA_PLATFORM"] == chosen


def test_the_installed_command_starts_the_log(tmp_path):
    """``airboss`` as installed (and the frozen bundle's entry script) is ``app.cli:entry``."""
    text = (ROOT / "pyproject.toml").read_text()
    assert 'airboss = "app.cli:entry"' in text
    bundle = (ROOT / "packaging" / "airboss_main.py").read_text()
    assert "from app.cli import entry" in bundle
    done = airboss("rulesets", data=tmp_path)
    assert done.returncode == 0
    assert "airboss rulesets started" in (tmp_path / "log" / "airboss.log").read_text()
    assert "phantoms: Phantoms" in done.stdout.splitlines()


IDLE_IMPORT = """
import sys
from PySide6.QtCore import QTimer
import app.ui.shell.application as desk

seen = []

def look(when):
    seen.append(f"{when}: {'pyqtgraph' in sys.modules}")

up = desk.started

def started():  # the desk has painted and its event loop runs
    up()
    look("the desk is up")
    QTimer.singleShot(3000, lambda: (look("3 s later"), desk.application().quit()))

desk.started = started
desk.run()
print("; ".join(seen))
"""


def test_the_plots_libraries_are_imported_in_the_idle_time_after_the_first_paint(tmp_path):
    """Issue 47: pyqtgraph is imported once the desk is up, so the After-action tab draws at
    once when first shown; never before the first paint."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AIRBOSS_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", IDLE_IMPORT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the desk is up: False; 3 s later: True"
