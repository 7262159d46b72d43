"""Radar lock-on (7.1.1b) and breaking a lock (7.1.1c)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.core.contest import opposed
from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, Event
from app.core.procedure import Decision, Draft, Party, Procedure
from app.core.reckoning import Term, sides_total
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.phantoms.card import Card, card_of
from rulesets.phantoms.guns import check_enemy
from rulesets.phantoms.state import State, flying, in_flight, in_play, pilot_of, state_of
from rulesets.phantoms.tables import tables

# --- 7.1.1b Radar lock-on and 7.1.1c breaking it ---------------------------------------------


class RadarLockInputs(ProcedureInputs):
    attacker_radar: int = Field(title="Attacker Radar Value")
    attacker_pilot: PilotQuality = Field("average", title="Attacker pilot")
    attacker_altitude: int = Field(ge=0, title="Attacker altitude")
    target_altitude: int = Field(ge=0, title="Target altitude")
    target_radar_countermeasures: int = Field(ge=0, title="Target radar C/M (14.0)")
    range_hexes: int = Field(
        ge=0, title="Range", description="hexes apart plus the altitude difference (7.1.1b)"
    )


class LockOnInputs(RadarLockInputs):
    in_radar_cone: bool = Field(
        True,
        title="Target in the radar cone",
        description="7.1.1b: 'facing so that the target is in its radar cone' (the board reads "
        "it once the cone's width is filled in)",
    )


def radar_terms(
    i: RadarLockInputs, variants: frozenset[str], radar: int | None = None, roll: str = ""
) -> list[Term]:
    """7.1.1b's lock-on modifiers, each with its sign, added to the attacker's and the
    target's dice (``roll``: the rolls' purpose, "radar lock-on" or "break lock"). A target at
    altitude 0 below the attacker takes both the lower-altitude -1 and the altitude-0 -4, as
    the text lists them; with the ``altitude_0_replaces_lower`` reading only the -4."""
    t = tables()
    r = t.radar_lock
    a, d = f"{roll}: attacker", f"{roll}: target"
    value = i.attacker_radar if radar is None else radar
    out = [Term("Radar Value" if radar is None else "missile's radar value", value, "7.1.1b", a)]
    pilot = t.pilot.radar[i.attacker_pilot]
    if pilot:
        out.append(Term(f"{i.attacker_pilot.capitalize()} pilot", pilot, "7.1.1b", a))
    if i.target_altitude > i.attacker_altitude:
        out.append(Term("target higher", r.target_higher, "7.1.1b", a))
    elif i.target_altitude < i.attacker_altitude and not (
        i.target_altitude == 0 and "altitude_0_replaces_lower" in variants
    ):
        out.append(Term("target lower", r.target_lower, "7.1.1b", a))
    if i.target_altitude == 0:
        out.append(Term("target at altitude 0", r.target_altitude_0, "7.1.1b", a))
    out.append(Term("Radar Counter-measures", i.target_radar_countermeasures, "7.1.1b", d))
    if i.range_hexes >= r.long_range_from:
        out.append(Term(f"range {i.range_hexes} (5 or more)", r.long_range, "7.1.1b", d))
    return out


def radar_modifiers(
    i: RadarLockInputs, variants: frozenset[str], radar: int | None = None
) -> tuple[int, int]:
    """7.1.1b lock-on modifiers: (attacker, target), the sums of ``radar_terms``."""
    return sides_total(radar_terms(i, variants, radar, roll="lock-on"))


def _radar_prefill(a: Party[Card, State] | None, t: Party[Card, State] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if a:
        if a.card.radar is not None:
            out["attacker_radar"] = a.card.radar
        out.update(attacker_pilot=pilot_of(a.aircraft), attacker_altitude=a.state.altitude)
    if t:
        out.update(
            target_altitude=t.state.altitude,
            target_radar_countermeasures=t.state.radar_cm,
        )
    return out


class RadarLock(Procedure):
    """7.1.1b Radar lock-on: d10 + radar value + pilot + altitude modifiers against
    d10 + radar C/M (+2 at range 5 or more); the attacker must roll higher."""

    id = "radar_lock"
    title = "Radar lock-on"
    rule = "7.1.1b"
    Inputs = LockOnInputs

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        return _radar_prefill(a, t)

    def decide(self, inputs: LockOnInputs, dice: DiceSource, draft: Draft) -> Decision:
        if not inputs.in_radar_cone:
            raise RuleViolation(
                "the target is outside the radar cone: turn to face it first (7.1.1b)"
            )
        a = t = None
        if inputs.attacker and inputs.target:
            a = draft.get(inputs.attacker)
            t = draft.get(inputs.target)
            in_play(a)
            in_play(t)
            check_enemy(a, t, "7.1.1b")
            if card_of(a).radar is None:
                raise RuleViolation(f"{a.name} has no radar (7.1.1b)")
            if Status.OUT_OF_CONTROL in a.status:
                raise RuleViolation(f"{a.name} is out of control")
        att, dfn = radar_modifiers(inputs, self.variants)
        c = opposed(dice, "radar lock-on", att, dfn)
        r1, r2 = c.first_roll, c.second_roll
        outcome = "lock" if c.won else "miss"
        if a is not None and t is not None:
            draft.emit(*_relock(draft.engagement, a, t.id, outcome == "lock"))
        return Decision(
            outcome,
            f"radar lock-on: attacker {r1}{att:+d} = {r1 + att} vs target "
            f"{r2}{dfn:+d} = {r2 + dfn}: {outcome} (7.1.1b)",
            modifiers=tuple(radar_terms(inputs, self.variants, roll="radar lock-on")),
        )


def _relock(engagement: Engagement, a: AircraftState, target: str, success: bool) -> list[Event]:
    """7.1.1b: trying to lock onto another target loses the lock (beyond the card's number of
    locks); the missiles those locks guided miss unless they are active homers."""
    locks = list(state_of(a).locks)
    dropped: list[str] = []
    if target not in locks:
        limit = card_of(a).radar_locks
        while locks and len(locks) >= limit:
            dropped.append(locks.pop(0))
        if success:
            locks.append(target)
    events: list[Event] = [AttributesSet(aircraft=a.id, values={"locks": locks})]
    for d in dropped:
        events += _lose_guided(engagement, a.id, d, active=False)
    return events


def _lose_guided(engagement: Engagement, attacker: str, target: str, active: bool) -> list[Event]:
    """Radar-guided missiles from ``attacker`` at ``target`` that lose guidance miss (7.1.1b)."""
    flight = in_flight(engagement)
    keep = [
        m
        for m in flight
        if not (
            m.attacker == attacker
            and m.target == target
            and m.guidance == "radar"
            and m.active == active
        )
    ]
    if len(keep) == len(flight):
        return []
    return [flying(keep)]


class BreakLockInputs(RadarLockInputs):
    missile_radar: int | None = Field(
        None,
        title="Active homer's radar",
        description="breaking an Active Radar Homing missile's lock uses its radar value",
    )


class BreakLock(Procedure):
    """7.1.1c Breaking a lock: rolled like a lock-on (7.1.1b); the lock holds only if the
    locking aircraft (or active homing missile) still rolls higher."""

    id = "break_lock"
    title = "Break radar lock"
    rule = "7.1.1c"
    Inputs = BreakLockInputs

    def _label(self, d: int) -> str:
        return "miss" if d > 0 else "lock broken"

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        return _radar_prefill(a, t)

    def decide(self, inputs: BreakLockInputs, dice: DiceSource, draft: Draft) -> Decision:
        a = None
        if inputs.attacker and inputs.target:
            a = draft.get(inputs.attacker)
            draft.get(inputs.target)
            active = inputs.missile_radar is not None
            if not active and inputs.target not in state_of(a).locks:
                raise RuleViolation(f"{a.name} has no radar lock on that aircraft (7.1.1c)")
        att, dfn = radar_modifiers(inputs, self.variants, inputs.missile_radar)
        c = opposed(dice, "break lock", att, dfn)
        r1, r2 = c.first_roll, c.second_roll
        outcome = self._label(c.margin)
        if a is not None and inputs.target and outcome != "miss":
            if inputs.missile_radar is None:
                locks = [x for x in state_of(a).locks if x != inputs.target]
                draft.emit(AttributesSet(aircraft=a.id, values={"locks": locks}))
            draft.emit(
                *_lose_guided(
                    draft.engagement, a.id, inputs.target, active=inputs.missile_radar is not None
                )
            )
        shown = "lock held" if outcome == "miss" else outcome
        return Decision(
            outcome,
            f"break lock: attacker {r1}{att:+d} = {r1 + att} vs target "
            f"{r2}{dfn:+d} = {r2 + dfn}: {shown} (7.1.1c)",
            modifiers=tuple(
                radar_terms(inputs, self.variants, inputs.missile_radar, roll="break lock")
            ),
        )
