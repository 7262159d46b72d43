"""Speed and movement: set speed (5.0), afterburner (6.5), maneuver markers with climbs and
dives (6.1-6.3), moving impulse by impulse (6.0), tailing (6.1.1) and jettison (11.0)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.core import hexgrid
from app.core.engagement import AircraftState, Engagement, Status
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, Event, LedgerChanged
from app.core.procedure import Calculator, Decision, Draft
from app.core.reckoning import Term, summed, total
from app.core.ruleset import AircraftInputs, ProcedureInputs
from rulesets.phantoms.card import SpeedChart, card_of
from rulesets.phantoms.clock import clock_of, now_impulse
from rulesets.phantoms.damage import STRUCTURAL
from rulesets.phantoms.state import (
    Ledger,
    Marker,
    engine_damaged,
    in_play,
    is_loaded,
    pilot_of,
    state_of,
    subject,
)
from rulesets.phantoms.tables import tables

ManeuverChoice = Literal[
    "straight",
    "turn left",
    "turn right",
    "hard turn left",
    "hard turn right",
    "slip left",
    "slip right",
    "loop",
]
_KIND = {
    "straight": "straight",
    "turn left": "turn",
    "turn right": "turn",
    "hard turn left": "hard_turn",
    "hard turn right": "hard_turn",
    "slip left": "slip",
    "slip right": "slip",
    "loop": "loop",
}
_FACING = {
    "straight": "keeps its facing (6.2.1)",
    "turn left": "turns one hexside left (6.2.2)",
    "turn right": "turns one hexside right (6.2.2)",
    "hard turn left": "turns two hexsides left (6.2.3)",
    "hard turn right": "turns two hexsides right (6.2.3)",
    "slip left": "moves one row left and back one hex (6.2.4)",
    "slip right": "moves one row right and back one hex (6.2.4)",
    "loop": "turns three hexsides (6.2.5)",
}


def speed_chart(a: AircraftState) -> SpeedChart:
    """The Normal or Damaged Engine part of the Speed Chart (5.0)."""
    c = card_of(a)
    return c.speeds.damaged if engine_damaged(a) else c.speeds.normal


def condition_max(a: AircraftState, diving: bool = False) -> int:
    """The maximum speed for the aircraft's condition: diving, loaded or level (5.0, 6.5)."""
    ch = speed_chart(a)
    if diving:
        return ch.max_dive
    return ch.max_loaded if is_loaded(a) else ch.max_level


def moves_at(speed: int, impulse: int) -> bool:
    """6.0 Movement Impulse Chart: does an aircraft at ``speed`` move in ``impulse``?"""
    return max(speed, 1) in tables().impulse_chart.speeds[impulse]


def control_check_for(a: AircraftState, kind: str) -> str | None:
    """6.2.3, 6.2.5, 6.4.1, Critical Hit #4: the loss-of-control check a completed maneuver
    needs, as (cause) or None. A wounded pilot checks as Inexperienced."""
    pilot = pilot_of(a)
    if Status.WOUNDED in a.status and pilot not in ("green", "inexperienced"):
        pilot = "inexperienced"
    p = tables().pilot
    if kind == "hard_turn" and pilot in p.control_hard_turn:
        return "hard turn"
    if kind == "loop" and (pilot in p.control_loop or Status.WOUNDED in a.status):
        return "loop"
    return None


def move_events(engagement: Engagement, a: AircraftState, now: int) -> list[Event]:
    """6.0, 6.2, 6.3: one hex of movement for an aircraft the chart moves this impulse."""
    card = card_of(a)
    values: dict[str, Any] = {"moved_at": now}
    speed = state_of(a).speed
    altitude = state_of(a).altitude
    st = state_of(a)
    checks = [c.model_dump() for c in st.control_checks]
    m = st.maneuver or Marker(
        choice="straight", kind="straight", label="straight", hexes=1, levels=0
    )
    m = m.model_copy(update={"moved": m.moved + 1})
    if m.levels_done < m.levels:
        m = m.model_copy(update={"levels_done": m.levels_done + 1})
        if m.vertical == "climb":
            altitude += 1
            speed += card.speeds.climb
            values["climbed_at"] = now
        else:
            altitude -= 1
            cap = speed_chart(a).max_dive
            speed = speed + card.speeds.dive if speed + card.speeds.dive <= cap else max(speed, cap)
            values["dove_at"] = now
    if m.moved >= max(m.hexes, m.levels):
        speed -= card.maneuvers[m.kind].speed_loss if m.kind in card.maneuvers else 0
        values["last_maneuver"] = m.kind
        values["last_facing"] = _FACING[m.choice]
        values["completed_at"] = now
        cause = control_check_for(a, m.kind)
        if cause:
            checks.append({"cause": cause, "below_zero": 0})
        values["maneuver"] = None
    else:
        values["maneuver"] = m.model_dump()
    if speed <= 0:
        checks.append({"cause": "speed", "below_zero": -speed})
    values.update(speed=speed, altitude=altitude, control_checks=checks)
    return [AttributesSet(aircraft=a.id, values=values)]


def movement_segment(engagement: Engagement, impulse: int, now: int) -> list[Event]:
    """Movement Segment (3.0 a, 6.0): every aircraft whose speed the chart marks moves one hex;
    out-of-control ones stay and check recovery instead (6.4.2)."""
    events: list[Event] = []
    for a in engagement.aircraft.values():
        if not a.in_play or state_of(a).moved_at == now or state_of(a).recovery_due_at == now:
            continue
        if not moves_at(state_of(a).speed, impulse):
            continue
        if Status.OUT_OF_CONTROL in a.status:
            events.append(AttributesSet(aircraft=a.id, values={"recovery_due_at": now}))
        else:
            events += move_events(engagement, a, now)
    return events


# --- 5.0 Set speed ----------------------------------------------------------------------------


class SetSpeedInputs(AircraftInputs):
    speed: int = Field(ge=1, le=10, title="New speed")


class SetSpeed(Calculator):
    """5.0 Setting speed: change by at most the Speed Chart's amount (Normal or Damaged
    Engine), never above the level or loaded maximum. Both limits are counted from the current
    speed, also for an aircraft a dive left above its maximum (at 9, level maximum 8, change 2:
    7 or 8). Only when the chart cannot bring it down to the maximum may it set the maximum
    itself (5.0 forbids exceeding it and says nothing more)."""

    id = "set_speed"
    title = "Set speed"
    rule = "5.0"
    Inputs = SetSpeedInputs
    suggested = frozenset({"speed"})

    def prefill_one(self, engagement: Engagement, a: AircraftState) -> dict[str, Any]:
        """The aircraft's current speed (issue 29): the new speed is typed over it, and
        Enter keeps it."""
        return {"speed": state_of(a).speed} if state_of(a).speed else {}

    def compute(self, inputs: SetSpeedInputs, draft: Draft) -> Decision:
        if inputs.aircraft:
            a = draft.get(inputs.aircraft)
            in_play(a)
            if draft.engagement.step != 0:
                raise RuleViolation("speed is set in the Set Speed Phase (3.0, 5.0)")
            if Status.OUT_OF_CONTROL in a.status:
                raise RuleViolation(f"{a.name} is out of control and keeps its speed (6.4.2)")
            ch = speed_chart(a)
            top = condition_max(a)
            current = state_of(a).speed
            which = "Damaged" if engine_damaged(a) else "Normal"
            if inputs.speed > top:
                cond = "loaded" if is_loaded(a) else "level"
                raise RuleViolation(
                    f"{a.name}: speed {inputs.speed} is above its {cond} maximum {top} (5.0)"
                )
            low = min(current - ch.adjust, top)
            high = min(current + ch.adjust, top)
            if not low <= inputs.speed <= high:
                span = f"{max(low, 1)}-{high}" if low < high else f"only {high}"
                raise RuleViolation(
                    f"{a.name}: from speed {current} the {which} Engine chart allows {span} (5.0)"
                )
            draft.emit(AttributesSet(aircraft=a.id, values={"speed": inputs.speed}))
        return Decision(f"speed {inputs.speed}", f"speed set to {inputs.speed} (5.0)")


# --- 6.5 Afterburners -------------------------------------------------------------------------


class Afterburner(Calculator):
    """6.5 Afterburner: one use from the ledger adds the card's speed, capped at the maximum
    for the condition (level, loaded or diving), the excess lost; not with a damaged engine or
    a fire."""

    id = "afterburner"
    title = "Afterburner"
    rule = "6.5"
    Inputs = AircraftInputs

    def compute(self, inputs: AircraftInputs, draft: Draft) -> Decision:
        a = subject(draft, inputs.aircraft, "the aircraft using its afterburner")
        if a is None:
            return Decision("afterburner", "afterburner: speed added (6.5)")
        in_play(a)
        card = card_of(a)
        if card.afterburner_uses is None:
            raise RuleViolation(f"{a.name} has no afterburner (6.5)")
        if engine_damaged(a) or Status.ON_FIRE in a.status:
            raise RuleViolation(f"{a.name} has a damaged engine or a fire: no afterburner (6.5)")
        now = now_impulse(draft.engagement)
        if now is not None and state_of(a).afterburner_at == now:
            raise RuleViolation(f"{a.name} has already used its afterburner this impulse")
        marker = state_of(a).maneuver
        diving = state_of(a).dove_at == now or (
            marker is not None and marker.vertical == "dive" and marker.levels_done < marker.levels
        )
        top = condition_max(a, diving)
        speed = state_of(a).speed
        terms = (
            Term("speed", speed, "6.5", "speed with the afterburner"),
            Term(
                "afterburner (card)", card.speeds.afterburner, "6.5", "speed with the afterburner"
            ),
        )
        new = max(speed, min(total(terms), top))
        lost = total(terms) - new
        draft.emit(
            LedgerChanged(
                aircraft=a.id, ledger=Ledger.AFTERBURNER, delta=Fraction(-1), reason="6.5"
            ),
            AttributesSet(aircraft=a.id, values={"speed": new, "afterburner_at": now}),
        )
        extra = f", so {new}: {lost} lost above the maximum {top}" if lost else ""
        return Decision(
            "afterburner",
            f"afterburner: speed {summed(terms)}{extra} (6.5)",
            modifiers=terms,
        )


# --- 6.1-6.3 Maneuver markers -----------------------------------------------------------------


def marker_distance(a: AircraftState, choice: str, variants: frozenset[str]) -> int:
    """6.1-6.2, 11.0: how many hexes ahead the marker of ``choice`` goes for this aircraft now
    (before any climb or dive): the sum of ``marker_terms``."""
    return total(marker_terms(a, choice, chart_hexes(a, choice), variants))


def chart_hexes(a: AircraftState, choice: str) -> int:
    """6.1-6.2, 11.0: the Maneuver Chart's hexes for ``choice`` at this aircraft's speed (1 for
    a Straight); ``RuleViolation`` for a maneuver it may not fly (loaded, wounded or
    structurally damaged: no Hard Turns or Loops; none the chart gives at this speed)."""
    kind = _KIND[choice]
    card = card_of(a)
    speed = state_of(a).speed
    if kind in ("hard_turn", "loop"):
        if is_loaded(a):
            raise RuleViolation(f"{a.name} is loaded: no Hard Turns or Loops (11.0)")
        if Status.WOUNDED in a.status or STRUCTURAL in a.status:
            raise RuleViolation(
                f"{a.name}: after a Pilot Wounded or Structural Damage critical hit, no "
                "more Hard Turns or Loops (Critical Hit Table)"
            )
    row = card.maneuvers.get(kind)  # type: ignore[call-overload]
    hexes = 1 if kind == "straight" else (row.at(speed) if row is not None else None)
    if hexes is None:
        raise RuleViolation(f"{card.name} cannot fly a {choice} at speed {speed} (6.1)")
    return int(hexes)


def marker_terms(
    a: AircraftState, choice: str, chart: int, variants: frozenset[str], levels: int = 0
) -> list[Term]:
    """The hexes ahead of the marker, term by term (6.1, 6.3, 11.0): the Maneuver Chart's
    number (``chart``; 1 for a Straight), +1 hex loaded ("all other maneuvers have one hex
    added"), -1 hex for each level climbed or dived ("subtracting 1 hex from the placement
    distance for each level")."""
    die = "maneuver marker: hexes ahead"
    kind = _KIND[choice]
    what = "Straight" if kind == "straight" else f"Maneuver Chart, {choice}"
    out = [Term(what, chart, "6.1", die)]
    if is_loaded(a) and not (kind == "straight" and "loaded_straight_one_hex" in variants):
        out.append(Term("loaded", 1, "11.0", die))
    if levels:
        out.append(Term(f"{levels} level(s) of climb or dive", -levels, "6.3", die))
    return out


#: 6.2: the facing change when the marker is reached (hexsides of 60 degrees, left positive)
_TURN = {
    "straight": 0,
    "turn left": 60,
    "turn right": -60,
    "hard turn left": 120,
    "hard turn right": -120,
    "slip left": 0,
    "slip right": 0,
    "loop": 180,
}


def marker_ends(
    a: AircraftState, x: float, y: float, facing: int, variants: frozenset[str]
) -> list[tuple[str, float, float, int]]:
    """6.2: for each maneuver this aircraft may fly now from hex ``(x, y)``, where it stands
    once it reaches the marker: the marker hex (a slip then moves one row left or right and
    back one hex, 6.2.4) and its facing after the turn (one, two or three hexsides)."""
    out = []
    for choice in _KIND:
        try:
            hexes = marker_distance(a, choice, variants)
        except RuleViolation:
            continue
        mx, my = x, y
        for _ in range(hexes):
            mx, my = hexgrid.step(mx, my, facing)
        if choice.startswith("slip"):
            # one row to the side and back one hex: the neighbour 120 degrees off the facing
            side = 120 if choice == "slip left" else -120
            mx, my = hexgrid.step(mx, my, int(hexgrid.normalize(facing + side)))
        out.append((choice, mx, my, int(hexgrid.normalize(facing + _TURN[choice]))))
    return out


class ManeuverInputs(AircraftInputs):
    maneuver: ManeuverChoice = Field("straight", title="Maneuver")
    climb: int = Field(0, ge=0, title="Levels to climb")
    dive: int = Field(0, ge=0, title="Levels to dive")


class MarkManeuver(Calculator):
    """6.1-6.3 Maneuver marking: the marker goes the Maneuver Chart's hexes ahead (+1 loaded,
    11.0), less one per climb/dive level; levels are limited by that distance; loaded, wounded
    or structurally damaged aircraft fly no Hard Turns or Loops."""

    id = "mark_maneuver"
    title = "Place maneuver marker"
    rule = "6.1"
    Inputs = ManeuverInputs

    def compute(self, inputs: ManeuverInputs, draft: Draft) -> Decision:
        if inputs.climb and inputs.dive:
            raise RuleViolation("an aircraft may not climb and dive during the same maneuver (6.3)")
        a = subject(draft, inputs.aircraft, "the aircraft placing a maneuver marker")
        if a is None:
            return Decision(inputs.maneuver, f"{inputs.maneuver} marker placed (6.1, 6.3)")
        in_play(a)
        if Status.OUT_OF_CONTROL in a.status:
            raise RuleViolation(f"{a.name} is out of control (6.4.2)")
        if state_of(a).maneuver is not None:
            raise RuleViolation(f"{a.name} already has a maneuver marker on the map (6.1)")
        kind = _KIND[inputs.maneuver]
        chart = chart_hexes(a, inputs.maneuver)
        hexes = total(marker_terms(a, inputs.maneuver, chart, self.variants))
        levels = inputs.climb or inputs.dive
        terms = marker_terms(a, inputs.maneuver, chart, self.variants, levels)
        if levels > hexes:
            raise RuleViolation(
                f"at most {hexes} level(s) of climb or dive in a {hexes}-hex maneuver (6.3)"
            )
        if inputs.dive > state_of(a).altitude:
            raise RuleViolation(
                f"{a.name} is at altitude {state_of(a).altitude}: cannot dive {inputs.dive}"
            )
        vertical = "climb" if inputs.climb else "dive" if inputs.dive else None
        marker = {
            "choice": inputs.maneuver,
            "kind": kind,
            "label": inputs.maneuver,
            "hexes": hexes - levels,
            "levels": levels,
            "vertical": vertical,
            "moved": 0,
            "levels_done": 0,
        }
        draft.emit(AttributesSet(aircraft=a.id, values={"maneuver": marker}))
        extra = f", {vertical} {levels}" if levels else ""
        return Decision(
            inputs.maneuver,
            f"{a.name}: {inputs.maneuver} marker {summed(terms)} hex(es) ahead{extra} (6.1, 6.3)",
            modifiers=tuple(terms),
        )


# --- 6.1.1 Tailing advantage, 11.0 jettison ---------------------------------------------------


class TailingInputs(ProcedureInputs):
    tailing: bool = Field(True, title="In the hex directly behind and facing the target")


class Tailing(Calculator):
    """6.1.1 Tailing advantage: an aircraft directly behind and facing an enemy places its
    maneuver marker last; an aircraft so tailed may not attempt to break off (10.0)."""

    id = "tailing"
    title = "Tailing position"
    rule = "6.1.1"
    Inputs = TailingInputs

    def compute(self, inputs: TailingInputs, draft: Draft) -> Decision:
        label = "tailing" if inputs.tailing else "not tailing"
        if not (inputs.attacker and inputs.target):
            if draft.engagement.aircraft:
                raise RuleViolation("choose the tailing aircraft (attacker) and the one tailed")
            return Decision(label, f"{label} (6.1.1)")  # a what-if
        a = draft.get(inputs.attacker)
        t = draft.get(inputs.target)
        if a.side == t.side:
            raise RuleViolation("tailing advantage is over an enemy aircraft (6.1.1)")
        draft.emit(
            AttributesSet(aircraft=a.id, values={"tailing": t.id if inputs.tailing else None})
        )
        return Decision(label, f"{a.name} {label} {t.name} (6.1.1)")


class Jettison(Calculator):
    """11.0: air-to-ground ordnance and full tanks may be jettisoned in a Maneuver Marking
    Phase, ending the loaded restrictions they caused."""

    id = "jettison"
    title = "Jettison stores"
    rule = "11.0"
    Inputs = AircraftInputs

    def compute(self, inputs: AircraftInputs, draft: Draft) -> Decision:
        a = subject(draft, inputs.aircraft, "the aircraft jettisoning its stores")
        if a is None:
            return Decision("jettisoned", "stores jettisoned (11.0)")
        if not state_of(a).stores:
            raise RuleViolation(f"{a.name} carries no stores to jettison (11.0)")
        if clock_of(draft.engagement.step)[1] != "i":
            raise RuleViolation("stores are jettisoned in a Maneuver Marking Segment (11.0)")
        draft.emit(AttributesSet(aircraft=a.id, values={"stores": False}))
        return Decision("jettisoned", f"{a.name} jettisons its stores (11.0)")
