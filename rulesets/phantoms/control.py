"""Losing control of an aircraft (6.4): the checks (6.4.1), recovery (6.4.2) and its effects
(6.4.3)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, StatusChanged
from app.core.procedure import Decision, Draft, Procedure
from app.core.reckoning import Term, total, worked
from app.core.ruleset import AircraftInputs, PilotQuality
from rulesets.phantoms.clock import now_impulse
from rulesets.phantoms.state import (
    ControlCheck,
    Spots,
    game_of,
    in_play,
    loss_events,
    pilot_of,
    spotting,
    state_of,
)
from rulesets.phantoms.tables import D10, tables

Cause = Literal["hard turn", "loop", "speed"]


def safe_up_to(cause: Cause, pilot: str) -> int | None:
    """6.4.1 / Losing Control chart: the highest safe roll, or None if no check is needed."""
    p = tables().pilot
    row = {"hard turn": p.control_hard_turn, "loop": p.control_loop, "speed": p.control_speed}[
        cause
    ]
    return next((v for k, v in row.items() if k == pilot), None)


class ControlInputs(AircraftInputs):
    cause: Cause = Field("hard turn", title="Cause", description="hard turn, loop, speed <= 0")
    pilot: PilotQuality = Field("green", title="Pilot quality")
    wounded: bool = Field(False, title="Pilot wounded (checks a Hard Turn or Loop as Inexp.)")
    below_zero: int = Field(0, ge=0, title="Speed points below zero (speed checks)")


class LossOfControl(Procedure):
    """6.4.1 Loss of control check: d10 within 1-N is safe (Hard Turn: Green 1-4, Inexp.
    1-6; Loop: Green 1-4; speed <= 0: 1-8/1-6/1-4), -1 per speed point below zero."""

    id = "loss_of_control"
    title = "Loss of control check"
    rule = "6.4.1"
    Inputs = ControlInputs

    def terms(self, i: ControlInputs) -> list[Term]:
        """6.4.1: "The die roll is modified by -1 for each speed point less than zero that was
        caused by the maneuver" (speed checks only). Default reading: each point counts against
        the pilot, +1 on a roll that must be low; the ``loss_of_control_literal`` reading: -1
        each, and the modified roll must lie in 1-N."""
        if i.cause != "speed" or i.below_zero == 0:
            return []
        literal = "loss_of_control_literal" in self.variants
        value = -i.below_zero if literal else i.below_zero
        how = "" if literal else ", counted against the pilot"
        return [
            Term(
                f"{i.below_zero} speed point(s) below zero{how}", value, "6.4.1", "loss of control"
            )
        ]

    def safe_top(self, i: ControlInputs) -> int | None:
        """The highest safe roll: the Losing Control chart's, or Inexp.'s for a wounded pilot's
        Hard Turn or Loop (Critical Hit Table #4: "if Hard Turn or Loop check for spin as
        Inexp.")."""
        top = safe_up_to(i.cause, i.pilot)
        if i.wounded and i.cause != "speed" and i.pilot != "green":
            top = safe_up_to("hard turn", "inexperienced")
        return top

    def _label(self, i: ControlInputs, roll: int) -> str:
        top = self.safe_top(i)
        if top is None:
            raise RuleViolation(
                f"a {i.pilot} pilot does not check for loss of control on a {i.cause} (6.4.1)"
            )
        modified = roll + total(self.terms(i))
        if "loss_of_control_literal" in self.variants and i.below_zero and i.cause == "speed":
            return "safe" if 1 <= modified <= top else "out of control"
        return "safe" if modified <= top else "out of control"

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        checks = state_of(a).control_checks
        out: dict[str, Any] = {"pilot": pilot_of(a), "wounded": Status.WOUNDED in a.status}
        if checks:
            out.update(cause=checks[0].cause, below_zero=checks[0].below_zero)
        return out

    def decide(self, inputs: ControlInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = None
        checks: list[ControlCheck] = []
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            in_play(a)
            checks = list(state_of(a).control_checks)
            if not checks:
                raise RuleViolation(f"{a.name} has no loss of control check to make (6.4.1)")
            inputs = inputs.model_copy(update=self.prefill(draft.engagement, a.id, None))
        self._label(inputs, 1)  # refuse a check the rules do not call for, before rolling
        roll = dice.roll(D10, "loss of control").total
        outcome = self._label(inputs, roll)
        if a is not None:
            values: dict[str, Any] = {"control_checks": [c.model_dump() for c in checks[1:]]}
            speed = state_of(a).speed
            if outcome == "out of control":
                draft.emit(StatusChanged(aircraft=a.id, set=(Status.OUT_OF_CONTROL,)))
                spots = dict(game_of(draft.engagement).spots)
                if a.id in spots:  # 13.1, 13.2: a spinning aircraft loses all its spots
                    spots[a.id] = Spots()
                    draft.emit(spotting(spots))
                values["maneuver"] = None
                values["control_checks"] = []
                if speed <= 0:
                    values["speed"] = 1  # 6.4.2: treated as speed 1
            elif inputs.cause == "speed":
                values["speed"] = 1  # 6.4.1: "the aircraft's speed is set at 1"
            draft.emit(AttributesSet(aircraft=a.id, values=values))
        terms = self.terms(inputs)
        shown = worked(roll, terms) if terms else str(roll)
        top = self.safe_top(inputs)
        wounded = " (wounded: as Inexp.)" if top != safe_up_to(inputs.cause, inputs.pilot) else ""
        safe = Term(
            f"{inputs.pilot.capitalize()} pilot{wounded}, {inputs.cause}: safe on 1-",
            top or 0,
            "6.4.1" + (", Critical Hit Table #4" if wounded else ""),
            "loss of control: safe up to",
        )
        return Decision(
            outcome,
            f"loss of control check ({inputs.cause}) d10 {shown}, safe up to {top}: "
            f"{outcome} (6.4.1)",
            modifiers=(*terms, safe),
        )


class RecoveryInputs(AircraftInputs):
    pilot: PilotQuality = Field("average", title="Pilot quality")
    speed: int = Field(1, ge=1, le=10, title="Current speed")
    altitude: int = Field(0, ge=0, title="Current altitude")


class Recovery(Procedure):
    """6.4.2-6.4.3 Recovery: d10 within 1-8 (Ace/Exp./Avg.), 1-6 (Inexp.), 1-4 (Green)
    recovers, then lose d6 speed (at least speed 1) and turn d6 hexsides clockwise; otherwise
    lose one altitude level, crashing below 0 (a kill for the other side)."""

    id = "recovery"
    title = "Out-of-control recovery"
    rule = "6.4.2"
    Inputs = RecoveryInputs

    def _label(self, i: RecoveryInputs, roll: int) -> str:
        if roll <= tables().pilot.recovery[i.pilot]:
            return "recovered"
        return "crashed" if i.altitude == 0 else "still out of control"

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        return {
            "pilot": pilot_of(a),
            "speed": max(1, state_of(a).speed),
            "altitude": state_of(a).altitude,
        }

    def decide(self, inputs: RecoveryInputs, dice: DiceSource, draft: Draft) -> Decision:
        e = draft.engagement
        a = None
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            in_play(a)
            if Status.OUT_OF_CONTROL not in a.status:
                raise RuleViolation(f"{a.name} is not out of control (6.4.2)")
            now = now_impulse(e)
            if now is not None and state_of(a).recovery_due_at != now:
                raise RuleViolation(
                    f"{a.name} checks recovery only in an impulse in which it would move (6.4.2)"
                )
            inputs = inputs.model_copy(update=self.prefill(e, a.id, None))
        roll = dice.roll(D10, "recovery").total
        outcome = self._label(inputs, roll)
        top = tables().pilot.recovery[inputs.pilot]
        narrative = f"recovery roll {roll} (recovers up to {top}): {outcome}"
        what = f"{inputs.pilot.capitalize()} pilot recovers on 1-"
        safe = Term(what, top, "6.4.2", "recovery: at most")
        values: dict[str, Any] = {}
        if outcome == "recovered":
            lost = dice.roll("d6", "speed lost (if recovered)").total
            turn = dice.roll("d6", "hexsides turned clockwise (if recovered)").total
            speed = max(inputs.speed - lost, 1)
            values = {
                "speed": speed,
                "last_facing": f"turned {turn} hexsides clockwise (6.4.3)",
            }
            narrative += (
                f"; speed {inputs.speed} - {lost} -> {speed}, turn {turn} hexsides clockwise"
            )
        elif outcome == "still out of control":
            values = {"altitude": inputs.altitude - 1}
            narrative += f"; altitude {inputs.altitude} -> {inputs.altitude - 1}"
        else:
            narrative += " below altitude 0: the aircraft crashes, a kill for the other side"
        if a is not None:
            if outcome == "recovered":
                draft.emit(StatusChanged(aircraft=a.id, cleared=(Status.OUT_OF_CONTROL,)))
                values["recovered_at"] = now_impulse(e)
            elif outcome == "crashed":
                draft.emit(*loss_events(e, a, (Status.CRASHED,), "crashed"))
                values = {"altitude": 0, "criticals_due": 0}
            draft.emit(AttributesSet(aircraft=a.id, values=values))
        return Decision(outcome, narrative + " (6.4.2-6.4.3)", modifiers=(safe,))
