"""Issue 32: Advanced Air Force keeps the whole ruleset contract (app.testing.check_ruleset).
Its tables are all printed; the Snapshot check accepts only a narrow geometry (rule 8), so a
Snapshot the rules accept is checked besides the generated inputs."""

from __future__ import annotations

from app.testing import check_ruleset
from rulesets.advanced_air_force import RULESET

#: rule 8: a Snapshot at a Disadvantaged target, one hex beyond, all at 9,000 ft
SNAPSHOT = {
    "target_disadvantaged_or_straight_bomber": True,
    "hexes_beyond": 1,
    "attacker_current_altitude_ft": 9000,
    "attacker_resulting_altitude_ft": 9000,
    "target_resulting_altitude_ft": 9000,
}


#: accepted generated inputs claimed where the rules accept few of the kit's draws (it draws
#: 0 to 30 for a number): the altitudes of a generated Snapshot do not line up (rule 8: it is
#: checked on SNAPSHOT alone), and of the feet only 0 is in steps of 100 ft (rules 9, 30)
FEW = {"snapshot_check": 0, "altitude_change": 1, "climb_rate": 9}


def test_advanced_air_force_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, inputs={"snapshot_check": (SNAPSHOT,)}, examples_for=FEW)
