"""Issue 44: the main window asks a panel for what it offers through the Protocols of
``app.ui.dock_registry`` (``isinstance``), never by duck typing. A panel that stopped offering
what the window asks of it would make the window quietly skip it (Board to PDF saying "There
is no board to print", Find selecting nothing): each panel offers what is asked of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from app.session import GameSession
from app.ui.dock_registry import (
    PANELS,
    Compact,
    InView,
    PrintsBoard,
    SelectsAircraft,
    ShowsActing,
    ShowsLogLine,
)
from app.ui.main_window import MainWindow
from app.ui.model import EngagementModel

#: what the window asks of which panel
ASKED = {
    "roster": {InView, SelectsAircraft},
    "turn": {InView, Compact, ShowsActing},
    "initiative": {InView},
    "combat": {InView},
    "angle_off": {InView, PrintsBoard},
    "ledgers": {InView},
    "critical_log": {InView},
    "game_log": {InView, ShowsLogLine},
    "displays": {InView},
    "after_action": {InView},
}
OFFERS = (InView, Compact, ShowsLogLine, SelectsAircraft, ShowsActing, PrintsBoard)


@pytest.fixture
def window(qtbot: Any, tmp_path: Path, session: GameSession) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", False)
    w = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(w)
    w.show_session(session)
    return w


def test_every_panel_offers_what_the_window_asks_of_it(window: MainWindow) -> None:
    assert set(ASKED) == {entry.name for entry in PANELS}
    for name, asked in ASKED.items():
        panel = window.panel(name)
        assert panel is not None, window.missing_panels
        offered = {p for p in OFFERS if isinstance(panel, p)}
        assert asked <= offered, name


def test_find_selects_through_the_roster_it_asks(window: MainWindow) -> None:
    """Edit > Find reaches the Roster through ``SelectsAircraft``: the aircraft is selected
    there, as the Roster's tree shows it."""
    assert window.find_aircraft("red") == ["red-1"]
    roster = window.panel("roster")
    assert isinstance(roster, SelectsAircraft)
    assert [item.text(0) for item in roster.tree.selectedItems()] == ["Red 1"]
