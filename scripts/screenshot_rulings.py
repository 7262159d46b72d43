"""Render the README's pictures of issue 34: docs/images/ruling.png (the Ruling window of a
typed-dice radar lock-on, opened from its Game log line) and docs/images/chain-odds.png (the
Combat panel's odds of a Phantoms gun attack with the odds to the end of its chain).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_rulings.py [folder]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.combat import CombatDock
from app.ui.docks.game_log import GameLogDock
from app.ui.model import EngagementModel
from app.ui.shell.qt_app import application


def main(folder: Path) -> None:
    app = application()
    with tempfile.TemporaryDirectory() as tmp:
        s = GameSession.create(Path(tmp) / "rulings.airboss", "phantoms", "Rulings")
        olds = s.add_aircraft("USAF", "f4e", "Olds 1")
        red = s.add_aircraft("VPAF", "mig21", "Red 1")
        s.perform(
            "radar_lock", {"attacker": olds, "target": red, "range_hexes": 4}, TableDice([9, 2])
        )
        model = EngagementModel(s)

        log = GameLogDock(model)
        log.show()
        app.processEvents()
        row = next(r for r, line in enumerate(log.lines()) if "Radar lock-on" in line)
        window = log.open_ruling(row)
        assert window is not None
        window.resize(640, 760)
        app.processEvents()
        window.grab().save(str(folder / "ruling.png"))
        window.close()
        log.close()

        combat = CombatDock(model)
        combat.resize(520, 1000)
        combat.show()
        combat.open_for("gun_attack", olds, red)
        assert combat.form is not None
        combat.form.editor("position_modifier").setText("0")
        app.processEvents()
        _ = combat.odds
        combat.chain.wait()
        for _ in range(5):  # the result's signal, then the layout it changes
            app.processEvents()
        assert combat.chain.result is not None, combat.chain.text()
        combat.grab().save(str(folder / "chain-odds.png"))
        combat.close()
        model.set_session(None)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
