"""What the gun and rocket procedures share: the attack requirements, the hit-roll modifiers,
the per-turn attack record kept in the attacker's attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.ruleset import PilotQuality, ProcedureInputs
from rulesets.airpower.geometry import AngleOff, ArcRange
from rulesets.airpower.recovery import FPKind, fire_status, status_before_move
from rulesets.airpower.tables import Modifiers

GUN_RULE = "Air Power, Air-to-Air Gun Combat"
ROCKET_RULE = "Air Power, Air-to-Air Rocket Combat"
SSGT_RULE = "Air Power, Steady-State Gunsight Tracking"
RR_RULE = "Air Power, Radar Ranging"

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

    @property
    def vertical_range(self) -> int:
        return abs(self.attacker_altitude - self.target_altitude) // 2

    @property
    def range(self) -> int:
        """Horizontal range plus the altitude difference / 2 rounded down."""
        h = 0 if self.same_location else self.horizontal_range
        return h + self.vertical_range


def check_common(inputs: AttackInputs, what: str, *, original_rockets: bool = False) -> None:
    """The restrictions guns and rockets share; ``RuleViolation`` naming the rule broken."""
    if not inputs.target_sighted:
        raise RuleViolation(f"an aircraft may not fire {what} on an unsighted aircraft")
    up = inputs.target_altitude - inputs.attacker_altitude
    if inputs.attacker_flight == "climbing" and up < 0:
        raise RuleViolation(f"a climbing aircraft may not fire {what} on a lower aircraft")
    if inputs.attacker_flight == "diving" and up > 0:
        raise RuleViolation(f"a diving aircraft may not fire {what} on a higher aircraft")
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


def ssgt_modifier(inputs: AttackInputs, table: Modifiers) -> int:
    """Rule "SSGT Modifiers": -1 for each 1/3 of the speed (round down) in accumulated FPs, at
    most -2. A third of a speed under 3 rounds down to 0; it is taken as 1 FP."""
    third = max(1, int(inputs.speed // 3))
    return max(table.ssgt_limit, table.ssgt_per_third * (inputs.ssgt_fps // third))


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


def modifier_terms(
    inputs: AttackInputs, table: Modifiers, rule: str, *, original_wording: bool = False
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
        terms.append((f"SSGT {inputs.ssgt_fps} FPs", ssgt_modifier(inputs, table)))
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


def attacks_this_turn(engagement: Engagement | None, aircraft: str | None) -> list[dict[str, Any]]:
    """The attacks this aircraft made this game turn (kept in its attributes)."""
    if engagement is None or aircraft is None:
        return []
    a = engagement.get(aircraft)
    record: Mapping[str, Any] = a.attributes.get("attacks") or {}
    if record.get("turn") != engagement.turn:
        return []
    return list(record.get("list", []))


def record_attack(
    engagement: Engagement | None, aircraft: str, entry: dict[str, Any]
) -> dict[str, Any]:
    """The attacker's new ``attacks`` attribute with this attack added."""
    turn = engagement.turn if engagement is not None else 1
    return {"turn": turn, "list": [*attacks_this_turn(engagement, aircraft), entry]}


def flight_prefill(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """What the recorded flight says about an attack now: the FP just flown, the recovery period
    it is in, the gunsight turn rates that apply and the SSGT accumulated."""
    this_turn = list(attributes.get("this_turn") or [])
    last_turn = list(attributes.get("last_turn") or [])
    speed = attributes.get("speed")
    if speed is None:
        return {}
    if this_turn:
        status = fire_status(this_turn, speed, last_turn, attributes.get("last_speed"))[-1]
        last: str = this_turn[-1]
    else:
        status = status_before_move(speed, last_turn, attributes.get("last_speed"))
        # not flown yet (head-on return fire): an ET, unloaded or rolling last FP of the previous
        # game turn still forbids firing
        last = (
            last_turn[-1] if last_turn and last_turn[-1] in ("ET", "unloaded", "roll") else "none"
        )
    return {
        "last_fp": last,
        "recovering_from": status.recovering_from[0] if status.recovering_from else "none",
        "turn_rates": list(status.gunsight),
        "ssgt_fps": attributes.get("ssgt_fps", 0),
        "fp": len(this_turn) or None,
    }


def prefill_attack(
    engagement: Engagement, attacker: str | None, target: str | None
) -> dict[str, Any]:
    """Numbers read off the two aircraft's cards and state."""
    out: dict[str, Any] = {}
    if attacker:
        a = engagement.get(attacker)
        card = a.card
        gs = card.get("gunsight") or {}
        out.update(
            gunsight_tt=gs.get("TT", 0),
            gunsight_ht=gs.get("HT", 0),
            gunsight_bt=gs.get("BT", 0),
            radar_ranging=card.get("radar_ranging") or "none",
            pilot=a.pilot or "average",
        )
        at = a.attributes
        if "speed" in at:
            out["speed"] = at["speed"]
        if "altitude" in at:
            out["attacker_altitude"] = at["altitude"]
        out.update(flight_prefill(at))
        ranged = a.attributes.get("radar_ranged") or {}
        if target and ranged.get("turn") == engagement.turn and ranged.get("target") == target:
            out["radar_ranged"] = True
    if target:
        t = engagement.get(target)
        out["target_size"] = t.card.get("size", 0)
        if "altitude" in t.attributes:
            out["target_altitude"] = t.attributes["altitude"]
    return out


def describe(terms: list[tuple[str, int]]) -> str:
    """A modifier list for the log: the non-zero terms and the total."""
    parts = [f"{w} {v:+d}" for w, v in terms if v]
    total = sum(v for _, v in terms)
    return (", ".join(parts) if parts else "no modifiers") + f" (total {total:+d})"


def pending_hit(
    engagement: Engagement | None, target: str, rating: int, weapon: str, rule: str
) -> dict[str, Any]:
    """The target's ``hits_to_resolve`` with this hit added (resolved by the damage roll)."""
    pending: list[Any] = []
    if engagement is not None:
        pending = list(engagement.get(target).attributes.get("hits_to_resolve") or [])
    return {
        "hits_to_resolve": [*pending, {"attack_rating": rating, "source": weapon, "rule": rule}]
    }
