"""Shared fixtures for the Air Power tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.data import save_override

# The modifier table is not printed in the rules text. These are an umpire's values entered for
# the tests only (they are not the game's numbers); every test using them says so.
TEST_MODIFIERS = {
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


@pytest.fixture
def filled(_user_data: Path) -> dict[str, object]:
    """The umpire has filled in the missing modifier cells (test values)."""
    save_override("airpower", "modifiers", TEST_MODIFIERS)
    return TEST_MODIFIERS
