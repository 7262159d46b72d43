"""Issue 46: a ruleset that misbehaves in ``acting``, ``card_spec``, ``prefill``, ``displays`` or
``new_aircraft`` (raises, exits, interrupts, hangs, returns the wrong type: the hostile test
ruleset ``guest``) is said in the desk's own message bar, naming the ruleset, the call and what
happened, whatever panel met it; and a procedure that emits an event its rules did not make (an
extra damage event, on its target or on an aircraft the action does not name) is refused, the
message bar saying so, and nothing is recorded."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest
from PySide6.QtCore import Qt

import app.ui.docks.displays
from app.core.dice import SeededDice
from app.core.errors import RuleViolation
from app.session import GameSession
from app.ui.shell import guest_worker
from app.ui.shell.main_window import MainWindow
from tests.ui import test_hostile_desk as desk
from tests.ui.test_hostile_desk import HOWS, LIMIT, NAME, detail, open_desk, open_gun_line, said

#: the guest game in its Combat step, its waits timed on the desk's event loop (the hostile
#: desk's fixtures)
game, clock = desk.game, desk.clock


@pytest.fixture(autouse=True)
def _displays_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.ui.docks.displays, "TIME_LIMIT", LIMIT)


def log(s: GameSession) -> list[tuple[int, str]]:
    return [(env.seq, env.narrative) for env in s.events()]


def in_the_bar(qtbot: Any, window: MainWindow, how: str, call: str, method: str) -> str:
    """The desk's own message bar says the ruleset, the call and what happened."""
    expected = said(how, call)
    qtbot.waitUntil(lambda: expected in window.refusal.message, timeout=desk.WITHIN_MS)
    message = window.refusal.message
    assert NAME in message and detail(how, method) in message
    return message


@pytest.mark.parametrize("how", HOWS)
def test_acting(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    before = log(game)
    hostile_site.MISBEHAVE["acting"] = how
    window = open_desk(qtbot, tmp_path, game)
    in_the_bar(qtbot, window, how, "acting (who acts now)", "acting")
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_card_spec(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    from app.ui.cards import PrintCardsDialog

    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["card_spec"] = how
    dialog = PrintCardsDialog(window.model, [], window)  # as File > Print cards makes it
    qtbot.addWidget(dialog)
    dialog.show()  # its preview drawn: the ruleset's calls answered or given up
    qtbot.waitUntil(lambda: not guest_worker.waiting, timeout=desk.WITHIN_MS)
    dialog.faces()
    message = in_the_bar(qtbot, window, how, "card_spec (control card)", "card_spec")
    if how == "wrong_type":
        assert "returned str 'a card', not a CardSpec" in message
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_prefill(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["prefill"] = how
    open_gun_line(qtbot, window)
    call = "who acts now (can each line act)" if how == "hang" else "prepare Gun attack"
    message = window.refusal.message
    if call not in message:
        in_the_bar(qtbot, window, how, "prepare Gun attack", "prefill")
    else:
        in_the_bar(qtbot, window, how, call, "prefill")
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_displays(hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str) -> None:
    """The Displays panel (a ruleset's own boards): its call is guarded now as every other
    (a SystemExit or KeyboardInterrupt there reached the desk), and said."""
    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["displays"] = how
    panel = window.panel("displays")
    assert panel is not None
    panel.show()
    panel.redraw()
    message = in_the_bar(qtbot, window, how, "displays (the ruleset's own boards)", "displays")
    if how == "wrong_type":
        assert "block 1 as int 42, not a card block" in message
    assert "could not build its displays" in panel.text()
    assert log(game) == before


@pytest.mark.parametrize("how", HOWS)
def test_new_aircraft(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, how: str
) -> None:
    from app.ui.docks.roster import AddAircraftDialog

    before = log(game)
    window = open_desk(qtbot, tmp_path, game)
    hostile_site.MISBEHAVE["new_aircraft"] = how
    dialog = AddAircraftDialog(window.model, window.panels["roster"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.name_edit.setText("Blue 2")
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Return)
    in_the_bar(qtbot, window, how, "new_aircraft (add an aircraft)", "new_aircraft")
    assert log(game) == before


@pytest.mark.parametrize("extra", ["extra_damage", "stray_damage"])
def test_an_event_the_rules_did_not_make_is_refused_and_said(
    hostile_site: ModuleType, game: GameSession, qtbot, tmp_path, extra: str
) -> None:
    """The audit's plugin added a damage event to its gun attack, recorded as real."""
    game.add_aircraft(side="Red", type_id="prop", name="Red 2")
    before = log(game)
    damage = {a: game.engagement.aircraft[a].damage for a in game.engagement.aircraft}
    hostile_site.MISBEHAVE["resolve"] = extra
    refused = re.escape(f"the ruleset {NAME} failed in resolve Gun attack")
    with pytest.raises(RuleViolation, match=refused):
        game.perform(
            "gun_attack", {"attacker": "blue-1", "target": "red-1", "hit_number": 2}, SeededDice(1)
        )
    assert log(game) == before
    window = open_desk(qtbot, tmp_path, game)
    combat = open_gun_line(qtbot, window)
    qtbot.mouseClick(combat.resolve_button, Qt.MouseButton.LeftButton)
    expected = f"the ruleset {NAME} failed in resolve Gun attack"
    qtbot.waitUntil(lambda: expected in window.refusal.message, timeout=desk.WITHIN_MS)
    message = window.refusal.message
    assert "emitted events its rules (decide) did not make with these dice: damage taken" in message
    assert log(game) == before
    assert {a: game.engagement.aircraft[a].damage for a in damage} == damage
    hostile_site.MISBEHAVE.clear()
    res = game.perform(  # the same procedure, behaving: recorded as its rules made it
        "gun_attack", {"attacker": "blue-1", "target": "red-1", "hit_number": 2}, SeededDice(1)
    )
    assert res.events and len(log(game)) > len(before)
