"""Issue 45: the odds to the end of the chain, worked out again from the rules texts alone.

Nothing here imports the program's rules: every table is typed in again from the text
(/work/shared/seeds), every roll is enumerated face by face (``itertools.product`` over the
faces of its dice), and a chain follows what the text says comes next. Where two faces lead
to the same situation the answer of that situation is reused (``functools.cache``): it is the
same answer, and without it a chain of seven damage rolls would be 36**7 sequences. A fire
that keeps burning is the one loop: "still burning" leads back to the same situation, whose
answer ``x`` then solves ``x = b + p x`` (``x = b / (1 - p)``).

Each oracle returns the chance of each fact at the end (fact -> Fraction); the tests compare
them with ``app.core.chain_odds`` exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TypeVar

Ends = dict[frozenset[str], Fraction]
S = TypeVar("S")
D10 = range(1, 11)
D6 = range(1, 7)


def _add(into: Ends, ends: Ends, p: Fraction) -> None:
    for k, v in ends.items():
        into[k] = into.get(k, Fraction(0)) + p * v


def _gather(into: dict[S, Fraction], state: S, p: Fraction) -> None:
    """A next situation and its chance, added to those of the faces that lead to it too."""
    into[state] = into.get(state, Fraction(0)) + p


def marginals(ends: Ends) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for facts, p in ends.items():
        for f in facts:
            out[f] = out.get(f, Fraction(0)) + p
    return out


def faces(n: int, die: Iterable[int] = D6) -> list[tuple[int, ...]]:
    return list(itertools.product(die, repeat=n))


# ==== Phantoms (seed 004): 7.1.3, 7.2, 8.1, 8.2, 9.0, the Critical Hit Table ================

#: Critical Hit Table: 1-3 Minor, 4 Pilot Wounded, 5-6 Structural, 7 Engine, 8 Fire, 9-10 Major
CRITICAL = {1: "minor", 2: "minor", 3: "minor", 4: "wounded", 5: "structural"}
CRITICAL |= {6: "structural", 7: "engine", 8: "fire", 9: "major", 10: "major"}
#: 7.2: the firing player adds +4 Ace, +2 Experienced, -2 Green; the target +2 Ace, +1 Exp.
GUN_ATTACKER = {"ace": 4, "experienced": 2, "green": -2}
GUN_TARGET = {"ace": 2, "experienced": 1}
#: 7.1.3: Pilot Ability (Green or Inexp. = 0, Average = 1, Experienced = 2, Ace = 3)
MISSILE_TARGET = {"average": 1, "experienced": 2, "ace": 3}
#: 9.0: +2 Ace, +1 Experienced, -1 Green
FIRE_PILOT = {"ace": 2, "experienced": 1, "green": -1}


def fire_speed(speed: int) -> int:
    """9.0: +3 speed >7, +2 speed 6-7, +1 speed 4-5."""
    return 3 if speed > 7 else 2 if speed >= 6 else 1 if speed >= 4 else 0


@dataclass(frozen=True)
class Jet:
    """A Phantoms aircraft as the critical hits, the ejection and the fire read it."""

    due: int = 0
    wounded: bool = False
    structural: bool = False
    engine: bool = False
    fires: int = 0
    burning: bool = False
    hard_turn: bool = False
    #: None while flying; else how it was lost: "major", "breakup", "fire", "pilot", "treat10"
    lost: str | None = None
    pilot: str = "in"
    ejection_done: bool = False
    speed: int = 5
    quality: str = "average"
    new_fire: bool = False


def jet_facts(j: Jet) -> frozenset[str]:
    facts = set()
    if j.lost:
        facts |= {"destroyed", "out of the fight"}
    if j.pilot == "killed":
        facts |= {"pilot killed", "out of the fight"}
    if j.pilot == "ejected":
        facts |= {"ejected", "out of the fight"}
    if j.new_fire:
        facts.add("fire")
    if j.wounded:
        facts.add("pilot wounded")
    if j.structural:
        facts.add("structural damage")
    if j.engine:
        facts.add("engine damaged")
    return frozenset(facts)


@cache
def jet_end(j: Jet, readings: frozenset[str] = frozenset()) -> Ends:
    """Where the rolls owed lead, as the text orders them: each critical hit owed (8.1); the
    ejection of a destroyed aircraft (8.2); a fire checked each Fire-Check Segment (9.0)."""
    after_loss = "criticals_after_loss" in readings
    if j.due > 0 and (j.lost is None or (after_loss and j.pilot == "in")):
        out: Ends = {}
        for (face,) in faces(1, D10):
            _add(out, jet_end(critical(j, CRITICAL[face], readings), readings), Fraction(1, 10))
        return out
    if j.lost is not None and j.pilot == "in" and not j.ejection_done:
        # 8.2: -2 wounded, -3 on fire, -2 Major Damage, -4 broken up; >= 3 ejects
        m = (-2 if j.wounded else 0) + (-3 if j.burning or j.lost == "fire" else 0)
        m += {"major": -2, "treat10": -2, "breakup": -4}.get(j.lost, 0)
        if j.lost == "treat10" and "treat_as_10_no_eject_minus" in readings:
            m += 2
        out = {}
        for (face,) in faces(1, D10):
            who = "ejected" if face + m >= 3 else "killed"
            _add(out, jet_end(replace(j, pilot=who, ejection_done=True), readings), Fraction(1, 10))
        return out
    if j.burning and j.lost is None and j.pilot == "in":
        # 9.0: > 9 out, <= 5 a critical hit, else still burning (checked again next impulse)
        m = fire_speed(j.speed) + FIRE_PILOT.get(j.quality, 0)
        out, stay = {}, Fraction(0)
        for (face,) in faces(1, D10):
            total = face + m
            if total > 9:
                _add(out, jet_end(replace(j, burning=False), readings), Fraction(1, 10))
            elif total <= 5:  # the critical hit it rolls, face by face: a Minor Damage
                for (crit,) in faces(1, D10):  # leaves it as it was, still burning
                    after = critical(replace(j, due=j.due + 1), CRITICAL[crit], readings)
                    if after == j:
                        stay += Fraction(1, 100)
                    else:
                        _add(out, jet_end(after, readings), Fraction(1, 100))
            else:
                stay += Fraction(1, 10)
        return {k: v / (1 - stay) for k, v in out.items()}
    return {jet_facts(j): Fraction(1)}


def critical(j: Jet, row: str, readings: frozenset[str]) -> Jet:
    """One result of the Critical Hit Table on ``j``."""
    j = replace(j, due=j.due - 1)
    lost = j.lost is not None
    stop = 0 if "criticals_after_loss" not in readings else j.due

    def lose(how: str) -> Jet:
        if lost:
            return j
        return replace(j, lost=how, due=stop)

    if row == "minor":
        return j
    if row == "wounded":  # 2nd hit = Pilot Killed, remove aircraft
        if j.wounded:
            return replace(lose("pilot"), pilot="killed", due=0)
        return replace(j, wounded=True)
    if row == "structural":  # if doing Hard Turn or Loop breaks up; 2nd hit = Treat as #10
        if j.structural:
            return lose("treat10")
        return lose("breakup") if j.hard_turn else replace(j, structural=True)
    if row == "engine":  # 2nd hit = Treat as #10
        return lose("treat10") if j.engine else replace(j, engine=True)
    if row == "fire":  # If second Fire critical hit, aircraft destroyed
        second = j.burning if "second_fire_only_while_burning" in readings else j.fires > 0
        j = replace(j, fires=j.fires + 1, new_fire=True)
        if second:
            return replace(lose("fire"), burning=True) if lost else lose("fire")
        return replace(j, burning=True)
    return lose("major")  # Major Damage, aircraft is lost


def criticals_for(
    points: int, damage_before: int, max_damage: int, missile: bool, heading: bool = False
) -> int:
    """8.1: one for a missile hit, one per full 3 points, one per point above the maximum; by
    the table's heading ("Roll anytime hit by a missile or 3 or more points damage are scored
    or aircraft damage level is exceeded"), one roll when any of them holds."""
    if points <= 0:
        return 0
    beyond = max(0, damage_before + points - max_damage) - max(0, damage_before - max_damage)
    if heading:
        return 1 if missile or points >= 3 or beyond > 0 else 0
    return (1 if missile else 0) + points // 3 + beyond


def phantoms_attack(
    attacker_total: int,
    target_total: int,
    hits_of: Iterable[int] | None,
    target: Jet,
    damage: int,
    max_damage: int,
    readings: frozenset[str] = frozenset(),
) -> dict[str, Fraction]:
    """7.2 (``hits_of``: the Gun Combat Information Chart) or 7.1.3 (``None``: the hits are
    the difference), each side's d10 plus its total, then the chain."""
    chart = list(hits_of) if hits_of is not None else None
    out: Ends = {}
    for r1, r2 in faces(2, D10):
        diff = (r1 + attacker_total) - (r2 + target_total)
        if diff <= 0:
            hits = 0
        elif chart is None:
            hits = diff
        else:
            hits = chart[min(diff, len(chart)) - 1]
        heading = "criticals_by_heading" in readings
        owed = criticals_for(hits, damage, max_damage, chart is None, heading)
        _add(out, jet_end(replace(target, due=target.due + owed), readings), Fraction(1, 100))
    return new_facts(out, jet_facts(target))


def new_facts(ends: Ends, before: frozenset[str]) -> dict[str, Fraction]:
    """The chance of each fact that was not already true before the action."""
    return {k: v for k, v in marginals(ends).items() if k not in before}


def gun_totals(inputs: object) -> tuple[int, int]:
    """7.2's two totals from a gun attack's inputs (the chart's pilot modifiers above)."""
    i: object = inputs
    att = (
        i.attacker_gun_value  # type: ignore[attr-defined]
        - i.position_modifier  # type: ignore[attr-defined]
        + GUN_ATTACKER.get(i.attacker_pilot, 0)  # type: ignore[attr-defined]
        + (4 if i.attacker_unspotted else 0)  # type: ignore[attr-defined]
        + i.attacker_modifiers  # type: ignore[attr-defined]
    )
    dfn = i.target_defense + GUN_TARGET.get(i.target_pilot, 0)  # type: ignore[attr-defined]
    return att, dfn


# ==== UFO interception (seed 003): Hitting, Damage =========================================

#: the damage table, Fighter column: (DP, max speed lost, special)
FIGHTER = {2: (0, 0, "killed"), 3: (4, 0, ""), 4: (0, 0, "hardpoints"), 5: (1, 1, "")}
FIGHTER |= {6: (2, 0, ""), 7: (1, 0, ""), 8: (2, 0, ""), 9: (3, 0, ""), 10: (1, 0, "")}
FIGHTER |= {11: (2, 1, ""), 12: (0, 0, "destroyed")}
#: the UFO column: (DP, max speed lost, Anti Grav lost, ray gun loses d6)
UFO = {2: ("d6", "d6", 0, False), 3: (1, 1, 0, False), 4: (1, 0, 1, False), 5: (3, 0, 0, False)}
UFO |= {6: (1, 0, 0, False), 7: (1, 0, 0, False), 8: (2, 0, 0, True), 9: (2, 0, 0, False)}
UFO |= {10: (1, 0, 0, False), 11: (1, 0, 1, False), 12: ("2d6", 0, 0, False)}


@cache
def rolled(value: int | str) -> tuple[tuple[int, Fraction], ...]:
    """A number, or the totals of "d6" / "2d6" face by face."""
    if isinstance(value, int):
        return ((value, Fraction(1)),)
    n = 2 if value == "2d6" else 1
    out: dict[int, Fraction] = {}
    for fs in faces(n):
        out[sum(fs)] = out.get(sum(fs), Fraction(0)) + Fraction(1, 6**n)
    return tuple(out.items())


@dataclass(frozen=True)
class Plane:
    """A Tornado-like plane: 'Fighter 6 Damage points', top speed, its hard points."""

    due: int
    damage: int = 0
    dp: int = 6
    speed: int = 8
    #: hard points not lost, and those of them noted "+d6 DP if hit"
    points: frozenset[int] = frozenset({1, 2, 3, 4})
    extra: frozenset[int] = frozenset({3})
    damaged: bool = False
    checked: bool = False
    out: str = ""
    engine: bool = False
    point_lost: bool = False


@cache
def _hard_point_faces(points: frozenset[int]) -> dict[frozenset[int], Fraction]:
    """'Roll for each hardpoint, 6 = lost': every face of one d6 per hard point."""
    order = sorted(points)
    out: dict[frozenset[int], Fraction] = {}
    for fs in faces(len(order)):
        lost = frozenset(n for n, f in zip(order, fs, strict=True) if f == 6)
        out[lost] = out.get(lost, Fraction(0)) + Fraction(1, 6 ** len(order))
    return out


@cache
def plane_end(p: Plane) -> Ends:
    """The damage rolls owed, then a turn's vital-system check ('Any turn a plane takes damage
    roll d6. If the result is LESS than the total damage taken ... the pilot ejects')."""
    if p.out:
        return {plane_facts(p): Fraction(1)}
    # each face's next situation with its chance, gathered as in ``saucer_end``
    nexts: dict[Plane, Fraction] = {}
    if p.due:
        for a, b in faces(2):
            dp, slow, special = FIGHTER[a + b]
            q = replace(p, due=p.due - 1)
            if special == "killed":
                q = replace(q, out="killed")
            if special == "destroyed":
                q = replace(q, out="destroyed")
            if special == "hardpoints":
                for lost, w in _hard_point_faces(q.points).items():
                    r = (
                        replace(q, points=q.points - lost, extra=q.extra - lost, point_lost=True)
                        if lost
                        else q
                    )
                    extra = len(lost & q.extra)
                    for more, v in rolled("d6" if extra else 0):
                        _gather(nexts, take(r, more), Fraction(1, 36) * w * v)
                continue
            q = take(q, dp)
            if slow:
                q = replace(q, speed=q.speed - slow, engine=True)
            _gather(nexts, finish(q), Fraction(1, 36))
    elif p.damaged and not p.checked:
        for (face,) in faces(1):
            q = replace(p, checked=True, out="ejected" if face < p.damage else "")
            _gather(nexts, q, Fraction(1, 6))
    else:
        return {plane_facts(p): Fraction(1)}
    out: Ends = {}
    for q, w in nexts.items():
        _add(out, plane_end(q), w)
    return out


def take(p: Plane, dp: int) -> Plane:
    if dp <= 0:
        return p
    return finish(replace(p, damage=p.damage + dp, damaged=True))


def finish(p: Plane) -> Plane:
    """'If a plane is destroyed the pilot dies'; 'Any aircraft reduced to 0 speed crashes';
    its damage points exhausted, it is destroyed."""
    if p.out:
        return p
    if p.damage >= p.dp:
        return replace(p, out="destroyed")
    if p.speed <= 0:
        return replace(p, out="crashed")
    return p


def plane_facts(p: Plane) -> frozenset[str]:
    facts = set()
    if p.out in ("destroyed", "killed"):  # 'If a plane is destroyed the pilot dies.'
        facts |= {"destroyed", "pilot killed", "out of the fight"}
    if p.out == "crashed":  # 'Any aircraft reduced to 0 speed crashes.'
        facts |= {"destroyed", "out of the fight"}
    if p.out == "ejected":
        facts |= {"ejected", "out of the fight"}
    if p.engine:
        facts.add("engine damaged")
    if p.point_lost:
        facts.add("hard point lost")
    return frozenset(facts)


@dataclass(frozen=True)
class Saucer:
    """A Small UFO: 'Small UFO 10DP', 'Anti Grav 7', a ray gun charged."""

    due: int
    damage: int = 0
    dp: int = 10
    grav: int = 7
    charge: int = 9
    out: str = ""
    engine: bool = False
    grav_lost: bool = False
    charge_lost: bool = False


@cache
def saucer_end(u: Saucer) -> Ends:
    if u.out or not u.due:
        return {saucer_facts(u): Fraction(1)}
    # each face's next situation with its chance, the same situations gathered (their chances
    # added) before their answers are: an answer is a dict of Fractions, a chance one Fraction
    nexts: dict[Saucer, Fraction] = {}
    for a, b in faces(2):
        dp_spec, slow, grav, ray = UFO[a + b]
        for dp, p in rolled(dp_spec):
            for _, q in rolled(slow):  # a UFO at 0 max speed does not crash: its loss unread
                for loss, r in rolled("d6" if ray else 0):  # the ray gun's charge lost
                    v = Saucer(
                        due=u.due - 1,
                        damage=u.damage + dp,
                        dp=u.dp,
                        grav=max(u.grav - grav, 0),
                        charge=max(u.charge - loss, 0),
                        engine=u.engine or bool(slow),
                        grav_lost=u.grav_lost or bool(grav),
                        charge_lost=u.charge_lost or bool(ray and u.charge),
                    )
                    _gather(nexts, saucer_finish(v), Fraction(1, 36) * p * q * r)
    out: Ends = {}
    for v, p in nexts.items():
        _add(out, saucer_end(v), p)
    return out


def saucer_finish(u: Saucer) -> Saucer:
    """'Any UFO reduced to 0 Anti-Grav crashes'; its damage points exhausted, destroyed."""
    if u.damage >= u.dp:
        return replace(u, out="destroyed")
    if u.grav <= 0:
        return replace(u, out="crashed")
    return u


def saucer_facts(u: Saucer) -> frozenset[str]:
    facts = set()
    if u.out:
        facts |= {"destroyed", "out of the fight"}
    if u.engine:
        facts.add("engine damaged")
    if u.grav_lost:
        facts.add("anti-grav lost")
    if u.charge_lost:
        facts.add("ray gun charge lost")
    return frozenset(facts)


def cannon_hits(range_inches: int) -> dict[int, Fraction]:
    """'Roll d6+1 and subtract range in inches- this is number of hits on Damage Table.'"""
    out: dict[int, Fraction] = {}
    for (face,) in faces(1):
        h = max(0, face + 1 - range_inches)
        out[h] = out.get(h, Fraction(0)) + Fraction(1, 6)
    return out


def ray_gun_hits(charge: int, range_inches: int) -> dict[int, Fraction]:
    """'Roll one die for every point of charge, minus 1 die for every inch of range'; 'Any 5
    or 6 is a hit'."""
    n = max(0, charge - range_inches)
    out: dict[int, Fraction] = {}
    for fs in faces(n):
        h = sum(1 for f in fs if f >= 5)
        out[h] = out.get(h, Fraction(0)) + Fraction(1, 6**n)
    return out


def missile_rolls() -> dict[int, Fraction]:
    """'it explodes for 1d6 rolls on Damage Table'."""
    return {f: Fraction(1, 6) for (f,) in faces(1)}


def ufo_chain(
    hits: dict[int, Fraction], start: Plane | Saucer, then: dict[int, Fraction] | None = None
) -> dict[str, Fraction]:
    """Hits of one firing (and of a second one, ``then``) rolled on the damage table."""
    out: Ends = {}
    seconds = then or {0: Fraction(1)}
    for h, p in hits.items():
        for h2, q in seconds.items():
            s = replace(start, due=start.due + h + h2)
            _add(out, plane_end(s) if isinstance(s, Plane) else saucer_end(s), p * q)
    return marginals(out)


# ==== Advanced Air Force (seed 001): the fire tables, rules 12, 15, 22-27 ==================

#: Total Gun Factors x Range in Hexes -> fire column (page 1 of the text)
BANDS = [
    ((1, 2), (1, 0, -1, -2, -3, -3)),
    ((3, 4), (2, 1, 0, -1, -2, -3)),
    ((5, 6), (4, 3, 2, 1, -1, -3)),
    ((7, 8), (5, 4, 3, 2, 0, -2)),
    ((9, 10), (8, 6, 5, 3, 1, -1)),
    ((11, 12), (10, 8, 6, 4, 2, 0)),
    ((13, 15), (11, 9, 7, 6, 3, 1)),
    ((16, 18), (15, 12, 9, 7, 4, 2)),
    ((19, 23), (16, 13, 10, 7, 5, 2)),
    ((24, 28), (18, 16, 12, 8, 5, 3)),
    ((29, 999), (19, 17, 14, 9, 7, 4)),
]
#: the result table, column -> the six results of a d6 roll 1-6
RESULTS = {
    -3: ("2F", "FWL", "FWL", "FWG", "FE", "WCE"),
    -2: ("2F", "2FWL", "F2WL", "FWG", "FE", "WCEL"),
    -1: ("2F", "2FWL", "F2WL", "FWG", "FE", "WCEL"),
    0: ("2F", "2FWL", "F2WL", "F2WG", "FE", "WCEL"),
    1: ("3F", "2FW2L", "F2W2L", "F2WG", "F2E", "2WCEL"),
    2: ("3F", "2FW2L", "F2W2L", "F2WG", "F2E", "2WCEL"),
    3: ("3F", "2FW2L", "F2W2L", "F3WG", "F2E", "2WCEL"),
    4: ("4F", "3FW2L", "F3W2L", "F3WG", "2F2E", "3WCEL"),
    5: ("4F", "3FW2L", "F3W2L", "F3WG", "2F2E", "3WCEL"),
    6: ("4F", "3FW2L", "F3W2L", "F3WG", "2F2E", "3WCEL"),
    7: ("4F", "3FW2L", "F3W2L", "F4WG", "2F2E", "3WCEL"),
    8: ("4FW", "3F2W2L", "2F3W2L", "F4WG", "3F2E", "3W2CEL"),
    9: ("4FW", "3F2W2L", "2F3W2L", "F4WG", "3F2E", "3W2CEL"),
    10: ("4FW", "3F2W2L", "2F3W2L", "F4WG", "3F2E", "3W2CEL"),
    11: ("4FW", "3F2W2L", "2F3W2L", "2F4WG", "4F2E", "3W2CEL"),
    12: ("4FWE", "3F2W3L", "3F3W2L", "2F4WG", "4F3E", "4W2CEL"),
    13: ("5FWE", "3F2W4L", "4F3W2L", "2F4WGL", "5F3E", "4W2CEL"),
    14: ("5F2WE", "4F2W4L", "5F3W2L", "2F5WGL", "6F3E", "5W2CEL"),
    15: ("5F2W2E", "4F3W4L", "5F3W3L", "3F5WGL", "6F4E", "5W2CE2L"),
    16: ("6F2W2E", "4F3WE4L", "5F4W3L", "3F5WG2L", "7F4E", "5W2C2E2L"),
    17: ("6F3W2E", "4F3W2E4L", "5F4W4L", "3F6WG2L", "8F4E", "5W2C2E3L"),
    18: ("6F3W3E", "5F3W2E4L", "6F4W4L", "3F7WG2L", "9F4E", "5W2C2E4L"),
    19: ("7F3W3E", "5F3W3E4L", "6F5W4L", "3F8WG2L", "9F5E", "6W2C2E4L"),
}


#: rule 24, Max. Level Sp. lost to E hits: single engine the first; twin engine each from the
#: second; Il-2 from the 3rd; P-47, FW-190F ... from the 2nd (each hit from then on)
RULE_24 = {
    "single": lambda e: min(e, 1),
    "twin": lambda e: max(e - 1, 0),
    "il_2": lambda e: max(e - 2, 0),
    "p_47_group": lambda e: max(e - 1, 0),
    "none": lambda e: 0,
}


def column(gun_factors: int, range_hexes: int) -> int:
    band = next(cols for (lo, hi), cols in BANDS if lo <= gun_factors <= hi)
    return band[range_hexes - 1]


def hit_code(code: str) -> dict[str, int]:
    """'In each column, a number refers only to the type of hit that is the first to follow.'"""
    out: dict[str, int] = {}
    n = ""
    for ch in code:
        if ch.isdigit():
            n += ch
        else:
            out[ch] = int(n or 1)
            n = ""
    return out


def aaf_burst(
    gun_factors: int,
    range_hexes: int,
    boxes: dict[str, int],
    marked: dict[str, int],
    *,
    entry_above: tuple[int, ...] = (),
    c_times: int = 1,
    engine: str = "single",
    heavy_bomber: bool = False,
) -> dict[str, Fraction]:
    """One burst: the entry rolls (each a d6 that must show more than its number: rule 12's
    High Deflection roll, rule 15's "F" entry), then a d6 on the column; its hits marked.
    Facts: a hit type's boxes all marked ("X boxes exhausted", out of the fight), an E hit
    ("engine damaged"), Max. Level Sp. lost (rule 24 by the ``engine`` line, rule 27's W
    limit), rule 27's W limit (-.1 per W hit up to -.4, -.5 if 7+ W intact)."""
    out: Ends = {}
    p_enter = Fraction(1)
    for above in entry_above:
        p_enter *= Fraction(sum(1 for (f,) in faces(1) if f > above), 6)
    if p_enter < 1:
        out[frozenset()] = 1 - p_enter
    col = column(gun_factors, range_hexes)
    for (face,) in faces(1):
        hits = hit_code(RESULTS[col][face - 1])
        if "C" in hits:
            hits["C"] *= c_times
        now = {t: marked.get(t, 0) + hits.get(t, 0) for t in boxes}
        facts = {f"{t} boxes exhausted" for t in boxes if 0 < boxes[t] <= now[t]}
        if facts:
            facts |= {"destroyed", "out of the fight"}
        if hits.get("E") and not marked.get("E"):
            facts.add("engine damaged")

        def w_limit(w: int) -> bool:
            # "-.5 if 7+ W intact": the card's W boxes (the game's reading unless it chose
            # 'w_intact_remaining', the boxes still unhit)
            cap = 5 if boxes["W"] >= 7 else 4
            return not heavy_bomber and w >= cap

        limit = w_limit(now["W"]) and not w_limit(marked.get("W", 0))
        if limit:
            facts.add("W limit reached (27)")
        level = RULE_24[engine]
        if level(now["E"]) > level(marked.get("E", 0)) or limit:
            facts.add("Max. Level Sp. lost")
        key = frozenset(facts)
        out[key] = out.get(key, Fraction(0)) + p_enter / 6
    return marginals(out)


# ==== Air Power (seed 000): Air-to-Air Gun Combat, Aircraft Damage Resolution =============


def airpower_damage(
    pending: list[tuple[int, str]],
    table: dict[str, list[str]],
    out_of_the_fight: set[str],
    *,
    rocket_modifier: int = -2,
) -> dict[str, Fraction]:
    """Each hit waiting: a d10 in its attack rating's column (the umpire's table: the text
    does not print it; rockets -2 "just like direct missile hits"); a list holds the results
    of modified rolls -1 ... 10; "-" is no effect."""
    out: Ends = {frozenset(): Fraction(1)}
    for rating, weapon in pending:
        nxt: Ends = {}
        mod = rocket_modifier if weapon == "rocket" else 0
        for (face,) in faces(1, D10):
            result = table[str(rating)][face + mod + 1]
            extra = frozenset() if result == "-" else frozenset({f"damage result {result}"})
            if result in out_of_the_fight:
                extra |= {"destroyed", "out of the fight"}
            for k, v in out.items():
                nxt[k | extra] = nxt.get(k | extra, Fraction(0)) + v / 10
        out = nxt
    return marginals(out)


def airpower_gun(
    number: int, modifier: int, rating: int, then: list[tuple[int, str]], **kw: object
) -> dict[str, Fraction]:
    """'d10, modified; a hit if at most the hit die roll' (one gun): the hit waits with its
    attack rating for its damage roll, after the hits already waiting."""
    out: dict[str, Fraction] = {}
    hit = Fraction(sum(1 for (f,) in faces(1, D10) if f + modifier <= number), 10)
    if hit:
        for k, v in airpower_damage([*then, (rating, "gun")], **kw).items():  # type: ignore[arg-type]
            out[k] = out.get(k, Fraction(0)) + hit * v
    if hit < 1 and then:
        for k, v in airpower_damage(then, **kw).items():  # type: ignore[arg-type]
            out[k] = out.get(k, Fraction(0)) + (1 - hit) * v
    return out
