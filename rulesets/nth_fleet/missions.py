"""Missions on the Air Base Display: launch, effectiveness, return to base (Nth Fleet 2.1-2.3)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from app.core.procedure import Calculator, Decision, Draft, Procedure
from app.core.reckoning import Term
from app.core.ruleset import AircraftInputs
from rulesets.nth_fleet.card import card_of
from rulesets.nth_fleet.displays import base_of, moved, place_words, tracks_of
from rulesets.nth_fleet.state import NO_MISSION, Place, State, Tracks, state_of
from rulesets.nth_fleet.values import (
    INT_MISSIONS,
    STRATEGIC_MISSIONS,
    STRIKE_MISSIONS,
    SUPPORT_MISSIONS,
    Mission,
)

LaunchMission = Literal["cap"] | Mission

#: a mission of this many air points or more needs no effectiveness roll (2.2, 2.3)
SURE_POINTS = 4

#: the phases of the sequence of play a launch line is offered in (``sequence.STEPS``)
STRATEGIC_STEP, ACTIVATION_STEP = 0, 1
#: the mission a specialist counter flies (2.2, 2.3): its specialty names it
SPECIALTY_MISSIONS: dict[str, LaunchMission] = {
    "RCN": "rcn",
    "AEW": "aew",
    "EW": "ew",
    "ASW": "asw",
}


def counter(inputs: AircraftInputs, draft: Draft, what: str) -> AircraftState | None:
    """The counter a display procedure works on.

    In a game a display move without its counter is refused. On an empty board (the odds the
    desk shows before the move, a what-if) there is no counter: ``None``, and the procedure
    only says what the move would be.
    """
    if inputs.aircraft is not None:
        return draft.get(inputs.aircraft)
    if draft.engagement.aircraft:
        raise RuleViolation(f"{what} needs the counter (aircraft) it moves on its base display")
    return None


def effectiveness_kind(mission: str | None) -> Literal["support", "strategic"] | None:
    """Which effectiveness roll a mission needs: 2.2 (AEW, EW), 2.3 (strategic non-INT), none."""
    if mission in SUPPORT_MISSIONS:
        return "support"
    if mission in STRATEGIC_MISSIONS:
        return "strategic"
    return None


def _landed(tracks: Tracks) -> dict[str, Any]:
    """The ``AttributesSet`` values of new tracks; the mission is over once none is aloft."""
    return {"tracks": tracks.model_dump(mode="json"), **({} if tracks.aloft else NO_MISSION)}


class LaunchInputs(AircraftInputs):
    points: int = Field(1, ge=1, title="Air points", description="how many of its unused points")
    mission: LaunchMission = Field(
        "strike", title="Mission", description="CAP stays over the base (its own track)"
    )
    name: str = Field("", title="Mission name", description="e.g. the strike's call sign")


class LaunchMissionProc(Calculator):
    """Nth Fleet 2.1, 2.2: unused air points fly a mission (aloft) or go on CAP (its track).

    Strikes are allocated in air points; a tactical strike may be a single point (2.2). Only
    fighters fly CAP, intercepts and escorts (INT mode, 2.6). A mission that needs an
    effectiveness roll (2.2, 2.3) and has fewer than 4 points is marked as not yet rolled.
    """

    id = "launch_mission"
    title = "Launch a mission"
    rule = "Nth Fleet 2.1, 2.2"
    Inputs = LaunchInputs

    #: the mission read off the counter is what it usually flies: the umpire picks another
    suggested = frozenset({"mission"})

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        """All its unused points, on the mission this counter flies in this phase (issue 43:
        a launch is two keys, Enter on its line and Enter on Resolve, when it flies what its
        card says it is for)."""
        out: dict[str, Any] = {"points": max(1, tracks_of(a).unused)}
        mission = usual_mission(engagement, a)
        if mission is not None:
            out["mission"] = mission
        return out

    def compute(self, inputs: LaunchInputs, draft: Draft) -> Decision:
        if inputs.mission == "cap":
            where = "go on CAP"
        else:
            where = f"fly {inputs.mission}" + (f" ({inputs.name})" if inputs.name else "")
        a = counter(inputs, draft, "a launch")
        if a is None:
            return Decision("launched", f"{inputs.points} air point(s) {where} (2.1)")
        card = card_of(a)
        if (inputs.mission == "cap" or inputs.mission in INT_MISSIONS) and card.role != "fighter":
            raise RuleViolation(
                f"{a.name} is an {card.role} aircraft: only fighters fly {inputs.mission} "
                "(INT mode, Nth Fleet 2.6)"
            )
        state = state_of(a)
        if inputs.mission == "cap":
            values = {"tracks": moved(a, "unused", "cap", inputs.points).model_dump(mode="json")}
        else:
            if state.tracks.aloft and state.mission != inputs.mission:
                raise RuleViolation(
                    f"{a.name} already has points aloft on {state.mission}; one counter flies "
                    "one mission at a time (add another counter to the base for a second one)"
                )
            tracks = moved(a, "unused", "aloft", inputs.points)
            sure = effectiveness_kind(inputs.mission) is None or tracks.aloft >= SURE_POINTS
            values = State(
                tracks=tracks,
                mission=inputs.mission,
                mission_name=inputs.name or state.mission_name,
                effective=True if sure else None,
            ).dump()
        draft.emit(AttributesSet(aircraft=a.id, values=values))
        narrative = f"{a.name}: {inputs.points} air point(s) from {base_of(a)} {where} (2.1)"
        return Decision("launched", narrative)


def usual_mission(engagement: Engagement, a: AircraftState) -> LaunchMission | None:
    """The mission a counter flies in this phase unless the umpire says otherwise (2.2, 2.6,
    2.7): a specialist its specialty (RCN, AEW, EW, ASW); in the strategic air phase a fighter
    intercepts and an attack aircraft flies a strike; at activation an attack aircraft flies a
    tactical strike and a fighter escorts its side's strike aloft, else flies CAP. ``None``
    outside those phases, or for a support aircraft with no specialty."""
    card = card_of(a)
    if card.specialty in SPECIALTY_MISSIONS:
        return SPECIALTY_MISSIONS[card.specialty]
    step = engagement.step
    if step not in (STRATEGIC_STEP, ACTIVATION_STEP):
        return None
    strategic = step == STRATEGIC_STEP
    if card.role == "attack":
        return "strike" if strategic else "tactical strike"
    if card.role != "fighter":
        return None
    if strategic:
        return "intercept"
    strike_up = any(
        c.side == a.side and tracks_of(c).aloft and state_of(c).mission in STRIKE_MISSIONS
        for c in engagement.aircraft.values()
    )
    return "escort" if strike_up else "cap"


class EffectivenessInputs(AircraftInputs):
    kind: Literal["support", "strategic"] = Field(
        "strategic",
        title="Mission kind",
        description="support: AEW or EW (2.2); strategic: a strategic non-INT mission (2.3)",
    )
    points: int = Field(1, ge=1, title="Air points", description="the mission's air points")
    other_groups: list[str] = Field(
        default_factory=list,
        title="Other counters",
        description="further counters flying in the same mission",
    )


class MissionEffectiveness(Procedure):
    """Nth Fleet 2.2, 2.3: a d4 roll at most the mission's air points makes it effective.

    Supporting aircraft (AEW, EW) and strategic non-intercept missions of fewer than 4 air
    points roll; with 4 or more no roll is needed. An ineffective mission stays aloft until the
    return-to-base phase. A 3-point RCN mission is effective 3 times in 4.
    """

    id = "mission_effectiveness"
    title = "Mission effectiveness"
    rule = "Nth Fleet 2.2, 2.3"
    Inputs = EffectivenessInputs

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        kind = effectiveness_kind(state_of(a).mission)
        return {"points": max(1, tracks_of(a).aloft), **({"kind": kind} if kind else {})}

    def _groups(self, inputs: EffectivenessInputs, draft: Draft) -> list[AircraftState]:
        """The mission's counters (none: a roll for a mission not on the board), checked."""
        if inputs.aircraft is None:
            if inputs.other_groups:
                raise RuleViolation("name the mission's first counter as the aircraft")
            return []
        ids = [inputs.aircraft, *inputs.other_groups]
        if len(set(ids)) != len(ids):
            raise RuleViolation("a counter is named twice in the mission")
        groups = [draft.get(i) for i in ids]
        for g in groups:
            state = state_of(g)
            if not state.tracks.aloft or state.mission is None:
                raise RuleViolation(f"{g.name} is not flying a mission")
            if effectiveness_kind(state.mission) != inputs.kind:
                raise RuleViolation(
                    f"{g.name} flies {state.mission}, which is not a {inputs.kind} mission "
                    "that rolls for effectiveness (Nth Fleet 2.2, 2.3)"
                )
        aloft = sum(tracks_of(g).aloft for g in groups)
        if aloft != inputs.points:
            raise RuleViolation(
                f"the mission has {aloft} air point(s) aloft, not {inputs.points} (2.3)"
            )
        return groups

    def decide(self, inputs: EffectivenessInputs, dice: DiceSource, draft: Draft) -> Decision:
        groups = self._groups(inputs, draft)
        rule = "2.2" if inputs.kind == "support" else "2.3"
        terms: tuple[Term, ...] = ()
        if inputs.points >= SURE_POINTS:
            outcome = "effective"
            how = f"{inputs.points} air points: effective without a roll ({rule})"
        else:
            # 2.2: "must roll their number of airpoints on a d4 to be effective"
            what = "air points on the mission"
            terms = (
                Term(what, inputs.points, f"Nth Fleet {rule}", "mission effectiveness: at most"),
            )
            roll = dice.roll("d4", "mission effectiveness")
            outcome = "effective" if roll.total <= inputs.points else "ineffective"
            how = f"d4={roll.total} against {inputs.points} air point(s): {outcome} ({rule})"
            if outcome == "ineffective":
                how += "; it stays aloft until the return-to-base phase (2.3)"
        for g in groups:
            draft.emit(AttributesSet(aircraft=g.id, values={"effective": outcome == "effective"}))
        names = ", ".join(g.name for g in groups) or f"{inputs.kind} mission"
        return Decision(outcome, f"{names}: {how}", modifiers=terms)


class ReturnInputs(AircraftInputs):
    source: Literal["aloft", "cap"] = Field(
        "aloft", title="From", description="a mission aloft, or the CAP track"
    )
    points: int | None = Field(None, ge=1, title="Air points", description="empty: all of them")


class ReturnToBase(Calculator):
    """Nth Fleet 2.1, 2.3: points that completed or aborted their mission go to "used"."""

    id = "return_to_base"
    title = "Return to base"
    rule = "Nth Fleet 2.1, 2.3"
    Inputs = ReturnInputs

    def compute(self, inputs: ReturnInputs, draft: Draft) -> Decision:
        a = counter(inputs, draft, "a return to base")
        if a is None:
            many = "all the" if inputs.points is None else str(inputs.points)
            return Decision(
                "returned",
                f"{many} air point(s) {place_words(inputs.source)} land on the used track (2.1)",
            )
        have = tracks_of(a).at(inputs.source)
        points = have if inputs.points is None else inputs.points
        if points == 0:
            raise RuleViolation(f"{a.name} has no air points {place_words(inputs.source)}")
        draft.emit(
            AttributesSet(aircraft=a.id, values=_landed(moved(a, inputs.source, "used", points)))
        )
        narrative = (
            f"{a.name}: {points} air point(s) {place_words(inputs.source)} land on "
            f"{base_of(a)}'s used track (2.1)"
        )
        return Decision("returned", narrative)


class MoveInputs(AircraftInputs):
    source: Place = Field("used", title="From")
    dest: Literal["unused", "cap", "used"] = Field("unused", title="To")
    points: int = Field(1, ge=1, title="Air points")


class MoveAirPoints(Calculator):
    """Nth Fleet 2.1: the umpire moves counters between the display's tracks.

    For the Fleet rules' own steps (readying used aircraft, corrections); missions are flown
    with ``launch_mission`` and come back with ``return_to_base``.
    """

    id = "move_air_points"
    title = "Move air points on the display"
    rule = "Nth Fleet 2.1"
    Inputs = MoveInputs

    def compute(self, inputs: MoveInputs, draft: Draft) -> Decision:
        if inputs.source == inputs.dest:
            raise RuleViolation("the points are already there")
        a = counter(inputs, draft, "a move")
        moves = (
            f"{inputs.points} air point(s) {place_words(inputs.source)} move "
            f"{place_words(inputs.dest)} (2.1)"
        )
        if a is None:
            return Decision("moved", moves)
        tracks = moved(a, inputs.source, inputs.dest, inputs.points)
        draft.emit(AttributesSet(aircraft=a.id, values=_landed(tracks)))
        return Decision("moved", f"{a.name}: {moves}")
