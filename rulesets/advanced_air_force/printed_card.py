"""The printed Advanced Air Force control card: data, guns, hit boxes per type, hit effects."""

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
    ledger_tracks,
)

from .card import Card
from .hits import HIT_TYPES
from .state import state_of


def _ft(v: int | None) -> str:
    return "-" if v is None else f"{v} ft"


def _loaded_lines(c: Card) -> tuple[tuple[str, str], ...]:
    """The Loaded condition and what its altitude limitation covers (Special Data Card Note)."""
    if c.loaded_stall_speed is None and c.loaded_max_level_speed is None:
        return ()
    where = (
        "every altitude"
        if c.loaded_altitude_limit_ft is None
        else f"{c.loaded_limit_side} {c.loaded_altitude_limit_ft} ft"
    )
    stall = "-" if c.loaded_stall_speed is None else f"{c.loaded_stall_speed} ({where})"
    level_where = where if c.loaded_limit_both else "every altitude"
    level = (
        "-" if c.loaded_max_level_speed is None else f"{c.loaded_max_level_speed} ({level_where})"
    )
    return (("Loaded stall speed", stall), ("Loaded max. level speed", level))


def card_spec(rs: Ruleset, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
    """The card as data: the printed values with the losses the hits have caused."""
    c = aircraft.typed(Card, "card")
    st = state_of(aircraft)
    lvl_loss = st.max_level_speed_loss
    pf_loss = st.power_factor_loss
    dive_loss = st.max_dive_speed_loss
    rate_loss = st.dive_rate_loss_ft
    climb_loss = st.climb_loss_ft

    def now(base: int, loss: int) -> str:
        return str(base) if not loss else f"{max(base - loss, 0)} (card {base}, -{loss})"

    data = KeyValues(
        "Data" + (" (SAMPLE VALUES)" if c.sample else ""),
        (
            ("Role", f"{c.role.replace('_', ' ')}, {c.engines} engine(s)"),
            ("Silhouette modifier", str(c.silhouette_modifier)),
            ("Stall speed", str(c.stall_speed)),
            ("Maneuver speed", "-" if c.maneuver_speed is None else str(c.maneuver_speed)),
            ("Max. level speed", now(c.max_level_speed, lvl_loss)),
            ("Max. dive speed", now(c.max_dive_speed, dive_loss)),
            ("Power factors", now(c.power_factors, pf_loss)),
            ("Brake factors", str(c.brake_factors)),
            ("Max. dive (black)", _ft(c.max_dive_ft) + (f" -{rate_loss} ft" if rate_loss else "")),
            ("Max. dive (red)", _ft(c.max_dive_red_ft)),
            (
                "Dive sp. climb",
                _ft(c.dive_speed_climb_ft) + (f" -{rate_loss} ft" if rate_loss else ""),
            ),
            ("Max. climb", _ft(c.max_climb_ft) + (f" -{climb_loss} ft" if climb_loss else "")),
            (
                "V. Dive requirement",
                "none" if c.v_dive_requirement is None else f"{c.v_dive_requirement} MP",
            ),
            ('"F" entry rolls', str(c.flexible_rolls)),
            *_loaded_lines(c),
        ),
    )
    g_loss = st.flexible_gun_loss
    guns = Table(
        "Guns",
        ("Position", "Kind", "Factors", "Arc", "Hemisphere"),
        tuple(
            (
                g.position,
                g.kind,
                str(g.factors)
                if g.kind != "F" or not g_loss.get(g.hemisphere)
                else f"{g.factors} (hemisphere -{g_loss[g.hemisphere]}, rule 26)",
                g.arc,
                g.hemisphere,
            )
            for g in c.guns
        ),
    )
    tracks: list[CardBlock] = [
        Track(
            f"{t} hits",
            c.hit_boxes[t],
            min(aircraft.boxes.get(t, 0), c.hit_boxes[t]),
            note=f"{aircraft.boxes.get(t, 0)} of {c.hit_boxes[t]}"
            + (" (full)" if aircraft.boxes.get(t, 0) >= c.hit_boxes[t] else ""),
        )
        for t in HIT_TYPES
    ]
    effects = Lines("Hit effects (rules 24-27)", st.damage_notes or ("none",))
    blocks: list[CardBlock] = [data, guns, *tracks, effects]
    blocks += ledger_tracks(rs, aircraft)
    blocks += critical_lines(aircraft)
    return CardSpec(c.name, tuple(blocks))
