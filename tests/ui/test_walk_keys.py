"""The umpire's walk at 1366x768, keys only (issue 48, eighth stop): what the keyboard could not
reach, or reached where nothing could be seen.

- The scroll areas of the Combat and Initiative panels (and of the Players' screens dialog) took
  a Tab stop of their own: Tab landed on the invisible area around the form, nothing painted
  showed the cursor, and the next key did nothing the umpire could see.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget

from tests.ui.test_combat_tab_order import walk
from tests.ui.test_walk_gun_step import window

__all__ = ["window"]  # the Phantoms demo at its gun step, on the desk (a fixture)


def tab_round(qtbot: Any, start: QWidget, key: Qt.Key, most: int = 200) -> list[QWidget | None]:
    """``key`` pressed from ``start`` until the cursor is back on it (at most ``most`` times):
    where it went each time."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    went: list[QWidget | None] = []
    while len(went) < most:
        went += walk(qtbot, key, 1)
        if went[-1] is start:
            break
    return went


def test_tab_stops_only_on_controls_the_umpire_sees(window, qtbot) -> None:
    """Tab and Shift+Tab round the whole desk, from the Combat panel's Procedure picker: every
    stop is a control painted on the desk, never a scroll area (the Combat panel's or the
    Initiative panel's, both on the desk at 1366x768)."""
    combat, initiative = window.panels["combat"], window.panels["initiative"]
    for area in (combat.scroll_area, initiative.scroll_area):
        assert area.isVisible()
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        went = tab_round(qtbot, combat.procedure, key)
        assert went[-1] is combat.procedure, key  # round the desk and back
        areas = [w for w in went if isinstance(w, QScrollArea)]
        assert not areas, (key, [type(a.parentWidget()).__name__ for a in areas])
        assert all(w is not None and w.isVisible() for w in went), key
        # the panels' own controls are among the stops (the areas' insides are reached)
        assert initiative.roll_button in went and combat.resolve_button in went, key
