"""Render docs/images/board-<ruleset>.png: the Board panel on a two-aircraft fight, the
attacker behind and beside the target, as the README's user guide shows it (issue 18).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_boards.py [out-dir]``
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from app.plugins import load_ruleset
from app.session import GameSession
from app.ui.docks.angle_off import AngleOffDock
from app.ui.model import EngagementModel
from app.ui.shell.qt_app import application

#: ruleset -> (attacker x, y, facing, altitude), (target x, y, facing, altitude)
FIGHTS = {
    "phantoms": ((0, 0, 90, 4), (2, 3, 90, 3)),
    "advanced_air_force": ((0, 0, 90, 6000), (2, 3, 150, 6300)),
}


def main(out: Path) -> None:
    app = application()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for rid, (att, tgt) in FIGHTS.items():
            types = list(load_ruleset(rid).aircraft)
            s = GameSession.create(Path(tmp) / f"{rid}.airboss", rid, f"{rid} board")
            try:
                a = s.add_aircraft("Blue", types[0], "Blue 1")
                t = s.add_aircraft("Red", types[-1], "Red 1")
                s.roster.place(a, *att)
                s.roster.place(t, *tgt)
                dock = AngleOffDock(EngagementModel(s))
                dock.resize(560, 820)
                dock.show()
                dock.show_pair(a, t)
                app.processEvents()
                dock.grab().save(str(out / f"board-{rid}.png"))
                dock.close()
            finally:
                s.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
