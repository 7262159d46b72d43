"""Damage procedures: the 2d6 damage table, the vital-system check and weapon hit location."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, CriticalHit, StatusChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.ruleset import AircraftInputs, ProcedureInputs

from .card import Card, catalogue
from .common import (
    ANTI_GRAV,
    EXTRA_DP_ON_LOCATION_ONLY,
    MAX_SPEED,
    VITAL_THIS_TURN,
    DamageEffects,
    card_of,
    fighter,
    lost_hard_points,
    need,
)
from .state import state_of
from .tables import Effect, damage_table

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
        if t is not None:
            effects = DamageEffects(draft, t.id)
            extra_dp = EXTRA_DP_ON_LOCATION_ONLY not in self.variants
            apply_effect(effects, effect, roll, dice, inputs.attacker, extra_dp=extra_dp)
            due = state_of(effects.now).damage_rolls_due
            if due:
                draft.emit(AttributesSet(aircraft=t.id, values={"damage_rolls_due": due - 1}))
            new = effects.finish()
            if effects.notes:
                narrative += f" -> {t.name}: " + "; ".join(effects.notes)
            if new:
                narrative += " (" + ", ".join(s.replace("_", " ") for s in new) + ")"
        return Decision(effect.label, f"{narrative} ({self.rule})")


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
        effects.lose(MAX_SPEED, rolled(effect.max_speed, "maximum speed lost"), effect.text)
    if effect.anti_grav:
        effects.lose(ANTI_GRAV, effect.anti_grav, effect.text)
    if effect.ray_gun:
        ledgers = effects.now.ledgers
        guns = sorted(
            (k for k in ledgers if k.startswith("ray_gun_")),
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
            if state_of(a).damaged_turn != e.turn:
                raise RuleViolation(f"{a.name} has taken no damage this turn")
            if state_of(a).vital_checked_turn == e.turn:
                raise RuleViolation(f"{a.name} has already checked its vital systems this turn")
            draft.emit(AttributesSet(aircraft=a.id, values={"vital_checked_turn": e.turn}))
        roll = dice.roll("d6", "vital system check").total
        outcome = self._hit(inputs, roll)
        if inputs.aircraft and outcome != "miss":
            draft.emit(StatusChanged(aircraft=inputs.aircraft, set=(Status.EJECTED,)))
        narrative = f"vital system check d6={roll} against {inputs.total_damage} damage: " + (
            "a vital system is hit, the pilot ejects safely" if outcome != "miss" else "no"
        )
        return Decision(outcome, f"{narrative} ({self.rule})")


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
            effects = DamageEffects(draft, a.id)
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
