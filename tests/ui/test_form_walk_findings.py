"""The umpire's walk at 1366x768, keys and clicks, on the Combat panel (issue 48, seventh stop).

- Tab into the odds before the roll (and the what-ifs kept beside them) never came out: Qt's
  tables step from cell to cell with Tab and wrap from the last to the first, so 150 Tabs from
  "Other modifiers" stayed in the odds table. Tab leaves them now, as it leaves every table the
  umpire only reads; so does the After-action panel's luck per aircraft.
- "This procedure rolls no dice." was said where the dice go for rolls that do roll dice (an
  Air Power gun attack, d10; a Nth Fleet air combat) when a table cell the rules text does not
  print stopped them being worked out. It says which cell the dice wait for now.
- The last result under Resolve still said "2 hits: Olds 1 — Gun attack on Red 1 ..." after
  Ctrl+Z had undone the attack (the Roster showing Red 1 undamaged). It says the action was
  undone now, and the result again after Ctrl+Y.
- The rule shown over the form cut the rule number off a docstring that cites a range or a list
  of rules: "6.1: -6.3 Maneuver marking". A range or list stays whole now.
- A die half typed for a line of "who acts now" outlived its step: in Movement the form still
  showed the break-off check with its 0 and a red "Not resolved: d10, break-off: enemy…". The
  dice typed for a line are cleared when its step is over, and the form says so (the form
  itself stays as it was, as a step on leaves it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QTableWidget

from app.core.dice import TableDice
from app.session import GameSession
from app.startup.demo import create_demo_game
from tests.games import build, nth_fleet_strike
from tests.players_desk import open_desk
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


def said_where_the_dice_go(window: Any, qtbot: Any, cell: str) -> None:
    """The dice's place says the roll waits for ``cell`` to be filled in; nothing painted in
    the Combat panel says the procedure rolls no dice."""
    combat = window.panels["combat"]
    label = combat.findChild(QLabel, "no_dice")
    qtbot.waitUntil(lambda: label.isVisible() and cell in label.text(), timeout=3000)
    assert label.text().startswith("The dice cannot be worked out until the value for")
    assert label.text().endswith("is filled in (Tables editor).")
    shown = [w.text() for w in combat.findChildren(QLabel) if w.isVisible()]
    assert not [t for t in shown if "rolls no dice" in t], shown


def test_an_air_power_gun_attack_waits_for_its_missing_cell(tmp_path: Path, qtbot: Any) -> None:
    """Air Power, Flight phase, Enter on Blue 1's gun attack (a d10, Air-to-Air Gun Combat):
    the modifier for angle off 30 arc is not printed in the rules text."""
    session = GameSession.open(build(tmp_path / "ap.airboss", "airpower"))
    window = open_desk(tmp_path, qtbot, session)
    try:
        open_line(qtbot, window, "2. Blue 1 — may make a gun attack")
        said_where_the_dice_go(
            window, qtbot, "angle off 30 arc in Air-to-air gun and rocket modifiers"
        )
    finally:
        window.model.set_session(None)


def test_a_nth_fleet_air_combat_waits_for_its_missing_cell(tmp_path: Path, qtbot: Any) -> None:
    """Nth Fleet 2.8, Enter on "VF-1 — Blue: air combat": the Defence Value of the A-6E it
    escorts is not printed in the rules text (Table 1)."""
    window = open_desk(tmp_path, qtbot, nth_fleet_strike(tmp_path / "n.airboss"))
    try:
        open_line(qtbot, window, "VF-1 — Blue: air combat")
        said_where_the_dice_go(window, qtbot, "A-6E (a6e) in Defence Value Table")
    finally:
        window.model.set_session(None)


def test_the_last_result_says_when_its_action_is_undone_and_redone(desk, qtbot: Any) -> None:
    """Olds 1 guns Red 1 (position 2, dice 6 and 5: 2 hits); Ctrl+Z; Ctrl+Y."""
    window, session = desk
    combat = window.panels["combat"]
    open_line(qtbot, window, "Olds 1 — may fire guns")
    for key in ("2", "6", "5"):  # the firing position and the two dice
        qtbot.keyClicks(QApplication.focusWidget(), key)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    red_1 = session.engagement.get("red-1")
    assert red_1.damage == 2
    result = combat.result.text()
    assert result.startswith("<b>2 hits</b>: ") and "Gun attack on Red 1" in result
    control = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, control)
    assert session.engagement.get("red-1").damage == 0  # undone: Red 1 undamaged
    undone = combat.result.text()
    assert undone.startswith("<b>Undone</b>"), undone
    assert "2 hits" in undone and "Gun attack on Red 1" in undone  # which action was undone
    assert "no longer counts" in undone
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Y, control)
    assert session.engagement.get("red-1").damage == 2
    assert combat.result.text() == result  # redone: the result stands again


def test_a_range_or_list_of_rules_stays_whole_over_the_form(desk, qtbot: Any) -> None:
    """Phantoms 6.1-6.3 (Place maneuver marker), 6.4.2-6.4.3 (Out-of-control recovery), 7.1.1b
    and 7.1.4 (Missile automatically misses), picked in Procedure by keys; a procedure whose
    text begins with its rule alone (5.0 Set speed) has it once, in bold."""
    window, _session = desk
    combat = window.panels["combat"]
    shown = {}
    for typed in ("Place", "Out-", "Missile a", "Set s"):  # how each title begins
        combat.procedure.setFocus()
        qtbot.keyClick(combat.procedure, Qt.Key.Key_Home)  # the first procedure, then down
        down = combat.procedure.findText(typed, Qt.MatchFlag.MatchStartsWith)
        for _ in range(down):
            qtbot.keyClick(combat.procedure, Qt.Key.Key_Down)
        assert combat.procedure.currentText().startswith(typed)
        shown[typed] = combat.rule.text()
    assert shown["Place"].startswith("<b>6.1</b>: 6.1-6.3 Maneuver marking: the marker goes")
    assert shown["Out-"].startswith("<b>6.4.2</b>: 6.4.2-6.4.3 Recovery: d10 within 1-8")
    assert shown["Missile a"].startswith("<b>7.1.1b</b>: 7.1.1b, 7.1.4: a radar-guided missile")
    assert shown["Set s"].startswith("<b>5.0</b>: ") and "5.0" not in shown["Set s"][12:20]


def break_off_desk(tmp_path: Path, qtbot: Any) -> Any:
    """The Phantoms demo at turn 1's Break-off Check Phase (3.0), initiative rolled."""
    session = create_demo_game(tmp_path / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while session.engagement.step != 1:
        session.clock.next_step()
    return open_desk(tmp_path, qtbot, session)


def test_a_die_half_typed_leaves_with_its_step(tmp_path: Path, qtbot: Any) -> None:
    """Phantoms 3.0/10.0, turn 1, the Break-off Check Phase: Enter on Red 1's line, 0 typed
    (a 10) for Red 1's d10, Enter on the enemy's d10 still empty ("Not resolved"), then Space
    on who acts now: Movement. The die typed is cleared, and said; the red line is what
    stands now, not the refusal of the step before."""
    window = break_off_desk(tmp_path, qtbot)
    try:
        turn, combat = window.panels["turn"], window.panels["combat"]
        assert turn.heading.text() == "Turn 1 — Break-off check"
        open_line(qtbot, window, "Red 1 — may attempt to break off")
        first, enemy = combat.dice_fields
        assert QApplication.focusWidget() is first.edit
        qtbot.keyClicks(first.edit, "0")
        assert QApplication.focusWidget() is enemy.edit
        qtbot.keyClick(enemy.edit, Qt.Key.Key_Return)
        red = [w.text() for w in combat.findChildren(QLabel) if w.isVisible()]
        assert any(t.startswith("Not resolved: d10, break-off: enemy") for t in red), red
        qtbot.mouseClick(
            turn.acting.viewport(),
            Qt.MouseButton.LeftButton,
            pos=turn.acting.visualItemRect(turn.acting.item(0)).center(),
        )
        qtbot.keyClick(turn.acting, Qt.Key.Key_Space)  # next step
        assert turn.heading.text() == "Turn 1 — Movement"
        shown = [w.text() for w in combat.findChildren(QLabel) if w.isVisible()]
        assert not [t for t in shown if "Not resolved" in t], shown
        assert "Dice cleared (the step they were typed in is over)." in shown, shown
        assert [f.edit.displayText() for f in combat.dice_fields] == ["", ""]
        # what stands is said: this check is not made in Movement
        assert (
            "Cannot resolve: break-off checks are made in the Break-Off Check Phase (3.0, 10.0)"
            in shown
        ), shown
    finally:
        window.model.set_session(None)


def test_escape_clears_the_dice_and_the_refusal_they_had(tmp_path: Path, qtbot: Any) -> None:
    """The same Break-off check: 0 typed, Enter on the enemy's d10 still empty ("Not
    resolved"), then Escape: the dice are cleared, and so is the refusal that spoke of them
    (it stood beside "Dice cleared (Escape)")."""
    window = break_off_desk(tmp_path, qtbot)
    try:
        combat = window.panels["combat"]
        open_line(qtbot, window, "Red 1 — may attempt to break off")
        first, enemy = combat.dice_fields
        qtbot.keyClicks(first.edit, "0")
        qtbot.keyClick(enemy.edit, Qt.Key.Key_Return)
        red = [w.text() for w in combat.findChildren(QLabel) if w.isVisible()]
        assert any(t.startswith("Not resolved: d10, break-off: enemy") for t in red), red
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
        shown = [w.text() for w in combat.findChildren(QLabel) if w.isVisible()]
        assert not [t for t in shown if "Not resolved" in t], shown
        assert any(t.startswith("Dice cleared (Escape)") for t in shown), shown
        assert [f.edit.displayText() for f in combat.dice_fields] == ["", ""]
    finally:
        window.model.set_session(None)
