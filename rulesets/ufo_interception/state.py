"""The UFO game's typed per-aircraft state: every value its events keep (``AttributesSet``) and
``initial_attributes`` sets, read through ``state_of(aircraft)``. The draft checks every
``AttributesSet`` against ``State``, so a misspelt key or a wrong type fails loudly."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import GameAttributesSet
from app.core.ruleset import game_state

from .card import card_of

__all__ = [
    "MAX_HARD_POINTS",
    "MAX_RAY_GUNS",
    "GameState",
    "Ledger",
    "Missile",
    "State",
    "fighter",
    "fired_this_step",
    "flying",
    "game_of",
    "hard_point_ledger",
    "in_flight",
    "lost_hard_points",
    "need",
    "ray_gun_ledger",
    "state_of",
    "ufo",
]

#: the ledgers a plane or UFO keeps (``LedgerSpec`` ids): one per ray gun and per hard point,
#: the anti-grav rating and the top speed damage lowers


class Ledger(StrEnum):
    """The UFO game's fixed ledger ids (``LedgerSpec``), read and spent by these names only;
    each ray gun and hard point has its own, ``ray_gun_ledger(n)``, ``hard_point_ledger(n)``."""

    ANTI_GRAV = "anti_grav"
    MAX_SPEED = "max_speed"


#: how many ray guns and hard points a card may have ledgers for
MAX_RAY_GUNS = 4
MAX_HARD_POINTS = 6


def ray_gun_ledger(n: int) -> str:
    return f"ray_gun_{n}"


def hard_point_ledger(n: int) -> str:
    return f"hard_point_{n}"


class State(BaseModel):
    """What the UFO rules keep per plane or UFO (turns are game turns, steps the sequence of
    play's; pairs are stored as JSON lists)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    #: a fighter's speed this turn (inches per turn), the speed it flew last turn and the turn
    #: its speed was set (Movement: Aircraft, "change speed by up to 3 inches")
    speed: int | None = Field(None, ge=0)
    previous_speed: int | None = Field(None, ge=0)
    speed_turn: int | None = None
    #: (turn, half) of the last half move flown
    half_moved: tuple[int, int] | None = None
    #: (turn, inches) of a UFO's last move (Movement: UFO, the Anti-Grav limit)
    moved: tuple[int, int] | None = None
    #: (turn, step) the aircraft last fired cannon or missiles
    fired: tuple[int, int] | None = None
    #: rolls on the damage table owed for hits (Hitting)
    damage_rolls_due: int = Field(0, ge=0)
    hard_points_lost: tuple[int, ...] = ()
    #: damage taken in ``damaged_turn`` (the vital-system check, Damage) and the turn checked
    damage_this_turn: int = Field(0, ge=0)
    damaged_turn: int | None = None
    vital_checked_turn: int | None = None
    #: vital-system checks owed, one per damage roll that did damage (reading
    #: ``vital_each_damage_roll``)
    vital_checks_due: int = Field(0, ge=0)
    #: the turn each ray gun last fired or recharged, and last fired (Firing: UFO)
    ray_gun_1_used_turn: int | None = None
    ray_gun_2_used_turn: int | None = None
    ray_gun_3_used_turn: int | None = None
    ray_gun_4_used_turn: int | None = None
    ray_gun_1_fired_turn: int | None = None
    ray_gun_2_fired_turn: int | None = None
    ray_gun_3_fired_turn: int | None = None
    ray_gun_4_fired_turn: int | None = None

    def gun_used_turn(self, ledger: str) -> int | None:
        """The turn ray gun ``ledger`` (``ray_gun_<n>``) last fired or recharged."""
        value = getattr(self, f"{ledger}_used_turn")
        return value if isinstance(value, int) else None

    def moved_last_turn(self, turn: int) -> int:
        """Inches a UFO moved in the turn before ``turn`` (0 if it did not move then)."""
        return self.moved[1] if self.moved is not None and self.moved[0] == turn - 1 else 0

    def damaged_in(self, turn: int) -> int:
        """Damage taken in ``turn`` (0 if none)."""
        return self.damage_this_turn if self.damaged_turn == turn else 0


def state_of(a: AircraftState) -> State:
    return a.typed(State, "attributes")


class Missile(BaseModel):
    """A missile in flight (UFO rules, Missiles): its serial id, type, firer and target, the
    turns it has left and the turns it was launched and last moved."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    type: str
    attacker: str
    target: str
    turns_left: int
    launched: int
    moved_turn: int


class GameState(BaseModel):
    """The game-wide records of a UFO game (``GameAttributesSet``): missiles in flight and the
    last serial given, and the planes still tied on initiative (to roll off)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    missiles: list[Missile] = []
    missile_serial: int = 0
    initiative_ties: list[list[str]] = []


def game_of(engagement: Engagement) -> GameState:
    """The game's records, typed (``GameAttributesSet`` values kept by the projection)."""
    return game_state(engagement, GameState)


def in_flight(engagement: Engagement) -> list[Missile]:
    """The missiles in flight (the game's ``missiles`` record), oldest first."""
    return list(game_of(engagement).missiles)


def flying(missiles: list[Missile]) -> GameAttributesSet:
    """The event that keeps ``missiles`` as the missiles in flight."""
    return GameAttributesSet(values={"missiles": [m.model_dump() for m in missiles]})


# --- readings of a piece in play ------------------------------------------------------------


def need(engagement: Engagement, aircraft_id: str) -> AircraftState:
    """The aircraft, in play; ``RuleViolation`` when it is out of play."""
    a = engagement.get(aircraft_id)
    if not a.in_play:
        flags = ", ".join(sorted(s.replace("_", " ") for s in a.status))
        raise RuleViolation(f"{a.name} is out of play ({flags})")
    return a


def fighter(engagement: Engagement, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if card_of(a).kind != "fighter":
        raise RuleViolation(f"{a.name} is a UFO, not an aircraft with a pilot")
    return a


def ufo(engagement: Engagement, aircraft_id: str) -> AircraftState:
    a = need(engagement, aircraft_id)
    if card_of(a).kind != "ufo":
        raise RuleViolation(f"{a.name} is not a UFO")
    return a


def lost_hard_points(a: AircraftState) -> list[int]:
    return list(state_of(a).hard_points_lost)


def fired_this_step(a: AircraftState, engagement: Engagement) -> bool:
    return state_of(a).fired == (engagement.turn, engagement.step)
