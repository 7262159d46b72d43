"""Every action exactly once, reported truthfully (issue 30): a station reaches the private
PostgreSQL server through a TCP proxy (``tcp_proxy.py``, 127.0.0.1 only) that swallows the
answer to COMMIT, resets the connection before it, or goes silent. After each, the log holds
the action once or not at all, and the station says which."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest
from tcp_proxy import Proxy

from app.core.errors import Unsettled
from app.session import GameSession
from app.store import StoreError


@pytest.fixture
def proxy(pg_url: str) -> Iterator[Proxy]:
    query = parse_qs(urlparse(pg_url).query)
    p = Proxy(Path(query["host"][0]) / f".s.PGSQL.{query['port'][0]}")
    yield p
    p.close()


def _narratives(pg_url: str, game_id: str) -> list[str]:
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT narrative FROM event WHERE game_id = %s AND narrative <> '' ORDER BY seq",
            (game_id,),
        )
        return [r[0] for r in rows]


@pytest.fixture
def station(pg_url: str, proxy: Proxy) -> Iterator[GameSession]:
    """A game made directly on the server, opened by a station through the proxy."""
    with GameSession.create(pg_url, ruleset="skirmish", title="Bad network") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        gid = s.game_id
    st = GameSession.open(proxy.url(), game=gid)
    yield st
    st.close()


def test_a_lost_commit_answer_is_saved_once_and_said_saved(pg_url, proxy, station) -> None:
    """The server saved the action but its answer was lost and the connection reset: the
    station asks the server, finds its action, and goes on as saved. Nothing is recorded
    twice, and the next action follows it."""
    proxy.mode = "swallow-commit"
    station.clock.next_step()  # no error: the action is saved, and the desk shows it
    assert proxy.events == ["swallowed a COMMIT's answer", "reset after the COMMIT"]
    assert station.engagement.step == 1
    said = _narratives(pg_url, station.game_id)
    assert said.count(said[-1]) == 1 and said[-1].startswith("Turn 1")
    station.clock.next_step()
    assert len(_narratives(pg_url, station.game_id)) == len(said) + 1
    with GameSession.open(pg_url, game=station.game_id) as other:
        assert other.engagement == station.engagement


def test_a_commit_that_never_arrived_is_said_not_written_and_done_again_once(
    pg_url, proxy, station
) -> None:
    proxy.mode = "reset-before-commit"
    before = _narratives(pg_url, station.game_id)
    with pytest.raises(StoreError, match="says it was not written") as e:
        station.clock.next_step()
    assert "Error" not in str(e.value) and "psycopg" not in str(e.value)
    assert proxy.events == ["reset before a COMMIT"]
    assert _narratives(pg_url, station.game_id) == before
    assert station.engagement.step == 0
    station.clock.next_step()  # done again: once
    after = _narratives(pg_url, station.game_id)
    assert after[: len(before)] == before and len(after) == len(before) + 1


def test_a_silent_network_is_reported_within_15_s_and_settled_when_it_is_back(
    pg_url, proxy, station
) -> None:
    """The network goes silent as the COMMIT is sent: within 15 s the station says the fate
    of the action is not known yet (never that it failed), refuses a new action meanwhile,
    and, once the network is back, says truthfully what became of it."""
    proxy.mode = "blackhole"
    before = _narratives(pg_url, station.game_id)
    began = time.monotonic()
    with pytest.raises(Unsettled, match="not known yet"):
        station.clock.next_step()
    assert time.monotonic() - began < 15
    assert station.log.unsettled
    with pytest.raises(Unsettled, match="nothing of this one was sent"):
        station.clock.next_step()
    proxy.mode = "pass"
    said = station.log.settle()
    assert said is not None and said.startswith("not written")  # the COMMIT never arrived
    assert not station.log.unsettled
    assert _narratives(pg_url, station.game_id) == before
    station.clock.next_step()
    assert len(_narratives(pg_url, station.game_id)) == len(before) + 1


def test_an_action_sent_twice_is_stored_once(pg_url, station) -> None:
    """The log's unique key: the same action (the same id) sent again is found saved."""
    from app.core.events import ClockSet, Envelope

    env = Envelope(
        game=station.game_id,
        seq=station.engagement.seq + 1,
        action=station.engagement.seq + 1,
        narrative="Turn 5: once",
        event=ClockSet(turn=5, step=0),
    )
    station.store.append([env], uid="same-action")
    station.store.append([env], uid="same-action")  # a repeat: saved already, not twice
    assert _narratives(pg_url, station.game_id).count("Turn 5: once") == 1
    with pytest.raises(StoreError, match="another station"):
        station.store.append([env], uid="another-action")


def test_nothing_after_an_append_turns_a_saved_action_into_a_refusal(tmp_path, monkeypatch) -> None:
    """A snapshot that cannot be written (a full disk) and a listener that fails, after the
    action was saved: the action stands, and is in the file (issue 30)."""
    import app.session.log

    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Full disk")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    monkeypatch.setattr(app.session.log, "SNAPSHOT_EVERY", 1)

    def full_disk(*_a: object) -> None:
        raise StoreError("could not write (database or disk is full); nothing was written")

    def broken(_envs: object) -> None:
        raise RuntimeError("a listener that fails")

    monkeypatch.setattr(s.store, "save_snapshot", full_disk)
    s.subscribe(broken)
    s.clock.next_step()  # no refusal
    assert s.engagement.step == 1
    seq = s.engagement.seq
    s.close()
    with GameSession.open(tmp_path / "g.airboss") as again:
        assert again.engagement.seq == seq and again.engagement.step == 1


def test_the_desk_says_not_known_yet_then_saved_and_asks_in_the_background(
    tmp_path, qtbot, monkeypatch
) -> None:
    """The status bar says the action's fate is not known yet, the desk asks the server in
    the background, and says "saved" once it answers; the desk shows the action done."""
    from PySide6.QtCore import QSettings

    import app.ui.model as ui_model
    from app.ui.model import EngagementModel
    from app.ui.shell.main_window import MainWindow

    monkeypatch.setattr(ui_model, "SETTLE_MS", 100)
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Lost answer")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    real = s.store.append

    def answer_lost(envs, uid=None):
        real(envs, uid=uid)  # saved ...
        raise Unsettled(f"{s.store.where}: whether it was saved is not known yet")  # ... unsaid

    monkeypatch.setattr(s.store, "append", answer_lost)
    model = EngagementModel(s)
    window = MainWindow(model, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.persist_layout = False
    qtbot.addWidget(window)
    model.attempt(s.clock.next_step)
    assert "not known yet" in window.refusal.message
    qtbot.waitUntil(lambda: "saved: Turn 1" in window.refusal.message, timeout=30_000)
    assert "The server has answered" in window.refusal.message
    assert s.engagement.step == 1 and not s.log.unsettled
    model.set_session(None)


def test_a_new_action_first_learns_the_last_ones_fate(tmp_path, monkeypatch) -> None:
    """An action tried while the last one is unsettled: if the server now says the last was
    not written, the umpire is told so, and nothing of the new one is sent either."""
    s = GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="Fate")
    s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    real = s.store.append

    def lost_before_commit(envs, uid=None):
        raise Unsettled(f"{s.store.where}: whether it was saved is not known yet")

    monkeypatch.setattr(s.store, "append", lost_before_commit)
    seq = s.engagement.seq
    with pytest.raises(Unsettled):
        s.clock.next_step()
    monkeypatch.setattr(s.store, "append", real)
    with pytest.raises(StoreError, match="last action was not written: Turn 1"):
        s.clock.next_step()
    assert s.engagement.seq == seq and s.store.last_seq(s.game_id) == seq
    s.clock.next_step()  # now it goes
    assert s.engagement.step == 1
    s.close()


def test_list_on_a_silent_network_says_so_within_15_s(pg_url, proxy, capsys) -> None:
    """``--list`` through a network that answers nothing: one line, well within 15 s."""
    from app.cli import main

    GameSession.create(pg_url, ruleset="skirmish", title="Listed").close()
    proxy.mode, proxy.dark = "blackhole", True
    began = time.monotonic()
    assert main(["--db", proxy.url(), "--list"]) == 2
    assert time.monotonic() - began < 15
    err = capsys.readouterr().err
    assert "did not answer in time" in err and len(err.strip().splitlines()) == 1
