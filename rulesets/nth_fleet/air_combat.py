"""Air-to-air combat procedures (Nth Fleet 2.5-2.15)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from app.core.dice import DiceSource, Roll, sum_of
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import AttributesSet, LedgerChanged, StatusChanged
from app.core.procedure import Decision, Draft, Party, Procedure
from app.core.reckoning import Term, total
from app.core.ruleset import ProcedureInputs
from rulesets.nth_fleet.card import Card, card_of
from rulesets.nth_fleet.combat import (
    EW_EACH,
    EW_EACH_HELP,
    INT,
    MAX_ATTACK_TOTAL,
    MAX_EW,
    NON_INT,
    Combatant,
    EwCounts,
    allocate_aborts,
    allocate_losses,
    attack_total,
    damage_for_rolls,
    ew_modifier,
    in_shooter_order,
    roll_terms,
)
from rulesets.nth_fleet.displays import tracks_of
from rulesets.nth_fleet.state import NO_MISSION, Ledger, State, state_of
from rulesets.nth_fleet.tables import AttackTable, attack_table
from rulesets.nth_fleet.values import (
    STRATEGIC_ABORT_MISSIONS,
    STRIKE_MISSIONS,
    attack_value,
    defence_value,
    in_int_mode,
)

#: variant: one 2d5 roll is read on every column of a split attack (a reading of 2.9)
ONE_ROLL = "one_roll_for_split"
#: variant: damage reaches non-INTs only after every INT point is shot down (a reading of 2.12)
INTS_SCREEN = "ints_screen"
#: variant: a modified roll below the table's first row inflicts no damage (a reading of 2.9)
BELOW_TABLE_NO_DAMAGE = "below_table_no_damage"


def _damage_label(points: int) -> str:
    return "miss" if points == 0 else f"{points} damage points"


def _dice_for(who: str, columns: Sequence[int], variants: frozenset[str]) -> list[tuple[str, str]]:
    if not columns:
        return []
    if ONE_ROLL in variants:
        return [("2d5", f"{who} (every column)")]
    return [("2d5", f"{who}, {c} column") for c in columns]


def _describe(columns: Sequence[int], rolls: Sequence[Roll], mod: int, shown: bool) -> str:
    """The working as the table reads it: "2d5 = 1 + 2 = 3 +2 = 5 (column 40)", each die
    shown (issue 29), the DMs' sum whenever a DM applies (``shown``, even if they cancel);
    one roll read on every column is shown once per column."""
    if not columns:
        return "below the first column, no roll"
    sign = f" {mod:+d} = {{}}" if shown else ""
    parts = []
    for c, r in zip(columns, [*rolls] * len(columns) if len(rolls) == 1 else rolls, strict=False):
        dice = " + ".join(str(d) for d in r.dice)
        total = f" = {r.total}" if len(r.dice) > 1 else ""
        parts.append(f"2d5 = {dice}{total}{sign.format(r.total + mod)} (column {c})")
    return ", ".join(parts)


def attack_damage(
    table: AttackTable,
    dice: DiceSource,
    who: str,
    total_value: int,
    terms: Sequence[Term],
    variants: frozenset[str],
) -> tuple[int, str, tuple[Term, ...]]:
    """Nth Fleet 2.9-2.11: one force's attack. ``total`` is rounded down to a column, or split
    over several above the last (90 -> 40 + 50); 2d5 is rolled for each column (one roll read
    on every column with ``one_roll_for_split``), modified, and read on the table. The damage
    is the sum of the readings (``sum_of``, a pool: its odds are the readings convolved by
    icepool, never 11**k sequences). ``terms``: the DMs (``roll_terms``), added to each roll.
    The damage points, the working for the log, and the DMs as added to each die rolled."""
    modifier = total(terms)
    columns = table.split(total_value)
    below = BELOW_TABLE_NO_DAMAGE in variants
    rolls = _dice_for(who, columns, variants)

    def reading(cols: Sequence[int]) -> Callable[[int], int]:
        return lambda t: damage_for_rolls(table, cols, [t] * len(cols), modifier, below)

    if ONE_ROLL in variants and rolls:
        readings = [reading(columns)]
    else:
        readings = [reading([c]) for c in columns]
    pool = sum_of(dice, rolls, readings)
    added = tuple(replace(t, die=r.purpose) for r in pool.rolls for t in terms)
    return pool.value, _describe(columns, pool.rolls, modifier, bool(terms)), added


class AttackInputs(ProcedureInputs):
    attack_total: int = Field(
        0,
        ge=0,
        le=MAX_ATTACK_TOTAL,
        title="Attack value total",
        description=f"air points x attack value, summed (2.9); at most {MAX_ATTACK_TOTAL}",
    )
    friendly_ew: bool = Field(False, title="Friendly EW", description="+1 (2.10)")
    enemy_ew: bool = Field(False, title="Enemy EW", description="-1 (2.10)")
    friendly_ew_aircraft: int = Field(
        1, ge=1, le=MAX_EW, title="Friendly EW aircraft", description=EW_EACH_HELP
    )
    enemy_ew_aircraft: int = Field(
        1, ge=1, le=MAX_EW, title="Enemy EW aircraft", description=EW_EACH_HELP
    )
    on_cap: bool = Field(False, title="Fighters on CAP", description="+2 (2.11)")
    attacking_cap: bool = Field(False, title="Attacking CAP", description="-2 (2.11)")


class AirAttack(EwCounts, Procedure):
    """Nth Fleet 2.9-2.11: one force's attack on the air-to-air attack table (a what-if).

    The total is rounded down to a column, split over several columns above the last (90 ->
    40 + 50), and each column rolled with 2d5, modified +/-1 for friendly/enemy EW, +2 on CAP
    and -2 attacking CAP. It only logs its result; ``air_combat`` applies losses.
    """

    id = "air_attack"
    title = "Air-to-air attack (what-if)"
    rule = "Nth Fleet 2.9-2.11"
    Inputs = AttackInputs

    ew_count_fields = ("friendly_ew_aircraft", "enemy_ew_aircraft")

    def _terms(self, inputs: AttackInputs) -> list[Term]:
        each = EW_EACH in self.variants
        own = self.ew_count(inputs, "friendly_ew_aircraft") if inputs.friendly_ew else 0
        enemy = self.ew_count(inputs, "enemy_ew_aircraft") if inputs.enemy_ew else 0
        return roll_terms(
            ew_modifier(own, each), ew_modifier(enemy, each), inputs.on_cap, inputs.attacking_cap
        )

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        if a is None:
            return {}
        tracks = a.state.tracks
        on_cap = tracks.cap > 0 and tracks.aloft == 0
        points = tracks.cap if on_cap else tracks.aloft
        mission = None if on_cap else a.state.mission
        try:
            value = attack_value(a.aircraft.type_id, a.card, mission)
        except MissingTableValue:
            return {"on_cap": on_cap}
        return {"attack_total": points * value, "on_cap": on_cap}

    def decide(self, inputs: AttackInputs, dice: DiceSource, draft: Draft) -> Decision:
        damage, working, terms = attack_damage(
            attack_table(),
            dice,
            "attack",
            inputs.attack_total,
            self._terms(inputs),
            self.variants,
        )
        narrative = (
            f"air-to-air attack {inputs.attack_total}: {working} = {damage} damage points (2.9)"
        )
        return Decision(_damage_label(damage), narrative, modifiers=terms)


Cap = Literal["neither", "first", "second"]
#: the phase of each step of the ruleset's sequence of play (see ``NthFleet.steps``)
_PHASES = {0: "strategic air", 1: "activation"}


class CombatInputs(ProcedureInputs):
    """``attacker`` and ``target`` (optional) are one counter of each force, its lead, so the
    desk's attacker/target selection starts a combat. A force is its lead and the counters of
    its list; a list that is given holds its lead too (issue 43: every counter a force counts
    is listed where the umpire sees the force), and a lead left out of it is refused."""

    first: list[str] = Field(
        default_factory=list, title="First force", description="its counters, the Attacker's too"
    )
    second: list[str] = Field(
        default_factory=list, title="Second force", description="its counters, the Target's too"
    )
    first_attack: int | None = Field(
        None,
        ge=0,
        le=MAX_ATTACK_TOTAL,
        title="First force's attack",
        description="what-if total without counters",
    )
    second_attack: int | None = Field(
        None,
        ge=0,
        le=MAX_ATTACK_TOTAL,
        title="Second force's attack",
        description="what-if total without counters",
    )
    first_ew: bool = Field(
        False, title="EW supports the first force", description="besides its own EW counters"
    )
    second_ew: bool = Field(
        False, title="EW supports the second force", description="besides its own EW counters"
    )
    first_ew_aircraft: int = Field(
        1, ge=1, le=MAX_EW, title="EW aircraft supporting the first force", description=EW_EACH_HELP
    )
    second_ew_aircraft: int = Field(
        1,
        ge=1,
        le=MAX_EW,
        title="EW aircraft supporting the second force",
        description=EW_EACH_HELP,
    )
    cap: Cap = Field("neither", title="Force on CAP", description="+2 on CAP, -2 attacking it")
    phase: Literal["activation", "strategic air", "other"] = Field(
        "other", title="Phase", description="aborts: strikes (2.13), RCN and TC (2.14)"
    )
    first_picks: list[str] = Field(
        default_factory=list,
        title="First force's choice",
        description="enemy counters it shoots at first, in order (2.15)",
    )
    second_picks: list[str] = Field(
        default_factory=list,
        title="Second force's choice",
        description="enemy counters it shoots at first, in order (2.15)",
    )

    @model_validator(mode="after")
    def _each_side_known(self) -> Self:
        for side in ("first", "second"):
            if not self.counters(side) and getattr(self, f"{side}_attack") is None:
                raise ValueError(f"the {side} force needs its counters or an attack total")
        overlap = set(self.counters("first")) & set(self.counters("second"))
        if overlap:
            raise ValueError(f"{', '.join(sorted(overlap))} cannot fight on both sides")
        return self

    def counters(self, side: str) -> list[str]:
        """The counters of one force: ``attacker`` (first) or ``target`` (second), then the list."""
        lead = self.attacker if side == "first" else self.target
        ids = getattr(self, side)
        return list(dict.fromkeys([lead, *ids] if lead else ids))


@dataclass(frozen=True)
class _Force:
    who: str
    label: str
    members: tuple[Combatant, ...]
    states: dict[str, AircraftState]
    total: int
    #: the EW aircraft with the force (2.10): the supporting ones given and its own effective
    #: EW counters' air points
    ew: int
    cap: bool
    track: Literal["aloft", "cap"]


class AirCombat(EwCounts, Procedure):
    """Nth Fleet 2.5-2.15: two forces fight; damage is simultaneous; losses and aborts follow.

    Each force's attack (2.9-2.11, as ``air_attack``) inflicts damage points on the other.
    Enemy air points are shot down so that their defence values add up to the damage, rounded
    down, INTs first, the shooter choosing within each category (2.12, 2.15). In an activation
    phase as many enemy strike points abort as were shot down (2.13); in a strategic air phase,
    RCN and tactical coordination points (2.14). Aborted points go to the used track (2.1).
    """

    id = "air_combat"
    title = "Air-to-air combat"
    rule = "Nth Fleet 2.5-2.15"
    Inputs = CombatInputs
    ew_count_fields = ("first_ew_aircraft", "second_ew_aircraft")

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The phase, the force on CAP (a counter with points on CAP and none aloft), the two
        forces and their attack totals, so that the odds can be shown before the roll.

        Each force is its lead and every other counter of its side that can fight where the
        lead fights: on CAP for the force on CAP, aloft otherwise (issue 43: a counter out on
        a mission is not in a CAP's force, which would refuse the line as the desk offers
        it). The lists name the leads too: every counter counted is listed (the umpire
        unticks a counter not in the fight)."""
        out: dict[str, Any] = {"phase": _PHASES.get(engagement.step, "other")}
        on_cap: Cap = "neither"
        for side, cid in (("first", attacker), ("second", target)):
            if cid is not None:
                t = tracks_of(engagement.get(cid))
                if t.cap and not t.aloft:
                    on_cap = "first" if side == "first" else "second"
                    out["cap"] = on_cap
        if attacker is None or target is None:
            return out
        out.update(
            first=_fighting(engagement, attacker, "cap" if on_cap == "first" else "aloft"),
            second=_fighting(engagement, target, "cap" if on_cap == "second" else "aloft"),
        )
        forces = self._read_forces(engagement, {"attacker": attacker, "target": target, **out})
        if forces is None:
            return out
        first, second = forces
        out.update(first_attack=first.total, second_attack=second.total)
        if EW_EACH not in self.variants:
            # its own EW counters count anyway; ticking "supports" would count them twice
            out.update(first_ew=first.ew > 0, second_ew=second.ew > 0)
        return out

    def complete(self, engagement: Engagement, values: Mapping[str, Any]) -> dict[str, Any]:
        """The two forces' attack totals (2.9), worked out from the counters ticked in each
        force (issue 28: they follow the forces, never stale)."""
        forces = self._read_forces(engagement, values)
        if forces is None:
            return {}
        return {"first_attack": forces[0].total, "second_attack": forces[1].total}

    def _read_forces(
        self, engagement: Engagement, values: Mapping[str, Any]
    ) -> tuple[_Force, _Force] | None:
        """The two forces of a combat of counters (``None`` without both lead counters, or
        with a counter that has nothing to fight with or a table value missing)."""
        keys = ("attacker", "target", "first", "second", "cap", "phase")
        try:
            inputs = self.parse({k: v for k, v in values.items() if k in keys})
            if not (inputs.attacker and inputs.target):
                return None
            draft = self.draft(engagement)
            return self._force(inputs, "first", draft), self._force(inputs, "second", draft)
        except (RuleViolation, ValueError):
            return None

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """Forces from the base displays, never typed ids (issue 14): the counters with points
        aloft or on CAP of the attacker's side (first) and the target's (second), each lead
        among them (issue 43: every counter a force counts is listed); each force picks among
        the other's (2.15)."""
        if attacker is None or target is None:
            return {}
        mine, theirs = _forces_up(engagement, attacker, target)
        return {"first": mine, "second": theirs, "first_picks": theirs, "second_picks": mine}

    def _mods(
        self, inputs: CombatInputs, first_ew: int, second_ew: int
    ) -> tuple[list[Term], list[Term]]:
        """Each force's DMs (2.10, 2.11), with their signs."""
        each = EW_EACH in self.variants
        one, two = ew_modifier(first_ew, each), ew_modifier(second_ew, each)
        return (
            roll_terms(one, two, inputs.cap == "first", inputs.cap == "second"),
            roll_terms(two, one, inputs.cap == "second", inputs.cap == "first"),
        )

    def _force(
        self, inputs: CombatInputs, side: Literal["first", "second"], draft: Draft
    ) -> _Force:
        ids = inputs.counters(side)
        given: int | None = getattr(inputs, f"{side}_attack")
        ew = self.ew_count(inputs, f"{side}_ew_aircraft") if getattr(inputs, f"{side}_ew") else 0
        on_cap = inputs.cap == side
        track: Literal["aloft", "cap"] = "cap" if on_cap else "aloft"
        if not ids:
            if given is None:
                raise RuleViolation(
                    "the odds of a combat of counters need the game (or both attack totals)"
                )
            return _Force(f"{side} force", f"{side} force", (), {}, given, ew, on_cap, track)
        if not draft.engagement.aircraft:
            # never accepted and then ignored: counters are read in the game only
            raise RuleViolation(
                "counters are named but there is no game to read them from: give the two "
                "attack totals alone for a what-if"
            )
        lead = inputs.attacker if side == "first" else inputs.target
        if lead and side in inputs.model_fields_set and lead not in getattr(inputs, side):
            # issue 43: a force's list shows every counter it counts, its lead too; a lead
            # left out of the list would be counted unseen
            role = "Attacker" if side == "first" else "Target"
            raise RuleViolation(
                f"{draft.get(lead).name} leads the {side} force (the {role}) but is not ticked "
                f"in it: tick it, or pick another {role} (2.9)"
            )
        members, states = [], {}
        for cid in ids:
            a = draft.get(cid)
            card = card_of(a)
            state = state_of(a)
            points = state.tracks.at(track)
            if points == 0:
                where = "on CAP" if on_cap else "aloft"
                raise RuleViolation(f"{a.name} has no air points {where} to fight with")
            mission = None if on_cap else state.mission
            if mission == "ew":
                if state.effective is None:
                    raise RuleViolation(
                        f"{a.name}: roll the EW mission's effectiveness first (Nth Fleet 2.2)"
                    )
                ew += points if state.effective else 0
            category = INT if in_int_mode(card, mission) else NON_INT
            members.append(
                Combatant(
                    a.id, a.name, points, attack_value(a.type_id, card, mission), category, mission
                )
            )
            states[a.id] = a
        sides = sorted({a.side for a in states.values()})
        if len(sides) > 1:
            raise RuleViolation(f"the {side} force mixes sides: {', '.join(sides)}")
        total = attack_total(members)
        if given is not None and given != total:
            raise RuleViolation(
                f"the {side} force's counters have an attack value of {total}, not {given} (2.9)"
            )
        return _Force(f"{side} force", sides[0], tuple(members), states, total, ew, on_cap, track)

    def _forces(self, inputs: CombatInputs, draft: Draft) -> tuple[_Force, _Force]:
        first = self._force(inputs, "first", draft)
        second = self._force(inputs, "second", draft)
        if first.states and second.states and first.label == second.label:
            raise RuleViolation(f"both forces are {first.label}: a combat needs two sides")
        return first, second

    def decide(self, inputs: CombatInputs, dice: DiceSource, draft: Draft) -> Decision:
        table = attack_table()
        first, second = self._forces(inputs, draft)
        m1, m2 = self._mods(inputs, first.ew, second.ew)
        # 2.12: damage is applied simultaneously, so both attacks use the forces as they were.
        lines: list[str] = []
        damage: list[int] = []
        added: list[Term] = []
        for force, mod in ((first, m1), (second, m2)):
            d, working, terms = attack_damage(
                table, dice, force.who, force.total, mod, self.variants
            )
            added += terms
            damage.append(d)
            lines.append(f"{force.label} attacks with {force.total}: {working} = {d} damage points")
        for shooter, target, d, picks in (
            (first, second, damage[0], inputs.first_picks),
            (second, first, damage[1], inputs.second_picks),
        ):
            if target.members and d:
                lines.append(self._losses(draft, inputs, shooter, target, d, picks))
        return Decision(
            _combat_label(damage[0], damage[1]), "; ".join(lines), modifiers=tuple(added)
        )

    def _losses(
        self,
        draft: Draft,
        inputs: CombatInputs,
        shooter: _Force,
        target: _Force,
        damage: int,
        picks: Sequence[str],
    ) -> str:
        """Nth Fleet 2.12-2.15: the target force's losses and aborts, emitted; the log line."""
        unknown = [p for p in picks if p not in target.states]
        if unknown:
            raise RuleViolation(
                f"{shooter.label} can only choose among {target.label}'s counters, "
                f"not {', '.join(unknown)} (2.15)"
            )
        ordered = in_shooter_order(target.members, picks)
        states = target.states

        def defence_of(c: Combatant) -> int:
            return defence_value(states[c.id].type_id, card_of(states[c.id]))

        losses, left = allocate_losses(
            damage, ordered, defence_of, ints_screen=INTS_SCREEN in self.variants
        )
        shot_down = sum(losses.values())
        eligible: frozenset[str] = frozenset()
        if inputs.phase == "activation":
            eligible = STRIKE_MISSIONS
        elif inputs.phase == "strategic air":
            eligible = STRATEGIC_ABORT_MISSIONS
        candidates = [c for c in ordered if c.mission in eligible and target.track == "aloft"]
        aborts = allocate_aborts(shot_down, candidates, losses)
        for c in target.members:
            lost, aborted = losses.get(c.id, 0), aborts.get(c.id, 0)
            if not (lost or aborted):
                continue
            a = states[c.id]
            tracks = tracks_of(a).lost(target.track, lost).moved(target.track, "used", aborted)
            values: dict[str, Any] = {"tracks": tracks.model_dump(mode="json")}
            if not tracks.aloft:
                values.update(NO_MISSION)
            if lost:
                draft.emit(
                    LedgerChanged(
                        aircraft=c.id,
                        ledger=Ledger.AIR_POINTS,
                        delta=Fraction(-lost),
                        reason="shot down (Nth Fleet 2.12)",
                    )
                )
            draft.emit(AttributesSet(aircraft=c.id, values=values))
            if lost and a.ledger(Ledger.AIR_POINTS) == lost:
                draft.emit(StatusChanged(aircraft=c.id, set=(Status.DESTROYED,)))
        names = {c.id: c.name for c in target.members}
        line = f"{shooter.label} shoots down " + (
            ", ".join(f"{n} {names[i]}" for i, n in losses.items()) or "nothing"
        )
        line += f" ({left} damage point(s) left over)" if left else ""
        if aborts:
            line += "; aborted: " + ", ".join(f"{n} {names[i]}" for i, n in aborts.items())
            line += " (2.13)" if inputs.phase == "activation" else " (2.14)"
        return line


def _fighting(engagement: Engagement, lead: str, track: Literal["aloft", "cap"]) -> list[str]:
    """A force as the desk opens it: its lead, then every other counter of the lead's side
    with air points on ``track`` (2.9-2.12: a CAP fights with the points on CAP, a force aloft
    with the points aloft)."""
    side = engagement.get(lead).side
    return [lead] + [
        c.id
        for c in engagement.aircraft.values()
        if c.side == side and c.id != lead and tracks_of(c).at(track)
    ]


def _forces_up(
    engagement: Engagement, attacker: str, target: str
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The counters of the attacker's side and of the target's with points aloft or on CAP
    (each lead counter always), as ``(id, label)`` for the force pickers (2.9-2.12)."""

    def up(side: str, lead: str) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for c in engagement.aircraft.values():
            if c.side != side:
                continue
            tr = tracks_of(c)
            if c.id != lead and not (tr.aloft or tr.cap):
                continue
            out.append((c.id, f"{c.name} ({tr.aloft} aloft, {tr.cap} on CAP)"))
        return out

    a, t = engagement.get(attacker), engagement.get(target)
    return up(a.side, attacker), up(t.side, target)


def _combat_label(first: int, second: int) -> str:
    if first == 0 and second == 0:
        return "miss"
    return f"first force {first}, second force {second} damage points"
