"""Damage procedures: the 2d6 damage table, the vital-system check and weapon hit location."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource, Roll, distribution, label_odds
from app.core.engagement import Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, CriticalHit, Event, StatusChanged
from app.core.ruleset import AircraftInputs, Procedure, ProcedureInputs, Resolution, prefill_subject

from .cards import Card, catalogue
from .common import ANTI_GRAV, MAX_SPEED, VITAL_THIS_TURN, Tally, card_of, fighter, need
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
    dice = (("2d6", "damage table"),)

    def odds(self, inputs: DamageInputs) -> dict[str, Fraction]:
        table = damage_table()
        return label_odds(distribution("2d6"), lambda r: table.effect(r, inputs.target_type).label)

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if target is None:
            return {}
        return {"target_type": engagement.get(target).card["kind"]}

    def resolve(
        self, inputs: DamageInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        t = need(engagement, inputs.target) if inputs.target else None
        if t is not None and t.card["kind"] != inputs.target_type:
            raise RuleViolation(f"{t.name} is a {t.card['kind']}: use its column of the table")
        roll = dice.roll("2d6", "damage table")
        effect = damage_table().effect(roll.total, inputs.target_type)
        rolls = [roll]
        events: list[Event] = []
        narrative = f"damage table {roll.total}: {effect.text}"
        if t is not None and engagement is not None:
            tally = Tally.of(t, engagement.turn)
            apply_effect(tally, effect, roll.total, dice, rolls, inputs.attacker)
            due = int(t.attributes.get("damage_rolls_due", 0))
            if due:
                tally.attributes["damage_rolls_due"] = due - 1
            events = tally.finish()
            if tally.notes:
                narrative += f" -> {t.name}: " + "; ".join(tally.notes)
            new = sorted(tally.status - t.status)
            if new:
                narrative += " (" + ", ".join(s.replace("_", " ") for s in new) + ")"
        record = self.record(inputs, rolls, effect.label)
        return Resolution(
            (record, *events), f"{narrative} ({self.rule})", effect.label, tuple(rolls)
        )


def apply_effect(
    tally: Tally,
    effect: Effect,
    roll: int,
    dice: DiceSource,
    rolls: list[Roll],
    source: str | None,
) -> None:
    """Apply one damage table result to ``tally``, rolling the dice the result calls for."""

    def rolled(value: int | str, purpose: str) -> int:
        if isinstance(value, int):
            return value
        r = dice.roll(value, purpose)
        rolls.append(r)
        return r.total

    a = tally.aircraft
    if effect.pilot_killed:
        tally.flag(Status.PILOT_KILLED)
    if effect.crash:
        tally.flag(Status.CRASHED)
    if effect.destroyed:
        tally.flag(Status.DESTROYED)
    before = len(tally.notes)
    tally.take(rolled(effect.dp, "damage points"), source, effect.text)
    if effect.max_speed:
        tally.lose(MAX_SPEED, rolled(effect.max_speed, "maximum speed lost"), effect.text)
    if effect.anti_grav:
        tally.lose(ANTI_GRAV, effect.anti_grav, effect.text)
    if effect.ray_gun:
        guns = sorted(
            (k for k in tally.ledgers if k.startswith("ray_gun_")),
            key=lambda k: (-tally.ledgers[k], k),
        )
        loss = rolled(effect.ray_gun, "ray gun charge lost")
        if guns:
            tally.lose(guns[0], loss, effect.text)
    if effect.hard_points:
        card = card_of(a)
        for hp in card.hard_points:
            if hp.number in tally.attributes["hard_points_lost"]:
                continue
            r = dice.roll("d6", f"hard point {hp.number} (6 = lost)")
            rolls.append(r)
            if r.total == 6:
                tally.lose_hard_point(hp.number, effect.text)
                if hp.extra_damage:
                    extra = rolled(hp.extra_damage, f"hard point {hp.number}: +d6 DP if hit")
                    tally.take(extra, source, f"hard point {hp.number} +d6 DP if hit")
    if effect.max_speed:
        tally.flag(Status.ENGINE_DAMAGED)
    special = effect.pilot_killed or effect.destroyed or effect.crash or effect.hard_points
    if special or effect.max_speed or effect.anti_grav or effect.ray_gun:
        # everything beyond plain damage points goes on the critical-hit log
        tally.events.append(
            CriticalHit(
                aircraft=a.id,
                roll=roll,
                result=effect.text,
                effect="; ".join(tally.notes[before:]),
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
    dice = (("d6", "vital system check"),)

    @staticmethod
    def _hit(inputs: VitalInputs, roll: int) -> str:
        return "vital system hit: pilot ejects" if roll < inputs.total_damage else "miss"

    def odds(self, inputs: VitalInputs) -> dict[str, Fraction]:
        return label_odds(distribution("d6"), lambda r: self._hit(inputs, r))

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        a = prefill_subject(engagement, attacker, target)
        if a is None:
            return {}
        if VITAL_THIS_TURN in self.variants:
            fresh = a.attributes.get("damaged_turn") == engagement.turn
            return {"total_damage": int(a.attributes.get("damage_this_turn", 0)) if fresh else 0}
        return {"total_damage": a.damage}

    def resolve(
        self, inputs: VitalInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        events: list[Event] = []
        if inputs.aircraft and engagement is not None:
            a = fighter(engagement, inputs.aircraft)
            if a.attributes.get("damaged_turn") != engagement.turn:
                raise RuleViolation(f"{a.name} has taken no damage this turn")
            if a.attributes.get("vital_checked_turn") == engagement.turn:
                raise RuleViolation(f"{a.name} has already checked its vital systems this turn")
            events.append(
                AttributesSet(aircraft=a.id, values={"vital_checked_turn": engagement.turn})
            )
        elif inputs.aircraft:
            need(engagement, inputs.aircraft)
        roll = dice.roll("d6", "vital system check")
        outcome = self._hit(inputs, roll.total)
        if inputs.aircraft and outcome != "miss":
            events.append(StatusChanged(aircraft=inputs.aircraft, set=(Status.EJECTED,)))
        narrative = f"vital system check d6={roll.total} against {inputs.total_damage} damage: " + (
            "a vital system is hit, the pilot ejects safely" if outcome != "miss" else "no"
        )
        return Resolution(
            (self.record(inputs, [roll], outcome), *events),
            f"{narrative} ({self.rule})",
            outcome,
            (roll,),
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
    dice = (("d6", "hit location"), ("d6", "+d6 DP if hit (only if the location says so)"))

    def dice_needed(self, inputs: HitLocationInputs) -> list[tuple[str, str]]:
        return list(self.dice)

    def odds(self, inputs: HitLocationInputs) -> dict[str, Fraction]:
        card = _card(inputs.type_id)
        return label_odds(distribution("d6"), lambda f: _location_label(card, f))

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        a = prefill_subject(engagement, attacker, target)
        return {} if a is None else {"type_id": a.type_id}

    def resolve(
        self, inputs: HitLocationInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        tally = None
        if inputs.aircraft:
            a = fighter(engagement, inputs.aircraft)
            if a.type_id != inputs.type_id:
                raise RuleViolation(f"{a.name} is a {a.type_id}, not a {inputs.type_id}")
            assert engagement is not None
            tally = Tally.of(a, engagement.turn)
            card = card_of(a)
        else:
            card = _card(inputs.type_id)
        roll = dice.roll("d6", "hit location")
        rolls = [roll]
        label = _location_label(card, roll.total)
        hp = next(h for h in card.hard_points if roll.total in h.location)
        narrative = f"hit location d6={roll.total}: {label}"
        events: list[Event] = []
        if tally is not None:
            if hp.number in tally.attributes["hard_points_lost"]:
                narrative += ", already lost"
            else:
                tally.lose_hard_point(hp.number, "weapon hit")
                if hp.extra_damage:
                    extra = dice.roll(hp.extra_damage, "+d6 DP if hit")
                    rolls.append(extra)
                    tally.take(extra.total, None, f"hard point {hp.number} +d6 DP if hit")
            events = tally.finish()
            if tally.notes:
                narrative += ": " + "; ".join(tally.notes)
        return Resolution(
            (self.record(inputs, rolls, label), *events),
            f"{narrative} ({self.rule})",
            label,
            tuple(rolls),
        )


__all__ = ["DamageRoll", "HitLocation", "VitalSystem", "apply_effect"]
