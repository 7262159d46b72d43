"""Render docs/images/combat.png: the desk at 1366x768 on the Phantoms demo right after a
typed-dice gun attack opened from its "who acts now" line (the README's picture).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_combat.py [out.png]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from app.core.dice import TableDice
from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from app.ui.shell.qt_app import application
from rulesets.phantoms.clock import step_of


def main(out: Path) -> None:
    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        model = EngagementModel()
        window = MainWindow(model, settings)
        session = create_demo_game(Path(tmp) / "demo.airboss")
        window.show_session(session)
        window.resize(1366, 768)
        window.show()
        app.processEvents()
        init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
        session.perform("initiative", init, TableDice([4, 9]))
        while (session.engagement.turn, session.engagement.step) != (1, step_of(1, "f")):
            session.clock.next_step()
        combat = window.panels["combat"]
        combat.players_roll.setChecked(True)
        ids = {a.name: a.id for a in session.engagement.aircraft.values()}
        window.open_procedure("gun_attack", ids["Olds 1"], ids["Red 1"])
        combat.form.editor("position_modifier").setText("2")
        for field, value in zip(combat.dice_fields, ("6", "5"), strict=True):
            field.edit.setText(value)
        combat.resolve()
        window.open_procedure("gun_attack", ids["Olds 2"], ids["Red 1"])
        combat.form.editor("position_modifier").setText("2")
        assert combat.odds  # the odds of the next shot, worked out now
        app.processEvents()
        window.grab().save(str(out))
        model.set_session(None)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images/combat.png"))
