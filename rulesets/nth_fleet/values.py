"""Mission kinds and the attack and defence values of an air point (Nth Fleet 2.2-2.8)."""

from __future__ import annotations

from typing import Literal

from rulesets.nth_fleet.card import Card
from rulesets.nth_fleet.tables import attack_exceptions, defence_table

Mission = Literal[
    "intercept",
    "escort",
    "strike",
    "tactical strike",
    "rcn",
    "tactical coordination",
    "asw",
    "aew",
    "ew",
]
#: missions flown in fighter (INT) mode; only fighters fly them (2.6, 2.12)
INT_MISSIONS = frozenset({"intercept", "escort"})
#: strike missions: a fighter flying one is in its bombing mode (2.7); aborted by 2.13
STRIKE_MISSIONS = frozenset({"strike", "tactical strike"})
#: supporting aircraft: effective only on a d4 roll at most their air points (2.2)
SUPPORT_MISSIONS = frozenset({"aew", "ew"})
#: strategic non-intercept missions: effective on a d4 at most their points under 4 (2.3)
STRATEGIC_MISSIONS = frozenset({"strike", "rcn", "tactical coordination", "asw"})
#: missions of which points abort when a strategic air phase combat shoots points down (2.14)
STRATEGIC_ABORT_MISSIONS = frozenset({"rcn", "tactical coordination"})


def bombing_mode(card: Card, mission: str | None) -> bool:
    """Nth Fleet 2.7: a fighter flying a strike mission uses its bombing mode."""
    return card.role == "fighter" and mission in STRIKE_MISSIONS


def in_int_mode(card: Card, mission: str | None) -> bool:
    """Nth Fleet 2.6, 2.12: fighters not in bombing mode are INTs (on CAP, intercept, escort)."""
    return card.role == "fighter" and not bombing_mode(card, mission)


def defence_value(type_id: str, card: Card) -> int:
    """Nth Fleet 2.8: the type's value on the Defence Value Table (asks if it is missing)."""
    return defence_table().defence(type_id, card.name)


def attack_value(type_id: str, card: Card, mission: str | None) -> int:
    """Nth Fleet 2.6, 2.7: one air point's air-air attack value.

    A fighter in fighter mode attacks with its printed air-air strength (the F-15C with 14 and
    the Tornado-F with 13, 2.6); attack and support aircraft, and fighters in bombing mode,
    with half their defence value, rounded down (2.7).
    """
    if in_int_mode(card, mission):
        exception = attack_exceptions().for_name(card.name)
        if exception is not None:
            return exception
        assert card.air_air is not None  # the Card model requires it of fighters
        return card.air_air
    return defence_value(type_id, card) // 2
