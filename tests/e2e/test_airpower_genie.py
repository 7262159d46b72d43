"""An F-89J (sample card) fires a Genie at a bomber stream through GameSession (Air Power,
rule "Air-to-Air Nuclear Rockets"). Dice typed as at the table.

The umpire fills in the Genie's launch number (not printed; test value 8) and scatter
direction for a roll of 4 (test value: straight ahead). Launch roll 3: launched, one Genie
spent. Scatter rolls 4 and 5: 5 / 2 = 2 hexes straight ahead. Detonation roll 7: the bomber in
the same position is vaporised; the one four hexes away is hit with 12 - 2 x 4 = 4. A second
launch with no Genie left is refused and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.data import save_override
from app.core.dice import TableDice
from app.core.errors import RuleViolation
from app.session import GameSession


def test_genie(tmp_path: Path) -> None:
    save_override("airpower", "genie", {"launch_number": 8, "direction": {"4": 0}})
    s = GameSession.create(tmp_path / "genie.airboss", ruleset="airpower", title="Genie")
    try:
        f89 = s.add_aircraft(side="Blue", type_id="f-89j", name="Scorpion")
        b1 = s.add_aircraft(side="Red", type_id="mig-17f", name="Bomber 1")
        b2 = s.add_aircraft(side="Red", type_id="mig-17f", name="Bomber 2")
        assert s.engagement.aircraft[f89].ledgers["genies"].value == 2

        s.clock.next_step()  # air-to-air missile launch phase
        r = s.perform("genie_launch", {"attacker": f89, "target": b1}, TableDice([3]))
        assert r.outcome == "launched"
        assert s.engagement.aircraft[f89].ledgers["genies"].value == 1

        s.clock.next_step()  # after all aircraft have moved
        r = s.perform("genie_scatter", {"x": 0, "y": 0, "facing": 90}, TableDice([4, 5]))
        assert r.outcome == "2 hex(es), direction roll 4"
        assert "lands at (0, 2)" in r.narrative

        r = s.perform(
            "genie_detonation",
            {"in_zone": [b1, b2], "hexes": [0, 4], "altitude_difference": [0, 1]},
            TableDice([7]),
        )
        assert r.outcome == "detonation"
        assert "destroyed" in s.engagement.aircraft[b1].status
        hit = s.engagement.aircraft[b2].attributes["hits_to_resolve"]
        assert hit[0]["attack_rating"] == 4

        s.perform("genie_launch", {"attacker": f89, "target": b2}, TableDice([1]))
        before = len(s.events())
        with pytest.raises(RuleViolation, match="only 0 left"):
            s.perform("genie_launch", {"attacker": f89, "target": b2}, TableDice([1]))
        assert len(s.events()) == before
    finally:
        s.close()
