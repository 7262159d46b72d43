"""The fire tables of Advanced Air Force (page 1 of the rules text), loaded from TOML.

``fire_tables.toml`` holds the two printed tables: total gun factors x range in hexes gives the
fire column, and a single d6 on that column of the result table gives the hit code.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.core.data import load_table

from .hits import parse_hit_code

RULESET_ID = "advanced_air_force"
FIRE_TABLES = Path(__file__).parent / "tables" / "fire_tables.toml"
RANGES = range(1, 7)
COLUMNS = range(-3, 20)


class GunFactorBand(BaseModel):
    """One row of the range table: ``low``-``high`` total gun factors (``high`` None: "29+")."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    low: int = Field(ge=1)
    high: int | None = None
    columns: tuple[int, int, int, int, int, int]

    @model_validator(mode="after")
    def _check(self) -> GunFactorBand:
        if self.high is not None and self.high < self.low:
            raise ValueError(f"band {self.low}-{self.high}: high is below low")
        bad = [c for c in self.columns if c not in COLUMNS]
        if bad:
            raise ValueError(f"band from {self.low}: fire columns {bad} are not -3 to 19")
        return self

    def holds(self, factors: int) -> bool:
        return self.low <= factors and (self.high is None or factors <= self.high)

    @property
    def label(self) -> str:
        return f"{self.low}+" if self.high is None else f"{self.low}-{self.high}"


class RangeTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rule: str
    note: str = ""
    bands: tuple[GunFactorBand, ...]

    @model_validator(mode="after")
    def _contiguous(self) -> RangeTable:
        expected = 1
        for i, band in enumerate(self.bands):
            if band.low != expected:
                raise ValueError(f"bands.{i}: starts at {band.low}, expected {expected}")
            if band.high is None:
                if i != len(self.bands) - 1:
                    raise ValueError(f"bands.{i}: only the last band may be open-ended")
                return self
            expected = band.high + 1
        raise ValueError("the last band must be open-ended (no high), like the printed 29+")


class ResultTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rule: str
    note: str = ""
    columns: dict[int, tuple[str, str, str, str, str, str]]

    @field_validator("columns")
    @classmethod
    def _codes(
        cls, value: dict[int, tuple[str, ...]]
    ) -> dict[int, tuple[str, str, str, str, str, str]]:
        if sorted(value) != list(COLUMNS):
            raise ValueError(f"columns must be exactly -3 to 19, got {sorted(value)}")
        for col, codes in value.items():
            for roll, code in enumerate(codes, start=1):
                try:
                    parse_hit_code(code)
                except ValueError as e:
                    raise ValueError(f"column {col}, roll {roll}: {e}") from None
        return value  # type: ignore[return-value]


class FireTables(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    range_table: RangeTable
    result_table: ResultTable

    def band(self, total_gun_factors: int) -> GunFactorBand:
        """The range table row holding these total gun factors."""
        if total_gun_factors < 1:
            raise ValueError(f"total gun factors {total_gun_factors}: the table starts at 1")
        return next(b for b in self.range_table.bands if b.holds(total_gun_factors))

    def fire_column(self, total_gun_factors: int, range_hexes: int) -> int:
        """The column in which fire is resolved (range table)."""
        if range_hexes not in RANGES:
            raise ValueError(f"range {range_hexes} hexes: the table covers 1 to 6 hexes")
        return self.band(total_gun_factors).columns[range_hexes - 1]

    def result(self, column: int, roll: int) -> str:
        """The hit code printed for ``roll`` (1-6) in ``column``."""
        if roll not in RANGES:
            raise ValueError(f"roll {roll}: a single d6 shows 1 to 6")
        return self.result_table.columns[column][roll - 1]


def load_fire_tables(path: Path = FIRE_TABLES) -> FireTables:
    """The fire tables with the umpire's overrides; ``DataFileError`` naming file and field."""
    return load_table(RULESET_ID, path, FireTables)
