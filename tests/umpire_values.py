"""Values an umpire would type for cells the rules texts do not print, for the tests only (they
are not the games' numbers; every test that uses them says so). One copy, imported wherever a
test needs them."""

from __future__ import annotations

#: Air Power's modifier table ("Gun Attack Modifiers" and the others the text leaves blank)
AIRPOWER_MODIFIERS = {
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
