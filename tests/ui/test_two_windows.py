"""Issue 14/17: two windows on one game file. The second is told at open that the game is
open elsewhere, and shows the first's actions within a second without an action of its own."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from app.core.dice import TableDice
from app.session import GameSession
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


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
    qtbot.waitUntil(
        lambda: model.engagement.initiative_marker == "VPAF", timeout=30_000
    )  # at the desk's pace: generous
    assert len(log.lines()) == before + 1 and "initiative" in log.lines()[-1]
    assert window.status_labels["initiative"].text() == "Initiative: VPAF"
    # and the other way round: this window's action reaches the first session
    model.session.clock.next_step()
    assert first.log.follow() and first.engagement.step == model.engagement.step
    first.close()
    model.set_session(None)


def test_nothing_changed_costs_no_read_of_the_log(tmp_path, monkeypatch):
    s = create_demo_game(tmp_path / "quiet.airboss")
    s.log.follow()
    monkeypatch.setattr(
        s.store, "events", lambda *a, **k: (_ for _ in ()).throw(AssertionError("log read"))
    )
    assert s.log.follow() == []
    s.close()
    GameSession.open(tmp_path / "quiet.airboss").close()


def test_a_conflict_says_what_happened_keeps_the_dice_and_resolves_again(tmp_path, qtbot):
    """Issue 17: the other window resolved first; the refused Resolve names what it did,
    the typed dice stay in their fields, and Enter resolves again on the updated state."""
    from PySide6.QtCore import Qt

    from rulesets.phantoms.clock import step_of

    where = tmp_path / "race.airboss"
    other = create_demo_game(where)
    init = other.ruleset.procedures["initiative"].prefill(other.engagement, None, None)
    other.perform("initiative", init, TableDice([4, 9]))
    while (other.engagement.turn, other.engagement.step) != (1, step_of(1, "f")):
        other.clock.next_step()
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    model = EngagementModel()
    window = MainWindow(model, settings)
    qtbot.addWidget(window)
    assert window.open_game(where)
    model._follow.stop()  # the race: this desk has not looked yet
    window.show()
    ids = {a.name: a.id for a in other.engagement.aircraft.values()}
    combat = window.panels["combat"]
    combat.players_roll.setChecked(True)
    window.open_procedure("gun_attack", ids["Olds 1"], ids["Red 1"])
    qtbot.keyClicks(combat.form.editor("position_modifier"), "2")
    for field, value in zip(combat.dice_fields, ("6", "5"), strict=True):
        qtbot.keyClicks(field.edit, value)
    other.perform(
        "gun_attack",
        {
            **other.ruleset.procedures["gun_attack"].prefill(
                other.engagement, ids["Red 1"], ids["Olds 2"]
            ),
            "attacker": ids["Red 1"],
            "target": ids["Olds 2"],
            "position_modifier": 0,
        },
        TableDice([1, 9]),
    )
    combat.resolve()
    message = combat.refusal.message or window.refusal.message
    assert "another station or window acted first: Red 1 — Gun attack on Olds 2" in message
    assert [f.edit.text() for f in combat.dice_fields] == ["6", "5"]  # the dice stay
    qtbot.keyClick(combat.dice_fields[-1].edit, Qt.Key.Key_Return)
    assert model.engagement.aircraft[ids["Red 1"]].damage == 2
    other.close()
    model.set_session(None)
