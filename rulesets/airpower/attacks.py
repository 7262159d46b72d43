"""What the gun and rocket procedures share: the attack requirements, the hit-roll modifiers,
the per-turn attack record kept in the attacker's attributes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AttributesSet
from app.core.procedure import Draft, Party
from app.core.reckoning import Term
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.airpower.arcs import AngleOff, ArcRange
from rulesets.airpower.card import Card
from rulesets.airpower.recovery import FPKind, fire_status, status_before_move
from rulesets.airpower.state import (
    AttackEntry,
    AttackKind,
    AttackRecord,
    PendingHit,
    State,
    Weapon,
)
from rulesets.airpower.tables import Modifiers, ssgt_conversion

#: the variant id of the original wording (see the ruleset's variant list)
ORIGINAL = "original_wording"

GUN_RULE = "Air Power, Air-to-Air Gun Combat"
ROCKET_RULE = "Air Power, Air-to-Air Rocket Combat"
SSGT_RULE = "Air Power, Steady-State Gunsight Tracking"
RR_RULE = "Air Power, Radar Ranging"

FORMATION_RULE = "Air Power (original wording), Formation Restrictions on Gun and Rocket Combat"
FORMATION_OFF = (
    "the revised text has no formation restriction on gun and rocket combat; close-formation "
    "wingmen are held back only in the original wording (variant original_wording)"
)


def check_formation(wingman: bool, variants: frozenset[str], what: str) -> None:
    """Original wording, "Formation Restrictions on Gun and Rocket Combat": "The wingmen
    aircraft in a close formation may not fire cannons or rockets at air to air targets"
    (wingmen of Tactical formations are not restricted). The revised text drops the section,
    so the box is refused there rather than silently ignored."""
    if not wingman:
        return
    if ORIGINAL not in variants:
        raise RuleViolation(FORMATION_OFF)
    raise RuleViolation(
        f"a wingman in a close formation may not fire {what} at air-to-air targets "
        f"({FORMATION_RULE})"
    )


class FormationInput:
    """A gun or rocket procedure's close-formation box: shown only in the original wording."""

    variants: frozenset[str]

    def inputs_off(self) -> dict[str, str]:
        return {} if ORIGINAL in self.variants else {"close_formation_wingman": FORMATION_OFF}


Flight = Literal["level", "climbing", "diving"]
TurnRate = Literal["TT", "HT", "BT"]
_RATE_ORDER: tuple[TurnRate, ...] = ("TT", "HT", "BT")


class AttackInputs(ProcedureInputs):
    """The inputs a gun or rocket attack shares (rule "Die Roll Modifiers" and restrictions)."""

    horizontal_range: int = Field(
        0, ge=0, title="Horizontal range", description="hexes, from the gun-attack figure"
    )
    attacker_altitude: int = Field(0, ge=0, title="Attacker altitude level")
    target_altitude: int = Field(0, ge=0, title="Target altitude level")
    same_location: bool = Field(False, title="Same hex or hex side")
    attacker_flight: Flight = Field("level", title="Attacker flight")
    target_flight: Flight = Field("level", title="Target flight")
    target_sighted: bool = Field(True, title="Target sighted")
    target_size: int = Field(0, ge=-5, le=5, title="Target size (ADC)")
    angle_off: AngleOff = Field(AngleOff.ARC_30, title="Angle-off")
    attacker_damage: str = Field("undamaged", title="Attacker damage state")
    turn_rates: list[TurnRate] = Field(
        default_factory=list,
        title="Turn rates applicable",
        description="turning now or recovering from (rule Recovery Periods)",
    )
    gunsight_tt: int = Field(0, ge=-5, le=10, title="ADC gunsight modifier, TT")
    gunsight_ht: int = Field(0, ge=-5, le=10, title="ADC gunsight modifier, HT")
    gunsight_bt: int = Field(0, ge=-5, le=10, title="ADC gunsight modifier, BT")
    last_fp: FPKind = Field("none", title="What the attacker did on the FP just flown")
    recovering_from: Literal["none", "ET", "unloaded"] = Field(
        "none", title="In a recovery period after"
    )
    speed: float = Field(5.0, gt=0, le=30, title="Attacker start speed")
    ssgt_fps: int = Field(0, ge=0, le=30, title="FPs of SSGT accumulated")
    radar_ranged: bool = Field(False, title="Radar ranging succeeded")
    radar_ranging: Literal["none", "RE", "CA", "IG"] = Field("none", title="Radar ranging type")
    pilot: PilotQuality = Field("average", title="Attacker pilot quality")
    fp: int | None = Field(None, ge=1, le=30, title="Fires after FP number")
    close_formation_wingman: bool = Field(
        False, title="Wingman in a close formation", description="original wording only"
    )

    @property
    def vertical_range(self) -> int:
        return abs(self.attacker_altitude - self.target_altitude) // 2

    @property
    def range(self) -> int:
        """Horizontal range plus the altitude difference / 2 rounded down."""
        h = 0 if self.same_location else self.horizontal_range
        return h + self.vertical_range


def check_higher_lower(inputs: AttackInputs, what: str) -> None:
    """The higher/lower target restrictions: a climbing aircraft may not fire on a lower one, a
    diving aircraft not on a higher one."""
    up = inputs.target_altitude - inputs.attacker_altitude
    if inputs.attacker_flight == "climbing" and up < 0:
        raise RuleViolation(f"a climbing aircraft may not fire {what} on a lower aircraft")
    if inputs.attacker_flight == "diving" and up > 0:
        raise RuleViolation(f"a diving aircraft may not fire {what} on a higher aircraft")


def check_common(inputs: AttackInputs, what: str, *, original_rockets: bool = False) -> None:
    """The restrictions guns and rockets share; ``RuleViolation`` naming the rule broken."""
    if not inputs.target_sighted:
        raise RuleViolation(f"an aircraft may not fire {what} on an unsighted aircraft")
    check_higher_lower(inputs, what)
    up = inputs.target_altitude - inputs.attacker_altitude
    level = inputs.attacker_flight == "level" or original_rockets
    if level and inputs.same_location and up != 0:
        raise RuleViolation(
            f"an aircraft in level flight may fire {what} on a target in the same map location "
            "only at the same altitude"
        )
    if level and not inputs.same_location and abs(up) > 1:
        who = "an aircraft" if original_rockets else "an aircraft in level flight"
        raise RuleViolation(
            f"{who} may fire {what} on a target in another map location only at the same or an "
            "adjacent altitude level"
        )
    if inputs.last_fp == "ET":
        raise RuleViolation(f"no {what} immediately after an FP turned at the ET rate")
    if inputs.last_fp == "unloaded":
        raise RuleViolation(f"no {what} immediately after an unloaded FP")
    if inputs.last_fp == "roll":
        raise RuleViolation(
            f"no {what} immediately after an FP used to prepare for or execute a rolling maneuver"
        )
    if inputs.recovering_from != "none":
        after = "an ET turn" if inputs.recovering_from == "ET" else "an unloaded FP"
        raise RuleViolation(f"no {what} during the recovery period after {after}")


#: the reading of "SSGT Modifiers" below speed 3 (see the ruleset's variant list)
SSGT_SLOW_NONE = "ssgt_slow_no_modifier"


def ssgt_modifier(
    inputs: AttackInputs,
    table: Modifiers,
    *,
    original_wording: bool = False,
    slow_none: bool = False,
) -> int:
    """Rule "SSGT Modifiers": "-1 modifier of each 1/3 of its speed (round down) in accumulated
    FPs. The maximum modifier is -2." A third of a speed under 3 rounds down to 0 FPs. Default:
    it is taken as 1 FP (-1 per FP); with the ``ssgt_slow_no_modifier`` reading (``slow_none``)
    no third is ever accumulated: no SSGT modifier below speed 3. The original wording counts
    the thirds with the 1/3-2/3 conversion table instead."""
    if original_wording:
        thirds = ssgt_conversion().thirds(inputs.speed, inputs.ssgt_fps)
    else:
        third = int(inputs.speed // 3)
        if third == 0 and slow_none:
            return 0
        thirds = inputs.ssgt_fps // max(1, third)
    return max(table.ssgt_limit, table.ssgt_per_third * thirds)


def vertical_modifier(inputs: AttackInputs, table: Modifiers) -> int:
    """Rule "Same-Location Vertical Attacks"."""
    if not inputs.same_location or inputs.attacker_flight == "level":
        return 0
    if inputs.target_flight == "level":
        return table.vertical_attack.against_level
    if inputs.target_flight != inputs.attacker_flight:
        return table.vertical_attack.opposite
    return table.vertical_attack.same


def gunsight_modifier(inputs: AttackInputs) -> int:
    """Rule "Gunsight and Turning Effects": the ADC modifier of the highest applicable rate."""
    if not inputs.turn_rates:
        return 0
    rate = max(inputs.turn_rates, key=_RATE_ORDER.index)
    return {"TT": inputs.gunsight_tt, "HT": inputs.gunsight_ht, "BT": inputs.gunsight_bt}[rate]


def check_radar_ranging(kind: str, angle_off: AngleOff, ssgt_fps: int) -> None:
    """Rule "Radar Ranging Requirements": RE needs 1 FP of SSGT, CA the 90- arc, IG nothing."""
    if kind == "none":
        raise RuleViolation("the attacker has no radar ranging")
    if kind == "RE" and ssgt_fps < 1:
        raise RuleViolation("RE radar ranging needs at least 1 FP of SSGT")
    if kind == "CA" and not ArcRange.parse("90-").contains(angle_off):
        raise RuleViolation(f"CA radar ranging needs the 90- arc, not the {angle_off}")


def as_terms(terms: list[tuple[str, int]], rule: str, die: str) -> tuple[Term, ...]:
    """The hit-roll modifiers as the ruling lists them: each with the modifier table's rule
    and its sign, added to the hit roll (issue 45)."""
    return tuple(Term(what, value, rule, die) for what, value in terms)


def modifier_terms(
    inputs: AttackInputs,
    table: Modifiers,
    rule: str,
    *,
    original_wording: bool = False,
    ssgt_slow_none: bool = False,
) -> list[tuple[str, int]]:
    """The hit-roll modifiers guns and rockets share, as (what, value), in the rule's order."""
    terms = [
        ("target size", inputs.target_size),
        (f"angle-off {inputs.angle_off}", table.value("angle_off", inputs.angle_off, rule)),
        ("same-location vertical attack", vertical_modifier(inputs, table)),
    ]
    if inputs.attacker_damage != "undamaged" or "undamaged" in table.attacker_damage:
        terms.append(
            (
                f"attacker {inputs.attacker_damage}",
                table.value("attacker_damage", inputs.attacker_damage, rule),
            )
        )
    terms.append(("gunsight", gunsight_modifier(inputs)))
    if inputs.ssgt_fps:
        if original_wording and not ArcRange.parse("60-").contains(inputs.angle_off):
            raise RuleViolation(
                "SSGT (original wording): only an attacker in the 60 or less angle-off arc "
                "may track its target"
            )
        terms.append(
            (
                f"SSGT {inputs.ssgt_fps} FPs",
                ssgt_modifier(
                    inputs, table, original_wording=original_wording, slow_none=ssgt_slow_none
                ),
            )
        )
    if inputs.radar_ranged:
        check_radar_ranging(inputs.radar_ranging, inputs.angle_off, inputs.ssgt_fps)
        terms.append(
            (
                f"radar ranging {inputs.radar_ranging}",
                table.value("radar_ranging", inputs.radar_ranging, rule),
            )
        )
    terms.append((f"{inputs.pilot} pilot", table.value("pilot_quality", inputs.pilot, rule)))
    return terms


def attacks_this_turn(draft: Draft, aircraft: str | None) -> tuple[AttackEntry, ...]:
    """The attacks this aircraft made this game turn (kept in its state)."""
    if aircraft is None:
        return ()
    record = draft.state(aircraft, State).attacks
    if record is None or record.turn != draft.engagement.turn:
        return ()
    return record.entries


def check_attack_limits(earlier: Sequence[AttackEntry], kind: AttackKind, fp: int | None) -> None:
    """Rule "Gun Attacks": one or two gun attacks per game turn, each after a different FP;
    rule "Rocket Attacks": one rocket attack per game turn, and not guns and rockets both."""
    kinds = [e.kind for e in earlier]
    if kind in ("gun", "abort"):
        if "rocket" in kinds:
            raise RuleViolation("this aircraft fired rockets this turn: no gun attacks as well")
        if sum(1 for k in kinds if k in ("gun", "abort")) >= 2:
            raise RuleViolation("an aircraft may make at most two gun attacks per game turn")
    else:
        if any(k in ("gun", "abort") for k in kinds):
            raise RuleViolation("this aircraft fired guns this turn: no rocket attack as well")
        if "rocket" in kinds:
            raise RuleViolation("only one rocket attack is allowed per game turn")
    if fp is not None and any(e.fp == fp for e in earlier):
        raise RuleViolation(f"an attack was already made after FP {fp}: each after a different FP")


def record_attack(
    draft: Draft, aircraft: str, kind: AttackKind, fp: int | None, target: str | None
) -> AttributesSet:
    """The attacker's attack record with this attack added."""
    entry = AttackEntry(kind=kind, fp=fp, target=target)
    record = AttackRecord(
        turn=draft.engagement.turn, entries=(*attacks_this_turn(draft, aircraft), entry)
    )
    return AttributesSet(aircraft=aircraft, values={"attacks": record.dump()})


def flight_prefill(state: State) -> dict[str, Any]:
    """What the recorded flight says about an attack now: the FP just flown, the recovery period
    it is in, the gunsight turn rates that apply and the SSGT accumulated."""
    this_turn, last_turn, speed = state.this_turn, state.last_turn, state.speed
    if speed is None:
        return {}
    if this_turn:
        status = fire_status(this_turn, speed, last_turn, state.last_speed)[-1]
        last: str = this_turn[-1]
    else:
        status = status_before_move(speed, last_turn, state.last_speed)
        # not flown yet (head-on return fire): an ET, unloaded or rolling last FP of the previous
        # game turn still forbids firing
        last = (
            last_turn[-1] if last_turn and last_turn[-1] in ("ET", "unloaded", "roll") else "none"
        )
    return {
        "last_fp": last,
        "recovering_from": status.recovering_from[0] if status.recovering_from else "none",
        "turn_rates": list(status.gunsight),
        "ssgt_fps": state.ssgt_fps,
        "fp": len(this_turn) or None,
    }


#: the attack inputs read off the two aircraft's cards and state (``prefill_attack``)
ATTACK_CARD_FIELDS = frozenset(
    {
        "gunsight_tt",
        "gunsight_ht",
        "gunsight_bt",
        "radar_ranging",
        "pilot",
        "speed",
        "attacker_altitude",
        "target_altitude",
        "target_size",
        "ssgt_fps",
        # from the flight record (rule "Recovery Periods"): what the FP just flown allows
        "last_fp",
        "recovering_from",
        "turn_rates",
    }
)


def prefill_attack(
    engagement: Engagement, a: Party[Card, State] | None, t: Party[Card, State] | None
) -> dict[str, Any]:
    """Numbers read off the two aircraft's cards and state (gun and rocket ``prefill_pair``)."""
    out: dict[str, Any] = {}
    if a:
        gunsight = a.card.gunsight
        out.update(
            gunsight_tt=gunsight.TT,
            gunsight_ht=gunsight.HT,
            gunsight_bt=gunsight.BT,
            radar_ranging=a.card.radar_ranging or "none",
            pilot=a.aircraft.pilot or "average",
            attacker_altitude=a.state.altitude,
        )
        if a.state.speed is not None:
            out["speed"] = a.state.speed
        out.update(flight_prefill(a.state))
        ranged = a.state.radar_ranged
        if t and ranged and ranged.turn == engagement.turn and ranged.target == t.id:
            out["radar_ranged"] = True
    if t:
        out["target_size"] = t.card.size
        out["target_altitude"] = t.state.altitude
    return out


def describe(terms: list[tuple[str, int]]) -> str:
    """A modifier list for the log: the non-zero terms and the total."""
    parts = [f"{w} {v:+d}" for w, v in terms if v]
    total = sum(v for _, v in terms)
    return (", ".join(parts) if parts else "no modifiers") + f" (total {total:+d})"


def pending_hit(draft: Draft, target: str, rating: int, weapon: Weapon, rule: str) -> AttributesSet:
    """The target's hits waiting for their damage roll, with this hit added (resolved by the
    damage roll)."""
    pending = (
        *draft.state(target, State).hits_to_resolve,
        PendingHit(attack_rating=rating, source=weapon, rule=rule),
    )
    return AttributesSet(
        aircraft=target,
        values={"hits_to_resolve": [h.model_dump(mode="json") for h in pending]},
    )
