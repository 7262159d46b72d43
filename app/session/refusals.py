"""Whether each "who acts now" line can act as it stands (issue 29: a line that cannot act is
not offered as if it could), worked out for all the step's lines at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import ValidationError

from app.core.acting import ActingLine
from app.core.data import steady_tables
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.guest import GuestError, GuestTimeout, call_guest
from app.session import guard
from app.session.actions import Actions
from app.session.lines import WhoActs
from app.session.log import GameLog
from app.session.odds import procedure_of

Line = tuple[str, str, str | None]


class LineRefusals:
    """Why a line cannot act, kept until the game changes."""

    def __init__(self, log: GameLog, who_acts: WhoActs, actions: Actions) -> None:
        self._log = log
        self._who_acts = who_acts
        self._actions = actions
        #: the lines' refusals, worked out for the game as it was then
        self._known: tuple[Engagement, dict[Line, str]] | None = None

    def line_refusal(self, procedure: str, who: str, other: str | None = None) -> str:
        """Why this "who acts now" line cannot act as it stands (its cards cannot be read, or
        the rules refuse it before any die: no ammunition left, say), or "" when it can (issue
        29: a line that cannot act is not offered as if it could). Nothing is written.

        The ruleset's code runs guarded, with the time limit (issue 31), once for every line
        of the step: asked for one line, the answers for all the step's lines are worked out
        together and kept until the game changes (a desk asks for each line in turn)."""
        e = self._log.timeline.state
        if self._known is None or self._known[0] is not e:
            self._known = (e, {})
        known = self._known[1]
        line = (procedure, who, other)
        if line in known:
            return known[line]

        def every_line() -> dict[Line, str]:
            try:
                lines = self._who_acts.acting()
            except RuleViolation:
                lines = []  # said where who acts now is shown
            return self.work_out(e, lines, line)

        said: dict[Line, str]
        try:
            said = call_guest(
                self._log.ruleset,
                "who acts now (can each line act)",
                every_line,
                time_limit=guard.TIME_LIMIT,
            )
        except GuestTimeout as err:
            said = {line: str(err)}  # opening the line would wait again: said on the line
        except (GuestError, ValidationError):
            said = {line: ""}  # a guest's bug is said when the line is opened
        known.update(said)
        return known[line]

    def work_out(self, at: Engagement, lines: Sequence[ActingLine], *also: Line) -> dict[Line, str]:
        """Why each of these lines (and ``also``) cannot act on the game ``at``, "" for one
        that can; the ruleset's code runs here (call it guarded). Not kept."""
        procedures = self._log.ruleset.procedures
        todo = list(also)
        todo += [(a.procedure, a.who, a.other or None) for a in lines if a.procedure in procedures]
        with steady_tables():  # every line on one game: its tables read once
            return {each: self._refusal(at, *each) for each in dict.fromkeys(todo)}

    def keep(self, at: Engagement, said: Mapping[Line, str]) -> None:
        """The refusals worked out ahead for the game ``at`` (``app.session.ahead``): kept as
        if asked, used once ``at`` is the game."""
        self._known = (at, dict(said))

    def _refusal(self, at: Engagement, procedure: str, who: str, other: str | None) -> str:
        """``line_refusal`` for one line (in a guest call: the ruleset's code runs here): the
        line prepared before the dice, a pick the umpire has still to make (the missile) the
        first offered, so a rule that refuses every pick is said now (no lock-on, say). The
        rules run once, up to their first die as the line stands (``Prepared.refused``): a
        refusal that needs nothing typed is said on the line (a missing cell is offered in the
        form, a guest's bug said when the line is opened). A value the cards only suggest and
        the umpire decides (``Procedure.suggested``: the new speed starts at the current one)
        is the umpire's to type: a refusal that reads it waits for it (an engine hit left the
        current speed above the new maximum: the line must still set a speed)."""
        try:
            suggested = procedure_of(self._log.ruleset, procedure).suggested
            p = self._actions.prepare_line(
                procedure, who, other, dice=False, first_offered=True, pending=suggested, at=at
            )
        except RuleViolation as e:
            return str(e)
        return p.cannot or p.refused
