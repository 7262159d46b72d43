"""The Phantoms Aircraft Control Card (2.0) as a pydantic model, the per-aircraft settings
``add_aircraft`` accepts, and the catalogue in ``aircraft/*.toml``.

The published cards are not in the rules text: the shipped aircraft are sample values
(``sample = true``) for trying the desk out; the umpire enters real cards in the card editor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.data import load_catalogue
from app.core.engagement import AircraftState
from rulesets.phantoms.tables import CountryGroup, Era, tables

AIRCRAFT_DIR = Path(__file__).parent / "aircraft"

ManeuverName = Literal["straight", "turn", "hard_turn", "slip", "loop"]
MANEUVERS: tuple[ManeuverName, ...] = ("straight", "turn", "hard_turn", "slip", "loop")
MAX_SPEED = 10  # the Movement Impulse Chart (6.0) has columns for speeds 1-10


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class SpeedChart(_Model):
    """One engine condition of the card's Speed Chart (5.0, 6.3, 6.5)."""

    adjust: int = Field(ge=0, description="speed change allowed in the Set Speed Phase (5.0)")
    max_level: int = Field(ge=1, le=MAX_SPEED)
    max_loaded: int = Field(ge=1, le=MAX_SPEED)
    max_dive: int = Field(ge=1, le=MAX_SPEED)

    @model_validator(mode="after")
    def _ordered(self) -> SpeedChart:
        if self.max_loaded > self.max_level or self.max_level > self.max_dive:
            raise ValueError("max_loaded <= max_level <= max_dive")
        return self


class Speeds(_Model):
    normal: SpeedChart
    damaged: SpeedChart
    afterburner: int = Field(0, ge=0, description="speed added by one afterburner use (6.5)")
    climb: int = Field(description="speed change per level climbed (6.3), usually negative")
    dive: int = Field(description="speed change per level dived (6.3), usually positive")


class ManeuverRow(_Model):
    """A row of the Maneuver Chart (6.1): hexes to the marker at speeds 1-10 ("-" = cannot)."""

    hexes: list[int | Literal["-"]] = Field(min_length=MAX_SPEED, max_length=MAX_SPEED)
    speed_loss: int = Field(0, ge=0)

    def at(self, speed: int) -> int | None:
        value = self.hexes[min(max(speed, 1), MAX_SPEED) - 1]
        return None if value == "-" else value


class Missile(_Model):
    """A missile type on the card (7.1.1): heat-seeking HN/HW/HA or radar-guided."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    guidance: Literal["heat", "radar"]
    aspect: Literal["HN", "HW", "HA", "radar"]
    hit: int = Field(description="the missile's Hit #")
    count: int = Field(ge=0)
    min_range: int | None = Field(None, ge=0)
    max_range: int | None = Field(None, ge=1)
    active: bool = Field(False, description="active radar homing (7.1.1b exception)")
    radar: int | None = Field(None, description="an active homer's own radar value (7.1.1c)")

    @model_validator(mode="after")
    def _consistent(self) -> Missile:
        if (self.guidance == "heat") != (self.aspect != "radar"):
            raise ValueError("heat-seekers are HN, HW or HA; radar-guided missiles 'radar'")
        if self.guidance == "radar" and (self.min_range is None or self.max_range is None):
            raise ValueError("a radar-guided missile needs min_range and max_range (7.1.1b)")
        if self.active and self.radar is None:
            raise ValueError("an active radar homing missile needs its own radar value")
        return self


class Card(_Model):
    """An Aircraft Control Card."""

    name: str
    sample: bool = False
    note: str = ""
    era: Era | None = None
    country_group: CountryGroup | None = None
    crew: int = Field(1, ge=1)
    size: Literal["small", "normal", "large"] = "normal"
    all_round_canopy: bool = False
    speeds: Speeds
    maneuvers: dict[ManeuverName, ManeuverRow]
    defense: int = Field(description="Defense Factor against gunfire (7.2)")
    gun_value: int | None = Field(None, description="Gun Attack Value; none = no gun (7.2)")
    gun_hits: list[int] = Field(
        default_factory=list,
        description="Gun Combat Information Chart: hits for a difference of 1, 2, ...",
    )
    gun_ammunition: int | None = Field(None, ge=0)
    radar: int | None = Field(None, description="Radar Value; none = no radar (7.1.1b)")
    radar_locks: int = Field(1, ge=1, description="targets it may keep locked at once")
    missiles_per_impulse: int = Field(1, ge=1, description="7.1.2 note on the card")
    missiles: list[Missile] = Field(default_factory=list)
    afterburner_uses: int | None = Field(None, ge=0)
    max_damage: int = Field(ge=1, description="the white part of the damage track (8.0)")
    grey_damage: int = Field(ge=0, description="boxes in the grey part of the track (8.0)")
    notes: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Card:
        if self.gun_value is not None and (not self.gun_hits or self.gun_ammunition is None):
            raise ValueError("a gun needs gun_hits and gun_ammunition")
        if any(h < 0 for h in self.gun_hits):
            raise ValueError("gun_hits cannot be negative")
        ids = [m.id for m in self.missiles]
        if len(ids) != len(set(ids)):
            raise ValueError("missile ids must be different")
        if "straight" not in self.maneuvers:
            raise ValueError("every aircraft can fly straight (6.2.1)")
        if (self.afterburner_uses is None) != (self.speeds.afterburner == 0):
            raise ValueError("afterburner_uses and speeds.afterburner go together (6.5)")
        return self

    def missile(self, missile_id: str) -> Missile:
        for m in self.missiles:
            if m.id == missile_id:
                return m
        raise KeyError(missile_id)


class Details(_Model):
    """Per-aircraft settings for ``add_aircraft``: where it starts, what it carries, and its
    countermeasures (14.0: from era and country unless given)."""

    speed: int | None = Field(None, ge=1, le=MAX_SPEED, description="starting speed")
    altitude: int = Field(3, ge=0, description="starting altitude level")
    stores: bool = Field(False, description="air-to-ground ordnance or full tanks (11.0)")
    era: Era | None = Field(None, description="14.0 era for default countermeasures")
    country_group: CountryGroup | None = Field(None, description="14.0 country or group")
    radar_cm: int | None = Field(
        None, ge=0, title="Radar countermeasures", description="radar countermeasures (14.0)"
    )
    ir_cm: int | None = Field(
        None, ge=0, title="IR countermeasures", description="IR countermeasures (14.0)"
    )
    controller: bool = Field(False, description="side has a ground or airborne controller (4.0)")
    wingman: str | None = Field(None, description="the aircraft id of its wingman (13.2)")


def _row(era: Era | None, group: CountryGroup | None) -> tuple[int | str, int | str]:
    if era is None or group is None:
        raise ValueError("give radar_cm and ir_cm, or an era and country_group (14.0)")
    row = tables().countermeasures.eras[era].get(group)
    if row is None:
        raise ValueError(f"the 14.0 table for {era} has no {group}: give radar_cm and ir_cm")
    return row


def _pick(value: int | str, what: str, era: str, group: str) -> int:
    if not isinstance(value, int):
        raise ValueError(f"14.0 prints {value!r} as the {what} rating of {group} {era}: choose it")
    return value


def countermeasures(era: Era | None, group: CountryGroup | None) -> tuple[int, int]:
    """14.0: the recommended (radar, IR) countermeasures for an era and country/group."""
    radar, ir = _row(era, group)
    return _pick(radar, "radar", str(era), str(group)), _pick(ir, "IR", str(era), str(group))


def resolve_countermeasures(card: Card, details: Details) -> tuple[int, int]:
    """The aircraft's (radar, IR) countermeasures: given values, else the 14.0 defaults."""
    if details.radar_cm is not None and details.ir_cm is not None:
        return details.radar_cm, details.ir_cm
    era = details.era or card.era
    group = details.country_group or card.country_group
    radar, ir = _row(era, group)
    return (
        details.radar_cm
        if details.radar_cm is not None
        else _pick(radar, "radar", str(era), str(group)),
        details.ir_cm if details.ir_cm is not None else _pick(ir, "IR", str(era), str(group)),
    )


def catalogue() -> dict[str, Card]:
    """Shipped sample aircraft plus the umpire's own (``<user data>/aircraft/phantoms``)."""
    return load_catalogue(AIRCRAFT_DIR, Card, "phantoms")


def card_of(a: AircraftState) -> Card:
    """The aircraft's control card, typed (validated once per card value)."""
    return a.typed(Card, "card")
