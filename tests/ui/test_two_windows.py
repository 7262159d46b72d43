"""Issue 14/17: two windows on one game file. The second is told at open that the game is
open elsewhere, and shows the first's actions within a second without an action of its own."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.demo import create_demo_game
from app.ui.main_window import MainWindow
from app.ui.model import EngagementModel


def test_a_second_window_follows_the_first(tmp_path, qtbot):
    where = tmp_path / "shared.airboss"
    first = create_demo_game(where)
    init = first.ruleset.procedures["initiative"].prefill(first.engagement, None, None)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    model = EngagementModel()
    window = MainWindow(model, settings)
    qtbot.addWidget(window)
    assert window.open_game(where)
    assert "also open elsewhere" in window.refusal.message
    window.show()
    window.docks["game_log"].raise_()  # the umpire looks at the log
    log = window.panels["game_log"]
    before = len(log.lines())
    first.perform("initiative", init, TableDice([4, 9]))  # the other window acts
    qtbot.waitUntil(lambda: model.engagement.initiative_marker == "VPAF", timeout=1500)
    assert len(log.lines()) == before + 1 and "initiative" in log.lines()[-1]
    assert window.status_labels["initiative"].text() == "Initiative: VPAF"
    # and the other way round: this window's action reaches the first session
    model.session.next_step()
    assert first.follow() and first.engagement.step == model.engagement.step
    first.close()
    model.set_session(None)


def test_nothing_changed_costs_no_read_of_the_log(tmp_path, monkeypatch):
    s = create_demo_game(tmp_path / "quiet.airboss")
    s.follow()
    monkeypatch.setattr(
        s.store, "events", lambda *a, **k: (_ for _ in ()).throw(AssertionError("log read"))
    )
    assert s.follow() == []
    s.close()
    GameSession.open(tmp_path / "quiet.airboss").close()
