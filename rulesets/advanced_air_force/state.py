"""Advanced Air Force's typed per-aircraft state: every value its events keep (``AttributesSet``)
and ``initial_attributes`` sets. The draft checks every ``AttributesSet`` of a procedure against
``State``, so a misspelt key or a wrong type fails loudly; procedures read it typed through
``state_of(aircraft)``."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import game_state

from .hits import Hemisphere

__all__ = [
    "Ledger",
    "Advantage",
    "FireRecord",
    "GameState",
    "RedChange",
    "State",
    "game_of",
    "state_of",
]


class Ledger(StrEnum):
    """Advanced Air Force's ledger ids (``LedgerSpec``), read and spent by these names only."""

    AMMUNITION = "ammunition"


def _by_hemisphere() -> dict[Hemisphere, int]:
    return {"front": 0, "rear": 0}


class RedChange(BaseModel):
    """Rule 30: a red-numbered altitude change beyond the black value, and its Game-Turn."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    turn: int
    direction: Literal["climb", "dive"]


class State(BaseModel):
    """What the Advanced Air Force rules keep per aircraft: the losses its hits caused (rules
    24-27, as ``hits.DamageEffects`` works them out) and the airspeeds its book-keeping set."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    #: rule 26: G hits taken per hemisphere, and the flexible gun factors they removed (4 each)
    g_hits: dict[Hemisphere, int] = Field(default_factory=_by_hemisphere)
    flexible_gun_loss: dict[Hemisphere, int] = Field(default_factory=_by_hemisphere)
    #: rules 24, 27: losses from the card's values; ``e_level_speed_loss`` is the part of the
    #: Max. Level Sp. loss due to E hits (those points stay usable, rule 24)
    max_level_speed_loss: int = Field(0, ge=0)
    e_level_speed_loss: int = Field(0, ge=0)
    power_factor_loss: int = Field(0, ge=0)
    climb_loss_ft: int = Field(0, ge=0)
    max_dive_speed_loss: int = Field(0, ge=0)
    dive_rate_loss_ft: int = Field(0, ge=0)
    #: rule 27's W-hit limit; the maneuvers rules 25 and 27 remove
    w_limit_reached: bool = False
    half_loops_allowed: bool = True
    half_rolls_allowed: bool = True
    slips_allowed: bool = True
    #: the hit effects in words, for the card
    damage_notes: tuple[str, ...] = ()
    #: the Resulting Airspeed (rules 2, 16-21; Vertical Climb rules) and a V. Dive's exit
    #: airspeed (V. Dive rules 1-2)
    airspeed: int | None = Field(None, ge=0)
    airspeed_on_exit: int | None = None
    #: rule 30: last red change beyond black (``None``: the last change was black)
    red_altitude_change: RedChange | None = None
    #: rule 21: the Game-Turn in which an Advantaged H-Loop's Power Factor loss applies
    no_power_turn: int | None = None
    #: rule 2: the Game-Turn in which Power or Brake Factors were used on the Resulting
    #: Airspeed (no repeated Advantage in it)
    factors_on_resulting_turn: int | None = None


def state_of(a: AircraftState) -> State:
    """The aircraft's attributes as the typed ``State`` (validated once per value)."""
    return a.typed(State, "attributes")


class Advantage(BaseModel):
    """An Advantage held (rules 2, 3, 6, 7): over whom, declared when, first or second
    consecutive."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    target: str
    turn: int
    consecutive: int = Field(ge=1, le=2)


class FireRecord(BaseModel):
    """Rule 14's fire record of the Game-Turn: fixed fire per target, "F" entry rolls per
    target and per firer, and the targets entered by flexible fire."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    turn: int
    fixed: list[str] = []
    flexible: list[str] = []
    flexible_attackers: list[str] = []
    flexible_rolls: dict[str, int] = {}
    attacker_rolls: dict[str, int] = {}


class GameState(BaseModel):
    """The game-wide records of an Advanced Air Force game (``GameAttributesSet``): the
    Advantages held, by the advantaged aircraft, and the fire record of the Game-Turn."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    advantage: dict[str, Advantage] = {}
    fire_record: FireRecord | None = None


def game_of(engagement: Engagement) -> GameState:
    """The game's records, typed (``GameAttributesSet`` values kept by the projection)."""
    return game_state(engagement, GameState)
