"""What the desk's Displays panel shows for Phantoms: missiles in flight with the impulse of
their impact (7.1.2, 7.1.3), critical-hit rolls owed (8.1), and losses with kill credits (6.4.3).
"""

from __future__ import annotations

from app.core.engagement import Engagement
from app.core.ruleset import CardBlock, KeyValues, Lines, Table
from rulesets.phantoms.clock import IMPULSES
from rulesets.phantoms.state import game_of, state_of


def _name(engagement: Engagement, aircraft_id: str) -> str:
    a = engagement.aircraft.get(aircraft_id)
    return a.name if a is not None else aircraft_id


def _when(absolute: int) -> str:
    turn, impulse = divmod(absolute - 1, IMPULSES)
    return f"turn {turn + 1}, impulse {impulse + 1}"


def displays(engagement: Engagement) -> list[CardBlock]:
    out: list[CardBlock] = []
    game = game_of(engagement)
    flying = game.missiles_in_flight
    out.append(
        Table(
            "Missiles in flight (7.1.2, 7.1.3)",
            ("Missile", "From", "At", "Impact"),
            tuple(
                (
                    m.name,
                    _name(engagement, m.attacker),
                    _name(engagement, m.target),
                    _when(m.impact_at),
                )
                for m in flying
            ),
        )
        if flying
        else Lines("Missiles in flight (7.1.2, 7.1.3)", ("none",))
    )
    owed = tuple(
        (a.name, str(state_of(a).criticals_due))
        for a in engagement.aircraft.values()
        if state_of(a).criticals_due
    )
    out.append(KeyValues("Critical-hit rolls owed (8.1)", owed or (("none", ""),)))
    lines = [f"{side}: {n} kill(s)" for side, n in game.kills.items()]
    lines += [f"{_name(engagement, x.aircraft)} lost ({x.cause})" for x in game.losses]
    out.append(Lines("Losses and kills (6.4.3)", tuple(lines) or ("none",)))
    return out
