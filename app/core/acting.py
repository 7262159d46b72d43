"""The "who acts now" line (``Ruleset.acting``): a typed value with named fields, where every
action starts (issue 44: it was a positional tuple read by index)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ActingLine:
    """One line of "who acts now" (``Ruleset.acting``), where every action starts: who acts,
    what they do, and, when one procedure is what they do, its id (the desk opens its form
    for them) and the other aircraft the roll is against when it is a known one."""

    #: the aircraft id (or the side) that acts
    who: str
    #: what they do, as the umpire reads it ("may fire guns (7.2)")
    what: str
    #: the id of the procedure the line opens; "" when it opens none
    procedure: str = field(default="", kw_only=True)
    #: the aircraft id the roll is against (a missile's target); "" when none is known
    other: str = field(default="", kw_only=True)
