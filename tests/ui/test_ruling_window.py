"""Issue 34: from a log line to its ruling, to the Player display and to a one-page PDF whose
text holds the rule numbers; the Critical hits panel and the Combat panel's last result open
rulings too. Real widgets, at 1366x768."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.dialogs.ruling import RulingWindow
from app.ui.model import EngagementModel
from app.ui.players.display import PlayerView
from app.ui.shell.main_window import MainWindow


@pytest.fixture
def desk(tmp_path, qtbot):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", True)
    model = EngagementModel()
    w = MainWindow(model, settings)
    qtbot.addWidget(w)
    s = GameSession.create(tmp_path / "ruling.airboss", "phantoms", "Rulings")
    types = list(s.ruleset.aircraft)
    blue = s.add_aircraft("USAF", types[0], "Olds 1")
    red = s.add_aircraft("VPAF", types[2], "Red 1")
    s.perform("radar_lock", {"attacker": blue, "target": red, "range_hexes": 4}, TableDice([9, 2]))
    w.show_session(s)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    yield w, s, blue, red
    for view in (w.player_view,):
        if view is not None:
            view.close()
    model.set_session(None)


def _row_of(log, text: str) -> int:
    return next(r for r, line in enumerate(log.lines()) if text in line)


def test_a_log_line_to_its_ruling_to_the_players_and_to_a_pdf(desk, qtbot, tmp_path, monkeypatch):
    w, s, blue, red = desk
    dock = w.docks["game_log"]
    dock.show()
    dock.raise_()
    log = dock.widget()
    log.when_shown.fresh()
    row = _row_of(log, "Radar lock-on")
    index = log.lines_model.index(row, 0)
    rect = log.list.visualRect(index)
    qtbot.mouseClick(log.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(log.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    ruling = log.ruling_window
    assert isinstance(ruling, RulingWindow) and ruling.isVisible()
    text = ruling.texts()
    assert "Radar lock-on (rule 7.1.1b)" in text
    assert "Range: 4 — typed" in text and "card and state" in text
    assert "as stored with the event before the roll" in text
    assert "d10 9 (typed at the table)" in text and "Outcome: lock" in text
    ruling.close()

    # Enter on the selected line opens it too
    log.list.setFocus()
    log.list.selectRow(row)
    log.list.setCurrentIndex(index)
    qtbot.keyClick(log.list, Qt.Key.Key_Return)
    ruling = log.ruling_window
    assert ruling is not None and ruling.isVisible()

    # Show to players: the Player display opens with the public ruling
    qtbot.mouseClick(ruling.show_button, Qt.MouseButton.LeftButton)
    view = w.player_view
    assert isinstance(view, PlayerView) and view.isVisible()
    shown = "\n".join(view.texts())
    assert "Radar lock-on (rule 7.1.1b)" in shown and "Outcome: lock" in shown
    assert "by umpire" not in shown  # who did what at the desk stays there
    assert "locks = " not in shown  # the umpire's state records stay at the desk
    assert "Not shown to the players" in shown
    qtbot.mouseClick(ruling.take_off_button, Qt.MouseButton.LeftButton)
    assert "Radar lock-on (rule 7.1.1b)" not in "\n".join(view.texts())

    # PDF: one page whose text holds the rule numbers
    out = tmp_path / "ruling.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PDF"))
    qtbot.mouseClick(ruling.pdf_button, Qt.MouseButton.LeftButton)
    pdf = PdfReader(str(out))
    assert len(pdf.pages) == 1
    page = " ".join(pdf.pages[0].extract_text().split())
    assert "7.1.1b" in page and "14.0" in page and "Radar lock-on" in page
    assert "11/20" in page or "Odds before the roll" in page
    ruling.close()


def test_a_critical_hits_row_opens_its_ruling(session, qtbot):
    """The Critical hits panel (the skirmish test game): Enter on a row, its ruling."""
    from app.ui.docks.critical_log import CriticalLogDock

    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    session.perform("critical_hit", {"aircraft": "red-1"}, TableDice([1]))
    panel = CriticalLogDock(EngagementModel(session))
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    assert len(panel.rows) == 2
    panel.view.setFocus()
    panel.view.setCurrentCell(1, 0)
    qtbot.keyClick(panel.view, Qt.Key.Key_Return)
    ruling = panel.ruling_window
    assert ruling is not None and ruling.isVisible()
    assert "Critical hit" in ruling.texts() and "What it caused" in ruling.texts()
    assert "Outcome:" in ruling.texts()
    ruling.close()


def test_the_combat_panels_last_result_opens_its_ruling(desk, qtbot):
    w, s, blue, red = desk
    dock = w.docks["combat"]
    dock.show()
    dock.raise_()
    combat = dock.widget()
    combat.when_shown.fresh()
    combat.open_for("radar_lock", blue, red)
    form = combat.form
    assert form is not None
    qtbot.keyClicks(form.editor("range_hexes"), "3")  # the range: the umpire's to type
    for die, value in zip(combat.dice_fields, ("8", "1"), strict=True):
        qtbot.keyClicks(die.edit, value)
    qtbot.mouseClick(combat.resolve_button, Qt.MouseButton.LeftButton)
    assert combat.result.text()
    qtbot.mouseDClick(combat.result, Qt.MouseButton.LeftButton)
    ruling = combat.ruling_window
    assert ruling is not None and ruling.isVisible()
    assert "Radar lock-on (rule 7.1.1b)" in ruling.texts()
    assert "d10 8 (typed at the table)" in ruling.texts()
    ruling.close()
