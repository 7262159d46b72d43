"""An opposed roll, written once (issue 32): each side rolls a die, adds its modifier, and the
totals are compared -- Phantoms' gun attack (7.2), missile impact (7.1.3), radar lock-on and
break lock (7.1.1b), spotting (13.1, 13.2) and break-off (10.0) are all this contest.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.dice import DiceSource

__all__ = ["Contest", "opposed"]


@dataclass(frozen=True)
class Contest:
    """Both rolls and both modified totals; ``margin`` is the first side's lead."""

    first_roll: int
    second_roll: int
    first: int
    second: int

    @property
    def margin(self) -> int:
        return self.first - self.second

    @property
    def won(self) -> bool:
        """The first side beat the second (a tie is not a win)."""
        return self.first > self.second


def opposed(
    dice: DiceSource,
    purpose: str,
    first_modifier: int = 0,
    second_modifier: int = 0,
    *,
    sides: tuple[str, str] = ("attacker", "target"),
    die: str = "d10",
) -> Contest:
    """Each side rolls ``die`` (purposes ``"<purpose>: <side>"``, first side first) and adds
    its modifier."""
    r1 = dice.roll(die, f"{purpose}: {sides[0]}").total
    r2 = dice.roll(die, f"{purpose}: {sides[1]}").total
    return Contest(r1, r2, r1 + first_modifier, r2 + second_modifier)
