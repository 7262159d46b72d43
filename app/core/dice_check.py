"""Dice at the table (issue 35): are the dice the players type fair?

Every typed roll (``"typed": true`` in a ``ProcedureResolved`` record) is taken apart into its
single dice, grouped by the die's label (``d6``, ``d10``; the two dice of ``2d5`` are two
``d5``, faces 0-5). Each group is a histogram against the fair die, with Pearson's
chi-square test of goodness of fit: the statistic is exact (a ``Fraction``), its p-value the
chi-square distribution's upper tail in closed form (Abramowitz and Stegun 26.4.4-5), so no
statistics library is needed. A die is flagged only when every face is expected at least
``MIN_EXPECTED`` times (the test's usual condition) and p < ``ALPHA``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.core.dice import DiceSpec
from app.core.events import ProcedureResolved
from app.core.log_index import Logged

__all__ = [
    "ALPHA",
    "MIN_EXPECTED",
    "DieCheck",
    "check_die",
    "chi_square",
    "chi_square_p",
    "dice_checks",
    "typed_faces",
]

#: a die is flagged below this p-value
ALPHA = 0.01
#: each face expected at least this many times before the test says anything
MIN_EXPECTED = 5


def chi_square(counts: Sequence[int]) -> Fraction:
    """Pearson's statistic of these face counts against a fair die: the sum over faces of
    (observed - expected)^2 / expected, each face expected n/k times."""
    n, k = sum(counts), len(counts)
    if n == 0:
        return Fraction(0)
    expected = Fraction(n, k)
    return sum(((c - expected) ** 2 / expected for c in counts), Fraction(0))


def chi_square_p(statistic: float, df: int) -> float:
    """The chance that a chi-square variable with ``df`` degrees of freedom is at least
    ``statistic`` (the test's p-value), in closed form for whole ``df``."""
    if df < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    x = float(statistic)
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:  # Q = e^(-x/2) * sum_{i < df/2} (x/2)^i / i!
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    # odd: Q = erfc(sqrt(x/2))
    #          + sqrt(2x/pi) e^(-x/2) * sum_{i=1}^{(df-1)/2} x^(i-1) / (1*3*...*(2i-1))
    term, total = 1.0, 0.0
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= x / (2 * i - 1)
        total += term
    return min(
        1.0, math.erfc(math.sqrt(half)) + math.sqrt(2 * x / math.pi) * math.exp(-half) * total
    )


@dataclass(frozen=True)
class DieCheck:
    """One die's typed faces against the fair die, and what the test says."""

    label: str
    faces: tuple[int, ...]
    counts: tuple[int, ...]
    statistic: Fraction
    p: float
    #: rolls the test needs before it says anything (every face expected ``MIN_EXPECTED`` times)
    needed: int

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def df(self) -> int:
        return len(self.faces) - 1

    @property
    def enough(self) -> bool:
        return self.rolls >= self.needed

    @property
    def flagged(self) -> bool:
        return self.enough and self.p < ALPHA

    @property
    def expected(self) -> Fraction:
        """How often each face is expected."""
        return Fraction(self.rolls, len(self.faces))

    def verdict(self) -> str:
        """What the panel says of the die."""
        if not self.enough:
            return (
                f"{self.label}: {self.rolls} typed, too few to judge: the test needs "
                f"{self.needed} ({MIN_EXPECTED} per face)"
            )
        stat = f"chi-square {float(self.statistic):.2f}, {self.df} df, p = {self.p:.3g}"
        if self.flagged:
            return f"{self.label}: looks unfair ({stat} < {ALPHA}) over {self.rolls} rolls"
        return f"{self.label}: no sign of bias ({stat}) over {self.rolls} rolls"


def check_die(label: str, faces: Sequence[int], rolled: Iterable[int]) -> DieCheck:
    """The test of one die: ``faces`` it can show, the faces ``rolled``."""
    tally = dict.fromkeys(faces, 0)
    for f in rolled:
        if f in tally:
            tally[f] += 1
    counts = tuple(tally[f] for f in faces)
    stat = chi_square(counts)
    p = chi_square_p(float(stat), len(faces) - 1) if sum(counts) else 1.0
    return DieCheck(label, tuple(faces), counts, stat, p, MIN_EXPECTED * len(faces))


def typed_faces(events: Iterable[Logged], undone: Iterable[int] = ()) -> dict[str, list[int]]:
    """Every typed single die of the rolls that count, by die label, in the order rolled."""
    gone = set(undone)
    out: dict[str, list[int]] = {}
    for env in events:
        ev = env.event
        if not isinstance(ev, ProcedureResolved) or env.action in gone:
            continue
        for roll in ev.rolls:
            if not roll.get("typed"):
                continue
            try:
                label = DiceSpec.parse(str(roll.get("spec", ""))).die_name
            except ValueError:
                continue
            out.setdefault(label, []).extend(int(d) for d in roll.get("dice", ()))
    return out


def dice_checks(faces_by_die: Mapping[str, Sequence[int]]) -> list[DieCheck]:
    """The test of every die label, in the order of their sides (d4, d6, d10 ...)."""
    out = []
    for label in sorted(faces_by_die, key=lambda s: int(s[1:]) if s[1:].isdigit() else 0):
        spec = DiceSpec.parse(label)
        out.append(check_die(label, list(spec.faces), faces_by_die[label]))
    return out
