"""``airboss club-server start`` is secure by default (issue 30), tried on a real server made
by it in a temporary folder (listening on localhost only): passwords for everything but the
owner's socket, a station role that may read and append only, a viewer role that may only
read, passwords shown once and held in the keyring (faked by ``conftest.fake_keyring``), never
in an output or a file."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app import club_server
from app.session import GameSession
from app.store import StoreError
from tests.store.clubs import club as running_club
from tests.store.clubs import remember_all

PORT = 54351
#: the passwords the server made at its start
PASSWORDS: dict[str, str] = {}


@pytest.fixture(scope="module")
def club() -> Iterator[tuple[Path, club_server.Started]]:
    with running_club(PASSWORDS, port=PORT) as made:
        yield made


@pytest.fixture
def started(club, fake_keyring) -> club_server.Started:
    """The server, this test's keyring holding its passwords (as the laptop's keyring does)."""
    return remember_all(club[1], PASSWORDS)


def _with_password(url: str) -> str:
    """The URL with its role's password in it (as a script might be given it)."""
    from app.store import passwords

    return url.replace("@", f":{PASSWORDS[passwords.user_of(url) or '']}@", 1)


def test_start_makes_passwords_once_and_listens_on_localhost(club) -> None:
    root, s = club
    stations = range(1, club_server.STATIONS + 1)
    viewers = range(1, club_server.VIEWERS + 1)
    assert set(s.passwords) == {
        *(club_server.login(club_server.STATION, n) for n in stations),
        *(club_server.login(club_server.VIEWER, n) for n in viewers),
    }
    assert s.host == "localhost" and s.listen == "localhost"
    shown = "\n".join(club_server.describe(s))
    assert "localhost" in shown and s.station_url in shown and s.viewer_url in shown
    hba = (root / "data" / "pg_hba.conf").read_text()
    rules = [line.split() for line in hba.splitlines() if line and not line.startswith("#")]
    # trust only for the owner on its own socket; a password for everything else
    assert [r for r in rules if r[-1] == "trust"] == [["local", "all", club_server.ROLE, "trust"]]
    assert all(r[-1] == "scram-sha-256" for r in rules if r[-1] != "trust")
    assert not any("samenet" in r for r in rules)
    assert (root / "sock").stat().st_mode & 0o077 == 0  # the owner's socket: its folder only
    owner = f"postgresql://{club_server.ROLE}@/club?host={root / 'sock'}&port={PORT}"
    with psycopg.connect(owner) as conn:
        assert conn.execute("SHOW listen_addresses").fetchone()[0] == "localhost"
        assert conn.execute("SHOW password_encryption").fetchone()[0] == "scram-sha-256"
        supers = conn.execute(
            "SELECT rolname, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles "
            "WHERE rolname LIKE 'airboss_%' ORDER BY rolname"
        ).fetchall()
    assert supers and not any(any(flags) for _role, *flags in supers)
    assert {r for r, *_ in supers} == {club_server.STATION, club_server.VIEWER, *s.passwords}
    again = club_server.start(root=root, port=PORT)
    assert again.passwords == {}  # shown once: a second start makes none


def test_a_stranger_is_refused(started, fake_keyring) -> None:
    for url in (
        started.station_url,  # no password
        started.station_url.replace("@", ":not-the-password@"),
        f"postgresql://{club_server.ROLE}@localhost:{PORT}/club",  # the owner, from the network
        f"postgresql://postgres@localhost:{PORT}/postgres",
    ):
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(url, connect_timeout=3).close()
    from app.store import passwords

    passwords._typed.clear()
    fake_keyring.kept.clear()  # a machine that was never told the password
    with pytest.raises(StoreError, match="refused the user name or password"):
        GameSession.open(started.station_url)


def test_the_station_reads_and_appends_and_nothing_more(started) -> None:
    with GameSession.create(started.station_url, ruleset="skirmish", title="Club night") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        s.clock.next_step()
        gid = s.game_id
    station = _with_password(started.station_url)
    for statement in (
        "UPDATE event SET narrative = 'forged'",
        "DELETE FROM event",
        "DELETE FROM game",
        "UPDATE snapshot SET data = ''",
        "TRUNCATE event",
        "CREATE TABLE mine (x int)",
        "DROP TABLE event",
        "ALTER TABLE event ADD COLUMN x int",
        "COPY (SELECT 1) TO PROGRAM 'id > /tmp/airboss-pwned'",
        "CREATE TEMP TABLE t (x int)",
        "CREATE ROLE other",
        "UPDATE airboss_info SET value = 'x'",
    ):
        with psycopg.connect(station, autocommit=True) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    assert not Path("/tmp/airboss-pwned").exists()
    with GameSession.open(started.station_url, game=gid) as again:
        assert again.engagement.step == 1


def test_the_viewer_only_reads_even_through_plain_sql(started) -> None:
    with GameSession.create(started.station_url, ruleset="skirmish", title="Watched") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        gid = s.game_id
    viewer = _with_password(started.viewer_url)
    with psycopg.connect(viewer, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM event WHERE game_id = %s", (gid,)).fetchone()[0]
        for statement in (
            "INSERT INTO game (id, ruleset, title, variants, created) "
            "VALUES ('x', 'skirmish', 'x', '[]', now())",
            "INSERT INTO snapshot (game_id, seq, data) VALUES ('x', 1, '')",
            "UPDATE event SET narrative = 'forged'",
            "DELETE FROM event",
            "CREATE TABLE mine (x int)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    with GameSession.open(started.viewer_url, game=gid) as desk:  # even asked to act
        with pytest.raises(StoreError, match="does not let airboss_viewer_2"):
            desk.clock.next_step()
    # a read-only desk given the station's address connects as the viewer
    with GameSession.open(started.station_url, game=gid, read_only=True) as hq:
        assert hq.store.where.startswith(f"postgresql://{club_server.VIEWER}_2@")


def test_no_output_and_no_file_holds_a_password(
    club, started, tmp_path: Path, capsys, qtbot
) -> None:
    """Every output the issue found the password in (``--list``, ``log``, ``cards``, the
    desk's messages, settings.ini) and every file of the server's folder: no password."""
    from PySide6.QtCore import QSettings

    from app.cli import main
    from app.ui.dialogs.open_from_server import OpenFromServerDialog

    root, _s = club
    with GameSession.create(started.station_url, ruleset="skirmish", title="Secret") as s:
        s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
        gid = s.game_id
    full = _with_password(started.station_url)
    said: list[str] = []
    assert main(["--db", full, "--list"]) == 0
    assert main(["log", full, "--game", gid]) == 0
    main(["cards", full, "--game", "nosuchgame", "--out", str(tmp_path / "c.pdf")])
    main(["log", full.replace("/club", "/nowhere"), "--game", gid])
    out = capsys.readouterr()
    said += [out.out, out.err]
    try:
        GameSession.open(full, game="nosuchgame")
    except StoreError as e:
        said.append(str(e))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = OpenFromServerDialog(settings)
    qtbot.addWidget(dialog)
    dialog.url.setText(full)
    assert dialog.list_games()
    said.append(dialog.message.text() + dialog.url.text())
    settings.sync()
    files = [tmp_path / "settings.ini", *(p for p in root.rglob("*") if p.is_file())]
    for password in PASSWORDS.values():
        assert all(password not in text for text in said)
        for f in files:
            assert password.encode() not in f.read_bytes(), f
    # the remembered address reopens (its password from the keyring)
    remembered = str(settings.value("server/url"))
    assert "***" in remembered
    with GameSession.open(remembered, game=gid, read_only=True) as again:
        assert again.title == "Secret"


def test_every_server_error_is_one_sentence_and_the_drivers_words_only_in_the_log(
    started, fake_keyring, caplog
) -> None:
    """What happened, whether anything was written, what to do: one sentence, no driver
    text; the driver's own words are in the log file."""
    import logging

    from app.store import passwords

    with GameSession.create(started.station_url, ruleset="skirmish", title="Words") as s:
        gid = s.game_id
    said: list[str] = []
    caplog.set_level(logging.WARNING)
    with GameSession.open(started.viewer_url, game=gid) as viewer:
        with pytest.raises(StoreError) as e:
            viewer.clock.next_step()
        said.append(str(e.value))
    for url in (
        started.station_url.replace("/club", "/nowhere"),
        f"postgresql://{club_server.STATION}@127.0.0.1:1/club",
    ):
        with pytest.raises(StoreError) as e:
            GameSession.open(url)
        said.append(str(e.value))
    passwords._typed.clear()
    fake_keyring.kept.clear()
    with pytest.raises(StoreError) as e:
        GameSession.open(started.station_url.replace("@", ":wrong@"))
    said.append(str(e.value))
    for text in said:
        assert "\n" not in text and text.count(". ") == 0 and text.endswith(".")
        for raw in ("psycopg", "sqlalchemy", "Error", "Background", "SQL:", "FATAL"):
            assert raw not in text, text
        assert "nothing" in text  # whether anything was written
    assert "permission denied" in caplog.text and "password authentication failed" in caplog.text


def test_tls_on_request_with_a_certificate_the_server_makes() -> None:
    root = Path(tempfile.mkdtemp(prefix="airboss-club-"))
    try:
        s = club_server.start(root=root, port=PORT + 1, listen="127.0.0.2", tls=True)
        assert "sslmode" not in s.station_url and s.tls
        assert (root / "data" / "server.crt").exists()
        assert (root / "data" / "server.key").stat().st_mode & 0o077 == 0
        hba = (root / "data" / "pg_hba.conf").read_text()
        assert "hostssl club" in hba and "samenet" in hba
        url = s.station_url.replace("@", f":{s.password(club_server.STATION, 2)}@")
        with psycopg.connect(url, sslmode="require") as conn:
            assert conn.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            assert conn.pgconn.ssl_in_use
        assert "TLS" in "\n".join(club_server.describe(s))
    finally:
        club_server.stop(root)
        shutil.rmtree(root, ignore_errors=True)


def test_the_dialog_asks_the_password_once_and_the_keyring_keeps_it(
    started, fake_keyring, tmp_path: Path, qtbot
) -> None:
    """File > Open from server on a machine that was never told the password: typed once in
    the dialog's password box (never shown), kept in the keyring, not in settings.ini."""
    from PySide6.QtCore import QSettings, Qt

    from app.store import passwords
    from app.ui.dialogs.open_from_server import OpenFromServerDialog

    passwords._typed.clear()
    fake_keyring.kept.clear()
    with GameSession.create(
        _with_password(started.station_url),
        ruleset="skirmish",
        title="Typed once",
    ):
        pass
    passwords._typed.clear()
    fake_keyring.kept.clear()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = OpenFromServerDialog(settings)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.url, started.station_url)
    qtbot.keyClick(dialog.url, Qt.Key.Key_Return)
    assert "refused the user name or password" in dialog.message.text()
    qtbot.keyClicks(dialog.password, PASSWORDS[club_server.login(club_server.STATION, 2)])
    qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    assert "Typed once" in [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())]
    assert dialog.password.text() == ""
    assert ("airboss", passwords.key(started.station_url)) in fake_keyring.kept
    settings.sync()
    assert (
        PASSWORDS[club_server.login(club_server.STATION, 2)]
        not in (tmp_path / "settings.ini").read_text()
    )
