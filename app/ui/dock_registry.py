"""The one list of the panels the main window builds: adding a panel is one line here.

Each entry says where the panel lives and what it is called — ``name`` (the key its place is
saved under), ``title``, ``area`` ("left", "right" or "bottom"), optionally ``tab_with`` (the
panel it starts as a tab of) and ``follows_selection`` (it follows the roster's selection
through ``show_selection(ids)``) — and which class builds it, by module and name, so that the
window can lay out every dock at once and import and build a panel only when it is first seen
(issue 20: the desk paints the roster and the turn before the other panels are loaded). A
panel whose module or class is missing is an error of the installation, found by the tests
(every entry is loaded there); one that fails while it is built is reported by the main
window, which carries on without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from app.ui.model import EngagementModel

Area = Qt.DockWidgetArea
LEFT, RIGHT, BOTTOM, TOP = (
    Area.LeftDockWidgetArea,
    Area.RightDockWidgetArea,
    Area.BottomDockWidgetArea,
    Area.TopDockWidgetArea,
)
AREAS = {"left": LEFT, "right": RIGHT, "bottom": BOTTOM, "top": TOP}


class PanelClass(Protocol):
    """What builds a panel: its class, called with the desk's model."""

    def __call__(self, model: EngagementModel) -> QWidget: ...


@dataclass(frozen=True)
class PanelEntry:
    name: str
    title: str
    area: str
    #: ``module:Class`` of the panel's widget
    builder: str
    tab_with: str | None = None
    follows_selection: bool = False
    #: the panel gives the desk's menus an action (built once the desk has painted, in view
    #: or not, so the menu and its shortcut are there)
    menu_actions: bool = False

    def load(self) -> PanelClass:
        """The panel's class (its module imported now, if it was not)."""
        module, _, cls = self.builder.partition(":")
        built: PanelClass = getattr(import_module(module), cls)
        return built

    @property
    def dock_area(self) -> Qt.DockWidgetArea:
        return AREAS[self.area]


PANELS: tuple[PanelEntry, ...] = (
    PanelEntry("roster", "Roster", "left", "app.ui.docks.roster:RosterDock"),
    PanelEntry("turn", "Turn", "left", "app.ui.docks.turn:TurnDock"),
    PanelEntry(
        "initiative",
        "Initiative",
        "left",
        "app.ui.docks.initiative:InitiativeDock",
        "turn",
        menu_actions=True,
    ),
    PanelEntry(
        "combat", "Combat", "right", "app.ui.docks.combat:CombatDock", follows_selection=True
    ),
    PanelEntry(
        "angle_off",
        "Board",
        "right",
        "app.ui.docks.angle_off:AngleOffDock",
        "combat",
        follows_selection=True,
    ),
    PanelEntry(
        "ledgers", "Ledgers", "bottom", "app.ui.docks.ledgers:LedgersDock", follows_selection=True
    ),
    PanelEntry(
        "critical_log", "Critical hits", "bottom", "app.ui.docks.critical_log:CriticalLogDock"
    ),
    PanelEntry("game_log", "Game log", "bottom", "app.ui.docks.game_log:GameLogDock"),
    PanelEntry("displays", "Displays", "left", "app.ui.docks.displays:DisplaysDock"),
)
#: the panels the desk paints first, with the window (issue 20)
FIRST = ("roster", "turn")
