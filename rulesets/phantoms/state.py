"""Phantoms' typed per-aircraft state: every value its events keep (``AttributesSet``) and
``initial_attributes`` sets. The draft checks every ``AttributesSet`` of a procedure against
``State``, so a misspelt key or a wrong type fails loudly; procedures read it typed through
``state_of(aircraft)``."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from app.core.engagement import AircraftState, Engagement, Status, derived
from app.core.errors import RuleViolation
from app.core.events import Event, GameAttributesSet, StatusChanged
from app.core.procedure import Draft
from app.core.ruleset import game_state
from rulesets.phantoms.clock import now_impulse

__all__ = [
    "Ledger",
    "missile_ledger",
    "ControlCheck",
    "Fired",
    "GameState",
    "Loss",
    "Marker",
    "MissileInFlight",
    "Spots",
    "State",
    "flying",
    "game_of",
    "engine_damaged",
    "in_flight",
    "in_play",
    "is_loaded",
    "loss_events",
    "maneuver_now",
    "other_sides",
    "pilot_of",
    "state_of",
    "spots_of",
    "spotting",
    "subject",
]


class Ledger(StrEnum):
    """Phantoms' ledger ids (``LedgerSpec``), read and spent by these names only; each missile
    type on a card has its own, ``missile_ledger(missile id)``."""

    GUN = "gun_ammunition"
    AFTERBURNER = "afterburner"


def missile_ledger(missile_id: str) -> str:
    """The ledger of a missile type's rounds (7.1)."""
    return f"missile_{missile_id}"


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


def tailed(engagement: Engagement) -> frozenset[str]:
    """The aircraft an aircraft in play holds in tailing position (6.1.1), read once per game
    state (every break-off check's dry run asks it)."""
    return derived(engagement, _tailed)


def _tailed(engagement: Engagement) -> frozenset[str]:
    held = (state_of(a).tailing for a in engagement.aircraft.values() if a.in_play)
    return frozenset(t for t in held if t)


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


class Spots(_Value):
    """What one aircraft has spotted (13.1-13.2): the aircraft it holds radar spots on, and
    those it holds visual spots on."""

    radar: list[str] = []
    visual: list[str] = []


class GameState(_Value):
    """The game-wide records of a Phantoms game (``GameAttributesSet``): missiles in flight,
    each aircraft's radar and visual spots (13.1-13.2), kills by side and the losses log."""

    missiles_in_flight: list[MissileInFlight] = []
    spots: dict[str, Spots] = {}
    kills: dict[str, int] = {}
    losses: list[Loss] = []


def game_of(engagement: Engagement) -> GameState:
    """The game's records, typed (``GameAttributesSet`` values kept by the projection)."""
    return game_state(engagement, GameState)


def in_flight(engagement: Engagement) -> list[MissileInFlight]:
    """The missiles in flight, in launch order."""
    return list(game_of(engagement).missiles_in_flight)


def spots_of(engagement: Engagement, aircraft_id: str) -> Spots:
    """What ``aircraft_id`` has spotted (none when it holds no spot)."""
    return game_of(engagement).spots.get(aircraft_id, Spots())


def spotting(spots: Mapping[str, Spots]) -> GameAttributesSet:
    """The event that keeps ``spots`` as every aircraft's spots."""
    return GameAttributesSet(values={"spots": {k: v.model_dump() for k, v in spots.items()}})


def flying(missiles: list[MissileInFlight]) -> GameAttributesSet:
    """The event that keeps ``missiles`` as the missiles in flight."""
    return GameAttributesSet(values={"missiles_in_flight": [m.model_dump() for m in missiles]})


# --- readings of an aircraft's state the procedures share ---------------------------------


def pilot_of(a: AircraftState) -> str:
    return a.pilot or "average"


def maneuver_now(engagement: Engagement, a: AircraftState) -> str | None:
    """The maneuver an aircraft is flying this impulse: its marker's kind, or the one it
    completed in this impulse's movement ("just did", 7.1.3; the same reading for the firing
    aircraft's -3/-1 of 7.2 unless ``maneuver_ends_at_marker``)."""
    st = state_of(a)
    kind = st.maneuver.kind if st.maneuver is not None else None
    if kind is None and st.completed_at == now_impulse(engagement):
        kind = st.last_maneuver
    return kind


def is_loaded(a: AircraftState) -> bool:
    """11.0: carrying stores (not jettisoned) or damage beyond the maximum (8.0)."""
    return (
        Status.LOADED in a.status
        or state_of(a).stores
        or (a.max_damage is not None and a.damage > a.max_damage)
    )


def engine_damaged(a: AircraftState) -> bool:
    return Status.ENGINE_DAMAGED in a.status


def subject(draft: Draft, aircraft_id: str | None, choose: str) -> AircraftState | None:
    """The aircraft a procedure acts on. ``None`` in a what-if (an engagement without
    aircraft: the odds before a choice); refused in a game when none is chosen."""
    if aircraft_id:
        return draft.get(aircraft_id)
    if draft.engagement.aircraft:
        raise RuleViolation(f"choose {choose}")
    return None


def in_play(a: AircraftState) -> None:
    if not a.in_play:
        raise RuleViolation(f"{a.name} is out of the game")


def other_sides(engagement: Engagement, side: str) -> list[str]:
    return [s for s in engagement.sides if s != side]


def loss_events(
    engagement: Engagement, a: AircraftState, flags: tuple[str, ...], cause: str
) -> list[Event]:
    """The aircraft is lost: its status flags, and a kill credited to the other side (6.4.3)."""
    game = game_of(engagement)
    others = other_sides(engagement, a.side)
    credit = others[0] if len(others) == 1 else f"enemies of {a.side}"
    kills = {**game.kills, credit: game.kills.get(credit, 0) + 1}
    log = [*game.losses, Loss(aircraft=a.id, cause=cause, credited=credit)]
    return [
        StatusChanged(aircraft=a.id, set=flags),
        GameAttributesSet(values={"kills": kills, "losses": [x.model_dump() for x in log]}),
    ]
