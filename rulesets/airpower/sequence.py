"""Air Power's game turn as the desk walks it: the phases the rules text names, and who acts
in each ("who acts now", issue 14), and what a new game turn does by itself (recovery
periods carry over, SSGT is lost)."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.engagement import AircraftState, Engagement
from app.core.events import AttributesSet, Event
from app.core.ruleset import ActingLine, Step
from rulesets.airpower.attacks import GUN_RULE
from rulesets.airpower.state import Ledger, State

GENIE_RULE = "Air Power, Air-to-Air Nuclear Rockets"

STEPS = (
    Step(
        "Flight",
        "Flight phase",
        "Aircraft fly FP by FP; gun and rocket attacks after an FP (record each "
        "aircraft's FPs for recovery periods and SSGT).",
        GUN_RULE,
    ),
    Step(
        "Air-to-air missile launch",
        "Air-to-air missile launch phase",
        "Genie launch rolls.",
        f"{GENIE_RULE}: Genie Launch",
    ),
    Step(
        "Genie",
        "Genie scatter and detonation",
        "After the Genie and all aircraft have moved: scatter, then the detonation roll.",
        GENIE_RULE,
    ),
    Step(
        "Administration",
        "Aircraft administrative phase",
        "New speeds for next game turn.",
        "Air Power, Angle-Off",
    ),
)


def acting(engagement: Engagement) -> Sequence[ActingLine]:
    """Who acts in the current phase, each line opening its procedure:

    - Flight: hits waiting for their damage roll first (rule "Aircraft Damage Resolution"),
      then every aircraft in play records its FPs (rule "Recovery Periods"), each one with a
      gun followed by its gun attack after an FP (rule "Air-to-Air Gun Combat": the attack
      is a line of its own, one key from the Turn panel, issue 29);
    - missile launch: aircraft with a Genie left may roll its launch (rule "Genie Launch");
    - Genie: each Genie launched this turn flies, scatters, then detonates;
    - Administration: every aircraft's speed for the next game turn (no roll).
    """
    planes = [a for a in engagement.aircraft.values() if a.in_play]
    step = engagement.step
    if step == 0:
        owed = [
            ActingLine(
                a.id,
                f"damage roll owed: {len(_state(a).hits_to_resolve)} hit(s)",
                procedure="damage",
            )
            for a in planes
            if _state(a).hits_to_resolve
        ]
        lines: list[ActingLine] = []
        for a in planes:
            lines.append(
                ActingLine(
                    a.id,
                    "flies its move FP by FP; gun or rocket attacks after an FP",
                    procedure="flight",
                )
            )
            if "gun_ammunition" in a.ledgers:
                lines.append(
                    ActingLine(
                        a.id,
                        "may make a gun attack after an FP (Gun Combat)",
                        procedure="gun_attack",
                    )
                )
        return owed + lines
    if step == 1:
        return [
            ActingLine(
                a.id, "may launch a Genie (radar lock-on, wings level)", procedure="genie_launch"
            )
            for a in planes
            if a.ledgers.get(Ledger.GENIES) is not None and a.ledgers[Ledger.GENIES].value > 0
        ]
    if step == 2:
        launchers = [a for a in planes if _state(a).genie_launched_turn == engagement.turn]
        return [
            line
            for a in launchers
            for line in (
                ActingLine(
                    a.id,
                    "its Genie flies straight ahead (VFPs as the launcher's)",
                    procedure="genie_flight",
                ),
                ActingLine(a.id, "its Genie scatters, then detonates", procedure="genie_scatter"),
            )
        ]
    return [ActingLine(a.id, "sets its speed for the next game turn") for a in planes]


def on_clock(engagement: Engagement, turn: int, step: int) -> list[Event]:
    """A new game turn: this turn's FPs become last turn's (recovery periods carry over) and
    SSGT is lost ("Any SSGT modifiers and accumulated FPs are lost at the end of a game
    turn")."""
    if not (turn == engagement.turn + 1 and step == 0):
        return []
    out: list[Event] = []
    for a in engagement.aircraft.values():
        state = _state(a)
        out.append(
            AttributesSet(
                aircraft=a.id,
                values={
                    "last_turn": list(state.this_turn),
                    "last_speed": state.speed,
                    "this_turn": [],
                    "ssgt_fps": 0,
                    "tracking_since": None,
                    "ssgt_from": 0,
                },
            )
        )
    return out


def _state(a: AircraftState) -> State:
    return a.typed(State, "attributes")
