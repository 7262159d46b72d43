"""Sequence of play (3.0): Set Speed, Break-Off Check, then 10 impulses of segments a-j; who
acts in each step, and what happens by itself (movement by the Movement Impulse Chart, 6.0)."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement, Status
from app.core.events import Event
from app.core.ruleset import ActingLine, Step
from rulesets.phantoms.card import card_of
from rulesets.phantoms.clock import IMPULSES, SEGMENTS, absolute_impulse, clock_of
from rulesets.phantoms.damage import can_roll_critical
from rulesets.phantoms.movement import movement_segment, moves_at
from rulesets.phantoms.state import Ledger, engine_damaged, in_flight, state_of

_TEXT = {
    "a": "Aircraft at the speeds marked X move one hex; out-of-control ones check recovery.",
    "b": "Aircraft on fire check whether the fire goes out (Critical Hit #8).",
    "c": "Afterburner use is declared, the marker holder first.",
    "d": "Optional rule: aircraft attempt to spot enemy aircraft.",
    "e": "Missiles due this impulse check for impact; destroyed aircraft check ejection.",
    "f": "Aircraft that moved may fire guns, the marker holder first; damage applies at once.",
    "g": "Locked aircraft may try to break lock; missiles are launched, the marker holder first.",
    "h": "Aircraft attempt radar lock-on.",
    "i": "Aircraft without a marker place one: marker holder, other side, then tailing aircraft.",
    "j": "The impulse ends; after impulse 10 a new turn starts.",
}

STEPS: tuple[Step, ...] = (
    Step(
        "Set speed", "Set speed", "Each aircraft adjusts its speed within its Speed Chart.", "5.0"
    ),
    Step("Break-off", "Break-off check", "Aircraft not tailed may attempt to break off.", "10.0"),
    *(
        Step("Impulse", title, _TEXT[letter], rule, impulse=imp, segment=letter)
        for imp in range(1, IMPULSES + 1)
        for letter, title, rule in SEGMENTS
    ),
)


def _sides(engagement: Engagement) -> list[str]:
    """The sides, the Initiative Marker holder first (4.0)."""
    sides = list(engagement.sides)
    marker = engagement.initiative_marker
    if marker in sides:
        sides.remove(marker)
        sides.insert(0, marker)
    return sides


def _by_marker(engagement: Engagement) -> list[AircraftState]:
    return [a for s in _sides(engagement) for a in engagement.on_side(s) if a.in_play]


def acting(engagement: Engagement, variants: frozenset[str]) -> list[ActingLine]:
    """Who acts in the current step, in order."""
    impulse, seg = clock_of(engagement.step)
    planes = _by_marker(engagement)
    out: list[ActingLine] = []
    for a in planes:  # things owed from earlier steps come first
        due = state_of(a).criticals_due
        if due:
            out.append(
                ActingLine(a.id, f"rolls {due} critical hit(s) (8.1)", procedure="critical_hit")
            )
        if state_of(a).control_checks:
            out.append(
                ActingLine(a.id, "checks loss of control (6.4.1)", procedure="loss_of_control")
            )
    for a in engagement.aircraft.values():
        due = state_of(a).criticals_due
        if due and not a.in_play and can_roll_critical(a, variants):
            out.append(
                ActingLine(
                    a.id,
                    f"rolls {due} critical hit(s) after its loss (8.1)",
                    procedure="critical_hit",
                )
            )
            continue  # the ejection comes after them (reading criticals_after_loss)
        lost = Status.DESTROYED in a.status and not state_of(a).ejection_rolled
        if lost and not a.status & {Status.PILOT_KILLED, Status.EJECTED}:
            out.append(ActingLine(a.id, "may attempt to eject (8.2)", procedure="ejection"))
    if impulse is None:
        if engagement.step == 0:
            return out + [
                ActingLine(a.id, "sets speed (5.0)", procedure="set_speed") for a in planes
            ]
        tailed = {state_of(e).tailing for e in planes}
        return out + [
            ActingLine(a.id, "may attempt to break off (10.0)", procedure="break_off")
            for a in planes
            if a.id not in tailed
        ]
    now = absolute_impulse(engagement.turn, impulse)
    if seg == "a":
        for a in planes:
            if moves_at(state_of(a).speed, impulse):
                ooc = Status.OUT_OF_CONTROL in a.status
                if ooc:
                    out.append(ActingLine(a.id, "checks recovery (6.4.2)", procedure="recovery"))
                else:
                    out.append(ActingLine(a.id, "moves one hex (6.0)"))
    elif seg == "b":
        out += [
            ActingLine(a.id, "checks its fire (9.0)", procedure="fire_check")
            for a in planes
            if Status.ON_FIRE in a.status
        ]
    elif seg == "c":
        out += [
            ActingLine(a.id, "may use its afterburner (6.5)", procedure="afterburner")
            for a in planes
            if a.ledgers.get(Ledger.AFTERBURNER)
            and a.ledgers[Ledger.AFTERBURNER].value > 0
            and not engine_damaged(a)
            and Status.ON_FIRE not in a.status
        ]
    elif seg == "d":
        if "spotting" in variants:
            out += [
                ActingLine(a.id, "may attempt to spot (13.0)", procedure="radar_spot")
                for a in planes
            ]
    elif seg == "e":
        for m in in_flight(engagement):
            if m.impact_at <= now:
                target = engagement.aircraft.get(m.target)
                launcher = engagement.aircraft.get(m.attacker)
                pid, why = "missile_attack", "7.1.3"
                if m.out_of_range:
                    pid, why = "missile_lost", "fired out of range: automatic miss, 7.1.1b"
                elif (
                    m.guidance == "radar"
                    and not m.active
                    and launcher is not None
                    and Status.BROKEN_OFF in launcher.status
                ):
                    pid, why = "missile_lost", "its launcher broke contact: automatic miss, 7.1.4"
                if target is None:  # removed from the roster: the line still says what flew
                    gone = engagement.removed.get(m.target, "an aircraft no longer in play")
                    out.append(
                        ActingLine(m.attacker, f"{m.name} impact on {gone} ({why})", procedure=pid)
                    )
                else:
                    what = f"{m.name} impact on {target.name} ({why})"
                    out.append(ActingLine(m.attacker, what, procedure=pid, other=target.id))
    elif seg == "f":
        out += [
            ActingLine(a.id, "may fire guns (7.2)", procedure="gun_attack")
            for a in planes
            if state_of(a).moved_at == now
            and card_of(a).gun_value is not None
            and Status.OUT_OF_CONTROL not in a.status
        ]
    elif seg == "g":
        out += [
            ActingLine(
                a.id,
                "may break lock or launch a missile (7.1.1c, 7.1.2)",
                procedure="missile_launch",
            )
            for a in planes
            if Status.OUT_OF_CONTROL not in a.status
        ]
    elif seg == "h":
        out += [
            ActingLine(a.id, "may attempt radar lock-on (7.1.1b)", procedure="radar_lock")
            for a in planes
            if card_of(a).radar is not None and Status.OUT_OF_CONTROL not in a.status
        ]
    elif seg == "i":
        need = [
            a
            for a in planes
            if state_of(a).maneuver is None and Status.OUT_OF_CONTROL not in a.status
        ]
        plain = [a for a in need if not state_of(a).tailing]
        tailing = [a for a in need if state_of(a).tailing]
        out += [
            ActingLine(a.id, "places its maneuver marker (6.1)", procedure="mark_maneuver")
            for a in plain
        ]
        out += [
            ActingLine(
                a.id, "places its maneuver marker last: tailing (6.1.1)", procedure="mark_maneuver"
            )
            for a in tailing
        ]
    return out


def on_clock(engagement: Engagement, turn: int, step: int) -> list[Event]:
    """Movement Segment: move every aircraft the Movement Impulse Chart moves (6.0)."""
    impulse, seg = clock_of(step)
    if impulse is None or seg != "a":
        return []
    return movement_segment(engagement, impulse, absolute_impulse(turn, impulse))
