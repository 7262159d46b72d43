"""The umpire's walk at 1366x768, keys and clicks, on the Combat panel (issue 48, seventh stop).

- Tab into the odds before the roll (and the what-ifs kept beside them) never came out: Qt's
  tables step from cell to cell with Tab and wrap from the last to the first, so 150 Tabs from
  "Other modifiers" stayed in the odds table. Tab leaves them now, as it leaves every table the
  umpire only reads; so does the After-action panel's luck per aircraft.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QPushButton, QTableWidget

from tests.ui.test_after_action_panel import panel, played
from tests.ui.test_dice_entry import desk, open_line

#: fixtures: the Phantoms demo at turn 1, impulse 1, f) Gun; the After-action panel on the
#: demo's played part of turn 1
__all__ = ["desk", "panel", "played"]


def test_tab_from_other_modifiers_leaves_the_odds_table(desk, qtbot: Any) -> None:
    """Enter on "Olds 1 — may fire guns", 2 typed, a click in Other modifiers, then Tab: the
    cursor goes through the odds table (if it stops there at all) and out of it again."""
    window, _session = desk
    combat = window.panels["combat"]
    open_line(qtbot, window, "Olds 1 — may fire guns")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    odds = combat.findChild(QTableWidget, "odds_table")
    qtbot.waitUntil(lambda: odds.rowCount() > 0, timeout=3000)  # the odds are shown
    other = combat.form.editor("attacker_modifiers")
    qtbot.mouseClick(other, Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is other
    visited = []
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    assert odds in visited  # the walk's path: Tab does reach the odds table...
    inside = visited.index(odds)
    assert visited[inside + 1] is not odds  # ...and the next Tab leaves it
    assert visited[-1] is not odds


def test_tab_leaves_the_compared_odds(desk, qtbot: Any) -> None:
    """Olds 1's odds kept with Compare, a click in the kept columns, Tab: out of them."""
    window, _session = desk
    combat = window.panels["combat"]
    open_line(qtbot, window, "Olds 1 — may fire guns")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    compare = combat.findChild(QPushButton, "compare")
    qtbot.waitUntil(compare.isVisible, timeout=3000)
    qtbot.mouseClick(compare, Qt.MouseButton.LeftButton)
    table = combat.findChild(QTableWidget, "compare_table")
    qtbot.waitUntil(lambda: table.isVisible() and table.columnCount() > 0, timeout=3000)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert QApplication.focusWidget() is table
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        table.setFocus()
        qtbot.keyClick(table, key)
        assert QApplication.focusWidget() is not table, key


def test_tab_leaves_the_after_action_luck_table(panel, qtbot: Any) -> None:
    """After-action, Luck: a click in the luck per aircraft, Tab (and Shift+Tab): out of it."""
    view = panel.view
    view.tabs.setCurrentIndex(1)
    table = view.luck_table
    qtbot.waitUntil(lambda: table.isVisible() and table.rowCount() == 3, timeout=3000)
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
        table.setFocus()
        table.setCurrentCell(table.rowCount() - 1, table.columnCount() - 1)  # the last cell
        qtbot.keyClick(table, key)
        assert QApplication.focusWidget() is not table, key
