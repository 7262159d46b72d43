"""The umpire's walk at 1366x768, keys only (issue 48, eighth stop): what the keyboard could not
reach, or reached where nothing could be seen.

- The scroll areas of the Combat and Initiative panels (and of the Players' screens dialog) took
  a Tab stop of their own: Tab landed on the invisible area around the form, nothing painted
  showed the cursor, and the next key did nothing the umpire could see.
- In Table mode (View, Ctrl+Shift+T: larger type) the die fields kept the width set for the
  desk's type, and their placeholder was painted cut: "1-10 (0 …" in the d10s of a gun
  attack at 1366x768. A die field is as wide as its placeholder in the type it is painted in.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QScrollArea,
    QStyle,
    QStyleOptionFrame,
    QWidget,
)

from tests.ui.test_combat_tab_order import walk
from tests.ui.test_dice_entry import gun_line
from tests.ui.test_walk_gun_step import CTRL_SHIFT, window

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


def painted_placeholder(edit: QLineEdit) -> str:
    """The placeholder as an empty ``edit`` paints it: elided with "…" to the room its style
    leaves for text (QLineEdit::paintEvent: the contents rectangle, less the text margins and
    the 2 px Qt keeps either side)."""
    opt = QStyleOptionFrame()
    edit.initStyleOption(opt)
    rect = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, edit)
    margins = edit.textMargins()
    fm = edit.fontMetrics()
    room = rect.width() - margins.left() - margins.right() - 2 * 2
    return fm.elidedText(edit.placeholderText(), Qt.TextElideMode.ElideRight, room)


def test_the_die_placeholder_is_whole_in_table_mode(window, qtbot) -> None:
    """Ctrl+Shift+T, Enter on Olds 1's gun line, 2 typed: both d10s paint "1-10 (0 = 10)"
    whole in Table mode's type, and again once back in the desk's."""
    turn = window.panels["turn"]
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_T, CTRL_SHIFT)
    assert window.table_mode
    combat = gun_line(qtbot, window)  # (the cursor in the first die)
    edits = [f.edit for f in combat.dice_fields]
    larger = edits[0].font().pointSizeF()
    for back in (False, True):
        if back:
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_T, CTRL_SHIFT)
            assert not window.table_mode and edits[0].font().pointSizeF() < larger
        for edit in edits:
            edit.grab()  # painted, laid out in the type it has now
            assert edit.isVisible() and edit.displayText() == ""
            assert edit.placeholderText() == "1-10 (0 = 10)"
            assert painted_placeholder(edit) == edit.placeholderText(), (back, edit.width())
