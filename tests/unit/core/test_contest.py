"""Issue 32: the opposed roll, written once in app.core.contest (Phantoms 7.1.1b, 7.1.3, 7.2,
10.0, 13.1, 13.2 use it): each side's die and modifier, the first side's margin, and a tie is
no win; at the table the first side's die is asked for first."""

from __future__ import annotations

from app.core.contest import opposed
from app.core.dice import TableDice


def test_an_opposed_roll_adds_each_sides_modifier_and_compares() -> None:
    dice = TableDice([7, 4])
    c = opposed(dice, "gun attack", 2, 1)
    assert (c.first_roll, c.second_roll, c.first, c.second, c.margin, c.won) == (
        7,
        4,
        9,
        5,
        4,
        True,
    )
    assert [r.purpose for r in dice.rolls] == ["gun attack: attacker", "gun attack: target"]
    tie = opposed(TableDice([3, 5]), "break-off", 2, sides=("aircraft", "enemy"))
    assert tie.margin == 0 and not tie.won
