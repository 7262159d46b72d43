"""One-function procedures (app.core.procedure): odds are decide walked over its dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from pydantic import BaseModel, ConfigDict

from app.core.dice import DiceSpec, TableDice, reroll_until
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AircraftAdded, AttributesSet, LedgerChanged
from app.core.procedure import (
    Calculator,
    Decision,
    Draft,
    OddsTooLarge,
    Procedure,
    exact_outcomes,
)


class Inputs(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    bonus: int = 0
    attacker: str | None = None


class Contest(Procedure):
    """d10 + bonus against d10: higher hits; a hit by 5 or more rolls a d6 for damage."""

    id = "contest"
    title = "Contest"
    rule = "T.1"
    Inputs = Inputs
    dice = (("d10", "attacker"), ("d10", "target"))

    def decide(self, inputs: Inputs, dice, draft: Draft) -> Decision:
        if inputs.attacker:
            draft.emit(LedgerChanged(aircraft=inputs.attacker, ledger="ammo", delta=Fraction(-1)))
        a = dice.roll("d10", "attacker").total + inputs.bonus
        t = dice.roll("d10", "target").total
        if a <= t:
            return Decision("miss", f"{a} vs {t}")
        if a - t >= 5:
            return Decision(f"damage {dice.roll('d6', 'damage').total}", "")
        return Decision("hit", "")


def all_typed(proc: Procedure, inputs: BaseModel, engagement: Engagement) -> dict[str, Fraction]:
    """The independent check: resolve with every sequence of typed single dice."""
    out: dict[str, Fraction] = {}

    def walk(prefix: list[int], p: Fraction) -> None:
        dice = TableDice(prefix)
        try:
            res = proc.resolve(inputs, dice, engagement)
        except RuleViolation as e:
            if "no value typed" not in str(e):
                raise
            spec = DiceSpec.parse(e.args[0].split(" for ")[0])
            for face in spec.faces:
                walk([*prefix, face], p / len(spec.faces))
            return
        out[res.outcome] = out.get(res.outcome, Fraction(0)) + p

    walk([], Fraction(1))
    return out


def test_odds_are_the_decision_walked_over_every_die():
    odds = Contest().odds(Inputs(bonus=0))
    assert sum(odds.values()) == 1
    assert odds["miss"] == Fraction(55, 100)
    # a conditional d6 after a hit by 5+: 15 of 100 pairs, each damage value 1/6 of those
    assert odds["damage 1"] == Fraction(15, 100) / 6
    assert odds == all_typed(Contest(), Inputs(bonus=0), Engagement())


def test_resolve_and_draft_events_in_order():
    eng = Engagement().apply(
        AircraftAdded(
            aircraft="a",
            name="A",
            side="Blue",
            type_id="t",
            pilot=None,
            ledgers={"ammo": Fraction(1)},
        ),
        1,
    )
    res = Contest().resolve(Inputs(bonus=3, attacker="a"), TableDice([7, 2, 4]), eng)
    assert res.outcome == "damage 4"
    assert [type(e).__name__ for e in res.events] == ["ProcedureResolved", "LedgerChanged"]
    # the draft applied the spend: a second spend in the same decision cannot be paid
    with pytest.raises(RuleViolation, match="cannot pay"):
        Contest().odds(Inputs(attacker="a"), res_state(eng, res))


def res_state(eng: Engagement, res) -> Engagement:
    for e in res.events[1:]:
        eng = eng.apply(e, eng.seq + 1)
    return eng


def test_odds_without_an_engagement_is_a_what_if():
    assert Contest().odds(Inputs(attacker="nobody")) == Contest().odds(Inputs())


def test_a_sum_of_many_dice_is_one_branch_per_total():
    class Sum(Procedure):
        id = title = rule = "sum"
        Inputs = Inputs

        def decide(self, inputs, dice, draft):
            return Decision(str(dice.roll(f"{inputs.bonus}d6", "sum").total >= 20), "")

    odds = Sum().odds(Inputs(bonus=6))
    ways = sum(1 for f in product(range(1, 7), repeat=6) if sum(f) >= 20)
    assert odds["True"] == Fraction(ways, 6**6)
    Sum().odds(Inputs(bonus=200))  # 1001 totals, not 6**200 paths


def test_the_walk_is_bounded():
    with pytest.raises(OddsTooLarge):
        exact_outcomes(lambda d: str([d.roll("d10", str(i)).total for i in range(6)]), limit=1000)


def test_calculator_has_one_result():
    class Double(Calculator):
        id = title = rule = "double"
        Inputs = Inputs

        def compute(self, inputs, draft):
            return Decision(str(2 * inputs.bonus), "doubled")

    assert Double().result(Inputs(bonus=4)).outcome == "8"
    assert Double().odds(Inputs(bonus=4)) == {"8": 1}
    assert Double.is_calculator


def test_draft_refuses_state_the_ruleset_does_not_declare():
    class State(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)
        altitude: int = 0

    eng = Engagement().apply(
        AircraftAdded(aircraft="a", name="A", side="Blue", type_id="t", pilot=None), 1
    )
    draft = Draft(eng, State)
    draft.emit(AttributesSet(aircraft="a", values={"altitude": 3}))
    assert draft.state("a", State).altitude == 3
    with pytest.raises(TypeError, match="altitdue"):
        draft.emit(AttributesSet(aircraft="a", values={"altitdue": 3}))


class RollOff(Procedure):
    """A d6 against a d6, equal rolls rolled again (``reroll_until``): the odds are one
    round's, conditioned on a round that decides."""

    id = "roll_off"
    title = "Roll-off"
    rule = "T.2"
    Inputs = Inputs

    def decide(self, inputs: Inputs, dice, draft: Draft) -> Decision:
        rolled = reroll_until(
            dice, (("d6", "first"), ("d6", "second")), lambda t: t[0] + inputs.bonus != t[1]
        )
        a, b = rolled.rolls[0].total + inputs.bonus, rolled.rolls[1].total
        return Decision("first" if a > b else "second", f"{a} vs {b}, {rolled.value} re-rolled")


def test_a_round_that_starts_over_is_conditioned_on_deciding():
    """Equal d6s: 30 decided pairs of 36, half each; +1: 5 pairs tie, the first wins 21 of the
    31 others; at the table a tie is rolled again; a round that never decides has no odds."""
    assert RollOff().odds(Inputs()) == {"second": Fraction(1, 2), "first": Fraction(1, 2)}
    assert RollOff().odds(Inputs(bonus=1))["first"] == Fraction(21, 31)
    assert RollOff().dice_needed(Inputs()) == [("d6", "first"), ("d6", "second")]
    dice = TableDice([3, 4, 2, 1])  # 3 + 1 = 4 ties 4: rolled again, 2 + 1 against 1
    res = RollOff().resolve(Inputs(bonus=1), dice, Engagement())
    assert res.outcome == "first" and "1 re-rolled" in res.narrative and dice.rerolling
    assert [r.total for r in res.rolls] == [3, 4, 2, 1]

    class Forever(RollOff):
        def decide(self, inputs: Inputs, dice, draft: Draft) -> Decision:
            reroll_until(dice, (("d6", "again"),), lambda t: False)
            return Decision("never", "never")

    with pytest.raises(RuleViolation, match="never end"):
        Forever().odds(Inputs())
