"""The air combat tables as data: attack table (2.9), Defence Value Table (2.8), exceptions (2.6).

The rules text prints almost none of these numbers; the TOML files beside this module hold what
it does print and mark the rest ``"missing"``. ``app.core.data.load_table`` is the one cached
loader: it merges the umpire's values on top (the override named after the shipped file's stem,
which is what the Tables editor saves, issue 14) and keeps the table until either file changes
or a value is saved, so the next procedure reads the new value and odds never re-read TOML.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.core.data import cell, load_table
from app.core.errors import MissingTableValue

RULESET_ID = "nth_fleet"
TABLE_DIR = Path(__file__).parent / "tables"
ATTACK_TABLE = TABLE_DIR / "air_to_air_attack.toml"
DEFENCE_TABLE = TABLE_DIR / "defence_values.toml"
EXCEPTIONS = TABLE_DIR / "attack_values.toml"

Cell = Annotated[int, Field(ge=0)] | Literal["missing"]


class AttackTable(BaseModel):
    """Nth Fleet 2.9: damage points by column (attack value) and modified 2d5 roll."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    title: str
    rule: str
    columns: list[Annotated[int, Field(ge=1)]] = Field(min_length=1)
    lower_columns: list[Annotated[int, Field(ge=1)]] | Literal["missing"]
    rows: list[int] = Field(min_length=1)
    cells: dict[str, dict[str, Cell]]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.columns != sorted(set(self.columns)):
            raise ValueError("columns must be distinct and ascending")
        if self.rows != list(range(self.rows[0], self.rows[0] + len(self.rows))):
            raise ValueError("rows must be consecutive modified rolls, ascending")
        if isinstance(self.lower_columns, list):
            if self.lower_columns != sorted(set(self.lower_columns)):
                raise ValueError("lower_columns must be distinct and ascending")
            if self.lower_columns and self.lower_columns[-1] >= self.columns[0]:
                raise ValueError(f"lower_columns must all be below {self.columns[0]}")
        known = {str(c) for c in self.all_columns}
        for col, by_roll in self.cells.items():
            if col not in known:
                raise ValueError(f"cells.{col}: {col} is not a column of the table")
            for roll in by_roll:
                if not re.fullmatch(r"-?\d+", roll) or int(roll) not in self.rows:
                    raise ValueError(f"cells.{col}.{roll}: not one of the rows {self.rows}")
        return self

    @property
    def all_columns(self) -> list[int]:
        low = self.lower_columns if isinstance(self.lower_columns, list) else []
        return [*low, *self.columns]

    def column_for(self, total: int) -> int | None:
        """Nth Fleet 2.9: ``total`` rounded down to a column (None: below the first column)."""
        if total >= self.columns[0]:
            return max(c for c in self.columns if c <= total)
        if self.lower_columns == "missing":
            raise MissingTableValue(
                self.title, f"the column headings below {self.columns[0]}", self.rule
            )
        fitting = [c for c in self.lower_columns if c <= total]
        return max(fitting) if fitting else None

    def split(self, total: int) -> list[int]:
        """Nth Fleet 2.9: the columns a total attack value is rolled on, smallest first.

        Above the last column the attack is split: one roll on the last column per full
        last-column amount, the remainder rounded down to its own column (90 -> 40 + 50).
        """
        if total < 0:
            raise ValueError("an attack value total cannot be negative")
        last = self.columns[-1]
        out: list[int] = []
        remainder = total
        while remainder > last:
            out.append(last)
            remainder -= last
        col = self.column_for(remainder) if remainder > 0 else None
        if col is not None:
            out.append(col)
        return sorted(out)

    def row_for(self, modified_roll: int) -> int:
        """The printed row a modified roll is read on (beyond the first or last: that row)."""
        return min(max(modified_roll, self.rows[0]), self.rows[-1])

    def damage(self, column: int, modified_roll: int, below_no_damage: bool = False) -> int:
        """Nth Fleet 2.9: the damage points on ``column`` for a modified 2d5 roll.

        A modified roll off the printed rows is read on the nearest row; with
        ``below_no_damage`` (variant ``below_table_no_damage``) one below the first row
        inflicts nothing instead.
        """
        if below_no_damage and modified_roll < self.rows[0]:
            return 0
        row = self.row_for(modified_roll)
        value = self.cells.get(str(column), {}).get(str(row), "missing")
        return cell(value, self.title, f"column {column}, roll {row}", self.rule)


class DefenceTable(BaseModel):
    """Nth Fleet 2.8 (Table 1): the defence value of each aircraft type."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    title: str
    rule: str
    values: dict[str, Annotated[int, Field(ge=1)] | Literal["missing"]]

    def defence(self, type_id: str, name: str) -> int:
        """The defence value of a type, or ``MissingTableValue`` naming it."""
        value = self.values.get(type_id, "missing")
        return cell(value, self.title, f"{name} ({type_id})", self.rule)


class AttackExceptions(BaseModel):
    """Nth Fleet 2.6: fighters whose attack value is not their printed air-air strength."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    title: str
    rule: str
    exceptions: dict[str, Annotated[int, Field(ge=0)]]

    def for_name(self, name: str) -> int | None:
        key = _normal(name)
        return next((v for k, v in self.exceptions.items() if _normal(k) == key), None)


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def attack_table() -> AttackTable:
    return load_table(RULESET_ID, ATTACK_TABLE, AttackTable)


def defence_table() -> DefenceTable:
    return load_table(RULESET_ID, DEFENCE_TABLE, DefenceTable)


def attack_exceptions() -> AttackExceptions:
    return load_table(RULESET_ID, EXCEPTIONS, AttackExceptions)


TABLE_FILES: dict[str, Path] = {
    "Air-to-air attack table (2.9)": ATTACK_TABLE,
    "Defence Value Table (2.8)": DEFENCE_TABLE,
    "Attack value exceptions (2.6)": EXCEPTIONS,
}
