"""Aircraft type cards, per-group details, and air points (Nth Fleet 2.1, 2.4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Literal, Self

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from app.core.data import load_catalogue
from app.core.engagement import AircraftState

AIRCRAFT_DIR = Path(__file__).parent / "aircraft"

Role = Literal["fighter", "attack", "support"]
Track = Literal["unused", "cap", "used"]

#: Nth Fleet 2.1: a two-sided air unit becomes four air points, a single-sided unit two.
POINTS_PER_UNIT: dict[int, int] = {2: 4, 1: 2}


class Card(BaseModel):
    """An aircraft type as its counter prints it.

    ``air_air`` is the printed air-air strength (the attack value of a fighter in fighter mode,
    2.6); ``air_surface`` and ``asw`` are the printed values of a whole unit, prorated per air
    point (2.4); ``unit_sides`` says whether the counter is two-sided (4 air points) or
    single-sided (2 air points, typically RCN).
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str = Field(min_length=1)
    role: Role = Field(description="fighter (INT capable), attack, or support (AEW, EW, RCN ...)")
    specialty: Literal["", "AEW", "EW", "RCN", "ASW"] = ""
    air_air: int | None = Field(None, ge=0, description="printed air-air strength (2.6)")
    air_surface: int | None = Field(None, ge=0)
    asw: int | None = Field(None, ge=0)
    unit_sides: Literal[1, 2] = 2
    nation: str = ""
    sample: bool = False
    note: str = ""

    @model_validator(mode="after")
    def _fighters_print_air_air(self) -> Self:
        if self.role == "fighter" and self.air_air is None:
            raise ValueError("a fighter needs its printed air-air strength (air_air, rule 2.6)")
        return self


def catalogue() -> dict[str, Card]:
    """The shipped sample types plus the umpire's own (read fresh: the card editor adds some)."""
    return load_catalogue(AIRCRAFT_DIR, Card, "nth_fleet")


class Details(BaseModel):
    """What ``add_aircraft`` takes for one counter on an Air Base Display (2.1).

    Give either ``air_points`` (also accepted as ``count``) directly, or ``unit_sides`` (and
    ``units``) to convert counters: a two-sided unit is four air points, a single-sided unit
    two. Without either, the type's own ``unit_sides`` is used. ``track`` is where the points
    start on the display.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    base: str = Field(min_length=1, description="the carrier or land air base (its display)")
    air_points: int | None = Field(
        None, ge=1, le=400, validation_alias=AliasChoices("air_points", "count")
    )
    unit_sides: Literal[1, 2] | None = None
    units: int = Field(1, ge=1, le=100)
    track: Track = "unused"

    @model_validator(mode="after")
    def _one_way_of_counting(self) -> Self:
        if self.air_points is not None and self.unit_sides is not None:
            raise ValueError("give air_points or unit_sides (with units), not both")
        if self.air_points is None and self.unit_sides is None:
            raise ValueError("give air_points, or unit_sides (2 or 1) and units")
        if self.air_points is not None and self.units != 1:
            raise ValueError("units counts counters; with air_points give the points only")
        return self

    @property
    def points(self) -> int:
        """The air points this entry stands for (2.1)."""
        if self.air_points is not None:
            return self.air_points
        assert self.unit_sides is not None
        return POINTS_PER_UNIT[self.unit_sides] * self.units


def per_point(printed: int | None, unit_sides: int) -> Fraction | None:
    """Nth Fleet 2.4: an air point's air-surface or ASW value, prorated from the unit's value."""
    if printed is None:
        return None
    return Fraction(printed, POINTS_PER_UNIT[unit_sides])


def card_of(a: AircraftState) -> Card:
    """The counter's type card, typed (validated once per card value)."""
    return a.typed(Card, "card")
