"""Shared fixtures for the Air Power tests."""

from __future__ import annotations

from math import ceil
from pathlib import Path

import pytest

from app.core.data import save_override
from tests.umpire_values import AIRPOWER_MODIFIERS

# The modifier table is not printed in the rules text. These are an umpire's values entered for
# the tests only (they are not the game's numbers); every test using them says so.
TEST_MODIFIERS = AIRPOWER_MODIFIERS


@pytest.fixture
def filled(_user_data: Path) -> dict[str, object]:
    """The umpire has filled in the missing modifier cells (test values)."""
    save_override("airpower", "modifiers", TEST_MODIFIERS)
    return TEST_MODIFIERS


#: test values (not the game's): rockets hit 4+n/3+n/2+n/1+n at ranges 1-4 with rating 2+2n
ROCKETS = {
    "rows": [
        {"factors": n, "hit": [4 + n, 3 + n, 2 + n, 1 + n], "attack_rating": 2 + 2 * n}
        for n in range(1, 7)
    ]
}
#: test values: a damage column per attack rating 0-12, "X" then "A" then no effect
DAMAGE = {
    "results": {
        str(r): ["X"] * (r // 4) + ["A"] * (r // 3) + ["-"] * (12 - r // 4 - r // 3)
        for r in range(13)
    },
    "outcomes": {"out_of_the_fight": ["X"]},
}
GENIE = {"launch_number": 6, "direction": {str(i): 30 * (i % 12) for i in range(1, 11)}}


@pytest.fixture
def tables(filled: object, _user_data: Path) -> None:
    """The rocket, damage and Genie tables filled in too (test values)."""
    save_override("airpower", "rockets", ROCKETS)
    save_override("airpower", "aircraft_damage", DAMAGE)
    save_override("airpower", "genie", GENIE)


#: every cell the rules text does not print, filled with test values (app.testing's fills)
FILLS = {
    "modifiers": TEST_MODIFIERS,
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
    #: a third and two thirds of each start speed, rounded up
    "ssgt_conversion": {"fps": {f"{s / 2:g}": [ceil(s / 6), ceil(s / 3)] for s in range(2, 31)}},
}


@pytest.fixture
def fills() -> dict[str, object]:
    return FILLS
