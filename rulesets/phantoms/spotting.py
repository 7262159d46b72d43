"""Spotting (13.0, optional rule): radar spotting (13.1), visual spotting (13.2), wingmen,
and the ways spots are lost. With the rule off everyone is spotted."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.core.contest import opposed
from app.core.dice import DiceSource
from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, GameAttributesSet
from app.core.procedure import Calculator, Decision, Draft, Party, Procedure
from app.core.reckoning import Term, by_die, total, worked
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.phantoms.card import Card, card_of
from rulesets.phantoms.clock import now_impulse
from rulesets.phantoms.state import (
    Spots,
    State,
    game_of,
    in_play,
    pilot_of,
    spots_of,
    spotting,
    state_of,
    subject,
)
from rulesets.phantoms.tables import tables

#: why an "unspotted" input does not apply when the optional rule is off
SPOTTING_OFF = (
    "13.0 spotting is an optional rule not in play in this game: every aircraft is spotted"
)


def unspotted_modifier(unspotted: bool, variants: frozenset[str], bonus: int) -> int:
    """13.0: the bonus for an unspotted attacker (or breaking-off aircraft); refused when the
    optional rule is off, so a ticked box never silently changes nothing (issue 15)."""
    if not unspotted:
        return 0
    if "spotting" not in variants:
        raise RuleViolation(SPOTTING_OFF)
    return bonus


class UnspottedInput:
    """A procedure with a 13.0 "not spotted" input: the desk does not show it when the
    optional rule is off (``inputs_off``)."""

    unspotted_field: str
    variants: frozenset[str]

    def inputs_off(self) -> dict[str, str]:
        return {} if "spotting" in self.variants else {self.unspotted_field: SPOTTING_OFF}


def is_spotted(engagement: Engagement, target: str, by: str, variants: frozenset[str]) -> bool:
    """13.0: has aircraft ``by`` (with its friends' radar spots and its wingman's visual spots
    while they are within 5 hexes) spotted ``target``? Always true with the rule off."""
    if "spotting" not in variants:
        return True
    me = engagement.get(by)
    if target in spots_of(engagement, by).visual:
        return True
    for friend in engagement.on_side(me.side):  # 13.1: friendly aircraft share radar spots
        if target in spots_of(engagement, friend.id).radar:
            return True
    mate = state_of(me).wingman
    if mate and state_of(me).wingman_close and mate in engagement.aircraft:
        return target in spots_of(engagement, mate).visual
    return False


def _require_rule(variants: frozenset[str], draft: Draft) -> None:
    """Spotting is refused in a game without the optional rule; a what-if (an engagement
    without aircraft) still shows its odds."""
    if draft.engagement.aircraft and "spotting" not in variants:
        raise RuleViolation("spotting is an optional rule (13.0): choose the 'spotting' variant")


class RadarSpotInputs(ProcedureInputs):
    spotter_radar: int = Field(title="Spotter Radar Value")
    spotter_pilot: PilotQuality = Field("average", title="Spotter pilot")
    spotter_altitude: int = Field(ge=0, title="Spotter altitude")
    target_altitude: int = Field(ge=0, title="Target altitude")
    target_radar_countermeasures: int = Field(ge=0, title="Target radar C/M")
    in_radar_cone: bool = Field(
        True,
        title="Target in the radar cone",
        description="13.1: 'must have enemy aircraft in its radar cone' (read off the board)",
    )


class RadarSpot(Procedure):
    """13.1 Radar spotting: d10 + radar + pilot + altitude modifiers against d10 + radar C/M."""

    id = "radar_spot"
    title = "Radar spot"
    rule = "13.1"
    Inputs = RadarSpotInputs

    def terms(self, i: RadarSpotInputs) -> list[Term]:
        """13.1: the Spotter adds its Radar Value, its pilot (+2 Ace, +1 Experienced, -2
        Green), +1 for a target higher, -1 lower, -4 at altitude 0; the Target adds its radar
        C/M rating. Each with its sign, on its side's die."""
        t = tables()
        r = t.radar_lock
        a, d = "radar spot: spotter", "radar spot: target"
        out = [Term("Radar Value", i.spotter_radar, "13.1", a)]
        pilot = t.pilot.radar[i.spotter_pilot]
        if pilot:
            out.append(Term(f"{i.spotter_pilot.capitalize()} pilot", pilot, "13.1", a))
        if i.target_altitude > i.spotter_altitude:
            out.append(Term("target higher", r.target_higher, "13.1", a))
        elif i.target_altitude < i.spotter_altitude:
            out.append(Term("target lower", r.target_lower, "13.1", a))
        if i.target_altitude == 0:
            out.append(Term("target at altitude 0", r.target_altitude_0, "13.1", a))
        out.append(Term("radar C/M rating", i.target_radar_countermeasures, "13.1", d))
        return out

    def modifiers(self, i: RadarSpotInputs) -> tuple[int, int]:
        return _sides(self.terms(i), "radar spot")

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if a:
            out.update(
                spotter_radar=a.card.radar or 0,
                spotter_pilot=pilot_of(a.aircraft),
                spotter_altitude=a.state.altitude,
            )
        if t:
            out.update(
                target_altitude=t.state.altitude,
                target_radar_countermeasures=t.state.radar_cm,
            )
        return out

    def decide(self, inputs: RadarSpotInputs, dice: DiceSource, draft: Draft) -> Decision:
        _require_rule(self.variants, draft)
        if not inputs.in_radar_cone:
            raise RuleViolation("radar spots only aircraft in the radar cone (13.1)")
        if inputs.attacker and inputs.target:
            a = draft.get(inputs.attacker)
            in_play(a)
            if card_of(a).radar is None:
                raise RuleViolation(f"{a.name} has no radar (13.1)")
        terms = self.terms(inputs)
        att, dfn = _sides(terms, "radar spot")
        c = opposed(dice, "radar spot", att, dfn, sides=("spotter", "target"))
        r1, r2 = c.first_roll, c.second_roll
        outcome = "spotted" if c.won else "miss"
        if outcome == "spotted" and inputs.attacker and inputs.target:
            draft.emit(_add_spot(draft.engagement, inputs.attacker, inputs.target, "radar"))
        return Decision(
            outcome,
            f"radar spot {_shown(r1, r2, terms, 'radar spot')}: {outcome} (13.1)",
            modifiers=tuple(terms),
        )


def _sides(terms: list[Term], roll: str) -> tuple[int, int]:
    """The spotter's and the target's sums of ``terms``."""
    dice = by_die(terms)
    return total(dice.get(f"{roll}: spotter", [])), total(dice.get(f"{roll}: target", []))


def _shown(r1: int, r2: int, terms: list[Term], roll: str) -> str:
    """The reckoning: "spotter 7+3 = 10 vs target 4+2 = 6"."""
    dice = by_die(terms)
    one, two = dice.get(f"{roll}: spotter", []), dice.get(f"{roll}: target", [])
    return f"spotter {worked(r1, one)} vs target {worked(r2, two)}"


def _add_spot(
    engagement: Engagement, spotter: str, target: str, kind: Literal["radar", "visual"]
) -> GameAttributesSet:
    mine = spots_of(engagement, spotter)
    if kind == "radar" and target not in mine.radar:
        mine = mine.model_copy(update={"radar": [*mine.radar, target]})
    elif kind == "visual" and target not in mine.visual:
        mine = mine.model_copy(update={"visual": [*mine.visual, target]})
    return spotting({**game_of(engagement).spots, spotter: mine})


class VisualSpotInputs(ProcedureInputs):
    spotter_pilot: PilotQuality = Field("average", title="Spotter pilot")
    radar_spot_lock_or_controller: bool = Field(
        False, title="Radar spot/lock-on or controller (+3)"
    )
    all_round_canopy: bool = Field(False, title="All-round vision canopy (+2)")
    target_size: Literal["small", "normal", "large"] = Field("normal", title="Target size")
    two_crew: bool = Field(False, title="Spotter has 2 or more crew (+1)")
    target_altitude: int = Field(ge=0, title="Target altitude (0: -2)")
    range_hexes: int = Field(ge=0, le=10, title="Range (hexes + altitude difference, at most 10)")


class VisualSpot(Procedure):
    """13.2 Visual spotting: d10 + pilot + radar/controller, canopy, large target, crew,
    altitude modifiers against d10 + range (+1 small target); range at most 10."""

    id = "visual_spot"
    title = "Visual spot"
    rule = "13.2"
    Inputs = VisualSpotInputs

    def terms(self, i: VisualSpotInputs) -> list[Term]:
        """13.2: the Spotter adds its pilot (+3 Ace, +2 Experienced, -2 Green), +3 with a
        radar spot or Lock-On or a controller, +2 all-round vision canopy, +2 large target, +1
        two or more crew, -2 target at altitude 0; the Target adds the range and +1 if small.
        Each with its sign, on its side's die."""
        t = tables()
        v = t.visual
        a, d = "visual spot: spotter", "visual spot: target"
        out = []
        pilot = t.pilot.visual[i.spotter_pilot]
        if pilot:
            out.append(Term(f"{i.spotter_pilot.capitalize()} pilot", pilot, "13.2", a))
        if i.radar_spot_lock_or_controller:
            what = "radar spot or Lock-On, or a controller"
            out.append(Term(what, v.radar_spot_or_controller, "13.2", a))
        if i.all_round_canopy:
            out.append(Term("all-round vision canopy", v.all_round_canopy, "13.2", a))
        if i.target_size == "large":
            out.append(Term("target large", v.target_large, "13.2", a))
        if i.two_crew:
            out.append(Term("2 or more crew", v.two_crew, "13.2", a))
        if i.target_altitude == 0:
            out.append(Term("target at altitude 0", v.target_altitude_0, "13.2", a))
        out.append(Term("range", i.range_hexes, "13.2", d))
        if i.target_size == "small":
            out.append(Term("target small", v.target_small, "13.2", d))
        return out

    def modifiers(self, i: VisualSpotInputs) -> tuple[int, int]:
        return _sides(self.terms(i), "visual spot")

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if a:
            out.update(
                spotter_pilot=pilot_of(a.aircraft),
                all_round_canopy=a.card.all_round_canopy,
                two_crew=a.card.crew >= 2,
            )
        if t:
            out.update(target_size=t.card.size, target_altitude=t.state.altitude)
        if a and t:
            radar = t.id in spots_of(engagement, a.id).radar
            out["radar_spot_lock_or_controller"] = (
                radar or t.id in a.state.locks or a.state.controller
            )
        return out

    def decide(self, inputs: VisualSpotInputs, dice: DiceSource, draft: Draft) -> Decision:
        _require_rule(self.variants, draft)
        if inputs.attacker and inputs.target:
            a = draft.get(inputs.attacker)
            in_play(a)
            now = now_impulse(draft.engagement)
            if now is not None and state_of(a).visual_attempt_at == now:
                raise RuleViolation(
                    f"{a.name} may try to spot only one aircraft visually per segment (13.2)"
                )
            draft.emit(AttributesSet(aircraft=a.id, values={"visual_attempt_at": now}))
        terms = self.terms(inputs)
        att, dfn = _sides(terms, "visual spot")
        c = opposed(dice, "visual spot", att, dfn, sides=("spotter", "target"))
        r1, r2 = c.first_roll, c.second_roll
        outcome = "spotted" if c.won else "miss"
        if outcome == "spotted" and inputs.attacker and inputs.target:
            draft.emit(_add_spot(draft.engagement, inputs.attacker, inputs.target, "visual"))
        return Decision(
            outcome,
            f"visual spot {_shown(r1, r2, terms, 'visual spot')}: {outcome} (13.2)",
            modifiers=tuple(terms),
        )


class LoseSpotInputs(ProcedureInputs):
    reason: Literal[
        "target left the radar cone",
        "target beyond 10 hexes",
        "spotter fired guns",
        "spotter in a spin",
        "wingmen more than 5 hexes apart",
        "wingmen back within 5 hexes",
    ] = Field(title="What happened")


class LoseSpot(Calculator):
    """13.1-13.2: spots are lost when the target leaves the radar cone (radar) or the 10-hex
    range (visual), when the spotter fires guns (visual, except on its target) or spins (all);
    wingmen share visual spots only within 5 hexes."""

    id = "lose_spot"
    title = "Spots lost"
    rule = "13.2"
    Inputs = LoseSpotInputs

    def compute(self, inputs: LoseSpotInputs, draft: Draft) -> Decision:
        _require_rule(self.variants, draft)
        r = inputs.reason
        a = subject(draft, inputs.attacker, "the spotting aircraft (attacker)")
        if a is None:
            return Decision(r, f"{r}: spots lost (13.1-13.2)")  # a what-if
        e = draft.engagement
        mine = spots_of(e, a.id)
        if r.startswith("wingmen"):
            close = r.endswith("within 5 hexes")
            draft.emit(AttributesSet(aircraft=a.id, values={"wingman_close": close}))
            mate = state_of(a).wingman
            if mate in e.aircraft:
                draft.emit(AttributesSet(aircraft=mate, values={"wingman_close": close}))
            return Decision(r, f"{a.name}: {r} (13.2)")
        if r == "spotter in a spin":
            mine = Spots()
        elif r == "spotter fired guns":
            mine = mine.model_copy(
                update={"visual": [x for x in mine.visual if x == inputs.target]}
            )
        elif not inputs.target:
            raise RuleViolation("choose the aircraft no longer spotted (target)")
        elif r == "target left the radar cone":
            mine = mine.model_copy(update={"radar": [x for x in mine.radar if x != inputs.target]})
        else:
            mine = mine.model_copy(
                update={"visual": [x for x in mine.visual if x != inputs.target]}
            )
        draft.emit(spotting({**game_of(e).spots, a.id: mine}))
        return Decision(r, f"{a.name}: {r}: spots lost (13.1-13.2)")
