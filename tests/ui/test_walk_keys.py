"""The umpire's walk at 1366x768, keys only (issue 48, eighth stop): what the keyboard could not
reach, or reached where nothing could be seen.

- No key reached the ✎ beside a value read from the cards (the Combat form's Gun Attack Value,
  the pilots' quality...): the buttons take no Tab stop (issue 29: Tab goes through what the
  umpire judges), and nothing else pressed them. F2 in the panel now lists the values read
  from the cards, each with its number; its number (or Enter) presses its ✎, and the cursor is
  in the value, to type. Each ✎ says so in its tooltip, and what it overrides in its
  accessible name.
- The scroll areas of the Combat and Initiative panels (and of the Players' screens dialog) took
  a Tab stop of their own: Tab landed on the invisible area around the form, nothing painted
  showed the cursor, and the next key did nothing the umpire could see.
- In Table mode (View, Ctrl+Shift+T: larger type) the die fields kept the width set for the
  desk's type, and their placeholder was painted cut: "1-10 (0 …" in the d10s of a gun
  attack at 1366x768. A die field is as wide as its placeholder in the type it is painted in.
- Found beside the walk's "New link" finding, the same fault on the desk: the Combat and
  Initiative panels' "Players roll &real dice" boxes (both on the desk at 1366x768) shared
  Alt+R, as did Combat's "Ai&rcraft" with them, and its "&Take them" (a page's dice) shared
  Alt+T with "&Target": Qt moved the cursor between them and pressed nothing. Each control
  painted on the desk has its own key now.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QScrollArea,
    QStyle,
    QStyleOptionFrame,
    QToolButton,
    QWidget,
)

from tests.ui.test_combat_tab_order import walk
from tests.ui.test_dice_entry import gun_line
from tests.ui.test_players_desk import line_of, phantoms, send, state
from tests.ui.test_walk_gun_step import CTRL_SHIFT, window

#: fixtures: the Phantoms demo at its gun step on the desk; the same with the players' pages on
__all__ = ["phantoms", "window"]


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


#: what F2 lists in Olds 1's gun attack on Red 1: the values read from the cards and the
#: Gun Combat Information Chart, in the form's order, each with the key that overrides it
OVERRIDES = [
    "&1  Gun Attack Value: 3",
    "&2  Attacker pilot: ace",
    "&3  Target Defense Factor: 2",
    "&4  Target pilot: experienced",
    "&5  Gun Combat Information Chart: 1, 1, 2, 2, 3, 3, 4, 4, 5",
]


@pytest.mark.qt_log_ignore("does not support grabbing the keyboard")  # the popup, offscreen
def test_f2_and_a_number_override_a_value_read_from_the_cards(window, qtbot) -> None:
    """Olds 1's gun line by keys, the cursor in the first die: F2 lists the values read from
    the cards (as their ✎ are shown beside them); 1 presses Gun Attack Value's ✎: the cursor is
    in it, its card's 3 selected, and 4 typed is the value the action takes."""
    combat = gun_line(qtbot, window)
    form = combat.form
    locked = [n for n in form.names if form.is_locked(n)]
    assert [form.title(n) for n in locked] == [t.split("  ")[1].split(":")[0] for t in OVERRIDES]
    for name in locked:
        pencil = combat.findChild(QToolButton, f"override_{name}")
        assert pencil.isVisible()
        assert pencil.accessibleName() == f"Override {form.title(name)}"
        assert "F2" in pencil.toolTip()
    first_die = combat.dice_fields[0].edit
    assert QApplication.focusWidget() is first_die
    qtbot.keyClick(first_die, Qt.Key.Key_F2)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), "F2 opened nothing"
    assert [a.text() for a in menu.actions() if a.isVisible()] == OVERRIDES
    qtbot.keyClick(menu, Qt.Key.Key_1)
    assert QApplication.activePopupWidget() is None
    gun_value = form.editor("attacker_gun_value")
    qtbot.waitUntil(lambda: QApplication.focusWidget() is gun_value, timeout=2000)
    assert not form.is_locked("attacker_gun_value") and not gun_value.isReadOnly()
    assert gun_value.selectedText() == "3"
    assert combat.override_why.isVisible()  # why the override: asked, for the log
    qtbot.keyClicks(gun_value, "4")
    assert gun_value.displayText() == "4"
    assert combat.draft.value("attacker_gun_value") == 4
    assert form.note_text("attacker_gun_value") == "Overridden: the card and state say 3"
    # F2 again: the value overridden is no longer listed, the others are numbered afresh
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F2)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    assert [a.text() for a in menu.actions() if a.isVisible()] == [
        t.replace(f"&{n + 2}", f"&{n + 1}") for n, t in enumerate(OVERRIDES[1:])
    ]
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    assert QApplication.activePopupWidget() is None
    assert QApplication.focusWidget() is gun_value  # Escape: nothing pressed, the cursor stays


@pytest.mark.qt_log_ignore("does not support grabbing the keyboard")  # the popup, offscreen
def test_f2_says_so_where_nothing_is_read_from_the_cards(window, qtbot) -> None:
    """The Initiative panel's Phantoms roll: every modifier is the umpire's. F2 in it says
    there is nothing to override, rather than nothing at all."""
    initiative = window.panels["initiative"]
    initiative.focus_form()
    focus = QApplication.focusWidget()
    assert focus is not None and initiative.isAncestorOf(focus)
    qtbot.keyClick(focus, Qt.Key.Key_F2)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), "F2 opened nothing"
    shown = [a for a in menu.actions() if a.isVisible()]
    assert [(a.text(), a.isEnabled()) for a in shown] == [
        ("No value here is read from the cards", False)
    ]
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    assert QApplication.focusWidget() is focus


def mnemonics(window: QWidget) -> dict[str, list[str]]:
    """Each Alt+letter of the window's menu bar and of the buttons, check boxes, group boxes and
    labels (with a buddy) painted in it now: the texts that underline it."""
    texts = [a.text() for a in window.menuBar().actions()]
    for w in window.findChildren(QWidget):
        if not w.isVisible():
            continue
        if isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QLabel) and w.buddy() is not None:
            texts.append(w.text())
    keys: dict[str, list[str]] = defaultdict(list)
    for text in texts:
        m = re.search(r"&([^&])", text.replace("&&", ""))
        if m:
            keys[m.group(1).upper()].append(text)
    return dict(keys)


def shared(window: QWidget) -> dict[str, list[str]]:
    return {k: texts for k, texts in mnemonics(window).items() if len(texts) > 1}


def test_alt_r_ticks_who_rolls_on_the_desk(window, qtbot) -> None:
    """The gun step at 1366x768, the Combat and Initiative panels both shown: no Alt+letter is
    shared; Alt+R presses Combat's "Players roll real dice" (the desk's one dice choice), and
    again; Ai&rcraft, shown for a one-aircraft procedure (Set speed), has its own."""
    combat = gun_line(qtbot, window)
    assert window.panels["initiative"].players_roll.isVisible()
    assert not shared(window), shared(window)
    dice = window.model.dice_mode
    for _ in range(2):
        was = dice.players_roll
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda w=was: dice.players_roll is not w, timeout=2000)  # pressed
        assert combat.players_roll.isChecked() is dice.players_roll
    combat.procedure.setFocus()
    qtbot.keyClick(combat.procedure, Qt.Key.Key_Home)
    for _ in range(combat.procedure.findText("Set s", Qt.MatchFlag.MatchStartsWith)):
        qtbot.keyClick(combat.procedure, Qt.Key.Key_Down)
    assert combat.aircraft.isVisible()
    assert not shared(window), shared(window)


def test_alt_k_takes_the_dice_a_page_sent(phantoms, qtbot) -> None:
    """Olds 1's gun attack, position 2 typed; USAF's page sends 6, 5: Target and "Take them"
    shown together have a key each; Alt+K takes the dice into the form."""
    window, _session = phantoms
    combat = window.panels["combat"]
    window.model.request_procedure("gun_attack", "olds-1")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    view = state(window, "USAF", qtbot)
    send(window, "USAF", {"line": line_of(view, "Olds 1")["key"], "dice": ["6", "5"]}, qtbot)
    assert combat.target.isVisible() and combat.take_sent.isVisible()
    assert not shared(window), shared(window)
    key = mnemonics(window)
    assert [k for k, texts in key.items() if combat.take_sent.text() in texts] == ["K"]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_K, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: [f.edit.displayText() for f in combat.dice_fields] == ["6", "5"])
