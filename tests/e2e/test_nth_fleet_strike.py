"""A strike with escorts against CAP through GameSession (Nth Fleet 2.1-2.15).

Every die is typed as at a real table (TableDice). The umpire first fills in the air-to-air
attack table and the Defence Value Table (the rules text prints only two cells: 40 and 50
columns, roll 5: 10 and 11); the values below are the umpire's, chosen for this test.

Nimitz (Blue): VA-35 A-6E 4 points, VF-1 F-14A 8 points (2 units), VAW-117 E-2C 2 points.
Olenya (Red):  Fulcrums MiG-29 8 points (2 units), Fencers Su-24 4 points.

Activation phase. Strike "Alpha": 4 A-6E (strike) with 4 F-14A (escort); 4 more F-14A go on
CAP over the Nimitz; 4 MiG-29 are on CAP over Olenya.
Blue attacks with 4 x 2 (A-6E: half its defence 4, 2.7) + 4 x 11 (F-14A printed) = 52: the 50
column (2 left over, below the umpire's lowest column, 10); attacking CAP -2 (2.11); 2d5 3+3=6
-> row 4: 9 damage. Red attacks with 4 x 9 = 36: the 30 column; on CAP +2: 2d5 2+2=4 -> row 6:
9 damage. Simultaneously (2.12): Blue's 9 shoots down 2 MiG-29 (defence 4), 1 left over; Red's 9
shoots down 1 F-14A first (INT, defence 5), the 4 left over 1 A-6E (defence 4). Blue lost 2
points, so 2 A-6E points abort to the used track (2.13).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.data import save_override
from app.core.dice import TableDice
from app.core.errors import MissingTableValue, RuleViolation
from app.session import GameSession
from rulesets.nth_fleet.displays import base_display

STRIKE = {
    "first": ["va-35", "vf-1"],
    "second": ["fulcrums"],
    "cap": "second",
    "phase": "activation",
    "first_picks": ["fulcrums"],
    "second_picks": ["vf-1", "va-35"],
}
DICE = [3, 3, 2, 2]


def fill_tables() -> None:
    """The umpire's values for the cells the rules text does not print."""
    columns = {
        "10": {str(r): r // 2 for r in range(11)},
        "20": {str(r): r for r in range(11)},
        "30": {str(r): 3 * r // 2 for r in range(11)},
        "40": {str(r): 2 * r for r in range(11)},
        "50": {str(r): 2 * r + 1 for r in range(11)},
    }
    save_override(
        "nth_fleet", "air_to_air_attack", {"lower_columns": [10, 20, 30], "cells": columns}
    )
    defence = {"a6e": 4, "f14a": 5, "e2c": 2, "mig29": 4, "su24": 3}
    save_override("nth_fleet", "defence_values", {"values": defence})


def display(s: GameSession) -> dict[str, dict[str, dict[str, int]]]:
    return base_display(s.engagement)


@pytest.fixture
def session(tmp_path: Path):  # noqa: ANN201 - a GameSession, closed after the test
    s = GameSession.create(tmp_path / "norwegian-sea.airboss", ruleset="nth_fleet", title="NS")
    yield s
    s.close()


def test_strike_with_escorts_against_cap(session: GameSession, tmp_path: Path) -> None:
    s = session
    assert s.add_aircraft(side="Blue", type_id="a6e", name="VA-35", base="Nimitz") == "va-35"
    s.add_aircraft(side="Blue", type_id="f14a", name="VF-1", base="Nimitz", unit_sides=2, units=2)
    s.add_aircraft(side="Blue", type_id="e2c", name="VAW-117", base="Nimitz")
    s.add_aircraft(
        side="Red", type_id="mig29", name="Fulcrums", base="Olenya", units=2, unit_sides=2
    )
    s.add_aircraft(side="Red", type_id="su24", name="Fencers", base="Olenya", air_points=4)
    a = s.engagement.aircraft
    assert [a[x].count for x in ("va-35", "vf-1", "vaw-117", "fulcrums", "fencers")] == [
        4,
        8,
        2,
        8,
        4,
    ]  # 2.1: two-sided units 4 points each, the single-sided E-2C 2
    assert display(s)["Nimitz"]["unused"] == {"VA-35": 4, "VF-1": 8, "VAW-117": 2}

    s.perform(
        "launch_mission", {"aircraft": "va-35", "points": 4, "mission": "strike", "name": "Alpha"}
    )
    s.perform(
        "launch_mission", {"aircraft": "vf-1", "points": 4, "mission": "escort", "name": "Alpha"}
    )
    s.perform("launch_mission", {"aircraft": "vf-1", "points": 4, "mission": "cap"})
    s.perform("launch_mission", {"aircraft": "fulcrums", "points": 4, "mission": "cap"})

    # the tables are not filled in yet: the combat stops and asks, and nothing is appended
    before = len(s.events())
    with pytest.raises(MissingTableValue) as missing:
        s.perform("air_combat", STRIKE, TableDice(DICE))
    assert missing.value.rule.startswith("Nth Fleet")
    assert len(s.events()) == before

    fill_tables()
    res = s.perform("air_combat", STRIKE, TableDice(DICE))
    assert res.outcome == "first force 9, second force 9 damage points"
    assert [r.total for r in res.rolls] == [6, 4]

    expected = {
        "Nimitz": {
            "unused": {"VAW-117": 2},
            "aloft": {"VA-35": 1, "VF-1": 3},
            "cap": {"VF-1": 4},
            "used": {"VA-35": 2},
        },
        "Olenya": {
            "unused": {"Fulcrums": 4, "Fencers": 4},
            "aloft": {},
            "cap": {"Fulcrums": 2},
            "used": {},
        },
    }
    assert display(s) == expected
    points = {
        x: s.engagement.aircraft[x].ledger("air_points") for x in ("va-35", "vf-1", "fulcrums")
    }
    assert points == {"va-35": 3, "vf-1": 7, "fulcrums": 6}

    # undo puts every track back as it was before the combat; redo applies it again
    s.undo()
    assert display(s)["Nimitz"]["aloft"] == {"VA-35": 4, "VF-1": 4}
    assert display(s)["Olenya"]["cap"] == {"Fulcrums": 4}
    assert s.engagement.aircraft["fulcrums"].ledger("air_points") == 8
    s.redo()
    assert display(s) == expected

    # a move of more points than a track holds is refused, and nothing is appended
    before = len(s.events())
    with pytest.raises(RuleViolation):
        s.perform("return_to_base", {"aircraft": "va-35", "points": 2})
    assert len(s.events()) == before

    # return-to-base: the strike's survivors and the escorts land on the used track (2.1)
    s.perform("return_to_base", {"aircraft": "va-35"})
    s.perform("return_to_base", {"aircraft": "vf-1"})
    nimitz = display(s)["Nimitz"]
    assert nimitz["aloft"] == {}
    assert nimitz["used"] == {"VA-35": 3, "VF-1": 3}
    assert nimitz["cap"] == {"VF-1": 4}
    assert nimitz["unused"] == {"VAW-117": 2}

    # the log replays to the same displays
    final = display(s)
    s.close()
    with GameSession.open(tmp_path / "norwegian-sea.airboss") as again:
        assert display(again) == final
        combat = [
            e.event for e in again.events() if getattr(e.event, "procedure", "") == "air_combat"
        ]
        assert [c.outcome for c in combat] == ["first force 9, second force 9 damage points"]
