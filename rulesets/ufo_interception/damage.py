"""Damage procedures: the 2d6 damage table, the vital-system check and weapon hit location."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import (
    AttributesSet,
    CriticalHit,
    DamageTaken,
    LedgerChanged,
    LedgerLimitChanged,
    StatusChanged,
)
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term
from app.core.ruleset import AircraftInputs, ProcedureInputs

from .card import Card, card_of, catalogue
from .sequence import VITAL_EACH_DAMAGE_ROLL
from .state import (
    MAX_RAY_GUNS,
    Ledger,
    fighter,
    hard_point_ledger,
    lost_hard_points,
    need,
    ray_gun_ledger,
    state_of,
)
from .tables import Effect, damage_table

#: variant: the vital-system check counts only the damage taken this turn
VITAL_THIS_TURN = "vital_this_turn"
#: variant: "+d6 DP if hit" only when the weapon hit location roll picks the hard point
EXTRA_DP_ON_LOCATION_ONLY = "extra_dp_on_location_only"
#: variant: taking the last damage point does not destroy by itself
DP_EXHAUSTED_NOT_DESTROYED = "dp_exhausted_not_destroyed"
#: variant: "Any aircraft reduced to 0 speed crashes" counts UFOs too
UFO_ZERO_SPEED_CRASHES = "ufo_zero_speed_crashes"
DAMAGE_RULE = "UFO rules, Damage"


class DamageInputs(ProcedureInputs):
    target_type: Literal["fighter", "ufo"] = Field(
        "fighter", title="Target type", description="the damage table column: Fighter or UFO"
    )


class DamageRoll(Procedure):
    """UFO rules, Damage: one roll of 2d6 on the damage table, Fighter or UFO column.

    With a target the effect is applied: DP on the damage track, engine and power-plant losses
    of maximum speed, anti-grav losses, the highest-charge ray gun losing d6 charge, a d6 per
    hard point (6 = lost), pilot killed, critical; then the crash checks ("Any aircraft reduced
    to 0 speed crashes", "Any UFO reduced to 0 Anti-Grav crashes") and destruction at the type's
    damage points ("If a plane is destroyed the pilot dies").
    """

    id = "damage_roll"
    title = "Damage table"
    rule = "UFO rules, Damage: damage table"
    Inputs = DamageInputs
    #: the rolls are owed by the aircraft that was hit: it is the target (issue 28)
    line_role = "target"

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if target is None:
            return {}
        return {"target_type": card_of(engagement.get(target)).kind}

    def decide(self, inputs: DamageInputs, dice: DiceSource, draft: Draft) -> Decision:
        t = need(draft.engagement, inputs.target) if inputs.target else None
        kind = card_of(t).kind if t is not None else None
        if t is not None and kind != inputs.target_type:
            raise RuleViolation(f"{t.name} is a {kind}: use its column of the table")
        roll = dice.roll("2d6", "damage table").total
        effect = damage_table().effect(roll, inputs.target_type)
        narrative = f"damage table {roll}: {effect.text}"
        follow_ups: tuple[tuple[str, str], ...] = ()
        if t is not None:
            effects = DamageEffects(draft, t.id, variants=self.variants)
            extra_dp = EXTRA_DP_ON_LOCATION_ONLY not in self.variants
            apply_effect(effects, effect, roll, dice, inputs.attacker, extra_dp=extra_dp)
            values: dict[str, Any] = {}
            due = state_of(effects.now).damage_rolls_due
            if due:
                values["damage_rolls_due"] = due - 1
            took = effects.now.damage > t.damage
            if VITAL_EACH_DAMAGE_ROLL in self.variants and took and kind == "fighter":
                values["vital_checks_due"] = state_of(effects.now).vital_checks_due + 1
            if values:
                draft.emit(AttributesSet(aircraft=t.id, values=values))
            new = effects.finish()
            if effects.notes:
                narrative += f" -> {t.name}: " + "; ".join(effects.notes)
            if new:
                narrative += " (" + ", ".join(s.replace("_", " ") for s in new) + ")"
            follow_ups = owed_after_damage(effects.now, self.variants)
        return Decision(effect.label, f"{narrative} ({self.rule})", follow_ups=follow_ups)


def owed_after_damage(a: AircraftState, variants: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The roll a plane or UFO owes next after a damage roll or a vital-system check, opened
    by the desk at once (``Decision.follow_ups``): with the ``vital_each_damage_roll`` reading
    the check a damage roll made owed (before the next roll), else the hit's next roll on the
    damage table (UFO rules, Hitting: the hits are rolls on the Damage Table); none once it is
    out of play."""
    if not a.in_play:
        return ()
    st = state_of(a)
    if VITAL_EACH_DAMAGE_ROLL in variants and st.vital_checks_due:
        return ((VitalSystem.id, a.id),)
    return ((DamageRoll.id, a.id),) if st.damage_rolls_due else ()


def apply_effect(
    effects: DamageEffects,
    effect: Effect,
    roll: int,
    dice: DiceSource,
    source: str | None,
    *,
    extra_dp: bool = True,
) -> None:
    """Apply one damage table result to the aircraft, rolling the dice the result calls for.
    A hard point noted "+d6 DP if hit" that is lost to "Roll for each hardpoint, 6 = lost" adds
    its d6 unless ``extra_dp`` is off (the reading that only a weapon hit location roll hits
    it)."""

    def rolled(value: int | str, purpose: str) -> int:
        return value if isinstance(value, int) else dice.roll(value, purpose).total

    if effect.pilot_killed:
        effects.flag(Status.PILOT_KILLED)
    if effect.crash:
        effects.flag(Status.CRASHED)
    if effect.destroyed:
        effects.flag(Status.DESTROYED)
    before = len(effects.notes)
    effects.take(rolled(effect.dp, "damage points"), source, effect.text)
    if effect.max_speed:
        effects.lose(Ledger.MAX_SPEED, rolled(effect.max_speed, "maximum speed lost"), effect.text)
    if effect.anti_grav:
        effects.lose(Ledger.ANTI_GRAV, effect.anti_grav, effect.text)
    if effect.ray_gun:
        ledgers = effects.now.ledgers
        guns = sorted(
            (g for n in range(1, MAX_RAY_GUNS + 1) if (g := ray_gun_ledger(n)) in ledgers),
            key=lambda k: (-ledgers[k].value, k),
        )
        loss = rolled(effect.ray_gun, "ray gun charge lost")
        if guns:
            effects.lose(guns[0], loss, effect.text)
    if effect.hard_points:
        for hp in card_of(effects.now).hard_points:
            if hp.number in lost_hard_points(effects.now):
                continue
            r = dice.roll("d6", f"hard point {hp.number} (6 = lost)")
            if r.total == 6:
                effects.lose_hard_point(hp.number, effect.text)
                if hp.extra_damage and extra_dp:
                    extra = rolled(hp.extra_damage, f"hard point {hp.number}: +d6 DP if hit")
                    effects.take(extra, source, f"hard point {hp.number} +d6 DP if hit")
    if effect.max_speed:
        effects.flag(Status.ENGINE_DAMAGED)
    special = effect.pilot_killed or effect.destroyed or effect.crash or effect.hard_points
    if special or effect.max_speed or effect.anti_grav or effect.ray_gun:
        # everything beyond plain damage points goes on the critical-hit log
        effects.draft.emit(
            CriticalHit(
                aircraft=effects.aircraft,
                roll=roll,
                result=effect.text,
                effect="; ".join(effects.notes[before:]),
                rule=DAMAGE_RULE,
            )
        )


class VitalInputs(AircraftInputs):
    total_damage: int = Field(
        ge=0, title="Total damage taken", description="the plane's damage points taken so far"
    )


class VitalSystem(Procedure):
    """UFO rules, Damage: "Any turn a plane takes damage roll d6. If the result is LESS than the
    total damage taken then a vital system has been hit, the plane is unflyable and the pilot
    ejects (and lands) safely." The total is the plane's damage so far; the variant
    "vital_this_turn" reads it as the damage taken this turn.
    """

    id = "vital_system"
    title = "Vital system check"
    rule = "UFO rules, Damage: vital system"
    Inputs = VitalInputs

    @staticmethod
    def _hit(inputs: VitalInputs, roll: int) -> str:
        return "vital system hit: pilot ejects" if roll < inputs.total_damage else "miss"

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        if VITAL_THIS_TURN in self.variants:
            return {"total_damage": state_of(a).damaged_in(engagement.turn)}
        return {"total_damage": a.damage}

    def decide(self, inputs: VitalInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        if inputs.aircraft:
            a = fighter(e, inputs.aircraft)
            if VITAL_EACH_DAMAGE_ROLL in self.variants:
                owed = state_of(a).vital_checks_due
                if not owed:
                    raise RuleViolation(f"{a.name} owes no vital system check (no damage roll)")
                draft.emit(AttributesSet(aircraft=a.id, values={"vital_checks_due": owed - 1}))
            else:
                if state_of(a).damaged_turn != e.turn:
                    raise RuleViolation(f"{a.name} has taken no damage this turn")
                if state_of(a).vital_checked_turn == e.turn:
                    raise RuleViolation(f"{a.name} has already checked its vital systems this turn")
                draft.emit(AttributesSet(aircraft=a.id, values={"vital_checked_turn": e.turn}))
        roll = dice.roll("d6", "vital system check").total
        outcome = self._hit(inputs, roll)
        if inputs.aircraft and outcome != "miss":
            draft.emit(StatusChanged(aircraft=inputs.aircraft, set=(Status.EJECTED,)))
        taken = "this turn" if VITAL_THIS_TURN in self.variants else "in all"
        terms = (
            Term(
                f"damage taken {taken}", inputs.total_damage, self.rule, "vital system: less than"
            ),
        )
        narrative = (
            f"vital system check d6={roll} against {inputs.total_damage} damage taken {taken}: "
            + ("a vital system is hit, the pilot ejects safely" if outcome != "miss" else "no")
        )
        follow_ups: tuple[tuple[str, str], ...] = ()
        if inputs.aircraft and VITAL_EACH_DAMAGE_ROLL in self.variants:
            follow_ups = owed_after_damage(draft.get(inputs.aircraft), self.variants)
        return Decision(
            outcome, f"{narrative} ({self.rule})", follow_ups=follow_ups, modifiers=terms
        )


class HitLocationInputs(AircraftInputs):
    type_id: str = Field(
        "tornado", title="Aircraft type", description="whose card's hit location table to use"
    )


def _card(type_id: str) -> Card:
    cards = catalogue()
    if type_id not in cards:
        raise RuleViolation(f"no aircraft type {type_id!r}; known: {', '.join(cards)}")
    card = cards[type_id]
    if not card.hard_points:
        raise RuleViolation(f"the {card.name} card has no hit location table")
    return card


def _location_label(card: Card, face: int) -> str:
    hp = next(h for h in card.hard_points if face in h.location)
    return f"Hard Point {hp.number} ({hp.store.capitalize()})"


class HitLocation(Procedure):
    """UFO rules, Tornado card: "Hit Location - if weapon hit roll to find which one", a d6 on
    the card's table; the hard point hit is lost, and one noted "+d6 DP if hit" (the AMRAAM
    hard point) adds d6 damage points.
    """

    id = "hit_location"
    title = "Weapon hit location"
    rule = "UFO rules, Tornado card: Hit Location"
    Inputs = HitLocationInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        return {"type_id": a.type_id}

    def decide(self, inputs: HitLocationInputs, dice: DiceSource, draft: Draft) -> Decision:
        effects = None
        if inputs.aircraft:
            a = fighter(draft.engagement, inputs.aircraft)
            if a.type_id != inputs.type_id:
                raise RuleViolation(f"{a.name} is a {a.type_id}, not a {inputs.type_id}")
            effects = DamageEffects(draft, a.id, variants=self.variants)
            card = card_of(a)
        else:
            card = _card(inputs.type_id)
        roll = dice.roll("d6", "hit location").total
        label = _location_label(card, roll)
        hp = next(h for h in card.hard_points if roll in h.location)
        narrative = f"hit location d6={roll}: {label}"
        if effects is not None:
            if hp.number in lost_hard_points(effects.now):
                narrative += ", already lost"
            else:
                effects.lose_hard_point(hp.number, "weapon hit")
                if hp.extra_damage:
                    extra = dice.roll(hp.extra_damage, "+d6 DP if hit").total
                    effects.take(extra, None, f"hard point {hp.number} +d6 DP if hit")
            effects.finish()
            if effects.notes:
                narrative += ": " + "; ".join(effects.notes)
        return Decision(label, f"{narrative} ({self.rule})")


__all__ = ["DamageRoll", "HitLocation", "VitalSystem", "apply_effect"]


@dataclass
class DamageEffects:
    """One aircraft's damage effects in one action, emitted to the draft as they happen.

    The draft applies each event at once, so every effect reads the values the earlier ones
    left (no ledger is asked to go below zero) and ``finish``'s crash and destruction checks see
    the final numbers. What is kept here is only what the log line needs: the notes, and the
    status flags, set together by ``finish`` after those checks.
    """

    draft: Draft
    aircraft: str
    notes: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    #: the game's readings (``dp_exhausted_not_destroyed``, ``ufo_zero_speed_crashes``)
    variants: frozenset[str] = frozenset()

    @property
    def now(self) -> AircraftState:
        """The aircraft as the effects so far left it."""
        return self.draft.get(self.aircraft)

    @property
    def is_fighter(self) -> bool:
        return card_of(self.now).kind == "fighter"

    def take(self, points: int, source: str | None, why: str) -> None:
        if points <= 0:
            return
        turn = self.draft.engagement.turn
        # the damage taken this turn restarts from 0 with the first damage of a new turn
        so_far = state_of(self.now).damaged_in(turn)
        self.draft.emit(
            DamageTaken(aircraft=self.aircraft, points=points, source=source),
            AttributesSet(
                aircraft=self.aircraft,
                values={"damage_this_turn": so_far + points, "damaged_turn": turn},
            ),
        )
        self.notes.append(f"{points} DP ({why})")

    def lose(self, ledger: str, amount: int, why: str) -> int:
        """Take up to ``amount`` from a ledger (never below 0); the amount actually lost."""
        have = self.now.ledgers.get(ledger)
        if have is None or amount <= 0:
            return 0
        loss = min(Fraction(amount), have.value)
        if loss:
            self.draft.emit(
                LedgerChanged(aircraft=self.aircraft, ledger=ledger, delta=-loss, reason=why)
            )
            self.notes.append(f"{ledger.replace('_', ' ')} -{loss} ({why})")
        return int(loss)

    def lose_hard_point(self, number: int, why: str) -> None:
        a = self.now
        lost = lost_hard_points(a)
        if number in lost:
            return
        self.draft.emit(
            AttributesSet(aircraft=self.aircraft, values={"hard_points_lost": [*lost, number]})
        )
        ledger = hard_point_ledger(number)
        if ledger in a.ledgers:
            self.draft.emit(
                LedgerLimitChanged(aircraft=self.aircraft, ledger=ledger, maximum=Fraction(0))
            )
        self.notes.append(f"hard point {number} lost ({why})")

    def flag(self, *flags: str) -> None:
        self.flags.update(flags)

    def finish(self) -> list[str]:
        """The crash and destruction checks of UFO rules, Damage, then the new status flags
        (returned, for the log line)."""
        a = self.now
        exhausted = a.max_damage is not None and a.damage >= a.max_damage
        if exhausted and DP_EXHAUSTED_NOT_DESTROYED not in self.variants:
            self.flag(Status.DESTROYED)
        if Status.DESTROYED in a.status | self.flags and self.is_fighter:
            # "If a plane is destroyed the pilot dies."
            self.flag(Status.PILOT_KILLED)
        top = a.ledgers[Ledger.MAX_SPEED].value if Ledger.MAX_SPEED in a.ledgers else None
        if top == 0 and (self.is_fighter or UFO_ZERO_SPEED_CRASHES in self.variants):
            # "Any aircraft reduced to 0 speed crashes." -- aircraft, not UFOs (issue 15),
            # unless the reading counts UFOs as aircraft too
            self.flag(Status.CRASHED)
        if (
            not self.is_fighter
            and Ledger.ANTI_GRAV in a.ledgers
            and a.ledgers[Ledger.ANTI_GRAV].value == 0
        ):
            # "Any UFO reduced to 0 Anti-Grav crashes"
            self.flag(Status.CRASHED)
        speed = state_of(a).speed
        if speed is not None and top is not None and speed > top:
            self.draft.emit(AttributesSet(aircraft=self.aircraft, values={"speed": int(top)}))
        new = tuple(sorted(self.flags - a.status))
        if new:
            self.draft.emit(StatusChanged(aircraft=self.aircraft, set=new))
        return list(new)
