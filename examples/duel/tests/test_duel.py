"""Duel keeps the Airboss ruleset contract: one call of the author's kit."""

from airboss_duel import RULESET

from app.testing import check_ruleset

#: the umpire's value for the cell the rules text does not print (a test value)
FILLS = {"ranges": {"modifiers": [0, -1, -2]}}


def test_duel_keeps_the_ruleset_contract() -> None:
    check_ruleset(RULESET, fills=FILLS)
