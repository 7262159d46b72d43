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

    def modifiers(self, i: RadarSpotInputs) -> tuple[int, int]:
        t = tables()
        r = t.radar_lock
        m = i.spotter_radar + t.pilot.radar[i.spotter_pilot]
        if i.target_altitude > i.spotter_altitude:
            m += r.target_higher
        elif i.target_altitude < i.spotter_altitude:
            m += r.target_lower
        if i.target_altitude == 0:
            m += r.target_altitude_0
        return m, i.target_radar_countermeasures

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
        att, dfn = self.modifiers(inputs)
        c = opposed(dice, "radar spot", att, dfn, sides=("spotter", "target"))
        r1, r2 = c.first_roll, c.second_roll
        outcome = "spotted" if c.won else "miss"
        if outcome == "spotted" and inputs.attacker and inputs.target:
            draft.emit(_add_spot(draft.engagement, inputs.attacker, inputs.target, "radar"))
        return Decision(outcome, f"radar spot {r1}{att:+d} vs {r2}{dfn:+d}: {outcome} (13.1)")


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

    def modifiers(self, i: VisualSpotInputs) -> tuple[int, int]:
        t = tables()
        v = t.visual
        m = t.pilot.visual[i.spotter_pilot]
        m += v.radar_spot_or_controller if i.radar_spot_lock_or_controller else 0
        m += v.all_round_canopy if i.all_round_canopy else 0
        m += v.target_large if i.target_size == "large" else 0
        m += v.two_crew if i.two_crew else 0
        m += v.target_altitude_0 if i.target_altitude == 0 else 0
        return m, i.range_hexes + (v.target_small if i.target_size == "small" else 0)

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
        att, dfn = self.modifiers(inputs)
        c = opposed(dice, "visual spot", att, dfn, sides=("spotter", "target"))
        r1, r2 = c.first_roll, c.second_roll
        outcome = "spotted" if c.won else "miss"
        if outcome == "spotted" and inputs.attacker and inputs.target:
            draft.emit(_add_spot(draft.engagement, inputs.attacker, inputs.target, "visual"))
        return Decision(outcome, f"visual spot {r1}{att:+d} vs {r2}{dfn:+d}: {outcome} (13.2)")


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
