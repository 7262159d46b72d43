"""Air Power radar ranging for gun and rocket attacks (rule "Radar Ranging")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from app.core.procedure import Decision, Draft, Party, Procedure
from app.core.reckoning import Term
from app.core.ruleset import ProcedureInputs
from rulesets.airpower.arcs import AngleOff
from rulesets.airpower.attacks import RR_RULE, attacks_this_turn, check_radar_ranging
from rulesets.airpower.card import Card
from rulesets.airpower.state import RadarRanged, RangingAttempt, State


class RangingInputs(ProcedureInputs):
    radar_ranging: Literal["RE", "CA", "IG"] = Field("IG", title="Radar ranging type (ADC)")
    lock_on_number: int = Field(0, ge=0, le=10, title="Radar lock-on number (ADC)")
    has_lock_on: bool = Field(False, title="Already locked on to the target")
    angle_off: AngleOff = Field(AngleOff.ARC_30, title="Angle-off")
    ssgt_fps: int = Field(0, ge=0, le=30, title="FPs of SSGT accumulated")
    kept: bool = Field(
        False,
        title="Ranged on this target earlier this game turn",
        description="kept for a second attack on the same target",
    )


class RadarRanging(Procedure):
    """Rule "Radar Ranging Procedure": after declaring a gun or rocket attack and meeting the
    requirements (RE: 1 FP of SSGT; CA: the 90- arc; IG: none) the attacker may range. It
    succeeds automatically with a lock-on to the target (or when it succeeded for the first
    attack on the same target this game turn); otherwise a d10 at most the lock-on number."""

    id = "radar_ranging"
    title = "Radar ranging"
    rule = RR_RULE
    Inputs = RangingInputs

    def automatic(self, inputs: RangingInputs) -> bool:
        return inputs.has_lock_on or inputs.kept

    card_fields = frozenset({"radar_ranging", "lock_on_number"})

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        if a is None:
            return {}
        out: dict[str, Any] = {"ssgt_fps": a.state.ssgt_fps}
        if a.card.radar_ranging:
            out["radar_ranging"] = a.card.radar_ranging
        if a.card.lock_on is not None:
            out["lock_on_number"] = a.card.lock_on
        ranged = a.state.radar_ranged
        out["kept"] = bool(
            t and ranged and ranged.turn == engagement.turn and ranged.target == t.id
        )
        return out

    def decide(self, inputs: RangingInputs, dice: DiceSource, draft: Draft) -> Decision:
        check_radar_ranging(inputs.radar_ranging, inputs.angle_off, inputs.ssgt_fps)
        if inputs.attacker:
            self.record_attempt(inputs.attacker, draft)
        terms: tuple[Term, ...] = ()
        if self.automatic(inputs):
            outcome = "ranged"
            why = "kept from the first attack" if inputs.kept else "automatic with a lock-on"
        else:
            roll = dice.roll("d10", "radar ranging").total
            outcome = "ranged" if roll <= inputs.lock_on_number else "miss"
            why = f"d10 {roll} against lock-on number {inputs.lock_on_number}"
            what = "radar lock-on number (ADC)"
            terms = (Term(what, inputs.lock_on_number, self.rule, "radar ranging: at most"),)
        if inputs.attacker and outcome == "ranged" and inputs.target:
            ranged = RadarRanged(turn=draft.engagement.turn, target=inputs.target)
            draft.emit(
                AttributesSet(
                    aircraft=inputs.attacker, values={"radar_ranged": ranged.model_dump()}
                )
            )
        said = "ranging succeeds" if outcome == "ranged" else "ranging fails"
        return Decision(
            outcome,
            f"{inputs.radar_ranging} radar ranging: {why}: {said} ({self.rule})",
            modifiers=terms,
        )

    def record_attempt(self, attacker: str, draft: Draft) -> None:
        """One ranging attempt per declared attack: the attack being declared is the one after
        the attacks already recorded this game turn; a second attempt for it is refused."""
        turn = draft.engagement.turn
        attack = len(attacks_this_turn(draft, attacker)) + 1
        last = draft.state(attacker, State).ranging_attempt
        if last is not None and (last.turn, last.attack) == (turn, attack):
            ordinal = "first" if attack == 1 else "second" if attack == 2 else f"{attack}th"
            raise RuleViolation(
                f"radar ranging was already attempted for this aircraft's {ordinal} attack of "
                "game turn "
                f"{turn}: one attempt per declared attack (a failed attempt may be made again "
                "for the next attack on the same target)"
            )
        attempt = RangingAttempt(turn=turn, attack=attack)
        draft.emit(
            AttributesSet(aircraft=attacker, values={"ranging_attempt": attempt.model_dump()})
        )
