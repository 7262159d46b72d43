"""The printed UFO Interception card of a plane or UFO (UFO rules: the Tornado and Small UFO
cards), as a ``CardSpec``."""

from __future__ import annotations

from app.core.engagement import AircraftState, Engagement
from app.core.ruleset import (
    CardBlock,
    CardSpec,
    KeyValues,
    Lines,
    Ruleset,
    Table,
    critical_lines,
    damage_track,
    ledger_tracks,
)

from .card import MISSILE_DATA, card_of, details_of, firing_initiative
from .state import Ledger, lost_hard_points, state_of


def _anti_grav(u: AircraftState) -> str:
    """The UFO's anti-grav rating as its card prints it, or as the umpire gave it where the
    card prints none (UFO rules, Damage: only the Small UFO's card prints one), or that it is
    still to be given (never the word "missing", nor a number made up)."""
    printed = card_of(u).anti_grav
    if isinstance(printed, int):
        return str(printed)
    counter = u.ledgers.get(Ledger.ANTI_GRAV)
    if counter is not None:
        return f"{counter.maximum} (not printed: given by the umpire)"
    return "not printed: asked for at its first move"


def card_spec(rs: Ruleset, aircraft: AircraftState, engagement: Engagement) -> CardSpec:
    """The card the desk prints: the plane's or UFO's data, damage track, hit location table,
    ray gun firing initiatives, ledgers, notes and criticals."""
    c = card_of(aircraft)
    items: list[tuple[str, str]] = [("Type", c.name)]
    if c.kind == "fighter":
        items += [
            ("Speed", str(c.speed)),
            ("Current speed", str(state_of(aircraft).speed)),
            ("Pilot reaction", str(details_of(aircraft).reaction)),
        ]
    else:
        items.append(("Anti Grav", _anti_grav(aircraft)))
    items.append(("DP", str(c.damage_points)))
    due = state_of(aircraft).damage_rolls_due
    if due:
        items.append(("Damage rolls due", str(due)))
    blocks: list[CardBlock] = [KeyValues("Data", tuple(items)), *damage_track(aircraft)]
    if c.hard_points:
        lost = lost_hard_points(aircraft)
        rows = []
        for hp in sorted(c.hard_points, key=lambda h: min(h.location)):
            faces = sorted(hp.location)
            where = str(faces[0]) if len(faces) == 1 else f"{faces[0]}-{faces[-1]}"
            store = "Cannon" if hp.store == "cannon" else MISSILE_DATA[hp.store].name
            if hp.printed_count is not None:
                store = f"{hp.printed_count} {store}"
            note = "+d6 DP if hit" if hp.extra_damage else ""
            if hp.number in lost:
                note = (note + " LOST").strip()
            rows.append((where, f"Hard Point {hp.number}", store, note))
        blocks.append(Table("Hit Location", ("d6", "Hard point", "Store", "Notes"), tuple(rows)))
    if not isinstance(c.ray_guns, str):
        for i, gun in enumerate(c.ray_guns):
            title = f"Ray Gun {i + 1}: Power {gun.power} Recharge {gun.recharge_dice}d6"
            charges = range(1, gun.power + 1)
            blocks.append(
                Table(
                    title,
                    ("Charge", *(str(ch) for ch in charges)),
                    (("Initiative", *(str(firing_initiative(gun, ch)) for ch in charges)),),
                )
            )
    blocks += ledger_tracks(rs, aircraft)
    if c.notes:
        blocks.append(Lines("Notes", tuple(c.notes)))
    blocks += critical_lines(aircraft)
    return CardSpec(c.name, tuple(blocks))
