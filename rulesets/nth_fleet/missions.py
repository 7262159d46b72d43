"""Missions on the Air Base Display: launch, effectiveness, return to base (Nth Fleet 2.1-2.3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.dice import DiceSource, distribution, label_odds
from app.core.engagement import AircraftState, Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, Event
from app.core.ruleset import AircraftInputs, Procedure, Resolution
from rulesets.nth_fleet.cards import Card
from rulesets.nth_fleet.display import Place, base_of, moved, place_words, tracks_of
from rulesets.nth_fleet.values import (
    INT_MISSIONS,
    STRATEGIC_MISSIONS,
    SUPPORT_MISSIONS,
    Mission,
)

LaunchMission = Literal["cap"] | Mission

#: a mission of this many air points or more needs no effectiveness roll (2.2, 2.3)
SURE_POINTS = 4


def counter(inputs: AircraftInputs, engagement: Engagement | None, what: str) -> AircraftState:
    """The counter a display procedure works on; refused without one."""
    if inputs.aircraft is None or engagement is None:
        raise RuleViolation(f"{what} needs the counter (aircraft) it moves on its base display")
    return engagement.get(inputs.aircraft)


def card_of(a: AircraftState) -> Card:
    return Card.model_validate(dict(a.card))


def effectiveness_kind(mission: str | None) -> Literal["support", "strategic"] | None:
    """Which effectiveness roll a mission needs: 2.2 (AEW, EW), 2.3 (strategic non-INT), none."""
    if mission in SUPPORT_MISSIONS:
        return "support"
    if mission in STRATEGIC_MISSIONS:
        return "strategic"
    return None


def effective_odds(points: int) -> Fraction:
    """Nth Fleet 2.2, 2.3: the chance that a d4 roll is at most ``points``."""
    return sum((p for face, p in distribution("d4").items() if face <= points), Fraction(0))


def _mission_cleared(tracks: dict[str, int]) -> dict[str, Any]:
    if tracks["aloft"]:
        return {}
    return {"mission": None, "mission_name": "", "effective": None}


class LaunchInputs(AircraftInputs):
    points: int = Field(1, ge=1, title="Air points", description="how many of its unused points")
    mission: LaunchMission = Field(
        "strike", title="Mission", description="CAP stays over the base (its own track)"
    )
    name: str = Field("", title="Mission name", description="e.g. the strike's call sign")


class LaunchMissionProc(Procedure):
    """Nth Fleet 2.1, 2.2: unused air points fly a mission (aloft) or go on CAP (its track).

    Strikes are allocated in air points; a tactical strike may be a single point (2.2). Only
    fighters fly CAP, intercepts and escorts (INT mode, 2.6). A mission that needs an
    effectiveness roll (2.2, 2.3) and has fewer than 4 points is marked as not yet rolled.
    """

    id = "launch_mission"
    title = "Launch a mission"
    rule = "Nth Fleet 2.1, 2.2"
    Inputs = LaunchInputs

    def odds(self, inputs: LaunchInputs) -> dict[str, Fraction]:
        return {"launched": Fraction(1)}

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if attacker is None:
            return {}
        return {"points": max(1, tracks_of(engagement.get(attacker))["unused"])}

    def resolve(
        self, inputs: LaunchInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        a = counter(inputs, engagement, "a launch")
        card = card_of(a)
        if (inputs.mission == "cap" or inputs.mission in INT_MISSIONS) and card.role != "fighter":
            raise RuleViolation(
                f"{a.name} is an {card.role} aircraft: only fighters fly {inputs.mission} "
                "(INT mode, Nth Fleet 2.6)"
            )
        if inputs.mission == "cap":
            tracks = moved(a, "unused", "cap", inputs.points)
            values: dict[str, Any] = {"tracks": tracks}
            where = "go on CAP"
        else:
            current = a.attributes.get("mission")
            if tracks_of(a)["aloft"] and current != inputs.mission:
                raise RuleViolation(
                    f"{a.name} already has points aloft on {current}; one counter flies one "
                    "mission at a time (add another counter to the base for a second one)"
                )
            tracks = moved(a, "unused", "aloft", inputs.points)
            kind = effectiveness_kind(inputs.mission)
            sure = kind is None or tracks["aloft"] >= SURE_POINTS
            values = {
                "tracks": tracks,
                "mission": inputs.mission,
                "mission_name": inputs.name or a.attributes.get("mission_name", ""),
                "effective": True if sure else None,
            }
            where = f"fly {inputs.mission}" + (f" ({inputs.name})" if inputs.name else "")
        events: list[Event] = [
            self.record(inputs, [], "launched"),
            AttributesSet(aircraft=a.id, values=values),
        ]
        narrative = f"{a.name}: {inputs.points} air point(s) from {base_of(a)} {where} (2.1)"
        return Resolution(tuple(events), narrative, "launched")


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
    dice = (("d4", "mission effectiveness"),)

    def dice_needed(self, inputs: EffectivenessInputs) -> list[tuple[str, str]]:
        return list(self.dice) if inputs.points < SURE_POINTS else []

    def odds(self, inputs: EffectivenessInputs) -> dict[str, Fraction]:
        return label_odds(
            distribution("d4"), lambda face: "effective" if face <= inputs.points else "ineffective"
        )

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        if attacker is None:
            return {}
        a = engagement.get(attacker)
        kind = effectiveness_kind(a.attributes.get("mission"))
        return {"points": max(1, tracks_of(a)["aloft"]), **({"kind": kind} if kind else {})}

    def _groups(
        self, inputs: EffectivenessInputs, engagement: Engagement | None
    ) -> list[AircraftState]:
        if inputs.aircraft is None:
            if inputs.other_groups:
                raise RuleViolation("name the mission's first counter as the aircraft")
            return []
        if engagement is None:
            raise RuleViolation("an effectiveness roll for counters needs the game")
        ids = [inputs.aircraft, *inputs.other_groups]
        if len(set(ids)) != len(ids):
            raise RuleViolation("a counter is named twice in the mission")
        groups = [engagement.get(i) for i in ids]
        for g in groups:
            mission = g.attributes.get("mission")
            if not tracks_of(g)["aloft"] or mission is None:
                raise RuleViolation(f"{g.name} is not flying a mission")
            if effectiveness_kind(mission) != inputs.kind:
                raise RuleViolation(
                    f"{g.name} flies {mission}, which is not a {inputs.kind} mission "
                    "that rolls for effectiveness (Nth Fleet 2.2, 2.3)"
                )
        aloft = sum(tracks_of(g)["aloft"] for g in groups)
        if aloft != inputs.points:
            raise RuleViolation(
                f"the mission has {aloft} air point(s) aloft, not {inputs.points} (2.3)"
            )
        return groups

    def resolve(
        self, inputs: EffectivenessInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        groups = self._groups(inputs, engagement)
        rule = "2.2" if inputs.kind == "support" else "2.3"
        if inputs.points >= SURE_POINTS:
            rolls = []
            outcome = "effective"
            how = f"{inputs.points} air points: effective without a roll ({rule})"
        else:
            roll = dice.roll("d4", "mission effectiveness")
            rolls = [roll]
            outcome = "effective" if roll.total <= inputs.points else "ineffective"
            how = f"d4={roll.total} against {inputs.points} air point(s): {outcome} ({rule})"
            if outcome == "ineffective":
                how += "; it stays aloft until the return-to-base phase (2.3)"
        events: list[Event] = [self.record(inputs, rolls, outcome)]
        events += [
            AttributesSet(aircraft=g.id, values={"effective": outcome == "effective"})
            for g in groups
        ]
        names = ", ".join(g.name for g in groups) or f"{inputs.kind} mission"
        return Resolution(tuple(events), f"{names}: {how}", outcome, tuple(rolls))


class ReturnInputs(AircraftInputs):
    source: Literal["aloft", "cap"] = Field(
        "aloft", title="From", description="a mission aloft, or the CAP track"
    )
    points: int | None = Field(None, ge=1, title="Air points", description="empty: all of them")


class ReturnToBase(Procedure):
    """Nth Fleet 2.1, 2.3: points that completed or aborted their mission go to "used"."""

    id = "return_to_base"
    title = "Return to base"
    rule = "Nth Fleet 2.1, 2.3"
    Inputs = ReturnInputs

    def odds(self, inputs: ReturnInputs) -> dict[str, Fraction]:
        return {"returned": Fraction(1)}

    def resolve(
        self, inputs: ReturnInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        a = counter(inputs, engagement, "a return to base")
        have = tracks_of(a)[inputs.source]
        points = have if inputs.points is None else inputs.points
        if points == 0:
            raise RuleViolation(f"{a.name} has no air points {place_words(inputs.source)}")
        tracks = moved(a, inputs.source, "used", points)
        values: dict[str, Any] = {"tracks": tracks, **_mission_cleared(tracks)}
        events: list[Event] = [
            self.record(inputs, [], "returned"),
            AttributesSet(aircraft=a.id, values=values),
        ]
        narrative = (
            f"{a.name}: {points} air point(s) {place_words(inputs.source)} land on "
            f"{base_of(a)}'s used track (2.1)"
        )
        return Resolution(tuple(events), narrative, "returned")


class MoveInputs(AircraftInputs):
    source: Place = Field("used", title="From")
    dest: Literal["unused", "cap", "used"] = Field("unused", title="To")
    points: int = Field(1, ge=1, title="Air points")


class MoveAirPoints(Procedure):
    """Nth Fleet 2.1: the umpire moves counters between the display's tracks.

    For the Fleet rules' own steps (readying used aircraft, corrections); missions are flown
    with ``launch_mission`` and come back with ``return_to_base``.
    """

    id = "move_air_points"
    title = "Move air points on the display"
    rule = "Nth Fleet 2.1"
    Inputs = MoveInputs

    def odds(self, inputs: MoveInputs) -> dict[str, Fraction]:
        return {"moved": Fraction(1)}

    def resolve(
        self, inputs: MoveInputs, dice: DiceSource, engagement: Engagement | None = None
    ) -> Resolution:
        a = counter(inputs, engagement, "a move")
        if inputs.source == inputs.dest:
            raise RuleViolation("the points are already there")
        tracks = moved(a, inputs.source, inputs.dest, inputs.points)
        values: dict[str, Any] = {"tracks": tracks, **_mission_cleared(tracks)}
        events: list[Event] = [
            self.record(inputs, [], "moved"),
            AttributesSet(aircraft=a.id, values=values),
        ]
        narrative = (
            f"{a.name}: {inputs.points} air point(s) {place_words(inputs.source)} move "
            f"{place_words(inputs.dest)} (2.1)"
        )
        return Resolution(tuple(events), narrative, "moved")
