"""Dice at a real table: dice specs, exact distributions, and the two dice sources.

A ``DiceSpec`` names what is rolled (``d4``, ``d6``, ``d10``, ``3d6``, ``2d6``, ``2d5``).
Every procedure rolls through a ``DiceSource``: ``SeededDice`` (Airboss rolls, and each roll
is recorded so that a replay is identical) or ``TableDice`` (the umpire types the numbers the
players rolled; an impossible value is refused with a message naming the die and its purpose).

Exact odds come from icepool behind this module; nothing but plain ``Fraction`` leaves it.
icepool is imported at the first odds asked for, not when a game opens (issue 20).

Pool queries (issue 32) read many dice as one value: ``count_at_least`` (how many of N dice
show at least k), ``sum_of`` (the sum of N rolls, each read through a table), ``reroll_until``
(a round of rolls rolled again until it decides) and ``read_pool`` (several rolls read
together, an initiative order say). With the real dice each die is rolled (and typed) as
usual; when the odds are worked out (``Procedure.odds`` walks ``decide``) the source is a
``Branching`` one, and the query branches once over the distribution of its value, worked out
by icepool, instead of over every face of every die.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import lcm
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from app.core.errors import RuleViolation

if TYPE_CHECKING:
    import icepool

__all__ = [
    "Branching",
    "DiceError",
    "DiceSource",
    "DiceSpec",
    "Pooled",
    "Roll",
    "SeededDice",
    "TableDice",
    "count_at_least",
    "distribution",
    "faces_of",
    "label_odds",
    "read_pool",
    "reroll_until",
    "successes",
    "sum_of",
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
    """The spec itself, or the one its text names: parsed once per text (a ``DiceSpec`` is
    frozen; issue 44: every roll parsed it again)."""
    if isinstance(spec, DiceSpec):
        return spec
    parsed = _PARSED.get(spec)
    if parsed is None:
        parsed = DiceSpec.parse(spec)
        if len(_PARSED) < 256:
            _PARSED[spec] = parsed
    return parsed


#: dice texts already parsed (``_spec``), bounded
_PARSED: dict[str, DiceSpec] = {}


def distribution(spec: DiceSpec | str) -> dict[int, Fraction]:
    """Exact probability of every total of ``spec``: each face alike for one die (icepool,
    a tenth of a second to import, is left for sums and pools: a dry run for one die's roll
    needs none, issue 36)."""
    s = _spec(spec)
    if s.count == 1:
        return dict.fromkeys(s.faces, Fraction(1, len(s.faces)))
    die = s.die()
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
    #: a round of rolls is being rolled again (``reroll_until``): the round before decided
    #: nothing
    rerolling: bool = False

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


# -- pool queries (issue 32) -------------------------------------------------------------------

H = TypeVar("H", bound=Hashable)


@runtime_checkable
class Branching(Protocol):
    """A dice source that works out odds: a pool query asks it to branch over the exact
    distribution of its value (``outcomes()``: (value, ways) pairs and the ways in all, worked
    out when the walk needs them) and is given the value of the branch being walked.
    ``rolls`` are the (spec, purpose) the query stands for (the dice the table rolls)."""

    rolls: list[Roll]

    def roll(self, spec: DiceSpec | str, purpose: str) -> Roll: ...

    def branch(
        self,
        rolls: tuple[tuple[str, str], ...],
        outcomes: Callable[[], tuple[tuple[tuple[Any, int], ...], int]],
    ) -> Any: ...


@dataclass(frozen=True)
class Pooled:
    """A pool query's value and the rolls made for it (none when the odds are worked out: a
    decision reads the value, and shows the rolls only in its narrative)."""

    value: Any
    rolls: tuple[Roll, ...] = ()


def _ways(die: icepool.Die) -> tuple[tuple[tuple[Any, int], ...], int]:
    """A die's outcomes as whole numbers of ways out of a common denominator."""
    probs = [Fraction(p) for p in die.probabilities()]
    den = lcm(*(p.denominator for p in probs)) if probs else 1
    outs = tuple((o, int(p * den)) for o, p in zip(die.outcomes(), probs, strict=True) if p)
    return outs, den


def _rolled(spec: str, purpose: str) -> tuple[tuple[str, str], ...]:
    return ((_spec(spec).name, purpose),)


def count_at_least(dice: DiceSource, n: int, die: str, k: int, purpose: str) -> Pooled:
    """How many of ``n`` dice ``die`` show ``k`` or more (a hit on each 5 or 6): one roll of
    ``n`` dice (``"4d6"``), its faces kept; exact odds by icepool, ``n`` of them binomial."""
    one = _spec(die)
    if one.count != 1:
        raise ValueError("count_at_least() counts single dice; pass the spec of one die")
    if n <= 0:
        return Pooled(0)
    spec = f"{n}d{one.die_name[1:]}"
    if isinstance(dice, Branching):
        import icepool

        hit = [1 if f >= k else 0 for f in one.faces]
        return Pooled(dice.branch(_rolled(spec, purpose), lambda: _ways(n @ icepool.Die(hit))))
    r = dice.roll(spec, purpose)
    return Pooled(sum(1 for f in r.dice if f >= k), (r,))


def _itself(total: int) -> int:
    return total


def sum_of(
    dice: DiceSource,
    rolls: Sequence[tuple[str, str]],
    read: Sequence[Callable[[int], int]] | None = None,
) -> Pooled:
    """The sum of several rolls (``(spec, purpose)`` each), each total read through its own
    function first (a table's column, say; none: the total itself). With the real dice each
    roll is rolled as usual; the odds are the convolution of the readings, by icepool. A
    reading may raise (a table cell not printed): the odds then raise it too."""
    readers = list(read) if read is not None else [_itself] * len(rolls)
    if len(readers) != len(rolls):
        raise ValueError("one reading per roll")
    if isinstance(dice, Branching):
        import icepool

        def convolved() -> tuple[tuple[tuple[Any, int], ...], int]:
            total = icepool.Die([0])
            for (spec, _), reader in zip(rolls, readers, strict=True):
                total = total + _spec(spec).die().map(reader)
            return _ways(total)

        named = tuple((_spec(s).name, p) for s, p in rolls)
        return Pooled(dice.branch(named, convolved))
    made = tuple(dice.roll(spec, purpose) for spec, purpose in rolls)
    return Pooled(sum(f(r.total) for r, f in zip(made, readers, strict=True)), made)


#: the most rounds ``reroll_until`` rolls at the table before it says the dice never decide
MOST_ROUNDS = 50


def reroll_until(
    dice: DiceSource,
    rolls: Sequence[tuple[str, str]],
    decided: Callable[[tuple[int, ...]], bool],
) -> Pooled:
    """A round of rolls (``(spec, purpose)`` each) rolled again from the start until
    ``decided(totals)`` (a tie re-rolled). The value is the number of rounds rolled again, the
    rolls those of the round that decided. Every round is the same roll afresh, so the odds
    are one round's conditioned on deciding (icepool's re-roll, without end); at the table each
    round's dice are rolled (typed) in turn."""
    specs = [_spec(s) for s, _ in rolls]
    if isinstance(dice, Branching):
        import icepool

        def decisive() -> tuple[tuple[tuple[Any, int], ...], int]:
            joint = icepool.tupleize(*(s.die() for s in specs))
            kept = joint.reroll(lambda t: not decided(tuple(t)), star=False, depth="inf")
            if kept.is_empty():
                raise RuleViolation("no round of these rolls can decide: the re-rolls never end")
            return _ways(kept)

        named = tuple((s.name, p) for s, (_, p) in zip(specs, rolls, strict=True))
        totals = dice.branch(named, decisive)
        made = tuple(
            Roll(s.name, p, faces_of(s, t))
            for s, (_, p), t in zip(specs, rolls, totals, strict=True)
        )
        return Pooled(0, made)
    for n in range(MOST_ROUNDS):
        if n and isinstance(dice, TableDice):
            dice.rerolling = True
        made = tuple(dice.roll(s, p) for s, (_, p) in zip(specs, rolls, strict=True))
        if decided(tuple(r.total for r in made)):
            return Pooled(n, made)
    raise DiceError(f"{MOST_ROUNDS} rounds of {rolls[0][1]} decided nothing")


#: the most joint outcomes ``read_pool`` reads for exact odds (six d6)
READ_POOL_LIMIT = 6**6


def read_pool(
    dice: DiceSource,
    rolls: Sequence[tuple[str, str]],
    read: Callable[[tuple[int, ...]], H],
) -> Pooled:
    """Several rolls read together as one value (``read(totals)``: an initiative order from
    one die per plane). The odds come from icepool's joint distribution of the rolls, read
    once per joint outcome, so a decision that reads the value runs once per distinct value,
    not once per sequence of faces; it is given the rolls of one joint outcome with that
    value (its events and narrative then read as at the table)."""
    specs = tuple(_spec(s) for s, _ in rolls)
    if isinstance(dice, Branching):
        size = 1
        for s in specs:
            size *= s.high - s.low + 1 if s.count == 1 else len(distribution(s))
        if size > READ_POOL_LIMIT:
            raise RuleViolation(
                f"{len(specs)} rolls read together have {size:,} joint outcomes, more than the "
                f"{READ_POOL_LIMIT:,} exact odds read; roll or type the dice to resolve it"
            )

        def readings() -> tuple[tuple[tuple[Any, int], ...], int]:
            # each branch is (value, the totals of its first joint outcome): the decision is
            # given rolls that show its value
            ways: dict[H, int] = {}
            first: dict[H, tuple[int, ...]] = {}
            joint = _joint(tuple(s.name for s in specs))
            for totals, n in zip(joint.outcomes(), joint.quantities(), strict=True):
                value = read(tuple(totals))
                ways[value] = ways.get(value, 0) + n
                first.setdefault(value, tuple(totals))
            return tuple(((v, first[v]), w) for v, w in ways.items()), joint.denominator()

        named = tuple((s.name, p) for s, (_, p) in zip(specs, rolls, strict=True))
        chosen, shown = dice.branch(named, readings)
        made = tuple(
            Roll(s.name, p, faces_of(s, t))
            for s, (_, p), t in zip(specs, rolls, shown, strict=True)
        )
        return Pooled(chosen, made)
    made = tuple(dice.roll(spec, purpose) for spec, purpose in rolls)
    return Pooled(read(tuple(r.total for r in made)), made)


@cache
def _joint(names: tuple[str, ...]) -> icepool.Die:
    """The joint distribution of one roll of each spec (a die of tuples of totals), kept."""
    import icepool

    return icepool.tupleize(*(_spec(n).die() for n in names))


def faces_of(spec: DiceSpec, total: int) -> tuple[int, ...]:
    """Faces of ``spec`` that add up to ``total`` (the lowest first die that can): the dice a
    walked roll or pool shows for a total."""
    faces, rest = [], total
    for i in range(spec.count):
        face = max(spec.low, min(spec.high, rest - (spec.count - i - 1) * spec.low))
        faces.append(face)
        rest -= face
    return tuple(faces)
