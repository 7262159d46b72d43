"""Air Power damage resolution of a hit (rule "Aircraft Damage Resolution", referred to but not
printed in this text: its table ships with every cell missing for the umpire to fill in)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource, distribution
from app.core.engagement import Engagement
from app.core.events import AttributesSet, CriticalHit, Event
from app.core.ruleset import Procedure, ProcedureInputs, Resolution
from rulesets.airpower.tables import damage_table, modifiers

NO_EFFECT = "-"


class DamageInputs(ProcedureInputs):
    attack_rating: int = Field(0, ge=0, le=30, title="Attack rating of the hit")
    weapon: Literal["gun", "rocket", "Genie"] = Field("gun", title="Weapon that hit")


class DamageRoll(Procedure):
    """Rule "Aircraft Damage Resolution": a d10 in the attack rating's column; rockets -2 to the
    roll ("just like direct missile hits", rule "Rocket Attack Procedure")."""

    id = "damage"
    title = "Damage roll"
    rule = "Air Power, Aircraft Damage Resolution"
    Inputs = DamageInputs
    dice = (("d10", "damage roll"),)

    def modifier(self, inputs: DamageInputs) -> int:
        return modifiers().rocket_damage_roll if inputs.weapon == "rocket" else 0

    def label(self, inputs: DamageInputs, roll: int) -> str:
        result = damage_table().result(
            inputs.attack_rating, roll + self.modifier(inputs), self.rule
        )
        return "miss" if result == NO_EFFECT else result

    def odds(self, inputs: DamageInputs) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for roll, p in distribution("d10").items():
            key = self.label(inputs, roll)
            out[key] = out.get(key, Fraction(0)) + p
        return out

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The oldest hit on the target still waiting for its damage roll."""
        if target is None:
            return {}
        pending = engagement.get(target).attributes.get("hits_to_resolve") or []
        if not pending:
            return {}
        weapon = pending[0].get("source", "gun")
        return {"attack_rating": pending[0]["attack_rating"], "weapon": weapon}

    def resolve(
        self, inputs: DamageInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        roll = dice.roll("d10", "damage roll")
        mod = self.modifier(inputs)
        outcome = self.label(inputs, roll.total)
        events: list[Event] = [self.record(inputs, [roll], outcome)]
        if inputs.target and engagement is not None:
            pending = list(engagement.get(inputs.target).attributes.get("hits_to_resolve") or [])
            for i, h in enumerate(pending):
                if h.get("attack_rating") == inputs.attack_rating:
                    del pending[i]
                    events.append(
                        AttributesSet(aircraft=inputs.target, values={"hits_to_resolve": pending})
                    )
                    break
        if inputs.target and outcome != "miss":
            events.append(
                CriticalHit(
                    aircraft=inputs.target,
                    roll=roll.total + mod,
                    result=outcome,
                    effect=f"{inputs.weapon} hit, attack rating {inputs.attack_rating}",
                    rule=self.rule,
                )
            )
        return Resolution(
            tuple(events),
            f"damage roll d10 {roll.total}{mod:+d} with attack rating {inputs.attack_rating}: "
            f"{'no effect' if outcome == 'miss' else outcome} ({self.rule})",
            outcome,
            (roll,),
        )
