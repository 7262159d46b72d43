"""Start-up of the desk (issue 20): what paints first, what waits, what is never imported."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.cli import main
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow

SITE = Path(__file__).parents[1] / "fixtures" / "site"


@pytest.fixture
def game(demo_game_file: Path) -> Path:
    return demo_game_file


@pytest.fixture
def desk(tmp_path: Path, qtbot) -> Iterator[MainWindow]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", False)  # the first start's answer: Airboss rolls
    window = MainWindow(EngagementModel(), settings)
    qtbot.addWidget(window)
    window.persist_layout = False
    yield window
    window.model.set_session(None)


def test_startup_profile_prints_each_phase_up_to_the_first_paint(game, qapp, capsys):
    assert main(["--startup-profile", str(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    phases = {line[:22].strip(): line[22:].split()[0] for line in lines if line.endswith(" ms")}
    for phase in ("python and imports", "game opened", "window built", "first paint"):
        assert float(phases[phase]) >= 0, phase
    assert "every panel in view" in phases
    assert any(line.startswith("wall clock at first paint: ") for line in lines)
    assert gc.isenabled()  # the collector runs again once the desk has painted


def test_a_start_that_fails_leaves_the_collector_on(tmp_path, qapp):
    assert main(["--startup-profile", str(tmp_path / "missing.airboss")]) == 2
    assert gc.isenabled()


@pytest.mark.parametrize("kind", ["missing", "not a game"])
def test_a_game_the_desk_cannot_open_is_said_in_the_desk(tmp_path, qapp, monkeypatch, capsys, kind):
    """``airboss GAME`` with a GAME that cannot be opened (a game file double-clicked in a file
    manager: no terminal) starts the desk empty, its message bar saying which file and why;
    stderr says it too. A screenshot or a start-up profile still fails (above)."""
    from PySide6.QtWidgets import QApplication

    target = tmp_path / "broken.airboss"
    if kind == "not a game":
        target.write_text("these are not the dice you are looking for")
    seen: list[tuple[bool, str, bool]] = []
    before = set(qapp.topLevelWidgets())  # other tests' windows

    def the_umpire_looks(app: QApplication) -> int:
        [window] = [
            w for w in app.topLevelWidgets() if isinstance(w, MainWindow) and w not in before
        ]
        seen.append((window.isVisible(), window.refusal.message, window.model.has_session))
        window.persist_layout = False
        window.close()
        return 0

    monkeypatch.setattr(QApplication, "exec", the_umpire_looks)
    assert main([str(target)]) == 0
    [(visible, message, has_session)] = seen
    assert visible and not has_session
    assert message.startswith(f"Could not open {target}: ")
    assert message.count("broken.airboss") == 1  # the store's message named it too
    assert f"airboss: Could not open {target}" in capsys.readouterr().err
    assert gc.isenabled()


@pytest.fixture
def later_desk(tmp_path: Path, qtbot, game) -> Iterator[MainWindow]:
    """The desk as ``airboss`` starts it: the roster and the turn built with the window."""
    from app.session import GameSession

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("dice/players_roll", False)  # the first start's answer: Airboss rolls
    window = MainWindow(EngagementModel(), settings, panels_later=True)
    qtbot.addWidget(window)
    window.persist_layout = False
    window.show_session(GameSession.open(game))
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.model.set_session(None)


def test_the_roster_and_the_turn_paint_first_and_the_other_panels_are_built_after(later_desk):
    """Issue 20: the first paint builds only the roster and the turn; every dock is laid out
    (and in the View menu) from the start; once painted, the panels in view are built and
    filled, and so is the Initiative panel, whose roll is in the Game menu."""
    window = later_desk
    roster, turn = window.panels["roster"], window.panels["turn"]
    assert set(window.panels) == {"roster", "turn"}
    assert set(roster._items) == {"blue-1", "red-1"}
    assert turn.heading.text()
    assert window.docks["combat"].isVisible() and window.docks["combat"].widget() is None
    game = [a.text() for a in window.game_menu.actions()]
    assert not any("initiative" in t.lower() for t in game)
    in_view = {n for n, d in window.docks.items() if not d.visibleRegion().isEmpty()}
    assert in_view == {"roster", "turn", "combat"}  # the logs are tabbed behind Combat here
    window.build_panels()
    assert set(window.panels) == {"roster", "turn", "combat", "initiative"}
    combat = window.panels["combat"]
    assert window.docks["combat"].widget() is combat
    assert combat.procedure.count() > 0
    assert combat.attacker.findData("blue-1") >= 0
    assert "Roll initiative" in [a.text() for a in window.game_menu.actions()]


def test_a_panel_tabbed_away_is_built_when_it_comes_into_view_with_the_selection(later_desk, qtbot):
    window = later_desk
    window.build_panels()
    window.panels["roster"].select(["red-1"])
    assert "ledgers" not in window.panels
    window.docks["ledgers"].raise_()
    qtbot.waitUntil(lambda: "ledgers" in window.panels)
    ledgers = window.panels["ledgers"]
    assert window.docks["ledgers"].widget() is ledgers
    assert ledgers.isVisible()
    assert ledgers.when_shown.on_screen  # it follows the game from now on
    assert ledgers._items and ledgers.tree.currentItem() is not None
    assert "Red 1" in ledgers.tree.currentItem().text(0)


def test_the_desk_builds_a_panel_it_needs_before_it_comes_into_view(later_desk, tmp_path):
    """File > Print board with the Board panel never shown builds it for the page."""
    window = later_desk
    window.build_panels()
    assert "angle_off" not in window.panels
    board = window.panel("angle_off")
    assert board is window.panels["angle_off"]
    assert window.panel("no_such_panel") is None


def test_a_panel_that_fails_when_built_is_reported_in_its_dock_and_tried_again(
    later_desk, monkeypatch, qtbot
):
    """A ruleset's error while a panel fills (or a broken install) loses no panel for good:
    the status bar and the dock say why, and it is built when shown again once it can be."""
    from app.ui.docks import ledgers

    real = ledgers.LedgersDock

    def broken(*args, **kwargs):
        raise RuntimeError("the ledgers panel is broken")

    window = later_desk
    monkeypatch.setattr(ledgers, "LedgersDock", broken)
    window.build_panels()
    window.docks["ledgers"].raise_()
    qtbot.waitUntil(lambda: "ledgers" in window.missing_panels)
    assert window.panel("ledgers") is None
    assert window.missing_panels["ledgers"] == "RuntimeError: the ledgers panel is broken"
    assert "Ledgers panel could not be built" in window.refusal.text()
    note = window.docks["ledgers"].widget()
    assert note.objectName() == "panel_failed" and "the ledgers panel is broken" in note.text()
    assert window.panel("combat") is not None  # the desk carries on
    monkeypatch.setattr(ledgers, "LedgersDock", real)
    window.docks["combat"].raise_()
    window.docks["ledgers"].raise_()
    qtbot.waitUntil(lambda: "ledgers" in window.panels)
    assert window.docks["ledgers"].widget() is window.panels["ledgers"]
    assert "ledgers" not in window.missing_panels


def test_the_first_paint_imports_no_panel_but_the_roster_and_the_turn(game):
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "from PySide6.QtCore import QSettings\n"
        "from app.ui.shell.application import application, start_game\n"
        "from app.ui.shell.main_window import MainWindow\n"
        "from app.ui.model import EngagementModel\n"
        "app = application()\n"
        f"s, _ = start_game({str(game)!r}, None, QSettings())\n"
        "w = MainWindow(EngagementModel(s), QSettings(), panels_later=True)\n"
        "w.show(); app.processEvents()\n"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('app.ui.docks.')))\n"
        "s.close()\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    # the two panels, each drawn one way (issues 20, 36)
    assert done.stdout.strip() == "['roster', 'turn']"


def test_the_first_paint_imports_no_server_store_migrations_or_odds_engine(game):
    """SQLAlchemy, SQLModel, Alembic, psycopg and icepool load when first needed, not to
    show a game file (issue 20)."""
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "from app.ui.shell.application import start_game\n"
        "from PySide6.QtCore import QSettings\n"
        f"s, _ = start_game({str(game)!r}, None, QSettings())\n"
        "heavy = ('sqlalchemy', 'sqlmodel', 'alembic', 'psycopg', 'icepool')\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_panels_tabbed_away_are_brought_up_to_date_before_the_desk_uses_them(
    game, desk, tmp_path, qtbot
):
    """Issue 20: Initiative and Combat fill when shown; a game opened while they are tabbed
    away is still the one Ctrl+I rolls for, and the roster's selection reaches Combat."""
    from PySide6.QtCore import Qt

    from app.session import GameSession

    window = desk
    model = window.model
    window.show()
    qtbot.waitExposed(window)
    window.docks["turn"].raise_()  # Initiative is tabbed behind Turn
    window.docks["game_log"].raise_()  # Combat behind the game log, if they share a tab
    assert not window.docks["initiative"].visibleRegion().boundingRect().isValid()
    later = tmp_path / "later.airboss"
    demo = tmp_path / "demo.toml"
    create_demo_game(later, demo=demo).close()
    window.show_session(GameSession.open(later))
    initiative = window.panels["initiative"]
    assert initiative.when_shown.stale
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    assert set(model.engagement.initiative_order) == {"Blue", "Red"}
    window.panels["roster"].select(["red-1"])
    window.docks["combat"].show()
    window.docks["combat"].raise_()
    assert window.panels["combat"].attacker.currentData() == "red-1"


def test_the_turn_panel_tabbed_away_waits_and_next_step_still_works(later_desk, qtbot):
    """Issue 20: with Initiative in front of its tab group, the Turn panel does no work; Space
    (Game > Next step) still moves the game on, and the panel is right when it comes back."""
    from PySide6.QtCore import Qt

    window = later_desk
    window.build_panels()
    turn, model = window.panels["turn"], window.model
    before = turn.heading.text()
    window.docks["initiative"].raise_()
    qtbot.waitUntil(lambda: not turn.when_shown.on_screen)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert model.engagement.step == 1
    assert turn.when_shown.stale and turn.heading.text() == before
    assert turn.next_action.isEnabled()
    window.docks["turn"].raise_()
    qtbot.waitUntil(lambda: not turn.when_shown.stale)
    assert turn.heading.text() != before
    assert turn.heading.text().startswith("Turn 1 — ")


def test_a_panel_that_failed_is_tried_again_when_another_game_is_opened(
    later_desk, monkeypatch, game, qtbot
):
    from app.session import GameSession
    from app.ui.docks import ledgers

    real = ledgers.LedgersDock
    monkeypatch.setattr(ledgers, "LedgersDock", lambda *a, **k: 1 / 0)
    window = later_desk
    window.build_panels()
    window.docks["ledgers"].raise_()
    qtbot.waitUntil(lambda: "ledgers" in window.missing_panels)
    monkeypatch.setattr(ledgers, "LedgersDock", real)
    window.show_session(GameSession.open(game))
    assert "ledgers" in window.panels and "ledgers" not in window.missing_panels


def test_the_roster_closed_does_no_work_and_is_right_when_shown_again(later_desk, qtbot):
    """Issue 20: with the Roster closed (View > Roster), an aircraft added and one renamed
    change nothing in it; shown again, it shows both, and the selection the desk asks of it
    is of the game as it is."""
    window = later_desk
    window.build_panels()
    roster, session = window.panels["roster"], window.model.session
    window.docks["roster"].toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not roster.when_shown.on_screen)
    added = session.add_aircraft("Blue", "jet", "Blue 2")
    session.roster.change_aircraft("red-1", name="Red Leader")
    assert roster.when_shown.stale
    blue = roster.tree.topLevelItem(0)
    assert blue.childCount() == 1 and blue.child(0).text(0) == "Blue 1"
    assert roster.tree.topLevelItem(1).child(0).text(0) == "Red 1"
    window.docks["roster"].toggleViewAction().trigger()
    qtbot.waitUntil(lambda: roster.when_shown.on_screen)
    assert not roster.when_shown.stale
    blue, red = roster.tree.topLevelItem(0), roster.tree.topLevelItem(1)
    assert [blue.child(i).text(0) for i in range(blue.childCount())] == ["Blue 1", "Blue 2"]
    assert red.child(0).text(0) == "Red Leader"
    window.docks["roster"].toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not roster.when_shown.on_screen)
    session.roster.remove_aircraft(added)
    assert roster.selected_ids() == []  # asked from outside: brought up to date first
    assert roster.tree.topLevelItem(0).childCount() == 1
