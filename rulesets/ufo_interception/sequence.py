"""The turn order exactly as the text lists it (UFO rules, Turn Order)."""

from __future__ import annotations

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.ruleset import Step

RULE = "UFO rules, Turn Order"

INITIATIVE, UFO_MOVES, FIRST_HALF, CANNON_1, SECOND_HALF, CANNON_2, MISSILES = range(7)

STEPS: tuple[Step, ...] = (
    Step(
        "Roll Initiative",
        "Roll Initiative",
        "Each plane rolls d6+pilot reaction. In ties Highest pilot reaction moves second, "
        "other wise roll off for tied players only",
        RULE,
    ),
    Step("UFO Moves", "UFO Moves", "UFO Moves", RULE),
    Step(
        "Move first half",
        "Move first half",
        "Move first half of move in order of initiative, lowest first.",
        RULE,
    ),
    Step(
        "Cannon firing",
        "at the half way point",
        "Cannon firing, highest initiative first.",
        RULE,
    ),
    Step(
        "Move second half",
        "Move second half",
        "Move second half of move in order of initiative, lowest first.",
        RULE,
    ),
    Step(
        "Cannon firing",
        "at the end of the move",
        "Cannon firing, highest initiative first.",
        RULE,
    ),
    Step(
        "Missile Firing",
        "Missile Firing",
        "Missile Firing- Highest Initiative first. For purposes of firing, UFO initiative is "
        "13 minus current charge of ray gun",
        RULE,
    ),
)


def require_step(engagement: Engagement, allowed: tuple[int, ...], what: str) -> None:
    """``RuleViolation`` unless the game is in one of the ``allowed`` steps."""
    if engagement.step not in allowed:
        names = " or ".join(STEPS[i].label for i in allowed)
        raise RuleViolation(
            f"{what} happens in {names} ({RULE}); the game is at {STEPS[engagement.step].label}"
        )
