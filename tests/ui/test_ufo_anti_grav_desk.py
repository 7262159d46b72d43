"""Issue 43, the UFO game: a card with no printed anti-grav rating asks for it, marked as an
unprinted table cell in the Card editor and in the UFO's first move on the desk, and the value
given starts the anti-grav counter. Keys only, read on what is painted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.dice import TableDice
from app.plugins import load_ruleset
from app.session import GameSession
from app.ui.editors.card_editor import CardEditor
from rulesets.ufo_interception.card import catalogue
from tests.ui.test_dice_entry import open_desk, open_line


def test_the_card_editor_marks_the_anti_grav_the_text_does_not_print(qtbot: Any) -> None:
    """UFO rules, Damage: the Medium UFO card's anti-grav rating and ray guns are marked as
    not printed (named above the card, the field tinted with a tooltip saying so); 7 typed
    over it unmarks it and Ctrl+S saves it into the catalogue."""
    ed = CardEditor(load_ruleset("ufo_interception"), type_id="medium_ufo")
    qtbot.addWidget(ed)
    ed.show()
    ed.activateWindow()
    qtbot.waitUntil(ed.isActiveWindow)
    note = ed.missing_note
    assert note.isVisible()
    assert note.text().startswith("Not printed in the rules text (marked): Anti grav, Ray guns.")
    field = ed.form.editor("anti_grav")
    assert field.text() == "missing"
    assert field.toolTip().startswith("Not printed in the rules text")
    assert ed.tables["ray_guns"].missing.isVisible()
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "7")
    assert field.text() == "7"
    assert note.text() == (
        "Not printed in the rules text (marked): Ray guns. Type the values from your copy of "
        "the game."
    )
    assert not field.toolTip().startswith("Not printed")
    qtbot.keyClick(ed, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert ed.status.text().startswith("Saved medium_ufo")
    assert catalogue()["medium_ufo"].anti_grav == 7
    small = CardEditor(load_ruleset("ufo_interception"), type_id="small_ufo")
    qtbot.addWidget(small)
    assert small.missing_note.isHidden() and small.form.editor("anti_grav").text() == "7"


def test_the_first_move_asks_for_the_rating_on_the_desk(tmp_path: Path, qtbot: Any) -> None:
    """UFO rules, Movement: Enter on the Medium UFO's move line opens its move, not refused;
    the cursor goes from the distance to the anti-grav rating the card does not print; the
    rating typed is painted and starts the counter when the move resolves."""
    s = GameSession.create(tmp_path / "u.airboss", "ufo_interception", "Mothership")
    s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
    s.add_aircraft("Visitors", "medium_ufo", "Mothership")
    s.perform("initiative", {"planes": ["blue-1"], "reactions": [2]}, TableDice([3]))
    s.clock.next_step()
    window = open_desk(qtbot, tmp_path, s)
    open_line(qtbot, window, "Mothership")
    combat = window.panels["combat"]
    assert combat.refusal.message == ""
    grav = combat.form.editor("anti_grav")
    qtbot.keyClicks(QApplication.focusWidget(), "4")  # the distance
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert QApplication.focusWidget() is grav  # then the rating the card does not print
    qtbot.keyClicks(grav, "5")
    assert grav.text() == "5"
    assert "anti_grav" not in s.engagement.aircraft["mothership"].ledgers
    qtbot.keyClick(grav, Qt.Key.Key_Return)  # nothing more to type: Enter resolves
    assert s.engagement.aircraft["mothership"].ledgers["anti_grav"].value == 5
    assert s.engagement.aircraft["mothership"].attributes["moved"] == [1, 4]
    window.model.set_session(None)
