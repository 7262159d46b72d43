"""Altitude Change chart red-numbered values (rule 30, with rule 9's inverted climb)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from app.core.procedure import Calculator, Decision, Draft
from app.core.ruleset import AircraftInputs

from .state import RedChange, state_of

Direction = Literal["climb", "dive"]


class AltitudeChangeInputs(AircraftInputs):
    direction: Direction = Field(title="Altitude change")
    change_ft: int = Field(ge=0, le=20000, title="Altitude change this Game-Turn (ft)")
    highest_black_ft: int = Field(
        ge=0, le=20000, title="Highest black value at this altitude (ft)", description="rule 30"
    )
    previous_red_direction: Direction | None = Field(
        None,
        title="Last Game-Turn's red change beyond black",
        description="read from the aircraft when one is given",
    )
    inverted: bool = Field(False, title="Climbing from an inverted attitude", description="rule 9")


class AltitudeChange(Calculator):
    """Rule 30: a red-numbered value above the highest black value at the same altitude is not
    used on two consecutive Game-Turns in the same direction, uses the red Speed Point loss (in
    a climb) and needs some opposite altitude change (.1 minimum) on the Resulting Game-Turn.
    Rule 9: climbing from an inverted attitude uses the red climbing Speed Point loss."""

    id = "altitude_change"
    title = "Altitude change (red values)"
    rule = "rules 9, 30"
    Inputs = AltitudeChangeInputs

    @staticmethod
    def _previous(inputs: AltitudeChangeInputs, draft: Draft) -> Direction | None:
        """Last Game-Turn's red change beyond black: the aircraft's, else as typed."""
        if inputs.aircraft is None:
            return inputs.previous_red_direction
        rec = state_of(draft.get(inputs.aircraft)).red_altitude_change
        if rec is not None and rec.turn == draft.engagement.turn - 1:
            return rec.direction
        return None

    def compute(self, inputs: AltitudeChangeInputs, draft: Draft) -> Decision:
        i = inputs
        if i.change_ft % 100 or i.highest_black_ft % 100:
            raise RuleViolation("altitude changes are in steps of 100 ft (.1)")
        prev = self._previous(i, draft)
        if prev is not None:
            opposite = "dive" if prev == "climb" else "climb"
            if i.direction != opposite or i.change_ft < 100:
                raise RuleViolation(
                    f"rule 30: after last Game-Turn's red {prev} beyond the black value, this "
                    f"Game-Turn needs at least 100 ft of {opposite}"
                )
        red = i.change_ft > i.highest_black_ft
        notes: list[str] = []
        if red:
            notes.append(
                "red value beyond black: next Game-Turn needs at least 100 ft the other way"
            )
        if i.direction == "climb" and (red or i.inverted):
            notes.append("use the red climbing Speed Point loss")
        label = f"{i.direction} {i.change_ft} ft" + (" (red)" if red else "")
        if i.aircraft is not None:
            now = RedChange(turn=draft.engagement.turn, direction=i.direction) if red else None
            draft.emit(
                AttributesSet(
                    aircraft=i.aircraft,
                    values={"red_altitude_change": now.model_dump() if now else None},
                )
            )
        return Decision(
            label, label + ("; " + "; ".join(notes) if notes else "") + f" ({self.rule})"
        )
