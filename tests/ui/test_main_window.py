"""The main window: panels, menus, undo/redo naming the action, status bar, games, help."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage

from app.core.dice import TableDice
from app.session import GameSession
from app.startup.demo import DEMO, DemoUnavailable, create_demo_game, read_demo
from app.ui import cards
from app.ui.dialogs.new_game import NewGameDialog
from app.ui.model import EngagementModel
from app.ui.shell.application import run, start_game
from app.ui.shell.desk_layout import used_panels
from app.ui.shell.dock_registry import PANELS
from app.ui.shell.main_window import LICENCE, MainWindow, version

SKIRMISH_DEMO = """
ruleset = "skirmish"
title = "Skirmish demo"
[[aircraft]]
side = "Blue"
type = "jet"
name = "Blue 1"
[[aircraft]]
side = "Blue"
type = "prop"
name = "Blue 2"
[[aircraft]]
side = "Red"
type = "jet"
name = "Red 1"
[[aircraft]]
side = "Red"
type = "prop"
name = "Red 2"
"""

#: how the log names the skirmish test shot (issue 13: who did what to whom)
SHOT = "Blue 1 — Gun attack on Red 1: "


@pytest.fixture
def settings(tmp_path):
    s = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    s.setValue("dice/players_roll", False)  # the first start's question answered: Airboss rolls
    return s


@pytest.fixture
def demo_file(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(SKIRMISH_DEMO, encoding="utf-8")
    return path


@pytest.fixture
def window(tmp_path, settings, demo_file, qtbot):
    model = EngagementModel()
    w = MainWindow(model, settings)
    qtbot.addWidget(w)
    w.show_session(create_demo_game(tmp_path / "desk.airboss", demo=demo_file))
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    yield w
    model.set_session(None)


def test_every_registered_panel_is_a_dock_with_a_view_toggle(window):
    for name in ("roster", "turn", "initiative", "game_log"):
        assert window.docks[name].isVisible()
    assert set(window.docks) | set(window.missing_panels) == {p.name for p in PANELS}
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    toggles = {a.text() for a in view_menu.actions()}
    assert {"Roster", "Turn", "Initiative", "Game log"} <= toggles
    window.docks["game_log"].toggleViewAction().trigger()
    assert not window.docks["game_log"].isVisible()


def test_status_bar_shows_game_ruleset_turn_and_step(window, qtbot):
    labels = window.status_labels
    assert labels["game"].text() == "Game: Skirmish demo"
    assert labels["ruleset"].text() == "Ruleset: Skirmish (test ruleset)"
    assert (labels["turn"].text(), labels["phase"].text()) == ("Turn 1", "Initiative")
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert labels["phase"].text() == "Movement"


def test_undo_and_redo_name_the_action_and_use_the_shortcuts(window, qtbot):
    session = window.model.session
    session.perform("gun_attack", {"attacker": "blue-1", "target": "red-1"}, TableDice([2]))
    assert window.undo_action.text() == "&Undo " + SHOT + "gun roll 2: hit (Skirmish 1)"
    assert window.undo_action.shortcut().toString() == "Ctrl+Z"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.engagement.aircraft["red-1"].damage == 0
    assert window.redo_action.text() == "&Redo " + SHOT + "gun roll 2: hit (Skirmish 1)"
    qtbot.keyClick(
        window,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert session.engagement.aircraft["red-1"].damage == 1
    assert not window.redo_action.isEnabled()
    # said in the status bar (cut with "…" to its room), whole in its tooltip
    assert window.statusBar().toolTip() == "Redone: " + SHOT + "gun roll 2: hit (Skirmish 1)"


def test_refusals_are_shown_in_the_status_bar_and_append_nothing(window, qtbot):
    session = window.model.session
    before = len(session.events())
    window.model.attempt(session.clock.previous_step)
    assert window.refusal.message == "this is the first step of the first turn"
    assert not window.refusal.isHidden()
    assert len(session.events()) == before
    session.clock.next_step()
    assert window.refusal.message == ""


def test_nothing_to_redo_is_refused(window):
    before = len(window.model.session.events())
    window.redo()
    assert window.refusal.message == "nothing to redo"
    assert len(window.model.session.events()) == before


def test_new_game_open_recent_and_close(window, tmp_path):
    first = window.game_path
    assert window.new_game(tmp_path / "second.airboss", "skirmish", "Second", ["long_guns"])
    assert window.status_labels["ruleset"].text() == "Ruleset: Skirmish (test ruleset) + long_guns"
    assert window.windowTitle() == "Second — Airboss"
    assert window.recent_games() == [str(tmp_path / "second.airboss"), first]
    window._fill_recent()
    recent = [a.text() for a in window.recent_menu.actions()]
    assert recent == window.recent_games()
    window.recent_menu.actions()[1].trigger()
    assert window.model.engagement.title == "Skirmish demo"
    window.close_action.trigger()
    assert not window.model.has_session
    assert window.status_labels["game"].text() == "No game open"
    assert not window.close_action.isEnabled()
    assert window.panels["turn"].heading.text() == "No game open"
    assert window.settings.value("last_game") == ""


def test_recent_games_are_absolute_and_open_from_another_folder(window, tmp_path, monkeypatch):
    """Issue 14: a game created by a relative name is remembered by its absolute path."""
    monkeypatch.chdir(tmp_path)
    assert window.new_game("relative.airboss", "skirmish", "Relative", [])
    where = str(tmp_path / "relative.airboss")
    assert window.recent_games()[0] == where
    assert window.settings.value("last_game") == where
    monkeypatch.chdir(tmp_path.parent)
    window.close_action.trigger()
    assert window.open_game(window.recent_games()[0])
    assert window.model.engagement.title == "Relative"


def test_new_game_refused_when_the_file_exists(window, tmp_path):
    taken = tmp_path / "desk.airboss"
    assert not window.new_game(taken, "skirmish", "Again", [])
    assert "exists already" in window.refusal.message
    assert window.model.engagement.title == "Skirmish demo"


def test_a_foreign_file_is_refused_and_left_alone(window, tmp_path):
    junk = tmp_path / "notes.airboss"
    junk.write_bytes(b"this is not a game")
    assert not window.open_game(junk)
    assert "Could not open" in window.refusal.message
    assert junk.read_bytes() == b"this is not a game"
    assert window.model.engagement.title == "Skirmish demo"


def test_save_a_copy(window, tmp_path):
    window.model.session.clock.next_step()
    copy = tmp_path / "copy.airboss"
    assert window.save_copy(copy)
    with GameSession.open(copy) as s:
        assert len(s.events()) == len(window.model.session.events())
        assert s.engagement.step == 1
    assert not window.save_copy(copy)
    assert "exists already" in window.refusal.message


def test_new_game_dialog_lists_rulesets_broken_ones_and_variants(qtbot, tmp_path):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    ids = [dialog.ruleset_box.itemData(i) for i in range(dialog.ruleset_box.count())]
    assert "skirmish" in ids and "broken" not in ids
    assert "broken: RuntimeError: this ruleset is broken on purpose" in dialog.broken_label.text()
    dialog.ruleset_box.setCurrentIndex(ids.index("skirmish"))
    assert dialog.variant_list.item(0).text() == "Long guns (Skirmish 5)"
    dialog.variant_list.item(0).setCheckState(Qt.CheckState.Checked)
    dialog._check()
    assert dialog.message.message == "A new game needs a title."
    qtbot.keyClicks(dialog.title_edit, "Club night")
    dialog.path_edit.setText(str(tmp_path / "club.airboss"))
    dialog._check()
    assert dialog.result() == dialog.DialogCode.Accepted
    assert dialog.values() == (tmp_path / "club.airboss", "skirmish", "Club night", ["long_guns"])


def test_print_cards_gets_the_model_and_the_roster_selection(window, monkeypatch):
    seen = []

    class Recorder:
        def __init__(self, model, selected, parent):
            seen.append((model, selected, parent))

        def exec(self):
            return 0

    monkeypatch.setattr(cards, "PrintCardsDialog", Recorder)
    window.panels["roster"].select(["red-1"])
    assert window.print_action.shortcut().toString() == "Ctrl+P"
    window.print_action.trigger()
    assert seen == [(window.model, ["red-1"], window)]


def test_file_print_board_writes_the_board_as_a_pdf_page(window, monkeypatch, tmp_path):
    """Issue 18: File > Print board… puts the board, its positions and arcs on a page."""
    from PySide6.QtWidgets import QFileDialog

    out = tmp_path / "board.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "PDF"))
    window.print_board_action.trigger()
    assert out.read_bytes()[:5] == b"%PDF-"


def test_about_and_rulesets(window):
    about = window.about_text()
    assert version() in about and LICENCE in about
    assert "Skirmish (test ruleset) (skirmish) — Airboss test suite" in about
    text = window.rulesets_text()
    assert "Gun attack" in text
    assert "<b>broken</b>: RuntimeError: this ruleset is broken on purpose" in text


def test_help_lists_every_reading_with_its_default(window, qtbot):
    """Issue 15: the variant help lists every open reading with its default: Ctrl+F1 opens it,
    the open game's ruleset first with what this game uses, every variant of every installed
    ruleset after it."""
    from app.plugins import available_rulesets, load_ruleset

    qtbot.keyClick(window, Qt.Key.Key_F1, Qt.KeyboardModifier.ControlModifier)
    dialog = window.readings_dialog
    qtbot.waitUntil(dialog.isVisible)
    text = dialog.browser.toPlainText()
    current = window.model.session.ruleset
    assert text.index(current.title + " — this game") < min(
        text.index(load_ruleset(r).title) for r in available_rulesets() if r != current.id
    )
    count = 0
    for rid in available_rulesets():
        for v in load_ruleset(rid).variants:
            start = text.index(v.title)
            assert "Default: " + ("on" if v.default else "off") in text[start : start + 400]
            count += 1
    assert count >= 20 and text.count("In this game:") == len(current.variants)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_table_mode_enlarges_the_type(window):
    normal = window.panels["roster"].font().pointSizeF()
    window.table_mode_action.trigger()
    assert window.panels["roster"].font().pointSizeF() == pytest.approx(normal * 1.4)
    window.table_mode_action.trigger()
    assert window.panels["roster"].font().pointSizeF() == pytest.approx(normal)


# full screen asks the window system to raise the window, which offscreen cannot do
def test_player_display_from_the_view_menu_and_f11(window, qtbot):
    window.player_action.trigger()
    view = window.player_view
    qtbot.addWidget(view)
    assert view.isVisible() and view.turn.text() == "Turn 1"
    window.player_full_action.trigger()
    assert view.isFullScreen()
    window.player_full_action.trigger()
    assert not view.isFullScreen()
    view.close()
    assert not window.player_action.isChecked()


def test_first_start_makes_the_demo_then_reopens_the_last_game(settings, demo_file):
    session, problem = start_game(None, None, settings, demo=demo_file)
    assert problem == ""
    assert len(session.engagement.aircraft) == 4
    where = session.store.where
    session.close()
    settings.setValue("last_game", where)
    again, problem = start_game(None, None, settings, demo=demo_file)
    assert again.store.where == where and problem == ""
    again.close()
    settings.setValue("last_game", where + ".gone")
    none, problem = start_game(None, None, settings, demo=demo_file)
    assert none is None and "no longer there" in problem


def test_the_built_in_demo_is_a_phantoms_fight(tmp_path):
    spec = read_demo(DEMO)
    assert spec.ruleset == "phantoms"
    assert {a.type for a in spec.aircraft} == {"f4e", "mig21", "f15c", "mig23"}
    with create_demo_game(tmp_path / "demo.airboss") as s:
        e = s.engagement
        assert len(e.sides) == 2 and all(len(e.on_side(side)) >= 4 for side in e.sides)


def test_a_demo_whose_ruleset_is_missing_says_so(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(SKIRMISH_DEMO.replace('"skirmish"', '"broken"'), encoding="utf-8")
    with pytest.raises(DemoUnavailable, match="needs the 'broken' ruleset, which cannot be loaded"):
        create_demo_game(tmp_path / "x.airboss", demo=bad)
    assert not (tmp_path / "x.airboss").exists()


def test_screenshot_renders_every_panel(tmp_path, settings, demo_file, qapp):
    game = create_demo_game(tmp_path / "shot.airboss", demo=demo_file)
    game.close()
    png = tmp_path / "shot.png"
    assert run(game=str(tmp_path / "shot.airboss"), screenshot=str(png), settings=settings) == 0
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1600, 1000)
    assert settings.value("window/state") is None  # a screenshot leaves the layout alone
    assert Path(str(settings.value("last_game"))) == tmp_path / "shot.airboss"


def test_the_game_menu_holds_the_turn_and_initiative_actions(window):
    game_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Game")
    items = [(a.text(), a.shortcut().toString()) for a in game_menu.actions()]
    assert items == [
        ("Next step", "Space"),
        ("Previous step", "Shift+Space"),
        ("Roll initiative", "Ctrl+I"),
    ]
    game_menu.actions()[0].trigger()
    assert window.model.engagement.step == 1


def test_every_panel_on_screen_for_a_screenshot(window):
    window.docks["ledgers"].hide()
    assert window.tabifiedDockWidgets(window.docks["turn"])
    window.show_all_panels(untab=True)
    used = used_panels(window.model.session.ruleset)
    assert "angle_off" not in used  # the Phantoms demo has no board geometry (issue 14)
    for name, dock in window.docks.items():
        if name in used:
            assert dock.isVisible() and not window.tabifiedDockWidgets(dock), name
        else:
            assert not dock.isVisible(), name


@pytest.mark.parametrize(
    "module, cls",
    [
        ("app.ui.docks.roster", "RosterDock"),
        ("app.ui.docks.turn", "TurnDock"),
        ("app.ui.docks.initiative", "InitiativeDock"),
        ("app.ui.docks.game_log", "GameLogDock"),
        ("app.ui.players.display", "PlayerView"),
    ],
)
def test_each_panel_previews_alone_on_a_demo_game(module, cls, tmp_path, demo_file, qapp):
    import importlib

    from app.ui.docks.preview import preview

    factory = getattr(importlib.import_module(module), cls)
    png = tmp_path / "panel.png"
    assert preview(factory, ["--demo", str(demo_file), "--screenshot", str(png)]) == 0
    assert QImage(str(png)).width() > 100


def test_airboss_screenshot_from_the_command_line(tmp_path, demo_file, qapp):
    from app.cli import main

    create_demo_game(tmp_path / "cli.airboss", demo=demo_file).close()
    png = tmp_path / "cli.png"
    assert main(["--screenshot", str(png), str(tmp_path / "cli.airboss")]) == 0
    # 1600 wide; 1000 high or taller where every panel of the game, untabbed, needs more
    width, height = QImage(str(png)).size().toTuple()
    assert width == 1600 and height >= 1000
    assert main(["--screenshot", str(png), str(tmp_path / "missing.airboss")]) == 2


def test_panels_that_follow_the_roster_get_its_selection(window):
    combat = window.panels["combat"]
    window.panels["roster"].select(["red-1"])
    assert combat.attacker.currentData() == "red-1"
    assert window.model.selection == ["red-1"]


def test_application_icon_is_set(window):
    """Issue 10: the application icon appears in the window (and the desktop entry names it)."""
    from PySide6.QtWidgets import QApplication

    from app.resources import ICON_SVG, icon_png
    from app.ui.shell.application import application

    assert application() is QApplication.instance()
    assert not QApplication.windowIcon().isNull()
    assert ICON_SVG.exists() and icon_png(256).exists()


def test_who_acts_now_opens_the_procedure_in_the_combat_panel(window):
    session = window.model.session
    session.clock.next_step()
    session.clock.next_step()
    window.panels["turn"].open_procedure.emit("gun_attack", "red-1", "")
    combat = window.panels["combat"]
    assert combat.procedure.currentData() == "gun_attack"
    assert combat.attacker.currentData() == "red-1"
    assert window.docks["combat"].isVisible()


def test_a_read_only_game_says_so_in_the_title_and_refuses_in_the_desk(window, tmp_path, qtbot):
    """Issue 16: a file that cannot be written opens read-only, says so in the title bar, and an
    action is refused with a message in the desk; the file stays byte-for-byte the same."""
    path = Path(window.game_path)
    window.close_action.trigger()
    path.chmod(0o444)
    before = path.read_bytes()
    assert window.open_game(path)
    assert window.windowTitle() == "Skirmish demo [read-only] — Airboss"
    before_events = len(window.model.session.events())
    window.model.attempt(window.model.session.clock.next_step)
    assert "read-only" in window.refusal.message and str(path) in window.refusal.message
    assert not window.refusal.isHidden()
    assert len(window.model.session.events()) == before_events
    window.close_action.trigger()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("desk.airboss*")) == ["desk.airboss"]


def test_a_read_only_desk_disables_what_would_change_the_game(window, tmp_path, qtbot):
    """What would change a game opened read-only is disabled in every panel, not refused after
    a click: Add, Rename, Remove and Pilot, Next and Previous, Resolve, the initiative roll and
    Pass marker, and the ledger correction; rename by double-click does not start. A game this
    desk may change, opened next, has them all again (Ctrl+I rolls)."""
    path = Path(window.game_path)
    window.close_action.trigger()
    path.chmod(0o444)
    assert window.open_game(path)
    panels = {name: window.panel(name) for name in ("roster", "turn", "combat", "initiative")}
    ledgers = window.panel("ledgers")
    roster, turn, combat, initiative = panels.values()

    def choose() -> None:
        """Combat and Ledgers in view, each showing the game as it is; a choice in each."""
        for name in ("combat", "ledgers"):
            window.docks[name].raise_()
            qtbot.waitUntil(lambda n=name: window.panels[n].when_shown.on_screen)
        roster.select(["blue-1"])
        ledgers.select("blue-1", "ammunition")

    choose()

    def acting() -> dict[str, bool]:
        return {
            "add": roster.add_action.isEnabled(),
            "rename": roster.rename_action.isEnabled(),
            "remove": roster.remove_action.isEnabled(),
            "pilot": roster.pilot_button.isEnabled(),
            "next": turn.next_button.isEnabled(),
            "previous": turn.previous_button.isEnabled(),
            "resolve": combat.resolve_button.isEnabled(),
            "roll": initiative.roll_button.isEnabled(),
            "roll key": initiative.roll_action.isEnabled(),
            "apply": ledgers.apply_button.isEnabled(),
        }

    assert not any(acting().values()), acting()
    item = roster.tree.topLevelItem(0).child(0)
    rect = roster.tree.visualItemRect(item)
    qtbot.mouseDClick(roster.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert not roster.tree.isPersistentEditorOpen(item, 0)
    assert roster.tree.state() != roster.tree.State.EditingState
    window.close_action.trigger()
    path.chmod(0o644)
    assert window.open_game(path)
    choose()
    assert all(acting().values()), acting()
    before = len(window.model.session.events())
    window.docks["turn"].raise_()  # Initiative tabbed away: Ctrl+I still rolls
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert len(window.model.session.events()) > before


def test_edit_menu_opens_the_card_and_tables_editors_by_key(tmp_path, settings, qtbot):
    """Issue 14: Edit > Aircraft cards (on the selected aircraft's type) and Edit > Tables."""
    model = EngagementModel()
    w = MainWindow(model, settings)
    qtbot.addWidget(w)
    w.show_session(create_demo_game(tmp_path / "phantoms.airboss"))
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    red = next(a for a in w.model.engagement.aircraft.values() if a.name == "Red 3")
    w.panels["roster"].select([red.id])
    qtbot.keyClick(
        w, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert w.card_editor.isVisible()
    assert w.card_editor.types.currentData() == red.type_id
    qtbot.keyClick(
        w, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert w.tables_editor.isVisible() and w.tables_editor.list.count() >= 1
    w.close_action.trigger()
    assert not w.cards_action.isEnabled() and not w.tables_action.isEnabled()
    model.set_session(None)


def test_every_registered_panel_loads_and_has_a_place_in_both_layouts():
    """The registry names each panel's class by module: a wrong name fails here, not at the
    table when the panel is first shown."""
    from PySide6.QtWidgets import QWidget

    from app.ui.shell.desk_layout import DESK, TABLE

    for entry in PANELS:
        assert issubclass(entry.load(), QWidget), entry.name  # type: ignore[arg-type]
    for layout in (DESK, TABLE):
        placed = [n for _column, groups in layout for group in groups for n in group]
        assert sorted(placed) == sorted(p.name for p in PANELS)
