"""The desk paints its last game from the glance it kept when it closed on it (issue 20): the
window, the roster and the turn as they were, before pydantic, the game's models and its
ruleset are imported; the live panels then take their place and look the same. A file that
changed, a glance that does not fit, or a last game that cannot be opened after all, and the
desk is what it would have been without a glance."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage

from app import __version__
from app.cli import main
from app.core.paths import user_data_dir
from app.session import GameSession
from app.ui import application
from app.ui.application import keep_glance, start_game
from app.ui.glance import GLANCE_NAME, load_glance, start_glance
from app.ui.main_window import MainWindow, settle
from app.ui.model import EngagementModel

SITE = Path(__file__).parents[1] / "fixtures" / "site"


@pytest.fixture
def game(demo_game_file: Path) -> Path:
    path = demo_game_file
    with GameSession.open(path) as s:  # something to show: the clock two steps on
        s.next_step()
        s.next_step()
    return path


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def desk(qtbot, settings: QSettings, **kwargs) -> MainWindow:
    window = MainWindow(EngagementModel(), settings, panels_later=True, **kwargs)
    qtbot.addWidget(window)
    window.persist_layout = False
    window.resize(1366, 768)
    return window


def close_on(qtbot, settings: QSettings, game: Path) -> tuple[str, str]:
    """The desk on ``game``, closed as the umpire closes it: its glance is kept. Its title and
    the turn in its status bar as it closed."""
    window = desk(qtbot, settings)
    window.show_session(GameSession.open(game))
    window.show()
    window.build_panels()
    settle()
    seen = window.windowTitle(), window.status_labels["phase"].text()
    window.close()
    keep_glance(window)
    return seen


def grab(window: MainWindow, name: str) -> QImage:
    return window.docks[name].grab().toImage()


def test_the_first_paint_from_the_glance_is_the_desk_once_live(qtbot, settings, game) -> None:
    title, phase = close_on(qtbot, settings, game)
    assert (user_data_dir() / GLANCE_NAME).exists()
    found = start_glance(str(game), None)
    assert found is not None
    window = desk(qtbot, settings, glance=found[1])
    assert window.glanced
    assert "roster" not in window.panels and "turn" not in window.panels  # not yet built
    window.show()
    settle()
    first = {name: grab(window, name) for name in ("roster", "turn")}
    assert window.windowTitle() == title == "Start-up — Airboss"
    assert window.status_labels["phase"].text() == phase != ""
    session, problem = start_game(None, None, settings)
    assert session is not None and not problem
    window.show_session(session)
    window.build_panels()
    settle()
    assert "roster" in window.panels and "turn" in window.panels  # the live panels took over
    for name, image in first.items():
        assert image == grab(window, name), f"the {name} painted from the glance differs"
    assert window.panels["roster"].tree.topLevelItemCount() == 2
    window.model.set_session(None)


def test_the_live_roster_keeps_the_selection_and_the_scrolling_the_glance_shows(
    qtbot, settings, tmp_path
) -> None:
    """What the umpire left selected and scrolled to is what the first paint shows and what
    the live roster then has: the same picture, and a selection the other panels follow."""
    path = tmp_path / "forty.airboss"
    with GameSession.create(path, "skirmish", "Forty") as s:
        ids = [s.add_aircraft("Blue" if i % 2 else "Red", "jet", f"Jet {i}") for i in range(40)]
    chosen = sorted(ids[31:34:2])
    window = desk(qtbot, settings)
    window.show_session(GameSession.open(path))
    window.show()
    window.build_panels()
    settle()
    window.panels["roster"].select(chosen)
    window.panels["roster"].tree.verticalScrollBar().setValue(12)
    settle()
    window.close()
    keep_glance(window)
    found = start_glance(str(path), None)
    assert found is not None
    again = desk(qtbot, settings, glance=found[1])
    again.show()
    settle()
    first = grab(again, "roster")
    session, _ = start_game(None, None, settings)
    again.show_session(session)
    again.build_panels()
    settle()
    live = again.panels["roster"]
    assert live.tree.verticalScrollBar().value() == 12
    assert sorted(live.selected_ids()) == chosen
    assert sorted(again.selected_aircraft) == chosen  # the panels that follow it have it
    assert first == grab(again, "roster")
    again.model.set_session(None)


def test_the_first_paint_from_the_glance_imports_no_models_and_no_ruleset(
    qtbot, settings, game
) -> None:
    close_on(qtbot, settings, game)
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "from app.ui.glance import start_glance\n"
        f"found = start_glance({str(game)!r}, None)\n"
        "from PySide6.QtCore import QSettings\n"
        "from app.ui.application import application\n"
        "from app.ui.main_window import MainWindow\n"
        "from app.ui.model import EngagementModel\n"
        "app = application()\n"
        f"settings = QSettings({str(settings.fileName())!r}, QSettings.Format.IniFormat)\n"
        "w = MainWindow(EngagementModel(), settings, panels_later=True, glance=found[1])\n"
        "w.persist_layout = False\n"
        "w.show(); app.processEvents(); w.grab()\n"
        "heavy = ('pydantic', 'app.core.events', 'app.core.engagement', 'app.session',\n"
        "         'app.store.store', 'app.plugins', 'rulesets', 'skirmish', 'importlib.metadata')\n"
        "print(w.glanced, [m for m in heavy if m in sys.modules], w.windowTitle())\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True [] Start-up — Airboss"


def test_airboss_paints_its_last_game_from_the_glance_and_keeps_it_current(
    qapp, game, capsys
) -> None:
    """Through the command line: the first start opens the game before it paints, the next
    (the same file, unchanged) paints first and opens the game after; an action in between
    and the glance is not used."""
    assert main(["--startup-profile", str(game)]) == 0
    first = capsys.readouterr().out
    assert first.index("game opened") < first.index("first paint")
    assert main(["--startup-profile", str(game)]) == 0
    glanced = capsys.readouterr().out
    assert glanced.index("first paint") < glanced.index("game opened")
    assert main(["--startup-profile"]) == 0  # no GAME: the last game, from its glance too
    assert capsys.readouterr().out.index("first paint") < glanced.index("game opened")
    with GameSession.open(game) as s:
        s.next_step()
    assert start_glance(str(game), None) is None
    assert main(["--startup-profile", str(game)]) == 0
    again = capsys.readouterr().out
    assert again.index("game opened") < again.index("first paint")
    assert start_glance(str(game), None) is not None  # kept again as the desk closed


def test_a_glance_of_another_last_game_is_not_used(qtbot, settings, game, tmp_path) -> None:
    close_on(qtbot, settings, game)
    found = start_glance(None, None)
    assert found is not None and Path(found[0]) == game.resolve()
    settings.setValue("last_game", str(tmp_path / "elsewhere.airboss"))
    shown: list[bool] = []
    real = MainWindow.__init__

    def spy(self, *args, **kwargs) -> None:
        real(self, *args, **kwargs)
        shown.append(self.glanced)
        self.persist_layout = False

    mp = pytest.MonkeyPatch()
    mp.setattr(MainWindow, "__init__", spy)
    mp.setattr(application, "take_screenshot", lambda *a: 0)
    try:
        assert application.run(settings=settings, startup_profile=True, glance=found) == 0
    finally:
        mp.undo()
    assert shown == [False]


def test_a_glance_that_does_not_fit_is_refused_and_the_panels_built(qtbot, settings, game) -> None:
    close_on(qtbot, settings, game)
    shown = load_glance(user_data_dir(), str(game), __version__)
    assert shown is not None
    for broken in (
        {**shown, "roster": {"kind": "turn"}},
        {**shown, "used": ["combat"]},
        {key: value for key, value in shown.items() if key != "title"},
    ):
        window = desk(qtbot, settings, glance=broken)
        assert not window.glanced
        assert "roster" in window.panels and "turn" in window.panels
        assert window.windowTitle() == "Airboss"


def test_a_last_game_that_cannot_be_opened_after_the_glance_says_so(
    qtbot, settings, game, monkeypatch, capsys
) -> None:
    close_on(qtbot, settings, game)
    found = start_glance(str(game), None)
    monkeypatch.setattr(
        application, "start_game", lambda *a: (None, "Could not reopen the last game: gone")
    )
    windows: list[MainWindow] = []
    real = MainWindow.__init__

    def spy(self, *args, **kwargs) -> None:
        real(self, *args, **kwargs)
        windows.append(self)

    monkeypatch.setattr(MainWindow, "__init__", spy)
    assert application.run(str(game), settings=settings, startup_profile=True, glance=found) == 0
    (window,) = windows
    assert window.glanced
    assert window.windowTitle() == "Airboss"  # not the glance's title
    assert window.status_labels["game"].text() == "No game open"
    assert window.panels["roster"].tree.topLevelItemCount() == 0
    assert "Could not reopen the last game" in window.refusal.text()
    assert start_glance(str(game), None) is None  # nothing current to keep


def test_a_desk_whose_turn_panel_is_out_of_date_keeps_no_glance(qtbot, settings, game) -> None:
    window = desk(qtbot, settings)
    window.show_session(GameSession.open(game))
    window.show()
    window.build_panels()
    settle()
    window.docks["initiative"].raise_()  # the Turn panel tabbed away: it waits, out of date
    settle()
    window.model.session.next_step()
    assert window.panels["turn"].when_shown.stale
    assert window.glance() is None
    window.close()
    keep_glance(window)
    assert not (user_data_dir() / GLANCE_NAME).exists()


@pytest.fixture(autouse=True)
def _no_windows_left(qapp) -> Iterator[None]:
    yield
    for w in qapp.topLevelWidgets():
        if isinstance(w, MainWindow) and w.model.has_session:
            w.model.set_session(None)
