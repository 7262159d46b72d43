"""Speed and altitude book-keeping: stall speed (10), climb rate (9), the airspeed of a
Game-Turn with its Power, Brake and Dive Speed restrictions (2, 16-21, 29)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from app.core.procedure import Calculator, Decision, Draft
from app.core.reckoning import Term, summed, total
from app.core.ruleset import AircraftInputs

from . import advantage_state
from .card import Card, LimitSide, LoadedLimit, loaded_speeds
from .state import State, state_of


class StallInputs(AircraftInputs):
    stall_speed: int = Field(ge=0, le=40, title="Stall speed (card)")
    level_bank_without_maneuvers: bool = Field(
        False, title="Level Bank, no maneuvers this Game-Turn"
    )
    exempt_type: bool = Field(False, title="Me-262A or Me-163B")
    loaded: bool = Field(False, title="Loaded condition")
    altitude_ft: int = Field(0, ge=0, le=60000, title="Altitude (ft)")
    loaded_stall_speed: int | None = Field(
        None, ge=0, le=40, title="Loaded stall speed (card)", description="Speed Increments Chart"
    )
    loaded_altitude_limit_ft: int | None = Field(
        None,
        ge=0,
        le=60000,
        title="Loaded altitude limitation (ft, card)",
        description="the last line of the colour-code box; empty: none",
    )
    loaded_limit_side: LimitSide = Field(
        "above", title="The Loaded stall speed holds", description="above or below that altitude"
    )


class StallSpeed(Calculator):
    """Rule 10: Stall Speed is one less in a Level Bank Game-Turn without maneuvers (not for
    the Me-262A or Me-163B). Special Data Card Note: Loaded, the card's altitude limitation
    decides whether the Loaded Stall Speed applies (it limits the Stall Speed only)."""

    id = "stall_speed"
    title = "Stall speed"
    rule = "rule 10"
    Inputs = StallInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        card = a.typed(Card, "card")
        return {
            "stall_speed": card.stall_speed,
            "exempt_type": not card.level_bank_stall_reduction,
            "loaded_stall_speed": card.loaded_stall_speed,
            "loaded_altitude_limit_ft": card.loaded_altitude_limit_ft,
            "loaded_limit_side": card.loaded_limit_side,
        }

    def compute(self, inputs: StallInputs, draft: Draft) -> Decision:
        die = "Stall Speed"
        s = inputs.stall_speed
        if inputs.loaded:
            if inputs.loaded_stall_speed is None:
                raise RuleViolation("give the card's Loaded stall speed (Speed Increments Chart)")
            limit = LoadedLimit(inputs.loaded_altitude_limit_ft, inputs.loaded_limit_side)
            s, _ = loaded_speeds(
                (s, 1), (inputs.loaded_stall_speed, None), limit, inputs.altitude_ft
            )
        what = "Loaded stall speed" if inputs.loaded and s != inputs.stall_speed else "stall speed"
        terms = [
            Term(what, s, "rule 10" if what == "stall speed" else "Special Data Card Note", die)
        ]
        if inputs.level_bank_without_maneuvers and not inputs.exempt_type and s > 0:
            terms.append(Term("Level Bank without maneuvers", -1, "rule 10", die))
        s = total(terms)
        return Decision(
            f"stall speed {s}",
            f"stall speed {summed(terms)}"
            + (
                " (an Airspeed of 0 displaces the aircraft 1 hex per 2 Game-Turns)"
                if s == 0
                else ""
            )
            + f" ({self.rule})",
            modifiers=tuple(terms),
        )


class ClimbInputs(AircraftInputs):
    available_climb_ft: int = Field(ge=0, le=10000, title="Available Climb Rate (ft)")
    non_level_or_inverted_flying: bool = Field(
        False, title="Non-level or inverted flying this Game-Turn"
    )
    inverted_only_from_climbing_half_loop: bool = Field(
        False, title="Inverted only by a climbing Half-Loop, no other maneuvers"
    )


class ClimbRate(Calculator):
    """Rule 9: the available Climb Rate is halved (50 ft fractions ignored) after any non-level
    or inverted flying, unless the inversion is a climbing Half-Loop's with no other maneuver."""

    id = "climb_rate"
    title = "Climb rate"
    rule = "rule 9"
    Inputs = ClimbInputs

    def compute(self, inputs: ClimbInputs, draft: Draft) -> Decision:
        c = inputs.available_climb_ft
        if c % 100:
            raise RuleViolation("climb rates are in steps of 100 ft (.1)")
        halve = inputs.non_level_or_inverted_flying and not (
            inputs.inverted_only_from_climbing_half_loop
        )
        die = "available Climb Rate (ft)"
        terms = [Term("Available Climb Rate", c, "rule 9", die)]
        if halve:
            half = (c // 2) // 100 * 100
            what = "reduced by 50% (50 ft fractions ignored): non-level or inverted flying"
            terms.append(Term(what, half - c, "rule 9", die))
        c = total(terms)
        return Decision(
            f"climb {c} ft",
            f"available climb {summed(terms)} ft" + f" ({self.rule})",
            modifiers=tuple(terms),
        )


HalfLoop = Literal["none", "diving", "climbing"]


class SpeedInputs(AircraftInputs):
    current_speed: int = Field(ge=0, le=50, title="Current Game-Turn Airspeed")
    max_level_speed: int = Field(
        ge=1,
        le=40,
        title="Max. Level Sp. (after hit losses)",
        description="Loaded: the Loaded value, at every altitude unless the card's limitation "
        "line begins with 'Both' (Special Data Card Note)",
    )
    e_hit_level_loss: int = Field(
        0,
        ge=0,
        le=10,
        title="Max. Level Sp. points lost to E hits",
        description="rule 24: still flown without a dive, under the Dive Speed restrictions",
    )
    max_dive_speed: int = Field(ge=1, le=50, title="Max. Dive Sp. (after hit losses)")
    power_factors: int = Field(ge=0, le=10, title="Power Factors available")
    brake_factors: int = Field(ge=0, le=10, title="Brake Factors available")
    power_used: int = Field(0, ge=0, le=10)
    brake_used: int = Field(0, ge=0, le=10)
    dive_gain: int = Field(
        0, ge=0, le=20, title="Speed Points gained by diving", description="Altitude Change chart"
    )
    maneuver_and_climb_cost: int = Field(
        0, ge=0, le=30, title="Other Speed Point costs (maneuvers, climb loss)"
    )
    slips: int = Field(
        0, ge=0, le=5, title="Slips", description="rule 16: -2 each (-0 in Dive Sp.)"
    )
    inverted: bool = Field(False, title="Inverted attitude")
    half_loop: HalfLoop = Field("none", title="Half-Loop", description="rules 20, 21")
    altitude_ft: int = Field(0, ge=0, le=60000, title="Altitude (ft)", description="rule 21")
    h_loop_from_level_or_inverted_bank: bool = Field(True, title="H-Loop from L or I Bank")
    outside_loop: bool = Field(False, title="Outside loop", description="rule 20")
    half_rolls: int = Field(0, ge=0, le=5, title="Half-Rolls (cost 0)", description="rule 29")
    full_half_rolls: int = Field(0, ge=0, le=5, title='"Full" H-Rolls (-1 each)')
    advantage_exception: bool = Field(
        False,
        title="Advantaged, plotted costs bring the airspeed below Dive Sp.",
        description="rule 2",
    )
    advantaged: bool = Field(False, title="Advantaged", description="rule 21")
    power_on_resulting: int = Field(
        0,
        ge=0,
        le=10,
        title="Power Factors used on the Resulting Airspeed",
        description="rule 2: the doubled potential, beside those used on the Current Airspeed",
    )
    brake_on_resulting: int = Field(
        0,
        ge=0,
        le=10,
        title="Brake Factors used on the Resulting Airspeed",
        description="rule 2: the doubled potential, beside those used on the Current Airspeed",
    )
    repeating_advantage: bool = Field(
        False,
        title="Repeating the Advantage this Game-Turn",
        description="rule 2: Power and Brake Factors on the Current Airspeed only",
    )
    max_dive_acceleration: int | None = Field(
        None,
        ge=0,
        le=20,
        title="Max. Dive Acceleration (card)",
        description="rule 19: a diving H-Loop gains exactly this",
    )
    h_loop_altitude_ft: int | None = Field(
        None, ge=0, le=20000, title="H-Loop altitude change (ft)", description="rule 20"
    )
    h_loop_full_rate_ft: int | None = Field(
        None,
        ge=0,
        le=20000,
        title="Full rate for the H-Loop (ft)",
        description="rule 20: Special H-Loop Max. Dive Rate diving, Max. Dive Sp. Climb climbing",
    )


class SpeedChange(Calculator):
    """Rules 2, 16-21, 29: the Resulting Game-Turn Airspeed and the Power and Brake Factor
    restrictions of Dive Speed.

    - rule 2: Power and Brake Factors may be used on the Current Game-Turn Airspeed and again on
      the Resulting one (the doubled potential, each up to the card's factors), except by a
      pursuer repeating its Advantage: "To repeat the Advantage the pursuer is required to use
      Power and Brake Factors only on the Current Game-Turn Airspeed". Factors used on the
      Resulting Airspeed are recorded, and the Advantage cannot then be repeated that Game-Turn;
    - Dive Speed is above Max. Level Sp. (hit losses included: rules 24, 27); the points E hits
      removed stay usable without a dive but under the Dive Speed restrictions (rule 24);
    - rule 17: only a dive gaining at least one Speed Point enters Dive Speed; Power Factors add
      no Dive Speed Points, and none is used while in Dive Speed (except rule 2's Advantage case,
      when the plotted costs bring the airspeed below Dive Speed);
    - rule 18: in Dive Speed one Brake Factor must be used;
    - rule 19: acceleration beyond Max. Dive Sp. is void; a diving H-Loop gains exactly the Max.
      Dive Acceleration; rule 20: an H-Loop uses the full Special H-Loop Max. Dive Rate or Max.
      Dive Sp. Climb;
    - rule 16: a Slip costs 2 (0 in Dive Speed), never inverted; rule 20-21: H-Loop only from an
      L or I Bank, not climbing from inverted, no outside loop above Airspeed 4, no Power Factors
      with an H-Loop (if Advantaged the loss applies to the next Game-Turn), costs 1 diving, 0
      climbing below 29,900 ft, 1 above; rule 29: Half-Roll 0, "Full" H-Roll 1.
    """

    id = "speed_change"
    title = "Airspeed for the Game-Turn"
    rule = "rules 2, 16-21, 29"
    Inputs = SpeedInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        st = state_of(a)
        out: dict[str, Any] = effective_speeds(a.typed(Card, "card"), st)
        if st.airspeed is not None:
            out["current_speed"] = st.airspeed
        out["repeating_advantage"] = may_repeat_advantage(engagement, a.id)
        return out

    def compute(self, inputs: SpeedInputs, draft: Draft) -> Decision:
        i = inputs
        if i.aircraft is not None:
            _allowed(i, draft)
            if (
                i.power_used
                and state_of(draft.get(i.aircraft)).no_power_turn == draft.engagement.turn
            ):
                raise RuleViolation(
                    "rule 21: last Game-Turn's Advantaged H-Loop used Power Factors; their loss "
                    "applies in this (its Resulting) Game-Turn: no Power Factors now"
                )
        on_resulting = i.power_on_resulting + i.brake_on_resulting
        if on_resulting and i.aircraft is not None:
            if repeated_advantage(draft.engagement, i.aircraft):
                raise RuleViolation(
                    "rule 2: this aircraft repeated its Advantage this Game-Turn; to repeat it "
                    "Power and Brake Factors are used only on the Current Game-Turn Airspeed"
                )
        if on_resulting and i.repeating_advantage:
            raise RuleViolation(
                "rule 2: to repeat the Advantage the pursuer uses Power and Brake Factors only "
                "on the Current Game-Turn Airspeed, not on the Resulting one"
            )
        for used, what, have in (
            (i.power_used, "Power", i.power_factors),
            (i.power_on_resulting, "Power", i.power_factors),
            (i.brake_used, "Brake", i.brake_factors),
            (i.brake_on_resulting, "Brake", i.brake_factors),
        ):
            if used > have:
                raise RuleViolation(f"only {have} {what} Factor(s) available")
        if i.max_dive_speed < i.max_level_speed:
            raise RuleViolation("Max. Dive Sp. cannot be below Max. Level Sp.")
        in_dive = i.current_speed > i.max_level_speed
        if i.slips and i.inverted:
            raise RuleViolation("rule 16: no Slip in any inverted attitude")
        if i.half_loop != "none":
            if not i.h_loop_from_level_or_inverted_bank:
                raise RuleViolation("rule 20: an H-Loop is performed only from an L or I Bank")
            if i.half_loop == "climbing" and i.inverted:
                raise RuleViolation("rule 20: no climbing Half-Loop from an inverted attitude")
            if i.power_used and not i.advantaged:
                raise RuleViolation("rule 21: no Power Factors in a Game-Turn with an H-Loop")
            _h_loop_rates(i)
        if i.outside_loop and i.current_speed > 4:
            raise RuleViolation("rule 20: no outside loop above a Current Airspeed of 4")
        # rule 24: a Max. Level point removed by an "E" hit stays a level point for everything
        # but the Dive Speed Power and Brake restrictions -- a Slip there still costs 2
        slip_in_dive = i.current_speed > i.max_level_speed + i.e_hit_level_loss
        costs = i.maneuver_and_climb_cost + (0 if slip_in_dive else 2 * i.slips)
        costs += i.full_half_rolls
        if i.half_loop == "diving":
            costs += 1
        elif i.half_loop == "climbing":
            costs += 1 if i.altitude_ft > 29900 else 0
        notes: list[str] = []
        if in_dive:
            if i.brake_used < 1:
                raise RuleViolation("rule 18: an aircraft in Dive Speed must use one Brake Factor")
            exception = i.advantage_exception and i.current_speed - costs <= i.max_level_speed
            if (i.power_used or i.power_on_resulting) and not exception:
                raise RuleViolation("rule 17: no Power Factors while in Dive Speed")
        power = i.power_used + i.power_on_resulting
        without_dive = i.current_speed - costs - i.brake_used - i.brake_on_resulting + power
        if power and without_dive > i.max_level_speed and not i.advantage_exception:
            raise RuleViolation("rule 17: Power Factors may not add Dive Speed Points")
        terms = speed_terms(i, slip_in_dive)
        resulting = total(terms)  # without_dive + i.dive_gain, term by term
        if resulting > i.max_level_speed + i.e_hit_level_loss and i.dive_gain < 1:
            raise RuleViolation(
                "rule 17: only a dive gaining at least one Speed Point enters Dive Speed"
            )
        if resulting > i.max_dive_speed:
            notes.append(f"{resulting - i.max_dive_speed} Speed Point(s) beyond Max. Dive void")
            resulting = i.max_dive_speed
        if resulting < 0:
            notes.append("no Airspeed below 0")
        resulting = max(resulting, 0)
        if i.slips:
            notes.append("each Slip must be followed by at least one Turn (rule 16)")
        if resulting > i.max_level_speed:
            notes.append("in Dive Speed next Game-Turn: one Brake Factor, no Power (rules 17-18)")
        values: dict[str, Any] = {"airspeed": resulting}
        if on_resulting:
            notes.append("no repeated Advantage this Game-Turn (rule 2)")
            values["factors_on_resulting_turn"] = draft.engagement.turn
        if i.half_loop != "none" and i.advantaged and i.power_used:
            notes.append("no Power Factors next Game-Turn (rule 21: the loss is deferred)")
            values["no_power_turn"] = draft.engagement.turn + 1
        if i.aircraft is not None:
            draft.emit(AttributesSet(aircraft=i.aircraft, values=values))
        worked = summed(terms)
        return Decision(
            f"airspeed {resulting}",
            f"Resulting Airspeed {worked}"
            + (f", so {resulting}" if resulting != total(terms) else "")
            + (f"; {'; '.join(notes)}" if notes else "")
            + f" ({self.rule})",
            modifiers=tuple(terms),
        )


def speed_terms(i: SpeedInputs, slip_in_dive: bool) -> list[Term]:
    """The Resulting Game-Turn Airspeed, term by term with its sign: the Current Airspeed,
    the plotted costs (maneuvers and climb loss; rule 16: a Slip -2, -0 in Dive Speed; rule 29:
    a "Full" H-Roll -1; rule 21: an H-Loop -1 in dive, -0 climbing from below 29.9, -1 from
    above), the Brake Factors used (rule 18: one in Dive Speed) and the Power Factors (rule 2:
    on the Current Airspeed and again on the Resulting one), and the Speed Points a dive
    gains (rule 17; the Altitude Change chart)."""
    die = "Resulting Airspeed"
    out = [Term("Current Game-Turn Airspeed", i.current_speed, "rule 2", die)]

    def add(what: str, value: int, rule: str) -> None:
        if value:
            out.append(Term(what, value, rule, die))

    add("maneuvers and climb loss", -i.maneuver_and_climb_cost, "the Data Card; rule 9")
    if not slip_in_dive:
        add(f"{i.slips} Slip(s), 2 each", -2 * i.slips, "rule 16")
    add(f'{i.full_half_rolls} "Full" H-Roll(s), 1 each', -i.full_half_rolls, "rule 29")
    if i.half_loop == "diving":
        add("H-Loop in dive", -1, "rule 21")
    elif i.half_loop == "climbing" and i.altitude_ft > 29900:
        add("H-Loop climbing from above 29.9", -1, "rule 21")
    add("Brake Factors on the Current Airspeed", -i.brake_used, "rules 2, 18")
    add("Brake Factors on the Resulting Airspeed", -i.brake_on_resulting, "rule 2")
    add("Power Factors on the Current Airspeed", i.power_used, "rule 2")
    add("Power Factors on the Resulting Airspeed", i.power_on_resulting, "rule 2")
    add("Speed Points gained by diving", i.dive_gain, "rule 17, Altitude Change chart")
    return out


def may_repeat_advantage(engagement: Engagement, aircraft: str) -> bool:
    """Rule 2: the aircraft holds an Advantage it may repeat this Game-Turn (declared on the
    Game-Turn before) or has just repeated (declared again this Game-Turn)."""
    entry = advantage_state.advantages(engagement).get(aircraft)
    if entry is None:
        return False
    return entry.turn == engagement.turn - 1 or (
        entry.turn == engagement.turn and entry.consecutive > 1
    )


def repeated_advantage(engagement: Engagement, aircraft: str) -> bool:
    """Rule 2: the aircraft has declared its Second Consecutive Advantage this Game-Turn."""
    entry = advantage_state.advantages(engagement).get(aircraft)
    return entry is not None and entry.turn == engagement.turn and entry.consecutive > 1


def _h_loop_rates(i: SpeedInputs) -> None:
    """Rule 19: a diving H-Loop's mandatory Max. Dive adds the Max. Dive Acceleration only (the
    H-Loop cost is then taken off); rule 20: an H-Loop must use the full Special H-Loop Max.
    Dive Rate (diving) or the full Max. Dive Sp. Climb (climbing)."""
    if i.half_loop == "diving":
        if i.max_dive_acceleration is None:
            raise RuleViolation(
                "rule 19: a diving H-Loop gains the Max. Dive Acceleration: give the card's value"
            )
        if i.dive_gain != i.max_dive_acceleration:
            raise RuleViolation(
                f"rule 19: a diving H-Loop gains exactly the Max. Dive Acceleration "
                f"({i.max_dive_acceleration} Speed Points), not {i.dive_gain}"
            )
    if i.h_loop_altitude_ft is None or i.h_loop_full_rate_ft is None:
        raise RuleViolation(
            "rule 20: give the H-Loop's altitude change and the full rate it must use "
            "(Special H-Loop Max. Dive Rate diving, Max. Dive Sp. Climb climbing)"
        )
    if i.h_loop_altitude_ft != i.h_loop_full_rate_ft:
        what = "Special H-Loop Max. Dive Rate" if i.half_loop == "diving" else "Max. Dive Sp. Climb"
        raise RuleViolation(
            f"rule 20: an H-Loop must use the full {what} ({i.h_loop_full_rate_ft} ft), not "
            f"{i.h_loop_altitude_ft} ft"
        )


def _allowed(i: SpeedInputs, draft: Draft) -> None:
    """Maneuvers the hits have removed (rules 25, 27)."""
    assert i.aircraft is not None
    a = draft.get(i.aircraft)
    st = state_of(a)
    if i.slips and not st.slips_allowed:
        raise RuleViolation(f"rule 27: {a.name} may no longer Slip")
    if i.half_loop != "none" and not st.half_loops_allowed:
        raise RuleViolation(f"rules 25, 27: {a.name} may no longer Half-Loop")
    if (i.half_rolls or i.full_half_rolls) and not st.half_rolls_allowed:
        raise RuleViolation(f"rules 25, 27: {a.name} may no longer Half-Roll")


def effective_speeds(card: Card, state: State) -> dict[str, int]:
    """The card's speeds and factors less the losses the hits caused (rules 24, 27)."""
    return {
        "max_level_speed": card.max_level_speed - state.max_level_speed_loss,
        "max_dive_speed": card.max_dive_speed - state.max_dive_speed_loss,
        "power_factors": max(card.power_factors - state.power_factor_loss, 0),
        "brake_factors": card.brake_factors,
        "e_hit_level_loss": state.e_level_speed_loss,
    }
