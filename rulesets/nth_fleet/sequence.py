"""Nth Fleet's air phases as the desk walks them (1.1, 2.1-2.14) and who acts in each."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import ActingLine, Step
from rulesets.nth_fleet.displays import tracks_of
from rulesets.nth_fleet.missions import effectiveness_kind
from rulesets.nth_fleet.state import state_of

#: the air phases the text names; the rest of the turn is the Fleet series' (1.1)
STEPS: tuple[Step, ...] = (
    Step(
        "Strategic air phase",
        "Strategic air phase",
        "Strategic non-INT missions under 4 air points roll for effectiveness (2.3); "
        "combat aborts RCN and tactical coordination points (2.14).",
        "Nth Fleet 2.3, 2.14",
    ),
    Step(
        "Activation phase",
        "Activation phase",
        "Strikes fly with their escorts; combat aborts strike points (2.13).",
        "Nth Fleet 2.2, 2.13",
    ),
    Step(
        "Return to base phase",
        "Return to base phase",
        "Missions aloft, ineffective ones too, land on the used track (2.1, 2.3).",
        "Nth Fleet 2.1, 2.3",
    ),
)


def acting(engagement: Engagement) -> list[ActingLine]:
    """Who acts in each air phase (issue 14), each line opening its procedure: counters
    with unused points may launch missions (2.2: strategic ones in the strategic phase,
    strikes, escorts and CAP at activation); aloft missions roll for effectiveness (2.3);
    when both sides have points aloft or on CAP at activation, a side line opens the air
    combat (2.9-2.12); at return to base every mission aloft lands (2.1)."""
    steps = STEPS
    if not 0 <= engagement.step < len(steps):
        return []
    phase = steps[engagement.step].phase
    counters = list(engagement.aircraft.values())
    if phase == "Return to base phase":
        return [
            ActingLine(a.id, "returns to base (2.1)", procedure="return_to_base")
            for a in counters
            if tracks_of(a).aloft
        ]
    out: list[ActingLine] = []
    strategic = phase == "Strategic air phase"
    what = (
        "may fly a strategic mission (2.2)"
        if strategic
        else ("may launch a strike, escort or CAP (2.2)")
    )
    out += [
        ActingLine(a.id, what, procedure="launch_mission") for a in counters if tracks_of(a).unused
    ]
    out += [
        ActingLine(a.id, "rolls for mission effectiveness (2.3)", procedure="mission_effectiveness")
        for a in counters
        if state_of(a).tracks.aloft
        and state_of(a).effective is None
        and effectiveness_kind(state_of(a).mission)
    ]
    if not strategic:
        combat = air_combat_line(engagement)
        if combat is not None:
            out.append(combat)
    return out


def _on_cap(a: AircraftState) -> bool:
    """The counter fights as a CAP: points on CAP, none aloft (2.11; ``air_combat``'s reading)."""
    t = tracks_of(a)
    return bool(t.cap) and not t.aloft


def air_combat_line(engagement: Engagement) -> ActingLine | None:
    """The activation phase's air combat (2.9-2.12), as one line naming a counter of each
    force (issue 28): the first side with points aloft attacks the enemy's CAP (2.11), or,
    with no enemy CAP, the enemy's points aloft. Each force opens with the counters that can
    fight where its lead fights (issue 43: the line resolves as offered). Forces that are
    only on CAP, each over its own base, do not meet: no line."""
    counters = [a for a in engagement.aircraft.values() if a.in_play]
    for side in engagement.sides:
        lead = next((a for a in counters if a.side == side and tracks_of(a).aloft), None)
        if lead is None:
            continue
        enemies = [a for a in counters if a.side != side]
        enemy = next((a for a in enemies if _on_cap(a)), None) or next(
            (a for a in enemies if tracks_of(a).aloft), None
        )
        if enemy is not None:
            return ActingLine(
                lead.id,
                f"{lead.side}: air combat against {enemy.side}'s forces (2.9-2.12)",
                procedure="air_combat",
                other=enemy.id,
            )
    return None
