"""The Phantoms tables (tables.toml, positions.toml), validated by pydantic at load.

The umpire's overrides (Tables editor) are merged in by ``app.core.data.load_table``; a loaded
table is kept until its override file changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.core.data import Missing, cell, load_table

#: the die every Phantoms table is read with
D10 = "d10"

HERE = Path(__file__).parent
TABLES_FILE = HERE / "tables" / "tables.toml"
POSITIONS_FILE = HERE / "tables" / "positions.toml"
RULESET_ID = "phantoms"

Pilot = Literal["green", "inexperienced", "average", "experienced", "ace"]
PILOTS: tuple[Pilot, ...] = ("green", "inexperienced", "average", "experienced", "ace")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    #: the printed title the Tables editor heads a table with (issue 47)
    title: str | None = None


class PilotTable(_Strict):
    """Modifiers by pilot quality for each roll (12.0); ``control_*``/``recovery``: safe 1-N."""

    rule: str
    gun_attack: dict[Pilot, int]
    gun_defense: dict[Pilot, int]
    missile_defense: dict[Pilot, int]
    radar: dict[Pilot, int]
    visual: dict[Pilot, int]
    fire: dict[Pilot, int]
    break_off: dict[Pilot, int]
    control_hard_turn: dict[Pilot, int]
    control_loop: dict[Pilot, int]
    control_speed: dict[Pilot, int]
    recovery: dict[Pilot, int]

    @model_validator(mode="after")
    def _complete(self) -> PilotTable:
        for name in (
            "gun_attack",
            "gun_defense",
            "missile_defense",
            "radar",
            "visual",
            "fire",
            "break_off",
            "control_speed",
            "recovery",
        ):
            missing = [p for p in PILOTS if p not in getattr(self, name)]
            if missing:
                raise ValueError(f"{name} lacks {', '.join(missing)}")
        return self


class InitiativeTable(_Strict):
    rule: str
    ace: int
    loaded: int
    only_green_or_inexperienced: int
    controller: int


class ImpulseChart(_Strict):
    """6.0 Movement Impulse Chart: impulse (1-10) -> speeds that move."""

    rule: str
    speeds: dict[int, list[int]]

    @field_validator("speeds")
    @classmethod
    def _ten(cls, v: dict[int, list[int]]) -> dict[int, list[int]]:
        if sorted(v) != list(range(1, 11)):
            raise ValueError("the chart has exactly the impulses 1 to 10")
        for imp, speeds in v.items():
            if any(not 1 <= s <= 10 for s in speeds):
                raise ValueError(f"impulse {imp}: speeds run 1 to 10")
        return v


class CriticalRow(_Strict):
    rolls: list[int]
    id: Literal["minor", "pilot_wounded", "structural", "engine", "fire", "major"]
    title: str
    text: str


class CriticalTable(_Strict):
    rule: str
    rows: list[CriticalRow]

    @model_validator(mode="after")
    def _covers_d10(self) -> CriticalTable:
        rolls = sorted(r for row in self.rows for r in row.rolls)
        if rolls != list(range(1, 11)):
            raise ValueError("the rows must cover each d10 face 1-10 exactly once")
        return self

    def row(self, roll: int) -> CriticalRow:
        return next(r for r in self.rows if roll in r.rolls)


class EjectionTable(_Strict):
    rule: str
    safe_at_least: int
    wounded: int
    on_fire: int
    major_damage: int
    structural_breakup: int


class FireTable(_Strict):
    rule: str
    out_above: int
    critical_at_most: int
    speed_above_7: int
    speed_6_7: int
    speed_4_5: int
    dove: int


class GunTable(_Strict):
    rule: str
    unspotted: int
    different_altitude: int
    target_spinning: int
    own_hard_turn_or_loop: int
    own_turn_or_sideslip: int
    wounded: int


class MissileTable(_Strict):
    rule: str
    afterburner: int
    unspotted: int
    hard_turn_or_loop: int
    altitude_0: int
    broke_contact: int
    radar_speed: int = Field(ge=1)
    radar_front: int
    radar_side: int
    radar_rear: int


class RadarLockTable(_Strict):
    rule: str
    target_higher: int
    target_lower: int
    target_altitude_0: int
    long_range: int
    long_range_from: int


class BreakOffTable(_Strict):
    rule: str
    text_turns: list[int] = Field(min_length=1)
    chart_turns: list[int] = Field(min_length=1)
    unspotted: int


class VisualTable(_Strict):
    rule: str
    max_range: int
    radar_spot_or_controller: int
    all_round_canopy: int
    target_large: int
    two_crew: int
    target_altitude_0: int
    target_small: int
    wingmen_range: int


Era = Literal["before 1960", "1960-1969", "1970-1979", "1980-1989", "1990 on"]
CountryGroup = Literal["US", "Russia", "NATO", "Warsaw Pact", "2nd World", "3rd World"]


class CountermeasuresTable(_Strict):
    """14.0: [radar, IR] ratings by era and country/group; a printed "2 or 3" stays a string."""

    rule: str
    eras: dict[Era, dict[CountryGroup, tuple[int | str, int | str]]]


class Tables(_Strict):
    #: the file's printed title (the Tables editor lists it by this)
    title: str = "Charts (pages 1 to 3)"
    pilot: PilotTable
    initiative: InitiativeTable
    impulse_chart: ImpulseChart
    critical: CriticalTable
    ejection: EjectionTable
    fire: FireTable
    gun: GunTable
    missile: MissileTable
    radar_lock: RadarLockTable
    break_off: BreakOffTable
    visual: VisualTable
    countermeasures: CountermeasuresTable


class PositionChart(_Strict):
    """A firing-position chart the text names but does not print: position -> modifier."""

    rule: str
    title: str
    cells: dict[str, int | Missing]


class RadarCone(_Strict):
    """7.1.1b: the radar cone's full width in degrees, centred on the facing (not printed)."""

    rule: str
    title: str
    width_degrees: Annotated[int, Field(gt=0, le=360)] | Missing


class Positions(_Strict):
    #: the file's printed title (the Tables editor lists it by this)
    title: str = "Position Modifiers for Gunfire and Heat-Seeking Missile Charts"
    radar_cone: RadarCone
    gun: PositionChart
    heat_narrow: PositionChart
    heat_wide: PositionChart
    heat_all: PositionChart

    def modifier(self, chart: str, position: str) -> int:
        """The chart's number for a position; ``MissingTableValue`` while it is not filled."""
        table: PositionChart = getattr(self, chart)
        if position not in table.cells:
            raise KeyError(f"{table.title} has no position {position!r}")
        return cell(table.cells[position], table.title, position, table.rule)


def tables() -> Tables:
    """The rules tables with the umpire's overrides."""
    return load_table(RULESET_ID, TABLES_FILE, Tables)


def positions() -> Positions:
    """The firing-position charts with the umpire's filled-in cells."""
    return load_table(RULESET_ID, POSITIONS_FILE, Positions)
