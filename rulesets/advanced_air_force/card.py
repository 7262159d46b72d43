"""The Advanced Air Force data card: guns, silhouette, hit boxes, speeds, dive and climb data.

Altitudes and altitude rates are in feet (the rules write .1 for 100 ft); speeds are Speed
Points. The shipped aircraft in ``aircraft/`` are samples (``sample = true``): their numbers are
illustrative, not the published data cards; the umpire enters the real cards in the card editor.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.data import load_catalogue

from .hits import HIT_TYPES, EngineRule, Hemisphere

GunKind = Literal["FF", "FH", "FL", "F"]
Role = Literal["fighter", "bomber", "heavy_bomber", "other"]
AIRCRAFT_DIR = Path(__file__).with_name("aircraft")
FIXED_GUNS: frozenset[str] = frozenset({"FF", "FH", "FL"})


LimitSide = Literal["above", "below"]


@dataclass(frozen=True)
class LoadedLimit:
    """The altitude limitation of the Loaded condition (the colour-code box's last line)."""

    altitude_ft: int | None = None
    side: LimitSide = "above"
    both: bool = False

    def holds_at(self, altitude_ft: int) -> bool:
        """Whether the Loaded values the limitation covers apply at ``altitude_ft``."""
        if self.altitude_ft is None:
            return True
        if self.side == "above":
            return altitude_ft > self.altitude_ft
        return altitude_ft < self.altitude_ft


def loaded_speeds(
    clean: tuple[int, int],
    loaded: tuple[int | None, int | None],
    limit: LoadedLimit,
    altitude_ft: int,
) -> tuple[int, int]:
    """Special Data Card Note: "the altitude limitation of Loaded condition indicated in the
    last line of the box applies only to Stall Speed and not to Level Speed, unless the line
    begins with 'Both'". The (Stall Speed, Max. Level Sp.) of a Loaded aircraft: the Loaded
    Stall Speed where the limitation holds, else the clean one; the Loaded Max. Level Sp. at
    every altitude (only where the limitation holds with "Both"). A missing Loaded value is
    the clean one."""
    stall, level = clean
    loaded_stall, loaded_level = loaded
    here = limit.holds_at(altitude_ft)
    if loaded_stall is not None and here:
        stall = loaded_stall
    if loaded_level is not None and (here or not limit.both):
        level = loaded_level
    return stall, level


class GunStation(BaseModel):
    """One gun position: its kind (fixed "FF", "FH", "FL" or flexible "F"), factors and arc."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    position: str = Field(min_length=1)
    kind: GunKind
    factors: int = Field(ge=0, le=60)
    arc: str = Field(min_length=1, description="clock positions the guns bear on, e.g. 10-2")
    hemisphere: Hemisphere


class Card(BaseModel):
    """One aircraft type's data card."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1)
    sample: bool = False
    note: str = ""
    role: Role
    engines: int = Field(ge=1, le=8)
    #: rule 24's E-hit pattern; empty means by engine count (1 single, 2 twin, more: none)
    engine_rule: EngineRule | None = None
    silhouette_modifier: int = Field(ge=0, le=9)
    k14_sight: bool = False
    #: rule 15: rolls per Game-Turn to enter flexible fire (the text under the chart; 1 if none)
    flexible_rolls: int = Field(1, ge=1, le=3)
    guns: tuple[GunStation, ...] = ()
    hit_boxes: dict[str, int]
    ammunition: int | None = Field(None, ge=0)
    stall_speed: int = Field(ge=0, le=40)
    maneuver_speed: int | None = Field(None, ge=0, le=40)
    max_level_speed: int = Field(ge=1, le=40)
    max_dive_speed: int = Field(ge=1, le=50)
    power_factors: int = Field(ge=0, le=10)
    brake_factors: int = Field(ge=0, le=10)
    max_dive_ft: int = Field(ge=0, le=10000, description="black Max. Dive value")
    max_dive_red_ft: int | None = Field(None, ge=0, le=10000)
    dive_speed_climb_ft: int = Field(ge=0, le=10000, description="black Dive Sp. Climb value")
    max_climb_ft: int = Field(ge=0, le=10000)
    #: Movement Points of the V. Dive Maneuver Requirement; empty: no V. Dive (V. Dive rule 1)
    v_dive_requirement: int | None = Field(None, ge=0, le=10)
    #: the smallest Slip Maneuver Requirement, used to declare a V. Climb
    slip_requirement: int | None = Field(None, ge=0, le=10)
    #: rule 10's stall reduction does not apply to the Me-262A or Me-163B
    level_bank_stall_reduction: bool = True
    #: the Loaded condition of the Speed Increments Chart (none: the card has no Loaded line)
    loaded_stall_speed: int | None = Field(None, ge=0, le=40)
    loaded_max_level_speed: int | None = Field(None, ge=1, le=40)
    #: Special Data Card Note: the altitude limitation in the last line of the colour-code
    #: box (the Loaded values hold only above, or below, it); it limits the Stall Speed only,
    #: unless the line begins with "Both" (``loaded_limit_both``)
    loaded_altitude_limit_ft: int | None = Field(None, ge=0, le=60000)
    loaded_limit_side: LimitSide = "above"
    loaded_limit_both: bool = False

    @model_validator(mode="after")
    def _check(self) -> Card:
        if sorted(self.hit_boxes) != sorted(HIT_TYPES):
            raise ValueError(f"hit_boxes must give exactly the hit types {', '.join(HIT_TYPES)}")
        if any(v < 0 for v in self.hit_boxes.values()):
            raise ValueError("hit_boxes cannot be negative")
        if self.engine_rule in ("single_engine", "il_2", "p_47_group") and self.engines != 1:
            raise ValueError(f"engine_rule {self.engine_rule} is for single-engine aircraft")
        if self.engine_rule == "twin_engine" and self.engines != 2:
            raise ValueError("engine_rule twin_engine is for twin-engine aircraft")
        if self.max_dive_speed < self.max_level_speed:
            raise ValueError("max_dive_speed is below max_level_speed")
        if self.stall_speed >= self.max_level_speed:
            raise ValueError("stall_speed must be below max_level_speed")
        return self

    def loaded_speeds(self, altitude_ft: int) -> tuple[int, int]:
        """(Stall Speed, Max. Level Sp.) of this aircraft Loaded at ``altitude_ft``."""
        return loaded_speeds(
            (self.stall_speed, self.max_level_speed),
            (self.loaded_stall_speed, self.loaded_max_level_speed),
            LoadedLimit(
                self.loaded_altitude_limit_ft, self.loaded_limit_side, self.loaded_limit_both
            ),
            altitude_ft,
        )

    @property
    def e_hit_rule(self) -> EngineRule | None:
        """Rule 24's pattern for this aircraft."""
        if self.engine_rule is not None:
            return self.engine_rule
        return {1: "single_engine", 2: "twin_engine"}.get(self.engines)  # type: ignore[return-value]

    @property
    def is_fighter(self) -> bool:
        return self.role == "fighter"

    @property
    def multi_engine_bomber(self) -> bool:
        """Rule 23 applies to multi-engine bombers."""
        return self.role in ("bomber", "heavy_bomber") and self.engines >= 2

    @property
    def has_fixed_guns(self) -> bool:
        return any(g.kind in FIXED_GUNS and g.factors > 0 for g in self.guns)

    def flexible_factors(self, hemisphere: Hemisphere) -> int:
        return sum(g.factors for g in self.guns if g.kind == "F" and g.hemisphere == hemisphere)


def catalogue() -> dict[str, Card]:
    """The shipped sample cards plus the umpire's own."""
    return load_catalogue(AIRCRAFT_DIR, Card, "advanced_air_force")
