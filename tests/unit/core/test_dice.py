"""Dice at a real table (DESIGN.md "Dice at a real table"): specs, exact odds, sources."""

from fractions import Fraction

import pytest

from app.core.dice import (
    DiceError,
    DiceSpec,
    SeededDice,
    TableDice,
    distribution,
    label_odds,
    successes,
)


@pytest.mark.parametrize("spec,faces", [("d4", 4), ("d6", 6), ("d10", 10)])
def test_single_dice_are_uniform(spec: str, faces: int) -> None:
    dist = distribution(spec)
    assert dist == {f: Fraction(1, faces) for f in range(1, faces + 1)}


@pytest.mark.parametrize("spec", ["d4", "d5", "d6", "d10", "d20"])
def test_one_die_without_icepool_is_icepools_distribution(spec: str) -> None:
    """One die's odds are worked out without icepool (issue 36: the dry run for a single
    die's roll no longer imports it); they are exactly icepool's, in the same order."""
    die = DiceSpec.parse(spec).die()
    pairs = zip(die.outcomes(), die.probabilities(), strict=True)
    expected = {int(o): Fraction(p) for o, p in pairs}
    assert list(distribution(spec).items()) == list(expected.items())


def test_2d6_weights() -> None:
    dist = distribution("2d6")
    assert dist == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def test_3d6_total_probability_and_extremes() -> None:
    dist = distribution("3d6")
    assert sum(dist.values()) == 1
    assert dist[3] == dist[18] == Fraction(1, 216)
    assert dist[10] == Fraction(27, 216)


def test_2d5_is_2d6_minus_2() -> None:
    """Nth Fleet 1.2: "All combat dice rolls are 2d6-2 (referred to as 2d5)"."""
    dist = distribution("2d5")
    assert set(dist) == set(range(0, 11))
    two_d6 = distribution("2d6")
    assert all(dist[t] == two_d6[t + 2] for t in range(0, 11))
    assert dist[5] == Fraction(6, 36)
    assert dist[0] == dist[10] == Fraction(1, 36)


def test_typed_zero_on_a_d10_reads_as_ten() -> None:
    """Phantoms 2.0: 'The "0" on the ten-sided die is read as a 10.'"""
    dice = TableDice([0])
    assert dice.roll("d10", "gun roll").total == 10


@pytest.mark.parametrize("spec,value", [("d6", 7), ("d6", 0), ("d4", 5), ("d10", 11), ("2d5", 6)])
def test_impossible_values_are_refused_naming_die_and_purpose(spec: str, value: int) -> None:
    dice = TableDice([value, value])
    with pytest.raises(DiceError) as err:
        dice.roll(spec, "critical hit table")
    assert "critical hit table" in str(err.value)
    assert str(value) in str(err.value)


def test_too_few_values_are_refused() -> None:
    dice = TableDice([3])
    with pytest.raises(DiceError, match="no value typed"):
        dice.roll("2d6", "damage table")


def test_non_integer_value_refused() -> None:
    with pytest.raises(DiceError, match="not a whole number"):
        TableDice([True]).roll("d6", "x")


def test_seeded_dice_record_every_roll_and_repeat() -> None:
    a, b = SeededDice(7), SeededDice(7)
    rolls_a = [a.roll("2d6", "x").dice for _ in range(20)]
    rolls_b = [b.roll("2d6", "x").dice for _ in range(20)]
    assert rolls_a == rolls_b
    assert len(a.rolls) == 20
    assert all(1 <= d <= 6 for r in a.rolls for d in r.dice)


def test_successes_is_binomial() -> None:
    dist = successes(3, "d6", lambda f: f >= 5)
    assert dist == {0: Fraction(8, 27), 1: Fraction(12, 27), 2: Fraction(6, 27), 3: Fraction(1, 27)}
    assert successes(0, "d6", lambda f: True) == {0: Fraction(1)}


def test_label_odds_merges_and_sums_to_one() -> None:
    odds = label_odds(distribution("d10"), lambda r: "hit" if r <= 3 else "miss")
    assert odds == {"hit": Fraction(3, 10), "miss": Fraction(7, 10)}


def test_bad_spec_text() -> None:
    with pytest.raises(ValueError):
        DiceSpec.parse("x7")
