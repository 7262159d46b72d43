"""Air Power aircraft data cards (ADC) and the per-aircraft settings ``add_aircraft`` accepts
(the control card the desk prints is ``printed_card``).

Only the parts of the ADC the air-to-air gun, rocket and Genie rules read are modelled: size,
speeds, the internal gun data (hit die rolls at ranges 0, 1 and 2, attack rating, ammunition,
radar ranging type), the radar lock-on number, the gunsight modifiers by turn rate, rocket
factors and the technology line (CC rocket attacks, Genie).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

RadarRanging = Literal["RE", "CA", "IG"]


class Gunsight(BaseModel):
    """Gunsight modifiers by turn rate (rule "Gunsight and Turning Effects")."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    TT: StrictInt = 0
    HT: StrictInt = 0
    BT: StrictInt = 0


class InternalGun(BaseModel):
    """The internal gun data section of the ADC."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    hit_numbers: list[int] = Field(
        min_length=2, max_length=3, description="hit die roll at ranges 0, 1 (and 2)"
    )
    attack_rating: StrictInt = Field(ge=0)
    ammunition: Fraction = Field(ge=0, description="ammunition points (halves allowed)")

    @field_validator("hit_numbers")
    @classmethod
    def _hits(cls, v: list[int]) -> list[int]:
        for h in v:
            if not 0 <= h <= 10:
                raise ValueError(f"hit die roll {h} is not 0-10")
        return v

    @field_validator("ammunition")
    @classmethod
    def _halves(cls, v: Fraction) -> Fraction:
        if (v * 2).denominator != 1:
            raise ValueError("ammunition is counted in half points")
        return v


class Card(BaseModel):
    """An Air Power ADC (the air-to-air combat parts)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    sample: bool = Field(
        False, description="true for the shipped sample values, not a published card"
    )
    #: Target Size: "the Size number on the ADC is used directly as a die roll modifier" (a d10
    #: hit roll): beyond 9 either way it would decide every roll (issue 46: -999999 was taken)
    size: StrictInt = Field(ge=-9, le=9, description="the size number, a hit-roll modifier")
    speed: float = Field(gt=0, description="the speed the sample starts at")
    max_speed: float = Field(gt=0)
    gun: InternalGun | None = None
    radar_ranging: RadarRanging | None = None
    lock_on: int | None = Field(None, ge=0, le=10, description="radar lock-on number")
    gunsight: Gunsight = Gunsight()
    rocket_factors: Fraction = Field(Fraction(0), ge=0)
    cc_rockets: bool = Field(False, description="capable of collision-course rocket attacks")
    genies: int = Field(0, ge=0)
    gun_pod_stations: list[str] = Field(
        default_factory=list, description="stations that may carry a gun pod (C, L1, R1 ...)"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if self.radar_ranging and self.lock_on is None:
            raise ValueError("radar ranging needs the radar lock-on number")
        if self.speed > self.max_speed:
            raise ValueError("speed exceeds max_speed")
        if (self.rocket_factors * 2).denominator != 1:
            raise ValueError("rocket factors are counted in halves")
        return self


_STATION = re.compile(r"^(C\d*|[LR]\d+)$")

RocketPod = Literal["small", "medium", "large"]


def pod_size(rockets: int) -> RocketPod:
    """Rule "Air-to-Ground Rockets in the Air-to-Air Role": 7 or fewer rockets is a small pod,
    8 to 19 medium, 20 or more large."""
    if rockets < 1:
        raise ValueError("a rocket pod holds at least one rocket")
    return "small" if rockets <= 7 else "medium" if rockets <= 19 else "large"


_POD_FACTORS = {"small": Fraction(1, 2), "medium": Fraction(1), "large": Fraction(2)}


def air_to_air_factors(single_rockets: int, pods: list[int]) -> Fraction:
    """Rule "Air-to-Ground Rockets in the Air-to-Air Role": ten single rockets are one factor;
    a small pod (7 or fewer rockets) half a factor, a medium pod (8 to 19) one, a large pod (20
    or more) two (the original wording has the same numbers since its 1B errata). ``pods``
    lists the number of rockets in each pod."""
    if single_rockets < 0:
        raise ValueError("a negative number of rockets")
    return Fraction(single_rockets // 10) + sum(
        (_POD_FACTORS[pod_size(n)] for n in pods), Fraction(0)
    )


#: rule "Air-to-Air Rockets in the Air-to-Ground Role": "each factor of air-to-air rockets has a
#: soft attack strength of two and a hard attack strength of one"
GROUND_SOFT_PER_FACTOR = 2
GROUND_HARD_PER_FACTOR = 1


def ground_role_strength(factors: Fraction) -> tuple[Fraction, Fraction]:
    """(soft, hard) attack strength of ``factors`` air-to-air rocket factors in the
    air-to-ground role (rule "Air-to-Air Rockets in the Air-to-Ground Role")."""
    if factors < 0:
        raise ValueError("a negative number of rocket factors")
    return factors * GROUND_SOFT_PER_FACTOR, factors * GROUND_HARD_PER_FACTOR


class Details(BaseModel):
    """Per-aircraft settings: gun pods carried (stations and type) and air-to-ground rockets
    taken into the air-to-air role."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    gun_pods: list[str] = Field(default_factory=list, description="stations carrying a gun pod")
    gun_pod_type: str | None = None
    ag_rockets: int = Field(
        0, ge=0, title="Air-to-ground rockets", description="single air-to-ground rockets"
    )
    ag_rocket_pods: list[int] = Field(
        default_factory=list,
        title="Air-to-ground rocket pods",
        description="air-to-ground rocket pods: rockets in each",
    )
    speed: float | None = Field(None, gt=0, description="start speed (default: the card's)")
    altitude: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _pods(self) -> Details:
        """Rule "Gun Pods": one type; pods on wing stations in symmetrical pairs."""
        for st in self.gun_pods:
            if not _STATION.match(st):
                raise ValueError(f"station {st!r}: use C (centreline) or L1/R1, L2/R2 ...")
        if len(set(self.gun_pods)) != len(self.gun_pods):
            raise ValueError("a station carries at most one gun pod")
        if self.gun_pods and not self.gun_pod_type:
            raise ValueError("gun pods need their type (all pods carried are of one type)")
        wings = {s for s in self.gun_pods if s[0] in "LR"}
        for s in wings:
            mate = ("R" if s[0] == "L" else "L") + s[1:]
            if mate not in wings:
                raise ValueError(
                    f"gun pod on {s} must be matched by one on {mate} (wing pods are carried "
                    "symmetrically in pairs)"
                )
        for n in self.ag_rocket_pods:
            pod_size(n)
        return self
