"""Issue 48 ("Fast"): the Combat form keeps the last few forms it built, and shows one again
instead of building it afresh; what it shows is still the draft's, and what resolves.

The Phantoms demo at turn 1, impulse 1, segment f (guns), the players rolling, driven by keys
and clicks at 1366x768: Red 1 guns Olds 2 at position 0 with dice 8, 2 (4 hits: a critical hit
owed, 7.2 and 8.1), the critical hit opens and is rolled (7: an engine hit), then Olds 1 guns
Red 1: the gun attack's form comes back.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QToolButton,
    QWidget,
)

from app.core import field_text
from app.core.events import ProcedureResolved
from app.startup.demo import create_demo_game
from app.ui.action_form import fields
from app.ui.docks.combat import CombatDock
from app.ui.model import EngagementModel
from tests.ui.shown_is_used import check
from tests.ui.test_dice_entry import desk, open_line

__all__ = ["desk"]  # the Phantoms desk in its guns segment (a fixture)


def keys(qtbot: Any, *texts: str) -> None:
    """Each text typed where the cursor is (the form moves it on: the position, then the
    dice)."""
    for text in texts:
        focus = QApplication.focusWidget()
        assert focus is not None, "nothing has the keyboard focus"
        qtbot.keyClicks(focus, text)


def press(qtbot: Any, key: Qt.Key) -> None:
    focus = QApplication.focusWidget()
    assert focus is not None, "nothing has the keyboard focus"
    qtbot.keyClick(focus, key)


def editors(combat: Any) -> dict[str, QWidget]:
    return {n: combat.form.editor(n) for n in combat.form.names}


def override(qtbot: Any, combat: Any, name: str) -> None:
    """A click on the field's ✎ (read from the card: overridden, the cursor in it)."""
    button = combat.form.findChild(QToolButton, f"override_{name}")
    assert button is not None and button.isVisible(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def resolved(session: Any, before: int) -> ProcedureResolved:
    found = [
        env.event
        for env in session.log.iter_events(after=before)
        if isinstance(env.event, ProcedureResolved)
    ]
    assert found, "nothing was resolved"
    return found[0]


def red_1_guns_olds_2(qtbot: Any, window: Any, *, tick: bool = False) -> dict[str, QWidget]:
    """Red 1's gun attack on Olds 2 (picked by keyboard), resolved: the critical hit it owes
    opens (4 hits). With ``tick``, "Facing the same way" is ticked and Red 1's gun value is
    overridden, one more than its card's. The gun attack's editors are returned."""
    combat = window.panels["combat"]
    open_line(qtbot, window, "Red 1 — may fire guns")
    assert combat.procedure.currentData() == "gun_attack"
    gun = editors(combat)
    combat.target.setFocus()
    qtbot.keyClick(combat.target, Qt.Key.Key_Down)  # Olds 1 -> Olds 2
    assert combat.target.currentText().startswith("Olds 2")
    if tick:
        box = combat.form.editor("same_facing")
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
        gun_value = combat.form.editor("attacker_gun_value")
        card = int(gun_value.displayText())
        override(qtbot, combat, "attacker_gun_value")
        qtbot.keyClicks(gun_value, str(card + 1))
        assert combat.draft.value("attacker_gun_value") == card + 1
    combat.form.focus_first()
    keys(qtbot, "0", "8", "2")
    press(qtbot, Qt.Key.Key_Return)
    assert combat.procedure.currentData() == "critical_hit", combat.refusal.message
    return gun


def roll_the_critical(qtbot: Any, window: Any) -> dict[str, QWidget]:
    """The critical hit owed, rolled with a 7 (an engine hit, 8.1); its editors returned."""
    combat, session = window.panels["combat"], window.model.session
    crit = editors(combat)
    before = session.engagement.seq
    keys(qtbot, "7")
    press(qtbot, Qt.Key.Key_Return)
    assert resolved(session, before).procedure == "critical_hit"
    return crit


def test_back_to_the_gun_attack_after_its_critical_hit_builds_nothing(desk, qtbot, monkeypatch):
    """Gun attack -> the critical hit it owes -> a gun attack again: the gun attack's own
    editors come back (the same widgets), no field is built; so does the critical hit's."""
    window, session = desk
    combat = window.panels["combat"]
    gun = red_1_guns_olds_2(qtbot, window)
    crit = roll_the_critical(qtbot, window)
    built: list[str] = []
    make = fields._Row.__init__  # noqa: SLF001

    def counted(row: Any, form: Any, name: str) -> None:
        built.append(name)
        make(row, form, name)

    monkeypatch.setattr(fields._Row, "__init__", counted)  # noqa: SLF001
    open_line(qtbot, window, "Olds 1 — may fire guns")
    assert combat.procedure.currentData() == "gun_attack"
    back = editors(combat)
    assert list(back) == list(gun)
    assert all(back[n] is gun[n] for n in gun), "the gun attack's form was built again"
    assert built == []
    assert QApplication.focusWidget() is gun["position_modifier"]
    combat.form.focus_first()
    keys(qtbot, "0", "8", "2")  # Olds 1 on Red 1: 4 hits, a critical hit owed
    press(qtbot, Qt.Key.Key_Return)
    assert combat.procedure.currentData() == "critical_hit"
    again = editors(combat)
    assert all(again[n] is crit[n] for n in crit), "the critical hit's form was built again"
    assert built == []


def test_a_kept_form_paints_the_draft_now_and_that_is_what_resolves(desk, qtbot):
    """Round trip with other values: the first gun attack ticked "Facing the same way" and
    overrode Red 1's gun value; the second (Olds 1 on Red 1, another position, another value
    overridden) shows none of that: every field paints this draft's value, lock, note and
    error, and the event records what the fields showed."""
    window, session = desk
    combat = window.panels["combat"]
    desk_view = SimpleNamespace(combat=combat, session=session)
    gun = red_1_guns_olds_2(qtbot, window, tick=True)
    roll_the_critical(qtbot, window)
    open_line(qtbot, window, "Olds 1 — may fire guns")
    form, d = combat.form, combat.draft
    assert all(form.editor(n) is gun[n] for n in gun), "not the kept form: nothing tested"
    check(desk_view)  # every field paints the draft's value and the prepared action's
    # what the first attack did is gone: its tick, its override and its note
    assert form.shown_text("same_facing") == "not ticked"
    value = form.editor("attacker_gun_value")
    assert isinstance(value, QLineEdit) and value.isReadOnly()
    assert form.is_locked("attacker_gun_value")
    assert value.displayText() == field_text.render(d.value("attacker_gun_value"))
    assert d.prepared.value("attacker_gun_value").source != "override"
    assert form.note_text("attacker_gun_value") == ""
    assert value.accessibleDescription() == ""
    assert value.focusPolicy() == Qt.FocusPolicy.NoFocus
    # this attack's own values: a position that is refused, then one that is not
    position = form.editor("position_modifier")
    assert QApplication.focusWidget() is position and position.displayText() == ""
    keys(qtbot, "x")  # refused in place: the cursor stays
    check(desk_view)
    assert position.displayText() == "x" and form.error_text("position_modifier")
    assert position.accessibleDescription() == form.error_text("position_modifier")
    press(qtbot, Qt.Key.Key_Backspace)
    keys(qtbot, "2")
    assert position.displayText() == "2" and form.error_text("position_modifier") == ""
    defense = form.editor("target_defense")
    card = int(defense.displayText())
    override(qtbot, combat, "target_defense")
    assert defense.hasFocus() and not defense.isReadOnly()
    defense.selectAll()
    qtbot.keyClicks(defense, str(card + 1))
    note = f"Overridden: the card and state say {card}"
    assert form.note_text("target_defense") == note
    assert defense.accessibleDescription() == note
    check(desk_view)
    for name in form.names:
        w = form.editor(name)
        assert w.isVisible() and w.isEnabled() == (
            not form.is_locked(name) or isinstance(w, QLineEdit)
        ), name
    # what the fields show, read back as values: Resolve must record exactly these
    proc = session.ruleset.procedures["gun_attack"]
    shown: dict[str, Any] = {}
    for name in form.names:
        w, text = form.editor(name), form.shown_text(name)
        if isinstance(w, QCheckBox):
            shown[name] = text == "ticked"
        elif isinstance(w, QComboBox):
            shown[name] = {label: value for value, label in d.options(name)}[text]
        else:
            kind, optional = field_text.kind_of(proc.Inputs.model_fields[name])
            shown[name] = field_text.parse(kind, text, optional)
    roles = {"attacker": combat.attacker.currentData(), "target": combat.target.currentData()}
    expected = proc.parse({**roles, **shown}).model_dump(mode="json")
    before = session.engagement.seq
    first_die = combat.dice_fields[0].edit
    qtbot.mouseClick(first_die, Qt.MouseButton.LeftButton)
    keys(qtbot, "6", "5")
    press(qtbot, Qt.Key.Key_Return)
    rec = resolved(session, before)
    assert rec.procedure == "gun_attack"
    assert rec.inputs == expected
    assert (rec.attacker, rec.target) == (roles["attacker"], roles["target"])
    assert rec.inputs["position_modifier"] == 2
    assert rec.inputs["target_defense"] == card + 1
    assert rec.inputs["same_facing"] is False


def test_tab_from_the_first_field_goes_only_through_the_shown_form(desk, qtbot):
    """After the round trip, Tab from the first field visits the shown form's fields the
    umpire types, in order, and nothing of the critical hit's form kept out of sight."""
    window, session = desk
    combat = window.panels["combat"]
    gun = red_1_guns_olds_2(qtbot, window)
    crit = roll_the_critical(qtbot, window)
    open_line(qtbot, window, "Olds 1 — may fire guns")
    form = combat.form
    assert all(form.editor(n) is gun[n] for n in gun), "not the kept form: nothing tested"
    assert not any(w.isVisible() for w in crit.values())
    shown = [
        gun[n]
        for n in form.names
        if gun[n].focusPolicy() != Qt.FocusPolicy.NoFocus and gun[n].isVisible()
    ]
    form.focus_first()
    assert QApplication.focusWidget() is shown[0]
    focused: list[QWidget] = [shown[0]]
    app = QApplication.instance()
    app.focusChanged.connect(lambda _old, new: focused.append(new))
    try:
        for _ in range(len(shown) + 12):  # through the form and on round the window
            press(qtbot, Qt.Key.Key_Tab)
    finally:
        app.focusChanged.disconnect()
    in_form = [w for w in focused if w is not None and form.isAncestorOf(w)]
    assert in_form[: len(shown)] == shown
    assert all(w in shown for w in in_form)
    assert not [w for w in focused if w is not None and any(w is c for c in crit.values())]
    assert all(w is None or w.isVisible() for w in focused)


def test_the_forms_kept_are_bounded_and_go_with_the_form(qtbot, tmp_path):
    """Every procedure picked in turn, more than ``KEPT_FORMS``: the one least recently shown
    gives way (its widgets deleted), the one shown is always there; and the forms kept out of
    sight (they have no parent) are deleted with the form."""
    session = create_demo_game(tmp_path / "demo.airboss")
    dock = CombatDock(EngagementModel(session))
    picker = dock.procedure
    offered = [picker.itemData(i) for i in range(picker.count())]
    assert len(offered) > fields.KEPT_FORMS
    seen: list[dict[str, QWidget]] = []
    for i in range(len(offered)):
        picker.setCurrentIndex(i)
        assert dock.draft.procedure == offered[i]
        seen.append(editors(dock))
        assert 1 <= len(dock.form._kept) <= fields.KEPT_FORMS  # noqa: SLF001
    first = [w for w in seen[0].values()]
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(w) for w in first))
    assert all(shiboken6.isValid(w) for w in seen[-1].values())
    kept = [w for page in seen[-fields.KEPT_FORMS :] for w in page.values()]
    assert all(shiboken6.isValid(w) for w in kept)
    dock.model.set_session(None)
    session.close()
    dock.deleteLater()
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(w) for w in kept))


def test_a_card_value_changed_under_the_form_is_said_until_it_is_shown_for_another_action(
    desk, qtbot
):
    """Olds 1's gun attack open, its card edited elsewhere (its gun value one more): the
    locked field paints the new value and says under it "Changed: now 4 (was 3)", still said
    while the umpire types the rest; the attack resolved, its critical hit rolled, the kept
    form shown again for Red 1's gun attack says no change (its rows were reset)."""
    window, session = desk
    combat = window.panels["combat"]
    form = combat.form
    open_line(qtbot, window, "Olds 1 — may fire guns")
    gun = editors(combat)
    value = form.editor("attacker_gun_value")
    note_label = form.findChild(QLabel, "note_attacker_gun_value")
    assert form.is_locked("attacker_gun_value") and not note_label.isVisible()
    was = int(value.displayText())
    olds_1 = combat.attacker.currentData()
    card = dict(session.engagement.aircraft[olds_1].card)
    session.roster.change_aircraft(olds_1, card={**card, "gun_value": was + 1})
    qtbot.waitUntil(lambda: value.displayText() == str(was + 1))
    note = f"Changed: now {was + 1} (was {was})"
    assert note_label.isVisible() and note_label.text() == note
    assert form.note_text("attacker_gun_value") == note
    assert value.accessibleDescription() == note
    assert [n for n in form.names if form.note_text(n)] == ["attacker_gun_value"]
    assert QApplication.focusWidget() is form.editor("position_modifier")
    keys(qtbot, "0", "8", "2")  # the umpire goes on: still said
    assert note_label.isVisible() and note_label.text() == note
    press(qtbot, Qt.Key.Key_Return)  # 5 hits on Red 1: its critical hit owed
    assert combat.procedure.currentData() == "critical_hit", combat.refusal.message
    roll_the_critical(qtbot, window)
    open_line(qtbot, window, "Red 1 — may fire guns")
    assert combat.procedure.currentData() == "gun_attack"
    assert all(form.editor(n) is gun[n] for n in gun), "not the kept form: nothing tested"
    assert form.is_locked("attacker_gun_value")
    assert not note_label.isVisible() and form.note_text("attacker_gun_value") == ""
    assert value.accessibleDescription() == ""
    assert [n for n in form.names if form.note_text(n)] == []
