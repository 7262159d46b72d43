"""Issue 45: for every procedure of every ruleset, the ruling lists every modifier that entered
the number, with its rule and its sign, so the logged reckoning is rebuilt from the ruling's
modifiers alone.

Each procedure is resolved as a what-if in a game (no aircraft; Phantoms' afterburner,
maneuver marker and missile launch on an F-4E), with dice typed at the table (``TableDice``),
three times with different faces. From the ruling alone -- its dice and its listed terms
(``Ruling.terms``) -- the reckoning is rebuilt and must be the one the log line says:

- a term added to a die: the die's face plus the sum of its terms is the total the log line
  shows ("7+3 = 10", ``reckoning.worked``);
- a number no die is added to (the Advanced Air Force gun factors, the UFO ray gun's number of
  dice, the number a roll must not exceed, a calculator's result: an airspeed, a V. Dive rate):
  its first term and the rest ("5-2 = 3", ``reckoning.summed``), or the one number.

And it must fail when any listed modifier is missing: with any one term of non-zero value left
out, the rebuilt reckoning is not the logged one (in at least one of the three rolls). A lone
number (the number a roll must not exceed, one term naming it) is only checked to be the one
the log line shows.

``NO_MODIFIERS`` are the procedures whose number no modifier enters (a die read on a table as
it falls, a count of faces, a choice with no number): their rulings must list none, and their
log lines show each die's face as rolled.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.core.data import save_override
from app.core.dice import TableDice
from app.core.reckoning import Term, by_die, summed, total
from app.core.ruling import Ruling
from app.plugins import load_ruleset
from app.session import GameSession

RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")

#: a case played on an aircraft in the game (an F-4E), not as a what-if
OLDS = "@olds"
#: its target (a MiG-21)
RED = "@red"

#: (ruleset, procedure) -> what-if inputs under which modifiers enter its number
CASES: dict[tuple[str, str], dict[str, Any]] = {
    ("phantoms", "gun_attack"): {
        "attacker_gun_value": 3, "position_modifier": 2, "attacker_pilot": "ace",
        "target_defense": 2, "target_pilot": "experienced", "hits_by_difference": [1, 2],
        "attacker_modifiers": -3,
    },
    ("phantoms", "missile_attack"): {
        "guidance": "heat", "hit_number": 6, "position_modifier": -1,
        "target_countermeasures": 2, "target_pilot": "ace", "target_altitude": 0,
        "target_hard_turn_or_loop": True, "target_used_afterburner": True,
    },
    ("phantoms", "radar_lock"): {
        "attacker_radar": 3, "attacker_pilot": "green", "attacker_altitude": 4,
        "target_altitude": 0, "target_radar_countermeasures": 2, "range_hexes": 6,
    },
    ("phantoms", "break_lock"): {
        "attacker_radar": 2, "attacker_pilot": "ace", "attacker_altitude": 1,
        "target_altitude": 3, "target_radar_countermeasures": 3, "range_hexes": 2,
    },
    ("phantoms", "ejection"): {"wounded": True, "on_fire": True, "destroyed_by": "major damage"},
    ("phantoms", "fire_check"): {"speed": 8, "dove": True, "pilot": "green"},
    ("phantoms", "initiative"): {
        "first_ace": True, "first_loaded": True, "first_controller": True,
        "second_only_green_or_inexperienced": True,
    },
    ("phantoms", "loss_of_control"): {"cause": "speed", "pilot": "average", "below_zero": 2},
    ("phantoms", "recovery"): {"pilot": "inexperienced", "speed": 4, "altitude": 2},
    ("phantoms", "break_off"): {"turn": 7, "pilot": "ace"},
    ("phantoms", "radar_spot"): {
        "spotter_radar": 3, "spotter_pilot": "experienced", "spotter_altitude": 2,
        "target_altitude": 0, "target_radar_countermeasures": 2,
    },
    ("phantoms", "visual_spot"): {
        "spotter_pilot": "ace", "radar_spot_lock_or_controller": True, "all_round_canopy": True,
        "target_size": "small", "two_crew": True, "target_altitude": 0, "range_hexes": 4,
    },
    ("airpower", "gun_attack"): {
        "hit_numbers": [8, 7, 6], "attack_rating": 4, "horizontal_range": 1,
        "angle_off": "60 arc", "pilot": "green",
    },
    ("airpower", "rocket_attack"): {"pilot": "green", "horizontal_range": 1},
    ("airpower", "damage"): {"attack_rating": 4, "weapon": "rocket"},
    ("airpower", "radar_ranging"): {"radar_ranging": "IG", "lock_on_number": 6},
    ("airpower", "genie_launch"): {"launch_number": 7},
    ("airpower", "genie_detonation"): {
        "in_zone": ["Red 1", "Red 2"], "hexes": [4, 1], "altitude_difference": [0, 2],
    },
    ("advanced_air_force", "gun_fire"): {
        "total_gun_factors": 10, "range_hexes": 2, "gun_type": "FH", "silhouette_modifier": 2,
        "target_clock": 2,
    },
    ("advanced_air_force", "vertical_dive"): {
        "current_speed": 5, "movement_points_spent": 2, "max_dive_ft": 1000,
        "max_dive_speed": 20, "v_dive_requirement": 2, "remaining_w_hits": 8,
    },
    ("advanced_air_force", "vertical_dive_survival"): {
        "remaining_w_hits": 5, "under_half_max_dive_used": True,
    },
    ("nth_fleet", "mission_effectiveness"): {"kind": "support", "points": 3},
    ("nth_fleet", "air_attack"): {
        "attack_total": 90, "friendly_ew": True, "enemy_ew": True, "attacking_cap": True,
    },
    ("nth_fleet", "air_combat"): {
        "first_attack": 40, "second_attack": 30, "first_ew": True, "cap": "second",
    },
    ("ufo_interception", "initiative"): {"planes": ["Blue 1", "Blue 2"], "reactions": [2, 1]},
    ("ufo_interception", "cannon"): {"range_inches": 2},
    ("ufo_interception", "ray_gun"): {"charge": 6, "range_inches": 2},
    ("ufo_interception", "recharge"): {"charge": 3, "power": 9, "recharge_dice": 2},
    ("ufo_interception", "vital_system"): {"total_damage": 4},
    # calculators: a number worked out of terms, no dice
    ("phantoms", "afterburner"): {"aircraft": OLDS},
    ("phantoms", "missile_launch"): {
        "attacker": OLDS, "target": RED, "missile": "aim9j", "range_hexes": 2,
        "position_modifier": -1,
    },
    ("phantoms", "mark_maneuver"): {"aircraft": OLDS, "maneuver": "turn left", "dive": 1},
    ("airpower", "genie_flight"): {
        "launcher_fps": 6, "launcher_vfps": 2, "vertical": "dive", "altitude": 9,
    },
    ("advanced_air_force", "speed_change"): {
        "current_speed": 8, "max_level_speed": 10, "max_dive_speed": 14, "power_factors": 2,
        "brake_factors": 2, "power_used": 1, "brake_used": 2, "maneuver_and_climb_cost": 1,
        "slips": 1, "full_half_rolls": 1, "dive_gain": 3,
    },
    ("advanced_air_force", "stall_speed"): {"stall_speed": 5, "level_bank_without_maneuvers": True},
    ("advanced_air_force", "climb_rate"): {
        "available_climb_ft": 1500, "non_level_or_inverted_flying": True,
    },
    ("advanced_air_force", "gun_range"): {"horizontal_hexes": 2, "altitude_difference_ft": 600},
    ("advanced_air_force", "vertical_climb"): {
        "current_speed": 9, "stall_speed": 5, "dive_speed_climb_ft": 800,
        "voided_movement_points": 2,
    },
}  # fmt: skip

#: the readings a case is played under
VARIANTS: dict[tuple[str, str], tuple[str, ...]] = {
    ("advanced_air_force", "gun_range"): ("range_adds_altitude",),
    ("phantoms", "lose_spot"): ("spotting",),
}

#: (ruleset, procedure) -> why no modifier enters its number, and what-if inputs
NO_MODIFIERS: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("phantoms", "critical_hit"): ("8.1: a d10 read on the Critical Hit Table as it falls", {}),
    ("airpower", "genie_scatter"): ("Genie Scatter: a direction d10, a distance d10 halved", {}),
    ("ufo_interception", "damage_roll"): ("Damage: 2d6 read on the damage table", {}),
    ("ufo_interception", "hit_location"): ("Tornado card: a d6 read on Hit Location", {}),
    ("ufo_interception", "missile_flight"): (
        "Hitting: missile, 1d6 rolls on the damage table",
        {"came_within_1_inch": True},
    ),
    ("ufo_interception", "initiative_roll_off"): (
        "Roll Initiative: the tied roll off, the bare die", {"planes": ["Blue 1", "Blue 2"]}
    ),
    # calculators whose result no modifier enters: a check, a choice or book-keeping
    ("phantoms", "missile_lost"): ("7.1.1b: the missile misses", {}),
    ("phantoms", "pass_initiative"): ("4.0: the marker passed", {}),
    ("phantoms", "set_speed"): ("5.0: the speed chosen, checked", {"speed": 5}),
    ("phantoms", "tailing"): ("6.1.1: tailing or not", {}),
    ("phantoms", "jettison"): ("11.0: stores jettisoned", {}),
    ("phantoms", "disengage"): ("10.0: off the map edge", {}),
    ("phantoms", "lose_spot"): ("13.1-13.2: spots lost", {"reason": "spotter in a spin"}),
    ("airpower", "gun_abort"): ("Aborting Gun Shots: no ammunition spent", {}),
    ("airpower", "flight"): ("Recovery Periods: the flight path recorded", {}),
    ("airpower", "ssgt_cancelled"): ("Defensive Pre-emption: SSGT lost", {}),
    ("advanced_air_force", "snapshot_check"): (
        "rule 8: whether a Snapshot is allowed",
        {
            "target_disadvantaged_or_straight_bomber": True, "hexes_beyond": 0,
            "attacker_current_altitude_ft": 5000, "attacker_resulting_altitude_ft": 5000,
            "target_resulting_altitude_ft": 5000,
        },
    ),
    ("advanced_air_force", "declare_advantage"): ("rules 2, 3: whether altitudes allow it", {}),
    ("advanced_air_force", "end_advantage"): ("rules 2, 6: the Advantage ended", {}),
    ("advanced_air_force", "altitude_change"): (
        "rules 9, 30: the change against the black value",
        {"direction": "climb", "change_ft": 300, "highest_black_ft": 500},
    ),
    ("nth_fleet", "launch_mission"): ("2.1: air points launched", {}),
    ("nth_fleet", "return_to_base"): ("2.1: air points land", {}),
    ("nth_fleet", "move_air_points"): (
        "2.1: air points moved between tracks", {"source": "unused", "dest": "cap", "points": 1}
    ),
    ("ufo_interception", "ufo_move"): (
        "Movement: UFO, the move checked", {"inches": 4, "anti_grav": 5, "max_speed": 6}
    ),
    ("ufo_interception", "aircraft_move"): (
        "Movement: Aircraft, half the speed",
        {"half": 1, "speed": 6, "previous_speed": 6, "top_speed": 8},
    ),
    ("ufo_interception", "missile_launch"): (
        "Firing: Missiles, the launch checked", {"missile": "sidewinder", "range_inches": 6}
    ),
}  # fmt: skip

#: three sets of faces typed at the table (valid on a d4, d5, d6 and d10 alike)
FACES = ([1, 2, 3, 4] * 60, [4, 3, 2, 1] * 60, [2, 4, 1, 3, 3] * 50)


def _fill(rid: str) -> None:
    """The umpire's values for the cells the texts do not print (Air Power's and Nth
    Fleet's tables), as the desk's Fill in saves them."""
    if rid == "airpower":
        from tests.unit.rulesets.airpower.conftest import FILLS as AIRPOWER

        for stem, values in AIRPOWER.items():
            save_override("airpower", stem, values)
    elif rid == "nth_fleet":
        from tests.unit.rulesets.nth_fleet.conftest import fill_tables

        fill_tables()


def rulings(tmp_path: Path, rid: str, pid: str, inputs: dict[str, Any]) -> list[Ruling]:
    """The rulings of ``pid`` resolved with each set of typed ``FACES``, each in a new game
    (under the case's ``VARIANTS``): a what-if, or on an F-4E (``OLDS``)."""
    _fill(rid)
    out = []
    for n, faces in enumerate(FACES):
        path = tmp_path / f"{rid}-{pid}-{n}.airboss"
        s = GameSession.create(path, rid, "rulings", VARIANTS.get((rid, pid), ()))
        try:
            given = dict(inputs)
            if OLDS in given.values():
                ids = {OLDS: s.add_aircraft("USAF", "f4e", "Olds 1")}
                if RED in given.values():
                    ids[RED] = s.add_aircraft("VPAF", "mig21", "Red 1")
                given = {k: ids.get(v, v) if isinstance(v, str) else v for k, v in given.items()}
            if rid == "ufo_interception":
                for _ in range(3):
                    s.clock.next_step()
            proc = s.ruleset.procedures[pid]
            dry = TableDice(faces)  # how many dice it asks for: exactly those are typed
            proc.resolve(proc.parse(given), dry, s.engagement)
            s.perform(pid, given, TableDice(faces[: len(faces) - len(dry.unused)]))
            out.append(s.odds.ruling(s.events()[-1].seq))
        finally:
            s.close()
    return out


def _shown(pattern: str, narrative: str) -> bool:
    """The reckoning, as a whole, in the log line: no digit or sign runs on either side."""
    return re.search(rf"(?<![\d+-]){pattern}(?!\d|\s?[+-]\d)", narrative) is not None


def _equation(first: int, rest: int) -> str:
    """ "7+3 = 10" ("7 +3 = 10" too) as a pattern."""
    sign = "+" if rest >= 0 else "-"
    return rf"{first}\s?\{sign}{abs(rest)} = {first + rest}"


def rebuilt(r: Ruling, terms: tuple[Term, ...], sums: dict[str, int]) -> dict[str, str]:
    """The reckoning of each number (``sums``: the dice and numbers the ruling's terms name,
    and how many terms each has in the ruling), rebuilt from the ruling's dice and ``terms``
    alone, as a pattern of the log line."""
    faces = {d.purpose: sum(d.dice) for d in r.dice}  # a die rolled again: its last roll
    mine = by_die(terms)
    out = {}
    for die, count in sums.items():
        group = mine.get(die, [])
        if die in faces:
            out[die] = _equation(faces[die], total(group))
        elif count > 1:
            first = group[0].value if group else 0
            out[die] = _equation(first, total(group[1:]))
        else:
            out[die] = re.escape(summed(group))
    return out


def _lone(r: Ruling, die: str) -> bool:
    """A number of one term no die is added to (the number a roll must not exceed)."""
    return len(by_die(r.terms)[die]) == 1 and die not in {d.purpose for d in r.dice}


def _ids(keys: Any) -> list[str]:
    return [f"{r}.{p}" for r, p in keys]


def test_every_procedure_of_every_ruleset_is_covered() -> None:
    """Every procedure is here: with the modifiers that entered its number, or said to have
    none and why."""
    every = {(rid, pid) for rid in RULESETS for pid in load_ruleset(rid).procedures}
    assert set(CASES) | set(NO_MODIFIERS) == every
    assert not set(CASES) & set(NO_MODIFIERS)


@pytest.mark.parametrize(("rid", "pid"), list(CASES), ids=_ids(CASES))
def test_the_logged_reckoning_is_rebuilt_from_the_rulings_modifiers_alone(
    tmp_path: Path, rid: str, pid: str
) -> None:
    found_missing: set[int] = set()
    for r in rulings(tmp_path, rid, pid, CASES[(rid, pid)]):
        assert r.terms, f"{rid}.{pid}: the ruling lists no modifiers\n{r.text()}"
        assert all(t.what and t.rule for t in r.terms), r.terms
        groups = {die: len(group) for die, group in by_die(r.terms).items()}
        for die, pattern in rebuilt(r, r.terms, groups).items():
            assert _shown(pattern, r.narrative), (die, pattern, r.narrative)
        listed = dict(r.sections())["Modifiers"]
        assert all(re.search(r" [+-]\d+ \(", line) for line in listed), listed
        for i, t in enumerate(r.terms):
            short = rebuilt(r, r.terms[:i] + r.terms[i + 1 :], groups)
            if t.value == 0 or _lone(r, t.die) or not _shown(short[t.die], r.narrative):
                found_missing.add(i)
    # with any one modifier left out, the reckoning no longer rebuilds (in one of the rolls)
    assert found_missing == set(range(len(r.terms))), r.terms


@pytest.mark.parametrize(("rid", "pid"), list(NO_MODIFIERS), ids=_ids(NO_MODIFIERS))
def test_a_procedure_no_modifier_enters_lists_none_and_shows_its_dice(
    tmp_path: Path, rid: str, pid: str
) -> None:
    _, inputs = NO_MODIFIERS[(rid, pid)]
    calculator = load_ruleset(rid).procedures[pid].is_calculator
    for r in rulings(tmp_path, rid, pid, inputs):
        assert r.terms == ()
        assert "Modifiers" not in dict(r.sections())
        assert bool(r.dice) is not calculator
        for d in r.dice:
            assert _shown(str(sum(d.dice)), r.narrative) or all(
                _shown(str(f), r.narrative) for f in d.dice
            ), (d, r.narrative)


# -- named cases: the rules texts' own numbers -------------------------------------------------


def _said(r: Ruling) -> set[tuple[str, int, str]]:
    return {(t.what, t.value, t.rule) for t in r.terms}


def test_phantoms_initiative_lists_each_sides_modifiers(tmp_path: Path) -> None:
    """4.0: "Ace Pilot: +2  Loaded Aircraft: -2  Only Inexp. Or Green Pilots: -2  Ground or
    Airborne Controller: +1"."""
    (r, *_) = rulings(tmp_path, "phantoms", "initiative", CASES[("phantoms", "initiative")])
    blue, red = by_die(r.terms)["initiative for Blue"], by_die(r.terms)["initiative for Red"]
    assert {(t.what, t.value, t.rule) for t in blue} == {
        ("Ace Pilot", 2, "4.0"),
        ("Loaded Aircraft", -2, "4.0"),
        ("Ground or Airborne Controller", 1, "4.0"),
    }
    assert {(t.what, t.value) for t in red} == {("Only Inexp. or Green Pilots", -2)}
    # FACES[0]: Blue rolls 1, Red 2: 1+1 = 2 beats 2-2 = 0
    assert "Blue 1+1 = 2 vs Red 2-2 = 0" in r.narrative
    assert r.outcome == "Blue holds the marker"


@pytest.mark.parametrize(
    ("variants", "value", "outcome"),
    [((), 2, "out of control"), (("loss_of_control_literal",), -2, "safe")],
)
def test_phantoms_loss_of_control_lists_the_speed_points_below_zero(
    tmp_path: Path, variants: tuple[str, ...], value: int, outcome: str
) -> None:
    """6.4.1: "1 - 8 for an Ace/Experienced/Average Pilot ... The die roll is modified by -1
    for each speed point less than zero": 2 points below zero, a 7 typed. Default reading
    (each point counts against the pilot): 7+2 = 9, out of control; the literal -1: 7-2 = 5,
    safe."""
    _fill("phantoms")
    inputs = {"cause": "speed", "pilot": "average", "below_zero": 2}
    s = GameSession.create(tmp_path / "loc.airboss", "phantoms", "loc", variants)
    s.perform("loss_of_control", inputs, TableDice([7]))
    r = s.odds.ruling(s.events()[-1].seq)
    s.close()
    (below,) = [t for t in r.terms if t.die == "loss of control"]
    assert (below.value, below.rule) == (value, "6.4.1")
    safe = [t for t in r.terms if t.die == "loss of control: safe up to"]
    assert [t.value for t in safe] == [8]
    assert f"d10 7{value:+d} = {7 + value}" in r.narrative
    assert r.outcome == outcome


def test_phantoms_radar_spot_lists_the_spotters_and_the_targets_modifiers(tmp_path: Path) -> None:
    """13.1: the Spotter adds "+ Aircraft's Radar Value, + 1 Experienced Pilot, ... - 1 if the
    target aircraft is at a lower altitude, - 4 if the target aircraft is at altitude 0"; the
    Target adds "+ Radar counter-measures (C/M) rating"."""
    (r, *_) = rulings(tmp_path, "phantoms", "radar_spot", CASES[("phantoms", "radar_spot")])
    assert _said(r) == {
        ("Radar Value", 3, "13.1"),
        ("Experienced pilot", 1, "13.1"),
        ("target lower", -1, "13.1"),
        ("target at altitude 0", -4, "13.1"),
        ("radar C/M rating", 2, "13.1"),
    }


def test_phantoms_visual_spot_lists_the_spotters_and_the_targets_modifiers(tmp_path: Path) -> None:
    """13.2: "+ 3 Ace Pilot ... + 3 if spotter has radar spot or Lock-On ... +2 all-round
    vision canopy ... + 1 if the spotter aircraft has 2 (or more) crew, - 2 if the target
    aircraft is at altitude 0"; the Target adds "+ Range between aircraft, + 1 if aircraft is
    small"."""
    (r, *_) = rulings(tmp_path, "phantoms", "visual_spot", CASES[("phantoms", "visual_spot")])
    assert {(t.value, t.die.split(": ")[1]) for t in r.terms} == {
        (3, "spotter"), (3, "spotter"), (2, "spotter"), (1, "spotter"), (-2, "spotter"),
        (4, "target"), (1, "target"),
    }  # fmt: skip
    assert len(r.terms) == 7 and all(t.rule == "13.2" for t in r.terms)


def test_ufo_initiative_adds_each_planes_pilot_reaction(tmp_path: Path) -> None:
    """Turn Order: "Each plane rolls d6+pilot reaction"."""
    inputs = CASES[("ufo_interception", "initiative")]
    (r, *_) = rulings(tmp_path, "ufo_interception", "initiative", inputs)
    assert [(t.die, t.value) for t in r.terms] == [
        ("initiative for Blue 1", 2),
        ("initiative for Blue 2", 1),
    ]
    assert "Blue 1 1+2 = 3, Blue 2 2+1 = 3" in r.narrative


def test_ufo_ray_gun_dice_are_the_charge_minus_the_range(tmp_path: Path) -> None:
    """Firing: UFO: "Roll one die for every point of charge, minus 1 die for every inch of
    range": charge 6 at 2 inches, 6-2 = 4 dice."""
    (r, *_) = rulings(
        tmp_path, "ufo_interception", "ray_gun", CASES[("ufo_interception", "ray_gun")]
    )
    assert [(t.what, t.value) for t in r.terms] == [("charge", 6), ("range in inches", -2)]
    assert "6-2 = 4 dice" in r.narrative
    assert [len(d.dice) for d in r.dice] == [4]


def test_ufo_recharge_adds_the_dice_to_the_current_charge(tmp_path: Path) -> None:
    """Firing: UFO: "Roll a number of dice equal to its recharge rating, and add result to
    current charge": charge 3, two dice typed 1 and 2: 3+3 = 6."""
    inputs = CASES[("ufo_interception", "recharge")]
    (r, *_) = rulings(tmp_path, "ufo_interception", "recharge", inputs)
    assert [(t.what, t.value, t.die) for t in r.terms] == [("current charge", 3, "recharge dice")]
    assert "3+3 = 6" in r.narrative and r.outcome == "charge 6"


def test_air_power_genie_attack_rating_is_twelve_minus_two_per_hex(tmp_path: Path) -> None:
    """Nuclear Attack: "an aircraft four hexes away is attacked with a rating of 4 (12 - (2 x
    4 hexes) = 4)"; two altitude levels count as a hex."""
    inputs = CASES[("airpower", "genie_detonation")]
    (r, *_) = rulings(tmp_path, "airpower", "genie_detonation", inputs)
    red1 = by_die(r.terms)["attack rating on Red 1"]
    assert [(t.what, t.value) for t in red1] == [
        ("Genie warhead", 12),
        ("4 hex(es) of range, 2 each", -8),
    ]
    assert "Red 1 hit, attack rating 12-8 = 4" in r.narrative
    assert "Red 2 hit, attack rating 12-4 = 8" in r.narrative


def test_advanced_air_force_v_dive_rate_and_exit_speed(tmp_path: Path) -> None:
    """V. Dive rule 3: "1st Game-Turn V. Dive: + 500% ... reduced by 500 ft. for each Movement
    Point expended ... to reach the V. Dive hex"; rule 2: "the Resulting Airspeed on exit is
    always 2 Sp. Points below full Max. Dive Sp. after the 1st Game-Turn V. Dive"."""
    inputs = CASES[("advanced_air_force", "vertical_dive")]
    (r, *_) = rulings(tmp_path, "advanced_air_force", "vertical_dive", inputs)
    assert [t.value for t in by_die(r.terms)["V. Dive Rate (ft)"]] == [5000, -1000]
    assert [t.value for t in by_die(r.terms)["Resulting Airspeed on exit"]] == [20, -2]
    assert "dive 5000-1000 = 4000 ft, exit airspeed 20-2 = 18" in r.narrative


def test_advanced_air_force_v_dive_survival_two_below_the_w_hits(tmp_path: Path) -> None:
    """V. Dive rule 3: "a single die roll that must be at least 2 below remaining # of "W" hits
    if under 50% black Max. Dive used": 5 "W" hits left, at most 3."""
    inputs = CASES[("advanced_air_force", "vertical_dive_survival")]
    (r, *_) = rulings(tmp_path, "advanced_air_force", "vertical_dive_survival", inputs)
    assert [t.value for t in r.terms] == [5, -2]
    assert "needs 5-2 = 3 or less" in r.narrative


def test_nth_fleet_lists_its_dms_on_every_die(tmp_path: Path) -> None:
    """2.10: "modified +/- 1 for friendly/enemy EW aircraft"; 2.11: "Fighters on CAP have a +2
    Dice Modifier (DM), Aircraft attacking CAP have a -2 DM". The first force, with EW,
    attacks the second, on CAP: +1 -2; the second: -1 +2."""
    (r, *_) = rulings(tmp_path, "nth_fleet", "air_combat", CASES[("nth_fleet", "air_combat")])
    dice = by_die(r.terms)
    first = [k for k in dice if k.startswith("first force")]
    second = [k for k in dice if k.startswith("second force")]
    assert first and second
    for k in first:
        assert {(t.what, t.value, t.rule) for t in dice[k]} == {
            ("friendly EW", 1, "Nth Fleet 2.10"),
            ("attacking CAP", -2, "Nth Fleet 2.11"),
        }
    for k in second:
        assert {(t.what, t.value, t.rule) for t in dice[k]} == {
            ("enemy EW", -1, "Nth Fleet 2.10"),
            ("fighters on CAP", 2, "Nth Fleet 2.11"),
        }
