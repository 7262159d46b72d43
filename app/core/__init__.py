"""Pure Python core of Airboss: dice, events, the projection and the ruleset contract.

Imports neither Qt nor SQL (an import-linter contract checks it).
"""

from app.core.errors import DataFileError, MissingTableValue, RuleViolation

__all__ = ["DataFileError", "MissingTableValue", "RuleViolation"]
