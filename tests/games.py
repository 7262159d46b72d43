"""Games the tests set up, without Qt: one turn's cast of each ruleset (``build``) and issue
43's Nth Fleet strike (``nth_fleet_strike``). Imported by the desk's tests and the session's."""

from __future__ import annotations

from pathlib import Path

from app.core.dice import TableDice
from app.session import GameSession


def build(path: Path, ruleset_id: str) -> Path:
    """Two aircraft a side (UFO: two Tornados and a Small UFO, initiative rolled)."""
    with GameSession.create(path, ruleset_id, "One turn") as s:
        if ruleset_id == "ufo_interception":
            s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
            s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
            s.add_aircraft("Visitors", "small_ufo", "Saucer")
            # Blue 1 3+2 = 5, Blue 2 6+1 = 7
            planes = {"planes": ["blue-1", "blue-2"], "reactions": [2, 1]}
            s.perform("initiative", planes, TableDice([3, 6]))
        else:
            types = list(s.ruleset.aircraft)
            for side, t in (("Blue", types[0]), ("Red", types[1 % len(types)])):
                extra = {"base": f"{side} base"} if ruleset_id == "nth_fleet" else {}
                s.add_aircraft(side, t, f"{side} 1", **extra)
    return path


def nth_fleet_strike(path: Path, *, launched: bool = True) -> GameSession:
    """Nth Fleet (issue 43): Blue's VF-1 (F-14A, 8 points), VA-35 (A-6E, 8 points) and VAQ-136
    (EA-6B, 2 points); Red's 1 GIAP (MiG-29, 8 points) on CAP and 4 ODRAP (Tu-95RT, 4 points).
    ``launched``: 4 ODRAP flies strategic recon (4 points: effective without a roll, 2.3) and,
    in the activation phase, VF-1 escorts VA-35's strike."""
    s = GameSession.create(path, "nth_fleet", "Strike")
    s.add_aircraft("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    s.add_aircraft("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2, units=2)
    s.add_aircraft("Blue", "ea6b", "VAQ-136", base="Nimitz", unit_sides=1)
    s.add_aircraft("Red", "mig29", "1 GIAP", base="Olenya", unit_sides=2, units=2, track="cap")
    s.add_aircraft("Red", "tu95rt", "4 ODRAP", base="Olenya", unit_sides=1, units=2)
    if launched:
        s.perform("launch_mission", {"aircraft": "4-odrap", "points": 4, "mission": "rcn"})
        s.clock.next_step()
        s.perform("launch_mission", {"aircraft": "vf-1", "points": 8, "mission": "escort"})
        s.perform("launch_mission", {"aircraft": "va-35", "points": 8, "mission": "strike"})
    return s
