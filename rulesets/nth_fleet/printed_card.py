"""The printed Nth Fleet counter card: the counter (type, role, base, air points, mission), its
attack and defence values (2.4-2.8), its base's Air Base Display (2.1), ledgers and criticals."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.errors import MissingTableValue
from app.core.ruleset import (
    CardBlock,
    CardSpec,
    KeyValues,
    Lines,
    Ruleset,
    Table,
    critical_lines,
    ledger_tracks,
)
from rulesets.nth_fleet.card import Card, per_point
from rulesets.nth_fleet.displays import TRACK_TITLES, base_of, tracks_of
from rulesets.nth_fleet.missions import effectiveness_kind
from rulesets.nth_fleet.state import PLACES, Ledger, state_of
from rulesets.nth_fleet.values import attack_value, defence_value, in_int_mode


def card_spec(rs: Ruleset, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
    card = aircraft.typed(Card, "card")
    blocks: list[CardBlock] = [
        _counter_block(aircraft, card),
        _values_block(aircraft, card),
        _display_block(aircraft, engagement),
        *ledger_tracks(rs, aircraft),
        *critical_lines(aircraft),
    ]
    if card.sample:
        blocks.append(
            Lines("Sample data", ("Sample values, not the game's counters: edit the card.",))
        )
    return CardSpec(card.name, tuple(blocks))


def _counter_block(a: AircraftState, card: Card) -> KeyValues:
    s = state_of(a)
    mission = s.mission
    state = "" if mission is None else str(mission)
    if mission is not None and s.mission_name:
        state += f" ({s.mission_name})"
    if mission is not None and effectiveness_kind(mission):
        state += {True: ", effective", False: ", ineffective", None: ", roll pending"}[s.effective]
    role = card.role + (f" ({card.specialty})" if card.specialty else "")
    return KeyValues(
        "Counter",
        (
            ("Type", card.name),
            ("Role", role),
            ("Base", base_of(a)),
            ("Air points", str(a.ledger(Ledger.AIR_POINTS))),
            ("Mission", state or "none"),
        ),
    )


def _values_block(a: AircraftState, card: Card) -> KeyValues:
    mission = state_of(a).mission
    try:
        attack = str(attack_value(a.type_id, card, mission))
    except MissingTableValue:
        attack = "half the defence value (missing)"
    try:
        defence = str(defence_value(a.type_id, card))
    except MissingTableValue:
        defence = "missing (Defence Value Table)"
    items = [
        ("Printed air-air", "-" if card.air_air is None else str(card.air_air)),
        ("Attack value" + (" (INT)" if in_int_mode(card, mission) else ""), attack),
        ("Defence value", defence),
    ]
    points = a.ledger(Ledger.AIR_POINTS)
    for title, printed in (("Air-surface", card.air_surface), ("ASW", card.asw)):
        value = per_point(printed, card.unit_sides)
        if value is not None:
            items.append((f"{title} per air point (2.4)", f"{value} ({value * points} now)"))
    return KeyValues("Values", tuple(items))


def _display_block(a: AircraftState, engagement: Engagement) -> Table:
    base = base_of(a)
    counters = [c for c in engagement.aircraft.values() if base_of(c) == base]
    rows = [(c.name, *(str(tracks_of(c).at(p)) for p in PLACES)) for c in counters]
    totals = [sum(tracks_of(c).at(p) for c in counters) for p in PLACES]
    rows.append(("Total", *(str(t) for t in totals)))
    return Table(
        f"Air Base Display: {base} (2.1)",
        ("Counter", *(TRACK_TITLES[p] for p in PLACES)),
        tuple(rows),
    )
