"""Exact odds of the two procedures API.md fixes, checked against hand enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from pydantic import ValidationError

from rulesets.ufo_interception import RULESET

RAY = RULESET.procedures["ray_gun"]
CANNON = RULESET.procedures["cannon"]


def hits_label(n: int) -> str:
    return "miss" if n == 0 else f"{n} hit" + ("s" if n > 1 else "")


@pytest.mark.parametrize("charge,rng", [(9, 3), (4, 0), (6, 4), (2, 1), (9, 0)])
def test_ray_gun_is_binomial_in_charge_minus_range(charge: int, rng: int) -> None:
    """UFO rules, Firing: UFO: one die per point of charge, minus one per inch of range;
    Hitting: Ray Gun: any 5 or 6 is a hit."""
    n = charge - rng
    odds = RAY.odds(RAY.Inputs(charge=charge, range_inches=rng))
    # the binomial formula ...
    expected = {
        hits_label(k): Fraction(comb(n, k)) * Fraction(1, 3) ** k * Fraction(2, 3) ** (n - k)
        for k in range(n + 1)
    }
    assert odds == expected
    # ... and a hand enumeration of every face of every die, for the small pools
    if n <= 5:
        counted: dict[str, Fraction] = {}
        for faces in itertools.product(range(1, 7), repeat=n):
            label = hits_label(sum(1 for f in faces if f >= 5))
            counted[label] = counted.get(label, Fraction(0)) + Fraction(1, 6**n)
        assert odds == counted
    assert sum(odds.values()) == 1


def test_ray_gun_worked_numbers() -> None:
    """Charge 9 at 3 inches rolls 6 dice: no hit (2/3)**6 = 64/729, six hits 1/729."""
    odds = RAY.odds(RAY.Inputs(charge=9, range_inches=3))
    assert odds["miss"] == Fraction(64, 729)
    assert odds["6 hits"] == Fraction(1, 729)
    assert odds["1 hit"] == 6 * Fraction(1, 3) * Fraction(2, 3) ** 5 == Fraction(64, 243)
    # one pool of six dice, typed one die a field (how many show 5 or more)
    assert RAY.dice_needed(RAY.Inputs(charge=9, range_inches=3)) == [("6d6", "ray gun dice")]


@pytest.mark.parametrize("charge,rng", [(0, 0), (3, 3), (2, 5), (0, 7)])
def test_ray_gun_certain_miss_when_charge_not_above_range(charge: int, rng: int) -> None:
    """No dice are left when the range in inches takes away every point of charge."""
    inputs = RAY.Inputs(charge=charge, range_inches=rng)
    assert RAY.odds(inputs) == {"miss": Fraction(1)}
    assert RAY.dice_needed(inputs) == []


@pytest.mark.parametrize("rng", range(7))
def test_cannon_hits_are_d6_plus_1_minus_range(rng: int) -> None:
    """UFO rules, Hitting: Cannon: "Roll d6+1 and subtract range in inches- this is number of
    hits on Damage Table"; zero or fewer hits is a miss."""
    expected: dict[str, Fraction] = {}
    for face in range(1, 7):
        label = hits_label(max(0, face + 1 - rng))
        expected[label] = expected.get(label, Fraction(0)) + Fraction(1, 6)
    odds = CANNON.odds(CANNON.Inputs(range_inches=rng))
    assert odds == expected
    assert sum(odds.values()) == 1


def test_cannon_worked_numbers() -> None:
    """At 0 inches a d6 gives 2-7 hits; at 6 inches only a 6 hits (once)."""
    assert CANNON.odds(CANNON.Inputs(range_inches=0)) == {
        f"{n} hits": Fraction(1, 6) for n in range(2, 8)
    }
    assert CANNON.odds(CANNON.Inputs(range_inches=6)) == {
        "miss": Fraction(5, 6),
        "1 hit": Fraction(1, 6),
    }
    assert CANNON.odds(CANNON.Inputs(range_inches=1))["1 hit"] == Fraction(1, 6)


def test_cannon_range_is_6_inches() -> None:
    """UFO rules, Firing: "Cannon. Range 6 inches"."""
    with pytest.raises(ValidationError):
        CANNON.Inputs(range_inches=7)
    with pytest.raises(ValidationError):
        RAY.Inputs(charge=-1, range_inches=0)
