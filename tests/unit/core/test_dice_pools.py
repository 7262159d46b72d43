"""Issue 32: pool queries read many dice as one value. At the table each die is rolled or typed
as usual; the odds branch once over the pool's value (icepool's distribution), and equal what
the table dice do over every face."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from pydantic import BaseModel, ConfigDict

from app.core.dice import (
    TableDice,
    count_at_least,
    read_pool,
    reroll_until,
    sum_of,
)
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation
from app.core.procedure import Decision, Draft, Procedure


class NoInputs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _proc(rule):  # type: ignore[no-untyped-def]
    class P(Procedure):
        id, title, rule, Inputs = "p", "P", "T", NoInputs

        def decide(self, inputs, dice, draft: Draft) -> Decision:  # type: ignore[no-untyped-def]
            return Decision(str(rule(dice)), "")

    return P()


def _typed(proc: Procedure, faces: int, n: int) -> dict[str, Fraction]:
    """``resolve`` over every sequence of ``n`` typed faces 1..faces."""
    out: dict[str, Fraction] = {}
    for seq in product(range(1, faces + 1), repeat=n):
        label = proc.resolve(NoInputs(), TableDice(list(seq)), Engagement()).outcome
        out[label] = out.get(label, Fraction(0)) + Fraction(1, faces**n)
    return out


def test_count_at_least_is_binomial_and_typed_die_by_die() -> None:
    p = _proc(lambda d: count_at_least(d, 4, "d6", 5, "hits").value)
    odds = p.odds(NoInputs())
    assert odds["0"] == Fraction(2, 3) ** 4 and odds["4"] == Fraction(1, 3) ** 4
    assert odds == _typed(p, 6, 4)
    assert p.dice_needed(NoInputs()) == [("4d6", "hits")]
    # twelve dice: 13 branches, not 6**12 sequences
    twelve = _proc(lambda d: count_at_least(d, 12, "d6", 5, "hits").value)
    assert twelve.odds(NoInputs())["12"] == Fraction(1, 3**12)


def test_sum_of_readings_is_their_convolution() -> None:
    table = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 3}
    p = _proc(lambda d: sum_of(d, [("d6", "a"), ("d6", "b")], [table.get, table.get]).value)
    odds = p.odds(NoInputs())
    assert odds == _typed(p, 6, 2)
    assert odds["6"] == Fraction(1, 36)
    assert p.dice_needed(NoInputs()) == [("d6", "a"), ("d6", "b")]


def test_a_reading_that_is_not_printed_stops_the_odds_not_the_dice() -> None:
    def cell(total: int) -> int:
        if total == 6:
            raise MissingTableValue("T", "6", "1")
        return total

    p = _proc(lambda d: sum_of(d, [("d6", "a")], [cell]).value)
    with pytest.raises(MissingTableValue):
        p.odds(NoInputs())
    assert p.dice_needed(NoInputs()) == [("d6", "a")]  # the die is rolled all the same
    assert p.resolve(NoInputs(), TableDice([3]), Engagement()).outcome == "3"


def test_reroll_until_conditions_on_the_round_that_decides() -> None:
    p = _proc(
        lambda d: (
            "first"
            if (r := reroll_until(d, [("d4", "a"), ("d4", "b")], lambda t: t[0] != t[1]))
            .rolls[0]
            .total
            > r.rolls[1].total
            else "second"
        )
    )
    assert p.odds(NoInputs()) == {"second": Fraction(1, 2), "first": Fraction(1, 2)}
    dice = TableDice([2, 2, 3, 1])
    res = p.resolve(NoInputs(), dice, Engagement())
    assert res.outcome == "first" and dice.rerolling
    never = _proc(lambda d: reroll_until(d, [("d4", "a")], lambda t: False).value)
    with pytest.raises(RuleViolation, match="never end"):
        never.odds(NoInputs())


def test_read_pool_runs_the_decision_once_per_value() -> None:
    runs: list[int] = []

    def rule(d):  # type: ignore[no-untyped-def]
        runs.append(1)
        pool = read_pool(d, [("d6", f"plane {i}") for i in range(3)], lambda t: max(t) - min(t))
        assert max(r.total for r in pool.rolls) - min(r.total for r in pool.rolls) == pool.value
        return pool.value

    p = _proc(rule)
    odds = p.odds(NoInputs())
    assert odds == _typed(
        _proc(
            lambda d: (
                read_pool(
                    d, [("d6", f"plane {i}") for i in range(3)], lambda t: max(t) - min(t)
                ).value
            )
        ),
        6,
        3,
    )
    assert len(runs) == 1 + 6  # the root, then one run per spread 0..5
    too_many = _proc(lambda d: read_pool(d, [("d6", str(i)) for i in range(7)], sum).value)
    with pytest.raises(RuleViolation, match="more than the 46,656"):
        too_many.odds(NoInputs())
