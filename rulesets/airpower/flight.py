"""Air Power flight record: recovery periods and SSGT (rules "Recovery Periods" and
"Steady-State Gunsight Tracking") as one-aircraft procedures without dice."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from app.core.engagement import AircraftState, Engagement
from app.core.events import AttributesSet
from app.core.procedure import Calculator, Decision, Draft
from app.core.ruleset import AircraftInputs
from rulesets.airpower.attacks import SSGT_RULE
from rulesets.airpower.recovery import RECOVERY_RULE, FireStatus, FPKind, fire_status
from rulesets.airpower.state import State

#: rule "Steady-State Gunsight Tracking": "within six hexes of the target"
SSGT_MAX_RANGE = 6


class FlightInputs(AircraftInputs):
    """The FPs flown so far this game turn and last game turn, each marked with what it did,
    and the steady-state gunsight tracking under way."""

    speed: float = Field(5.0, gt=0, le=30, title="Start speed this game turn")
    this_turn: list[FPKind] = Field(default_factory=list, max_length=30, title="FPs this turn")
    last_turn: list[FPKind] = Field(default_factory=list, max_length=30, title="FPs last turn")
    last_speed: float | None = Field(None, gt=0, le=30, title="Start speed last game turn")
    tracking_since: int | None = Field(
        None,
        ge=1,
        le=30,
        title="On a tracking line since FP",
        description="without a break, up to the FP just flown (empty: not tracking)",
    )
    tracked_range: int | None = Field(
        None, ge=0, le=60, title="Range to the tracked target (hexes)"
    )
    target_in_field: bool = Field(
        False, title="Tracked target in the gun field of fire or limited arc"
    )
    #: FPs flown when a defensive pre-emption cancelled SSGT (kept in the aircraft's state)
    ssgt_from: int = Field(0, ge=0, le=30, title="SSGT cancelled after FP")

    @model_validator(mode="after")
    def _tracking(self) -> FlightInputs:
        """Rule "SSGT Procedure": FPs accumulated consecutively on a tracking line, within six
        hexes of the target, with the target in the field of fire of the guns or the limited
        arc; started anew after a defensive pre-emption ("Defensive Pre-emption and SSGT")."""
        since = self.tracking_since
        if since is None:
            return self
        if since > len(self.this_turn):
            raise ValueError(
                f"tracking since FP {since}, but {len(self.this_turn)} FP(s) flown this game "
                "turn (SSGT starts from zero each game turn)"
            )
        if since <= self.ssgt_from:
            raise ValueError(
                f"a defensive pre-emption after FP {self.ssgt_from} cancelled the SSGT so far: "
                f"tracking starts anew after it (FP {self.ssgt_from + 1} or later)"
            )
        if self.tracked_range is None:
            raise ValueError("give the range to the tracked target (within six hexes)")
        if self.tracked_range > SSGT_MAX_RANGE:
            raise ValueError(
                f"range {self.tracked_range}: SSGT needs the target within {SSGT_MAX_RANGE} hexes"
            )
        if not self.target_in_field:
            raise ValueError(
                "SSGT needs the target in the field of fire of the guns or in the limited arc"
            )
        return self

    def status(self) -> list[FireStatus]:
        return fire_status(self.this_turn, self.speed, self.last_turn, self.last_speed)

    @property
    def ssgt_fps(self) -> int:
        """The FPs of SSGT accumulated: those since the tracking began that count for SSGT (not
        ET, unloaded or rolling FPs, nor the recovery FPs after an ET or an unloaded FP)."""
        if self.tracking_since is None:
            return 0
        flown = self.status()[self.tracking_since - 1 :]
        return sum(1 for s in flown if s.counts_for_ssgt)


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

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        state = a.typed(State, "attributes")
        out: dict[str, Any] = {
            "this_turn": list(state.this_turn),
            "last_turn": list(state.last_turn),
            "last_speed": state.last_speed,
            "tracking_since": state.tracking_since,
            "ssgt_from": state.ssgt_from,
        }
        if state.speed is not None:
            out["speed"] = state.speed
        return out

    card_fields = frozenset({"ssgt_from"})

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
                        "tracking_since": inputs.tracking_since,
                        "ssgt_fps": inputs.ssgt_fps,
                    },
                )
            )
        ssgt = f"; SSGT {inputs.ssgt_fps} FP(s)" if inputs.tracking_since else ""
        return Decision(
            label, f"after FP {len(inputs.this_turn)}: {label}{ssgt} ({self.rule}; {SSGT_RULE})"
        )


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
            flown = len(draft.state(inputs.aircraft, State).this_turn)
            draft.emit(
                AttributesSet(
                    aircraft=inputs.aircraft,
                    values={"ssgt_fps": 0, "tracking_since": None, "ssgt_from": flown},
                )
            )
        return Decision("SSGT lost", f"SSGT lost to a defensive pre-emption ({self.rule})")
