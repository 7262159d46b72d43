"""Who acts now: the current step's lines as the ruleset gives them, and the rolls a result
makes owed (the next line the desk opens after a resolve)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.acting import ActingLine
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.guest import acting_lines, call_guest
from app.core.ruleset import Resolution
from app.session import guard
from app.session.log import GameLog


class WhoActs:
    """The "who acts now" lines of the game's current step."""

    def __init__(self, log: GameLog) -> None:
        self._log = log
        #: the lines ``owed`` last read, and for which game state: a resolve reads them after
        #: it and the next one before it, the game unchanged between
        self._owed_lines: tuple[Engagement, list[ActingLine]] | None = None

    def acting(self) -> list[ActingLine]:
        """The "who acts now" lines of the current step; a ruleset that fails here is named."""
        rs = self._log.ruleset
        lines = call_guest(
            rs,
            "acting (who acts now)",
            rs.acting,
            self._log.timeline.state,
            time_limit=guard.TIME_LIMIT,
            returns=acting_lines,
        )
        return list(lines)

    def owed(self, procedure: str) -> list[ActingLine]:
        """The lines of this step that open a roll (to see what a result makes owed); the
        step's lines are asked once per game state (the lines after one resolve are the next
        one's lines before it, issue 44)."""
        kept, e = self._owed_lines, self._log.timeline.state
        if kept is not None and kept[0] is e:
            lines = kept[1]
        else:
            try:
                lines = self.acting()
            except RuleViolation:
                return []
            self._owed_lines = (e, lines)
        procedures = self._log.ruleset.procedures
        return [
            line for line in lines if line.procedure in procedures and line.procedure != procedure
        ]

    def follows(
        self, res: Resolution, procedure: str, before: Sequence[ActingLine]
    ) -> ActingLine | None:
        """The roll a result owes at once: one it names, else a line it made owed."""
        if res.follow_ups:
            pid, who = res.follow_ups[0]
            return ActingLine(who, "", procedure=pid)
        known = set(before)
        return next((line for line in self.owed(procedure) if line not in known), None)
