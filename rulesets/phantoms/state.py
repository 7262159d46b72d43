"""Phantoms' typed per-aircraft state: every value its events keep (``AttributesSet``) and
``initial_attributes`` sets. The draft checks every ``AttributesSet`` of a procedure against
``State``, so a misspelt key or a wrong type fails loudly; procedures read it typed through
``state_of(aircraft)``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from app.core.engagement import AircraftState, Engagement
from app.core.events import GameAttributesSet
from app.core.ruleset import game_state

__all__ = [
    "ControlCheck",
    "Fired",
    "GameState",
    "Loss",
    "Marker",
    "MissileInFlight",
    "State",
    "flying",
    "game_of",
    "in_flight",
    "state_of",
]


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Marker(_Value):
    """The maneuver marker on the map (6.1-6.3) and how far the aircraft has flown it."""

    choice: str
    kind: str
    label: str
    hexes: int
    levels: int
    vertical: Literal["climb", "dive"] | None = None
    moved: int = 0
    levels_done: int = 0


class ControlCheck(_Value):
    """A loss of control check owed (6.4.1)."""

    cause: Literal["hard turn", "loop", "speed"]
    below_zero: int = 0


class Fired(_Value):
    """What the aircraft fired in impulse ``at`` (7.0, 7.1.2): guns or missiles, how many."""

    at: int | None
    kind: Literal["gun", "heat", "radar"]
    count: int


class State(_Value):
    """Every per-aircraft attribute the Phantoms rules keep; impulses are counted from the
    start of the game (``common.absolute_impulse``)."""

    speed: int = 1
    altitude: int = 0
    stores: bool = False
    radar_cm: int = 0
    ir_cm: int = 0
    controller: bool = False
    wingman: str | None = None
    wingman_close: bool = True
    maneuver: Marker | None = None
    last_maneuver: str | None = None
    last_facing: str | None = None
    locks: list[str] = []
    tailing: str | None = None
    fired: Fired | None = None
    criticals_due: int = 0
    fire_hits: int = 0
    destroyed_by: str | None = None
    ejection_rolled: bool = False
    control_checks: list[ControlCheck] = []
    break_off_turn: int | None = None
    moved_at: int | None = None
    climbed_at: int | None = None
    dove_at: int | None = None
    completed_at: int | None = None
    afterburner_at: int | None = None
    recovered_at: int | None = None
    recovery_due_at: int | None = None
    fire_checked_at: int | None = None
    visual_attempt_at: int | None = None


def state_of(a: AircraftState) -> State:
    """The aircraft's attributes as the typed ``State`` (validated once per value)."""
    return a.typed(State, "attributes")


class MissileInFlight(_Value):
    """A missile launched and not yet resolved (7.1.2-7.1.3): who fired what at whom, its
    modified Hit # and the impulse it reaches the target."""

    attacker: str
    target: str
    missile: str
    name: str
    guidance: Literal["heat", "radar"]
    active: bool
    hit: int
    launched_at: int | None
    impact_at: int
    #: 7.1.1b (variant): fired outside its range, it will automatically miss
    out_of_range: bool = False


class Loss(_Value):
    """An aircraft lost, and the side credited with the kill (6.4.3)."""

    aircraft: str
    cause: str
    credited: str


class GameState(_Value):
    """The game-wide records of a Phantoms game (``GameAttributesSet``): missiles in flight,
    each aircraft's radar and visual spots (13.1-13.2), kills by side and the losses log."""

    missiles_in_flight: list[MissileInFlight] = []
    spots: dict[str, dict[Literal["radar", "visual"], list[str]]] = {}
    kills: dict[str, int] = {}
    losses: list[Loss] = []


def game_of(engagement: Engagement) -> GameState:
    """The game's records, typed (``GameAttributesSet`` values kept by the projection)."""
    return game_state(engagement, GameState)


def in_flight(engagement: Engagement) -> list[MissileInFlight]:
    """The missiles in flight, in launch order."""
    return list(game_of(engagement).missiles_in_flight)


def flying(missiles: list[MissileInFlight]) -> GameAttributesSet:
    """The event that keeps ``missiles`` as the missiles in flight."""
    return GameAttributesSet(values={"missiles_in_flight": [m.model_dump() for m in missiles]})
