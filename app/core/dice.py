"""Dice at a real table: dice specs, exact distributions, and the two dice sources.

A ``DiceSpec`` names what is rolled (``d4``, ``d6``, ``d10``, ``3d6``, ``2d6``, ``2d5``).
Every procedure rolls through a ``DiceSource``: ``SeededDice`` (Airboss rolls, and each roll
is recorded so that a replay is identical) or ``TableDice`` (the umpire types the numbers the
players rolled; an impossible value is refused with a message naming the die and its purpose).

Exact odds come from icepool behind this module; nothing but plain ``Fraction`` leaves it.
icepool is imported at the first odds asked for, not when a game opens (issue 20).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from app.core.errors import RuleViolation

if TYPE_CHECKING:
    import icepool

__all__ = [
    "DiceError",
    "DiceSource",
    "DiceSpec",
    "Roll",
    "SeededDice",
    "TableDice",
    "distribution",
    "label_odds",
    "successes",
]


class DiceError(RuleViolation):
    """A typed die value that cannot be, or a roll with no value typed for it."""


@dataclass(frozen=True)
class DiceSpec:
    """``count`` dice, each showing ``low``..``high``, summed.

    ``zero_reads`` is the number a typed 0 stands for (the d10's "0" is read as 10).
    """

    count: int
    low: int
    high: int
    name: str
    zero_reads: int | None = None

    @classmethod
    def parse(cls, text: str) -> DiceSpec:
        """``d4``, ``d6``, ``d10``, ``nd6``, ``2d6``, ``2d5`` (Nth Fleet 1.2: two dice 0-5)."""
        m = re.fullmatch(r"(\d*)d(\d+)", text.strip().lower())
        if not m:
            raise ValueError(f"{text!r} is not a dice spec (d4, d6, d10, 2d6, 2d5 ...)")
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        if count < 1 or sides < 2:
            raise ValueError(f"{text!r} is not a dice spec: at least one die of two faces")
        name = f"{count if count > 1 else ''}d{sides}"
        if sides == 5:
            # Nth Fleet 1.2: "2d6-2 (referred to as 2d5), best implemented by two dice
            # marked zero through five" -- each die is a d6 read one lower.
            return cls(count, 0, 5, name)
        return cls(count, 1, sides, name, zero_reads=10 if sides == 10 else None)

    @property
    def faces(self) -> range:
        """The values one die of this spec can show."""
        return range(self.low, self.high + 1)

    def read(self, typed: int, purpose: str) -> int:
        """The face a typed number stands for, or ``DiceError`` naming die and purpose."""
        if isinstance(typed, bool) or not isinstance(typed, int):
            raise DiceError(f"{self.die_name} for {purpose}: {typed!r} is not a whole number")
        if typed == 0 and self.zero_reads is not None:
            return self.zero_reads
        if typed not in self.faces:
            extra = "; a 0 reads as 10" if self.zero_reads else ""
            raise DiceError(
                f"{self.die_name} for {purpose}: {typed} is not a face of a {self.die_name} "
                f"({self.low}-{self.high}{extra})"
            )
        return typed

    @property
    def die_name(self) -> str:
        """The name of one die of this spec (``d10``, ``d5``)."""
        return "d" + self.name.split("d", 1)[1]

    def die(self) -> icepool.Die:
        import icepool

        single = icepool.Die(list(self.faces))
        return self.count @ single if self.count > 1 else single

    def __str__(self) -> str:
        return self.name


def _spec(spec: DiceSpec | str) -> DiceSpec:
    return spec if isinstance(spec, DiceSpec) else DiceSpec.parse(spec)


def distribution(spec: DiceSpec | str) -> dict[int, Fraction]:
    """Exact probability of every total of ``spec``."""
    die = _spec(spec).die()
    return {int(o): Fraction(p) for o, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def successes(dice: int, spec: DiceSpec | str, hit: Callable[[int], bool]) -> dict[int, Fraction]:
    """Exact distribution of how many of ``dice`` single dice show a face with ``hit(face)``."""
    s = _spec(spec)
    if s.count != 1:
        raise ValueError("successes() counts single dice; pass the spec of one die")
    if dice <= 0:
        return {0: Fraction(1)}
    import icepool

    one = icepool.Die([1 if hit(f) else 0 for f in s.faces])
    die = dice @ one
    return {int(o): Fraction(p) for o, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def label_odds(dist: Mapping[int, Fraction], label: Callable[[int], str]) -> dict[str, Fraction]:
    """Merge a distribution of totals into outcome labels, keeping first-seen order."""
    out: dict[str, Fraction] = {}
    for total, p in dist.items():
        key = label(total)
        out[key] = out.get(key, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


@dataclass(frozen=True)
class Roll:
    """One roll: the spec, what it was for, and each die's face."""

    spec: str
    purpose: str
    dice: tuple[int, ...]
    typed: bool = False

    @property
    def total(self) -> int:
        return sum(self.dice)

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        return (
            f"{self.spec}={self.total}"
            if len(self.dice) == 1
            else f"{self.spec}={faces}={self.total}"
        )


class DiceSource(Protocol):
    """Where a procedure's dice come from. Every roll made is kept in ``rolls``."""

    rolls: list[Roll]

    def roll(self, spec: DiceSpec | str, purpose: str) -> Roll: ...


@dataclass
class SeededDice:
    """Airboss rolls, reproducibly from ``seed``; every roll is recorded."""

    seed: int | None = None
    rolls: list[Roll] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def roll(self, spec: DiceSpec | str, purpose: str) -> Roll:
        s = _spec(spec)
        r = Roll(s.name, purpose, tuple(self._rng.randint(s.low, s.high) for _ in range(s.count)))
        self.rolls.append(r)
        return r


@dataclass
class TableDice:
    """The numbers rolled at the table, one per die, in the order the procedure asks for them."""

    values: Sequence[int]
    rolls: list[Roll] = field(default_factory=list)
    #: the procedure asked for more dice than were typed (an initiative tie re-rolls, say)
    ran_out: bool = False
    #: the roll asked for when they ran out, as (spec, purpose): the desk asks for its dice
    wanted: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        self._next = 0

    def roll(self, spec: DiceSpec | str, purpose: str) -> Roll:
        s = _spec(spec)
        faces = []
        for i in range(s.count):
            which = f"{purpose} (die {i + 1} of {s.count})" if s.count > 1 else purpose
            if self._next >= len(self.values):
                self.ran_out = True
                self.wanted = (s.name, purpose)
                raise DiceError(
                    f"{s.die_name} for {which}: no value typed "
                    f"({len(self.values)} value(s) given, more dice are needed)"
                )
            faces.append(s.read(self.values[self._next], which))
            self._next += 1
        r = Roll(s.name, purpose, tuple(faces), typed=True)
        self.rolls.append(r)
        return r

    @property
    def unused(self) -> list[int]:
        """Typed values no roll has consumed."""
        return list(self.values[self._next :])
