"""Air-to-air combat arithmetic (Nth Fleet 2.9-2.15), pure functions over plain values."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from app.core.errors import RuleViolation
from app.core.reckoning import Term, total
from rulesets.nth_fleet.tables import AttackTable

INT = "INT"
NON_INT = "non-INT"


@dataclass(frozen=True)
class Combatant:
    """One counter's air points in a combat, with what the rules need to know of them."""

    id: str
    name: str
    points: int
    attack: int
    category: str  # INT or non-INT (2.12)
    mission: str | None


#: The rules give no largest attack (2.9); the form stops at a total no table battle reaches
#: (ten carriers' air wings), so a slip of the keyboard cannot ask for a million dice.
MAX_ATTACK_TOTAL = 1000


def attack_total(force: Sequence[Combatant]) -> int:
    """Nth Fleet 2.9: the sum over types of air points times the air-air attack value."""
    return sum(c.points * c.attack for c in force)


#: the reading of 2.10 in which each EW aircraft counts (see the ruleset's variant list)
EW_EACH = "ew_each"


def ew_modifier(aircraft: int, each: bool) -> int:
    """Nth Fleet 2.10: "The air-to-air attack roll is modified +/- 1 for friendly/enemy EW
    aircraft." Default: 1 for any number of EW aircraft; with the ``ew_each`` reading, 1 for
    each (an EW air point is an EW aircraft, as 2.2 counts them)."""
    if aircraft < 0:
        raise ValueError("a number of EW aircraft cannot be negative")
    return aircraft if each else min(aircraft, 1)


#: the most EW aircraft a form takes for one side (a slip of the keyboard is refused)
MAX_EW = 50
EW_EACH_HELP = "2.10 read as +/-1 for each EW aircraft (variant ew_each)"
EW_COUNTS_OFF = (
    "the number of EW aircraft counts only with the '+/-1 for each EW aircraft' reading of "
    "2.10 (variant ew_each); otherwise any EW gives +/-1 once"
)


class EwCounts:
    """The EW-aircraft counts of a procedure: shown only with the ``ew_each`` reading."""

    variants: frozenset[str]
    ew_count_fields: tuple[str, ...] = ()

    def inputs_off(self) -> dict[str, str]:
        if EW_EACH in self.variants:
            return {}
        return dict.fromkeys(self.ew_count_fields, EW_COUNTS_OFF)

    def ew_count(self, inputs: BaseModel, field: str) -> int:
        """The EW aircraft the field gives (1 unless the ``ew_each`` reading is chosen)."""
        n: int = getattr(inputs, field)
        if EW_EACH not in self.variants:
            if n != 1:
                raise RuleViolation(EW_COUNTS_OFF)
            return 1
        return n


def roll_terms(own_ew: int, enemy_ew: int, own_cap: bool, enemy_cap: bool) -> list[Term]:
    """Nth Fleet 2.10 "The air-to-air attack roll is modified +/- 1 for friendly/enemy EW
    aircraft", 2.11 "Fighters on CAP have a +2 Dice Modifier (DM), Aircraft attacking CAP
    have a -2 DM": each DM that applies, with its sign (``ew_modifier`` gives the EW ones; a
    bool is 1 or 0). No die named: the caller names the dice they are added to."""
    out = []
    if own_ew:
        out.append(Term("friendly EW", int(own_ew), "Nth Fleet 2.10"))
    if enemy_ew:
        out.append(Term("enemy EW", -int(enemy_ew), "Nth Fleet 2.10"))
    if own_cap:
        out.append(Term("fighters on CAP", 2, "Nth Fleet 2.11"))
    if enemy_cap:
        out.append(Term("attacking CAP", -2, "Nth Fleet 2.11"))
    return out


def roll_modifier(own_ew: int, enemy_ew: int, own_cap: bool, enemy_cap: bool) -> int:
    """Nth Fleet 2.10, 2.11: the sum of ``roll_terms``."""
    return total(roll_terms(own_ew, enemy_ew, own_cap, enemy_cap))


def damage_for_rolls(
    table: AttackTable,
    columns: Sequence[int],
    rolls: Sequence[int],
    modifier: int,
    below_no_damage: bool = False,
) -> int:
    """Nth Fleet 2.9: the damage of one roll per column (each roll modified), added up."""
    if len(columns) != len(rolls):
        raise ValueError("one roll per column")
    return sum(
        table.damage(c, r + modifier, below_no_damage) for c, r in zip(columns, rolls, strict=True)
    )


def in_shooter_order(force: Sequence[Combatant], preferred: Sequence[str]) -> list[Combatant]:
    """Nth Fleet 2.15: the shooter's choice; counters it names first, the rest as listed."""
    rank = {cid: i for i, cid in enumerate(preferred)}
    return sorted(force, key=lambda c: rank.get(c.id, len(rank)))


def allocate_losses(
    damage: int,
    targets: Sequence[Combatant],
    defence_of: Callable[[Combatant], int],
    ints_screen: bool = False,
) -> tuple[dict[str, int], int]:
    """Nth Fleet 2.12, 2.15: air points shot down by ``damage``, and the damage left over.

    Points are destroyed while the damage still covers their defence value (so 13 damage
    against defence 4 destroys 3 points). INTs go first; damage left over then falls on
    non-INT points. Within each category ``targets`` is the shooter's order: each counter
    loses as many points as the damage pays for before the next is taken. With
    ``ints_screen`` (a variant reading) non-INTs take damage only once every INT is down.
    """
    losses: dict[str, int] = {}
    left = damage
    for category in (INT, NON_INT):
        if category == NON_INT and ints_screen:
            ints = [t for t in targets if t.category == INT]
            if any(losses.get(t.id, 0) < t.points for t in ints):
                break
        for t in targets:
            if t.category != category or left <= 0 or t.points == 0:
                continue
            defence = defence_of(t)
            n = min(t.points, left // defence)
            if n:
                losses[t.id] = n
                left -= n * defence
    return losses, left


def allocate_aborts(
    shot_down: int, candidates: Sequence[Combatant], losses: dict[str, int]
) -> dict[str, int]:
    """Nth Fleet 2.13, 2.14: ``shot_down`` surviving candidate points abort, in the given order."""
    aborts: dict[str, int] = {}
    left = shot_down
    for c in candidates:
        if left <= 0:
            break
        n = min(c.points - losses.get(c.id, 0), left)
        if n > 0:
            aborts[c.id] = n
            left -= n
    return aborts
