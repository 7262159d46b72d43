"""Issue 20: the panels that show history share one paged read of the log and keep no
envelopes, so a 100,000-event game fits in memory; the Turn panel reads only the current step's
log, so the desk shows such a game without reading all of it (figures: tests/bench/bench_open.py).
"""

from __future__ import annotations

import gc

import pytest

from app.core.dice import TableDice
from app.core.events import Envelope
from app.session import GameSession
from app.store import StoredEvent
from app.ui.docks.critical_log import CriticalLogDock
from app.ui.docks.game_log import GameLogDock
from app.ui.docks.ledgers import LedgersDock
from app.ui.docks.turn import TurnDock
from app.ui.model import EngagementModel


def live_envelopes() -> int:
    """Envelopes, and the lighter rows the log index is read from, alive now."""
    gc.collect()
    return sum(isinstance(o, Envelope | StoredEvent) for o in gc.get_objects())


def test_the_history_panels_read_the_log_once_a_page_at_a_time_and_keep_no_envelope(
    session, qtbot, monkeypatch
):
    gun = {"attacker": "blue-1", "target": "red-1"}
    for roll in (3, 4, 2):
        session.clock.next_step()
        session.perform("gun_attack", gun, TableDice([roll]))
    session.undo()
    where = session.store.where
    elsewhere = live_envelopes()  # held by the game it was written with, or earlier tests
    reopened = GameSession.open(where)
    reads: list[int] = []
    paged = reopened.log.iter_stored

    def iter_stored(after: int = 0, page: int = 2000):
        reads.append(after)
        return paged(after, page)

    def whole_log():
        raise AssertionError("the whole log was read into a list")

    monkeypatch.setattr(reopened.log, "iter_stored", iter_stored)
    monkeypatch.setattr(reopened.log, "events", whole_log)  # (the facade's events() too)
    model = EngagementModel(reopened)
    docks = [d(model) for d in (GameLogDock, CriticalLogDock, LedgersDock, TurnDock)]
    for d in docks:
        qtbot.addWidget(d)
        d.show()
    ledgers = docks[2]
    ledgers.select("blue-1", "ammunition")

    assert reads == [0]
    assert live_envelopes() == elsewhere
    game_log, critical = docks[0], docks[1]
    assert len(game_log.lines()) == 10 and game_log.is_struck(8) and not game_log.is_struck(9)
    assert [(e.turn, e.roll, undone) for e, undone in critical.visible_rows()] == [
        (1, "d10=3 (typed)", False),
        (1, "d10=4 (typed)", False),
        (2, "d10=2 (typed)", True),
    ]
    assert ledgers.history_rows()[-1] == ("2", "-1", "1 / 3", "Skirmish 1", "14")

    # an action taken now reaches every panel through the same summaries
    reopened.perform("gun_attack", gun, TableDice([3]))
    assert reads == [0]
    assert "gun roll 3" in game_log.lines()[-1]
    assert len(critical.visible_rows()) == 4
    assert ledgers.history_rows()[-1][1:3] == ("-1", "0 / 3")
    assert live_envelopes() == elsewhere
    model.set_session(None)


def spy_on_reads(session: GameSession, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Where each paged read of the session's log started (``after``), in order."""
    reads: list[int] = []
    paged = session.log.iter_stored

    def iter_stored(after: int = 0, page: int = 2000):
        reads.append(after)
        return paged(after, page)

    monkeypatch.setattr(session.log, "iter_stored", iter_stored)
    return reads


def test_who_acts_now_reads_only_the_log_of_the_current_step(session, qtbot, monkeypatch):
    """Opening a long game does not read its whole log for the Turn panel's ticks: only the
    log from the current clock step on, until a panel needs the history."""
    session.clock.next_step()
    session.clock.next_step()  # turn 1, combat
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([3]))
    reopened = GameSession.open(session.store.where)
    combat = reopened.engagement.clock_seq
    assert combat > 0
    reads = spy_on_reads(reopened, monkeypatch)
    monkeypatch.setattr(reopened, "events", lambda: pytest.fail("the whole log was read"))
    model = EngagementModel(reopened)
    turn = TurnDock(model)
    qtbot.addWidget(turn)
    turn.show()
    assert turn.acting_lines() == [
        "✓ 1. Blue 1 — may fire its guns",
        "2. Red 1 — may fire its guns",
    ]
    assert reads == [combat - 1]

    reopened.perform("gun_attack", {"attacker": "red-1", "target": "blue-1"}, TableDice([3]))
    assert [line[:2] for line in turn.acting_lines()] == ["✓ ", "✓ "]
    reopened.clock.next_step()  # turn 2: a new step, read from its clock step
    assert not any(line.startswith("✓") for line in turn.acting_lines())
    assert reads == [combat - 1, reopened.engagement.clock_seq - 1]
    reopened.undo()  # back in the combat step: both still ticked
    assert reopened.engagement.clock_seq == combat
    assert [line[:2] for line in turn.acting_lines()] == ["✓ ", "✓ "]
    assert reads[-1] == combat - 1

    # once a panel needs the whole log, "who acts now" is answered from it
    game_log = GameLogDock(model)
    qtbot.addWidget(game_log)
    game_log.show()
    assert reads[-1] == 0
    reopened.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([4]))
    assert reads[-1] == 0 and turn.acting_lines()[0].startswith("✓")
    model.set_session(None)


def test_with_no_clock_step_known_the_whole_log_is_read_once(session, qtbot, monkeypatch):
    """No clock step yet (or a snapshot from before the state named it): "who acts now" reads
    the whole log, and the history panels use that same read."""
    reopened = GameSession.open(session.store.where)
    assert reopened.engagement.clock_seq == 0
    reads = spy_on_reads(reopened, monkeypatch)
    model = EngagementModel(reopened)
    for dock in (TurnDock(model), GameLogDock(model)):
        qtbot.addWidget(dock)
        dock.show()
    assert reads == [0]
    model.set_session(None)
