"""Missiles: launch, flight and lock, and the hit (UFO rules, Firing: Missiles; Hitting)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, model_validator

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, GameAttributesSet, LedgerChanged
from app.core.procedure import Calculator, Decision, Draft, Procedure, Resolution
from app.core.ruleset import ProcedureInputs

from .card import MISSILE_DATA, card_of
from .geometry import inches
from .guns import damage_roll_owed, due_rolls
from .sequence import MISSILES, require_step
from .state import (
    Missile,
    fighter,
    fired_this_step,
    flying,
    game_of,
    hard_point_ledger,
    in_flight,
    lost_hard_points,
    need,
)

MissileType = Literal["sidewinder", "amraam"]


class LaunchInputs(ProcedureInputs):
    missile: MissileType = Field(title="Missile")
    count: Literal[1, 2] = Field(1, title="How many", description="up to 1 or 2 of one type")
    range_inches: int = Field(ge=0, title="Range to the target (inches)")
    hard_points: list[int] = Field(
        default_factory=list,
        title="Hard points",
        description="which hard point each missile comes from (empty: the first loaded ones)",
    )

    @model_validator(mode="after")
    def _points(self) -> LaunchInputs:
        if self.hard_points and len(self.hard_points) != self.count:
            raise ValueError("name one hard point for each missile fired")
        return self


class MissileLaunch(Calculator):
    """UFO rules, Firing: Missiles: "May fire up to 1 or 2 missiles of the same type- each
    missile noted may be used only once, or fire guns once"; the pilot nominates a target within
    24in for AMRAAM or 12 inches for Sidewinder; "If 2 sidewinders fired at once one must come
    from HP2 and one from HP4" (Tornado card): two Sidewinders come from different hard points.
    """

    id = "missile_launch"
    title = "Missile launch"
    rule = "UFO rules, Firing: Missiles"
    Inputs = LaunchInputs

    def _choose(self, inputs: LaunchInputs, engagement: Engagement, aid: str) -> list[int]:
        a = engagement.get(aid)
        lost = lost_hard_points(a)
        if inputs.hard_points:
            chosen = list(inputs.hard_points)
        else:
            loaded = [
                h.number
                for h in card_of(a).hard_points
                if h.store == inputs.missile
                and h.number not in lost
                and a.ledgers.get(hard_point_ledger(h.number)) is not None
                and a.ledger(hard_point_ledger(h.number)) > 0
            ]
            # two Sidewinders come from different hard points; two AMRAAMs may share one
            spread = inputs.count == 2 and inputs.missile == "sidewinder"
            chosen = loaded[:2] if spread else (loaded[:1] * inputs.count)
            if len(chosen) < inputs.count:
                raise RuleViolation(
                    f"{a.name} has no {inputs.count} {MISSILE_DATA[inputs.missile].name} to fire"
                )
        if inputs.missile == "sidewinder" and inputs.count == 2 and chosen[0] == chosen[1]:
            raise RuleViolation(
                "two Sidewinders fired at once come from different hard points "
                "(one from HP2 and one from HP4)"
            )
        for n in chosen:
            hp = next((h for h in card_of(a).hard_points if h.number == n), None)
            if hp is None or hp.store != inputs.missile:
                raise RuleViolation(
                    f"{a.name}'s hard point {n} carries no {MISSILE_DATA[inputs.missile].name}"
                )
            if n in lost:
                raise RuleViolation(f"{a.name}'s hard point {n} is lost")
            need_here = chosen.count(n)
            have = a.ledger(hard_point_ledger(n))
            if have < need_here:
                raise RuleViolation(f"{a.name}'s hard point {n} has only {have} missile(s) left")
        return chosen

    def compute(self, inputs: LaunchInputs, draft: Draft) -> Decision:
        data = MISSILE_DATA[inputs.missile]
        if inputs.range_inches > data.range_inches:
            raise RuleViolation(
                f"{data.name} targets must be within {inches(data.range_inches)} "
                f"(this one is {inputs.range_inches})"
            )
        what = f"{inputs.count} {data.name}" + ("s" if inputs.count > 1 else "")
        if inputs.attacker:
            e = draft.engagement
            a = fighter(e, inputs.attacker)
            require_step(e, (MISSILES,), "missile fire")
            if fired_this_step(a, e):
                raise RuleViolation(f"{a.name} has already fired in this step")
            chosen = self._choose(inputs, e, a.id)
            t = need(e, inputs.target) if inputs.target else None
            for n in sorted(set(chosen)):
                draft.emit(
                    LedgerChanged(
                        aircraft=a.id,
                        ledger=hard_point_ledger(n),
                        delta=Fraction(-chosen.count(n)),
                        reason=f"{data.name} fired",
                    )
                )
            draft.emit(AttributesSet(aircraft=a.id, values={"fired": [e.turn, e.step]}))
            what += " from hard point" + ("s " if len(set(chosen)) > 1 else " ")
            what += " and ".join(str(n) for n in sorted(set(chosen)))
            if t is not None:
                missiles = in_flight(e)
                serial = game_of(e).missile_serial
                for _ in range(inputs.count):
                    serial += 1
                    missiles.append(
                        Missile(
                            id=f"M{serial}",
                            type=inputs.missile,
                            attacker=a.id,
                            target=t.id,
                            turns_left=data.turns,
                            launched=e.turn,
                            moved_turn=0,
                        )
                    )
                draft.emit(flying(missiles), GameAttributesSet(values={"missile_serial": serial}))
        return Decision("launched", f"{what} launched ({self.rule})")


class FlightInputs(ProcedureInputs):
    missile: str = Field(
        "", title="Missile in flight", description="its id (M1, M2 ...); empty for a what-if"
    )
    came_within_1_inch: bool = Field(
        title='Came within 1" of the target', description="at any point of its move"
    )
    target_in_front_arc: bool = Field(
        True, title="Target in its front arc", description="at the end of its turn's movement"
    )


class MissileFlight(Procedure):
    """UFO rules, Firing: Missile lock and Hitting: a missile moves after all other movement;
    "If a missile gets within 1" at any point of its move then it explodes for 1d6 rolls on
    Damage Table"; "If at the end of its turn's movement the target is not in its front arc,
    the missile loses lock, and is removed from play". An AMRAAM lasts 3 turns, a Sidewinder 1.
    """

    id = "missile_flight"
    title = "Missile flight"
    rule = "UFO rules, Firing: Missile lock; Hitting: missile"
    Inputs = FlightInputs

    @staticmethod
    def _label(rolls: int) -> str:
        return f"{rolls} damage roll" + ("s" if rolls > 1 else "")

    def decide(self, inputs: FlightInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        record: Missile | None = None
        if inputs.missile:
            require_step(e, (MISSILES,), "missile movement")
            missiles = in_flight(e)
            record = next((m for m in missiles if m.id == inputs.missile), None)
            if record is None:
                known = ", ".join(m.id for m in missiles) or "none"
                raise RuleViolation(f"no missile {inputs.missile} in flight (in flight: {known})")
            if record.moved_turn == e.turn:
                raise RuleViolation(f"missile {inputs.missile} has already moved this turn")
        name = MISSILE_DATA[record.type].name if record else "missile"
        damage_rolls = 0
        owed: tuple[tuple[str, str], ...] = ()
        if inputs.came_within_1_inch:
            damage_rolls = dice.roll("d6", "rolls on the damage table").total
            outcome = self._label(damage_rolls)
            narrative = f'{name} explodes within 1": d6={damage_rolls}, {outcome}'
            gone = True
        elif not inputs.target_in_front_arc:
            outcome, narrative, gone = "miss", f"{name} loses lock and is removed", True
        else:
            outcome = "miss"
            left = record.turns_left - 1 if record else 0
            gone = left <= 0
            narrative = f"{name} " + (
                "runs out and is removed" if gone else f"tracking, {left} turn(s) left"
            )
        if record is not None:
            missiles = in_flight(e)
            rest = [m for m in missiles if m.id != record.id]
            if not gone:
                moved = record.model_copy(
                    update={"turns_left": record.turns_left - 1, "moved_turn": e.turn}
                )
                rest = [moved if m.id == record.id else m for m in missiles]
            draft.emit(flying(rest))
            target = draft.engagement.aircraft.get(record.target)
            if damage_rolls and target is not None and target.in_play:
                draft.emit(*due_rolls(target, damage_rolls))
                owed = damage_roll_owed(target.id, damage_rolls)
        return Decision(outcome, f"{narrative} ({self.rule})", follow_ups=owed)

    def resolve(self, inputs: FlightInputs, dice: DiceSource, engagement: Engagement) -> Resolution:
        """``decide`` once, as every procedure; only the log record is completed first: it
        names the missile's launcher and target, read off the missile in flight (which the
        flight may remove)."""
        by_id = {m.id: m for m in in_flight(engagement)}
        m = by_id.get(inputs.missile) if inputs.missile else None
        if m is not None:
            inputs = inputs.model_copy(update={"attacker": m.attacker, "target": m.target})
        return super().resolve(inputs, dice, engagement)
