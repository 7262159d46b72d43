"""The one list of the panels the main window builds: adding a panel is one line here.

Each panel class declares its own registry entry as class attributes: ``panel_name`` (the key
its place is saved under), ``panel_title``, ``panel_area`` ("left", "right" or "bottom"), and
optionally ``panel_tab_with`` (the panel it starts as a tab of) and ``follows_selection`` (it
follows the roster's selection through ``show_selection(ids)``). The classes are imported
directly: a panel missing or broken is an error of the installation, found by the tests, not
a panel silently left out. A panel that fails while it is *built* is reported by the main
window, which carries on without it.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from app.ui.docks.angle_off import AngleOffDock
from app.ui.docks.combat import CombatDock
from app.ui.docks.critical_log import CriticalLogDock
from app.ui.docks.displays import DisplaysDock
from app.ui.docks.game_log import GameLogDock
from app.ui.docks.initiative import InitiativeDock
from app.ui.docks.ledgers import LedgersDock
from app.ui.docks.roster import RosterDock
from app.ui.docks.turn import TurnDock
from app.ui.model import EngagementModel

Area = Qt.DockWidgetArea
LEFT, RIGHT, BOTTOM, TOP = (
    Area.LeftDockWidgetArea,
    Area.RightDockWidgetArea,
    Area.BottomDockWidgetArea,
    Area.TopDockWidgetArea,
)
AREAS = {"left": LEFT, "right": RIGHT, "bottom": BOTTOM, "top": TOP}


class Panel(Protocol):
    """What the main window reads off a panel class."""

    panel_name: ClassVar[str]
    panel_title: ClassVar[str]
    panel_area: ClassVar[str]

    def __call__(self, model: EngagementModel) -> QWidget: ...


def tab_with(panel: type) -> str | None:
    return getattr(panel, "panel_tab_with", None)


def follows_selection(panel: type) -> bool:
    return bool(getattr(panel, "follows_selection", False))


def area(panel: type) -> Qt.DockWidgetArea:
    return AREAS[getattr(panel, "panel_area", "right")]


DOCKS: tuple[type, ...] = (
    RosterDock,
    TurnDock,
    InitiativeDock,
    CombatDock,
    AngleOffDock,
    LedgersDock,
    CriticalLogDock,
    GameLogDock,
    DisplaysDock,
)
