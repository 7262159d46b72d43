"""Render docs/images/after-action*.png: the After-action panel on the demo engagement
(Phantoms) after its gun attacks until the guns ran dry, then a hundred what-if attacks, every
die typed at the table: the umpire named each side's dice at the start, and VPAF's red d10 is
a little fond of 10; the what-ifs are rolled with it too (issue 35).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshot_after_action.py [out-dir]``
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.startup.demo import create_demo_game
from app.ui.docks.after_action import AfterActionDock
from app.ui.model import EngagementModel
from app.ui.shell.qt_app import application
from rulesets.phantoms.clock import step_of


def played_demo(path: Path):
    """The demo engagement, six turns of gun attacks in impulse f (each die typed)."""
    s = create_demo_game(path)
    rng = random.Random(35)
    s.roster.set_dice("USAF", "the white d10")
    s.roster.set_dice("VPAF", "the red d10")

    def d10(side: str = "VPAF") -> int:  # VPAF's red die shows 10 a fifth of the time
        if side != "VPAF":
            return rng.randint(0, 9)
        return 0 if rng.random() < 0.2 else rng.randint(1, 9)

    sides = s.engagement.sides
    for turn in range(1, 7):
        for impulse in range(1, 6):
            while (s.engagement.turn, s.engagement.step) != (turn, step_of(impulse, "f")):
                s.clock.next_step()
            planes = [a for a in s.engagement.aircraft.values() if a.in_play]
            for a in planes:
                enemies = [t for t in planes if t.side != a.side and t.in_play]
                if not enemies or not s.engagement.aircraft[a.id].in_play:
                    continue
                t = rng.choice(enemies)
                proc = s.ruleset.procedures["gun_attack"]
                inputs = proc.prefill(s.engagement, a.id, t.id)
                inputs.update(attacker=a.id, target=t.id, position_modifier=rng.randint(0, 3))
                try:
                    res = s.perform("gun_attack", inputs, TableDice([d10(a.side), d10(a.side)]))
                    for follow, who in res.follow_ups:
                        if follow == "critical_hit":
                            side = s.engagement.aircraft[who].side
                            s.perform("critical_hit", {"aircraft": who}, TableDice([d10(side)]))
                except RuleViolation:
                    continue
    assert sides
    # then the table argues over what-ifs (no aircraft named: only logged), the same die typed
    a, t = list(s.engagement.aircraft)[:: len(s.engagement.aircraft) - 1]
    what_if = s.ruleset.procedures["gun_attack"].prefill(s.engagement, a, t)
    what_if["position_modifier"] = 1
    s.roster.set_dice("", "the red d10")  # ... rolled with VPAF's die
    for _ in range(100):
        s.perform("gun_attack", what_if, TableDice([d10(), d10()]))
    return s


def main(out: Path) -> None:
    app = application()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        s = played_demo(Path(tmp) / "demo.airboss")
        model = EngagementModel(s)
        panel = AfterActionDock(model)
        panel.resize(1000, 620)
        panel.show()
        app.processEvents()
        view = panel.build()
        assert view is not None, "pyqtgraph and numpy are needed"
        view.per.setCurrentIndex(view.per.findData("aircraft"))
        app.processEvents()
        panel.grab().save(str(out / "after-action.png"))
        view.tabs.setCurrentIndex(1)
        app.processEvents()
        panel.grab().save(str(out / "after-action-luck.png"))
        view.tabs.setCurrentIndex(2)
        view.die.setCurrentIndex(view.die.findData("d10, the red d10"))
        app.processEvents()
        panel.grab().save(str(out / "after-action-dice.png"))
        model.set_session(None)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/images"))
