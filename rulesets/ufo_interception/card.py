"""Aircraft and UFO cards (UFO rules: the Tornado and Small UFO cards; Damage for the sizes).

A card is one pydantic model for both kinds of piece: a ``fighter`` has a top speed and hard
points with the card's d6 hit-location table; a ``ufo`` has an anti-grav rating and ray guns.
Values the text does not print hold ``"missing"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.data import Missing, load_catalogue
from app.core.engagement import AircraftState
from app.core.errors import RuleViolation

AIRCRAFT_DIR = Path(__file__).parent / "aircraft"
RULESET_ID = "ufo_interception"

Store = Literal["cannon", "sidewinder", "amraam"]


class HardPoint(BaseModel):
    """One row of a fighter card's hit-location table (UFO rules, Tornado card)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    number: int = Field(ge=1, le=9)
    location: list[int] = Field(min_length=1, description="the d6 faces that hit this point")
    store: Store
    printed_count: int | None = Field(None, ge=0, description="the number printed before it")
    boxes: int = Field(0, ge=0, description="missile boxes printed on the card")
    extra_damage: Literal["d6"] | None = Field(None, description="'+d6 DP if hit'")

    @model_validator(mode="after")
    def _faces(self) -> HardPoint:
        if any(f < 1 or f > 6 for f in self.location):
            raise ValueError("hit location faces must be 1-6")
        if self.store == "cannon" and self.boxes:
            raise ValueError("a cannon hard point has no missile boxes")
        return self


class RayGun(BaseModel):
    """A ray gun: power (its maximum charge) and recharge dice (UFO rules, Firing: UFO)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    power: int = Field(ge=1)
    recharge_dice: int = Field(ge=0, description="d6 rolled to recharge ('Recharge d6' is 1)")
    initiative: dict[int, int] | None = Field(
        None, description="the card's charge -> firing initiative table, where printed"
    )


class Card(BaseModel):
    """A fighter or UFO card as printed (UFO rules, Damage and the cards)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1)
    kind: Literal["fighter", "ufo"]
    speed: int = Field(ge=1, description="top speed in inches (Movement)")
    damage_points: int = Field(ge=1)
    anti_grav: int | Missing | None = Field(None, description="UFO only")
    hard_points: list[HardPoint] = Field(default_factory=list)
    ray_guns: list[RayGun] | Missing = Field(default_factory=list)
    sample: bool = False
    notes: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _kind(self) -> Card:
        if self.kind == "fighter":
            if self.anti_grav is not None or self.ray_guns:
                raise ValueError("a fighter has no anti-grav rating or ray guns")
        else:
            if self.anti_grav is None:
                raise ValueError('a UFO needs an anti_grav rating (or "missing")')
            if self.hard_points:
                raise ValueError("a UFO has no hard points")
        numbers = [h.number for h in self.hard_points]
        if len(set(numbers)) != len(numbers):
            raise ValueError("hard point numbers must be unique")
        faces = sorted(f for h in self.hard_points for f in h.location)
        if self.hard_points and faces != [1, 2, 3, 4, 5, 6]:
            raise ValueError("the hit location table must cover each d6 face exactly once")
        return self


def catalogue() -> dict[str, Card]:
    """The shipped cards plus the umpire's own (type id = file stem)."""
    return load_catalogue(AIRCRAFT_DIR, Card, RULESET_ID)


def printed_anti_grav(a: AircraftState) -> int | None:
    """A UFO's anti-grav rating as a card prints it (UFO rules, Damage: only the Small UFO's
    card does): the game's copy of its card, else its type's card in the umpire's catalogue
    (filled in the Card editor since the UFO joined); ``None`` while neither gives it."""
    own = card_of(a).anti_grav
    if isinstance(own, int):
        return own
    typed = catalogue().get(a.type_id)
    given = typed.anti_grav if isinstance(typed, Card) else None
    return given if isinstance(given, int) else None


def firing_initiative(gun: RayGun, charge: int) -> int:
    """UFO rules, Turn Order: "UFO initiative is 13 minus current charge of ray gun".

    The card's printed table is read where it has the charge; otherwise 13 - charge.
    """
    if gun.initiative and charge in gun.initiative:
        return gun.initiative[charge]
    return 13 - charge


class Details(BaseModel):
    """Per-aircraft settings: the pilot reaction (UFO rules, Turn Order) and starting speed."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    reaction: int = Field(0, ge=0, le=20, title="Pilot reaction", description="d6 + reaction")
    speed: int | None = Field(
        None, ge=1, title="Starting speed (inches)", description="default: the card's top speed"
    )


def details_of(a: AircraftState) -> Details:
    """The aircraft's roster settings, typed (validated once per value)."""
    return a.typed(Details, "details")


def card_of(a: AircraftState) -> Card:
    return a.typed(Card, "card")


def hard_point(a: AircraftState, number: int) -> HardPoint:
    card = card_of(a)
    hp = next((h for h in card.hard_points if h.number == number), None)
    if hp is None:
        raise RuleViolation(f"{a.name} has no hard point {number}")
    return hp


@dataclass(frozen=True)
class MissileData:
    """UFO rules, Firing: Missiles: nomination range, turns in flight and move per turn."""

    name: str
    range_inches: int
    turns: int
    move_inches: int


MISSILE_DATA: dict[str, MissileData] = {
    # "AMRAAM- Lasts 3 turns. Move 12 inches per turn." nominated "within 24in"
    "amraam": MissileData("AMRAAM", 24, 3, 12),
    # "Sidewinder 1 turn only. Move 12 inches." nominated within "12 inches"
    "sidewinder": MissileData("Sidewinder", 12, 1, 12),
}
