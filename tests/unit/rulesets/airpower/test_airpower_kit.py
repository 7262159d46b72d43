"""Issue 32: Air Power keeps the whole ruleset contract (app.testing.check_ruleset), with every
table the rules text refers to but does not print filled in as an umpire would (test values,
not the game's numbers), so no procedure is skipped."""

from __future__ import annotations

from typing import Any

from app.testing import check_ruleset
from rulesets.airpower import RULESET

#: a gun attack and a rocket attack the rules accept, checked besides the generated inputs
#: (most generated ones are refused: an unsighted target, a range rockets do not reach)
INPUTS = {
    "gun_attack": ({"hit_numbers": [7, 5, 3], "attack_rating": 5, "horizontal_range": 1},),
    "rocket_attack": ({"factors": 2, "horizontal_range": 2},),
}


#: none of the kit's generated gun and rocket attacks is accepted (in 240 drawn): they are
#: checked on the INPUTS above alone
FEW = {"gun_attack": 0, "rocket_attack": 0}


def test_airpower_keeps_the_ruleset_contract(fills: dict[str, Any]) -> None:
    """The fills: conftest.FILLS (every unprinted cell, test values)."""
    check_ruleset(RULESET, fills=fills, inputs=INPUTS, examples_for=FEW)
