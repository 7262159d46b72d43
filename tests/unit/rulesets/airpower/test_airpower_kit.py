"""Issue 32: Air Power keeps the whole ruleset contract (app.testing.check_ruleset), with every
table the rules text refers to but does not print filled in as an umpire would (test values,
not the game's numbers), so no procedure is skipped."""

from __future__ import annotations

from math import ceil

from app.testing import check_ruleset
from rulesets.airpower import RULESET

#: test values (not the game's), as in the other Air Power tests
MODIFIERS = {
    "angle_off": {
        "0 line": -2,
        "30 arc": 0,
        "60 arc": 1,
        "90 arc": 2,
        "120 arc": 3,
        "150 arc": 4,
        "180 arc": 5,
        "180 line": 1,
    },
    "attacker_damage": {"damaged": 2},
    "radar_ranging": {"RE": -1, "CA": -2, "IG": -3},
    "pilot_quality": {"green": 2, "inexperienced": 1, "average": 0, "experienced": -1, "ace": -2},
}
#: rockets hit 4+n/3+n/2+n/1+n at ranges 1-4 with rating 2+2n (half a factor: the 1's row)
ROCKETS = {
    "rows": [{"factors": "1/2", "hit": [4, 3, 2, 1], "attack_rating": 2}]
    + [
        {"factors": n, "hit": [4 + n, 3 + n, 2 + n, 1 + n], "attack_rating": 2 + 2 * n}
        for n in range(1, 7)
    ]
}
#: a damage column per attack rating 0-12, "X" then "A" then no effect
DAMAGE = {
    "results": {
        str(r): ["X"] * (r // 4) + ["A"] * (r // 3) + ["-"] * (12 - r // 4 - r // 3)
        for r in range(13)
    }
}
GENIE = {"launch_number": 6, "direction": {str(i): 30 * (i % 12) for i in range(1, 11)}}

SPEEDS = [f"{s / 2:g}" for s in range(2, 31)]
FILLS = {
    "modifiers": MODIFIERS,
    "rockets": ROCKETS,
    "aircraft_damage": DAMAGE,
    "genie": {**GENIE, "fps": 12},
    "fields": {"gun_field_of_fire": "60-", "limited_radar_arc": "30-"},
    "gun_pods": {
        "pods": {
            "SUU-16/A": {"hit_numbers": [6, 4, 2], "attack_rating": 4, "ammunition": 3},
            "SUU-23/A": {"hit_numbers": [7, 5, 3], "attack_rating": 5, "ammunition": 3},
        }
    },
    #: a third and two thirds of each start speed, rounded up (test values)
    "ssgt_conversion": {"fps": {s: [ceil(float(s) / 3), ceil(2 * float(s) / 3)] for s in SPEEDS}},
}


#: a gun attack and a rocket attack the rules accept, checked besides the generated inputs
#: (most generated ones are refused: an unsighted target, a range rockets do not reach)
INPUTS = {
    "gun_attack": ({"hit_numbers": [7, 5, 3], "attack_rating": 5, "horizontal_range": 1},),
    "rocket_attack": ({"factors": 2, "horizontal_range": 2},),
}


def test_airpower_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, fills=FILLS, inputs=INPUTS)
