"""The one list of the panels the main window builds: adding a panel is one line here.

Each entry names the dock's object name (the key its place is saved under), its title, the
module and class that build it from the ``EngagementModel``, and where it starts. A panel whose
module is not there (another desk still writing it) is left out; one that fails to import is
reported, and the window carries on without it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class DockEntry:
    """One panel: ``module:cls`` is called with the model and returns the panel's widget."""

    name: str
    title: str
    module: str
    cls: str
    area: Qt.DockWidgetArea
    #: docks sharing a ``tab_with`` name start as tabs of that dock
    tab_with: str | None = None
    #: the panel follows the roster's selection through its ``show_selection(ids)``
    follows_selection: bool = False

    def factory(self) -> Callable[[EngagementModel], QWidget] | None:
        """The class that builds this panel, or ``None`` if its module is not installed."""
        try:
            mod = importlib.import_module(self.module)
        except ModuleNotFoundError as e:
            if e.name == self.module:
                return None
            raise
        return getattr(mod, self.cls)


DOCKS: tuple[DockEntry, ...] = (
    DockEntry("roster", "Roster", "app.ui.docks.roster", "RosterDock", LEFT),
    DockEntry("turn", "Turn", "app.ui.docks.turn", "TurnDock", LEFT),
    DockEntry(
        "initiative", "Initiative", "app.ui.docks.initiative", "InitiativeDock", LEFT, "turn"
    ),
    DockEntry(
        "combat", "Combat", "app.ui.docks.combat", "CombatDock", RIGHT, follows_selection=True
    ),
    DockEntry(
        "angle_off",
        "Angle-off",
        "app.ui.docks.angle_off",
        "AngleOffDock",
        RIGHT,
        "combat",
        follows_selection=True,
    ),
    DockEntry(
        "ledgers", "Ledgers", "app.ui.docks.ledgers", "LedgersDock", BOTTOM, follows_selection=True
    ),
    DockEntry(
        "critical_log", "Critical hits", "app.ui.docks.critical_log", "CriticalLogDock", BOTTOM
    ),
    DockEntry("game_log", "Game log", "app.ui.docks.game_log", "GameLogDock", BOTTOM),
    DockEntry("displays", "Displays", "app.ui.docks.displays", "DisplaysDock", LEFT, None),
)


def available_docks() -> list[tuple[DockEntry, Callable[[EngagementModel], QWidget] | None, str]]:
    """Every entry with its factory (``None`` if absent) and the import error, if any."""
    out = []
    for entry in DOCKS:
        try:
            out.append((entry, entry.factory(), ""))
        except Exception as e:  # noqa: BLE001 - a broken panel must not stop the desk
            out.append((entry, None, f"{type(e).__name__}: {e}"))
    return out
