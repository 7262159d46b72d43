"""Rearranged panels, window size and table mode come back after a restart; Reset layout."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt

from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


@pytest.fixture
def game(tmp_path):
    with GameSession.create(tmp_path / "layout.airboss", "skirmish", "Layout") as s:
        s.add_aircraft("Blue", "jet", "Blue 1")
    return tmp_path / "layout.airboss"


def start(settings_path, game, qtbot):
    """One run of the desk, as the application starts it."""
    settings = QSettings(str(settings_path), QSettings.Format.IniFormat)
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    w.open_game(game)
    w.show()
    qtbot.waitExposed(w)
    return w


def stop(w):
    w.close()  # saves the layout, as quitting does
    w.model.set_session(None)


def test_rearranged_docks_come_back_after_a_restart(tmp_path, game, qtbot):
    ini = tmp_path / "settings.ini"
    first = start(ini, game, qtbot)
    assert first.dockWidgetArea(first.docks["game_log"]) == RIGHT  # below Combat (issue 14)
    first.addDockWidget(BOTTOM, first.docks["game_log"])
    first.docks["turn"].hide()
    # within the offscreen screen (800 x 800) and above the window's minimum size, so the
    # window system keeps it as it is
    hint = first.minimumSizeHint()
    first.setGeometry(5, 30, max(760, hint.width()), max(720, hint.height()))
    where = first.geometry().getRect()
    stop(first)

    second = start(ini, game, qtbot)
    assert second.dockWidgetArea(second.docks["game_log"]) == BOTTOM
    assert not second.docks["turn"].isVisible()
    assert not second.docks["turn"].toggleViewAction().isChecked()
    assert second.docks["roster"].isVisible()
    assert second.geometry().getRect() == where
    stop(second)


def test_table_mode_is_remembered(tmp_path, game, qtbot):
    ini = tmp_path / "settings.ini"
    first = start(ini, game, qtbot)
    first.table_mode_action.trigger()
    stop(first)
    second = start(ini, game, qtbot)
    assert second.table_mode and second.table_mode_action.isChecked()
    stop(second)


def test_a_floating_dock_stays_floating(tmp_path, game, qtbot):
    ini = tmp_path / "settings.ini"
    first = start(ini, game, qtbot)
    first.docks["roster"].setFloating(True)
    stop(first)
    second = start(ini, game, qtbot)
    assert second.docks["roster"].isFloating()
    stop(second)


def test_reset_layout(tmp_path, game, qtbot):
    w = start(tmp_path / "settings.ini", game, qtbot)
    w.addDockWidget(LEFT, w.docks["game_log"])
    w.docks["roster"].hide()
    w.docks["initiative"].setFloating(True)
    w.reset_layout_action.trigger()
    assert w.dockWidgetArea(w.docks["game_log"]) == RIGHT
    assert w.dockWidgetArea(w.docks["roster"]) == LEFT
    assert w.docks["roster"].isVisible()
    assert not w.docks["initiative"].isFloating()
    stop(w)
