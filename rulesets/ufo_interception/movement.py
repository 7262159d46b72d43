"""Movement limits as checks the desk shows (UFO rules, Movement). No dice."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, LedgerAdded, StatusChanged
from app.core.procedure import Calculator, Decision, Draft
from app.core.ruleset import AircraftInputs

from .card import card_of, printed_anti_grav
from .geometry import inches
from .sequence import FIRST_HALF, SECOND_HALF, UFO_MOVES, require_step
from .state import Ledger, fighter, state_of, ufo

#: "UFO may move *any* distance up to 6 inches per turn."
UFO_MAX_MOVE = 6
#: "It may change direction up to 90'."
UFO_MAX_TURN = 90
#: "They may change speed by up to 3 inches at the start of the turn."
MAX_SPEED_CHANGE = 3
#: "They may make one turn of up to 45' at the halfway point, and another at the end."
MAX_AIRCRAFT_TURN = 45


class UfoMoveInputs(AircraftInputs):
    inches: int = Field(ge=0, title="Distance (inches)")
    direction_change: int = Field(
        0, ge=0, le=180, title="Direction change (degrees)", description="made before moving"
    )
    max_speed: int = Field(UFO_MAX_MOVE, ge=0, title="Current maximum speed")
    anti_grav: int = Field(
        ge=0,
        title="Current anti-grav rating",
        description="a card that prints none: the rating from your copy of the game",
    )
    moved_last_turn: int = Field(0, ge=0, title="Distance moved last turn (inches)")


def ufo_move_problems(inputs: UfoMoveInputs) -> list[str]:
    """Every way this UFO move breaks UFO rules, Movement (empty: it is legal)."""
    out = []
    limit = min(UFO_MAX_MOVE, inputs.max_speed)
    if inputs.inches > limit:
        out.append(f"a UFO may move up to {inches(limit)} this turn (not {inputs.inches})")
    if inputs.direction_change > UFO_MAX_TURN:
        out.append(f"a UFO may change direction up to {UFO_MAX_TURN} degrees")
    if inputs.direction_change and inputs.moved_last_turn > inputs.anti_grav:
        out.append(
            f"it may not change direction: it moved {inches(inputs.moved_last_turn)} last turn, "
            f"further than its anti-grav rating {inputs.anti_grav}"
        )
    return out


@dataclass(frozen=True)
class UfoLimits:
    """What limits a UFO's move now, read off its ledgers and state (UFO rules, Movement).
    ``anti_grav`` is ``None`` while the UFO has no anti-grav counter: its card prints no
    rating (UFO rules, Damage: only the Small UFO's card does) and none was given yet."""

    max_speed: int
    anti_grav: int | None
    moved_last_turn: int


def ufo_limits(engagement: Engagement, u: AircraftState) -> UfoLimits:
    grav = u.ledgers.get(Ledger.ANTI_GRAV)
    return UfoLimits(
        max_speed=int(u.ledger(Ledger.MAX_SPEED)),
        anti_grav=int(grav.value) if grav is not None else None,
        moved_last_turn=state_of(u).moved_last_turn(engagement.turn),
    )


class UfoMove(Calculator):
    """UFO rules, Movement: "UFO may move *any* distance up to 6 inches per turn. It may change
    direction up to 90'. This change of direction happens before movement. It may not change
    direction if it moved further than its current anti-grav rating last turn".

    A move that breaks these limits is refused for a UFO on the table; as a what-if (no
    aircraft named) the check's result is "illegal", with the reasons.

    A UFO whose card prints no anti-grav rating (the Medium and Large UFOs: UFO rules,
    Damage gives only their damage points) has no anti-grav counter: its first move asks for
    the rating (read off its type's card when the umpire has filled it in the Card editor),
    and the move starts the counter at the value given (issue 43).
    """

    id = "ufo_move"
    title = "UFO move"
    rule = "UFO rules, Movement: UFO"
    Inputs = UfoMoveInputs

    def prefill_one(self, engagement: Engagement, u: AircraftState) -> dict[str, Any]:
        ufo(engagement, u.id)  # a fighter's card has no anti-grav to ask for: not its move
        limits = ufo_limits(engagement, u)
        out = asdict(limits)
        if limits.anti_grav is None:
            out.pop("anti_grav")  # asked for, unless the type's card has it now
            given = printed_anti_grav(u)
            if given is not None:
                out["anti_grav"] = given
        return out

    def compute(self, inputs: UfoMoveInputs, draft: Draft) -> Decision:
        e = draft.engagement
        if inputs.aircraft:
            u = ufo(e, inputs.aircraft)
            require_step(e, (UFO_MOVES,), "the UFO's move")
            moved = state_of(u).moved
            if moved is not None and moved[0] == e.turn:
                raise RuleViolation(f"{u.name} has already moved this turn")
            actual = ufo_limits(e, u)
            start = actual.anti_grav is None  # the rating given here starts its counter
            if start:
                actual = replace(actual, anti_grav=inputs.anti_grav)
            given = UfoLimits(inputs.max_speed, inputs.anti_grav, inputs.moved_last_turn)
            if given != actual:
                raise RuleViolation(f"{u.name} has {asdict(actual)}, not {asdict(given)}")
            if start:
                draft.emit(
                    LedgerAdded(
                        aircraft=u.id,
                        ledger=Ledger.ANTI_GRAV,
                        value=Fraction(inputs.anti_grav),
                        reason=f"the {card_of(u).name} card prints no anti-grav rating: given "
                        "by the umpire (UFO rules, Damage)",
                    )
                )
        problems = ufo_move_problems(inputs)
        if problems and inputs.aircraft:
            raise RuleViolation("; ".join(problems) + f" ({self.rule})")
        if problems:
            return Decision(
                "illegal", "illegal UFO move: " + "; ".join(problems) + f" ({self.rule})"
            )
        if inputs.aircraft:
            draft.emit(
                AttributesSet(aircraft=inputs.aircraft, values={"moved": [e.turn, inputs.inches]})
            )
        turn = (
            f", turning {inputs.direction_change} degrees first" if inputs.direction_change else ""
        )
        return Decision("legal", f"UFO moves {inches(inputs.inches)}{turn} ({self.rule})")


class AircraftMoveInputs(AircraftInputs):
    half: Literal[1, 2] = Field(1, title="Half of the move")
    speed: int = Field(ge=0, title="Speed this turn (inches)")
    previous_speed: int = Field(ge=0, title="Speed last turn (inches)")
    top_speed: int = Field(ge=0, title="Top speed (inches)")
    turn: int = Field(
        0, ge=0, le=180, title="Turn (degrees)", description="at the halfway point or the end"
    )


def aircraft_move_problems(inputs: AircraftMoveInputs) -> list[str]:
    """Every way this half move breaks UFO rules, Movement (empty: it is legal)."""
    out = []
    if inputs.speed > inputs.top_speed:
        out.append(f"top speed is {inches(inputs.top_speed)} (not {inputs.speed})")
    if abs(inputs.speed - inputs.previous_speed) > MAX_SPEED_CHANGE:
        out.append(
            f"speed may change by up to {inches(MAX_SPEED_CHANGE)} "
            f"({inputs.previous_speed} -> {inputs.speed})"
        )
    if inputs.turn > MAX_AIRCRAFT_TURN:
        out.append(f"a turn is up to {MAX_AIRCRAFT_TURN} degrees")
    return out


@dataclass(frozen=True)
class FlightNow:
    """An aircraft's speeds and the half of its move the game is at (UFO rules, Movement)."""

    speed: int
    previous_speed: int
    top_speed: int
    half: Literal[1, 2]


def flight_now(engagement: Engagement, a: AircraftState) -> FlightNow:
    st = state_of(a)
    speed = st.speed or 0
    previous = st.previous_speed if st.previous_speed is not None else speed
    if st.speed_turn != engagement.turn:
        previous = speed
    # the half the game is at: the second in Move second half (issue 29)
    second = engagement.step == SECOND_HALF or st.half_moved == (engagement.turn, 1)
    return FlightNow(speed, previous, int(a.ledger(Ledger.MAX_SPEED)), 2 if second else 1)


class AircraftMove(Calculator):
    """UFO rules, Movement: "Aircraft have a top speed of 8 inches (or as noted on Aircraft
    card). They may change speed by up to 3 inches at the start of the turn. They may make one
    turn of up to 45' at the halfway point, and another at the end." "Any aircraft reduced to 0
    speed crashes."

    A half move that breaks these limits is refused for an aircraft on the table; as a what-if
    (no aircraft named) the check's result is "illegal", with the reasons.
    """

    id = "aircraft_move"
    title = "Aircraft move"
    rule = "UFO rules, Movement: Aircraft"
    Inputs = AircraftMoveInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        return asdict(flight_now(engagement, a))

    def compute(self, inputs: AircraftMoveInputs, draft: Draft) -> Decision:
        problems = aircraft_move_problems(inputs)
        if problems and inputs.aircraft:
            raise RuleViolation("; ".join(problems) + f" ({self.rule})")
        if problems:
            return Decision(
                "illegal", "illegal half move: " + "; ".join(problems) + f" ({self.rule})"
            )
        where = "at the halfway point" if inputs.half == 1 else "at the end"
        if inputs.aircraft:
            e = draft.engagement
            a = fighter(e, inputs.aircraft)
            require_step(e, (FIRST_HALF if inputs.half == 1 else SECOND_HALF,), "this half move")
            done = state_of(a).half_moved
            if done == (e.turn, inputs.half):
                raise RuleViolation(f"{a.name} has already made this half of its move")
            if inputs.half == 2 and done != (e.turn, 1):
                raise RuleViolation(f"{a.name} has not made the first half of its move")
            actual = flight_now(e, a)
            if inputs.top_speed != actual.top_speed:
                raise RuleViolation(f"{a.name}'s top speed is {actual.top_speed}")
            if inputs.previous_speed != actual.previous_speed:
                raise RuleViolation(f"{a.name} flew at {actual.previous_speed} last turn")
            if inputs.half == 2 and inputs.speed != actual.speed:
                raise RuleViolation(
                    "speed changes only at the start of the turn "
                    f"({a.name} is flying at {actual.speed})"
                )
            values: dict[str, Any] = {"half_moved": [e.turn, inputs.half]}
            if inputs.half == 1:
                values |= {
                    "speed": inputs.speed,
                    "previous_speed": inputs.previous_speed,
                    "speed_turn": e.turn,
                }
            draft.emit(AttributesSet(aircraft=a.id, values=values))
            if inputs.speed == 0:
                draft.emit(StatusChanged(aircraft=a.id, set=(Status.CRASHED,)))
        outcome = "crashes" if inputs.speed == 0 else "legal"
        half = Fraction(inputs.speed, 2)
        narrative = f"half {inputs.half} of the move: {inches(half)} at speed {inputs.speed}"
        if inputs.turn:
            narrative += f", turning {inputs.turn} degrees {where}"
        if outcome == "crashes":
            narrative += ": reduced to 0 speed, it crashes"
        return Decision(outcome, f"{narrative} ({self.rule})")
