"""Every Phantoms procedure's odds are exact Fractions summing to exactly 1 (API.md)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.phantoms import RULESET

PILOTS = ["green", "inexperienced", "average", "experienced", "ace"]

SAMPLES: dict[str, dict[str, Any]] = {
    "gun_attack": {
        "attacker_gun_value": 3,
        "position_modifier": 1,
        "target_defense": 2,
        "hits_by_difference": [1, 2],
    },
    "missile_attack": {
        "guidance": "heat",
        "hit_number": 5,
        "target_countermeasures": 2,
        "target_altitude": 2,
    },
    "radar_lock": {
        "attacker_radar": 4,
        "attacker_altitude": 2,
        "target_altitude": 3,
        "target_radar_countermeasures": 1,
        "range_hexes": 3,
    },
    "break_lock": {
        "attacker_radar": 4,
        "attacker_altitude": 2,
        "target_altitude": 3,
        "target_radar_countermeasures": 1,
        "range_hexes": 3,
    },
    "missile_launch": {"missile": "aim9j", "range_hexes": 2},
    "missile_lost": {},
    "critical_hit": {},
    "ejection": {},
    "fire_check": {},
    "initiative": {},
    "pass_initiative": {},
    "set_speed": {"speed": 5},
    "afterburner": {},
    "mark_maneuver": {},
    "tailing": {},
    "jettison": {},
    "loss_of_control": {},
    "recovery": {},
    "break_off": {},
    "disengage": {},
    "radar_spot": {
        "spotter_radar": 3,
        "spotter_altitude": 1,
        "target_altitude": 1,
        "target_radar_countermeasures": 2,
    },
    "visual_spot": {"target_altitude": 2, "range_hexes": 5},
    "lose_spot": {"reason": "spotter in a spin"},
}


def test_every_procedure_has_a_sample_and_cites_its_rule() -> None:
    assert set(SAMPLES) == set(RULESET.procedures)
    for p in RULESET.procedures.values():
        assert p.rule and p.rule[0].isdigit()
        assert p.rule in (p.__doc__ or ""), p.id


@pytest.mark.parametrize("pid", sorted(SAMPLES))
def test_odds_sum_to_one(pid: str) -> None:
    p = RULESET.procedures[pid]
    odds = p.odds(p.parse(SAMPLES[pid]))
    assert sum(odds.values()) == 1
    assert all(isinstance(v, Fraction) and v > 0 for v in odds.values())


@settings(max_examples=30, deadline=None)
@given(
    hit=st.integers(-5, 15),
    pos=st.integers(-4, 4),
    cm=st.integers(0, 6),
    pilot=st.sampled_from(PILOTS),
    alt=st.integers(0, 6),
    flags=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_missile_odds_sum_to_one(
    hit: int, pos: int, cm: int, pilot: str, alt: int, flags: list[bool]
) -> None:
    p = RULESET.bind(["spotting"]).procedures["missile_attack"]  # 13.0 "unspotted" applies
    i = p.parse(
        {
            "guidance": "heat",
            "hit_number": hit,
            "position_modifier": pos,
            "target_countermeasures": cm,
            "target_pilot": pilot,
            "target_altitude": alt,
            "target_used_afterburner": flags[0],
            "attacker_unspotted": flags[1],
            "target_hard_turn_or_loop": flags[2],
            "target_broke_contact": flags[3],
        }
    )
    odds = p.odds(i)
    assert sum(odds.values()) == 1
    # the hits are the difference: the chance of k hits is the chance of a difference of k
    att, dfn = p.modifiers(i)  # type: ignore[attr-defined]
    for k in range(1, 30):
        n = sum(1 for a in range(1, 11) for b in range(1, 11) if a + att - b - dfn == k)
        label = f"{k} hit" + ("s" if k > 1 else "")
        assert odds.get(label, Fraction(0)) == Fraction(n, 100)
