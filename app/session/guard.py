"""The time limit of every call from the session into a ruleset's code (issue 31).

One place for all the session's parts: each reads ``guard.TIME_LIMIT`` when it calls, so a
test (or a desk) that sets it here sets it for every part.
"""

from __future__ import annotations

from app.core.guest import TIME_LIMIT

__all__ = ["TIME_LIMIT"]
