"""Air Power's data tables: TOML beside the code, validated by pydantic, umpire values merged in.

Cells the rules text does not print hold ``"missing"``; ``app.core.data.cell`` turns a missing
cell into ``MissingTableValue`` naming table and cell when a procedure needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Annotated, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    field_validator,
)

from app.core.data import Missing, cell, load_table
from app.core.errors import MissingTableValue, RuleViolation
from rulesets.airpower.arcs import AngleOff, ArcRange

RULESET_ID = "airpower"
TABLE_DIR = Path(__file__).parent / "tables"

Cell = StrictInt | Missing
M = TypeVar("M", bound=BaseModel)

MODIFIERS = "Air-to-air gun and rocket modifiers"
ROCKETS = "Air-to-air rocket attacks"
GENIE = "Genie launch and scatter"
GUN_PODS = "Gun pod weapons"
FIELDS = "Fields of fire"
SSGT_CONVERSION = "1/3-2/3 conversion (SSGT, original wording)"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class VerticalAttack(_Strict):
    opposite: StrictInt
    against_level: StrictInt
    same: StrictInt


class Modifiers(_Strict):
    """The gun and rocket modifier table (rule "Air-to-Air Gun Combat: Die Roll Modifiers")."""

    rule: str
    snap_shot: StrictInt
    ssgt_per_third: StrictInt
    ssgt_limit: StrictInt
    cc_rocket: StrictInt
    rocket_damage_roll: StrictInt
    angle_off: dict[AngleOff, Cell]
    vertical_attack: VerticalAttack
    attacker_damage: dict[str, Cell] = Field(min_length=1)
    radar_ranging: dict[Annotated[str, Field(pattern="^(RE|CA|IG)$")], Cell]
    pilot_quality: dict[
        Annotated[str, Field(pattern="^(green|inexperienced|average|experienced|ace)$")], Cell
    ]

    def value(self, row: str, key: str, rule: str) -> int:
        """One cell as a number; ``MissingTableValue`` if it is still missing."""
        section: Mapping[str, Cell] = getattr(self, row)
        if key not in section:
            raise RuleViolation(f"{MODIFIERS}: no {row.replace('_', ' ')} entry {key!r}")
        return cell(section[key], MODIFIERS, f"{row.replace('_', ' ')} {key}", rule)


def _halves(v: Fraction) -> Fraction:
    """Rocket factors are counted in halves (a small pod is half a factor)."""
    if (v * 2).denominator != 1:
        raise ValueError(f"{v} rocket factors: factors are counted in halves")
    return v


RocketFactors = Annotated[Fraction, Field(ge=Fraction(1, 2)), AfterValidator(_halves)]


class RocketRow(_Strict):
    factors: RocketFactors
    hit: list[Cell] = Field(min_length=4, max_length=4)
    attack_rating: Cell


class RocketTable(_Strict):
    """Hit die roll by range 1-4 and attack rating by factors fired (rule "Air-to-Air Rocket
    Combat: Rocket Attack Procedure")."""

    rule: str
    rows: list[RocketRow] = Field(min_length=1)

    def row(self, factors: Fraction) -> RocketRow:
        for r in self.rows:
            if r.factors == factors:
                return r
        known = ", ".join(str(r.factors) for r in self.rows)
        raise RuleViolation(f"{ROCKETS}: no row for {factors} rocket factors (rows: {known})")


class GenieTable(_Strict):
    """The Genie's launch number (rule "Genie Launch") and the scatter direction by the first
    d10 roll (rule "Genie Scatter"), in degrees counter-clockwise from the Genie's facing."""

    rule: str
    launch_number: Cell
    #: the FPs of the Genie's flight each game turn (rule "Genie Flight")
    fps: Cell = "missing"
    direction: dict[Annotated[str, Field(pattern="^([1-9]|10)$")], Cell]


class GunPod(_Strict):
    hit_numbers: list[Cell] = Field(min_length=2, max_length=3)
    attack_rating: Cell
    ammunition: Cell


class GunPodTable(_Strict):
    """Gun pods (Table "stores-GP", referred to but not printed)."""

    rule: str
    pods: dict[str, GunPod]


class Fields(_Strict):
    """Arc ranges the text shows only in figures: the gun field of fire (Figure "air-to-air gun
    attacks") and the limited radar arc used for rockets (Figure "limited arcs"), as arc ranges
    of the attacker (``150+`` is the 150 and 180 arcs)."""

    rule: str
    gun_field_of_fire: str
    limited_radar_arc: str

    @field_validator("gun_field_of_fire", "limited_radar_arc")
    @classmethod
    def _arc_range(cls, v: str) -> str:
        if v != "missing":
            ArcRange.parse(v)
        return v


class ThirdsTable(_Strict):
    """The 1/3-2/3 conversion table (original wording, rule "Steady State Gunsight Tracking"):
    for each start speed, the FPs that make one third and two thirds of it."""

    rule: str
    fps: dict[str, Annotated[list[Cell], Field(min_length=2, max_length=2)]]

    def thirds(self, speed: float, fps: int) -> int:
        """How many thirds of ``speed`` the ``fps`` FPs make (0, 1 or 2)."""
        key = f"{speed:g}"
        if key not in self.fps:
            known = ", ".join(self.fps)
            raise RuleViolation(
                f"{SSGT_CONVERSION}: no row for speed {key} (rows: {known}); add it in the "
                "Tables editor"
            )
        one, two = (
            cell(v, SSGT_CONVERSION, f"speed {key}, {what}", self.rule)
            for v, what in zip(self.fps[key], ("1/3", "2/3"), strict=True)
        )
        return 2 if fps >= two else 1 if fps >= one else 0


DAMAGE = "Aircraft damage"
#: the modified damage rolls the damage table has a row for (rockets: d10 - 2)
DAMAGE_ROLLS = tuple(range(-1, 11))


def _as_printed(value: object) -> object:
    """A damage result typed as a number (``2``, not ``"2"``) is the result as printed."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class DamageOutcomes(_Strict):
    """What the results mean, where the text does not say: those that take an aircraft out of
    the fight (issue 45)."""

    rule: str
    out_of_the_fight: list[Annotated[str, BeforeValidator(_as_printed)]] | Missing = "missing"


class DamageTable(_Strict):
    """Result by attack rating and modified d10 damage roll -1 ... 10 (rule "Aircraft Damage
    Resolution", not printed in this text); ``"-"`` is no effect."""

    rule: str
    results: dict[
        Annotated[str, Field(pattern=r"^\d+$")],
        Annotated[
            list[Annotated[str, BeforeValidator(_as_printed)]],
            Field(min_length=len(DAMAGE_ROLLS), max_length=len(DAMAGE_ROLLS)),
        ],
    ]
    #: the results that take an aircraft out of the fight (for the chain odds, issue 45)
    outcomes: DamageOutcomes = Field(default_factory=lambda: DamageOutcomes(rule=""))

    @property
    def out_of_the_fight(self) -> list[str] | Missing:
        return self.outcomes.out_of_the_fight

    def result(self, rating: int, roll: int, rule: str) -> str:
        if str(rating) not in self.results:
            known = ", ".join(self.results)
            raise RuleViolation(f"{DAMAGE}: no column for attack rating {rating} ({known})")
        if roll not in DAMAGE_ROLLS:
            raise RuleViolation(f"{DAMAGE}: a modified damage roll of {roll} is off the table")
        value = self.results[str(rating)][DAMAGE_ROLLS.index(roll)]
        if value == "missing":
            raise MissingTableValue(DAMAGE, f"attack rating {rating}, roll {roll}", rule)
        return value


def _load(name: str, model: type[M]) -> M:
    """The one loader: ``tables/<name>.toml`` with the umpire's values merged in, validated and
    cached by ``app.core.data.load_table`` (until either file changes)."""
    return load_table(RULESET_ID, TABLE_DIR / f"{name}.toml", model)


def table_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(TABLE_DIR.glob("*.toml"))}


def damage_table() -> DamageTable:
    return _load("aircraft_damage", DamageTable)


def modifiers() -> Modifiers:
    return _load("modifiers", Modifiers)


def rocket_table() -> RocketTable:
    return _load("rockets", RocketTable)


def genie_table() -> GenieTable:
    return _load("genie", GenieTable)


def gun_pods() -> GunPodTable:
    return _load("gun_pods", GunPodTable)


def fields() -> Fields:
    return _load("fields", Fields)


def ssgt_conversion() -> ThirdsTable:
    return _load("ssgt_conversion", ThirdsTable)


def angle_off_modifiers() -> dict[AngleOff, int | str]:
    """The angle-off rows of the modifier table (with the umpire's values)."""
    return dict(modifiers().angle_off)
