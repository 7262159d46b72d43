"""Nth Fleet's typed per-counter state: every value its events keep (``AttributesSet``), read
with ``aircraft.typed(State, "attributes")`` (``state_of``) or ``draft.state(aircraft, State)``.

The stored attributes are plain JSON (``State.dump``); the draft checks every ``AttributesSet``
against ``State``, so a misspelt key or a negative track fails loudly.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.core.engagement import AircraftState
from rulesets.nth_fleet.values import Mission

__all__ = ["PLACES", "Ledger", "Place", "State", "Tracks", "state_of"]


class Ledger(StrEnum):
    """Nth Fleet's ledger ids (``LedgerSpec``), read and spent by these names only."""

    AIR_POINTS = "air_points"


Place = Literal["unused", "aloft", "cap", "used"]
#: every place an air point can be: the display's tracks, or aloft on a mission (2.1)
PLACES: tuple[Place, ...] = ("unused", "aloft", "cap", "used")


class Tracks(BaseModel):
    """Nth Fleet 2.1: how many of a counter's air points are on each track of its Air Base
    Display (unused, CAP, used) and how many are aloft on a mission (the strategic display)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    unused: int = Field(0, ge=0)
    aloft: int = Field(0, ge=0)
    cap: int = Field(0, ge=0)
    used: int = Field(0, ge=0)

    def at(self, place: Place) -> int:
        return int(getattr(self, place))

    def moved(self, source: Place, dest: Place, points: int) -> Tracks:
        """The tracks with ``points`` taken from ``source`` and put on ``dest`` (unchecked)."""
        changes: dict[str, int] = {source: self.at(source) - points}
        changes[dest] = changes.get(dest, self.at(dest)) + points
        return self.model_copy(update=changes)

    def lost(self, place: Place, points: int) -> Tracks:
        """The tracks after ``points`` on ``place`` are shot down (2.12)."""
        return self.model_copy(update={place: self.at(place) - points})

    @property
    def total(self) -> int:
        return self.unused + self.aloft + self.cap + self.used


class State(BaseModel):
    """What Nth Fleet keeps per counter: where its points are, and the mission it flies."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    tracks: Tracks = Tracks()
    #: the mission of the points aloft (``None``: none aloft)
    mission: Mission | None = None
    mission_name: str = ""
    #: the mission's effectiveness (2.2, 2.3): ``None`` while its roll is still to be made
    effective: bool | None = None

    def dump(self, *fields: str) -> dict[str, Any]:
        """The JSON values of ``fields`` (all of them by default) for an ``AttributesSet``."""
        return self.model_dump(mode="json", include=set(fields) or None)


#: the values an ``AttributesSet`` gives when a counter's last points aloft come down
NO_MISSION: dict[str, Any] = {"mission": None, "mission_name": "", "effective": None}


def state_of(a: AircraftState) -> State:
    """A counter's typed state."""
    return a.typed(State, "attributes")


class GameState(BaseModel):
    """No game-wide records (``GameAttributesSet``) in this ruleset: any is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
