"""Issue 48 at the desk: what a side's page sends arrives as a pending entry on its "who acts
now" line; only the umpire's key takes it into the form (the same draft), and the form's
Enter records what it shows; Delete rejects it and the page is told. Advanced Air Force rule
2's written plots stay sealed until every plot of the step is in. The server is the real one
on localhost, the requests real HTTP (httpx2), the desk driven by keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.dice import TableDice
from app.core.events import ProcedureResolved
from app.session import GameSession
from app.startup.demo import create_demo_game
from app.ui.shell.main_window import MainWindow
from rulesets.phantoms.clock import step_of
from tests.games import build
from tests.players_desk import open_desk, start_pages


@pytest.fixture
def phantoms(tmp_path: Path, qtbot: Any):
    """The Phantoms demo at turn 1, impulse 1, segment f (guns), the players' pages on."""
    session = create_demo_game(tmp_path / "demo.airboss")
    window = open_desk(tmp_path, qtbot, session)
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
        session.clock.next_step()
    start_pages(window, qtbot)
    yield window, session
    window.players_bridge.stop()
    window.model.set_session(None)


def state(window: MainWindow, side: str, qtbot: Any) -> dict[str, Any]:
    """The side's view as its page reads it, once the desk has published what it did."""
    bridge = window.players_bridge
    before = bridge.version
    bridge.soon()
    qtbot.waitUntil(lambda: bridge.version > before)
    return httpx2.get(bridge.link(side) + "/state").json()


def line_of(view: dict[str, Any], text: str) -> dict[str, Any]:
    return next(a for a in view["acting"] if text in f"{a['name']} — {a['what']}")


def send(window: MainWindow, side: str, body: dict[str, Any], qtbot: Any) -> None:
    """A page sends; the desk has it once the queued signal reached the GUI thread."""
    model = window.model
    before = model.pending.version
    r = httpx2.post(window.players_bridge.link(side) + "/send", json=body)
    assert r.status_code == 202, r.text
    qtbot.waitUntil(lambda: model.pending.version > before)


def turn_line(window: MainWindow, text: str) -> Any:
    acting = window.panels["turn"].acting
    return next(acting.item(i) for i in range(acting.count()) if text in acting.item(i).text())


def test_dice_from_a_page_are_pending_until_enter_then_the_form_records_them(phantoms, qtbot):
    window, session = phantoms
    combat, turn = window.panels["combat"], window.panels["turn"]
    # the gun attack's dice are known once its firing position is typed at the desk
    view = state(window, "USAF", qtbot)
    assert line_of(view, "Olds 1 — may fire guns")["ask"]["kind"] == "wait"
    window.model.request_procedure("gun_attack", "olds-1")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    view = state(window, "USAF", qtbot)
    ask = line_of(view, "Olds 1 — may fire guns")["ask"]
    assert ask["kind"] == "dice" and [s["die"] for s in ask["slots"]] == ["d10", "d10"]
    assert [s["label"] for s in ask["slots"]] == [f.purpose for f in combat.dice_fields]
    send(window, "USAF", {"line": line_of(view, "Olds 1")["key"], "dice": ["6", "5"]}, qtbot)
    # pending: shown on the line and in the form, the game unchanged, the dice fields empty
    item = turn_line(window, "Olds 1 — may fire guns")
    assert "✉ Olds 1's player typed 6, 5" in item.text()
    assert combat.sent_text.text() == "✉ Olds 1's player typed 6, 5"
    assert [f.edit.displayText() for f in combat.dice_fields] == ["", ""]
    assert session.engagement.aircraft["red-1"].damage == 0
    # the cursor was waiting in the first die: the key that takes them is there; Enter takes
    assert QApplication.focusWidget() is combat.take_sent
    qtbot.keyClick(combat.take_sent, Qt.Key.Key_Return)
    assert [f.edit.displayText() for f in combat.dice_fields] == ["6", "5"]
    assert "Olds 1's player typed 6, 5 (from the side's page)" in combat.notice.text()
    assert session.engagement.aircraft["red-1"].damage == 0  # taken, not yet resolved
    assert "✉" not in turn_line(window, "Olds 1 — may fire guns").text()
    assert not combat.sent_bar.isVisible()
    # what the form shows is what resolves: Enter
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert session.engagement.aircraft["red-1"].damage == 2  # 7.2: 6 + ... as issue 13's record
    last = [env.event for env in session.events() if isinstance(env.event, ProcedureResolved)][-1]
    assert last.procedure == "gun_attack"
    assert [(r["dice"], r["typed"]) for r in last.rolls] == [([6], True), ([5], True)]
    assert state(window, "USAF", qtbot)["entries"][0]["text"] == "The umpire took 6, 5"
    assert not any("✉" in line for line in turn.acting_lines())


def test_enter_on_the_turn_line_takes_what_a_page_sent(phantoms, qtbot):
    window, session = phantoms
    while session.engagement.step != 1:  # back to the break-off check (10.0): its dice are
        session.clock.previous_step()  # known without typing anything at the desk
    view = state(window, "USAF", qtbot)
    line = line_of(view, "Olds 1 — may attempt to break off")
    assert [s["label"] for s in line["ask"]["slots"]] == ["break-off: Olds 1", "break-off: enemy"]
    send(window, "USAF", {"line": line["key"], "dice": ["7", "4"]}, qtbot)
    turn = window.panels["turn"]
    item = turn_line(window, "Olds 1 — may attempt to break off")
    assert "✉ Olds 1's player typed 7, 4" in item.text()
    turn.acting.setCurrentItem(item)
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    combat = window.panels["combat"]
    assert combat.procedure.currentData() == "break_off"
    assert [f.edit.displayText() for f in combat.dice_fields] == ["7", "4"]
    seq = session.engagement.seq
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert session.engagement.seq > seq  # recorded after Enter, not before
    last = [env.event for env in session.events() if isinstance(env.event, ProcedureResolved)][-1]
    assert last.procedure == "break_off"
    assert [(r["dice"], r["typed"]) for r in last.rolls] == [([7], True), ([4], True)]


def test_delete_rejects_what_a_page_sent_and_the_page_says_so(phantoms, qtbot):
    window, session = phantoms
    view = state(window, "USAF", qtbot)
    window.model.request_procedure("gun_attack", "olds-1")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    view = state(window, "USAF", qtbot)
    send(window, "USAF", {"line": line_of(view, "Olds 1")["key"], "dice": ["6", "5"]}, qtbot)
    turn = window.panels["turn"]
    item = turn_line(window, "Olds 1 — may fire guns")
    turn.acting.setCurrentItem(item)
    turn.acting.setFocus()
    seq = session.engagement.seq
    qtbot.keyClick(turn.acting, Qt.Key.Key_Delete)
    assert "✉" not in turn_line(window, "Olds 1 — may fire guns").text()
    assert session.engagement.seq == seq
    view = state(window, "USAF", qtbot)
    assert (
        line_of(view, "Olds 1")["entry"]["text"] == "The umpire rejected 6, 5: rejected at the desk"
    )
    # the other side's page never hears of it
    assert "6, 5" not in str(state(window, "VPAF", qtbot))


def test_a_line_resolved_at_the_desk_closes_what_its_page_sent(phantoms, qtbot):
    window, session = phantoms
    window.model.request_procedure("gun_attack", "olds-1")
    qtbot.keyClicks(QApplication.focusWidget(), "2")
    view = state(window, "USAF", qtbot)
    send(window, "USAF", {"line": line_of(view, "Olds 1")["key"], "dice": ["6", "5"]}, qtbot)
    session.clock.next_step()  # the umpire moves on without it
    view = state(window, "USAF", qtbot)
    assert view["entries"][0]["text"] == "Not used: the line was resolved or left behind"
    assert window.model.pending.pending() == []


@pytest.fixture
def advanced(tmp_path: Path, qtbot: Any):
    path = build(tmp_path / "aaf.airboss", "advanced_air_force")
    session = GameSession.open(path)
    window = open_desk(tmp_path, qtbot, session)
    start_pages(window, qtbot)
    yield window, session
    window.players_bridge.stop()
    window.model.set_session(None)


def test_rule_2_a_written_plot_is_revealed_at_the_desk_once_every_plot_is_in(advanced, qtbot):
    window, session = advanced
    model = window.model
    blue = line_of(state(window, "Blue", qtbot), "Blue 1")
    assert blue["ask"]["kind"] == "plot" and blue["ask"]["sealed"] is True
    names = [f["name"] for f in blue["ask"]["fields"]]
    assert "power_used" in names and "inverted" in names and "current_speed" not in names
    send(window, "Blue", {"line": blue["key"], "plot": {"power_used": 2, "inverted": False}}, qtbot)
    item = turn_line(window, "Blue 1")
    assert "wrote the plot (sealed until every plot is in)" in item.text()
    assert "Power" not in item.text()
    refused: list[str] = []
    model.refused.connect(refused.append)
    assert not model.accept_pending(model.pending.pending()[0])
    assert "sealed until every written plot of this step is in (rule 2)" in refused[-1]
    # Red's page never sees Blue's plot
    red = state(window, "Red", qtbot)
    assert "power_used" not in str(red["entries"]) and "Blue 1's player" not in str(red)
    red_line = line_of(red, "Red 1")
    send(window, "Red", {"line": red_line["key"], "plot": {"power_used": 1}}, qtbot)
    item = turn_line(window, "Blue 1")
    assert "Blue 1's player wrote:" in item.text() and "Power" in item.text()
    turn = window.panels["turn"]
    turn.acting.setCurrentItem(item)
    turn.acting.setFocus()
    qtbot.keyClick(turn.acting, Qt.Key.Key_Return)
    combat = window.panels["combat"]
    assert combat.procedure.currentData() == "speed_change"
    assert combat.form.shown_text("power_used") == "2"
    assert combat.form.shown_text("inverted") == "not ticked"
