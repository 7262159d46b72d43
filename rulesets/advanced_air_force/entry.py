"""Entry into the Fire Resolution process: the rolls some gunfire must make first.

- Rule 12: from the target's 2, 4, 8 or 10 o'clock (High Deflection) the Special High
  Deflection Roll must be above 4 (above 3 if the target's Silhouette Modifier is above three,
  above 2 with a K-14 gyro sight); it applies to flexible guns too; a miss spends ammunition.
- Rule 15: flexible ("F") guns must roll 6 (above 4 when the target is in the firing aircraft's
  6 o'clock straight path of hexes), with the card's number of rolls, at most three rolls per
  target per Game-Turn.
- Rule 8: fixed Snapshot fire is 1 hex range K-14 High Deflection; a target hex entered from
  the front hemisphere makes all Snapshot fire 1 hex single-roll "F" Gunnery Play; flexible guns
  on the entry side use "F" Gunnery Play at 1 hex.
- Rule 11: interlocking front hemispheres at 10+ combined Speed Points: single-roll "F" Gunnery.
- V. Dive rule 6: fire from a non-V. Diving aircraft at one in a Current Game-Turn V. Dive is
  "F" Gunnery Play only and is treated as High Deflection (``at_v_diver``); fire from a V. Diver
  at a non-V. Diver has the inverted restrictions of rule 13 (``from_v_dive``: 2 hexes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FireMode = Literal[
    "normal", "snapshot", "snapshot_front", "interlocking", "at_v_diver", "from_v_dive"
]
HIGH_DEFLECTION_CLOCK = frozenset({2, 4, 8, 10})


@dataclass(frozen=True)
class EntryRoll:
    """A d6 that must show more than ``above``; up to ``tries`` rolls, the first success counts."""

    purpose: str
    above: int
    tries: int
    rule: str
    spends_ammunition_on_miss: bool
    flexible: bool = False
    #: why the roll needs this number (the ruling lists it with the rule)
    why: str = ""


def high_deflection_above(*, silhouette_modifier: int, k14_sight: bool) -> int:
    """Rule 12: the number the High Deflection roll must exceed."""
    if k14_sight:
        return 2
    return 3 if silhouette_modifier > 3 else 4


def high_deflection_why(*, silhouette_modifier: int, k14_sight: bool) -> str:
    """Rule 12: why the High Deflection roll needs the number ``high_deflection_above`` gives."""
    if k14_sight:
        return "K-14 gyro sight"
    return "target's Silhouette Modifier above three" if silhouette_modifier > 3 else ""


def high_deflection_roll(purpose: str, rule: str, silhouette_modifier: int, k14: bool) -> EntryRoll:
    """Rule 12: the Special High Deflection Roll, one try, a miss spends ammunition."""
    return EntryRoll(
        purpose,
        high_deflection_above(silhouette_modifier=silhouette_modifier, k14_sight=k14),
        1,
        rule,
        True,
        why=high_deflection_why(silhouette_modifier=silhouette_modifier, k14_sight=k14),
    )


def flexible_entry(tries: int, six_oclock_straight: bool, rule: str) -> EntryRoll:
    """Rule 15: flexible guns enter fire on a 6, or above 4 from the 6 o'clock straight path."""
    return EntryRoll(
        "flexible gun entry" if tries == 1 else f"flexible gun entry (up to {tries} rolls)",
        4 if six_oclock_straight else 5,
        tries,
        rule,
        False,
        True,
        "target in the 6 o'clock straight path" if six_oclock_straight else "",
    )


def _special_entry(flexible: bool, fire_mode: FireMode, flexible_rolls: int) -> list[EntryRoll]:
    """Rules 8 and 11: the entry of Snapshot and interlocking fire."""
    if fire_mode in ("snapshot_front", "interlocking"):
        rule = "rule 8" if fire_mode == "snapshot_front" else "rule 11"
        return [EntryRoll("single-roll F Gunnery Play entry", 5, 1, rule, False, True)]
    if flexible:
        return [flexible_entry(flexible_rolls, False, "rules 8, 15")]
    return [
        EntryRoll(
            "snapshot: K-14 High Deflection roll", 2, 1, "rules 8, 12", True, why="K-14 gyro sight"
        )
    ]


def entry_rolls(
    *,
    flexible: bool,
    fire_mode: FireMode,
    target_clock: int | None,
    silhouette_modifier: int,
    k14_sight: bool,
    flexible_rolls: int,
    six_oclock_straight: bool,
    inverted: bool = False,
    flexible_hd_one_roll: bool = False,
) -> list[EntryRoll]:
    """The entry rolls for this fire, in the order they are rolled (all must succeed).

    Rule 13: "Add High Deflection restriction when High Deflection is combined with any
    inverted attitude": an inverted firer at the target's 2, 4, 8 or 10 o'clock rolls the High
    Deflection roll even in the fire modes that otherwise replace it (Snapshot, interlocking).
    ``flexible_hd_one_roll`` is the reading of rules 12 and 15 where flexible guns at High
    Deflection make the High Deflection roll only, not also the rule 15 entry roll.
    """
    high_deflection = target_clock in HIGH_DEFLECTION_CLOCK
    if fire_mode in ("snapshot_front", "interlocking", "snapshot"):
        rolls = _special_entry(flexible, fire_mode, flexible_rolls)
        if inverted and high_deflection and not any(r.spends_ammunition_on_miss for r in rolls):
            k14 = k14_sight and not flexible
            rolls.append(
                high_deflection_roll(
                    "High Deflection roll (inverted)", "rules 12, 13", silhouette_modifier, k14
                )
            )
        return rolls
    rolls = []
    if fire_mode == "at_v_diver":
        rolls.append(
            flexible_entry(flexible_rolls, False, "V. Dive rule 6, rule 15")
            if flexible
            else EntryRoll("single-roll F Gunnery Play entry", 5, 1, "V. Dive rule 6", False, True)
        )
    elif flexible and not (flexible_hd_one_roll and high_deflection):
        rolls.append(flexible_entry(flexible_rolls, six_oclock_straight, "rule 15"))
    if high_deflection or fire_mode == "at_v_diver":
        k14 = k14_sight and not flexible
        rolls.append(
            high_deflection_roll("High Deflection roll", "rule 12", silhouette_modifier, k14)
        )
    return rolls
