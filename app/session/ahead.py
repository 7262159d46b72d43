"""The next step, worked out ahead (issue 48: a step on within the desk's frame).

While the umpire reads the step the desk shows, a worker works out the step after it from the
game as it is: what happens by itself then (``Ruleset.on_clock``), the game those events leave
(checked by ``Ruleset.check_events``, the one door of every event), the sequence of play, the
"who acts now" lines and why each line cannot act, and what the desk's open forms ask to have
prepared (``app.core.draft``: a form shows its action on the game as it is). All of it is the
ruleset's pure code on an unchanging game and the tables, so when the umpire steps on from that
very game (the same object: nothing was appended, undone or followed since) with the same
tables (none saved since), the step writes the events and the parts keep the rest as if they
had asked: the desk's redraw runs none of the rules.

Anything else, and anything that failed or has not finished, is worked out when asked, as
before, guarded and said: the work ahead is never waited for, and says nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.core.acting import ActingLine
from app.core.data import steady_tables, tables_edition
from app.core.engagement import Engagement
from app.core.events import Event
from app.core.guest import Ahead, call_guest_ahead
from app.core.prepared import Prepared, Question
from app.core.ruleset import Step
from app.session.actions import Actions
from app.session.lines import WhoActs
from app.session.log import GameLog
from app.session.refusals import Line, LineRefusals


class Clock(Protocol):
    """What the work ahead asks of the clock (``app.session.clock.Clock``)."""

    def steps_at(self, at: Engagement) -> list[Step]: ...

    def after(self, e: Engagement, steps: Sequence[Step]) -> tuple[int, int]: ...

    def events_at(self, e: Engagement, turn: int, step: int) -> list[Event]: ...

    def kept(self, at: Engagement) -> list[Step] | None: ...

    def keep(self, at: Engagement, steps: Sequence[Step]) -> None: ...


@dataclass(frozen=True)
class Worked:
    """The step after a game, worked out: the game's sequence of play (``before``), the
    (``turn``, ``step``) it sets, its ``events``, the game ``after`` them, and on that game
    its ``steps``, ``lines``, their ``refusals`` and the forms' questions ``prepared``."""

    before: list[Step]
    turn: int
    step: int
    events: list[Event]
    after: Engagement
    steps: list[Step]
    lines: list[ActingLine]
    refusals: dict[Line, str]
    prepared: list[tuple[Question, Prepared]]


class NextStep:
    """The next step of the game, worked out in a worker for the game it was started on."""

    def __init__(
        self,
        log: GameLog,
        clock: Clock,
        who_acts: WhoActs,
        refusals: LineRefusals,
        actions: Actions,
    ) -> None:
        self._log = log
        self._clock = clock
        self._who_acts = who_acts
        self._refusals = refusals
        self._actions = actions
        #: the game the work was started on, the tables' edition then, and the work
        self._ahead: tuple[Engagement, int, Ahead] | None = None

    def look(self, questions: Sequence[Question] = ()) -> Ahead:
        """Start on the game as it is, with the forms' ``questions``, unless that is under
        way or done already; one at a time (a slow or hung ruleset holds one worker, not one
        per game). The work under way."""
        e, edition = self._log.timeline.state, tables_edition()
        ahead = self._ahead
        if ahead is None or ((ahead[0] is not e or ahead[1] != edition) and ahead[2].done):
            steps = self._clock.kept(e)  # the desk's rows asked for them: not asked again
            work = call_guest_ahead(self._work, e, steps, list(questions))
            ahead = self._ahead = (e, edition, work)
        return ahead[2]

    def take(self, e: Engagement) -> Worked | None:
        """The step after ``e`` if it was worked out from ``e`` itself, with the tables as
        they are (none saved since), and is done; its sequence of play, lines, refusals and
        forms prepared handed to the parts that keep them."""
        ahead = self._ahead
        if ahead is None or ahead[0] is not e or ahead[1] != tables_edition():
            return None
        worked = ahead[2].answer()
        if not isinstance(worked, Worked):
            return None
        self._ahead = None
        self._clock.keep(worked.after, worked.steps)
        self._who_acts.keep(worked.after, worked.lines)
        self._refusals.keep(worked.after, worked.refusals)
        self._actions.keep(worked.after, worked.prepared)
        return worked

    def _work(
        self, e: Engagement, steps: list[Step] | None, questions: list[Question]
    ) -> Worked | None:
        """In the worker: ``Clock.next_step``'s work on ``e``, and the rows' and the forms'
        work on the game it gives; ``None`` when its events cannot apply (the step on says
        why). A question the rules refuse or fail on is left to be asked."""
        with steady_tables():  # one piece of work on one game
            if steps is None:
                steps = self._clock.steps_at(e)
            turn, step = self._clock.after(e, steps)
            events = self._clock.events_at(e, turn, step)
            after = self._log.ruleset.check_events(e, events)
            if not isinstance(after, Engagement):
                return None
            lines = self._who_acts.ask(after)
            prepared = []
            for question in questions:
                try:
                    prepared.append((question, self._actions.ask(question, after)))
                except Exception:  # noqa: BLE001, S112 - asked again when wanted, and said then
                    continue
            return Worked(
                before=steps,
                turn=turn,
                step=step,
                events=events,
                after=after,
                steps=self._clock.steps_at(after),
                lines=lines,
                refusals=self._refusals.work_out(after, lines),
                prepared=prepared,
            )
