"""Advanced Air Force's Game-Turn as the desk walks it (rule 2): movement, advantage, fire; who
acts in each step, and what a new Game-Turn does by itself (advantages not repeated lapse)."""

from __future__ import annotations

from app.core.engagement import Engagement
from app.core.events import Event
from app.core.ruleset import ActingLine, Step

from . import advantage_state
from .advantage import expire_advantages

STEPS: tuple[Step, ...] = (
    Step(
        "Movement",
        "Plot and move",
        "Unaffected aircraft write their movement secretly, then Disadvantaged aircraft "
        "move, then Advantaged aircraft plot.",
        "rule 2",
    ),
    Step(
        "Advantage",
        "Advantage determination",
        "Pursuers within 1200 ft declare or repeat their Advantage.",
        "rules 2, 3",
    ),
    Step(
        "Fire",
        "Fire resolution",
        "Fixed guns once and flexible guns once per target per Game-Turn.",
        "rules 12-15",
    ),
)


def on_clock(engagement: Engagement, turn: int, step: int) -> list[Event]:
    """A new Game-Turn drops the Advantages not repeated on the Game-Turn before (rule 2)."""
    return expire_advantages(engagement, turn)


def acting(engagement: Engagement) -> list[ActingLine]:
    """Who acts in each step (issue 14), each line opening its procedure:

    - Movement (rule 2): unaffected aircraft write their movement secretly, then the
      Disadvantaged move, then the Advantaged plot; each works out its airspeed;
    - Advantage (rules 2, 3): an Advantaged aircraft repeats its Advantage over its target,
      any other pursuer may declare one;
    - Fire (rules 12-15): the Advantaged fire at their targets first, then the rest.
    """
    adv = advantage_state.advantages(engagement)
    down = advantage_state.disadvantaged(engagement)
    live = [a for a in engagement.aircraft.values() if a.in_play]
    names = {a.id: a.name for a in engagement.aircraft.values()}
    if engagement.step == 0:
        first = [
            ActingLine(a.id, "writes its movement secretly (airspeed)", procedure="speed_change")
            for a in live
            if a.id not in set(adv) | down
        ]
        second = [
            ActingLine(a.id, "moves first: Disadvantaged (airspeed)", procedure="speed_change")
            for a in live
            if a.id in down and a.id not in adv
        ]
        third = [
            ActingLine(a.id, "plots last: Advantaged (airspeed)", procedure="speed_change")
            for a in live
            if a.id in adv
        ]
        return [*first, *second, *third]
    if engagement.step == 1:
        held: list[ActingLine] = [
            ActingLine(
                a.id,
                f"repeats its Advantage over {names.get(adv[a.id].target, '?')}",
                procedure="declare_advantage",
                other=adv[a.id].target,
            )
            for a in live
            if a.id in adv
        ]
        return held + [
            ActingLine(
                a.id,
                "may declare an Advantage (pursuer within 1200 ft)",
                procedure="declare_advantage",
            )
            for a in live
            if a.id not in adv
        ]
    fire: list[ActingLine] = [
        ActingLine(
            a.id,
            f"fires at {names.get(adv[a.id].target, '?')}: Advantaged",
            procedure="gun_fire",
            other=adv[a.id].target,
        )
        for a in live
        if a.id in adv
    ]
    return fire + [
        ActingLine(a.id, "may fire", procedure="gun_fire") for a in live if a.id not in adv
    ]
