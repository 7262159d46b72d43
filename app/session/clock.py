"""The clock: the steps of a turn, and the game moved a step on or back (what happens by
itself at a step, ``Ruleset.on_clock``, logged with it)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import ClockSet, Event
from app.core.guest import Ahead, call_guest, events_list, steps_list
from app.core.prepared import Question
from app.core.ruleset import Step
from app.session import guard
from app.session.actions import Actions
from app.session.ahead import NextStep
from app.session.lines import WhoActs
from app.session.log import GameLog
from app.session.refusals import LineRefusals


class Clock:
    """The sequence of play of the game's ruleset."""

    def __init__(
        self,
        log: GameLog,
        ahead_for: tuple[WhoActs, LineRefusals, Actions] | None = None,
    ) -> None:
        self._log = log
        #: the next step worked out ahead (``look_ahead``) for these parts
        self._ahead = NextStep(log, self, *ahead_for) if ahead_for is not None else None
        #: the steps the ruleset gave, and for which game state: a step on asks for them
        #: twice, and the desk's rows once more, the game unchanged between
        self._steps: tuple[Engagement, list[Step]] | None = None
        #: the last sequence the ruleset gave as a tuple, checked (``_checked_steps``)
        self._checked: tuple[Step, ...] | None = None

    def steps(self) -> list[Step]:
        """The steps of a turn as the ruleset gives them now (guarded: issue 31); asked once
        per game state (each change of the game is a new state)."""
        e, kept = self._log.timeline.state, self._steps
        if kept is None or kept[0] is not e:
            kept = self._steps = (e, self.steps_at(e))
        return list(kept[1])

    def steps_at(self, at: Engagement) -> list[Step]:
        """The steps of a turn on the game ``at`` (guarded), not kept."""
        steps = call_guest(
            self._log.ruleset,
            "steps (sequence of play)",
            self._log.ruleset.steps,
            at,
            time_limit=guard.TIME_LIMIT,
            returns=self._checked_steps,
        )
        return list(steps)

    def kept(self, at: Engagement) -> list[Step] | None:
        """The steps already asked for the game ``at``, else ``None`` (nothing is asked)."""
        kept = self._steps
        return list(kept[1]) if kept is not None and kept[0] is at else None

    def keep(self, at: Engagement, steps: Sequence[Step]) -> None:
        """The steps worked out ahead for the game ``at`` (``app.session.ahead``)."""
        self._steps = (at, list(steps))

    def _checked_steps(self, result: object) -> object:
        """``steps_list``'s check, once per sequence: a ruleset that gives the same tuple for
        every state (its printed sequence of play) is checked the first time only (a tuple
        of frozen steps cannot change since); a list is checked every time."""
        if isinstance(result, tuple) and result is self._checked:
            return result
        steps_list(result)
        if isinstance(result, tuple):
            self._checked = result
        return result

    def next_step(self) -> None:
        """Advance the sequence of play one step (a new turn after the last step): as
        worked out ahead (``look_ahead``) when that was for the game as it is."""
        e = self._log.timeline.state
        worked = self._ahead.take(e) if self._ahead is not None else None
        if worked is not None:
            now = worked.before[worked.step]
            label = f"Turn {worked.turn}: {now.label}"
            self._log.append(worked.events, label, now.rule, worked=(e, worked.after))
            return
        self._set_clock(*self.after(e, self.steps()))

    def look_ahead(self, questions: Sequence[Question] = ()) -> Ahead | None:
        """Start working out the next step in a worker (``app.session.ahead``), with what
        the open forms ask (``questions``), while the umpire reads this one: the step on then
        only writes it (issue 48). Nothing when the game cannot be written or is already
        being looked ahead of. The work under way (``None`` when none was started)."""
        if self._ahead is None or self._log.read_only or self._log.closed:
            return None
        return self._ahead.look(questions)

    @staticmethod
    def after(e: Engagement, steps: Sequence[Step]) -> tuple[int, int]:
        """The (turn, step) after the game's: a new turn after the last step."""
        return (e.turn, e.step + 1) if e.step + 1 < len(steps) else (e.turn + 1, 0)

    def events_at(self, e: Engagement, turn: int, step: int) -> list[Event]:
        """The clock set to (``turn``, ``step``) on the game ``e``, and what happens by
        itself then (``Ruleset.on_clock``, guarded)."""
        events: list[Event] = [ClockSet(turn=turn, step=step)]
        events += call_guest(
            self._log.ruleset,
            "on_clock (what happens by itself)",
            self._log.ruleset.on_clock,
            e,
            turn,
            step,
            time_limit=guard.TIME_LIMIT,
            returns=events_list,
        )
        return events

    def previous_step(self) -> None:
        """Go back one step (the umpire advanced too far)."""
        e = self._log.timeline.state
        if e.step > 0:
            self._set_clock(e.turn, e.step - 1)
        elif e.turn > 1:
            self._set_clock(e.turn - 1, len(self.steps()) - 1)
        else:
            raise RuleViolation("this is the first step of the first turn")

    def _set_clock(self, turn: int, step: int) -> None:
        e = self._log.timeline.state
        steps = self.steps()
        if not 0 <= step < len(steps):
            raise RuleViolation(f"{self._log.ruleset.title} has no step {step + 1} in a turn")
        events = self.events_at(e, turn, step)
        self._log.append(events, f"Turn {turn}: {steps[step].label}", steps[step].rule)
