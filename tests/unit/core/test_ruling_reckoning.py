"""Issue 45: a ruling lists every modifier that entered the number, with its rule and its sign,
so the logged reckoning can be rebuilt from the ruling alone: for each die, its face (the
ruling's dice) plus the sum of the terms added to it is the total the log line says; a number
no die is added to (Advanced Air Force's gun factors with the silhouette, rule 14) is its first
term plus the rest."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.core.data import save_override
from app.core.dice import SeededDice
from app.core.reckoning import by_die, total
from app.core.ruling import Ruling
from app.session import GameSession

CASES: list[tuple[str, str, dict[str, Any]]] = [
    (
        "phantoms",
        "gun_attack",
        {
            "attacker_gun_value": 3, "position_modifier": 2, "attacker_pilot": "ace",
            "target_defense": 2, "target_pilot": "experienced", "hits_by_difference": [1, 2],
            "attacker_modifiers": -3,
        },
    ),
    (
        "phantoms",
        "missile_attack",
        {
            "guidance": "heat", "hit_number": 6, "position_modifier": -1,
            "target_countermeasures": 2, "target_pilot": "ace", "target_altitude": 0,
            "target_hard_turn_or_loop": True, "target_used_afterburner": True,
        },
    ),
    ("phantoms", "ejection", {"wounded": True, "on_fire": True, "destroyed_by": "major damage"}),
    ("phantoms", "fire_check", {"speed": 8, "dove": True, "pilot": "green"}),
    (
        "airpower",
        "gun_attack",
        {
            "hit_numbers": [8, 7, 6], "attack_rating": 4, "horizontal_range": 1,
            "angle_off": "60 arc", "pilot": "green",
        },
    ),
    ("airpower", "damage", {"attack_rating": 4, "weapon": "rocket"}),
    (
        "advanced_air_force",
        "gun_fire",
        {"total_gun_factors": 10, "range_hexes": 2, "gun_type": "FH", "silhouette_modifier": 2},
    ),
    ("ufo_interception", "cannon", {"range_inches": 2}),
    (
        "phantoms",
        "radar_lock",
        {
            "attacker_radar": 3, "attacker_pilot": "green", "attacker_altitude": 4,
            "target_altitude": 0, "target_radar_countermeasures": 2, "range_hexes": 6,
        },
    ),
    (
        "phantoms",
        "break_lock",
        {
            "attacker_radar": 2, "attacker_pilot": "ace", "attacker_altitude": 1,
            "target_altitude": 3, "target_radar_countermeasures": 3, "range_hexes": 2,
        },
    ),
    ("phantoms", "break_off", {"turn": 7, "pilot": "ace"}),
]  # fmt: skip


def _ruling(tmp_path: Path, rid: str, pid: str, inputs: dict[str, Any], seed: int) -> Ruling:
    if rid == "airpower":
        from tests.unit.rulesets.airpower.conftest import FILLS

        for stem, values in FILLS.items():
            save_override("airpower", stem, values)
    s = GameSession.create(tmp_path / f"{rid}-{seed}.airboss", rid, "ruling")
    if rid == "ufo_interception":
        for _ in range(3):
            s.clock.next_step()
    s.perform(pid, inputs, SeededDice(seed))
    seq = s.events()[-1].seq
    ruling = s.odds.ruling(seq)
    s.close()
    return ruling


@pytest.mark.parametrize(("rid", "pid", "inputs"), CASES, ids=[f"{r}.{p}" for r, p, _ in CASES])
def test_the_logged_reckoning_is_rebuilt_from_the_ruling_alone(
    tmp_path: Path, rid: str, pid: str, inputs: dict[str, Any]
) -> None:
    for seed in (1, 2, 3):
        r = _ruling(tmp_path, rid, pid, inputs, seed)
        assert r.terms, r.text()
        assert all(t.rule and t.what for t in r.terms)
        dice = {d.purpose: sum(d.dice) for d in r.dice}
        for die, terms in by_die(r.terms).items():
            if die in dice:
                first, rest = dice[die], total(terms)
            else:  # a number no die is added to: its first term and the rest
                first, rest = terms[0].value, total(terms[1:])
            signed = re.escape(f"{rest:+d}")
            shown = rf"(?<![\d+-]){first}\s?{signed} = {first + rest}\b"
            assert re.search(shown, r.narrative), (die, shown, r.narrative)
        listed = dict(r.sections())["Modifiers"]
        assert all(re.search(r" [+-]\d+ \(", line) for line in listed), listed


def test_the_phantoms_gun_ruling_lists_the_pilots_and_the_position_with_its_sign(
    tmp_path: Path,
) -> None:
    """7.2: 'The player that fired guns (Attacker) adds ... - The number shown on the Gun
    Firing Position Diagram, + 4 Ace Pilot ...; the target adds ... + 1 Experienced Pilot.'"""
    r = _ruling(tmp_path, *CASES[0], seed=5)
    said = {(t.what, t.value, t.rule) for t in r.terms}
    assert ("Gun Firing Position Diagram", -2, "7.2") in said
    assert ("Ace pilot", 4, "7.2") in said
    assert ("Experienced pilot (target)", 1, "7.2") in said
    assert "Gun Firing Position Diagram -2 (rule 7.2)" in r.text()


def test_the_advanced_air_force_silhouette_cites_rule_14(tmp_path: Path) -> None:
    r = _ruling(tmp_path, *CASES[6], seed=1)
    (silhouette,) = [t for t in r.terms if "Silhouette" in t.what]
    assert (silhouette.value, silhouette.rule) == (2, "rule 14")
    assert "Silhouette Modifier (FH guns) +2 (rule 14)" in r.text()
