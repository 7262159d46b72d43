"""Start-up of the desk (issue 20): what paints first, what waits, what is never imported."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from app.cli import main
from app.ui.demo import create_demo_game
from app.ui.main_window import MainWindow
from app.ui.model import EngagementModel

DEMO = """
ruleset = "skirmish"
title = "Start-up"
[[aircraft]]
side = "Blue"
type = "jet"
name = "Blue 1"
[[aircraft]]
side = "Red"
type = "prop"
name = "Red 1"
"""

SITE = Path(__file__).parents[1] / "fixtures" / "site"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    demo = tmp_path / "demo.toml"
    demo.write_text(DEMO, encoding="utf-8")
    path = tmp_path / "start.airboss"
    create_demo_game(path, demo=demo).close()
    return path


@pytest.fixture
def desk(tmp_path: Path, qtbot) -> Iterator[MainWindow]:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
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
    assert main([str(tmp_path / "missing.airboss")]) == 2
    assert gc.isenabled()


def test_the_roster_and_the_turn_paint_first_and_the_other_panels_fill_after(game, desk, qtbot):
    """While the desk starts, the Combat panel in view waits for the first paint; then fills."""
    from app.session import GameSession

    window = desk
    window.hold_panels()
    window.show_session(GameSession.open(game))
    window.show()
    qtbot.waitExposed(window)
    roster, turn, combat = (window.panels[n] for n in ("roster", "turn", "combat"))
    assert window.docks["combat"].isVisible()
    assert set(roster._items) == {"blue-1", "red-1"}
    assert turn.heading.text()
    assert combat.procedure.count() == 0  # waits, and says so
    assert combat.rule.text() == "Opening the game…"
    window.hold_panels(False)
    assert combat.procedure.count() > 0
    assert combat.attacker.findData("blue-1") >= 0


def test_the_first_paint_imports_no_server_store_migrations_or_odds_engine(game):
    """SQLAlchemy, SQLModel, Alembic, psycopg and icepool load when first needed, not to
    show a game file (issue 20)."""
    code = (
        f"import sys\nsys.path.insert(0, {str(SITE)!r})\n"
        "from app.ui.application import start_game\n"
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
