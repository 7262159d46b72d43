"""What a procedure emits, checked against what it declares before anything is stored (issue 46).

A procedure declares the aircraft it acts on in its inputs (``attacker``, ``target``,
``aircraft``: API.md) and its rules in ``decide``; ``Procedure.resolve`` is the log record of the
roll, then the events ``decide`` made. A plugin's procedure that emits more (an extra damage
event, on its target or on an aircraft the action does not name) had it recorded as real. Now:

- every event after the record changes only aircraft the action names;
- a procedure whose ``resolve`` is its own (not the contract's) must emit exactly what the
  contract's ``resolve`` makes of the same inputs and dice: the record and ``decide``'s events.

Anything else is the ruleset's failure (``GuestError``, naming the ruleset, the procedure and
what it emitted); nothing is recorded. The built-in procedures use the contract's ``resolve``:
for them the second check costs nothing.
"""

from __future__ import annotations

from typing import Any

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.events import ProcedureResolved
from app.core.guest import GuestError, ruleset_name
from app.core.procedure import Procedure
from app.core.ruleset import Resolution

#: the input fields that name the aircraft of an action (API.md)
ROLES = ("attacker", "target", "aircraft")


def check_emitted(
    ruleset: Any, proc: Procedure, inputs: Any, res: Resolution, engagement: Engagement
) -> None:
    """``GuestError`` if ``res`` emits what ``proc`` does not declare (module docstring)."""
    call = f"resolve {proc.title}"
    named = {ref for f in ROLES if isinstance(ref := getattr(inputs, f, None), str)}
    events = list(res.events)
    if not events or not isinstance(events[0], ProcedureResolved):
        raise GuestError(
            ruleset_name(ruleset), call, "its first event is not the record of its roll"
        )
    for ev in events[1:]:
        stray = sorted(ev.touches() - named)
        if stray:
            raise GuestError(
                ruleset_name(ruleset),
                call,
                f"it emitted {ev.kind.replace('_', ' ')} on {', '.join(stray)}, an aircraft "
                "this action does not name",
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
