"""Air Power damage resolution of a hit (rule "Aircraft Damage Resolution", referred to but not
printed in this text: its table ships with every cell missing for the umpire to fill in)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.events import AttributesSet, CriticalHit
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term
from app.core.ruleset import ProcedureInputs
from rulesets.airpower.state import State, Weapon
from rulesets.airpower.tables import damage_table, modifiers

NO_EFFECT = "-"


class DamageInputs(ProcedureInputs):
    attack_rating: int = Field(0, ge=0, le=30, title="Attack rating of the hit")
    weapon: Weapon = Field("gun", title="Weapon that hit")


class DamageRoll(Procedure):
    """Rule "Aircraft Damage Resolution": a d10 in the attack rating's column; rockets -2 to the
    roll ("just like direct missile hits", rule "Rocket Attack Procedure")."""

    id = "damage"
    title = "Damage roll"
    rule = "Air Power, Aircraft Damage Resolution"
    Inputs = DamageInputs
    #: the roll is owed by the aircraft that was hit: it is the target (issue 28)
    line_role = "target"

    def modifier(self, inputs: DamageInputs) -> int:
        return modifiers().rocket_damage_roll if inputs.weapon == "rocket" else 0

    def label(self, inputs: DamageInputs, roll: int) -> str:
        result = damage_table().result(
            inputs.attack_rating, roll + self.modifier(inputs), self.rule
        )
        return "miss" if result == NO_EFFECT else result

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The oldest hit on the target still waiting for its damage roll."""
        if target is None:
            return {}
        pending = engagement.get(target).typed(State, "attributes").hits_to_resolve
        if not pending:
            return {}
        return {"attack_rating": pending[0].attack_rating, "weapon": pending[0].source}

    def decide(self, inputs: DamageInputs, dice: DiceSource, draft: Draft) -> Decision:
        roll = dice.roll("d10", "damage roll").total
        mod = self.modifier(inputs)
        outcome = self.label(inputs, roll)
        if inputs.target:
            self._resolved(inputs, draft)
            if outcome != "miss":
                draft.emit(
                    CriticalHit(
                        aircraft=inputs.target,
                        roll=roll + mod,
                        result=outcome,
                        effect=f"{inputs.weapon} hit, attack rating {inputs.attack_rating}",
                        rule=self.rule,
                    )
                )
        terms = (
            (
                Term(
                    "rockets, as direct missile hits",
                    mod,
                    "Air Power, Rocket Damage Modifiers",
                    "damage roll",
                ),
            )
            if mod
            else ()
        )
        return Decision(
            outcome,
            f"damage roll d10 {roll}{mod:+d} = {roll + mod} with attack rating "
            f"{inputs.attack_rating}: {'no effect' if outcome == 'miss' else outcome} "
            f"({self.rule})",
            modifiers=terms,
        )

    def _resolved(self, inputs: DamageInputs, draft: Draft) -> None:
        """The hit this roll resolves leaves the target's waiting hits: the oldest of this
        weapon and attack rating, else the oldest of this attack rating."""
        assert inputs.target is not None
        pending = list(draft.state(inputs.target, State).hits_to_resolve)
        same = [i for i, h in enumerate(pending) if h.attack_rating == inputs.attack_rating]
        exact = [i for i in same if pending[i].source == inputs.weapon]
        if not same:
            return
        del pending[(exact or same)[0]]
        draft.emit(
            AttributesSet(
                aircraft=inputs.target,
                values={"hits_to_resolve": [h.model_dump(mode="json") for h in pending]},
            )
        )
