"""A club's PostgreSQL server (DESIGN.md Storage): the same schema, several games in one place,
two umpire stations on one game kept consistent by the log's per-game sequence number.

A private PostgreSQL cluster is started for these tests in a temporary folder, listening only
on a Unix socket there (no network). The server comes from Debian's postgresql package, which
``scripts/setup`` installs.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from app.core.dice import TableDice
from app.core.history import Timeline
from app.session import GameSession, opening
from app.store import StoreError


def test_two_games_on_one_server(pg_url: str) -> None:
    one = GameSession.create(pg_url, ruleset="skirmish", title="Table 1")
    two = GameSession.create(pg_url, ruleset="skirmish", title="Table 2", variants=["long_guns"])
    a = one.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    b = one.add_aircraft(side="Red", type_id="prop", name="Red 1")
    one.perform("gun_attack", {"attacker": a, "target": b, "snap_shot": True}, TableDice([1]))
    two.add_aircraft(side="Red", type_id="jet", name="Red 9")
    state1, state2 = one.engagement, two.engagement
    ids = one.game_id, two.game_id
    one.close()
    two.close()
    with pytest.raises(StoreError, match="name one"):
        GameSession.open(pg_url)
    r1 = GameSession.open(pg_url, game=ids[0])
    r2 = GameSession.open(pg_url, game=ids[1])
    assert r1.engagement.aircraft == state1.aircraft
    assert r2.engagement.aircraft == state2.aircraft
    assert r2.ruleset.chosen == {"long_guns"}
    assert Timeline.replay(r1.events()).state.aircraft == r1.engagement.aircraft
    r1.close()
    r2.close()


def test_two_stations_on_one_game(pg_url: str) -> None:
    first = GameSession.create(pg_url, ruleset="skirmish", title="Convention")
    first.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    station = GameSession.open(pg_url, game=first.game_id)
    first.clock.next_step()
    with pytest.raises(StoreError, match="another station"):
        station.clock.next_step()  # lost the race: refused, nothing overwritten, brought up to date
    assert station.engagement == first.engagement
    station.clock.next_step()
    first.log.refresh()
    assert first.engagement == station.engagement
    assert [e.seq for e in first.events()] == list(range(1, len(first.events()) + 1))
    first.close()
    station.close()


# -- issue 16: migration races, Alembic only when due, quiet conflicts ------------------------


def _fresh_database(pg_url: str, name: str) -> str:
    from sqlalchemy import create_engine

    engine = create_engine(
        "postgresql+psycopg://" + pg_url.split("://", 1)[1], isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return pg_url.replace("/club?", f"/{name}?")


def test_stations_creating_the_first_game_at_once(pg_url: str) -> None:
    import threading

    url = _fresh_database(pg_url, "empty_race")
    errors: list[BaseException] = []
    made: list[GameSession] = []
    barrier = threading.Barrier(4)

    def station(i: int) -> None:
        try:
            barrier.wait()
            made.append(GameSession.create(url, ruleset="skirmish", title=f"Table {i}"))
        except BaseException as e:  # noqa: BLE001 - collected for the assertion
            errors.append(e)

    threads = [threading.Thread(target=station, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(made) == 4
    for s in made:
        s.close()
    from app.store import open_store

    store = open_store(url)
    assert len(store.games()) == 4
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1
        assert (
            conn.exec_driver_sql("SELECT count(*) FROM airboss_info WHERE key = 'format'").scalar()
            == 1
        )
    store.close()


def test_opening_a_current_database_does_not_import_alembic(pg_url: str, tmp_path: Path) -> None:
    import sys

    GameSession.create(tmp_path / "g.airboss", ruleset="skirmish", title="T").close()
    GameSession.create(pg_url, ruleset="skirmish", title="T").close()
    for target in (pg_url, str(tmp_path / "g.airboss")):
        code = (
            "import sys\nfrom app.store import open_store\n"
            f"open_store({target!r}).close()\n"
            "assert 'alembic' not in sys.modules, 'alembic imported'\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_conflict_prints_nothing_on_stderr(
    pg_url: str, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    first = GameSession.create(pg_url, ruleset="skirmish", title="Quiet")
    first.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    station = GameSession.open(pg_url, game=first.game_id)
    capfd.readouterr()
    first.clock.next_step()
    with pytest.raises(StoreError, match="another station"):
        station.clock.next_step()
    err = capfd.readouterr().err
    assert "pipeline" not in err and "pipeline" not in caplog.text
    first.close()
    station.close()


def test_a_station_sees_another_stations_action_live(pg_url: str, qtbot) -> None:
    """Issue 17: a desk on a server game shows another station's action at once with no
    action of its own: the append NOTIFYs, the desk LISTENs and catches up from its last
    seq through the same projection (no reread of the log). Its own look put off for a
    minute, the announcement is what brings the action (however busy the machine)."""
    from app.ui.model import EngagementModel

    first = GameSession.create(pg_url, ruleset="skirmish", title="Live")
    blue = first.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    model = EngagementModel(GameSession.open(pg_url, game=first.game_id))
    seen: list[int] = []
    model.appended.connect(lambda envs: seen.extend(e.seq for e in envs))
    model.follow()  # listening
    model._follow.setInterval(60_000)
    model._follow.start()
    first.clock.next_step()
    first.perform("afterburner", {"aircraft": blue})
    qtbot.waitUntil(lambda: model.engagement == first.engagement, timeout=30_000)
    assert seen == [e.seq for e in first.events()][-len(seen) :] and len(seen) >= 2
    # quiet: asking again reads nothing
    assert model.session.log.follow() == []
    model.set_session(None)
    first.close()


def test_the_server_overview_lists_its_games(pg_url: str, capsys) -> None:
    """Issue 17: ``airboss --db URL --list``: ruleset, title, turn/step, aircraft in play, last
    action and stations watching, for every game on the server."""
    from app.cli import main

    game = GameSession.create(pg_url, ruleset="skirmish", title="Overview table")
    game.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    game.clock.next_step()
    watcher = GameSession.open(pg_url, game=game.game_id)
    watcher.log.follow()  # a station watching: it LISTENs on the game's channel
    rows = {r["id"]: r for r in opening.overview(pg_url)}
    row = rows[game.game_id]
    assert (row["ruleset"], row["title"], row["in_play"]) == ("skirmish", "Overview table", 1)
    assert row["turn"].startswith("Turn 1: ") and row["last_action"] is not None
    assert row["watching"] == 1
    assert main(["--db", pg_url, "--list"]) == 0
    out = capsys.readouterr().out
    assert "Overview table" in out and out.splitlines()[0].split()[:3] == ["id", "ruleset", "title"]
    watcher.close()
    game.close()


def test_club_server_starts_serves_a_game_and_stops(tmp_path_factory) -> None:
    """Issue 17: one command sets up a club laptop's server in the data folder; the URL it
    gives is a working Airboss server; stop stops it."""
    from app import club_server

    root = Path(tempfile.mkdtemp(prefix="airboss-club-"))
    try:
        started = club_server.start(root=root, port=54339, listen="")
        url = started.station_url
        assert url.endswith(":54339/club") and club_server.running(root)
        local = club_server.local_url(root=root, port=54339)
        with GameSession.create(local, ruleset="skirmish", title="Club night") as s:
            s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        assert [r["title"] for r in opening.overview(local)] == ["Club night"]
        again = club_server.start(root=root, port=54339, listen="")  # already there: no harm
        assert again.station_url == url and again.passwords == {}  # shown once only
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)
    assert not club_server.running(root)


def test_a_game_goes_to_the_server_and_home_again_byte_identical(pg_url: str, tmp_path) -> None:
    """Issue 17: a file game brought to the club's server, and the server game taken home to
    a file: the same log, byte for byte (payload, narrative, time, seq, action, actor)."""
    from app.store import open_store
    from app.store.store import _SELECT_LOG

    def raw(target: str, gid: str) -> list[tuple]:
        store = open_store(target, read_only=True)
        rows = store._rows(_SELECT_LOG, {"game": gid})  # every stored column, in order
        store.close()
        return [(*r[:3], store._time(r[3]), *r[4:]) for r in rows]

    home = GameSession.create(tmp_path / "home.airboss", ruleset="skirmish", title="Taken along")
    a = home.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    b = home.add_aircraft(side="Red", type_id="prop", name="Red 1")
    home.perform("gun_attack", {"attacker": a, "target": b}, TableDice([2]))
    home.undo()
    gid = home.game_id
    home.save_copy(pg_url)
    with GameSession.open(pg_url, game=gid) as there:
        assert there.engagement == home.engagement
        there.save_copy(tmp_path / "back.airboss")
    assert raw(pg_url, gid) == raw(str(tmp_path / "home.airboss"), gid)
    assert raw(str(tmp_path / "back.airboss"), gid) == raw(pg_url, gid)
    with pytest.raises(StoreError, match="holds this game already"):
        home.save_copy(pg_url)
    home.close()


def test_a_server_that_went_away_mid_game_is_reconnected_nothing_lost(qtbot) -> None:
    """Issue 17: the server restarts mid-game; the stations carry on (pooled connections are
    checked before use, the desk listens again and catches up), nothing is lost."""
    from app import club_server
    from app.ui.model import EngagementModel

    root = Path(tempfile.mkdtemp(prefix="airboss-club-"))
    try:
        club_server.start(root=root, port=54341, listen="")
        url = club_server.local_url(root=root, port=54341)
        first = GameSession.create(url, ruleset="skirmish", title="Restart")
        blue = first.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        model = EngagementModel(GameSession.open(url, game=first.game_id))
        model.follow()
        club_server.stop(root)  # the server goes away ...
        model.follow()  # ... the desk says nothing is new, and keeps following
        assert model._follow.isActive()
        club_server.start(root=root, port=54341, listen="")  # ... and comes back
        first.perform("afterburner", {"aircraft": blue})
        qtbot.waitUntil(lambda: model.engagement == first.engagement, timeout=30_000)
        assert [e.seq for e in model.session.events()] == [e.seq for e in first.events()]
        model.set_session(None)
        first.close()
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


def test_clear_messages_for_a_wrong_address_and_another_programs_database(pg_url: str) -> None:
    """Issue 17: one line naming the server (never its password) and the reason; nothing is
    written into a database that holds another program's tables."""
    import psycopg

    wrong = "postgresql://airboss:secret@/club?host=/nonexistent-airboss&port=1"
    with pytest.raises(StoreError, match="cannot reach the server") as e:
        GameSession.open(wrong)
    assert "secret" not in str(e.value) and "***" in str(e.value)
    with psycopg.connect(pg_url.replace("/club?", "/postgres?"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE shop")
    shop = pg_url.replace("/club?", "/shop?")
    with psycopg.connect(shop, autocommit=True) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    with pytest.raises(StoreError, match="another program's tables \\(invoices\\)"):
        GameSession.create(shop, ruleset="skirmish", title="Wrong place")
    with psycopg.connect(shop, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
    assert tables == ["invoices"]  # nothing of Airboss's was written there
    with pytest.raises(StoreError, match="no such database"):
        GameSession.open(pg_url.replace("/club?", "/nowhere?"))
