"""The rows the desk's Roster, Turn panel, title and status bar are drawn from (issue 36).

A small summary of the projection as plain data (JSON-able dicts and lists, no widgets):

- ``desk``: the game's title, its ruleset (id and title), the panels it uses, whether it was
  opened read-only, its turn, the current step's phase and segment, and who holds the
  initiative marker;
- ``roster``: the sides (``SideRow``: in play of how many) and, per aircraft, ``AircraftRow``:
  its id, name, side, type (the card's printed name, the catalogue id, the count), pilot,
  status flags, damage and whether it is in play;
- ``turn``: ``TurnRows``: the turn, the steps of the sequence of play (``StepRow``), which is
  current, and who acts now, in order (``ActingRow``: the aircraft or side, what it does, the
  procedure a double-click opens, whether it has acted, why it cannot).

The model (``EngagementModel``) makes them from the live game (``desk_rows``, ``roster_rows``,
``turn_rows`` here) and keeps them in the game file after every change
(``app.startup.summary_file``); a game session that wrote to a game file keeps them as it closes
(``session_rows``), so a script with no desk leaves them current too. They sit below the desk (not
in ``app.ui``) for that reason: the session keeps what the desk draws, and ``used_panels`` (which
panels a game uses) is part of it. At start-up the desk reads them from the file, with plain
``sqlite3`` and ``json``, and paints the Roster and the Turn panel from them before pydantic, the
game's models or its ruleset are imported; when the game is open the same panels draw the same rows
from the live game. One way of drawing each panel.

Pure Python: nothing here imports Qt, pydantic or the game's core at import time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, cast

if TYPE_CHECKING:
    from collections.abc import Iterator

    from app.core.acting import ActingLine
    from app.core.engagement import AircraftState, Engagement
    from app.core.log_index import Logged
    from app.core.ruleset import Ruleset, Step


class _Clock(Protocol):
    def steps(self) -> list[Step]: ...


class _WhoActs(Protocol):
    def acting(self) -> list[ActingLine]: ...


class _Refusals(Protocol):
    def line_refusal(self, procedure: str, who: str, other: str | None = None) -> str: ...


class _Log(Protocol):
    def iter_stored(self, after: int = 0, page: int = 2000) -> Iterator[Logged]: ...


class GameSession(Protocol):
    """What the rows are made from: an open game (``app.session.GameSession``, which keeps
    them as it closes: named here by what it offers, not imported) and the parts of it the
    rows read (its clock, who acts now, why a line cannot act, its log)."""

    @property
    def engagement(self) -> Engagement: ...
    @property
    def read_only(self) -> bool: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def clock(self) -> _Clock: ...
    @property
    def who_acts(self) -> _WhoActs: ...
    @property
    def refusals(self) -> _Refusals: ...
    @property
    def log(self) -> _Log: ...


class AircraftRow(TypedDict):
    """One aircraft as the Roster shows it."""

    id: str
    name: str
    side: str
    #: the card's printed name, else the catalogue id
    type: str
    type_id: str
    count: int
    pilot: str
    #: the status flags, most serious first
    status: list[str]
    damage: int
    max_damage: int | None
    in_play: bool


class SideRow(TypedDict):
    side: str
    in_play: int
    of: int


class RosterRows(TypedDict):
    sides: list[SideRow]
    aircraft: list[AircraftRow]


class StepRow(TypedDict):
    """One line of the sequence of play: ``Impulse 1 · a) Movement`` and its rule."""

    label: str
    rule: str


class CurrentStep(TypedDict):
    """The current step, as the Turn panel's heading and its "what" line name it."""

    #: the heading's name of it; where in the turn it is; what it says; its rule
    heading: str
    where: str
    text: str
    rule: str


class ActingRow(TypedDict):
    """One line of who acts now."""

    who: str
    #: the aircraft's name (a side as itself)
    name: str
    what: str
    marker: bool
    #: the procedure a double-click opens ("" for none), its title, and the other aircraft
    procedure: str
    procedure_title: str
    target: str
    target_name: str
    #: resolved in this step (ticked off)
    done: bool
    #: why it cannot act as it stands ("" when it can)
    cannot: str


class TurnRows(TypedDict):
    turn: int
    #: the index of the current step in ``steps`` (-1: none), and what it says
    current: int
    now: CurrentStep | None
    steps: list[StepRow]
    acting: list[ActingRow]
    #: why who acts now cannot be shown ("" when it can)
    acting_error: str
    #: why the sequence of play cannot be shown ("" when it can)
    steps_error: str


class DeskRows(TypedDict):
    title: str
    ruleset: str
    ruleset_title: str
    variants: list[str]
    used: list[str]
    read_only: bool
    turn: int
    #: the current step's phase and segment lines of the status bar
    phase: str
    segment: str
    #: the initiative marker's holder, by name ("" for none)
    initiative: str


class Summary(TypedDict):
    desk: DeskRows
    roster: RosterRows
    turn: TurnRows


# -- names ---------------------------------------------------------------------------------------


def who_name(engagement: Engagement, who: str) -> str:
    """An aircraft id as the aircraft's name; a side as itself."""
    a = engagement.aircraft.get(who)
    return a.name if a is not None else who


def phase_name(step: Step) -> str:
    """The phase, with its impulse: ``Impulse 2``, ``Movement, impulse 2``, ``Set speed``."""
    if step.impulse is None:
        return step.phase
    if step.phase.lower() == "impulse":
        return f"{step.phase} {step.impulse}"
    return f"{step.phase}, impulse {step.impulse}"


def step_where(step: Step) -> str:
    """Where in the turn a step is: ``Impulse 2, segment B``."""
    return phase_name(step) + (f", segment {step.segment}" if step.segment else "")


def step_heading(step: Step) -> str:
    """The step as the Turn heading names it: its title, with its phase when the title only
    goes on from it (the UFO game's "Cannon firing, at the half way point")."""
    if step.title[:1].islower() and step.phase and step.phase != step.title:
        return f"{step.phase}, {step.title}"
    return step.title


def step_label(step: Step) -> str:
    """A step as one line of the sequence of play: ``Impulse 1 · a) Movement``."""
    if step.segment:
        return f"{phase_name(step)} · {step.segment}) {step.title}"
    if step.title != step.phase:
        return f"{phase_name(step)} · {step.title}"
    return phase_name(step)


#: the order status flags are shown in (most serious first); others after, by name
STATUS_ORDER = (
    "on_fire",
    "out_of_control",
    "wounded",
    "destroyed",
    "ejected",
    "broken_off",
    "crashed",
    "pilot_killed",
    "engine_damaged",
    "loaded",
)


def ordered_status(status: Iterable[str]) -> list[str]:
    """Status flags most serious first (``STATUS_ORDER``), the others after by name."""
    rank = {s: i for i, s in enumerate(STATUS_ORDER)}
    return sorted(status, key=lambda s: (rank.get(s, 99), s))


# -- the panels a game uses (``app.ui.shell.desk_layout`` lays them out) -------------------------

#: the panels every game uses
ALWAYS = ("roster", "turn", "combat", "ledgers", "game_log", "after_action")


def used_panels(ruleset: Ruleset | None) -> frozenset[str]:
    """The panels a game of this ruleset uses (every panel when no game is open)."""
    if ruleset is None:
        return frozenset((*ALWAYS, "initiative", "angle_off", "displays", "critical_log"))
    if ruleset.panels is not None:
        return frozenset((*ALWAYS, *ruleset.panels))
    from app.core.ruleset import Ruleset

    out = set(ALWAYS)
    if ruleset.initiative:
        out.add("initiative")
    if ruleset.geometry is not None:
        out.add("angle_off")
    if type(ruleset).displays is not Ruleset.displays:
        out.add("displays")
    if ruleset.uses_critical_hits:
        out.add("critical_log")
    return frozenset(out)


# -- rows of the live game -------------------------------------------------------------------------


def aircraft_row(a: AircraftState) -> AircraftRow:
    card_name = a.card.get("name") if isinstance(a.card, Mapping) else None
    return {
        "id": a.id,
        "name": a.name,
        "side": a.side,
        "type": str(card_name or a.type_id),
        "type_id": a.type_id,
        "count": a.count,
        "pilot": a.pilot or "",
        "status": ordered_status(a.status),
        "damage": a.damage,
        "max_damage": a.max_damage,
        "in_play": a.in_play,
    }


def side_rows(engagement: Engagement) -> list[SideRow]:
    rows: list[SideRow] = []
    for side in engagement.sides:
        members = engagement.on_side(side)
        rows.append(
            {"side": side, "in_play": sum(1 for a in members if a.in_play), "of": len(members)}
        )
    return rows


def step_row(step: Step) -> StepRow:
    return {"label": step_label(step), "rule": step.rule or ""}


#: the last sequence of play made into rows: its steps, and their rows
_step_rows: tuple[list[Step], list[StepRow]] = ([], [])


def step_rows(steps: list[Step]) -> list[StepRow]:
    """The rows of a sequence of play, made again only when its steps change: a ruleset gives
    the same printed steps at every step of a turn, whose rows the Turn panel and the players'
    pages ask for at each (issue 48: a hundred rows made at every step)."""
    global _step_rows
    kept, rows = _step_rows
    if len(kept) != len(steps) or any(a is not b for a, b in zip(kept, steps, strict=True)):
        rows = [step_row(s) for s in steps]
        _step_rows = (list(steps), rows)
    return list(rows)


def current_step(step: Step) -> CurrentStep:
    return {
        "heading": step_heading(step),
        "where": step_where(step),
        "text": step.text or step.title,
        "rule": step.rule or "",
    }


def safe_steps(session: GameSession) -> tuple[list[Step], str]:
    """The ruleset's steps, or none and why (a guest that failed: the desk carries on)."""
    from app.core.errors import RuleViolation

    try:
        return session.clock.steps(), ""
    except RuleViolation as err:
        return [], str(err)


def desk_rows(session: GameSession, steps: list[Step]) -> DeskRows:
    """The title, ruleset and status bar of the game as it is, with its steps."""
    e = session.engagement
    step = steps[e.step] if 0 <= e.step < len(steps) else None
    phase, segment = "", ""
    if step is not None:
        phase = phase_name(step)
        if step.segment:
            segment = f"Segment {step.segment}) {step.title}"
        elif step.title != step.phase:
            phase = f"{phase}: {step.title}"
    return {
        "title": e.title,
        "ruleset": session.ruleset.id,
        "ruleset_title": session.ruleset.title,
        "variants": list(e.variants),
        "used": sorted(used_panels(session.ruleset)),
        "read_only": session.read_only,
        "turn": e.turn,
        "phase": phase,
        "segment": segment,
        "initiative": who_name(e, e.initiative_marker) if e.initiative_marker else "",
    }


def acting_rows(session: GameSession, acted: set[tuple[str, str]]) -> tuple[list[ActingRow], str]:
    """Who acts now, in order, or no lines and why they cannot be shown."""
    from app.core.errors import RuleViolation

    try:
        order = session.who_acts.acting()
    except RuleViolation as err:  # a guest that failed: said in place (issue 31)
        return [], str(err)
    e = session.engagement
    procedures = session.ruleset.procedures
    rows: list[ActingRow] = []
    for line in order:
        who, what, proc, target = line.who, line.what, line.procedure, line.other
        # the initiative roll is every roll line's: one roll of the whole game (issue 29)
        done = bool(proc) and (
            (proc, who) in acted or (proc == session.ruleset.initiative and (proc, "") in acted)
        )
        opens = proc in procedures
        cannot = ""
        if opens and not done:
            cannot = session.refusals.line_refusal(proc, who, target or None)
        rows.append(
            {
                "who": who,
                "name": who_name(e, who),
                "what": what,
                "marker": e.initiative_marker == who,
                "procedure": proc if opens else "",
                "procedure_title": procedures[proc].title if opens else "",
                "target": target,
                "target_name": who_name(e, target) if target else "",
                "done": done,
                "cannot": cannot,
            }
        )
    return rows, ""


def turn_rows(
    session: GameSession, steps: list[Step], steps_error: str, acted: set[tuple[str, str]]
) -> TurnRows:
    e = session.engagement
    acting, error = acting_rows(session, acted)
    here = 0 <= e.step < len(steps)
    return {
        "turn": e.turn,
        "current": e.step if here else -1,
        "now": current_step(steps[e.step]) if here else None,
        "steps": step_rows(steps),
        "acting": acting,
        "acting_error": error,
        "steps_error": steps_error,
    }


def roster_rows(engagement: Engagement) -> RosterRows:
    return {
        "sides": side_rows(engagement),
        "aircraft": [aircraft_row(a) for a in engagement.aircraft.values()],
    }


def session_rows(session: GameSession) -> Summary:
    """Every row the desk draws of the game as ``session`` has it, as the desk's model makes
    them (``EngagementModel.summary``): who acted in the current step read from the log from
    that step on (``LogReader.acted_now``). What a game session keeps when it closes."""
    from app.core.log_index import LogReader

    steps, error = safe_steps(session)
    since = session.engagement.clock_seq
    acted = LogReader()
    acted.feed(session.log.iter_stored(after=max(since - 1, 0)))
    return {
        "desk": desk_rows(session, steps),
        "roster": roster_rows(session.engagement),
        "turn": turn_rows(session, steps, error, acted.acted_now()),
    }


# -- rows read back ------------------------------------------------------------------------------

#: "the kept rows have not been read yet" (``app.ui.shell.application.run``)
UNREAD = object()


def kept_rows(where: str) -> Summary | None:
    """The rows kept in the game file ``where``, if they are current and well formed
    (``app.startup.summary_file.read_summary``); None otherwise. Imports nothing heavy."""
    from app import __version__
    from app.startup.summary_file import read_summary

    found = read_summary(where, __version__)
    return cast(Summary, found) if found is not None and well_formed(found) else None


def well_formed(summary: Any) -> bool:
    """A summary read back from a file has the parts and types the panels draw from (a file
    is outside input: anything else is not shown, and the game opens as without it)."""
    try:
        desk, roster, turn = summary["desk"], summary["roster"], summary["turn"]
        strings = ("title", "ruleset", "ruleset_title", "phase", "segment", "initiative")
        ok = all(isinstance(desk[k], str) for k in strings)
        ok = ok and isinstance(desk["turn"], int) and isinstance(desk["read_only"], bool)
        ok = ok and all(isinstance(n, str) for n in desk["used"] + desk["variants"])
        for side in roster["sides"]:
            ok = ok and isinstance(side["side"], str) and isinstance(side["in_play"], int)
            ok = ok and isinstance(side["of"], int)
        for a in roster["aircraft"]:
            ok = ok and all(
                isinstance(a[k], str) for k in ("id", "name", "side", "type", "type_id", "pilot")
            )
            ok = ok and isinstance(a["count"], int) and isinstance(a["damage"], int)
            ok = ok and (a["max_damage"] is None or isinstance(a["max_damage"], int))
            ok = ok and isinstance(a["in_play"], bool)
            ok = ok and all(isinstance(s, str) for s in a["status"])
        ok = ok and isinstance(turn["turn"], int) and isinstance(turn["current"], int)
        ok = ok and isinstance(turn["acting_error"], str) and isinstance(turn["steps_error"], str)
        ok = ok and -1 <= turn["current"] < len(turn["steps"])
        for s in turn["steps"]:
            ok = ok and isinstance(s["label"], str) and isinstance(s["rule"], str)
        now = turn["now"]
        ok = ok and (now is None) == (turn["current"] == -1)
        if now is not None:
            ok = ok and all(isinstance(now[k], str) for k in ("heading", "where", "text", "rule"))
        for line in turn["acting"]:
            ok = ok and isinstance(line["marker"], bool) and isinstance(line["done"], bool)
            ok = ok and all(
                isinstance(line[k], str) for k in ActingRow.__annotations__ if k not in BOOLS
            )
        return bool(ok)
    except (KeyError, TypeError, IndexError):
        return False


BOOLS = ("marker", "done")
