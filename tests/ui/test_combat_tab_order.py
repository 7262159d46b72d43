"""Issue 48: an umpire working by keys only goes through the Combat panel with Tab: the fields
of the form shown, then its dice, then Resolve (Shift+Tab back), whichever procedure is shown,
also after the form changed procedure and came back (a kept form is put in the window again)
and after the die fields changed. Tab from the last field went to the Roster, the start of the
window's Tab chain, never to the dice nor to Resolve.

The Phantoms demo at turn 1, impulse 1, segment f (guns), the players rolling, at 1366x768:
Olds 1 guns Red 1 (position 2); then Red 1 guns Olds 2, the critical hit it owes opens and is
rolled, and Olds 1's gun attack comes back.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QLineEdit, QWidget

from tests.ui.test_dice_entry import desk, open_line
from tests.ui.test_kept_forms import red_1_guns_olds_2, roll_the_critical

__all__ = ["desk"]  # the Phantoms desk in its guns segment (a fixture)

#: Olds 1's gun attack on Red 1, position 2 typed, as the cursor meets it with Tab: the label
#: painted beside each widget and the widget's own text (the cards' values are locked: no Tab)
GUN_ATTACK = [
    ("Gun Firing Position Diagram", "2"),
    ("Other modifiers", "0"),
    ("Target in the same hex and altitude (7.2)", ""),
    ("Facing the same way as the target", ""),
    ("d10, gun attack: Olds 1:", ""),
    ("d10, gun attack: Red 1:", ""),
    ("", "Re&solve"),
]

#: the critical hit Red 1's attack owes (8.1): its boxes, its d10, Resolve
CRITICAL_HIT = [
    ("Pilot already wounded", ""),
    ("Already has structural damage", ""),
    ("Engine already hit", ""),
    ("Already had a Fire critical hit", ""),
    ("On fire now", ""),
    ("In a Hard Turn or Loop", ""),
    ("d10, critical hit table:", ""),
    ("", "Re&solve"),
]


def painted(w: QWidget | None) -> tuple[str, str]:
    """What the widget with the cursor paints: the label shown for it and its own text."""
    assert w is not None, "nothing has the keyboard focus"
    label = next(
        (
            lab.text()
            for lab in w.window().findChildren(QLabel)
            if lab.buddy() is w and lab.isVisible()
        ),
        "",
    )
    if isinstance(w, QLineEdit):
        return label, w.displayText()
    if isinstance(w, QComboBox):
        return label, w.currentText()
    if isinstance(w, QAbstractButton):
        return label, w.text()
    return label, type(w).__name__


def tab_stops(combat: Any) -> list[QWidget]:
    """Where Tab must go, in order: the fields the umpire types (a value read from the card
    takes no cursor until overridden), each die field, Resolve."""
    form = combat.form
    fields = [
        form.editor(n)
        for n in form.names
        if form.editor(n).focusPolicy() != Qt.FocusPolicy.NoFocus and form.editor(n).isVisible()
    ]
    dice = [f.edit for f in combat.dice_fields]
    assert fields and dice and all(d.isVisible() for d in dice)
    assert combat.resolve_button.isVisible() and combat.resolve_button.isEnabled()
    return [*fields, *dice, combat.resolve_button]


def walk(qtbot: Any, key: Qt.Key, steps: int) -> list[QWidget | None]:
    """``key`` pressed ``steps`` times where the cursor is; where it went each time."""
    went: list[QWidget | None] = []
    for _ in range(steps):
        focus = QApplication.focusWidget()
        assert focus is not None, "nothing has the keyboard focus"
        qtbot.keyClick(focus, key)
        went.append(QApplication.focusWidget())
    return went


def tab_through(qtbot: Any, combat: Any) -> list[tuple[str, str]]:
    """From the cursor (in a die) Shift+Tab back to the first field, then Tab on to Resolve
    and Shift+Tab back again: each stop the expected widget; what the stops paint, returned."""
    stops = tab_stops(combat)
    at = stops.index(QApplication.focusWidget())
    back = walk(qtbot, Qt.Key.Key_Backtab, at)
    assert back == stops[:at][::-1], [painted(w) for w in back]
    assert QApplication.focusWidget() is stops[0]
    forth = walk(qtbot, Qt.Key.Key_Tab, len(stops) - 1)
    assert [painted(w) for w in forth] == [painted(w) for w in stops[1:]]
    assert forth == stops[1:]
    back = walk(qtbot, Qt.Key.Key_Backtab, len(stops) - 1)
    assert back == stops[:-1][::-1], [painted(w) for w in back]
    return [painted(w) for w in stops]


def test_tab_goes_through_the_fields_then_the_dice_then_resolve(desk, qtbot):
    """Olds 1's gun attack: Tab from the first field visits every field the umpire types,
    then both d10s, then Resolve; Shift+Tab goes back the same way. Enter still goes on to
    what is left to type (the first die)."""
    window, _session = desk
    combat = window.panels["combat"]
    open_line(qtbot, window, "Olds 1 — may fire guns")
    position = combat.form.editor("position_modifier")
    assert QApplication.focusWidget() is position
    qtbot.keyClicks(position, "2")  # the position typed: the cursor goes on to the first die
    first_die = combat.dice_fields[0].edit
    assert QApplication.focusWidget() is first_die
    assert tab_through(qtbot, combat) == GUN_ATTACK
    assert QApplication.focusWidget() is position
    qtbot.keyClick(position, Qt.Key.Key_Return)  # Enter: on to the die still to type
    assert QApplication.focusWidget() is first_die


def test_tab_order_after_the_critical_hit_and_back(desk, qtbot):
    """Red 1's gun attack -> the critical hit it owes (its own fields and die) -> Olds 1's gun
    attack again (the kept form shown again, other die fields): each time Tab goes through the
    form shown, its dice and Resolve, and back."""
    window, _session = desk
    combat = window.panels["combat"]
    gun = red_1_guns_olds_2(qtbot, window)  # resolved: the critical hit opens
    assert combat.procedure.currentData() == "critical_hit"
    assert tab_through(qtbot, combat) == CRITICAL_HIT
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)  # Enter: on to the die
    assert QApplication.focusWidget() is combat.dice_fields[0].edit
    roll_the_critical(qtbot, window)
    open_line(qtbot, window, "Olds 1 — may fire guns")
    position = combat.form.editor("position_modifier")
    assert position is gun["position_modifier"], "not the kept form: nothing tested"
    assert QApplication.focusWidget() is position
    qtbot.keyClicks(position, "2")
    assert QApplication.focusWidget() is combat.dice_fields[0].edit
    assert tab_through(qtbot, combat) == GUN_ATTACK
