"""The printed Aircraft Control Card (2.0) of one aircraft, as a ``CardSpec``."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import (
    CardBlock,
    CardSpec,
    KeyValues,
    Lines,
    Ruleset,
    Table,
    Track,
    critical_lines,
)
from rulesets.phantoms.card import MANEUVERS, MAX_SPEED, card_of
from rulesets.phantoms.state import is_loaded, state_of


def _v(x: object) -> str:
    return "-" if x is None else str(x)


def card_spec(rs: Ruleset, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
    """Speed and maneuver charts, guns, missiles, radar, C/M, damage track with its grey zone,
    ammunition and afterburner tracks, pilot and critical hits."""
    ledger_titles = {s.id: s.title for s in rs.ledgers_for(aircraft.card)}
    c = card_of(aircraft)
    s = c.speeds
    blocks: list[CardBlock] = []
    blocks.append(
        KeyValues(
            "Status",
            (
                ("Pilot", (aircraft.pilot or "average").capitalize()),
                ("Speed", _v(state_of(aircraft).speed)),
                ("Altitude", _v(state_of(aircraft).altitude)),
                ("Loaded", "yes" if is_loaded(aircraft) else "no"),
                ("Maneuver", _maneuver_text(aircraft)),
                ("Sample card", "yes: not the published values" if c.sample else "no"),
            ),
        )
    )
    blocks.append(
        Table(
            "Speed Chart (5.0, 6.3, 6.5)",
            ("Engine", "Adjust", "Max level", "Max loaded", "Max dive"),
            tuple(
                (name, f"±{ch.adjust}", str(ch.max_level), str(ch.max_loaded), str(ch.max_dive))
                for name, ch in (("Normal", s.normal), ("Damaged", s.damaged))
            ),
        )
    )
    blocks.append(
        KeyValues(
            "Climb / dive / afterburner",
            (
                ("Climb, per level", f"{s.climb:+d}"),
                ("Dive, per level", f"{s.dive:+d}"),
                ("Afterburner", f"+{s.afterburner}" if s.afterburner else "none"),
            ),
        )
    )
    blocks.append(
        Table(
            "Maneuver Chart (6.1): hexes by speed",
            ("Maneuver", *(str(i) for i in range(1, MAX_SPEED + 1)), "Speed loss"),
            tuple(
                (
                    m.replace("_", " "),
                    *(str(h) for h in c.maneuvers[m].hexes),
                    str(c.maneuvers[m].speed_loss),
                )
                for m in MANEUVERS
                if m in c.maneuvers
            ),
        )
    )
    gun = (
        ("Gun Attack Value", _v(c.gun_value)),
        ("Defense Factor", str(c.defense)),
        ("Radar Value", _v(c.radar)),
        ("Radar locks", str(c.radar_locks)),
        ("Missiles per impulse", str(c.missiles_per_impulse)),
        ("Radar C/M", _v(state_of(aircraft).radar_cm)),
        ("IR C/M", _v(state_of(aircraft).ir_cm)),
    )
    blocks.append(KeyValues("Combat (7.0, 14.0)", gun))
    if c.gun_hits:
        blocks.append(
            Table(
                "Gun Combat Information Chart (7.2)",
                ("Difference", *(str(i + 1) for i in range(len(c.gun_hits)))),
                (("Hits", *(str(h) for h in c.gun_hits)),),
            )
        )
    if c.missiles:
        blocks.append(
            Table(
                "Missiles (7.1)",
                ("Missile", "Type", "Hit #", "Range", "Carried"),
                tuple(
                    (
                        m.name,
                        m.aspect if m.guidance == "heat" else ("ARH" if m.active else "radar"),
                        str(m.hit),
                        f"{m.min_range}-{m.max_range}" if m.guidance == "radar" else "-",
                        str(m.count),
                    )
                    for m in c.missiles
                ),
            )
        )
    total = c.max_damage + c.grey_damage
    blocks.append(
        Track(
            "Damage (8.0): grey = loaded",
            max(total, aircraft.damage),
            aircraft.damage,
            grey_from=c.max_damage,
            note=f"{aircraft.damage} of {c.max_damage}"
            + (
                f"; criticals to roll: {state_of(aircraft).criticals_due}"
                if state_of(aircraft).criticals_due
                else ""
            ),
        )
    )
    for lid, led in aircraft.ledgers.items():
        blocks.append(
            Track(
                ledger_titles.get(lid, lid.replace("_", " ")),
                int(led.maximum),
                int(led.maximum - led.value),
                note=f"{led.value} of {led.maximum} left",
            )
        )
    blocks.extend(critical_lines(aircraft))
    if c.notes:
        blocks.append(Lines("Notes", tuple(c.notes)))
    return CardSpec(c.name + (" (sample values)" if c.sample else ""), tuple(blocks))


def _maneuver_text(a: AircraftState) -> str:
    m = state_of(a).maneuver
    if m is None:
        return "none marked"
    climb = f", {m.vertical} {m.levels}" if m.levels else ""
    return f"{m.label}: {m.moved}/{m.hexes} hexes{climb}"
