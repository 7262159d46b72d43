"""Issue 43: Nth Fleet's "who acts now" lines resolve as the desk offers them.

The air combat opens on forces that can fight (a counter out on a recon mission is not in a
CAP's force, Nth Fleet 2.9-2.12); the force lists name every counter the totals count (the
leads too, 2.9); a launch opens on the mission the counter flies (2.2, 2.3, 2.6, 2.7), so
Enter on its line and Enter on Resolve launch it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.acting import ActingLine
from app.core.dice import SeededDice, TableDice
from app.session import GameSession
from tests.games import nth_fleet_strike


@pytest.fixture
def strike(tmp_path: Path, filled: None) -> Iterator[GameSession]:
    """Issue 43's strike (``tests.games.nth_fleet_strike``), in the activation phase: VF-1
    escorts VA-35's strike, 1 GIAP is on CAP, 4 ODRAP flies strategic recon."""
    s = nth_fleet_strike(tmp_path / "n.airboss")
    yield s
    s.close()


def combat_line(s: GameSession) -> ActingLine:
    return next(line for line in s.who_acts.acting() if line.procedure == "air_combat")


def test_2_11_the_air_combat_line_opens_on_forces_that_can_fight(strike: GameSession) -> None:
    """Nth Fleet 2.9-2.12 (issue 43): the strike and its escort against the enemy's CAP; the
    recon mission aloft is not in the CAP's force (it has no points on CAP: the line was
    refused as offered, "4 ODRAP has no air points on CAP to fight with")."""
    s = strike
    line = combat_line(s)
    who, other = line.who, line.other
    assert (who, other) == ("vf-1", "1-giap")
    assert s.refusals.line_refusal("air_combat", who, other) == ""
    p = s.actions.prepare_line("air_combat", who, other)
    assert (p.cannot, p.refused, p.error) == ("", "", "")
    assert p.value("cap").value == "second"
    assert p.value("second").value == ["1-giap"]
    # 2.9: 8 F-14A points x 11 + 8 A-6E points x (4 // 2) = 104; 8 MiG-29 points x 9 = 72
    assert (p.value("first_attack").value, p.value("second_attack").value) == (104, 72)
    res = s.actions.resolve(p, TableDice([2, 3, 2, 3, 2, 3, 1, 1]))
    assert res.outcome != "" and "4 ODRAP" not in res.narrative


def test_2_9_the_force_lists_name_every_counter_counted(strike: GameSession) -> None:
    """Nth Fleet 2.9 (issue 43): the first force's total 104 is VF-1's 88 and VA-35's 16, and
    its list names both (VF-1 was counted but not listed); the second force lists 1 GIAP. A
    lead unticked from its list is refused, never counted unseen."""
    s = strike
    line = combat_line(s)
    who, other = line.who, line.other
    p = s.actions.prepare_line("air_combat", who, other)
    assert p.value("first").value == ["vf-1", "va-35"]
    assert [c for c, _label in p.choices["first"]] == ["vf-1", "va-35"]
    assert [c for c, _label in p.choices["second"]] == ["1-giap", "4-odrap"]
    alone = s.actions.prepare("air_combat", p.roles, {"first": ["va-35"]})
    assert alone.refused.startswith(
        "VF-1 leads the first force (the Attacker) but is not ticked in it: tick it, or pick "
        "another Attacker"
    )


def test_2_9_a_force_unticked_follows_its_list(strike: GameSession) -> None:
    """Nth Fleet 2.9: the total follows the counters ticked (VA-35 unticked: VF-1's 88)."""
    s = strike
    line = combat_line(s)
    who, other = line.who, line.other
    p = s.actions.prepare_line("air_combat", who, other)
    fewer = s.actions.prepare("air_combat", p.roles, {"first": ["vf-1"]})
    assert fewer.value("first_attack").value == 88 and fewer.refused == ""


def test_2_11_forces_only_on_cap_do_not_meet(tmp_path: Path, filled: None) -> None:
    """Nth Fleet 2.11: two CAPs, each over its own base, have nothing to fight: no combat
    line (it was offered and then refused: "... has no air points aloft to fight with")."""
    with GameSession.create(tmp_path / "c.airboss", "nth_fleet", "CAPs") as s:
        s.add_aircraft("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, track="cap")
        s.add_aircraft("Red", "mig29", "1 GIAP", base="Olenya", unit_sides=2, track="cap")
        s.clock.next_step()
        assert [line for line in s.who_acts.acting() if line.procedure == "air_combat"] == []


@pytest.mark.parametrize(
    ("type_id", "step", "mission"),
    [
        ("tu95rt", 0, "rcn"),  # 2.3: a recon counter flies recon
        ("e2c", 1, "aew"),  # 2.2: AEW and EW support a strike
        ("ea6b", 1, "ew"),
        ("a6e", 0, "strike"),  # 2.3: a strategic strike
        ("a6e", 1, "tactical strike"),  # 2.2: tactical air strikes at activation
        ("f14a", 0, "intercept"),  # 2.6: a fighter in INT mode
        ("f14a", 1, "cap"),  # no strike of its side aloft to escort
    ],
)
def test_2_2_a_launch_opens_on_the_mission_the_counter_flies(
    tmp_path: Path, type_id: str, step: int, mission: str
) -> None:
    """Nth Fleet 2.2, 2.3, 2.6, 2.7 (issue 43): the launch line opens on the counter's
    mission (never a strike for a recon aircraft), left for the umpire to change (not
    locked); Enter resolves it as shown."""
    with GameSession.create(tmp_path / "l.airboss", "nth_fleet", "Launch") as s:
        aid = s.add_aircraft("Blue", type_id, "Unit", base="Nimitz", unit_sides=1)
        while s.engagement.step != step:
            s.clock.next_step()
        line = next(line for line in s.who_acts.acting() if line.who == aid)
        p = s.actions.prepare_line(line.procedure, aid)
        shown = p.value("mission")
        assert (shown.value, shown.locked) == (mission, False)
        s.actions.resolve(p, SeededDice(1))
        attributes = s.engagement.aircraft[aid].attributes
        if mission == "cap":  # CAP stays over the base, on its own track (2.1)
            assert attributes["tracks"]["cap"] == 2 and attributes["mission"] is None
        else:
            assert attributes["tracks"]["aloft"] == 2 and attributes["mission"] == mission


def test_2_2_a_fighter_escorts_its_sides_strike(strike: GameSession) -> None:
    """Nth Fleet 2.2: with its side's strike aloft, a fighter's launch opens on escort."""
    s = strike
    s.add_aircraft("Blue", "f14a", "VF-2", base="Nimitz", unit_sides=2)
    p = s.actions.prepare_line("launch_mission", "vf-2")
    assert p.value("mission").value == "escort"
