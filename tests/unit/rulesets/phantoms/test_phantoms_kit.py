"""Issue 32: Phantoms keeps the whole ruleset contract (app.testing.check_ruleset), with the
firing-position charts the rules text does not print filled in as an umpire would (test values,
not the game's numbers), so no procedure is skipped."""

from __future__ import annotations

from app.testing import check_ruleset
from rulesets.phantoms import RULESET

#: test values for the charts the text names but does not print (7.2, 7.1.1a, 7.1.1b)
FILLS = {
    "positions": {
        "radar_cone": {"width_degrees": 120},
        "gun": {
            "cells": {
                "same hex, same altitude": 0,
                "same hex, one level apart": 1,
                "adjacent, dead astern": 0,
                "adjacent, rear quarter": 1,
                "adjacent, beam": 2,
                "adjacent, front quarter": 3,
                "adjacent, head on": 4,
            }
        },
        "heat_narrow": {"cells": {"dead astern": 0, "rear quarter": 1}},
        "heat_wide": {"cells": {"dead astern": 0, "rear quarter": 1, "beam": 2}},
        "heat_all": {
            "cells": {
                "dead astern": 0,
                "rear quarter": 1,
                "beam": 2,
                "front quarter": 3,
                "head on": 4,
            }
        },
    }
}


def test_phantoms_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, fills=FILLS)
