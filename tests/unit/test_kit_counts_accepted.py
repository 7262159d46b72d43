"""The odds kit (``app.testing``) checks each procedure on the number of generated inputs it
claims (``examples``), every one of them *accepted* by the rules: an input the rules refuse is
not counted (another is drawn in its place), nor is one drawn twice. Too few accepted fails,
naming the procedure and its refusals, unless every input its ``Inputs`` allow was drawn; a
given input (``inputs=``) the rules refuse fails too: it checks nothing.

Before, a refusal counted as one of the examples: a procedure whose rules refuse most of what
the kit draws was checked on 1 to 4 accepted inputs of the 12 it claimed, and passed."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

from app.core.errors import RuleViolation
from app.core.procedure import Calculator, Decision
from app.core.ruleset import ProcedureInputs
from app.testing import ContractFailure, _check_procedure, check_ruleset

#: the kit's own default: accepted generated inputs per procedure
CLAIMED = 12
#: the kit's own default: sequences of typed faces walked at most
LIMIT = 4000


class TwoNumbers(ProcedureInputs):
    first: int = Field(ge=0, le=30)
    second: int = Field(ge=0, le=30)


class Flag(ProcedureInputs):
    flag: bool = False


class Checked(Calculator):
    """A test calculator that notes every input its rules accept (``accepted``): the
    ``accepts`` test says which."""

    title = "Test"
    rule = "test rule"

    def __init__(self, id: str, inputs: type[ProcedureInputs], accepts: Any) -> None:  # noqa: A002
        super().__init__()
        self.id = id
        self.Inputs = inputs
        self.accepts = accepts
        self.accepted: list[tuple[tuple[str, Any], ...]] = []

    def compute(self, inputs: Any, draft: Any) -> Decision:
        typed = inputs.model_dump(exclude={"attacker", "target"})
        if not self.accepts(inputs):
            raise RuleViolation(f"test rule: {self.id} refuses {typed}")
        self.accepted.append(tuple(sorted(typed.items())))
        return Decision("done", f"accepted ({self.rule})")


def test_a_procedure_that_refuses_most_inputs_is_checked_on_as_many_accepted_as_claimed() -> None:
    """Three in four of the drawn inputs are refused (the first number not a multiple of 4):
    the kit draws on until 12 distinct accepted inputs were checked (before: about 3)."""
    proc = Checked("one_in_four", TwoNumbers, lambda i: i.first % 4 == 0)
    assert _check_procedure(proc, CLAIMED, LIMIT) == []
    assert len(proc.accepted) == CLAIMED
    assert len(set(proc.accepted)) == CLAIMED  # each a different input


def test_too_few_accepted_fails_naming_the_procedure_and_its_refusals() -> None:
    """Only one input of the 961 its Inputs allow is accepted: the kit does not pass it on that
    one (it did before); it says how few, of how many drawn, and why the others were
    refused. Claiming one, it passes."""
    proc = Checked("narrow", TwoNumbers, lambda i: i.first == i.second == 0)
    problems = _check_procedure(proc, CLAIMED, LIMIT)
    assert len(problems) == 1
    [problem] = problems
    assert problem.startswith(
        "procedure 'narrow': only 1 of the 12 generated inputs claimed were accepted, in "
    )
    assert "RuleViolation: test rule: narrow refuses" in problem
    assert "examples_for=" in problem
    assert len(proc.accepted) == 1
    assert _check_procedure(Checked("narrow", TwoNumbers, proc.accepts), 1, LIMIT) == []


def test_a_small_space_is_checked_on_each_of_its_inputs_once() -> None:
    """A procedure whose Inputs allow three inputs (the flag left out, false, true) is checked
    on those three, each once, and passes: there is no fourth to draw (before: 12 "examples",
    the same three again and again)."""
    proc = Checked("flag", Flag, lambda i: True)
    assert _check_procedure(proc, CLAIMED, LIMIT) == []
    assert sorted(proc.accepted) == [(("flag", False),), (("flag", False),), (("flag", True),)]
    # (left out, the flag is False: the model's value) -- three inputs drawn, each checked once


def test_a_given_input_the_rules_refuse_is_said() -> None:
    """An input given to check besides the generated ones (``inputs=``) that the rules refuse
    checks nothing: the kit says which and why (before: counted, silently)."""
    proc = Checked("one_in_four", TwoNumbers, lambda i: i.first % 4 == 0)
    problems = _check_procedure(proc, 1, LIMIT, ({"first": 1, "second": 0},))
    assert problems == [
        "procedure 'one_in_four': inputs[0] {'first': 1, 'second': 0} is refused (RuleViolation: "
        "test rule: one_in_four refuses {'first': 1, 'second': 0}): it checks nothing"
    ]


def test_examples_for_names_a_procedure_of_the_ruleset() -> None:
    from rulesets.advanced_air_force import RULESET

    with pytest.raises(ContractFailure, match=r"examples_for: 'no_such' names no procedure"):
        check_ruleset(RULESET, examples_for={"no_such": 1})
