"""Air Power flight record: recovery periods and SSGT (rules "Recovery Periods" and
"Steady-State Gunsight Tracking") as one-aircraft procedures without dice."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from app.core.engagement import Engagement
from app.core.events import AttributesSet
from app.core.procedure import Calculator, Decision, Draft
from app.core.ruleset import AircraftInputs
from rulesets.airpower.common import SSGT_RULE
from rulesets.airpower.recovery import RECOVERY_RULE, FireStatus, FPKind, fire_status
from rulesets.airpower.state import State


class FlightInputs(AircraftInputs):
    """The FPs flown so far this game turn and last game turn, each marked with what it did."""

    speed: float = Field(5.0, gt=0, le=30, title="Start speed this game turn")
    this_turn: list[FPKind] = Field(default_factory=list, max_length=30, title="FPs this turn")
    last_turn: list[FPKind] = Field(default_factory=list, max_length=30, title="FPs last turn")
    last_speed: float | None = Field(None, gt=0, le=30, title="Start speed last game turn")
    ssgt_fps: int = Field(
        0,
        ge=0,
        le=30,
        title="FPs of SSGT accumulated",
        description="consecutive FPs on a tracking line within six hexes, target in the field",
    )

    @model_validator(mode="after")
    def _ssgt(self) -> FlightInputs:
        if self.ssgt_fps > len(self.this_turn):
            raise ValueError(
                "SSGT counts FPs flown this game turn: more SSGT FPs than FPs flown "
                "(SSGT starts from zero each game turn)"
            )
        counting = sum(1 for s in self.status() if s.counts_for_ssgt)
        if self.ssgt_fps > counting:
            raise ValueError(
                f"only {counting} FPs flown this turn count for SSGT (not ET, unloaded, rolling "
                "or ET/unloaded recovery FPs)"
            )
        return self

    def status(self) -> list[FireStatus]:
        return fire_status(self.this_turn, self.speed, self.last_turn, self.last_speed)


def status_label(inputs: FlightInputs) -> str:
    """What the aircraft may do after its last FP: the outcome line of the flight record."""
    status = inputs.status()
    if not status:
        return "not flown yet"
    s = status[-1]
    parts = ["may fire guns" if s.may_fire_guns else "may not fire guns"]
    parts.append("rockets too" if s.may_fire_rockets else "no rockets")
    if s.gunsight_rate:
        parts.append(f"{s.gunsight_rate} gunsight modifier")
    return ", ".join(parts)


class RecordFlight(Calculator):
    """Rule "Recovery Periods": after each FP, may the aircraft fire, and which gunsight modifier
    applies (carried into the next game turn with the higher speed); SSGT FPs accumulated."""

    id = "flight"
    title = "Flight record (recovery, SSGT)"
    rule = RECOVERY_RULE
    Inputs = FlightInputs

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if attacker is None:
            return {}
        state = engagement.get(attacker).typed(State, "attributes")
        out: dict[str, Any] = {
            "this_turn": list(state.this_turn),
            "last_turn": list(state.last_turn),
            "last_speed": state.last_speed,
            "ssgt_fps": state.ssgt_fps,
        }
        if state.speed is not None:
            out["speed"] = state.speed
        return out

    def compute(self, inputs: FlightInputs, draft: Draft) -> Decision:
        label = status_label(inputs)
        if inputs.aircraft:
            draft.emit(
                AttributesSet(
                    aircraft=inputs.aircraft,
                    values={
                        "speed": inputs.speed,
                        "this_turn": list(inputs.this_turn),
                        "last_turn": list(inputs.last_turn),
                        "last_speed": inputs.last_speed,
                        "ssgt_fps": inputs.ssgt_fps,
                    },
                )
            )
        return Decision(label, f"after FP {len(inputs.this_turn)}: {label} ({self.rule})")


class PreemptInputs(AircraftInputs):
    pass


class DefensivePreemption(Calculator):
    """Rule "Defensive Pre-emption and SSGT": a target that defensively pre-empts cancels the
    SSGT the attacker (``aircraft``) accumulated so far; it must start anew."""

    id = "ssgt_cancelled"
    title = "Target pre-empted: attacker's SSGT lost"
    rule = SSGT_RULE + ": Defensive Pre-emption and SSGT"
    Inputs = PreemptInputs

    def compute(self, inputs: PreemptInputs, draft: Draft) -> Decision:
        if inputs.aircraft:
            draft.emit(AttributesSet(aircraft=inputs.aircraft, values={"ssgt_fps": 0}))
        return Decision("SSGT lost", f"SSGT lost to a defensive pre-emption ({self.rule})")
