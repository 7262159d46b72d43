"""What a procedure emits, checked against what it declares before anything is stored (issue 46).

A procedure declares its rules in ``decide`` (its one function: API.md); ``Procedure.resolve`` is
the log record of the roll, then the events ``decide`` made. A plugin's procedure with a
``resolve`` of its own that emits more (an extra damage event) had it recorded as real. Now such
a procedure must emit exactly what the contract's ``resolve`` makes of the same inputs and dice:
the record of its roll first, then ``decide``'s events; anything else is the ruleset's failure
(``GuestError``, naming the ruleset, the procedure and what it emitted), and nothing is
recorded. The built-in procedures use the contract's ``resolve``: for them the check costs
nothing.

(Which aircraft an action may change is not something a procedure declares: a missile's flight
changes the saucer it flies at, a Genie every aircraft in its blast, an air combat the
counters of both bases; ``decide`` says it, and the draft checks each event it makes.)
"""

from __future__ import annotations

from typing import Any

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.events import ProcedureResolved
from app.core.guest import GuestError, ruleset_name
from app.core.procedure import Procedure
from app.core.ruleset import Resolution


def check_emitted(
    ruleset: Any, proc: Procedure, inputs: Any, res: Resolution, engagement: Engagement
) -> None:
    """``GuestError`` if ``res`` emits what ``proc`` does not declare (module docstring)."""
    call = f"resolve {proc.title}"
    events = list(res.events)
    if not events or not isinstance(events[0], ProcedureResolved):
        raise GuestError(
            ruleset_name(ruleset), call, "its first event is not the record of its roll"
        )
    if type(proc).resolve is Procedure.resolve:
        return  # the contract's own: the record and decide's events, by construction
    faces = [face for roll in res.rolls for face in roll.dice]
    expected = Procedure.resolve(proc, inputs, TableDice(faces), engagement)
    made = list(expected.events[1:])  # (its record says the dice were typed: not compared)
    if made != events[1:] or expected.outcome != res.outcome:
        extra = [ev.kind.replace("_", " ") for ev in events[1:] if ev not in made]
        raise GuestError(
            ruleset_name(ruleset),
            call,
            "it emitted events its rules (decide) did not make with these dice"
            + (f": {', '.join(extra)}" if extra else ""),
        )
