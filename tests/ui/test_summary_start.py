"""The desk paints a game from the rows kept in its file, then draws the same rows live
(issue 36): one Roster and one Turn panel, each drawn one way. The first paint is the live
desk to the pixel, the panels are the same widgets before and after the game opens, the
selection and scrolling carry over, a read-only game is read-only once open, and the start-up
path imports nothing before the first paint but what it needs to paint.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from app.cli import main
from app.resources import DEMO_ROWS
from app.session import GameSession
from app.startup.summary import kept_rows
from app.ui.model import EngagementModel
from app.ui.shell import application
from app.ui.shell.application import close_desk, start_game, stored_rows
from app.ui.shell.main_window import MainWindow, settle

SITE = Path(__file__).parents[1] / "fixtures" / "site"
#: a game with no rows kept is worked out by a child process on a second core only
TWO_CORES = len(os.sched_getaffinity(0)) >= 2


@pytest.fixture
def game(demo_game_file: Path) -> Path:
    path = demo_game_file
    with GameSession.open(path) as s:  # something to show: the clock two steps on
        s.clock.next_step()
        s.clock.next_step()
    return path


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    s = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    s.setValue("dice/players_roll", False)  # the first start's answer: Airboss rolls
    return s


def desk(qtbot, settings: QSettings, model: EngagementModel | None = None) -> MainWindow:
    window = MainWindow(model or EngagementModel(), settings, panels_later=True)
    qtbot.addWidget(window)
    window.persist_layout = False
    window.resize(1366, 768)
    return window


def played_on(qtbot, settings: QSettings, game: Path, act=None) -> tuple[str, str]:
    """A desk on ``game`` (an action taken, if any), closed as the umpire closes it: the rows
    of its last change are kept in the file. Its title and status bar's phase as it closed."""
    window = desk(qtbot, settings)
    window.show_session(GameSession.open(game))
    if act is not None:
        window.model.attempt(lambda: act(window.model.session))
    window.show()
    window.build_panels()
    settle()
    seen = window.windowTitle(), window.status_labels["phase"].text()
    window.close()
    close_desk(window)
    return seen


def from_file(qtbot, settings: QSettings, game: Path) -> MainWindow:
    """The desk as ``airboss`` starts it on a game with current rows: drawn from them."""
    rows = kept_rows(str(game))
    assert rows is not None
    model = EngagementModel()
    model.show_stored(rows)
    window = desk(qtbot, settings, model)
    window.show()
    settle()
    return window


def drawn(window: MainWindow) -> dict[str, QImage]:
    """What the roster and the turn draw of the game (their buttons wait for the game: the
    umpire can change nothing until it is open)."""
    roster, turn = window.panels["roster"], window.panels["turn"]
    parts = {
        "roster": roster.tree,
        "heading": turn.heading,
        "steps": turn.step_list,
        "what": turn.what,
        "acting": turn.acting,
    }
    return {name: part.grab().toImage() for name, part in parts.items()}


def same(a: QImage, b: QImage) -> bool:
    """The same picture, as far as both reach down above their frame (the window may still be
    giving a dock a few pixels more or less as the other panels are built: empty space below
    the rows)."""
    height = min(a.height(), b.height()) - 2
    return a.width() == b.width() and a.copy(0, 0, a.width(), height) == b.copy(
        0, 0, b.width(), height
    )


def test_the_first_paint_from_the_kept_rows_is_the_live_desk(qtbot, settings, game) -> None:
    title, phase = played_on(qtbot, settings, game)
    window = from_file(qtbot, settings, game)
    roster, turn = window.panels["roster"], window.panels["turn"]
    assert not window.model.has_session  # nothing of the game is open yet
    assert window.windowTitle() == title == "Start-up — Airboss"
    assert window.status_labels["phase"].text() == phase != ""
    assert not roster.add_action.isEnabled() and not turn.next_button.isEnabled()
    first = drawn(window)
    session, problem = start_game(str(game), None, settings)
    assert session is not None and not problem
    window.show_session(session)
    window.build_panels()
    settle()
    # the same panels, drawing the same rows from the live game
    assert window.panels["roster"] is roster and window.panels["turn"] is turn
    assert roster.add_action.isEnabled() and turn.next_button.isEnabled()
    for name, image in drawn(window).items():
        assert same(image, first[name]), f"the {name} drawn from the kept rows differs"
    assert window.windowTitle() == title
    window.model.set_session(None)


def test_the_selection_and_scrolling_carry_over_to_the_live_game(qtbot, settings, tmp_path):
    path = tmp_path / "forty.airboss"
    with GameSession.create(path, "skirmish", "Forty") as s:
        ids = [s.add_aircraft("Blue" if i % 2 else "Red", "jet", f"Jet {i}") for i in range(40)]
    played_on(qtbot, settings, path)
    chosen = sorted(ids[31:34:2])
    window = from_file(qtbot, settings, path)
    roster = window.panels["roster"]
    roster.select(chosen)  # the umpire clicks before the game is open
    roster.tree.verticalScrollBar().setValue(12)
    settle()
    first = drawn(window)["roster"]
    window.show_session(GameSession.open(path))
    window.build_panels()
    settle()
    assert roster.tree.verticalScrollBar().value() == 12
    assert sorted(roster.selected_ids()) == chosen
    assert sorted(window.model.selection) == chosen  # the panels that follow it have it
    assert same(first, drawn(window)["roster"])
    assert roster.rename_action.isEnabled()  # a selection, and now a game to change
    window.model.set_session(None)


def test_a_read_only_game_painted_from_its_rows_is_read_only_once_open(
    qtbot, settings, game
) -> None:
    played_on(qtbot, settings, game)
    window = from_file(qtbot, settings, game)
    window.show_session(GameSession.open(game, read_only=True))
    window.build_panels()
    settle()
    assert window.windowTitle() == "Start-up [read-only] — Airboss"
    assert not window.panels["roster"].add_action.isEnabled()
    assert not window.panels["turn"].next_action.isEnabled()
    assert window.status_labels["role"].text() == "Read-only"
    window.model.set_session(None)


def forget_rows(game: Path) -> None:
    """The file as an Airboss before issue 36, or another program, leaves it: no rows kept."""
    with closing(sqlite3.connect(game)) as db, db:
        db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")


def test_airboss_paints_from_the_rows_whenever_airboss_wrote_the_file_last(
    qapp, game, tmp_path, capsys
) -> None:
    """Through the command line: a game a script played on (``GameSession``, no desk) paints
    from the rows the session kept as it closed; so after a desk, a station or a script; a file
    no Airboss of issue 36 wrote last opens before it paints, and keeps rows from then on."""
    assert kept_rows(str(game)) is not None  # the fixture's script kept them as it closed
    assert main(["--startup-profile", str(game)]) == 0
    first = capsys.readouterr().out
    assert first.index("first paint") < first.index("game opened")
    forget_rows(game)
    assert main(["--startup-profile", str(game)]) == 0
    out = capsys.readouterr().out
    assert out.index("game opened") < out.index("first paint")
    assert kept_rows(str(game)) is not None  # kept again by the desk that opened it
    assert main(["--startup-profile"]) == 0  # no GAME: the last game, from its rows too
    last = capsys.readouterr().out
    assert last.index("first paint") < last.index("game opened")
    station = EngagementModel(GameSession.open(game))  # another desk plays on
    station.attempt(station.session.clock.next_step)
    station.set_session(None)
    assert main(["--startup-profile", str(game)]) == 0
    after = capsys.readouterr().out
    assert after.index("first paint") < after.index("game opened")
    with GameSession.open(game) as s:  # a script plays on: its session keeps the rows
        s.clock.next_step()
        seq = s.engagement.seq
    rows = kept_rows(str(game))
    assert rows is not None and dict(rows)["seq"] == seq
    assert main(["--startup-profile", str(game)]) == 0
    out = capsys.readouterr().out
    assert out.index("first paint") < out.index("game opened")


def test_the_rows_a_session_keeps_are_the_rows_the_desk_draws(qtbot, settings, game) -> None:
    """What a script's session keeps as it closes is what the live desk would keep."""
    with GameSession.open(game) as s:
        s.clock.next_step()
    by_script = kept_rows(str(game))
    forget_rows(game)
    played_on(qtbot, settings, game)  # a desk opens it and keeps its own
    by_desk = kept_rows(str(game))
    assert by_script is not None and by_desk is not None
    assert dict(by_script) == dict(by_desk)


def test_a_session_that_changed_nothing_or_only_reads_keeps_nothing(game) -> None:
    forget_rows(game)
    GameSession.open(game).close()
    assert kept_rows(str(game)) is None
    with GameSession.open(game, read_only=True) as s:
        assert s.read_only
    assert kept_rows(str(game)) is None


def test_rows_of_a_last_game_other_than_the_settings_say_are_not_read(settings, game, tmp_path):
    settings.setValue("last_game", str(tmp_path / "elsewhere.airboss"))
    assert stored_rows(None, None, settings) is None
    forget_rows(game)
    settings.setValue("last_game", str(game))
    assert stored_rows(None, None, settings) is None  # no rows kept in it
    assert stored_rows(str(game), "some-id", settings) is None  # a game chosen by id


def test_a_last_game_that_cannot_be_opened_after_the_paint_says_so(
    qtbot, settings, game, monkeypatch
) -> None:
    played_on(qtbot, settings, game)
    monkeypatch.setattr(
        application, "start_game", lambda *a, **k: (None, "Could not reopen the last game: gone")
    )
    windows: list[MainWindow] = []
    real = MainWindow.__init__

    def spy(self, *args, **kwargs) -> None:
        real(self, *args, **kwargs)
        windows.append(self)

    monkeypatch.setattr(MainWindow, "__init__", spy)
    assert application.run(str(game), settings=settings, startup_profile=True) == 0
    (window,) = windows
    assert window.windowTitle() == "Airboss"  # not the kept rows' title
    assert window.status_labels["game"].text() == "No game open"
    assert window.panels["roster"].tree.topLevelItemCount() == 0
    assert window.panels["turn"].heading.text() == "No game open"
    assert "Could not reopen the last game" in window.refusal.text()


#: the only packages outside the standard library and Airboss itself that the start-up path
#: may have imported when the desk first paints a game from its kept rows
ALLOWED_PACKAGES = {"PySide6", "shiboken6", "shibokensupport", "signature_bootstrap"}
#: Airboss's own modules it may have imported by then: the window, its roster and turn, the
#: model and the rows, and the light corners of the core and the store they name
ALLOWED_OWN = {
    "app",
    "app.cli",
    "app.core",
    "app.core.errors",
    "app.core.paths",
    "app.core.status",
    "app.startup",
    "app.startup.demo_rows",
    "app.log_file",  # the log file and crash log, set up first (issue 47)
    "app.resources",
    "app.store",
    "app.startup.summary_file",
    "app.core.where",
    "app.startup.summary",
    "app.startup.summary_child",
    "app.ui",
    "app.ui.widgets",
    "app.ui.widgets.accessible",  # accessible names of the roster's and turn's lists (issue 47)
    "app.ui.shell",
    "app.ui.shell.application",
    "app.ui.shell.desk_layout",
    "app.ui.widgets.dice_mode",
    "app.ui.shell.dock_registry",
    "app.ui.shell.guest_worker",  # the desk's actions that wait for a ruleset (issue 44): Qt only
    "app.ui.docks",
    "app.ui.docks.roster",
    "app.ui.docks.turn",
    "app.ui.shell.main_window",
    "app.ui.widgets.message_bar",
    "app.ui.model",
    "app.ui.shell.qt_app",
    "app.ui.shell.qt_import",
    "app.ui.shell.uncaught",  # the dialog for an uncaught exception (issue 47)
    "app.ui.widgets.wheel_guard",
    "app.ui.shell.when_shown",
    "app.ui.widgets.sized_lines",  # the Turn panel's lines measured once (issue 48): Qt only
    "app.ui.widgets.kept_scroll_bar",  # panels' scroll bars drawn once (issue 48): Qt only
    "app.ui.widgets.kept_frame",  # scroll areas' frames drawn once (issue 48): Qt only
    "app.ui.widgets.kept_pictures",  # what the kept pictures share (issue 48): Qt only
    "app.ui.widgets.kept_title_dock",  # docks' title bars drawn once (issue 48): Qt only
    "app.ui.widgets.kept_width",  # the status bar's labels (issue 48): Qt only
    "app.ui.widgets.steady_label",  # the Turn panel's words in frames (issue 48): Qt only
}
#: standard-library modules that cost real time and are not needed to paint
NOT_BEFORE_THE_PAINT = {"importlib.metadata", "uuid", "zoneinfo", "decimal", "fractions", "tomllib"}


@pytest.mark.parametrize("start", ["rows kept", "no rows kept", "first start"])
def test_the_start_up_path_imports_only_what_the_first_paint_needs(game, tmp_path, start) -> None:
    """``airboss GAME`` up to its first paint: no pydantic, no models, no session, no ruleset,
    no SQLAlchemy or odds engine, no other panel; on a game with kept rows, on one with none
    (a child process works them out, ``app.startup.summary_child``: the desk's own process imports
    the same), and at the very first start (``airboss`` with no settings: the demo's shipped
    rows, ``app.startup.demo_rows``)."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AIRBOSS_DATA_DIR": str(tmp_path / "data"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([str(SITE), os.environ.get("PYTHONPATH", "")]),
    }
    run = [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())"]
    subprocess.run([*run, "--startup-profile", str(game)], env=env, check=True, capture_output=True)
    if start == "no rows kept":
        forget_rows(game)
    if start == "first start":
        (tmp_path / "data" / "settings.ini").unlink()
    named = [] if start == "first start" else [str(game)]
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "import app.ui.shell.application as a\n"
        "seen = []\n"
        "real = a.MainWindow.grab\n"
        "def grab(self, *args):\n"
        "    if not seen:\n"
        "        seen.append(sorted(sys.modules))\n"
        "    return real(self, *args)\n"
        "a.MainWindow.grab = grab\n"
        "from app.cli import main\n"
        f"assert main(['--startup-profile', *{named!r}]) == 0\n"
        "print('MODULES', ' '.join(seen[0]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.index("first paint") < out.index("game opened"), out  # painted from the rows
    assert ("rows from the child" in out) is (start == "no rows kept" and TWO_CORES), out
    modules = set(out.split("MODULES ", 1)[1].split())
    std = set(sys.stdlib_module_names)
    outside = {m.split(".")[0] for m in modules} - std - {"app", "__main__", "__feature__"}
    outside = {m for m in outside if not m.startswith(("__editable__", "_distutils_hack"))}
    assert outside <= ALLOWED_PACKAGES, (
        f"imported before the first paint: {outside - ALLOWED_PACKAGES}"
    )
    own = {m for m in modules if m == "app" or m.startswith("app.")}
    assert own <= ALLOWED_OWN, f"imported before the first paint: {sorted(own - ALLOWED_OWN)}"
    assert not modules & NOT_BEFORE_THE_PAINT, modules & NOT_BEFORE_THE_PAINT


@pytest.fixture(autouse=True)
def _no_windows_left(qapp) -> Iterator[None]:
    yield
    for w in qapp.topLevelWidgets():
        if isinstance(w, MainWindow) and w.model.has_session:
            w.model.set_session(None)


@pytest.mark.skipif(not TWO_CORES, reason="the child works on a second core")
def test_with_no_game_named_the_last_game_is_worked_out_beside_qt(game, tmp_path) -> None:
    """``airboss`` with no GAME on a last game that keeps no rows: the command line reads the
    last game from the settings file without Qt, a child works out its rows while the window
    is built, and the desk paints from them before it opens the game."""
    data = tmp_path / "data"
    settings = QSettings(str(data / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("last_game", str(game))
    settings.setValue("dice/players_roll", False)
    settings.sync()
    forget_rows(game)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AIRBOSS_DATA_DIR": str(data),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([str(SITE), os.environ.get("PYTHONPATH", "")]),
    }
    run = [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())"]
    out = subprocess.run(
        [*run, "--startup-profile"], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert out.index("rows from the child") < out.index("first paint") < out.index("game opened")
    assert kept_rows(str(game)) is not None  # the desk kept them once it had the game open


def test_rows_worked_out_for_another_game_than_the_settings_name_are_not_used(
    qtbot, settings, game, tmp_path, monkeypatch
) -> None:
    """The command line's reading of the last game is checked against Qt's: rows worked out
    for another file are dropped (their child stopped) and the settings' game is opened."""
    from app.startup.summary_child import Pending

    forget_rows(game)
    settings.setValue("last_game", str(game))
    child = subprocess.Popen(["sleep", "60"])
    read, write = os.pipe()
    os.close(write)
    pending = Pending(str(tmp_path / "other.airboss"), child.pid, read)
    opened: list[str | None] = []
    real = application.start_game

    def spy(game, *args, **kwargs):
        opened.append(game or settings.value("last_game"))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(application, "start_game", spy)
    assert application.run(None, settings=settings, startup_profile=True, stored=pending) == 0
    assert child.wait(5) is not None  # stopped
    assert opened == [str(game)]


@pytest.mark.parametrize("umpires", [None, "tables", "aircraft"])
def test_the_first_start_paints_the_demos_shipped_rows_then_makes_it(tmp_path, umpires) -> None:
    """The very first start (no settings, no game): the desk paints the demo game's rows
    shipped with Airboss (``app.startup.demo_rows``), then makes the demo game and opens it: one
    demo game, named in the settings as the last game, keeping the rows that were painted. With the
    umpire's table values or aircraft of the demo's ruleset in the data folder (they could
    change the rows) the demo game is made before the paint, as before."""
    data = tmp_path / "data"
    if umpires:
        (data / umpires / "phantoms").mkdir(parents=True)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AIRBOSS_DATA_DIR": str(data),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    run = [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())"]
    out = subprocess.run(
        [*run, "--startup-profile"], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert "rows from the child" not in out
    if umpires is None:
        assert out.index("first paint") < out.index("game opened"), out
    else:
        assert out.index("game opened") < out.index("first paint"), out
    (demo,) = (data / "games").glob("*.airboss")
    settings = QSettings(str(data / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value("last_game") == str(demo)
    kept = kept_rows(str(demo))
    assert kept is not None
    shipped = json.loads(DEMO_ROWS.read_text(encoding="utf-8"))
    assert {k: kept[k] for k in ("desk", "roster", "turn")} == shipped
