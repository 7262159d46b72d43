"""Issue 13: combat at a real table, driven by keys and clicks only, actions counted.

The Phantoms demo (app/resources/demo.toml) at turn 1, impulse 1, segment f, as in the
two-turn hand record (tests/e2e/test_phantoms_demo_two_turns.py): Red 1 guns Olds 2 at
position 0 with dice 8, 2 (4 hits, one critical hit owed: a 7 is an engine hit, 8.1); Olds 1
guns Red 1 at position 2 with dice 6, 5 (2 hits, 7.2). The players roll real dice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QToolButton

from app.core.dice import TableDice
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from rulesets.phantoms.clock import step_of


class Umpire:
    """Keys and clicks on the desk, counted."""

    def __init__(self, qtbot, window: MainWindow) -> None:
        self.qtbot, self.window, self.actions = qtbot, window, 0

    def open_line(self, text: str) -> None:
        """Double-click the "who acts now" line that contains ``text``."""
        acting = self.window.panels["turn"].acting
        item = next(acting.item(i) for i in range(acting.count()) if text in acting.item(i).text())
        acting.scrollToItem(item)
        centre = acting.visualItemRect(item).center()
        # a double-click as the mouse makes it: a click, then the second press
        self.qtbot.mouseClick(acting.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        self.qtbot.mouseDClick(acting.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        self.actions += 1

    def type(self, text: str) -> None:
        """Type into whatever has the keyboard focus (one action per value)."""
        focus = QApplication.focusWidget()
        assert focus is not None, "nothing has the keyboard focus"
        self.qtbot.keyClicks(focus, text)
        self.actions += 1

    def press(self, key: Qt.Key) -> None:
        focus = QApplication.focusWidget()
        assert focus is not None, "nothing has the keyboard focus"
        self.qtbot.keyClick(focus, key)
        self.actions += 1


@pytest.fixture
def desk(tmp_path: Path, qtbot):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    model = EngagementModel()
    # as ``airboss`` starts: the roster and the turn first, the other panels once painted
    window = MainWindow(model, settings, panels_later=True)
    qtbot.addWidget(window)
    session = create_demo_game(tmp_path / "demo.airboss")
    window.show_session(session)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.build_panels()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    ids = {a.name: a.id for a in session.engagement.aircraft.values()}
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
        session.clock.next_step()
    window.dice_question.players.click()  # the first start asks once: the players roll
    yield window, session, ids
    model.set_session(None)


def test_a_typed_dice_gun_attack_from_the_turn_line_in_five_actions(desk, qtbot):
    window, session, ids = desk
    combat = window.panels["combat"]
    umpire = Umpire(qtbot, window)
    umpire.open_line("Olds 1 — may fire guns")
    assert combat.procedure.currentData() == "gun_attack"
    assert combat.attacker.currentData() == ids["Olds 1"]
    assert combat.target.currentData() == ids["Red 1"]  # the first enemy, filled in
    assert QApplication.focusWidget() is combat.form.editor("position_modifier")
    # 13.0 spotting is not chosen for the demo: no "not spotted" box whose tick does nothing
    assert "attacker_unspotted" not in combat.form.names
    umpire.type("2")
    umpire.type("6")
    umpire.type("5")
    umpire.press(Qt.Key.Key_Return)
    assert umpire.actions <= 5
    assert session.engagement.aircraft[ids["Red 1"]].damage == 2
    assert "Olds 1 — Gun attack on Red 1:" in combat.result.text()
    assert "2 hits" in combat.result.text()
    assert combat.footer.isVisible()
    # the next shot starts clean (its firing position still to type, shown empty), the cursor
    # is back on "who acts now" at the next line
    assert combat.form.editor("position_modifier").text() == ""
    turn = window.panels["turn"]
    assert QApplication.focusWidget() is turn.acting
    assert any(line.startswith("✓") and "Olds 1" in line for line in turn.acting_lines())


def test_the_critical_hit_a_result_owes_opens_next_in_two_actions(desk, qtbot):
    window, session, ids = desk
    combat = window.panels["combat"]
    umpire = Umpire(qtbot, window)
    umpire.open_line("Red 1 — may fire guns")
    # Red 1's line opens on Olds 1 (the first enemy); the umpire picks Olds 2 by keyboard
    assert combat.target.currentData() == ids["Olds 1"]
    combat.target.setFocus()
    qtbot.keyClick(combat.target, Qt.Key.Key_Down)
    assert combat.target.currentData() == ids["Olds 2"]
    combat.form.focus_first()
    umpire.type("0")
    umpire.type("8")
    umpire.type("2")
    umpire.press(Qt.Key.Key_Return)
    assert "4 hits" in combat.result.text()
    # the critical hit owed opens at once; the die is all that is left to type
    assert combat.procedure.currentData() == "critical_hit"
    assert combat.aircraft.currentData() == ids["Olds 2"]
    assert "Owed now" in combat.notice.message
    umpire.actions = 0
    umpire.type("7")
    umpire.press(Qt.Key.Key_Return)
    assert umpire.actions <= 2
    assert session.engagement.aircraft[ids["Olds 2"]].criticals[-1].result == "Engine hit"
    assert "4 hits" not in combat.result.text() and "engine hit" in combat.result.text()


def test_the_wheel_never_changes_a_field_without_focus(desk, qtbot):
    window, session, ids = desk
    combat = window.panels["combat"]
    Umpire(qtbot, window).open_line("Olds 1 — may fire guns")
    spin = combat.form.editor("attacker_modifiers")
    assert not spin.hasFocus()
    before = (spin.text(), combat.attacker.currentIndex(), combat.procedure.currentIndex())
    for widget in (spin, combat.attacker, combat.procedure):
        centre = widget.rect().center()
        event = QWheelEvent(
            centre,
            widget.mapToGlobal(centre),
            QPoint(0, 0),
            QPoint(0, -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(widget, event)
    assert (spin.text(), combat.attacker.currentIndex(), combat.procedure.currentIndex()) == (
        before
    )


def test_card_values_are_read_only_until_overridden_and_the_override_is_logged(desk, qtbot):
    window, session, ids = desk
    combat = window.panels["combat"]
    Umpire(qtbot, window).open_line("Olds 1 — may fire guns")
    gun = combat.form.editor("attacker_gun_value")
    card_value = int(gun.text())
    assert gun.isReadOnly()
    override = combat.form.findChild(QToolButton, "override_attacker_gun_value")
    qtbot.mouseClick(override, Qt.MouseButton.LeftButton)
    assert not gun.isReadOnly() and gun.hasFocus()
    qtbot.keyClicks(gun, str(card_value + 1))
    combat.form.focus_first()
    for key in ("2", "6", "5"):
        qtbot.keyClicks(QApplication.focusWidget(), key)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    line = session.undoing.undo_text
    assert f"umpire's override: Gun Attack Value {card_value} -> {card_value + 1}" in line
    assert "no reason given" in session.odds.ruling(session.engagement.seq).text()


def test_the_reason_for_an_override_is_typed_logged_and_shown_in_the_ruling(desk, qtbot):
    """Issue 34: an override's ruling says who made it and why. The reason is asked for in
    the form once a value is overridden; it goes with the prepared action the form shows,
    into the log and the ruling."""
    window, session, ids = desk
    combat = window.panels["combat"]
    Umpire(qtbot, window).open_line("Olds 1 — may fire guns")
    assert combat.override_why.isHidden()
    gun = combat.form.editor("attacker_gun_value")
    card_value = int(gun.text())
    override = combat.form.findChild(QToolButton, "override_attacker_gun_value")
    qtbot.mouseClick(override, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(gun, str(card_value + 1))
    assert combat.override_why.isVisible()
    qtbot.keyClicks(combat.override_why, "gun pod fitted")
    assert combat.prepared.reason == "gun pod fitted"  # shown = used
    combat.form.focus_first()
    for key in ("2", "6", "5"):
        qtbot.keyClicks(QApplication.focusWidget(), key)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert "(why: gun pod fitted)" in session.undoing.undo_text
    ruling = session.odds.ruling(session.engagement.seq)
    gun_input = next(i for i in ruling.inputs if i.name == "attacker_gun_value")
    assert gun_input.why == "gun pod fitted" and gun_input.read == card_value
    assert "why: gun pod fitted" in ruling.text()
    # a fresh form forgets the reason with the override
    Umpire(qtbot, window).open_line("Red 1 — may fire guns")
    assert combat.override_why.isHidden() and combat.override_why.text() == ""


def test_the_dice_choice_is_one_for_the_desk_and_remembered(desk, tmp_path, qtbot):
    window, session, ids = desk
    combat, initiative = window.panels["combat"], window.panels["initiative"]
    assert combat.players_roll.isChecked() and initiative.players_roll.isChecked()
    initiative.players_roll.click()
    assert not combat.players_roll.isChecked()
    initiative.players_roll.click()
    again = MainWindow(EngagementModel(), window.settings)
    qtbot.addWidget(again)
    assert again.panels["combat"].players_roll.isChecked()
    assert again.dice_question is None  # asked once: the answer is kept


def test_a_roster_click_says_what_it_changed_in_the_form(desk, qtbot):
    window, session, ids = desk
    combat = window.panels["combat"]
    Umpire(qtbot, window).open_line("Olds 1 — may fire guns")
    window.panels["roster"].select([ids["Olds 2"]])
    assert combat.attacker.currentData() == ids["Olds 2"]
    assert "Attacker is now Olds 2 (was Olds 1)" in combat.notice.message


def test_the_status_bar_says_who_holds_the_initiative_and_the_impulse(desk):
    """Issue 14: the initiative holder (4.0) and the impulse/segment outside the panels."""
    window, session, ids = desk
    labels = window.status_labels
    assert labels["initiative"].text() == "Initiative: VPAF"
    assert labels["phase"].text() == "Impulse 1" and labels["segment"].text() == "Segment f) Gun"


def test_every_line_of_who_acts_now_shows_at_1366x768(desk):
    """Issue 14: the eight aircraft that may fire guns are all in view, none scrolled away."""
    window, session, ids = desk
    acting = window.panels["turn"].acting
    assert acting.count() == 8
    viewport = acting.viewport().rect()
    for i in range(acting.count()):
        rect = acting.visualItemRect(acting.item(i))
        assert viewport.contains(rect), f"{acting.item(i).text()} cut off"


def test_only_enemies_are_offered_as_targets(desk):
    window, session, ids = desk
    combat = window.panels["combat"]
    combat.open_for("gun_attack", ids["Olds 1"])
    offered = {combat.target.itemData(i) for i in range(1, combat.target.count())}
    assert offered == {a.id for a in session.engagement.aircraft.values() if a.side == "VPAF"}


def test_after_resolve_space_moves_on_and_ctrl_z_undoes_wherever_the_cursor_is(desk, qtbot):
    """Issue 13: after Resolve the cursor leaves the button (Space cannot resolve twice); Space
    is the next step and Ctrl+Z / Ctrl+Shift+Z undo and redo the game from there."""
    window, session, ids = desk
    combat = window.panels["combat"]
    umpire = Umpire(qtbot, window)
    umpire.open_line("Olds 1 — may fire guns")
    for text in ("2", "6", "5"):
        umpire.type(text)
    umpire.press(Qt.Key.Key_Return)
    assert session.engagement.aircraft[ids["Red 1"]].damage == 2
    assert not combat.resolve_button.hasFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.engagement.aircraft[ids["Red 1"]].damage == 0
    qtbot.keyClick(
        QApplication.focusWidget(),
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.engagement.aircraft[ids["Red 1"]].damage == 2
    step = session.engagement.step
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
    assert session.engagement.step == step + 1
    assert session.engagement.aircraft[ids["Red 1"]].damage == 2  # nothing resolved twice


def test_a_missile_launch_from_the_turn_line_picks_the_missile_in_at_most_six_actions(desk, qtbot):
    """Issue 13/14, rule 7.1.2: the launch line opens with the attacker's missiles as a picker
    (printed names, rounds left), never a typed id; the umpire picks, types the range, Enter."""
    window, session, ids = desk
    combat = window.panels["combat"]
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)  # on to segment g
    assert session.engagement.step == step_of(1, "g")
    umpire = Umpire(qtbot, window)
    umpire.open_line("Olds 1 — may break lock or launch a missile")
    picker = combat.form.editor("missile")
    assert QApplication.focusWidget() is picker
    offered = [picker.itemText(i) for i in range(picker.count())]
    assert offered == ["AIM-9J (heat-seeking, 4 left)", "AIM-7E Sparrow (radar-guided, 4 left)"]
    assert combat.target.currentData() == ids["Red 1"]
    umpire.press(Qt.Key.Key_Tab)  # AIM-9J, the first, is the one: on to the range
    umpire.type("3")
    umpire.press(Qt.Key.Key_Return)
    assert umpire.actions <= 6
    olds = session.engagement.aircraft[ids["Olds 1"]]
    assert olds.ledgers["missile_aim9j"].value == 3
    assert "Olds 1 launches AIM-9J at Red 1" in combat.result.text()
    # the next launch offers what is left
    combat.open_for("missile_launch", ids["Olds 1"], ids["Red 1"])
    picker = combat.form.editor("missile")
    assert picker.itemText(0) == "AIM-9J (heat-seeking, 3 left)"
