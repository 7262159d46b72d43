"""The rules procedures: an action prepared as the form shows it (issue 28), its next die,
and resolved, appended and applied (a script's ``perform`` or the desk's ``resolve``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from app.core import shapes
from app.core.acting import ActingLine
from app.core.board import reading as board_reading
from app.core.dice import DiceSource, SeededDice, TableDice
from app.core.emitted import check_emitted
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.guest import GuestError, Later, call_guest, call_guest_then, ruleset_name
from app.core.prepared import (
    ROLES,
    DieToType,
    Prepared,
    Question,
    dice_of,
    first_enemy,
    line_roles,
    prepare,
)
from app.core.procedure import Procedure, input_value
from app.core.ruleset import Resolution, Ruleset
from app.core.ruling import stamped
from app.core.text import refuse_control
from app.session import guard
from app.session.lines import WhoActs
from app.session.log import GameLog
from app.session.odds import Odds, procedure_of


class Actions:
    """Prepare, roll and resolve the ruleset's procedures."""

    def __init__(self, log: GameLog, who_acts: WhoActs, odds: Odds) -> None:
        self._log = log
        self._who_acts = who_acts
        self._odds = odds
        #: forms' questions prepared ahead for a game (``keep``), answered once it is the game
        self._kept: tuple[Engagement, list[tuple[Question, Prepared]]] | None = None

    # what a draft reads beside these (``app.core.draft.Desk``: the desk's draft is given this
    # part, not the whole session)

    @property
    def engagement(self) -> Engagement:
        return self._log.engagement

    @property
    def ruleset(self) -> Ruleset:
        return self._log.ruleset

    def acting(self) -> list[ActingLine]:
        return self._who_acts.acting()

    def perform(
        self,
        procedure: str,
        inputs: BaseModel | Mapping[str, Any],
        dice: DiceSource | None = None,
        *,
        overrides: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> Resolution:
        """Validate, resolve, append durably and apply one rules procedure.

        The inputs are prepared as the desk prepares them (``prepare``): values the script
        leaves out are read from the aircraft's cards and state and from the board; a given
        card or board value that disagrees is refused unless ``overrides`` (field title ->
        (card value, value used)) names it, and the log records each override (issue 13).
        The log line names who did what to whom ("Olds 1 — Gun attack on Red 1: ...")."""
        shapes.perform_args(procedure, inputs, dice, overrides)  # issue 31: wrong shapes refused
        proc = procedure_of(self._log.ruleset, procedure)
        if isinstance(inputs, BaseModel):
            given = {f: getattr(inputs, f) for f in inputs.model_fields_set}
        else:
            given = dict(inputs)
        roles: dict[str, str | None] = {}
        for field in ROLES:
            ref = given.pop(field, None)
            if isinstance(ref, str):
                self._log.timeline.state.get(ref)  # a removed aircraft is refused by name first
            if field in proc.Inputs.model_fields:
                roles[field] = ref
            elif ref is not None:
                given[field] = ref  # not a field of this procedure: refused by its Inputs
        titles = {info.title or name: name for name, info in proc.Inputs.model_fields.items()}
        overridden = frozenset(titles.get(t, t) for t in (overrides or {}))

        def prepared() -> Prepared:  # resolve uses neither its dice nor the dry run's refusal
            return self.prepare(
                procedure,
                roles,
                given,
                overridden,
                choose_target=False,
                check=False,
                dice=False,
                first_roll=False,  # resolve runs the rules next, and says what they refuse
            )

        return self._resolve(proc, prepared, dice, follows=False)

    def prepare(
        self,
        procedure: str,
        roles: Mapping[str, str | None] | None = None,
        typed: Mapping[str, Any] | None = None,
        overridden: frozenset[str] | set[str] = frozenset(),
        *,
        choose_target: bool = True,
        notes: Sequence[str] = (),
        check: bool = True,
        pending: Collection[str] = (),
        dice: bool = True,
        first_roll: bool = True,
        first_offered: bool = False,
        at: Engagement | None = None,
    ) -> Prepared:
        """The procedure with these aircraft (``roles``), the values typed and the locked ones
        overridden, made ready as the form shows it and resolve uses it
        (``app.core.prepared``). With ``choose_target`` an attacker without a target (``None``)
        is given the first enemy in play; an empty string is the umpire's own what-if. With
        ``check`` the rules run up to their first die, so a refusal that needs no more typing
        is said now (``Prepared.refused``, issue 29), unless it reads a ``pending`` value (one
        the form shows but the umpire has not typed); a script's ``perform`` skips it (resolve
        says it). ``dice=False`` leaves the dice unworked (``Prepared.dice`` empty): for "can
        this line act?", never for a form or a resolve; ``first_roll=False`` runs no rules at
        all (a script's ``perform``, resolved at once); ``first_offered`` has a pick still to
        make stand in with the first offered ("can this line act", ``prepared.prepare``).
        ``at``: on that game rather than the game as it is (the next step worked out ahead,
        ``app.session.ahead``)."""
        rs = self._log.ruleset
        proc = procedure_of(rs, procedure)
        e = self._log.timeline.state if at is None else at
        kept = self._kept
        if kept is not None and kept[0] is e and check and dice and first_roll:
            plain = (choose_target, notes, pending, first_offered) == (True, (), (), False)
            asked = Question(procedure, dict(roles or {}), dict(typed or {}), frozenset(overridden))
            found = next((p for q, p in kept[1] if plain and _same_question(q, asked)), None)
            if found is not None:
                return found
        roles = dict(roles or {})
        said = list(notes)
        for ref in roles.values():
            if ref and ref not in e.aircraft:
                raise RuleViolation(f"{ref!r} is not an aircraft of this game")
        if choose_target and "target" in proc.Inputs.model_fields and roles.get("attacker"):
            if roles.get("target") is None:
                roles["target"] = first_enemy(e, roles["attacker"])
                if roles["target"]:
                    said.append(
                        f"Target: {e.aircraft[roles['target']].name}, the first enemy in play "
                        "(change it in Target)."
                    )
        roles = {r: (a or None) for r, a in roles.items()}
        board: dict[str, Any] = {}
        try:
            board = self.board_readings(roles, at=e)
        except (RuleViolation, ValueError) as err:
            said.append(f"Cannot read the board: {err}")
        prepared: Prepared = call_guest(
            rs,
            f"prepare {proc.title}",
            prepare,
            proc,
            e,
            roles=roles,
            typed=typed,
            overridden=overridden,
            board=board,
            whole_game=procedure in (rs.initiative, rs.pass_initiative),
            notes=said,
            check=check,
            pending=pending,
            dice=dice,
            first_roll=first_roll,
            first_offered=first_offered,
            time_limit=guard.TIME_LIMIT,  # the ruleset's prefill and choices run in it (issue 31)
        )
        read = [v for v in prepared.values if v.source == "board"]
        if read:
            told = ", ".join(f"{v.title}: {_said(v.value)}" for v in read)
            prepared = replace(prepared, notes=(*prepared.notes, f"From the board: {told}"))
        return prepared

    def ask(self, question: Question, at: Engagement) -> Prepared:
        """A form's question prepared on the game ``at`` as ``prepare`` does (the rules run to
        their first die), not kept."""
        return self.prepare(
            question.procedure, question.roles, question.typed, question.overridden, at=at
        )

    def keep(self, at: Engagement, answers: Sequence[tuple[Question, Prepared]]) -> None:
        """Forms' questions prepared ahead for the game ``at`` (``app.session.ahead``): the
        same question asked of ``prepare`` once ``at`` is the game is answered from these."""
        self._kept = (at, list(answers))

    def prepare_line(
        self,
        procedure: str,
        who: str,
        other: str | None = None,
        *,
        dice: bool = True,
        first_offered: bool = False,
        pending: Collection[str] = (),
        at: Engagement | None = None,
    ) -> Prepared:
        """A "who acts now" line (``Ruleset.acting``: who, what, procedure, other aircraft)
        made ready: the line's aircraft in the procedure's ``line_role`` (the aircraft that
        owes a damage, critical, fire or ejection roll is the one it applies to), the other
        aircraft opposite; an attack that names no target opens on the first enemy in play.
        ``pending`` and ``at``: as in ``prepare``."""
        proc = procedure_of(self._log.ruleset, procedure)
        roles = line_roles(proc, self._log.timeline.state if at is None else at, who, other)
        return self.prepare(
            procedure, roles, dice=dice, first_offered=first_offered, pending=pending, at=at
        )

    def first_roles(self, procedure: str) -> dict[str, str | None]:
        """Aircraft for a procedure picked with none: the first in play whose cards it reads
        (a UFO's move is the UFO's, not a fighter's), as a line of its would place them."""
        proc = procedure_of(self._log.ruleset, procedure)
        e = self._log.timeline.state
        for a in e.aircraft.values():
            if not a.in_play:
                continue
            roles = line_roles(proc, e, a.id, None)
            if not self.prepare(procedure, roles).cannot:
                return roles
        return {}

    def next_die(self, prepared: Prepared, typed: Sequence[int]) -> DieToType | str | None:
        """The next die the rules roll once ``typed`` are the dice so far, or ``None`` when
        they need no more (issue 29: a roll that stops early, "up to 3 entry rolls", skips the
        dice it never rolls; one that goes on asks for its next die as soon as the last is
        typed); "" when it cannot be told (a refusal, dice that do not fit). Nothing is
        written."""
        engagement = self._log.timeline.state
        if prepared.inputs is None or prepared.seq != engagement.seq:
            return ""
        proc = procedure_of(self._log.ruleset, prepared.procedure)
        so_far = list(typed)
        inputs = prepared.inputs

        def wants_more() -> tuple[bool | None, tuple[str, str] | None]:
            """True: the rules want another die (the one wanted); None: refused or failed
            (said on resolve). Its answer is all it tells: a question asked again is
            answered alike (``app.core.guest.replaying``)."""
            dice = TableDice(list(so_far))
            try:
                proc.resolve(inputs, dice, engagement)
            except Exception:  # noqa: BLE001 - only a dry run: the refusal is said on resolve
                return (True if dice.ran_out and dice.wanted is not None else None), dice.wanted
            return False, dice.wanted

        try:  # the ruleset's code, guarded with the time limit (issue 31)
            more, wanted = call_guest(
                self._log.ruleset,
                f"resolve {proc.title}",
                wants_more,
                time_limit=guard.TIME_LIMIT,
            )
        except RuleViolation:
            return ""
        if more is None:
            return ""
        if more and wanted is not None:
            names = {a.id: a.name for a in engagement.aircraft.values()} | {
                r: engagement.aircraft[a].name
                for r, a in prepared.roles.items()
                if a and a in engagement.aircraft
            }
            return dice_of([wanted], names)[0]
        return None

    def resolve(self, prepared: Prepared, dice: DiceSource | None = None) -> Resolution:
        """Resolve exactly the prepared action: its inputs, its roles, its overrides. One
        prepared on a game that changed since (another station or window acted first) is
        refused, naming what happened, and nothing is written."""
        if prepared.seq != self._log.timeline.state.seq:
            raise self._log.acted_first(prepared.seq)
        _ready(prepared)
        proc = procedure_of(self._log.ruleset, prepared.procedure)
        return self._resolve(proc, lambda: prepared, dice, follows=True)

    def _resolve(
        self,
        proc: Procedure,
        make: Callable[[], Prepared],
        dice: DiceSource | None,
        *,
        follows: bool,
    ) -> Resolution:
        """``resolve`` of the action ``make`` prepares: the action made ready (a script's) and
        resolved in one guarded call (issue 44: one hand-over to a worker thread for both).
        The odds to store with it are worked out by the same worker right after, a guarded
        call of their own (``call_guest_then``: no second hand-over), waited for once the
        result is known to be taken: odds that fail, run out of time, or were given up
        before leave the action recorded without them (``Odds.to_store``). ``follows``: the
        "who acts now" line the result makes owed is found (the desk opens it next; a
        script's ``perform`` does not ask the ruleset who acts for it, issue 44)."""
        log = self._log
        engagement = log.timeline.state
        before = self._who_acts.owed(proc.id) if follows else []

        def worked_out() -> Worked:
            """The action, its resolution and the typed dice it left unused: all it tells (a
            question asked again is answered alike, ``app.core.guest.replaying``)."""
            prepared = make()
            _ready(prepared)
            chosen = dice if dice is not None else SeededDice()
            res = proc.resolve(prepared.inputs, chosen, engagement)
            return prepared, res, list(getattr(chosen, "unused", None) or [])

        later: Later | None = None
        try:
            if self._odds.wanted(proc):
                ahead = self._odds.ahead(log.ruleset, engagement)
                (prepared, res, extra), later = call_guest_then(
                    log.ruleset,
                    f"resolve {proc.title}",
                    worked_out,
                    f"odds of {proc.title}",
                    lambda worked: ahead(worked[0]),
                    time_limit=guard.TIME_LIMIT,
                    returns=_resolution,
                )
            else:
                prepared, res, extra = call_guest(
                    log.ruleset,
                    f"resolve {proc.title}",
                    worked_out,
                    time_limit=guard.TIME_LIMIT,
                    returns=_resolution,
                )
        except Exception:
            # a game that another window or station changed meanwhile (an aircraft it
            # removed, say) is said as such, never as the ruleset's failure
            if log.store.events(log.game_id, after=engagement.seq):
                log.refresh()
                raise log.acted_first(engagement.seq) from None
            raise
        now = log.timeline.state
        if now.seq != prepared.seq:  # taken in while the ruleset worked it out
            raise log.acted_first(prepared.seq)
        check_emitted(log.ruleset, proc, prepared.inputs, res, now)  # issue 46
        if isinstance(dice, TableDice) and extra:
            used = len(dice.values) - len(extra)
            raise RuleViolation(
                f"{proc.title} used {used} typed dice but {len(dice.values)} were typed "
                f"(unused: {', '.join(str(v) for v in extra)}); nothing was recorded: "
                "clear the extra values or check the order"
            )
        narrative = _named(now, prepared.inputs, proc.title, res.narrative)
        if prepared.overrides:
            narrative += (
                "; umpire's override: "
                + ", ".join(
                    f"{what} {card} -> {used}" for what, (card, used) in prepared.overrides.items()
                )
                + (f" (why: {prepared.reason})" if prepared.reason else "")
            )
        res = replace(
            res,
            narrative=narrative,
            events=stamped(res.events, prepared, self._odds.to_store(prepared, later)),
        )
        log.append(res.events, res.narrative, proc.rule)
        if not follows:
            return res
        return replace(res, follows=self._who_acts.follows(res, proc.id, before))

    def board_readings(
        self, inputs: BaseModel | Mapping[str, Any], at: Engagement | None = None
    ) -> dict[str, Any]:
        """What the ruleset's geometry reads off the pair these inputs name, when both are on
        the board (issue 18), on the game ``at`` (as it is, by default); empty otherwise."""
        get: Callable[[str], Any] = (
            (lambda f: input_value(inputs, f)) if isinstance(inputs, BaseModel) else inputs.get
        )
        first, target = get("attacker") or get("aircraft"), get("target")
        rs = self._log.ruleset
        if rs.geometry is None or not first or not target:
            return {}  # nothing for a geometry to read: no call into the ruleset (issue 44)
        relation = call_guest(
            rs,
            "geometry (board readings)",
            board_reading,
            rs.geometry,
            self._log.timeline.state if at is None else at,
            first,
            target,
            time_limit=guard.TIME_LIMIT,
        )
        readings = getattr(relation, "readings", None) if relation is not None else {}
        if not isinstance(readings, Mapping):
            raise GuestError(
                ruleset_name(rs), "geometry (board readings)", "readings not a mapping"
            )
        return dict(readings)


def _same_question(kept: Question, asked: Question) -> bool:
    """The same question (values typed that cannot be compared are not the same)."""
    try:
        return bool(kept == asked)
    except Exception:  # noqa: BLE001 - a typed value whose comparison fails: asked afresh
        return False


def _ready(prepared: Prepared) -> None:
    """Refuse a prepared action that cannot be resolved as it stands, saying why."""
    if prepared.disagrees:
        raise RuleViolation(prepared.disagrees)
    refuse_control("the override's reason", prepared.reason)  # issue 46: names are text
    if prepared.inputs is None:
        if prepared.invalid is not None:
            raise prepared.invalid
        if prepared.missing is not None:
            raise prepared.missing
        raise RuleViolation(prepared.error or "the inputs are not complete")


#: what ``_resolve``'s guarded call tells: the action, its resolution, the typed dice it left
#: unused
Worked = tuple[Prepared, Resolution, list[int]]


def _resolution(result: Worked) -> Worked:
    """A guest check (``call_guest``'s ``returns``) of ``_resolve``'s answer: its resolution."""
    if not isinstance(result[1], Resolution):
        raise TypeError(f"{type(result[1]).__name__}, not Resolution")
    return result


def _said(value: Any) -> str:
    """A value as the panel says it ("yes"/"no" for a flag)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _named(engagement: Engagement, inputs: Any, title: str, narrative: str) -> str:
    """A procedure's log line with who did it and to whom: "Olds 1 — Gun attack on Red 1: ...".
    A narrative that already starts with the aircraft's name is left as it is."""
    names = {
        f: engagement.aircraft[ref].name
        for f in ("attacker", "aircraft", "target")
        if isinstance(ref := input_value(inputs, f), str) and ref in engagement.aircraft
    }
    who = names.get("attacker") or names.get("aircraft")
    target = names.get("target")
    if who is None and target is None:
        return narrative
    if who is not None and narrative.startswith(who):
        return narrative
    head = f"{who} — {title}" if who else title
    return f"{head}{f' on {target}' if target else ''}: {narrative}"
