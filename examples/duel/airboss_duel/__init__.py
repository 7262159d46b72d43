"""Duel: the smallest useful Airboss ruleset (docs/ruleset-guide.md walks it)."""

from airboss_duel.ruleset import Duel

RULESET = Duel()
