"""Advanced Air Force (a WWII variant of Avalon Hill's Air Force): fire tables and rules 1-30."""

from __future__ import annotations

from .ruleset import AdvancedAirForce

RULESET = AdvancedAirForce()

__all__ = ["RULESET", "AdvancedAirForce"]
