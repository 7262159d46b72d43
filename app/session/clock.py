"""The clock: the steps of a turn, and the game moved a step on or back (what happens by
itself at a step, ``Ruleset.on_clock``, logged with it)."""

from __future__ import annotations

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

    def steps(self) -> list[Step]:
        """The steps of a turn as the ruleset gives them now (guarded: issue 31)."""
        return list(
            call_guest(
                self._log.ruleset,
                "steps (sequence of play)",
                self._log.ruleset.steps,
                self._log.timeline.state,
                time_limit=guard.TIME_LIMIT,
                returns=steps_list,
            )
        )

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
