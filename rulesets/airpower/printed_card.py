"""The printed Air Power control card: the combat characteristics of the aircraft data card, its
ledgers and its critical hits."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import CardSpec, KeyValues, Ruleset, critical_lines, ledger_tracks
from rulesets.airpower.card import Card, ground_role_strength
from rulesets.airpower.state import State


def card_spec(rs: Ruleset, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
    """The printed control card: the combat characteristics, the ledgers, the critical hits."""
    c = aircraft.typed(Card, "card")
    state = aircraft.typed(State, "attributes")
    gs = c.gunsight
    items = [
        ("Size", f"{c.size:+d}"),
        ("Speed", str(state.speed if state.speed is not None else c.speed)),
        ("Altitude", str(state.altitude)),
    ]
    if c.gun:
        items += [
            ("Gun", c.gun.name),
            ("Hit (range 0/1/2)", "/".join(str(h) for h in c.gun.hit_numbers)),
            ("Attack rating", str(c.gun.attack_rating)),
        ]
    if c.radar_ranging:
        items.append(("Radar ranging", f"{c.radar_ranging}, lock-on {c.lock_on}"))
    items.append(("Gunsight TT/HT/BT", f"{gs.TT}/{gs.HT}/{gs.BT}"))
    if c.rocket_factors:
        soft, hard = ground_role_strength(c.rocket_factors)
        items.append(
            (
                "Rockets",
                f"{c.rocket_factors} air-to-air factor(s); air-to-ground role: soft {soft}, "
                f"hard {hard}",
            )
        )
    if c.cc_rockets:
        items.append(("Technology", "CC rocket attacks"))
    if c.sample:
        items.append(("Data", "SAMPLE values, not a published ADC"))
    return CardSpec(
        c.name,
        (
            KeyValues("Combat characteristics", tuple(items)),
            *ledger_tracks(rs, aircraft),
            *critical_lines(aircraft),
        ),
    )
