"""Live stations on a club's server (issue 17): File > Open from server, read-only desks, the
Player display of a server game, and a refused password -- driven through the real widgets on
the private PostgreSQL server of ``conftest.py``."""

from __future__ import annotations

import psycopg
import pytest
from PySide6.QtCore import QSettings, Qt

from app.core.dice import TableDice
from app.session import GameSession, opening
from app.store import StoreError
from app.ui.dialogs.open_from_server import HQ, PLAYERS, URL_KEY, OpenFromServerDialog
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def game(pg_url: str):
    """A game on the server with one jet a side; Red 1 was attacked with typed dice."""
    s = GameSession.create(pg_url, ruleset="skirmish", title="Club table")
    blue = s.add_aircraft(side="Blue", type_id="jet", name="Blue 1")
    red = s.add_aircraft(side="Red", type_id="prop", name="Red 1")
    s.perform("gun_attack", {"attacker": blue, "target": red}, TableDice([6]))
    yield s
    s.close()


@pytest.fixture
def window(settings, qtbot):
    model = EngagementModel()
    w = MainWindow(model, settings)
    w.persist_layout = False
    qtbot.addWidget(w)
    yield w
    for view in list(w.player_displays):
        view.close()
    model.set_session(None)


def _row_of(dialog: OpenFromServerDialog, title: str) -> int:
    rows = [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())]
    return rows.index(title)


def test_open_from_server_lists_the_games_and_enter_opens_one(pg_url, game, window, qtbot):
    """The overview is the one ``--list`` prints (watching stations included); Enter lists a
    new address, Enter again opens the chosen game as a station; the URL is remembered."""
    watcher = GameSession.open(pg_url, game=game.game_id)
    watcher.log.follow()  # one station watching
    dialog = OpenFromServerDialog(window.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.url.setText(pg_url)
    dialog.url.setFocus()
    qtbot.keyClick(dialog.url, Qt.Key.Key_Return)  # a new address: its games are listed
    assert dialog.isVisible() and dialog.table.rowCount() >= 1
    heads = [dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())]
    assert heads == ["Ruleset", "Title", "Turn", "In play", "Last action", "Watching"]
    row = _row_of(dialog, "Club table")
    cells = [dialog.table.item(row, c).text() for c in range(dialog.table.columnCount())]
    listed = {r["id"]: r for r in opening.overview(pg_url)}[game.game_id]
    assert cells == list(opening.overview_table([listed])[0][1:])
    assert cells[0] == "skirmish" and cells[2].startswith("Turn 1") and cells[3] == "2"
    assert cells[4] and cells[5] == "1"
    dialog.table.selectRow(row)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)  # listed: Enter opens
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.chosen() == (pg_url, game.game_id, "station")
    window.open_from_server(*dialog.chosen())
    assert window.model.session.game_id == game.game_id and not window.model.session.read_only
    assert window.settings.value(URL_KEY) == pg_url
    again = OpenFromServerDialog(window.settings, window)
    qtbot.addWidget(again)
    assert again.url.text() == pg_url  # remembered
    again.show()
    qtbot.keyClick(again, Qt.Key.Key_Escape)
    assert not again.isVisible() and again.chosen() is None
    watcher.close()


def test_the_dialog_says_clearly_when_the_server_cannot_be_reached(window, qtbot):
    dialog = OpenFromServerDialog(window.settings, window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.url.setText("postgresql://airboss:secret@/club?host=/nonexistent-airboss&port=1")
    qtbot.keyClick(dialog.url, Qt.Key.Key_Return)
    text = dialog.message.text()
    assert dialog.isVisible() and dialog.table.rowCount() == 0
    assert "Could not list the games" in text and "cannot reach the server" in text
    assert "secret" not in text
    assert window.settings.value(URL_KEY) is None  # a wrong address is not remembered


def test_a_read_only_desk_follows_live_and_refuses_every_action(pg_url, game, window, qtbot):
    """HQ: the desk shows the other station's actions as they happen, but its actions are
    disabled and say why; an action tried anyway is refused with a message, nothing written."""
    assert window.open_from_server(pg_url, game.game_id, HQ)
    session = window.model.session
    assert session.read_only and "[read-only]" in window.windowTitle()
    assert (
        "read-only" in window.refusal.message and "follows the game live" in window.refusal.message
    )
    assert window.status_labels["role"].text() == "Read-only"
    acting = window._acting_actions()
    assert len(acting) >= 3
    for act in (*acting, window.print_action):
        assert not act.isEnabled() and "read-only" in act.statusTip()
    before = game.engagement.seq
    game.clock.next_step()  # the station acts ...
    qtbot.waitUntil(lambda: window.model.engagement == game.engagement, timeout=30_000)
    assert "Turn 1" in window.status_labels["turn"].text()
    # ... and the HQ desk's actions stay disabled after the live update
    for act in acting:
        assert not act.isEnabled()
    turn = window.panels["turn"]
    turn.next_action.setEnabled(True)  # forced: the session itself refuses
    refused: list[str] = []
    window.model.refused.connect(refused.append)
    turn.next_action.trigger()
    assert refused and "read-only" in refused[-1] and "nothing was changed" in refused[-1]
    assert game.store.last_seq(game.game_id) == before + 1  # only the station's step


def test_the_player_display_of_a_server_game_shows_nothing_umpire_only(pg_url, game, window, qtbot):
    """The Player display opened from a server is read-only and shows what the players may
    see: turn, initiative, aircraft and damage -- never odds, typed dice, the log or positions
    (hidden movement). It follows the station live."""
    blue = next(a.id for a in game.engagement.aircraft.values() if a.name == "Blue 1")
    game.roster.place(blue, 3, 4, 60, 7)
    assert window.open_from_server(pg_url, game.game_id, PLAYERS)
    assert not window.model.has_session  # the desk itself shows nothing of it
    (view,) = window.player_displays
    qtbot.waitExposed(view)
    assert view.model.session.read_only
    red = next(a.id for a in game.engagement.aircraft.values() if a.name == "Red 1")
    game.perform("gun_attack", {"attacker": blue, "target": red}, TableDice([6]))
    qtbot.waitUntil(lambda: view.model.engagement == game.engagement, timeout=30_000)
    texts = view.texts()
    shown = "\n".join(texts).lower()
    assert any("Red 1" in t and "damage 2/" in t for t in texts)  # public: the damage taken
    for umpire_only in ("gun roll", "odds", "%", "hit number", "altitude", "(3, 4)", "facing"):
        assert umpire_only not in shown, umpire_only
    for env in game.events():  # no log line (dice, odds, positions) reaches the display
        if env.narrative and not env.narrative.startswith("New "):
            assert env.narrative.lower() not in shown
    refused: list[str] = []
    view.model.refused.connect(refused.append)
    view.model.attempt(view.model.session.clock.next_step)
    assert refused and "read-only" in refused[0]
    view.close()
    qtbot.waitUntil(lambda: not window.player_displays, timeout=30_000)


def test_a_refused_password_is_a_clear_message_without_the_password(pg_url, window):
    """The server asks for a password (scram) and refuses a wrong one: one line naming the
    server (password hidden) and the reason; the desk shows it and keeps what it had."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE ROLE guarded LOGIN PASSWORD 'right-one'")
        conn.execute("GRANT ALL ON DATABASE club TO guarded")
        hba = str(conn.execute("SHOW hba_file").fetchone()[0])
        with open(hba, encoding="utf-8") as f:
            rules = f.read()
        with open(hba, "w", encoding="utf-8") as f:
            f.write("local all guarded scram-sha-256\n" + rules)
        conn.execute("SELECT pg_reload_conf()")
    try:
        wrong = pg_url.replace("airboss@", "guarded:Wr0ngSecret@")
        with pytest.raises(StoreError) as e:
            GameSession.open(wrong)
        said = str(e.value)
        assert "refused the user name or password" in said
        assert "Wr0ngSecret" not in said and "***" in said
        assert not window.open_from_server(wrong, "any", "station")
        assert "refused the user name or password" in window.refusal.message
        assert "Wr0ngSecret" not in window.refusal.message
        dialog = OpenFromServerDialog(window.settings, window)
        dialog.url.setText(wrong)
        assert not dialog.list_games()
        assert "refused the user name or password" in dialog.message.text()
        assert "Wr0ngSecret" not in dialog.message.text()
        dialog.deleteLater()
        # the right password is let in (the rule is really in force)
        right = pg_url.replace("airboss@", "guarded:right-one@")
        with psycopg.connect(right) as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == "guarded"
    finally:
        with open(hba, "w", encoding="utf-8") as f:
            f.write(rules)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("SELECT pg_reload_conf()")


def test_list_prints_an_empty_server(pg_url, capsys) -> None:
    """``--list`` on a server with no games says so (and does not fail)."""
    from app.cli import main

    with psycopg.connect(pg_url.replace("/club?", "/postgres?"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE empty_club")
    empty = pg_url.replace("/club?", "/empty_club?")
    assert main(["--db", empty, "--list"]) == 0
    assert "(no games)" in capsys.readouterr().out
    with psycopg.connect(empty, autocommit=True) as conn:  # read-only created nothing (issue 30)
        assert (
            conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()[0]
            == 0
        )


def test_the_desk_follows_at_the_announcement_not_at_its_next_look(pg_url, game, qtbot):
    """The LISTEN socket wakes the desk when a station appends: with the desk's own look put
    off for a minute, the action is still shown at once."""
    model = EngagementModel(GameSession.open(pg_url, game=game.game_id))
    model.follow()  # listening
    model._follow.setInterval(60_000)
    model._follow.start()
    game.clock.next_step()
    # well within the minute of the desk's own look, however busy the machine
    qtbot.waitUntil(lambda: model.engagement == game.engagement, timeout=30_000)
    game.clock.next_step()
    qtbot.waitUntil(lambda: model.engagement == game.engagement, timeout=30_000)
    model.set_session(None)
