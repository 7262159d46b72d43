"""The clock: the steps of a turn, and the game moved a step on or back (what happens by
itself at a step, ``Ruleset.on_clock``, logged with it)."""

from __future__ import annotations

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import ClockSet, Event
from app.core.guest import call_guest, events_list, steps_list
from app.core.ruleset import Step
from app.session import guard
from app.session.log import GameLog


class Clock:
    """The sequence of play of the game's ruleset."""

    def __init__(self, log: GameLog) -> None:
        self._log = log
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
            steps = call_guest(
                self._log.ruleset,
                "steps (sequence of play)",
                self._log.ruleset.steps,
                e,
                time_limit=guard.TIME_LIMIT,
                returns=self._checked_steps,
            )
            kept = self._steps = (e, list(steps))
        return list(kept[1])

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
        """Advance the sequence of play one step (a new turn after the last step)."""
        e = self._log.timeline.state
        steps = self.steps()
        turn, step = (e.turn, e.step + 1) if e.step + 1 < len(steps) else (e.turn + 1, 0)
        self._set_clock(turn, step)

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
        self._log.append(events, f"Turn {turn}: {steps[step].label}", steps[step].rule)
