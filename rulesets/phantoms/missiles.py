"""Missiles (7.1): launch (7.1.2), flight at 5 hexes per impulse (7.1.1b), impact (7.1.3),
break-offs (7.1.4) and automatic misses."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core.contest import opposed
from app.core.dice import DiceSource
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import LedgerChanged
from app.core.procedure import Calculator, Decision, Draft, Party, Procedure
from app.core.reckoning import Term, sides_total, summed, total
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.phantoms.card import Card, Missile, card_of
from rulesets.phantoms.clock import now_impulse
from rulesets.phantoms.damage import damage_events, hits_label
from rulesets.phantoms.geometry import RADAR_ASPECT, readings_of
from rulesets.phantoms.guns import check_can_fire, check_enemy, check_vertical, fired_event
from rulesets.phantoms.spotting import UnspottedInput, is_spotted, unspotted_modifier
from rulesets.phantoms.state import (
    MissileInFlight,
    State,
    flying,
    in_flight,
    in_play,
    maneuver_now,
    missile_ledger,
    pilot_of,
    state_of,
)
from rulesets.phantoms.tables import positions, tables


def missile_range(hexes: int, altitude: int, target_altitude: int) -> int:
    """7.1.1b: the range is the hexes between the aircraft plus their altitude difference."""
    if hexes < 0 or altitude < 0 or target_altitude < 0:
        raise ValueError("hexes and altitudes cannot be negative")
    return hexes + abs(altitude - target_altitude)


def flight_impulses(guidance: str, range_hexes: int) -> int:
    """7.1.3: heat-seekers impact the impulse after launch; radar-guided missiles fly 5 hexes
    per impulse (7.1.1b), impacting in the impulse they reach the target."""
    if guidance == "heat":
        return 1
    return max(1, -(-range_hexes // tables().missile.radar_speed))


# --- 7.1.2 Missile launch ---------------------------------------------------------------------


class LaunchInputs(ProcedureInputs):
    missile: str = Field(
        min_length=1, title="Missile", description="a missile on the attacker's card"
    )
    range_hexes: int = Field(
        ge=0, title="Range", description="hexes apart plus the altitude difference (7.1.1b)"
    )
    position_modifier: int = Field(
        0, title="Firing position modifier", description="from the missile position charts"
    )
    position: str = Field(
        "",
        title="Firing position",
        description="a position on the missile's chart (its filled-in number replaces the "
        "modifier above); radar-guided: front, side or rear aspect",
    )
    same_hex_same_altitude: bool = Field(False, title="Target in the same hex and altitude")


def radar_in_range(m: Missile, range_hexes: int, variants: frozenset[str]) -> bool:
    """7.1.1b: beyond the minimum range and within the maximum (the minimum itself too with
    the ``missile_range_inclusive`` reading)."""
    assert m.min_range is not None and m.max_range is not None
    if "missile_range_inclusive" in variants:
        return m.min_range <= range_hexes <= m.max_range
    return m.min_range < range_hexes <= m.max_range


def launch_position_modifier(aspect: str, position: str) -> int:
    """7.1.1a/b: the Hit # modifier for a firing position: the heat-seeking chart of the
    missile's sub-type (missing until the umpire fills it in), or the radar aspect modifier.
    A radar-guided missile given a sector (the board's reading) fires from that sector's
    aspect."""
    if aspect == "radar":
        position = RADAR_ASPECT.get(position, position)
        m = tables().missile
        table = {"front": m.radar_front, "side": m.radar_side, "rear": m.radar_rear}
        if position not in table:
            raise RuleViolation("a radar-guided missile fires from the front, side or rear aspect")
        return table[position]
    chart = {"HN": "heat_narrow", "HW": "heat_wide", "HA": "heat_all"}[aspect]
    try:
        return positions().modifier(chart, position)
    except KeyError as e:
        raise RuleViolation(
            f"{e.args[0]}: the {aspect} missile cannot be fired from there (7.1.1a)"
        ) from None


#: the open reading of Critical Hit #4 (see the ruleset's variant list)
WOUNDED_GUNS_ONLY = "wounded_minus_one_guns_only"


def wounded_missile_modifier(a: AircraftState, variants: frozenset[str]) -> int:
    """Critical Hit Table #4, Pilot Wounded: "-1 when firing". 7.1.3 and the missile charts
    do not list it. Default: missiles as well as guns (the launch's Hit # is 1 lower); with
    the ``wounded_minus_one_guns_only`` reading, guns only (7.2's chart lists "wounded -1")."""
    if Status.WOUNDED not in a.status or WOUNDED_GUNS_ONLY in variants:
        return 0
    return tables().gun.wounded


class MissileLaunch(Calculator):
    """7.1.2 Missile launch: spend the missile, mark the target; heat-seekers impact next
    impulse, radar-guided missiles fly 5 hexes per impulse (7.1.1b, 7.1.3)."""

    id = "missile_launch"
    title = "Missile launch"
    rule = "7.1.2"
    Inputs = LaunchInputs

    def choices(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, list[tuple[Any, str]]]:
        """7.1.2: the missiles on the attacker's card with rounds left, by their printed
        names."""
        a = engagement.aircraft.get(attacker or "")
        if a is None:
            return {}
        out: list[tuple[Any, str]] = []
        for m in card_of(a).missiles:
            left = a.ledgers.get(missile_ledger(m.id))
            n = int(left.value) if left is not None else m.count
            if n > 0:
                kind = "heat-seeking" if m.guidance == "heat" else "radar-guided"
                out.append((m.id, f"{m.name} ({kind}, {n} left)"))
        return {"missile": out}

    def board_inputs(self, readings: Mapping[str, Any]) -> dict[str, Any]:
        """7.1.1a/b: the firing position is the attacker's sector off the target's facing as
        the board reads it; the launch looks its number up on the missile's own chart (a
        heat-seeker's aspect chart, or the radar aspect the sector falls in)."""
        out = super().board_inputs(readings)
        sector = readings_of(readings).sector
        if sector is not None:
            out["position"] = sector
        return out

    def compute(self, inputs: LaunchInputs, draft: Draft) -> Decision:
        if inputs.same_hex_same_altitude:
            raise RuleViolation(
                "missiles may not be launched at a target in the same hex and altitude (7.1)"
            )
        engagement = draft.engagement
        if not (inputs.attacker and inputs.target):
            if engagement.aircraft:
                raise RuleViolation("a missile launch needs the attacker and the target")
            return Decision("launched", f"{inputs.missile} launched (7.1.2)")  # a what-if
        a = draft.get(inputs.attacker)
        t = draft.get(inputs.target)
        in_play(t)
        check_enemy(a, t, "7.1.2")
        card = card_of(a)
        try:
            m = card.missile(inputs.missile)
        except KeyError:
            raise RuleViolation(
                f"{a.name} carries no missile {inputs.missile!r}; its card has "
                + (", ".join(f"{x.name} ({x.id})" for x in card.missiles) or "none")
            ) from None
        now = check_can_fire(engagement, a, m.guidance)
        fired = state_of(a).fired
        if now is not None and fired is not None and fired.at == now:
            if fired.kind != m.guidance:
                raise RuleViolation(
                    f"{a.name} fired {fired.kind} missiles this impulse: heat-seeking or "
                    "radar-guided, not both (7.1.2)"
                )
            if fired.count >= card.missiles_per_impulse:
                raise RuleViolation(
                    f"{a.name} may fire {card.missiles_per_impulse} missile(s) per impulse (7.1.2)"
                )
        check_vertical(a, t, now, "7.1.2")
        alt_a, alt_t = state_of(a).altitude, state_of(t).altitude
        modifier = inputs.position_modifier
        if inputs.position:
            modifier = launch_position_modifier(m.aspect, inputs.position)
        wounded = wounded_missile_modifier(a, self.variants)
        die = f"{m.name}: modified Hit #"
        rule = "7.1.1a" if m.guidance == "heat" else "7.1.1b"
        where = f" ({inputs.position})" if inputs.position else ""
        terms = [
            Term("Hit # (card)", m.hit, rule, die),
            Term(f"firing position{where}", modifier, rule, die),
        ]
        if wounded:
            terms.append(Term("pilot wounded", wounded, "Critical Hit Table #4", die))
        out_of_range = False
        if m.guidance == "heat":
            if abs(alt_a - alt_t) > 1:
                raise RuleViolation(
                    "heat-seeking missiles fire only at targets within one altitude level (7.1.1a)"
                )
            flight = flight_impulses("heat", inputs.range_hexes)
        else:
            if t.id not in state_of(a).locks:
                raise RuleViolation(f"{a.name} has no radar lock-on on {t.name} (7.1.1b)")
            out_of_range = not radar_in_range(m, inputs.range_hexes, self.variants)
            if out_of_range and "out_of_range_launch_misses" not in self.variants:
                raise RuleViolation(
                    f"{m.name}: range {inputs.range_hexes} is outside its minimum {m.min_range} "
                    f"and maximum {m.max_range} (7.1.1b)"
                )
            flight = flight_impulses("radar", inputs.range_hexes)
        base = now if now is not None else 0
        record = MissileInFlight(
            attacker=a.id,
            target=t.id,
            missile=m.id,
            name=m.name,
            guidance=m.guidance,
            active=m.active,
            hit=total(terms),
            launched_at=now,
            impact_at=base + flight,
            out_of_range=out_of_range,
        )
        draft.emit(
            LedgerChanged(
                aircraft=a.id, ledger=missile_ledger(m.id), delta=Fraction(-1), reason="7.1.2"
            ),
            fired_event(a, now, m.guidance),
            flying([*in_flight(engagement), record]),
        )
        return Decision(
            "launched",
            f"{a.name} launches {m.name} at {t.name}: modified Hit # {summed(terms)}"
            + (f" (pilot wounded {wounded:+d}, critical #4)" if wounded else "")
            + (": fired out of range, it will automatically miss" if out_of_range else "")
            + ", "
            f"impact in {flight} impulse(s) (7.1.2)",
            modifiers=tuple(terms),
        )


# --- 7.1.3 Missile impact ---------------------------------------------------------------------


class MissileInputs(ProcedureInputs):
    guidance: Literal["heat", "radar"] = Field(title="Guidance")
    hit_number: int = Field(title="Missile Hit #")
    position_modifier: int = Field(
        0, title="Firing position modifier", description="added; front -3, side -2 for radar"
    )
    target_used_afterburner: bool = Field(False, title="Target used afterburner (heat, +4)")
    attacker_unspotted: bool = Field(False, title="Attacker not spotted (13.0, +4)")
    target_countermeasures: int = Field(ge=0, title="Target C/M for this guidance (14.0)")
    target_pilot: PilotQuality = Field("average", title="Target pilot")
    target_hard_turn_or_loop: bool = Field(False, title="Target in/just did Hard Turn or Loop (+3)")
    target_altitude: int = Field(ge=0, title="Target altitude (0: +2)")
    target_broke_contact: bool = Field(False, title="Target broke contact (7.1.4, +3)")


class MissileAttack(UnspottedInput, Procedure):
    """7.1.3 Missile impact: d10 + modified Hit # (+4 afterburner for heat-seekers, +4
    unspotted) against d10 + C/M + pilot ability (+3 hard turn/loop, +2 altitude 0, +3 broke
    contact); the difference is the hits, plus one critical hit (8.1)."""

    unspotted_field = "attacker_unspotted"

    id = "missile_attack"
    title = "Missile impact"
    rule = "7.1.3"
    Inputs = MissileInputs

    def terms(self, i: MissileInputs) -> list[Term]:
        """7.1.3: the attacker's modified Hit # (the Hit # and the firing position), +4 the
        target used afterburner (heat), +4 not spotted (13.0); the target's C/M rating, Pilot
        Ability, +3 Hard Turn or Loop, +2 at altitude 0, +3 broke contact (7.1.4)."""
        t = tables()
        m = t.missile
        a, d = "missile impact: attacker", "missile impact: target"
        out = [
            Term("Missile Hit #", i.hit_number, "7.1.3", a),
            Term("firing position", i.position_modifier, "7.1.3", a),
        ]
        unspotted = unspotted_modifier(i.attacker_unspotted, self.variants, m.unspotted)
        if unspotted:
            out.append(Term("not spotted", unspotted, "13.0", a))
        if i.guidance == "heat" and i.target_used_afterburner:
            out.append(Term("target used afterburner", m.afterburner, "7.1.3", a))
        out.append(Term("C/M rating", i.target_countermeasures, "7.1.3", d))
        ability = t.pilot.missile_defense[i.target_pilot]
        out.append(Term(f"Pilot Ability ({i.target_pilot})", ability, "7.1.3", d))
        if i.target_hard_turn_or_loop:
            out.append(Term("Hard Turn or Loop", m.hard_turn_or_loop, "7.1.3", d))
        if i.target_altitude == 0:
            out.append(Term("altitude 0", m.altitude_0, "7.1.3", d))
        if i.target_broke_contact:
            out.append(Term("broke contact", m.broke_contact, "7.1.4", d))
        return out

    def modifiers(self, i: MissileInputs) -> tuple[int, int]:
        return sides_total(self.terms(i))

    def _flight(self, engagement: Engagement, attacker: str, target: str) -> MissileInFlight | None:
        now = now_impulse(engagement)
        due = [
            m
            for m in in_flight(engagement)
            if m.attacker == attacker and m.target == target and (now is None or m.impact_at <= now)
        ]
        return min(due, key=lambda m: m.impact_at) if due else None

    def prefill_pair(
        self, engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if t:
            kind = maneuver_now(engagement, t.aircraft)  # in, or just did (7.1.3)
            out.update(
                target_pilot=pilot_of(t.aircraft),
                target_altitude=t.state.altitude,
                target_hard_turn_or_loop=kind in ("hard_turn", "loop"),
                target_used_afterburner=t.state.afterburner_at == now_impulse(engagement),
                target_broke_contact=Status.BROKEN_OFF in t.aircraft.status,
            )
        if a and t:
            out["attacker_unspotted"] = not is_spotted(engagement, a.id, t.id, self.variants)
            m = self._flight(engagement, a.id, t.id)
            if m is not None:
                out.update(
                    guidance=m.guidance,
                    hit_number=m.hit,
                    position_modifier=0,
                    target_countermeasures=(
                        t.state.radar_cm if m.guidance == "radar" else t.state.ir_cm
                    ),
                )
        return out

    def decide(self, inputs: MissileInputs, dice: DiceSource, draft: Draft) -> Decision:
        t = None
        flight: MissileInFlight | None = None
        engagement = draft.engagement
        if inputs.attacker and inputs.target:
            attacker = draft.get(inputs.attacker)
            t = draft.get(inputs.target)
            flight = self._flight(engagement, inputs.attacker, inputs.target)
            if flight is None:
                raise RuleViolation(
                    "no missile from that aircraft at that target is due to impact now (7.1.3)"
                )
            if flight.guidance != inputs.guidance:
                raise RuleViolation(f"the missile in flight is {flight.guidance}-guided")
            if t.status & {Status.DESTROYED, Status.CRASHED, Status.EJECTED, Status.PILOT_KILLED}:
                raise RuleViolation(f"{t.name} is already out of the game")
            if flight.out_of_range:
                raise RuleViolation(
                    f"{flight.name} was fired outside its range: it automatically misses "
                    "(7.1.1b); remove it with missile_lost"
                )
            if (
                inputs.guidance == "radar"
                and misses_on_break_contact(flight, self.variants)
                and Status.BROKEN_OFF in attacker.status
            ):
                raise RuleViolation(
                    "the firing aircraft broke contact: its radar-guided missile automatically "
                    "misses (7.1.4); remove it with missile_lost"
                )
        att, dfn = self.modifiers(inputs)
        c = opposed(dice, "missile impact", att, dfn)
        r1, r2 = c.first_roll, c.second_roll
        hits = max(0, c.margin)
        outcome = hits_label(hits)
        if t is not None and flight is not None:
            rest = in_flight(engagement)
            rest.remove(flight)
            draft.emit(flying(rest))
            draft.emit(
                *damage_events(
                    t, hits, missile=True, source=inputs.attacker, variants=self.variants
                )
            )
        return Decision(
            outcome,
            f"missile impact: attacker {r1}{att:+d} = {r1 + att} vs target "
            f"{r2}{dfn:+d} = {r2 + dfn}: {outcome} (7.1.3)",
            modifiers=tuple(self.terms(inputs)),
        )


def misses_on_break_contact(flight: MissileInFlight, variants: frozenset[str]) -> bool:
    """7.1.4: a radar-guided missile automatically misses when its launcher breaks contact; an
    Active Radar Homing missile needs nothing from its launcher after launch (7.1.1b), so it
    keeps tracking unless the ``active_homers_miss_on_break_contact`` reading is chosen."""
    return not flight.active or "active_homers_miss_on_break_contact" in variants


class MissileLostInputs(ProcedureInputs):
    reason: Literal[
        "target left the radar cone",
        "radar lock lost",
        "firing aircraft broke contact",
        "fired outside its range",
    ] = Field("target left the radar cone", title="Why")


class MissileLost(Calculator):
    """7.1.1b, 7.1.4: a radar-guided missile whose target left the cone, whose lock was lost
    or whose firing aircraft broke contact automatically misses."""

    id = "missile_lost"
    title = "Missile automatically misses"
    rule = "7.1.1b"
    Inputs = MissileLostInputs

    def prefill(
        self, engagement: Engagement, attacker: str | None, target: str | None
    ) -> dict[str, Any]:
        """The reason the state already gives: fired out of range (7.1.1b), or the launcher
        broke contact (7.1.4)."""
        mine = [m for m in in_flight(engagement) if m.attacker == attacker and m.target == target]
        launcher = engagement.aircraft.get(attacker or "")
        if any(m.out_of_range for m in mine):
            return {"reason": "fired outside its range"}
        if (
            launcher is not None
            and Status.BROKEN_OFF in launcher.status
            and any(misses_on_break_contact(m, self.variants) for m in mine)
        ):
            return {"reason": "firing aircraft broke contact"}
        return {}

    def compute(self, inputs: MissileLostInputs, draft: Draft) -> Decision:
        if inputs.attacker and inputs.target:
            draft.get(inputs.attacker)
            flight = in_flight(draft.engagement)
            mine = [
                m
                for m in flight
                if m.attacker == inputs.attacker
                and m.target == inputs.target
                and m.guidance == "radar"
            ]
            if not mine:
                raise RuleViolation("no radar-guided missile from that aircraft at that target")
            if inputs.reason == "radar lock lost" and all(m.active for m in mine):
                raise RuleViolation(
                    "active radar homing missiles need no lock after launch (7.1.1b)"
                )
            if inputs.reason == "firing aircraft broke contact":
                mine = [m for m in mine if misses_on_break_contact(m, self.variants)]
                if not mine:
                    raise RuleViolation(
                        "an active radar homing missile keeps tracking when its launcher breaks "
                        "contact (7.1.1b; see the variant 'Active radar homers also miss')"
                    )
            if inputs.reason == "fired outside its range":
                mine = [m for m in mine if m.out_of_range]
                if not mine:
                    raise RuleViolation("that missile was fired within its range (7.1.1b)")
            flight.remove(mine[0])
            draft.emit(flying(flight))
        return Decision("miss", f"missile misses: {inputs.reason} (7.1.1b)")
