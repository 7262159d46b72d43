"""Air Power's typed per-aircraft state: every value its events keep (``AttributesSet``), read
with ``aircraft.typed(State, "attributes")`` or ``draft.state(aircraft, State)``.

The stored attributes are plain JSON (what ``model_dump(mode="json", by_alias=True)`` gives);
the draft checks every ``AttributesSet`` against ``State``, so a misspelt key fails loudly.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rulesets.airpower.recovery import FPKind

__all__ = [
    "Ledger",
    "AttackEntry",
    "AttackKind",
    "AttackRecord",
    "PendingHit",
    "RadarRanged",
    "RangingAttempt",
    "State",
    "Weapon",
]


class Ledger(StrEnum):
    """Air Power's ledger ids (``LedgerSpec``), read and spent by these names only."""

    GUN_AMMUNITION = "gun_ammunition"
    POD_AMMUNITION = "pod_ammunition"
    ROCKET_FACTORS = "rocket_factors"
    GENIES = "genies"


AttackKind = Literal["gun", "abort", "rocket"]
Weapon = Literal["gun", "rocket", "Genie"]


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class AttackEntry(_Value):
    """One attack of the game turn: gun, aborted gun shot, or rocket (rules "Gun Attacks",
    "Aborting Gun Shots", "Rocket Attacks"), after which FP, at which target."""

    kind: AttackKind
    fp: int | None = None
    target: str | None = None


class AttackRecord(_Value):
    """The attacks an aircraft made in game turn ``turn`` (stored as ``{"turn", "list"}``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    turn: int
    entries: tuple[AttackEntry, ...] = Field((), alias="list")

    def dump(self) -> dict[str, object]:
        return self.model_dump(mode="json", by_alias=True)


class PendingHit(_Value):
    """A hit on this aircraft waiting for its damage roll (rule "Aircraft Damage Resolution")."""

    attack_rating: int = Field(ge=0)
    source: Weapon
    rule: str = ""


class RadarRanged(_Value):
    """Radar ranging that succeeded this game turn against ``target`` (rule "Radar Ranging and
    Subsequent Attacks": kept for a second attack on the same target that turn)."""

    turn: int
    target: str


class RangingAttempt(_Value):
    """The declared attack of game turn ``turn`` (its number among the attacker's attacks that
    turn) for which radar ranging was last attempted: one attempt per declared attack (rule
    "Radar Ranging Procedure": "after declaring a gun or rocket attack ... an attacker may
    attempt to range"; "Radar Ranging and Subsequent Attacks": a failed attempt may be made
    again for a second attack)."""

    turn: int
    attack: int = Field(ge=1)


class State(BaseModel):
    """What Air Power keeps per aircraft."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    #: start speed this game turn (``None``: not known)
    speed: float | None = Field(None, gt=0)
    altitude: int = Field(0, ge=0)
    #: the FPs flown this game turn and last game turn (rule "Recovery Periods")
    this_turn: tuple[FPKind, ...] = ()
    last_turn: tuple[FPKind, ...] = ()
    last_speed: float | None = Field(None, gt=0)
    #: FPs of SSGT accumulated this game turn (rule "Steady-State Gunsight Tracking"), the FP
    #: the tracking began at, and the FPs flown when a defensive pre-emption cancelled it
    ssgt_fps: int = Field(0, ge=0)
    tracking_since: int | None = Field(None, ge=1)
    ssgt_from: int = Field(0, ge=0)
    attacks: AttackRecord | None = None
    hits_to_resolve: tuple[PendingHit, ...] = ()
    radar_ranged: RadarRanged | None = None
    ranging_attempt: RangingAttempt | None = None
    #: the game turn this aircraft's Genie was launched (it scatters and detonates then)
    genie_launched_turn: int | None = Field(None, ge=1)


class GameState(BaseModel):
    """No game-wide records (``GameAttributesSet``) in this ruleset: any is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
