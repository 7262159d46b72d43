"""Damage (8.0), critical hits (8.1 and the Critical Hit Table), ejection (8.2), fire (9.0)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, CriticalHit, DamageTaken, Event, StatusChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term
from app.core.ruleset import AircraftInputs, PilotQuality
from rulesets.phantoms.clock import now_impulse
from rulesets.phantoms.state import in_play, loss_events, pilot_of, state_of
from rulesets.phantoms.tables import D10, Tables, tables

STRUCTURAL = "structural_damage"  # our own status flag: no more Hard Turns or Loops

#: readings of the Critical Hit Table and 8.1 (issue 45; ``ruleset.VARIANTS`` quotes the text)
CRITICALS_BY_HEADING = "criticals_by_heading"
CRITICALS_AFTER_LOSS = "criticals_after_loss"
TREAT_AS_10_NO_EJECT_MINUS = "treat_as_10_no_eject_minus"
SECOND_FIRE_WHILE_BURNING = "second_fire_only_while_burning"


def criticals_owed(
    points: int,
    damage_before: int,
    max_damage: int,
    missile: bool,
    variants: frozenset[str] = frozenset(),
) -> int:
    """8.1: critical-hit rolls owed for ``points`` of damage inflicted in one combat.

    One for a missile hit (8.1.1), one per full 3 points (8.1.2), one per point inflicted
    beyond the maximum damage level (8.1.3). With the ``criticals_by_heading`` reading, the
    Critical Hit Table's heading ("Roll anytime hit by a missile or 3 or more points damage
    are scored or aircraft damage level is exceeded") counts: one roll when any of them holds.
    """
    if points < 0 or damage_before < 0:
        raise ValueError("damage cannot be negative")
    if points == 0:
        return 0
    beyond = max(0, damage_before + points - max_damage) - max(0, damage_before - max_damage)
    if CRITICALS_BY_HEADING in variants:
        return 1 if missile or points >= 3 or beyond > 0 else 0
    return (1 if missile else 0) + points // 3 + beyond


def damage_events(
    target: AircraftState,
    points: int,
    missile: bool,
    source: str | None,
    variants: frozenset[str] = frozenset(),
) -> list[Event]:
    """Hits marked on the damage track (8.0) and the critical hits they bring (8.1).

    Hits moving into the grey part of the track make the aircraft loaded (8.0, 11.0). The
    critical rolls owed are kept on the target (``criticals_due``) for ``critical_hit``.
    """
    if points <= 0:
        return []
    max_damage = target.max_damage or 0
    owed = criticals_owed(points, target.damage, max_damage, missile, variants)
    events: list[Event] = [DamageTaken(aircraft=target.id, points=points, source=source)]
    if target.damage + points > max_damage and Status.LOADED not in target.status:
        events.append(StatusChanged(aircraft=target.id, set=(Status.LOADED,)))
    if owed:
        due = state_of(target).criticals_due + owed
        events.append(AttributesSet(aircraft=target.id, values={"criticals_due": due}))
    return events


def hits_label(hits: int) -> str:
    return "miss" if hits <= 0 else f"{hits} hit" + ("s" if hits > 1 else "")


# --- the Critical Hit Table -----------------------------------------------------------------


class CriticalInputs(AircraftInputs):
    pilot_wounded: bool = Field(False, title="Pilot already wounded", description="2nd = killed")
    structural_damage: bool = Field(False, title="Already has structural damage")
    engine_hit: bool = Field(False, title="Engine already hit")
    had_fire: bool = Field(False, title="Already had a Fire critical hit")
    on_fire: bool = Field(
        False, title="On fire now", description="a fire put out is no longer burning"
    )
    in_hard_turn_or_loop: bool = Field(
        False, title="In a Hard Turn or Loop", description="structural damage breaks it up"
    )


_LOST = {"pilot killed", "aircraft breaks up", "structural failure", "engine lost"}
_LOST |= {"destroyed by fire", "major damage"}
#: the results that lose the aircraft (Critical Hit Table: "remove aircraft", "aircraft is
#: lost", "breaks up", "aircraft destroyed", "Treat as #10")
LOSING_RESULTS = frozenset(_LOST)


def critical_result(
    roll: int, s: Any, variants: frozenset[str] = frozenset(), t: Tables | None = None
) -> str:
    """Critical Hit Table (8.1): the result of a d10, with the second-hit escalations. ``s``
    says what the aircraft already has (``CriticalInputs``, or the chain's state): a second
    Fire critical destroys it, or, with ``second_fire_only_while_burning``, only one that
    comes while the first fire still burns. ``t``: the tables, if already read."""
    row = (t or tables()).critical.row(roll)
    if row.id == "minor":
        return "miss"  # Minor Damage, no effect
    if row.id == "pilot_wounded":
        return "pilot killed" if s.pilot_wounded else "pilot wounded"
    if row.id == "structural":
        if s.structural_damage:
            return "structural failure"  # 2nd hit = treat as #10
        return "aircraft breaks up" if s.in_hard_turn_or_loop else "structural damage"
    if row.id == "engine":
        return "engine lost" if s.engine_hit else "engine hit"  # 2nd hit = treat as #10
    if row.id == "fire":
        second = s.on_fire if SECOND_FIRE_WHILE_BURNING in variants else s.had_fire
        return "destroyed by fire" if second else "fire"
    return "major damage"


def loss_cause(result: str, variants: frozenset[str] = frozenset()) -> str:
    """What a losing result records as the cause, which the ejection reads (8.2): Major
    Damage and what the table says to "Treat as #10" (its -2 for eject), unless the
    ``treat_as_10_no_eject_minus`` reading keeps the -2 to a rolled Major Damage."""
    cause = {
        "aircraft breaks up": "structural breakup",
        "destroyed by fire": "fire",
        "pilot killed": "pilot killed",
    }.get(result, "major damage")
    if result in ("structural failure", "engine lost") and TREAT_AS_10_NO_EJECT_MINUS in variants:
        cause = result
    return cause


def critical_state(a: AircraftState) -> dict[str, bool]:
    """The inputs the Critical Hit Table needs, read off the aircraft's state."""
    maneuver = state_of(a).maneuver
    return {
        "pilot_wounded": Status.WOUNDED in a.status,
        "structural_damage": STRUCTURAL in a.status,
        "engine_hit": Status.ENGINE_DAMAGED in a.status,
        "had_fire": state_of(a).fire_hits > 0,
        "on_fire": Status.ON_FIRE in a.status,
        "in_hard_turn_or_loop": maneuver is not None and maneuver.kind in ("hard_turn", "loop"),
    }


def can_roll_critical(a: AircraftState, variants: frozenset[str]) -> bool:
    """Whether the aircraft still rolls the critical hits it owes (8.1): while it is in play,
    or, with ``criticals_after_loss``, after a loss too (unless its pilot is dead or out)."""
    if a.in_play:
        return True
    return (
        CRITICALS_AFTER_LOSS in variants
        and Status.DESTROYED in a.status
        and not a.status & {Status.PILOT_KILLED, Status.EJECTED, Status.CRASHED}
    )


class CriticalHitRoll(Procedure):
    """Critical Hit Table (8.1): one d10 per critical hit owed; second hits escalate."""

    id = "critical_hit"
    title = "Critical hit"
    rule = "8.1"
    Inputs = CriticalInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        return critical_state(a)

    def decide(self, inputs: CriticalInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = None
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            if not can_roll_critical(a, self.variants):
                in_play(a)
            if state_of(a).criticals_due <= 0:
                raise RuleViolation(
                    f"{a.name} has no critical hit to roll (8.1: a missile hit, 3 points in one "
                    "combat, points beyond the maximum, or a fire check of 5 or less)"
                )
            inputs = inputs.model_copy(update=critical_state(a))
        roll = dice.roll(D10, "critical hit table").total
        result = critical_result(roll, inputs, self.variants)
        row = tables().critical.row(roll)
        if a is not None:
            draft.emit(*self._effects(draft.engagement, a, roll, result, row.title, row.text))
        shown = "Minor Damage, no effect" if result == "miss" else result
        return Decision(
            result,
            f"critical hit roll {roll}: {shown} ({self.rule})",
            headline="Minor Damage" if result == "miss" else result,
        )

    def _effects(
        self,
        engagement: Engagement,
        a: AircraftState,
        roll: int,
        result: str,
        title: str,
        text: str,
    ) -> list[Event]:
        due = state_of(a).criticals_due - 1
        entry = "Minor Damage" if result == "miss" else result.capitalize()
        events: list[Event] = [
            CriticalHit(
                aircraft=a.id, roll=roll, result=entry, effect=f"{title}: {text}", rule=self.rule
            ),
        ]
        values: dict[str, Any] = {"criticals_due": due}
        if result == "pilot wounded":
            events.append(StatusChanged(aircraft=a.id, set=(Status.WOUNDED,)))
        elif result == "structural damage":
            events.append(StatusChanged(aircraft=a.id, set=(STRUCTURAL,)))
        elif result == "engine hit":
            events.append(StatusChanged(aircraft=a.id, set=(Status.ENGINE_DAMAGED,)))
        elif result == "fire":
            events.append(StatusChanged(aircraft=a.id, set=(Status.ON_FIRE,)))
            values["fire_hits"] = state_of(a).fire_hits + 1
        elif result in _LOST and not a.in_play:
            # criticals_after_loss: a further loss result on a lost aircraft; the first
            # cause stands, a dead pilot ends the rolls
            if result == "destroyed by fire":
                values["fire_hits"] = state_of(a).fire_hits + 1
                events.append(StatusChanged(aircraft=a.id, set=(Status.ON_FIRE,)))
            if result == "pilot killed":
                values["criticals_due"] = 0
                events.append(StatusChanged(aircraft=a.id, set=(Status.PILOT_KILLED,)))
        elif result in _LOST:
            flags: tuple[str, ...] = (Status.DESTROYED,)
            if result == "pilot killed":
                flags = (Status.DESTROYED, Status.PILOT_KILLED)
            cause = loss_cause(result, self.variants)
            values["destroyed_by"] = cause
            if CRITICALS_AFTER_LOSS not in self.variants or result == "pilot killed":
                values["criticals_due"] = 0
            if result == "destroyed by fire":
                values["fire_hits"] = state_of(a).fire_hits + 1
            events += loss_events(engagement, a, flags, cause)
        events.append(AttributesSet(aircraft=a.id, values=values))
        return events


# --- 8.2 Ejecting -----------------------------------------------------------------------------


class EjectionInputs(AircraftInputs):
    wounded: bool = Field(False, title="Pilot wounded (-2)")
    on_fire: bool = Field(False, title="Aircraft on fire (-3)")
    destroyed_by: Literal["other", "major damage", "structural breakup"] = Field(
        "other",
        title="Destroyed by",
        description="Major Damage critical -2; Structural Damage in a Hard Turn/Loop -4",
    )


def ejection_modifier(
    wounded: bool, on_fire: bool, destroyed_by: str, tables_read: Tables | None = None
) -> int:
    """8.2: -2 wounded, -3 on fire, -2 destroyed by a Major Damage critical (or one treated
    as #10), -4 broken up in a Hard Turn or Loop."""
    t = (tables_read or tables()).ejection
    m = (t.wounded if wounded else 0) + (t.on_fire if on_fire else 0)
    if destroyed_by == "major damage":
        m += t.major_damage
    elif destroyed_by == "structural breakup":
        m += t.structural_breakup
    return m


def ejection_result(roll: int, modifier: int, t: Tables | None = None) -> str:
    """8.2 and the chart: "Ejection Roll: >= 3 for safe ejection"."""
    return "ejected" if roll + modifier >= (t or tables()).ejection.safe_at_least else "pilot lost"


def ejection_state(a: AircraftState) -> dict[str, Any]:
    """The ejection's inputs read off the aircraft (8.2). An aircraft destroyed by a second
    Fire critical hit was on fire when the ejection was attempted, even when its first fire
    had been put out: the Critical Hit Table's #8 ("If second Fire critical hit, aircraft
    destroyed. -3 for eject.") gives it the -3."""
    by = state_of(a).destroyed_by
    return {
        "wounded": Status.WOUNDED in a.status,
        "on_fire": Status.ON_FIRE in a.status or by == "fire",
        "destroyed_by": by if by in ("major damage", "structural breakup") else "other",
    }


def ejection_terms(i: EjectionInputs) -> list[Term]:
    """8.2's modifiers of the ejection die, each that applies with its sign."""
    t = tables().ejection
    out = []
    if i.wounded:
        out.append(Term("pilot wounded", t.wounded, "8.2", "ejection"))
    if i.on_fire:
        out.append(Term("on fire", t.on_fire, "8.2, Critical Hit Table #8", "ejection"))
    if i.destroyed_by == "major damage":
        out.append(Term("destroyed by Major Damage", t.major_damage, "8.2", "ejection"))
    elif i.destroyed_by == "structural breakup":
        out.append(Term("broke up in a Hard Turn or Loop", t.structural_breakup, "8.2", "ejection"))
    return out


class Ejection(Procedure):
    """8.2 Ejecting: d10 plus modifiers; 3 or more is a safe ejection."""

    id = "ejection"
    title = "Ejection"
    rule = "8.2"
    Inputs = EjectionInputs

    @staticmethod
    def modifier(inputs: EjectionInputs) -> int:
        return ejection_modifier(inputs.wounded, inputs.on_fire, inputs.destroyed_by)

    def _label(self, inputs: EjectionInputs, roll: int) -> str:
        return ejection_result(roll, self.modifier(inputs))

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        return ejection_state(a)

    def decide(self, inputs: EjectionInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = None
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            if Status.DESTROYED not in a.status:
                raise RuleViolation(f"{a.name} is not destroyed; a pilot ejects only then (8.2)")
            if a.status & {Status.PILOT_KILLED, Status.EJECTED} or state_of(a).ejection_rolled:
                raise RuleViolation(f"{a.name}: the pilot has no ejection left to attempt (8.2)")
            if state_of(a).criticals_due and CRITICALS_AFTER_LOSS in self.variants:
                raise RuleViolation(
                    f"{a.name} rolls the critical hits it still owes before the ejection (8.1, "
                    "reading: all critical hits are rolled after a loss)"
                )
            inputs = inputs.model_copy(update=self.prefill(draft.engagement, a.id, None))
        roll = dice.roll(D10, "ejection").total
        outcome = self._label(inputs, roll)
        if a is not None:
            flag = Status.EJECTED if outcome == "ejected" else Status.PILOT_KILLED
            draft.emit(
                StatusChanged(aircraft=a.id, set=(flag,)),
                AttributesSet(aircraft=a.id, values={"ejection_rolled": True}),
            )
        m = self.modifier(inputs)
        return Decision(
            outcome,
            f"ejection roll {roll}{m:+d} = {roll + m}: {outcome} (8.2)",
            modifiers=tuple(ejection_terms(inputs)),
        )


# --- 9.0 Fire-Check Segment -------------------------------------------------------------------


class FireInputs(AircraftInputs):
    speed: int = Field(1, ge=0, le=10, title="Current speed")
    dove: bool = Field(False, title="Dove during the impulse (+1)")
    pilot: PilotQuality = Field("average", title="Pilot quality")


def fire_modifier(
    speed: int, dove: bool, pilot: PilotQuality, tables_read: Tables | None = None
) -> int:
    """9.0: +3 speed above 7, +2 speed 6-7, +1 speed 4-5, +1 dove, pilot +2/+1/-1."""
    read = tables_read or tables()
    t = read.fire
    m = t.dove if dove else 0
    if speed > 7:
        m += t.speed_above_7
    elif speed >= 6:
        m += t.speed_6_7
    elif speed >= 4:
        m += t.speed_4_5
    return m + read.pilot.fire[pilot]


def fire_result(
    total: int, variants: frozenset[str] = frozenset(), tables_read: Tables | None = None
) -> str:
    """9.0: out above 9, a critical hit at 5 or less, else still burning (a 9 keeps burning
    unless ``fire_out_on_9``)."""
    t = (tables_read or tables()).fire
    out_from = t.out_above if "fire_out_on_9" in variants else t.out_above + 1
    if total >= out_from:
        return "fire out"
    if total <= t.critical_at_most:
        return "critical hit"
    return "still burning"


def fire_terms(i: FireInputs) -> list[Term]:
    """9.0's modifiers of the fire die, each that applies with its sign."""
    t = tables().fire
    out = []
    speed = fire_modifier(i.speed, False, "inexperienced")
    if speed:
        out.append(Term(f"speed {i.speed}", speed, "9.0", "fire check"))
    if i.dove:
        out.append(Term("dove during the impulse", t.dove, "9.0", "fire check"))
    pilot = tables().pilot.fire[i.pilot]
    if pilot:
        out.append(Term(f"{i.pilot.capitalize()} pilot", pilot, "9.0", "fire check"))
    return out


class FireCheck(Procedure):
    """9.0 Fire check: d10 plus speed, dive and pilot modifiers; out above 9, critical at 5 or
    less. A 9 is not printed: by default it keeps burning (variant ``fire_out_on_9``)."""

    id = "fire_check"
    title = "Fire check"
    rule = "9.0"
    Inputs = FireInputs

    @staticmethod
    def modifier(inputs: FireInputs) -> int:
        return fire_modifier(inputs.speed, inputs.dove, inputs.pilot)

    def _label(self, inputs: FireInputs, roll: int) -> str:
        return fire_result(roll + self.modifier(inputs), self.variants)

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        now = now_impulse(engagement)  # between impulses nobody dove "during the impulse"
        return {
            "speed": state_of(a).speed,
            "dove": now is not None and state_of(a).dove_at == now,
            "pilot": pilot_of(a),
        }

    def decide(self, inputs: FireInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = None
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            in_play(a)
            if Status.ON_FIRE not in a.status:
                raise RuleViolation(f"{a.name} is not on fire (9.0)")
            now = now_impulse(draft.engagement)
            if now is not None and state_of(a).fire_checked_at == now:
                raise RuleViolation(f"{a.name} has already checked its fire this impulse (9.0)")
            inputs = inputs.model_copy(update=self.prefill(draft.engagement, a.id, None))
        roll = dice.roll(D10, "fire check").total
        outcome = self._label(inputs, roll)
        if a is not None:
            values: dict[str, Any] = {"fire_checked_at": now_impulse(draft.engagement)}
            if outcome == "fire out":
                draft.emit(StatusChanged(aircraft=a.id, cleared=(Status.ON_FIRE,)))
            elif outcome == "critical hit":
                values["criticals_due"] = state_of(a).criticals_due + 1
            draft.emit(AttributesSet(aircraft=a.id, values=values))
        m = self.modifier(inputs)
        return Decision(
            outcome,
            f"fire check {roll}{m:+d} = {roll + m}: {outcome} (9.0)",
            modifiers=tuple(fire_terms(inputs)),
        )
