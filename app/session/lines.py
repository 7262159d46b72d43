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
        #: the lines the ruleset last gave, and for which game state: the desk's rows, the
        #: lines' refusals, the drafts and a resolve's owed rolls all read them, the game
        #: unchanged between (issue 44, 48)
        self._lines: tuple[Engagement, list[ActingLine]] | None = None

    def acting(self) -> list[ActingLine]:
        """The "who acts now" lines of the current step, asked of the ruleset once per game
        state (each change of the game is a new state); a ruleset that fails here is named
        (and asked again the next time)."""
        kept, e = self._lines, self._log.timeline.state
        if kept is None or kept[0] is not e:
            kept = self._lines = (e, self.ask(e))
        return list(kept[1])

    def ask(self, at: Engagement) -> list[ActingLine]:
        """The ruleset's lines for the game ``at`` (guarded), not kept."""
        rs = self._log.ruleset
        lines = call_guest(
            rs,
            "acting (who acts now)",
            rs.acting,
            at,
            time_limit=guard.TIME_LIMIT,
            returns=acting_lines,
        )
        return list(lines)

    def keep(self, at: Engagement, lines: Sequence[ActingLine]) -> None:
        """The lines worked out ahead for the game ``at`` (``app.session.ahead``): kept as
        if asked, used once ``at`` is the game."""
        self._lines = (at, list(lines))

    def owed(self, procedure: str) -> list[ActingLine]:
        """The lines of this step that open a roll (to see what a result makes owed)."""
        try:
            lines = self.acting()
        except RuleViolation:
            return []
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
