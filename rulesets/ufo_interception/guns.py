"""Guns: the aircraft's cannon, the UFO's ray guns and their recharge (UFO rules, Firing)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field

from app.core.dice import DiceSource, count_at_least
from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, Event, LedgerChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term, summed, total, worked
from app.core.ruleset import AircraftInputs, ProcedureInputs

from .card import card_of
from .damage import DamageRoll
from .sequence import CANNON_1, CANNON_2, MISSILES, require_step
from .state import fighter, fired_this_step, lost_hard_points, need, ray_gun_ledger, state_of, ufo

#: variant: firing a ray gun does not spend its charge
RAY_GUN_KEEPS_CHARGE = "ray_gun_keeps_charge"
#: variant: "Recharge d6" is a d6 roll for the number of recharge dice
RECHARGE_DICE_ROLLED = "recharge_dice_rolled"


def hits_label(hits: int) -> str:
    """``"miss"`` for no hits (no effect on the target), else ``"N hit(s)"``."""
    return "miss" if hits <= 0 else f"{hits} hit" + ("s" if hits > 1 else "")


def due_rolls(target: AircraftState, hits: int) -> list[Event]:
    """Hits waiting to be rolled on the damage table (the desk shows them on the target)."""
    if hits <= 0:
        return []
    due = state_of(target).damage_rolls_due + hits
    return [AttributesSet(aircraft=target.id, values={"damage_rolls_due": due})]


def damage_roll_owed(target: str | None, hits: int) -> tuple[tuple[str, str], ...]:
    """The roll a hit owes at once (``Decision.follow_ups``): the target's roll on the damage
    table. UFO rules, Hitting rolls the hits as they are scored ("this is number of hits on
    Damage Table", "Any 5 or 6 is a hit- roll on damage table", "explodes for 1d6 rolls on
    Damage Table"), so the desk opens it next. Named here, not left for the desk to find as a
    new line of who acts now: the damage rolls are listed in every step, and a desk that has
    its ruleset calls answered later has no new lines to compare after the write."""
    return ((DamageRoll.id, target),) if target and hits > 0 else ()


class CannonInputs(ProcedureInputs):
    range_inches: int = Field(
        ge=0, le=6, title="Range (inches)", description="Cannon. Range 6 inches"
    )
    in_forward_arc: bool = Field(
        True, title="Target in forward arc", description="forward arc of aircraft"
    )


class Cannon(Procedure):
    """UFO rules, Firing: Cannons and Hitting: "Cannon. Range 6 inches, forward arc of aircraft";
    "Roll d6+1 and subtract range in inches- this is number of hits on Damage Table."

    An aircraft fires at the half way point of its move and again at the end (the two Cannon
    firing steps), or "fire guns once" instead of missiles in Missile Firing.
    """

    id = "cannon"
    title = "Cannon"
    rule = "UFO rules, Firing: Cannons; Hitting: Cannon"
    Inputs = CannonInputs

    @staticmethod
    def hits(range_inches: int, roll: int) -> int:
        return max(0, roll + 1 - range_inches)

    def decide(self, inputs: CannonInputs, dice: DiceSource, draft: Draft) -> Decision:
        if not inputs.in_forward_arc:
            raise RuleViolation("the cannon fires only into the forward arc of the aircraft")
        e = draft.engagement
        if inputs.attacker:
            a = fighter(e, inputs.attacker)
            require_step(e, (CANNON_1, CANNON_2, MISSILES), "cannon fire")
            if fired_this_step(a, e):
                raise RuleViolation(f"{a.name} has already fired in this step")
            cannon = [h.number for h in card_of(a).hard_points if h.store == "cannon"]
            if not cannon or all(n in lost_hard_points(a) for n in cannon):
                raise RuleViolation(f"{a.name} has no cannon left (hard point lost)")
            draft.emit(AttributesSet(aircraft=a.id, values={"fired": [e.turn, e.step]}))
        if inputs.target:
            need(e, inputs.target)
        roll = dice.roll("d6", "cannon hits")
        hits = self.hits(inputs.range_inches, roll.total)
        outcome = hits_label(hits)
        if inputs.target:
            draft.emit(*due_rolls(draft.get(inputs.target), hits))
        terms = (
            Term("+1", 1, "UFO rules, Hitting: Cannon", "cannon hits"),
            Term(
                "range in inches", -inputs.range_inches, "UFO rules, Hitting: Cannon", "cannon hits"
            ),
        )
        m = total(terms)
        narrative = (
            f'cannon at {inputs.range_inches}": d6 {roll.total}{m:+d} = {roll.total + m}: '
            f"{outcome}" + (" on the damage table" if hits else "")
        )
        return Decision(
            outcome,
            f"{narrative} ({self.rule})",
            follow_ups=damage_roll_owed(inputs.target, hits),
            modifiers=terms,
        )


#: UFO rules, Sequence: the UFO fires at initiative 13 minus its charge, so a charge above 12
#: has no place in the sequence of play
MAX_CHARGE = 12
#: past a charge's worth of inches no die is left; the cap only bounds the field
MAX_RANGE = 240


class RayGunInputs(ProcedureInputs):
    charge: int = Field(
        ge=0,
        le=MAX_CHARGE,
        title="Charge",
        description="the gun's current charge (at most 12: the UFO fires at 13 minus it)",
    )
    range_inches: int = Field(ge=0, le=MAX_RANGE, title="Range (inches)")
    gun: int = Field(1, ge=1, title="Ray gun", description="which of the UFO's ray guns")


class RayGun(Procedure):
    """UFO rules, Firing: UFO and Hitting: Ray Gun: "Roll one die for every point of charge,
    minus 1 die for every inch of range"; "Any 5 or 6 is a hit- roll on damage table". Ray guns
    "may fire in any direction". Firing uses the gun's charge (it then recharges in turns it
    does not fire); the UFO fires in Missile Firing at initiative 13 minus its charge.
    """

    id = "ray_gun"
    title = "Ray gun"
    rule = "UFO rules, Firing: UFO; Hitting: Ray Gun"
    Inputs = RayGunInputs

    def terms(self, inputs: RayGunInputs) -> list[Term]:
        """Firing: UFO, "Roll one die for every point of charge, minus 1 die for every inch of
        range": the charge and, with its minus sign, the range (the number of dice, no die
        added to it)."""
        rule, die = "UFO rules, Firing: UFO", "ray gun: number of dice"
        return [
            Term("charge", inputs.charge, rule, die),
            Term("range in inches", -inputs.range_inches, rule, die),
        ]

    def dice_count(self, inputs: RayGunInputs) -> int:
        return max(0, total(self.terms(inputs)))

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if attacker is None:
            return {}
        led = engagement.get(attacker).ledgers.get(ray_gun_ledger(1))
        return {} if led is None else {"gun": 1, "charge": int(led.value)}

    def decide(self, inputs: RayGunInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        if inputs.attacker:
            u = ufo(e, inputs.attacker)
            card = card_of(u)
            if isinstance(card.ray_guns, str):
                # said on its line before anything is typed (issue 43)
                raise RuleViolation(
                    f"the {card.name} card prints no ray guns (UFO rules, Damage gives it its "
                    "damage points only): give them in the Card editor before it joins a game"
                )
            require_step(e, (MISSILES,), "ray gun fire")
            ledger = ray_gun_ledger(inputs.gun)
            charge = u.ledger(ledger)
            if charge != inputs.charge:
                raise RuleViolation(f"{u.name}'s ray gun {inputs.gun} holds {charge} charge")
            key = f"{ledger}_used_turn"
            if state_of(u).gun_used_turn(ledger) == e.turn:
                raise RuleViolation(
                    f"{u.name}'s ray gun {inputs.gun} has already fired or recharged this turn"
                )
            if charge and RAY_GUN_KEEPS_CHARGE not in self.variants:
                draft.emit(
                    LedgerChanged(aircraft=u.id, ledger=ledger, delta=-charge, reason="fired")
                )
            draft.emit(
                AttributesSet(aircraft=u.id, values={key: e.turn, f"{ledger}_fired_turn": e.turn})
            )
        if inputs.target:
            need(e, inputs.target)
        # a hit is a single face of 5 or 6: how many of the dice show at least 5 (a pool)
        pool = count_at_least(dice, self.dice_count(inputs), "d6", 5, "ray gun dice")
        hits = pool.value
        outcome = hits_label(hits)
        if inputs.target:
            draft.emit(*due_rolls(draft.get(inputs.target), hits))
        faces = " ".join(str(f) for r in pool.rolls for f in r.dice) or "no dice"
        terms = self.terms(inputs)
        narrative = (
            f'ray gun charge {inputs.charge} at {inputs.range_inches}": '
            f"{summed(terms)} dice ({faces}): {outcome}"
        )
        return Decision(
            outcome,
            f"{narrative} ({self.rule})",
            follow_ups=damage_roll_owed(inputs.target, hits),
            modifiers=tuple(terms),
        )


class RechargeInputs(AircraftInputs):
    gun: int = Field(1, ge=1, title="Ray gun")
    charge: int = Field(ge=0, le=MAX_CHARGE, title="Current charge")
    power: int = Field(ge=1, le=MAX_CHARGE, title="Power", description="the maximum charge")
    recharge_dice: int = Field(ge=0, le=12, title="Recharge dice (d6)")
    dice_count: int | None = Field(
        None,
        ge=0,
        le=72,
        title="Number of recharge dice rolled",
        description="'Recharge d6' read as a roll for the number of dice: the d6 rolled at the "
        "table (empty: part of the roll)",
    )


RECHARGE_ROLLED_OFF = (
    "the number of recharge dice is rolled only with the 'Recharge d6: a roll for the number "
    "of dice' reading (variant recharge_dice_rolled)"
)


class Recharge(Procedure):
    """UFO rules, Firing: UFO: "Any turn the gun does not fire it may recharge. Roll a number
    of dice equal to its recharge rating, and add result to current charge. Any points over
    maximum are lost." The dice are one summed roll (``"3d6"``); typed at the table they are
    still one value per die, as ``dice_needed`` lists them.

    The Small UFO's card prints "Recharge d6". Default: a rating of one die (d6 = 1d6). With
    the ``recharge_dice_rolled`` reading the rating is a roll: the rating's dice (one d6) give
    the number of dice, then that many d6 are added. At the table the first roll may be typed
    as ``dice_count``, and the dice then asked for are exactly that many.
    """

    def inputs_off(self) -> dict[str, str]:
        return {} if RECHARGE_DICE_ROLLED in self.variants else {"dice_count": RECHARGE_ROLLED_OFF}

    def count_roll(self, inputs: RechargeInputs) -> bool:
        """Whether the number of dice is still to be rolled (the reading, no count typed)."""
        if inputs.dice_count is not None and RECHARGE_DICE_ROLLED not in self.variants:
            raise RuleViolation(RECHARGE_ROLLED_OFF)
        return RECHARGE_DICE_ROLLED in self.variants and inputs.dice_count is None

    id = "recharge"
    title = "Ray gun recharge"
    rule = "UFO rules, Firing: UFO (recharge)"
    Inputs = RechargeInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        guns = card_of(a).ray_guns
        led = a.ledgers.get(ray_gun_ledger(1))
        if isinstance(guns, str) or not guns or led is None:
            return {}
        return {
            "gun": 1,
            "charge": int(led.value),
            "power": int(led.maximum),
            "recharge_dice": guns[0].recharge_dice,
        }

    def decide(self, inputs: RechargeInputs, dice: DiceSource, draft: Draft) -> Decision:
        if inputs.charge > inputs.power:
            raise RuleViolation("the charge cannot exceed the gun's power")
        e = draft.engagement
        ledger = ray_gun_ledger(inputs.gun)
        key = f"{ledger}_used_turn"
        if inputs.aircraft:
            u = ufo(e, inputs.aircraft)
            led = u.ledgers.get(ledger)
            guns = card_of(u).ray_guns
            if led is None or isinstance(guns, str) or inputs.gun > len(guns):
                raise RuleViolation(f"{u.name} has no ray gun {inputs.gun}")
            given = (inputs.charge, inputs.power, inputs.recharge_dice)
            actual = (int(led.value), int(led.maximum), guns[inputs.gun - 1].recharge_dice)
            if given != actual:
                raise RuleViolation(
                    f"{u.name}'s ray gun {inputs.gun} has charge {actual[0]}, power {actual[1]}"
                    f" and {actual[2]} recharge dice"
                )
            if state_of(u).gun_used_turn(ledger) == e.turn:
                raise RuleViolation(
                    f"{u.name}'s ray gun {inputs.gun} fired or recharged this turn: "
                    "only a gun that does not fire may recharge"
                )
        n = inputs.recharge_dice
        counted = ""
        if self.count_roll(inputs):
            n = dice.roll(f"{n}d6", "number of recharge dice").total if n else 0
            counted = f"{n} dice rolled, "
        elif inputs.dice_count is not None:
            n = inputs.dice_count
            counted = f"{n} dice rolled, "
        total = dice.roll(f"{n}d6", "recharge dice").total if n else 0
        new = min(inputs.power, inputs.charge + total)
        outcome = f"charge {new}"
        if inputs.aircraft:
            if new > inputs.charge:
                draft.emit(
                    LedgerChanged(
                        aircraft=inputs.aircraft,
                        ledger=ledger,
                        delta=Fraction(new - inputs.charge),
                        reason="recharge",
                    )
                )
            draft.emit(AttributesSet(aircraft=inputs.aircraft, values={key: e.turn}))
        lost = inputs.charge + total - new
        terms = [Term("current charge", inputs.charge, "UFO rules, Firing: UFO", "recharge dice")]
        shown = worked(total, terms) if n else str(inputs.charge)
        narrative = f"recharge {counted}dice {shown}: {outcome}" + (
            f" ({lost} over maximum lost)" if lost else ""
        )
        return Decision(outcome, f"{narrative} ({self.rule})", modifiers=tuple(terms))
