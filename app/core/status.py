"""The status flags the desk shows and the pilot qualities: plain names, no game needed.

Kept apart from ``app.core.engagement`` (which needs pydantic and the events) so that a panel
can paint its badges and its pilot menu before the game's models are imported (issue 20).
``app.core.engagement`` imports both from here; ``from app.core.engagement import Status``
keeps working.
"""

from __future__ import annotations

from enum import StrEnum

PILOT_QUALITIES = ("green", "inexperienced", "average", "experienced", "ace")


class Status(StrEnum):
    """The status flags the desk shows with an icon; rulesets may set others of their own."""

    ON_FIRE = "on_fire"
    OUT_OF_CONTROL = "out_of_control"
    WOUNDED = "wounded"
    DESTROYED = "destroyed"
    EJECTED = "ejected"
    BROKEN_OFF = "broken_off"
    LOADED = "loaded"
    ENGINE_DAMAGED = "engine_damaged"
    PILOT_KILLED = "pilot_killed"
    CRASHED = "crashed"
