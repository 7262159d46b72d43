"""Dice at the table (issue 35): are the dice the players type fair?

Every typed roll (``"typed": true`` in a ``ProcedureResolved`` record) is taken apart into its
single dice, grouped by the die's label (``d6``, ``d10``; the two dice of ``2d5`` are two
``d5``, faces 0-5) and by the physical die or player that rolled it, where the umpire named
them: a ``DiceSet`` record says that from then on a side's rolls (or one aircraft's, a
player's; or the rolls no aircraft makes) are rolled with "the red d10s" or by "Anna", so a
roll typed after it is counted for those dice (a roll's side is its aircraft's: the attacker,
or the one aircraft it names; a roll typed before any naming stays with the die's label alone).
Each group is a histogram against the fair die, with Pearson's
chi-square test of goodness of fit: the statistic is exact (a ``Fraction``), its p-value the
chi-square distribution's upper tail in closed form (Abramowitz and Stegun 26.4.4-5), so no
statistics library is needed. A die is flagged only when every face is expected at least
``MIN_EXPECTED`` times (the test's usual condition) and p < ``ALPHA``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from app.core.after_action import undone_actions
from app.core.dice import DiceSpec
from app.core.events import AircraftAdded, AircraftChanged, DiceSet, ProcedureResolved
from app.core.log_index import Logged

__all__ = [
    "ALPHA",
    "MIN_EXPECTED",
    "NO_AIRCRAFT",
    "DieCheck",
    "TypedDice",
    "check_die",
    "chi_square",
    "chi_square_p",
    "dice_checks",
    "read_typed_dice",
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

    #: the kind of die ("d10")
    die: str
    faces: tuple[int, ...]
    counts: tuple[int, ...]
    statistic: Fraction
    p: float
    #: rolls the test needs before it says anything (every face expected ``MIN_EXPECTED`` times)
    needed: int
    #: the physical die or player that rolled them ("the red d10s"; "": not named)
    dice: str = ""

    @property
    def label(self) -> str:
        """ "d10", or "d10, the red d10s" for the dice the umpire named."""
        return f"{self.die}, {self.dice}" if self.dice else self.die

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


def check_die(die: str, faces: Sequence[int], rolled: Iterable[int], dice: str = "") -> DieCheck:
    """The test of one die: ``faces`` it can show, the faces ``rolled`` (by ``dice``)."""
    tally = dict.fromkeys(faces, 0)
    for f in rolled:
        if f in tally:
            tally[f] += 1
    counts = tuple(tally[f] for f in faces)
    stat = chi_square(counts)
    p = chi_square_p(float(stat), len(faces) - 1) if sum(counts) else 1.0
    return DieCheck(die, tuple(faces), counts, stat, p, MIN_EXPECTED * len(faces), dice)


#: who rolls the dice of a roll no aircraft makes (initiative, the umpire's what-ifs)
NO_AIRCRAFT = "Rolls of no aircraft"

#: a group of typed dice: the kind of die and the dice that rolled them ("" not named)
Group = tuple[str, str]


@dataclass
class TypedDice:
    """The typed dice of a log, by group, and the dice named at the table at its end."""

    #: (die, dice) -> the faces typed, in the order rolled
    faces: dict[Group, list[int]] = field(default_factory=dict)
    #: (side, aircraft or None) -> the dice named for it now
    named: dict[tuple[str, str | None], str] = field(default_factory=dict)
    #: aircraft id -> its name (for saying whose dice)
    names: dict[str, str] = field(default_factory=dict)

    def said(self) -> list[str]:
        """The dice named now, as the panel says them: "USAF: the red d10s"."""
        return [
            f"{self.names.get(aircraft, aircraft) if aircraft else side or NO_AIRCRAFT}: {dice}"
            for (side, aircraft), dice in self.named.items()
        ]


def read_typed_dice(events: Iterable[Logged], undone: Iterable[int] | None = None) -> TypedDice:
    """Every typed single die of the rolls that count, grouped by die label and by the dice
    named for the roll's aircraft (or its side) when it was typed. ``events`` is read twice
    unless ``undone`` (the actions undone at the log's end) is given."""
    if undone is None:
        events = list(events)
        undone = undone_actions(events)
    gone = set(undone)
    out = TypedDice()
    side_of: dict[str, str] = {}
    for env in events:
        ev = env.event
        if env.action in gone:
            continue
        if isinstance(ev, AircraftAdded):
            side_of[ev.aircraft], out.names[ev.aircraft] = ev.side, ev.name
        elif isinstance(ev, AircraftChanged):
            side_of[ev.aircraft] = ev.side or side_of.get(ev.aircraft, "")
            out.names[ev.aircraft] = ev.name or out.names.get(ev.aircraft, ev.aircraft)
        elif isinstance(ev, DiceSet):
            # a naming again replaces the last for the same side or aircraft (and goes last)
            for key in [k for k in out.named if k[1] == ev.aircraft]:
                if ev.aircraft or key[0] == ev.side:
                    del out.named[key]
            if ev.dice:
                out.named[(ev.side, ev.aircraft)] = ev.dice
        elif isinstance(ev, ProcedureResolved):
            roller = ev.attacker or ""
            if roller in side_of:  # an aircraft's own dice first, then its side's
                dice = next(
                    (d for (_, a), d in out.named.items() if a == roller),
                    out.named.get((side_of[roller], None), ""),
                )
            else:  # a roll of no aircraft: the dice named for those
                dice = out.named.get(("", None), "")
            for roll in ev.rolls:
                if not roll.get("typed"):
                    continue
                try:
                    label = DiceSpec.parse(str(roll.get("spec", ""))).die_name
                except ValueError:
                    continue
                group = out.faces.setdefault((label, dice), [])
                group.extend(int(d) for d in roll.get("dice", ()))
    return out


def typed_faces(
    events: Iterable[Logged], undone: Iterable[int] | None = None
) -> dict[Group, list[int]]:
    """Every typed single die of the rolls that count, by (die label, dice named), in the
    order rolled."""
    return read_typed_dice(events, undone).faces


def dice_checks(faces_by_die: Mapping[Group, Sequence[int]]) -> list[DieCheck]:
    """The test of every group, in the order of their dice's sides (d4, d6, d10 ...), the
    dice not named first, then by name."""

    def order(group: Group) -> tuple[int, str]:
        die = group[0]
        return (int(die[1:]) if die[1:].isdigit() else 0, group[1])

    out = []
    for die, dice in sorted(faces_by_die, key=order):
        spec = DiceSpec.parse(die)
        out.append(check_die(die, list(spec.faces), faces_by_die[(die, dice)], dice))
    return out
