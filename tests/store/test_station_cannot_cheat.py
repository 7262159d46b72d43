"""Issue 46 on a real club server made by ``airboss club-server start --tls``: the station knows
its server before it sends a password, a station can do only what Airboss does (it appends
through the server's own function and holds no right to write a table), no station can shut
another out, and no row a station writes makes a game unopenable; a forged event or snapshot
is said at open.

The server listens on 127.0.0.2 with TLS. Where a test needs the club's network, the station is
made to take 127.0.0.x for a network address (``as_network``); the impostors listen on
127.0.0.x too (``tests/store/impostor.py``)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from app import club_server
from app.core.errors import Tampered
from app.core.events import AircraftChanged, ClockSet, Reverted, event_to_json
from app.session import GameSession, opening
from app.store import StoreError, passwords, server_trust
from app.store.chain import canonical_time, event_hash
from tests.store.clubs import club as running_club
from tests.store.clubs import remember_all
from tests.store.impostor import Impostor, make_certificate

PORT = 54361
HOST = "127.0.0.2"
PASSWORDS: dict[str, str] = {}
STATION_2 = club_server.login(club_server.STATION, 2)
STATION_3 = club_server.login(club_server.STATION, 3)
VIEWER_2 = club_server.login(club_server.VIEWER, 2)


@pytest.fixture(scope="module")
def club() -> Iterator[tuple[Path, club_server.Started]]:
    with running_club(PASSWORDS, port=PORT, listen=HOST, tls=True) as made:
        yield made


@pytest.fixture
def started(club, fake_keyring) -> club_server.Started:
    """The server, this test's keyring holding every machine's password."""
    return remember_all(club[1], PASSWORDS)


@pytest.fixture
def as_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.x taken for the club's network, where a server must prove itself."""
    monkeypatch.setattr(server_trust, "is_loopback", lambda host: host == "localhost")


def _direct(role: str) -> psycopg.Connection:
    """A station's own connection, as a hostile program on the station would make it."""
    return psycopg.connect(
        host=HOST,
        port=PORT,
        dbname="club",
        user=role,
        password=PASSWORDS[role],
        sslmode="require",
        autocommit=True,
    )


def _owner(club) -> psycopg.Connection:
    root, _ = club
    return psycopg.connect(
        f"postgresql://{club_server.ROLE}@/club?host={root / 'sock'}&port={PORT}", autocommit=True
    )


def _game(started) -> str:
    """A game made on the club's laptop (its own socket)."""
    with GameSession.create(started.local_station_url, ruleset="skirmish", title="Club night") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        s.add_aircraft(side="Red", type_id="prop", name="Red 1")
        s.clock.next_step()
        return s.game_id


def _event(seq: int, action: int, event, narrative: str = "", uid: str | None = None) -> dict:
    """One event as ``airboss_append`` takes it (what a hostile station could send)."""
    from datetime import UTC, datetime

    return {
        "seq": seq,
        "action": action,
        "time": canonical_time(datetime.now(UTC)),
        "actor": "umpire",
        "rule": "",
        "narrative": narrative,
        "kind": event.kind if hasattr(event, "kind") else json.loads(event)["kind"],
        "payload": event if isinstance(event, str) else event_to_json(event),
        "uid": uid,
    }


def _append(conn: psycopg.Connection, game: str, *events: dict) -> str:
    row = conn.execute(
        "SELECT airboss_append(%s, %s::jsonb)", (game, json.dumps(list(events)))
    ).fetchone()
    return str(row[0])


def _next(conn: psycopg.Connection, game: str) -> int:
    row = conn.execute("SELECT max(seq) FROM event WHERE game_id = %s", (game,)).fetchone()
    return int(row[0]) + 1


# -- the station knows its server ------------------------------------------------------------


def test_an_impostor_asking_for_the_password_in_clear_gets_none(started) -> None:
    """The audit's impostor on the station's address asked for the password in clear text
    and received it; now the station proves the password by SCRAM only."""
    impostor = Impostor("127.0.0.1")
    try:
        url = impostor.url(STATION_2)
        passwords.remember(url, PASSWORDS[STATION_2])
        with pytest.raises(server_trust.ServerUnproven, match="not sent") as e:
            GameSession.open(url)
        assert impostor.startups  # it was reached ...
        assert PASSWORDS[STATION_2].encode() not in impostor.heard()  # ... and told nothing
        assert impostor.heard() == b""
        assert "\n" not in str(e.value)
    finally:
        impostor.close()


def test_on_the_network_a_server_without_tls_gets_no_password(started, as_network) -> None:
    impostor = Impostor("127.0.0.3")
    try:
        url = impostor.url(STATION_2)
        passwords.remember(url, PASSWORDS[STATION_2])
        with pytest.raises(server_trust.ServerUnproven, match="offers no TLS") as e:
            GameSession.open(url)
        assert "sslmode=disable" in str(e.value)
        assert impostor.startups == [] and impostor.heard() == b""
    finally:
        impostor.close()


def test_on_the_network_a_server_with_another_certificate_gets_no_password(
    started, as_network, tmp_path: Path
) -> None:
    """The station pinned the club's server at this address; an impostor there shows a
    certificate of its own: refused during TLS, before the start-up message."""
    impostor = Impostor("127.0.0.3", tls=make_certificate(tmp_path))
    try:
        assert started.certificate is not None
        server_trust.pin_file(impostor.host, impostor.port, started.certificate)
        url = impostor.url(STATION_2)
        passwords.remember(url, PASSWORDS[STATION_2])
        with pytest.raises(server_trust.ServerUnproven, match="not the one this computer trusts"):
            GameSession.open(url)
        assert impostor.startups == [] and impostor.heard() == b""
    finally:
        impostor.close()


def test_first_use_pins_the_certificate_once_the_umpire_confirms_its_fingerprint(
    started, as_network, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = _game(started)
    url = started.station_url
    assert url == f"postgresql://{STATION_2}@{HOST}:{PORT}/club"  # nothing to weaken it
    pin = server_trust.pinned(HOST, PORT)
    assert not pin.exists()
    # nobody to ask: refused, the fingerprint to compare named
    monkeypatch.setattr(server_trust, "confirm", None)
    with pytest.raises(server_trust.UnknownServer) as e:
        GameSession.open(url, game=gid)
    assert e.value.fingerprint == started.fingerprint and started.fingerprint in str(e.value)
    # the umpire says no: nothing kept, nothing sent
    asked: list[str] = []
    monkeypatch.setattr(server_trust, "confirm", lambda h, p, f: asked.append(f) is not None)
    with pytest.raises(server_trust.UnknownServer):
        GameSession.open(url, game=gid)
    assert asked == [started.fingerprint] and not pin.exists()
    # the same fingerprint as the club's laptop printed: trusted, then never asked again
    monkeypatch.setattr(server_trust, "confirm", lambda h, p, f: f == started.fingerprint)
    with GameSession.open(url, game=gid) as s:
        assert s.engagement.step == 1
        with s.store.engine.connect() as conn:
            ssl_row = conn.exec_driver_sql(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
            ).fetchone()
        assert ssl_row[0] is True
    assert pin.exists()
    monkeypatch.setattr(server_trust, "confirm", None)
    with GameSession.open(url, game=gid, read_only=True) as again:
        assert again.engagement.step == 1
    assert server_trust.connection_security(HOST, PORT, {}, True) == {
        "require_auth": "scram-sha-256",
        "sslrootcert": str(pin),
        "sslmode": "verify-ca",
        "channel_binding": "require",
    }


def test_the_certificate_file_copied_from_the_club_pins_it_too(started, as_network) -> None:
    from app.cli import main

    assert started.certificate is not None
    assert (
        main(
            [
                "club-server",
                "trust",
                f"{HOST}:{PORT}",
                "--certificate",
                str(started.certificate),
            ]
        )
        == 0
    )
    assert server_trust.fingerprint_of_file(server_trust.pinned(HOST, PORT)) == (
        started.fingerprint
    )
    gid = _game(started)
    with GameSession.open(started.station_url, game=gid) as s:
        assert s.title == "Club night"


# -- a station can do only what Airboss does ------------------------------------------------


def test_a_station_holds_no_right_to_write_a_table(club, started) -> None:
    gid = _game(started)
    for role in (STATION_2, VIEWER_2):
        with _direct(role) as conn:
            for as_group in (False, True):
                if as_group:  # its group's rights are no more than its own
                    group = club_server.STATION if role == STATION_2 else club_server.VIEWER
                    conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(group)))
                for statement, args in (
                    (
                        "INSERT INTO event (game_id, seq, action, time, actor, rule, narrative, "
                        "kind, payload, hash) VALUES (%s, 99, 99, now(), 'umpire', '', "
                        "'renamed SLIPPED IN', 'clock_set', '{}', 'x')",
                        (gid,),
                    ),
                    ("UPDATE event SET narrative = 'forged' WHERE game_id = %s", (gid,)),
                    ("DELETE FROM event WHERE game_id = %s", (gid,)),
                    (
                        "INSERT INTO snapshot (game_id, seq, data) VALUES (%s, 1, 'FORGED')",
                        (gid,),
                    ),
                    ("UPDATE snapshot SET data = 'FORGED'", None),
                    ("DELETE FROM snapshot", None),
                    (
                        "INSERT INTO game (id, ruleset, title, variants, created) "
                        "VALUES ('x', 'skirmish', 'x', '[]', now())",
                        None,
                    ),
                    ("UPDATE game SET title = 'x'", None),
                    ("TRUNCATE event", None),
                ):
                    with pytest.raises(psycopg.errors.InsufficientPrivilege):
                        conn.execute(statement, args)
    with _direct(VIEWER_2) as conn:  # a viewer may not even call the append
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            _append(conn, gid, _event(99, 99, ClockSet(turn=1, step=0)))
    with GameSession.open(started.station_url, game=gid) as s:
        assert s.log.problems == [] and len(s.events()) == 4


def test_the_server_checks_the_shape_and_the_next_seq_and_makes_the_hash(started) -> None:
    gid = _game(started)
    with _direct(STATION_2) as conn:
        seq = _next(conn, gid)
        good = _event(seq, seq, ClockSet(turn=1, step=0), "the clock")
        for bad, error in (
            ({**good, "seq": seq + 5}, psycopg.errors.UniqueViolation),  # not the next: a gap
            ({**good, "seq": seq - 1}, psycopg.errors.UniqueViolation),  # an event's place
            ({**good, "hash": "0" * 64}, psycopg.errors.InvalidParameterValue),  # chosen hash
            ({**good, "kind": "aircraft_added"}, psycopg.errors.InvalidParameterValue),
            ({**good, "payload": "not json"}, psycopg.errors.InvalidParameterValue),
            ({**good, "payload": "[1]"}, psycopg.errors.InvalidParameterValue),
            ({**good, "action": seq + 1}, psycopg.errors.InvalidParameterValue),
            ({**good, "actor": "x" * 65}, psycopg.errors.InvalidParameterValue),
            ({**good, "narrative": "x" * 10_001}, psycopg.errors.InvalidParameterValue),
            ({**good, "seq": "1"}, psycopg.errors.InvalidParameterValue),
            ({**good, "uid": "x'; DROP TABLE event; --/0"}, psycopg.errors.InvalidParameterValue),
            ({**good, "time": "yesterday"}, psycopg.errors.InvalidParameterValue),
        ):
            with pytest.raises(error):
                _append(conn, gid, bad)
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            _append(conn, "no-such-game", good)
        digest = _append(conn, gid, good)
        row = conn.execute(
            "SELECT game_id, seq, action, time, actor, rule, narrative, kind, payload, uid, hash "
            "FROM event WHERE game_id = %s AND seq = %s",
            (gid, seq),
        ).fetchone()
        prev = conn.execute(
            "SELECT hash FROM event WHERE game_id = %s AND seq = %s", (gid, seq - 1)
        ).fetchone()[0]
    # the server made the hash the chain's way: the game opens clean, its chain checked
    assert row[-1] == digest == event_hash(prev, list(row[:10]))
    with GameSession.open(started.local_station_url, game=gid) as s:
        assert s.engagement.seq == seq and s.log.problems == []
        s.store.check_chain(gid)


def test_no_station_can_shut_another_out(club, started) -> None:
    """Another machine's password, the group's, another's connection: refused. Its own
    password PostgreSQL lets every role change (nothing short of a server extension stops
    it); with a role per machine that shuts out only the station that does it."""
    gid = _game(started)
    other = _direct(STATION_3)
    viewer = _direct(VIEWER_2)
    try:
        with _direct(STATION_2) as conn:
            for role in (STATION_3, club_server.STATION, VIEWER_2, club_server.ROLE):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(
                        sql.SQL("ALTER ROLE {} PASSWORD 'locked-out'").format(sql.Identifier(role))
                    )
            for end in ("pg_terminate_backend", "pg_cancel_backend"):
                for victim in (other, viewer):
                    with pytest.raises(psycopg.errors.InsufficientPrivilege):
                        conn.execute(
                            sql.SQL("SELECT {}(%s)").format(sql.Identifier(end)),
                            (victim.info.backend_pid,),
                        )
            conn.execute("ALTER ROLE CURRENT_USER PASSWORD 'only-mine'")  # its own: allowed
        # every other machine is still in: its open connection and a new one
        assert other.execute("SELECT 1").fetchone() == (1,)
        assert viewer.execute("SELECT 1").fetchone() == (1,)
        with GameSession.open(started.station_url.replace(STATION_2, STATION_3), game=gid) as third:
            third.clock.next_step()
        with _direct(VIEWER_2) as again:
            assert again.execute("SELECT count(*) FROM event WHERE game_id = %s", (gid,))
    finally:
        other.close()
        viewer.close()
        with _owner(club) as owner:  # the club's umpire gives station 2 its password back
            owner.execute(
                sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    sql.Identifier(STATION_2), sql.Literal(PASSWORDS[STATION_2])
                )
            )


def test_no_role_but_the_owner_makes_an_object(started) -> None:
    for role in (STATION_2, VIEWER_2):
        with _direct(role) as conn:
            for statement in (
                "CREATE TABLE mine (x int)",
                "CREATE TEMP TABLE mine (x int)",
                "CREATE SCHEMA mine",
                "CREATE FUNCTION public.mine() RETURNS int LANGUAGE sql AS 'SELECT 1'",
                "CREATE VIEW mine AS SELECT 1",
                "SELECT lo_create(0)",
                "SELECT lo_creat(-1)",
                "SELECT lo_from_bytea(0, 'x')",
                "CREATE ROLE mine",
                "CREATE DATABASE mine",
                "COPY (SELECT 1) TO PROGRAM 'id > /tmp/airboss-pwned-46'",
                "SELECT query FROM pg_stat_activity WHERE usename = 'airboss'",
            ):
                try:
                    rows = conn.execute(statement).fetchall()
                except psycopg.errors.InsufficientPrivilege:
                    continue
                # reading pg_stat_activity is allowed, but not what others run
                assert statement.startswith("SELECT query"), statement
                assert all(r[0] == "<insufficient privilege>" for r in rows), rows
    assert not Path("/tmp/airboss-pwned-46").exists()


def test_no_row_a_station_writes_makes_the_game_unopenable(started, tmp_path: Path) -> None:
    """Well-shaped rows that cannot happen, appended through the server's function, and a
    snapshot saying what the station likes: every desk still opens the game, says each row
    by its seq and what was wrong, and goes on."""
    gid = _game(started)
    following = GameSession.open(started.local_station_url, game=gid)
    with _direct(STATION_2) as conn:
        seq = _next(conn, gid)
        _append(
            conn,
            gid,
            _event(seq, seq, AircraftChanged(aircraft="ghost", name="BOO"), "renamed SLIPPED IN"),
        )
        _append(conn, gid, _event(seq + 1, seq + 1, Reverted(action=9999)))
        _append(conn, gid, _event(seq + 2, seq + 2, '{"kind": "renamed", "to": "SLIPPED IN"}'))
        forged = following.log.timeline.snapshot().replace(b'"Blue 1"', b'"FORGED"')
        assert b"FORGED" in forged
        assert conn.execute(
            "SELECT airboss_save_snapshot(%s, %s, %s)", (gid, seq + 2, forged)
        ).fetchone() == (True,)
    # a desk that followed the game takes the rows in, leaving out what cannot happen
    assert [e.seq for e in following.log.refresh()] == [seq, seq + 1]  # the unreadable one: out
    said = "\n".join(following.log.problems)
    for n in (seq, seq + 1, seq + 2):
        assert f"event seq {n} was left out" in said
    assert "no aircraft 'ghost'" in said and "action 9999" in said
    following.close()
    # a station and HQ that open it now (another computer: it trusts no snapshot yet)
    import os

    for url, data in ((started.station_url, "a"), (started.viewer_url, "b")):
        os.environ["AIRBOSS_DATA_DIR"] = str(tmp_path / data)
        with GameSession.open(url, game=gid) as s:
            said = "\n".join(s.log.problems)
            assert f"snapshot of this game at event seq {seq + 2} does not agree" in said
            for n in (seq, seq + 1, seq + 2):
                assert f"event seq {n} was left out" in said
            names = sorted(a.name for a in s.engagement.aircraft.values())
            assert names == ["Blue 1", "Red 1"]
            if url == started.station_url:
                s.clock.next_step()  # and the game goes on
    rows = opening.overview(started.station_url)
    assert any(r["id"] == gid and "cannot" not in r["turn"] for r in rows)


def test_a_forged_event_or_snapshot_is_said_at_open_by_a_station_and_by_hq(
    club, started, tmp_path: Path
) -> None:
    """An event slipped in by SQL (only the server's owner can) whose hash was not made by
    the server: the game is refused naming the seq, by a station and by HQ. A snapshot
    changed by SQL: said, and the game opened from its log."""
    import os

    gid = _game(started)
    with GameSession.open(started.station_url, game=gid) as s:
        s.store.save_snapshot(gid, s.engagement.seq, s.log.timeline.snapshot())
    with _owner(club) as owner:
        owner.execute(
            "UPDATE snapshot SET data = convert_to(replace(convert_from(data, 'UTF8'), "
            "'Blue 1', 'FORGED'), 'UTF8') WHERE game_id = %s",
            (gid,),
        )
    for url in (started.station_url, started.viewer_url):
        with GameSession.open(url, game=gid) as s:
            assert any("does not agree" in p for p in s.log.problems)
            assert "FORGED" not in {a.name for a in s.engagement.aircraft.values()}
    with _owner(club) as owner:
        seq = _next(owner, gid)
        owner.execute(
            "INSERT INTO event (game_id, seq, action, time, actor, rule, narrative, kind, "
            "payload, hash) VALUES (%s, %s, %s, now() AT TIME ZONE 'UTC', 'umpire', '', "
            "'renamed SLIPPED IN', 'clock_set', %s, %s)",
            (gid, seq, seq, event_to_json(ClockSet(turn=9, step=0)), "f" * 64),
        )
    for url, data in ((started.station_url, "c"), (started.viewer_url, "d")):
        os.environ["AIRBOSS_DATA_DIR"] = str(tmp_path / data)
        with pytest.raises(Tampered, match=f"at seq {seq};"):
            GameSession.open(url, game=gid)


def test_on_the_clubs_network_without_tls_the_start_says_the_network_reads_the_games() -> None:
    root = Path(tempfile.mkdtemp(prefix="airboss-plain-"))
    try:
        s = club_server.start(root=root, port=PORT + 1, listen="127.0.0.3")
        shown = "\n".join(club_server.describe(s))
        assert "anyone on it can read them" in shown and "--tls" in shown
        assert s.station_url.endswith("?sslmode=disable")
        assert server_trust.plain_text("club-laptop", {"sslmode": "disable"})
        assert not server_trust.plain_text("club-laptop", {})
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


def test_the_functions_enforce_the_documented_limits() -> None:
    """The numbers written in the server's SQL are ``app.core.limits``'s."""
    from app.store import server_functions as f

    assert f"> {f.LIMITS['MAX_EVENTS']}" in f.APPEND
    assert f"length(v_narrative) > {f.LIMITS['MAX_TEXT']}" in f.APPEND
    assert f"length(v_payload) > {f.LIMITS['MAX_PAYLOAD']}" in f.APPEND
    assert f"length(p_data) > {f.LIMITS['MAX_SNAPSHOT']}" in f.SAVE_SNAPSHOT
    assert StoreError  # the module's errors are the store's


def test_a_file_changed_outside_airboss_is_never_copied_to_the_server(
    started, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server makes every hash again as it takes a copied log: a file whose log was
    changed before its newest snapshot (which opening it does not check) would arrive clean.
    It is refused, naming the seq, and nothing is copied."""
    import sqlite3

    import app.session.log

    monkeypatch.setattr(app.session.log, "SNAPSHOT_EVERY", 5)
    path = tmp_path / "home.airboss"
    with GameSession.create(path, ruleset="skirmish", title="Home") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        for _ in range(8):
            s.clock.next_step()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE event SET narrative = 'renamed SLIPPED IN' WHERE seq = 2")
    db.close()
    with GameSession.open(path) as home:  # from its snapshot: the change is before it
        with pytest.raises(Tampered, match="at seq 2;"):
            home.save_copy(started.local_station_url)
    assert not any(r["title"] == "Home" for r in opening.overview(started.local_station_url))


def test_the_desk_says_why_a_server_gets_no_password(
    started, as_network, tmp_path: Path, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """File > Open from server: an impostor asking for the password in clear, and a server
    met for the first time whose fingerprint the umpire does not confirm (the desk's own
    question, answered No): each said in the dialog, nothing sent."""
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.ui.dialogs.open_from_server import OpenFromServerDialog

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = OpenFromServerDialog(settings)
    qtbot.addWidget(dialog)
    impostor = Impostor("127.0.0.1")
    try:
        monkeypatch.setattr(server_trust, "is_loopback", lambda host: host == "127.0.0.1")
        passwords.remember(impostor.url(STATION_2), PASSWORDS[STATION_2])
        dialog.url.setText(impostor.url(STATION_2))
        assert not dialog.list_games()
        assert "not SCRAM" in dialog.message.text() and "was not sent" in dialog.message.text()
        assert impostor.heard() == b""
    finally:
        impostor.close()
    asked: list[str] = []

    def answer_no() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.objectName() == "trust-server":
            asked.append(box.text())
            box.button(QMessageBox.StandardButton.No).click()
        else:
            QTimer.singleShot(50, answer_no)

    monkeypatch.setattr(server_trust, "is_loopback", lambda host: host == "localhost")
    QTimer.singleShot(50, answer_no)
    dialog.url.setText(started.station_url)
    assert not dialog.list_games()
    assert asked and started.fingerprint in asked[0]
    assert "does not know this server yet, so no password was sent" in dialog.message.text()
    assert not server_trust.pinned(HOST, PORT).exists()
