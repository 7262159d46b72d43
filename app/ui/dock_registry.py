"""The one list of the panels the main window builds: adding a panel is one line here (and its
place in the layouts of ``app.ui.desk_layout``).

Each entry names the panel — ``name`` (the key its place is saved under) and ``title`` —,
says whether it gives the desk's menus an action (its own ``QWidget.actions()``, put in the
Game menu), and which class builds it, by module and name: so the window lays
out every dock at once and imports and builds a panel only when it is first seen (issue 20:
the desk paints the roster and the turn before the other panels are loaded). A panel whose
module or class is missing is an error of the installation, found by the tests (every entry
is loaded there); one that fails while it is built is reported by the main window, which
carries on without it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import Protocol, runtime_checkable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QTreeWidget, QWidget

from app.ui.model import EngagementModel
from app.ui.when_shown import WhenShown

LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea


class PanelClass(Protocol):
    """What builds a panel: its class, called with the desk's model."""

    def __call__(self, model: EngagementModel) -> QWidget: ...


# What a panel may offer the main window beyond being a QWidget. The window holds its panels
# as plain widgets (each is imported only when first seen, issue 20) and asks one of them for
# what it offers with ``isinstance`` against these: a panel that does not offer it is simply
# not asked.


@runtime_checkable
class InView(Protocol):
    """A panel that does no work while out of view (issue 20): its ``when_shown`` follows its
    dock and rebuilds it once it is seen."""

    when_shown: WhenShown


@runtime_checkable
class Compact(Protocol):
    """A panel with a table-mode layout of its own (the Turn panel leaves out its steps)."""

    def set_compact(self, on: bool) -> None: ...


@runtime_checkable
class ShowsLogLine(Protocol):
    """The Game log: in front on one action's line."""

    def show_action(self, action: int) -> None: ...


@runtime_checkable
class SelectsAircraft(Protocol):
    """The Roster: selects aircraft by id, in its tree of aircraft."""

    tree: QTreeWidget

    def select(self, ids: Iterable[str]) -> None: ...


@runtime_checkable
class ShowsActing(Protocol):
    """The Turn panel: its list of who acts now."""

    acting: QListWidget


@runtime_checkable
class PrintsBoard(Protocol):
    """The Board: its positions, arcs and readings as a PDF page (issue 18)."""

    def board_pdf(self, path: str) -> None: ...


@dataclass(frozen=True)
class PanelEntry:
    name: str
    title: str
    #: ``module:Class`` of the panel's widget
    builder: str
    #: it gives the desk's menus an action: built once the desk has painted, in view or not,
    #: so the menu and its shortcut are there
    menu_actions: bool = False

    def load(self) -> PanelClass:
        """The panel's class (its module imported now, if it was not)."""
        module, _, cls = self.builder.partition(":")
        built: PanelClass = getattr(import_module(module), cls)
        return built


PANELS: tuple[PanelEntry, ...] = (
    PanelEntry("roster", "Roster", "app.ui.docks.roster:RosterDock"),
    PanelEntry("turn", "Turn", "app.ui.docks.turn:TurnDock", menu_actions=True),
    PanelEntry(
        "initiative", "Initiative", "app.ui.docks.initiative:InitiativeDock", menu_actions=True
    ),
    PanelEntry("combat", "Combat", "app.ui.docks.combat:CombatDock"),
    PanelEntry("angle_off", "Board", "app.ui.docks.angle_off:AngleOffDock"),
    PanelEntry("ledgers", "Ledgers", "app.ui.docks.ledgers:LedgersDock"),
    PanelEntry("critical_log", "Critical hits", "app.ui.docks.critical_log:CriticalLogDock"),
    PanelEntry("game_log", "Game log", "app.ui.docks.game_log:GameLogDock"),
    PanelEntry("displays", "Displays", "app.ui.docks.displays:DisplaysDock"),
    # issue 35: pyqtgraph and numpy load when the panel is first shown, never before
    PanelEntry("after_action", "After-action", "app.ui.docks.after_action:AfterActionDock"),
)
#: the panels the desk paints first, with the window (issue 20)
FIRST = ("roster", "turn")
