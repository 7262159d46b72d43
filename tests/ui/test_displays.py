"""The displays panel shows a ruleset's own boards (Nth Fleet 2.1 Air Base Displays)."""

from __future__ import annotations

from app.core.dice import TableDice
from app.session import GameSession
from app.ui.docks.displays import DisplaysDock
from app.ui.model import EngagementModel


def test_nth_fleet_base_displays_follow_the_game(qtbot, tmp_path):
    s = GameSession.create(tmp_path / "n.airboss", ruleset="nth_fleet", title="Displays")
    strike = s.add_aircraft(side="Blue", type_id="a6e", name="VA-35", base="Nimitz", count=4)
    dock = DisplaysDock(EngagementModel(s))
    qtbot.addWidget(dock)
    dock.show()
    assert "Air Base Display: Nimitz (2.1)" in dock.text()
    assert "VA-35\n4\n0\n0\n0" in dock.text()
    s.perform(
        "launch_mission", {"aircraft": strike, "points": 3, "mission": "strike"}, TableDice([])
    )
    assert "VA-35\n1\n3\n0\n0" in dock.text()
    s.undo()
    assert "VA-35\n4\n0\n0\n0" in dock.text()
    s.close()


def test_a_ruleset_without_displays_says_so(qtbot, session):
    dock = DisplaysDock(EngagementModel(session))
    qtbot.addWidget(dock)
    assert "keeps no displays of its own" in dock.text()
