"""Issue 32: the UFO game keeps the whole ruleset contract (app.testing.check_ruleset), with
the arcs the rules text does not give filled in as an umpire would (test values)."""

from __future__ import annotations

from app.testing import check_ruleset
from rulesets.ufo_interception import RULESET

#: test values: the text gives neither arc's width (UFO rules, Firing)
FILLS = {"arcs": {"cannon_forward_arc_degrees": 90, "missile_front_arc_degrees": 180}}


#: a missile flight that names a missile is refused outside Missile Firing (the kit's
#: what-if game is at Roll Initiative): 6 of its generated inputs are accepted
FEW = {"missile_flight": 6}


def test_ufo_interception_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, fills=FILLS, examples_for=FEW)
