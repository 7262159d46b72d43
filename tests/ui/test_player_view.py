"""The player display: turn, step, initiative, aircraft status; never odds, dice or notes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.players.display import PlayerView


@pytest.fixture
def session(tmp_path):
    s = GameSession.create(tmp_path / "pv.airboss", "skirmish", "Players")
    s.add_aircraft("Blue", "jet", "Blue 1", "ace")
    s.add_aircraft("Red", "jet", "Red 1")
    yield s
    s.close()


@pytest.fixture
def view(session, qtbot):
    v = PlayerView(EngagementModel(session))
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    return v


def test_turn_step_initiative_and_status(view, session):
    assert view.turn.text() == "Turn 1"
    assert view.step.text() == "Initiative"
    session.perform("initiative", {"sides": ["Blue", "Red"]}, TableDice([1, 4]))
    session.clock.next_step()
    session.perform("critical_hit", {"aircraft": "red-1"}, TableDice([1]))
    assert view.step.text() == "Movement"
    texts = view.texts()
    assert "1. Red   ★ initiative marker" in texts
    # types by their printed names, never ids (issue 14)
    assert "Red 1 (Test Jet)  damage 0/4 — on fire" in texts
    assert "Blue 1 (Test Jet)  damage 0/4" in texts


def test_never_odds_dice_or_umpire_notes(view, session):
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([7]))
    session.perform("initiative", {"sides": ["Blue", "Red"]}, TableDice([5, 2]))
    everything = " ".join(view.texts()).lower()
    for secret in ("gun roll", "%", "odds", "miss", "d10", "d6", "typed", "skirmish 1", "(5)"):
        assert secret not in everything


def test_f11_toggles_full_screen(view, qtbot):
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    qtbot.keyClick(view, Qt.Key.Key_F11)
    assert view.isFullScreen()
    qtbot.keyClick(view, Qt.Key.Key_F11)
    assert not view.isFullScreen()


def test_no_game(qtbot):
    v = PlayerView(EngagementModel())
    qtbot.addWidget(v)
    assert v.step.text() == "No game in progress"


def test_a_side_that_leaves_the_roster_leaves_the_display(view, session):
    session.roster.remove_aircraft("red-1")
    assert "Red" not in view.side_lists
    session.undo()
    assert "Red" in view.side_lists


def test_an_eight_aircraft_game_fits_1024x768(tmp_path, qtbot):
    """Issue 14: the Player display at 1024x768: every aircraft line whole and in view."""
    s = GameSession.create(tmp_path / "eight.airboss", "phantoms", "Eight")
    for i, t in enumerate(("f4e", "f15c", "mig21", "mig23") * 2):
        s.add_aircraft("USAF" if i < 4 else "VPAF", t, f"{'Blue' if i < 4 else 'Red'} {i}")
    v = PlayerView(EngagementModel(s))
    qtbot.addWidget(v)
    v.resize(1024, 768)
    v.show()
    qtbot.waitExposed(v)
    assert v.width() <= 1024 and v.height() <= 768
    for box in v.side_lists.values():
        view = box.viewport().rect()
        for i in range(box.count()):
            rect = box.visualItemRect(box.item(i))
            assert view.contains(rect), f"{box.item(i).text()} cut off at 1024x768"
        assert box.horizontalScrollBar().maximum() == 0  # no line wider than its column
    s.close()


def test_a_destroyed_aircraft_shows_its_whole_status_at_1366x768(tmp_path, qtbot):
    """Issue 29: a long status (destroyed, ejected, on fire ...) wraps onto a second line in
    its column, whole: never cut at the column's edge or hidden past a scroll bar."""
    from app.core.engagement import Status
    from app.core.events import StatusChanged

    s = GameSession.create(tmp_path / "dest.airboss", "phantoms", "Destroyed")
    for i, t in enumerate(("f4e", "f15c", "mig21", "mig23") * 2):
        s.add_aircraft("USAF" if i < 4 else "VPAF", t, f"{'Blue' if i < 4 else 'Red'} {i}")
    flags = [Status.DESTROYED, Status.EJECTED, Status.ON_FIRE, Status.OUT_OF_CONTROL]
    s.log.append([StatusChanged(aircraft="red-4", set=[*flags, Status.PILOT_KILLED])], "shot down")
    v = PlayerView(EngagementModel(s))
    qtbot.addWidget(v)
    v.resize(1366, 768)
    v.show()
    qtbot.waitExposed(v)
    box = v.side_lists["VPAF"]
    item = box.item(0)
    assert "destroyed" in item.text() and "pilot killed" in item.text()
    rect = box.visualItemRect(item)
    metrics = box.fontMetrics()
    assert box.horizontalScrollBar().maximum() == 0
    assert box.viewport().rect().contains(rect)
    assert metrics.horizontalAdvance(item.text()) > rect.width()  # too long for one line:
    assert rect.height() >= 2 * metrics.lineSpacing()  # so it takes two
    s.close()
