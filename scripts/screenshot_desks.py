"""Render docs/images/desk-<ruleset>.png: each ruleset's default desk at 1366x768 on an
eight-aircraft game from its own catalogue (the README's user guide, issue 14).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_desks.py [out-dir]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from app.plugins import load_ruleset
from app.session import GameSession
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from app.ui.shell.qt_app import application

RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")


def eight_aircraft_game(path: Path, ruleset_id: str) -> Path:
    """Four a side, types in catalogue order (Nth Fleet counters on a base each side)."""
    types = list(load_ruleset(ruleset_id).aircraft)
    with GameSession.create(path, ruleset_id, f"{ruleset_id} desk") as s:
        for i in range(8):
            side = "Blue" if i < 4 else "Red"
            extra = {"base": f"{side} carrier"} if ruleset_id == "nth_fleet" else {}
            s.add_aircraft(side, types[i % len(types)], f"{side} {i % 4 + 1}", **extra)
    return path


def main(out: Path) -> None:
    app = application()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for rid in RULESETS:
            settings = QSettings(str(Path(tmp) / f"{rid}.ini"), QSettings.Format.IniFormat)
            model = EngagementModel()
            window = MainWindow(model, settings)
            window.persist_layout = False
            window.open_game(eight_aircraft_game(Path(tmp) / f"{rid}.airboss", rid))
            window.resize(1366, 768)
            window.show()
            window.reset_layout()
            app.processEvents()
            window.grab().save(str(out / f"desk-{rid}.png"))
            model.set_session(None)
            window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
