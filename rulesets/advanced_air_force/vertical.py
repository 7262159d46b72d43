"""Vertical Dives and Vertical Climbs (the "Vertical Dive Rules" and "Vertical Climb Rules").

Reading: "+ 500%" / "+ 400%" of the black Max. Dive value is taken as a V. Dive Rate of five
(four) times that value, matching "below 500% black Max. Dive" in the same rule; with the
``v_dive_rate_added`` variant the percentage is added to the value (six, five times).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, StatusChanged
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.reckoning import Term, summed, total
from app.core.ruleset import AircraftInputs

from .card import Card
from .hits import Hit
from .state import state_of

MAX_V_DIVE_ENTRY_SPEED = 7
#: variant id: "+ 500%" read as the black Max. Dive plus 500% (six times it)
V_DIVE_RATE_ADDED = "v_dive_rate_added"
FT_PER_MOVEMENT_POINT = 500


class VDiveInputs(AircraftInputs):
    current_speed: int = Field(ge=0, le=50, title="Current Airspeed")
    game_turn: int = Field(1, ge=1, le=2, title="V. Dive Game-Turn (1st or 2nd consecutive)")
    movement_points_spent: int = Field(
        0, ge=0, le=20, title="Movement Points spent to reach the V. Dive hex"
    )
    from_maneuver_speed: bool = Field(False, title="From Maneuver Speed")
    inverted: bool = Field(False, title="Inverted at the start (not L, RB or LB)")
    max_dive_ft: int = Field(ge=0, le=10000, title="Black Max. Dive (ft, after W-hit losses)")
    max_dive_speed: int = Field(ge=1, le=50, title="Max. Dive Sp. (after hit losses)")
    v_dive_requirement: int | None = Field(
        None, ge=0, le=10, title="V. Dive Maneuver Requirement (card; empty: none)"
    )
    remaining_w_hits: int = Field(ge=0, le=40, title='Remaining "W" hit boxes')
    altitude_ft: int | None = Field(None, ge=0, le=60000, title="Altitude before the dive (ft)")


class VerticalDive(Calculator):
    """V. Dive rules 1-3: the V. Dive Rate, the exit airspeed and what the dive requires."""

    id = "vertical_dive"
    title = "Vertical Dive"
    rule = "Vertical Dive rules 1-3"
    Inputs = VDiveInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        c = a.typed(Card, "card")
        st = state_of(a)
        return {
            "max_dive_ft": max(c.max_dive_ft - st.dive_rate_loss_ft, 0),
            "max_dive_speed": c.max_dive_speed - st.max_dive_speed_loss,
            "v_dive_requirement": c.v_dive_requirement,
            "remaining_w_hits": max(c.hit_boxes[Hit.W] - a.boxes.get(Hit.W, 0), 0),
        }

    def compute(self, inputs: VDiveInputs, draft: Draft) -> Decision:
        i = inputs
        if i.v_dive_requirement is None:
            raise RuleViolation(
                "V. Dive rule 1: only an aircraft with V. Dive Maneuver Requirements may V. Dive"
            )
        notes: list[str] = []
        ft, sp = "V. Dive Rate (ft)", "Resulting Airspeed on exit"
        if i.game_turn == 1:
            if i.current_speed > MAX_V_DIVE_ENTRY_SPEED:
                raise RuleViolation(
                    "V. Dive rule 1: a Vertical Dive starts from a Current Airspeed of 7 or less"
                )
            need = 1 if i.inverted else i.v_dive_requirement
            added = 1 if V_DIVE_RATE_ADDED in self.variants else 0
            factor = (4 if i.from_maneuver_speed else 5) + added
            pct = f"{factor * 100}%" + (" (the 400% from Maneuver Sp.)" if factor % 5 else "")
            terms = [
                Term(f"{pct} of black Max. Dive", factor * i.max_dive_ft, "V. Dive rule 3", ft),
                Term(
                    f"{i.movement_points_spent} Movement Point(s) spent to reach the V. Dive "
                    "hex, 500 ft each",
                    -FT_PER_MOVEMENT_POINT * i.movement_points_spent,
                    "V. Dive rule 3",
                    ft,
                ),
            ]
            rate = max(total(terms), 0)
            speed = [
                Term("Max. Dive Sp.", i.max_dive_speed, "V. Dive rule 2", sp),
                Term("exit after the 1st Game-Turn V. Dive", -2, "V. Dive rule 2", sp),
            ]
            exit_speed = total(speed)
            notes.append(f"requirement {need} Movement Point(s); later Movement Points void")
            if i.altitude_ft is not None and i.altitude_ft - rate < 5 * i.max_dive_ft:
                notes.append("exit mandatory: Resulting Altitude below 500% black Max. Dive")
            notes.append("next Game-Turn after exit: full red Max. Dive is mandatory")
        else:
            if i.remaining_w_hits <= 4:
                raise RuleViolation(
                    'V. Dive rule 2: no Second Consecutive V. Dive with 4 or fewer "W" hits left'
                )
            factor = 5 if V_DIVE_RATE_ADDED in self.variants else 4
            terms = [
                Term(
                    f"{factor * 100}% of black Max. Dive",
                    factor * i.max_dive_ft,
                    "V. Dive rule 3",
                    ft,
                )
            ]
            rate = total(terms)
            speed = [
                Term("Max. Dive Sp.", i.max_dive_speed, "V. Dive rule 2", sp),
                Term("exit after the 2nd Consecutive V. Dive", -1, "V. Dive rule 2", sp),
            ]
            exit_speed = total(speed)
            notes.append("ends with 3 Level Bank Movement Points (2 if Advantaged, optional)")
            notes.append("on exit, roll for survival (vertical_dive_survival)")
        if i.aircraft is not None:
            draft.emit(AttributesSet(aircraft=i.aircraft, values={"airspeed_on_exit": exit_speed}))
        worked_rate = summed(terms) + (" (none left: 0)" if total(terms) < 0 else "")
        return Decision(
            f"V. Dive {rate} ft, exit airspeed {exit_speed}",
            f"V. Dive Game-Turn {i.game_turn}: dive {worked_rate} ft, exit airspeed "
            f"{summed(speed)}; " + "; ".join(notes) + f" ({self.rule})",
            modifiers=(*terms, *speed),
        )


class SurvivalInputs(AircraftInputs):
    remaining_w_hits: int = Field(ge=0, le=40, title='Remaining "W" hit boxes')
    under_half_max_dive_used: bool = Field(
        title="Under 50% of black Max. Dive used on the Resulting Game-Turn"
    )


class VDiveSurvival(Procedure):
    """V. Dive rule 3: after exiting a Second Consecutive V. Dive, a d6 must be at least 2 below
    the remaining "W" hits if under 50% of black Max. Dive is used, otherwise not above them."""

    id = "vertical_dive_survival"
    title = "Vertical Dive survival"
    rule = "Vertical Dive rule 3"
    Inputs = SurvivalInputs

    def terms(self, inputs: SurvivalInputs) -> list[Term]:
        """V. Dive rule 3: the highest roll that survives, "at least 2 below remaining # of
        "W" hits if under 50% black Max. Dive used, otherwise roll result must not be above"
        them: the remaining "W" hits, and -2 under 50%."""
        die = "V. Dive survival: at most"
        out = [Term('remaining "W" hits', inputs.remaining_w_hits, self.rule, die)]
        if inputs.under_half_max_dive_used:
            out.append(Term("under 50% of black Max. Dive used", -2, self.rule, die))
        return out

    def _limit(self, inputs: SurvivalInputs) -> int:
        return total(self.terms(inputs))

    def decide(self, inputs: SurvivalInputs, dice: DiceSource, draft: Draft) -> Decision:
        roll = dice.roll("d6", "V. Dive survival")
        outcome = "survives" if roll.total <= self._limit(inputs) else "does not survive"
        if outcome != "survives" and inputs.aircraft is not None:
            draft.emit(StatusChanged(aircraft=inputs.aircraft, set=(Status.CRASHED,)))
        terms = self.terms(inputs)
        return Decision(
            outcome,
            f"V. Dive survival roll {roll.total} (needs {summed(terms)} or less): {outcome} "
            f"({self.rule})",
            modifiers=tuple(terms),
        )


class VClimbInputs(AircraftInputs):
    current_speed: int = Field(ge=0, le=50, title="Current Airspeed")
    stall_speed: int = Field(ge=0, le=40, title="Stall speed")
    dive_speed_climb_ft: int = Field(ge=0, le=10000, title="Black Dive Sp. Climb (ft)")
    voided_movement_points: int = Field(0, ge=0, le=20, title="Movement Points voided")
    from_level_bank: bool = Field(True, title="Started from a Level (L) Bank")
    fired_guns: bool = Field(False, title="Fired guns during the V. Climb")


class VerticalClimb(Calculator):
    """Vertical Climb rules: the climb, the Resulting airspeed and the mandatory stall."""

    id = "vertical_climb"
    title = "Vertical Climb"
    rule = "Vertical Climb rules"
    Inputs = VClimbInputs

    def compute(self, inputs: VClimbInputs, draft: Draft) -> Decision:
        i = inputs
        if not i.from_level_bank:
            raise RuleViolation("Vertical Climb rules: a V. Climb starts only from a Level Bank")
        rule, ft, sp = "Vertical Climb rules", "V. Climb (ft)", "Resulting Airspeed"
        above = max(i.current_speed - i.stall_speed, 0)
        terms = [Term("black Max. Dive Sp. Climb", i.dive_speed_climb_ft, rule, ft)]
        if above:
            what = f"{above} Current Sp. Point(s) above Stall Sp., +.1 each"
            terms.append(Term(what, 100 * above, rule, ft))
        if i.voided_movement_points:
            what = f"{i.voided_movement_points} voided Current Movement Point(s), +.1 each"
            terms.append(Term(what, 100 * i.voided_movement_points, rule, ft))
        climb = total(terms)
        if i.current_speed <= i.stall_speed + 2:
            speed_terms = [
                Term("Current Airspeed", i.current_speed, rule, sp),
                Term("V. Climb from 2 Sp. Points or less above Stall Sp.", -2, rule, sp),
            ]
            stall = True
        else:
            speed_terms = [
                Term("Stall Sp.", i.stall_speed, rule, sp),
                Term("always 1 Sp. Point above Stall Sp.", 1, rule, sp),
            ]
            stall = False
        speed = max(total(speed_terms), 0)
        stall = stall or i.fired_guns
        if i.aircraft is not None:
            draft.emit(AttributesSet(aircraft=i.aircraft, values={"airspeed": speed}))
        floor = ", so 0" if speed != total(speed_terms) else ""
        return Decision(
            f"V. Climb {climb} ft, airspeed {speed}" + (", stall" if stall else ""),
            f"V. Climb {summed(terms)} ft; Resulting Airspeed {summed(speed_terms)}{floor}"
            + ("; Resulting Stall mandatory" if stall else "")
            + f"; next Game-Turn: a dive equal to the V. Climb, no Power Factor ({self.rule})",
            modifiers=(*terms, *speed_terms),
        )
