"""The UFO game's chain of follow-up rolls (issue 45), for the odds to the end of the chain.

A hit is a roll on the damage table ("Cannon- Roll d6+1 and subtract range in inches- this is
number of hits on Damage Table"; "Ray Gun- Any 5 or 6 is a hit- roll on damage table"; a
missile within 1" "explodes for 1d6 rolls on Damage Table"). The rolls are made one by one
(2d6, the target's column), each with the dice its result calls for (d6 DP, d6 of maximum
speed, a d6 per hard point with 6 = lost and the AMRAAM point's "+d6 DP if hit", d6 of ray gun
charge, 2d6 DP); then the crash and destruction checks; then, for a plane damaged in the turn,
the vital-system check (d6 less than the damage taken ejects the pilot). The state that
matters (``Craft``) is the rolls owed, the damage, the maximum speed and Anti-Grav while they
could still reach 0 in the rolls owed, the hard points still to lose, the vital-system check
owed, and what has come of the chain so far.

Every roll is read from the same damage table and card as ``DamageRoll``, ``VitalSystem`` and
``DamageEffects.finish``, with the game's readings (variants). Hard points matter to the
chain only as a count (a "hard point lost") and by the "+d6 DP" they carry, so the points
without it are counted, not named.

Facts (``ChainOdds.chances``), each newly true at the end of the chain:

- "destroyed": destroyed (its damage points, "Critical- plane destroyed") or crashed (0
  speed, 0 Anti-Grav, "Pilot killed- Automatic Crash");
- "pilot killed": a plane's pilot, killed or dying with the plane ("If a plane is destroyed
  the pilot dies");
- "ejected": a vital system hit ("the pilot ejects (and lands) safely");
- "out of the fight": any of those;
- "fire": never (these rules have no fire);
- "engine damaged": maximum speed lost; "hard point lost"; "anti-grav lost"; "ray gun charge
  lost".
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, Literal, NamedTuple

from app.core.chain_model import STANDARD_FACTS, ChainModel, standard_facts
from app.core.dice import DiceSpec, distribution
from app.core.engagement import AircraftState, Engagement, Status
from app.core.markov import Weighted

from .card import card_of
from .damage import (
    DP_EXHAUSTED_NOT_DESTROYED,
    EXTRA_DP_ON_LOCATION_ONLY,
    UFO_ZERO_SPEED_CRASHES,
    VITAL_THIS_TURN,
)
from .sequence import VITAL_EACH_DAMAGE_ROLL
from .state import Ledger, in_flight, lost_hard_points, state_of
from .tables import Effect, damage_table

#: a plane's damage past this is the same to the vital-system check (a d6 is always less)
DAMAGE_CAP = 7


class Craft(NamedTuple):
    """What the rolls to come read of one plane or UFO, and what has come of the chain so far.
    A value no rule of the chain reads again is set aside (``None``, 0), so states with the
    same future are one."""

    fighter: bool
    due: int
    damage: int
    max_damage: int | None
    #: damage taken this turn (the ``vital_this_turn`` reading's total)
    damage_now: int
    #: maximum speed and Anti-Grav, while the rolls owed could still take them to 0
    top: int | None
    grav: int | None
    #: the ray gun with the highest charge has some (damage result 8 would take it)
    charged: bool
    #: hard points not lost: those carrying "+d6 DP if hit" (number, dice), and how many others
    extra_left: tuple[tuple[int, str], ...]
    plain_left: int
    #: a plane damaged this turn, its vital-system check made this turn, and (reading
    #: ``vital_each_damage_roll``) the checks owed
    damaged: bool
    checked: bool
    vital_due: int
    destroyed: bool
    crashed: bool
    pilot_killed: bool
    ejected: bool
    engine_damaged: bool
    #: since before the action: a hard point, Anti-Grav, ray gun charge lost
    hp_lost: bool
    grav_lost: bool
    charge_lost: bool

    @property
    def out(self) -> bool:
        return self.destroyed or self.crashed or self.pilot_killed or self.ejected


class UfoChain(ChainModel[Craft]):
    """The chain of a UFO game action (see the module), with the game's readings."""

    listed = (*STANDARD_FACTS, "engine damaged", "hard point lost", "anti-grav lost")

    @property
    def table(self) -> object:
        """The damage table read (a model is made again when it changes)."""
        return self._table

    def __init__(self, variants: frozenset[str]) -> None:
        self.variants = variants
        self._table = damage_table()
        self._memo: dict[Any, Any] = {}
        self._hit_ways: dict[Any, tuple[tuple[tuple[_Hit, int], ...], int]] = {}
        self._exhausted_destroys = DP_EXHAUSTED_NOT_DESTROYED not in variants
        self._ufo_crashes = UFO_ZERO_SPEED_CRASHES in variants
        self._per_roll = VITAL_EACH_DAMAGE_ROLL in variants
        self._this_turn = VITAL_THIS_TURN in variants
        #: each column's results with their ways out of the 36 of 2d6, equal results as one
        self._rows: dict[str, tuple[tuple[Effect, int], ...]] = {}
        kinds: tuple[Literal["fighter", "ufo"], ...] = ("fighter", "ufo")
        for kind in kinds:
            rows: dict[Effect, int] = {}
            for total, ways, _ in _ways("2d6"):
                effect = self._table.effect(total, kind).model_copy(update={"text": "-"})
                rows[effect] = rows.get(effect, 0) + ways
            self._rows[kind] = tuple(rows.items())
        #: the most maximum speed and Anti-Grav one roll can take, per column
        self._most: dict[str, tuple[int, int]] = {}
        for kind in kinds:
            effects = [self._table.effect(r, kind) for r in range(2, 13)]
            self._most[kind] = (
                max(_most(e.max_speed) for e in effects),
                max(e.anti_grav for e in effects),
            )

    def subject(self, procedure: str, inputs: Any, engagement: Engagement) -> str | None:
        """A missile's flight is about its target (read off the missile in flight)."""
        missile: str = getattr(inputs, "missile", "") or ""
        if procedure == "missile_flight" and missile:
            m = next((x for x in in_flight(engagement) if x.id == inputs.missile), None)
            return m.target if m is not None else None
        return super().subject(procedure, inputs, engagement)

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> Craft:
        a = engagement.get(aircraft)
        st = state_of(a)
        card = card_of(a)
        lost = set(lost_hard_points(a))
        extra_counts = EXTRA_DP_ON_LOCATION_ONLY not in self.variants
        extra = tuple(
            (hp.number, hp.extra_damage)
            for hp in card.hard_points
            if hp.number not in lost and hp.extra_damage and extra_counts
        )
        plain = sum(1 for hp in card.hard_points if hp.number not in lost) - len(extra)
        fighter = card.kind == "fighter"
        b = before.get(aircraft) if before is not None else a
        return self._kept(
            Craft(
                fighter=fighter,
                due=st.damage_rolls_due,
                damage=_capped(fighter, a.damage, a.max_damage),
                max_damage=a.max_damage,
                damage_now=min(st.damaged_in(engagement.turn), DAMAGE_CAP),
                top=_ledger(a, Ledger.MAX_SPEED),
                grav=_ledger(a, Ledger.ANTI_GRAV),
                charged=max(_charges(a), default=0) > 0,
                extra_left=extra,
                plain_left=plain,
                damaged=st.damaged_turn == engagement.turn,
                checked=st.vital_checked_turn == engagement.turn,
                vital_due=st.vital_checks_due,
                destroyed=Status.DESTROYED in a.status,
                crashed=Status.CRASHED in a.status,
                pilot_killed=Status.PILOT_KILLED in a.status,
                ejected=Status.EJECTED in a.status,
                engine_damaged=Status.ENGINE_DAMAGED in a.status,
                hp_lost=len(lost) > len(lost_hard_points(b)),
                grav_lost=(_ledger(a, Ledger.ANTI_GRAV) or 0) < (_ledger(b, Ledger.ANTI_GRAV) or 0),
                charge_lost=sum(_charges(a)) < sum(_charges(b)),
            )
        )

    def _kept(self, s: Craft) -> Craft:
        """``s`` with what no rule of the chain reads again set aside (see ``Craft``)."""
        if s.out:
            return s._replace(
                due=0, vital_due=0, damaged=False, checked=False, damage_now=0, top=None,
                grav=None, charged=False, extra_left=(), plain_left=0, damage=0,
            )  # fmt: skip
        change: dict[str, Any] = {}
        speed_loss, grav_loss = self._most["fighter" if s.fighter else "ufo"]
        crashes = s.fighter or UFO_ZERO_SPEED_CRASHES in self.variants
        if s.top is not None and (not crashes or s.top > s.due * speed_loss):
            change["top"] = None
        if s.grav is not None and (s.fighter or s.grav > s.due * grav_loss):
            change["grav"] = None
        if s.hp_lost and s.plain_left:
            change["plain_left"] = 0
        if s.charge_lost and s.charged:
            change["charged"] = False
        if not s.fighter:
            if s.damaged or s.checked or s.damage_now:
                change.update(damaged=False, checked=False, damage_now=0)
        elif VITAL_THIS_TURN not in self.variants and s.damage_now:
            change["damage_now"] = 0
        if VITAL_EACH_DAMAGE_ROLL in self.variants and s.checked:
            change["checked"] = False
        return s._replace(**change) if change else s

    # -- which roll comes next -------------------------------------------------------------

    def owed(self, s: Craft) -> str | None:
        """The order of ``sequence._due``: damage rolls, then the vital-system check (with the
        per-roll reading, each check before the next damage roll)."""
        if s.out:
            return None
        per_roll = VITAL_EACH_DAMAGE_ROLL in self.variants
        if per_roll and s.fighter and s.vital_due:
            return "vital_system"
        if s.due:
            return "damage_roll"
        if not per_roll and s.fighter and s.damaged and not s.checked:
            return "vital_system"
        return None

    def roll(self, s: Craft) -> Weighted[Craft]:
        if self.owed(s) == "vital_system":
            return self._vital(s)
        hits, den = self._hits(s.fighter, s.top is not None, s.extra_left, s.plain_left)
        out: dict[Craft, int] = {}
        for hit, ways in hits:
            nxt = self._after(s, hit)
            out[nxt] = out.get(nxt, 0) + ways
        return Weighted(out, den)

    # -- the damage table ------------------------------------------------------------------

    def _hits(
        self, fighter: bool, top: bool, extra_left: tuple[tuple[int, str], ...], plain_left: int
    ) -> tuple[tuple[tuple[_Hit, int], ...], int]:
        """What one damage roll can do to a plane or UFO (``fighter``) whose maximum speed is
        kept (``top``) and with these hard points left, before it meets its damage: each
        ``_Hit`` with its ways out of the faces of every die the roll can roll (the 2d6 of the
        table, then the dice its result calls for), and their number. The same for every
        state with those four values, so it is worked out once per model."""
        key = (fighter, top, extra_left, plain_left)
        found = self._hit_ways.get(key)
        if found is None:
            parts: list[tuple[_Hit, int, int]] = []
            for effect, ways in self._rows["fighter" if fighter else "ufo"]:
                for hit, w, n in _effect_hits(effect, top, extra_left, plain_left):
                    parts.append((hit, ways * w, n))
            most = max(n for _, _, n in parts)
            merged: dict[_Hit, int] = {}
            for hit, w, n in parts:
                merged[hit] = merged.get(hit, 0) + w * 6 ** (most - n)
            found = self._hit_ways[key] = (tuple(merged.items()), 36 * 6**most)
        return found

    def _after(self, s: Craft, hit: _Hit) -> Craft:
        """``s`` after one damage roll (``hit``): its DP, speed, Anti-Grav, ray gun and hard
        point losses, then ``DamageEffects.finish``'s checks, with only what the rolls to come
        read kept (as ``_kept``: one new state, no copy of it per value set aside)."""
        (
            fighter, due, damage, max_damage, damage_now, top, grav, charged, _, _, damaged,
            checked, vital_due, destroyed, crashed, killed, ejected, engine, hp_lost, grav_lost,
            charge_lost,
        ) = s  # fmt: skip
        dp = hit.dp
        hurt = False
        if dp > 0:
            new = damage + dp
            if fighter:
                cap = DAMAGE_CAP if max_damage is None or max_damage < DAMAGE_CAP else max_damage
                if new > cap:
                    new = cap
            hurt = new > damage
            damage = new
            damage_now = (damage_now if damaged else 0) + dp
            if damage_now > DAMAGE_CAP:
                damage_now = DAMAGE_CAP
            damaged = True
        if hit.engine:
            engine = True
            if top is not None:
                top = top - hit.speed if top > hit.speed else 0
        if hit.grav and not fighter:
            grav_lost = True
            if grav is not None:
                grav = grav - hit.grav if grav > hit.grav else 0
        if hit.ray and charged:  # 'Ray gun with highest charge loses d6'
            charged, charge_lost = False, True
        destroyed = destroyed or hit.destroyed
        if max_damage is not None and damage >= max_damage and self._exhausted_destroys:
            destroyed = True
        killed = killed or hit.killed or (destroyed and fighter)
        crashes = fighter or self._ufo_crashes
        crashed = crashed or hit.crash or (top == 0 and crashes) or (not fighter and grav == 0)
        hp_lost = hit.lost or hp_lost
        if destroyed or crashed or killed or ejected:
            return _new(Craft, (
                fighter, 0, 0, max_damage, 0, None, None, False, (), 0, False, False, 0,
                destroyed, crashed, killed, ejected, engine, hp_lost, grav_lost, charge_lost,
            ))  # fmt: skip
        due -= 1
        if self._per_roll:
            if hurt and fighter:
                vital_due += 1
            checked = False
        speed_loss, grav_loss = self._most["fighter" if fighter else "ufo"]
        if top is not None and (not crashes or top > due * speed_loss):
            top = None
        if grav is not None and (fighter or grav > due * grav_loss):
            grav = None
        plain = 0 if hp_lost else hit.plain
        if charge_lost:
            charged = False
        if not fighter:
            damaged = checked = False
            damage_now = 0
        elif not self._this_turn:
            damage_now = 0
        return _new(Craft, (
            fighter, due, damage, max_damage, damage_now, top, grav, charged, hit.extra, plain,
            damaged, checked, vital_due, destroyed, crashed, killed, ejected, engine, hp_lost,
            grav_lost, charge_lost,
        ))  # fmt: skip

    def _vital(self, s: Craft) -> Weighted[Craft]:
        """'roll d6. If the result is LESS than the total damage taken then a vital system has
        been hit, the plane is unflyable and the pilot ejects (and lands) safely.'"""
        total = s.damage_now if VITAL_THIS_TURN in self.variants else s.damage
        done = s._replace(vital_due=max(s.vital_due - 1, 0), checked=True)
        out: dict[Craft, int] = {}
        for roll in range(1, 7):
            nxt = self._kept(done._replace(ejected=True) if roll < total else done)
            out[nxt] = out.get(nxt, 0) + 1
        return Weighted(out, 6)

    # -- what came of it -------------------------------------------------------------------

    @property
    def memo(self) -> dict[Any, Any]:
        return self._memo

    def split(self, s: Craft) -> tuple[Craft, frozenset[str]]:
        """Maximum speed lost, a hard point lost, Anti-Grav and ray gun charge lost change
        nothing to come (the values they change are kept apart): set apart."""
        facts = []
        if s.engine_damaged:
            facts.append("engine damaged")
        if s.hp_lost:
            facts.append("hard point lost")
        if s.grav_lost:
            facts.append("anti-grav lost")
        if s.charge_lost:
            facts.append("ray gun charge lost")
        if not facts:
            return s, frozenset()
        core = s._replace(engine_damaged=False, hp_lost=False, grav_lost=False, charge_lost=False)
        return core, frozenset(facts)

    def facts(self, s: Craft) -> frozenset[str]:
        return frozenset(self.split(s)[1] | self._standard(s))

    @staticmethod
    def _standard(s: Craft) -> set[str]:
        return standard_facts(
            destroyed=s.destroyed or s.crashed,
            pilot_killed=s.pilot_killed,
            ejected=s.ejected,
            out=s.out,
        )

    def unlisted(self, s: Craft) -> frozenset[str]:
        """Besides the facts already true: a UFO has no pilot or hard points, a plane no
        Anti-Grav."""
        other = (
            {"pilot killed", "ejected", "hard point lost"} if not s.fighter else {"anti-grav lost"}
        )
        return frozenset(self.facts(s) | other)


def _ledger(a: AircraftState, ledger: str) -> int | None:
    led = a.ledgers.get(ledger)
    return int(led.value) if led is not None else None


def _charges(a: AircraftState) -> list[int]:
    return [int(v.value) for k, v in a.ledgers.items() if k.startswith("ray_gun_")]


def _most(value: int | str | None) -> int:
    """The most a number or a dice spec can give."""
    return max(t for t, _, _ in _ways(value))


def _capped(fighter: bool, damage: int, max_damage: int | None) -> int:
    """A plane's damage as the chain keeps it: past its damage points and ``DAMAGE_CAP`` more
    is the same to every rule (destroyed, or a vital-system check always hit)."""
    if not fighter:
        return damage
    return min(damage, max(DAMAGE_CAP, max_damage or 0))


#: a new ``Craft`` from a tuple of its values, without ``NamedTuple``'s checks (the hot path)
_new = tuple.__new__


class _Hit(NamedTuple):
    """One damage roll's outcome before it meets the state it is rolled on: the result's DP
    (with the "+d6 DP" of hard points lost), maximum speed lost and by how much (0 when the
    speed is not kept), Anti-Grav lost, ray gun hit, destroyed, pilot killed, crash, and the
    hard points left after it (those with "+d6 DP", how many others, whether any is lost)."""

    dp: int
    engine: bool
    speed: int
    grav: int
    ray: bool
    destroyed: bool
    killed: bool
    crash: bool
    extra: tuple[tuple[int, str], ...]
    plain: int
    lost: bool


def _effect_hits(
    effect: Effect, top: bool, extra_left: tuple[tuple[int, str], ...], plain_left: int
) -> Iterable[tuple[_Hit, int, int]]:
    """One damage table result with the dice it rolls (``DamageEffects.finish``,
    ``apply_effect``): each outcome with its ways out of the 6 ** n faces of the n dice it
    rolled. Dice whose face no rule reads again (a speed loss that cannot crash: ``top``
    False; the ray gun's d6) count all their faces."""
    ray = _ways(effect.ray_gun)[0][2] if effect.ray_gun else 0
    speeds = _ways(effect.max_speed)
    if effect.max_speed and not top:
        speeds = ((0, 6 ** speeds[0][2], speeds[0][2]),)
    if effect.hard_points:
        points = _hard_point_outcomes(extra_left, plain_left)
    else:
        points = ((extra_left, plain_left, False, 0, 1, 0),)
    engine, grav, hit_ray = bool(effect.max_speed), effect.anti_grav, bool(effect.ray_gun)
    for dp, w1, n1 in _ways(effect.dp):
        for speed, w2, n2 in speeds:
            for extra, plain, lost, more, w3, n3 in points:
                hit = _Hit(
                    dp + more, engine, speed, grav, hit_ray, effect.destroyed,
                    effect.pilot_killed, effect.crash, extra, plain, lost,
                )  # fmt: skip
                yield hit, w1 * w2 * w3 * 6**ray, n1 + n2 + n3 + ray


@cache
def _hard_point_outcomes(
    extra_left: tuple[tuple[int, str], ...], plain_left: int
) -> tuple[tuple[tuple[tuple[int, str], ...], int, bool, int, int, int], ...]:
    """'Roll for each hardpoint, 6 = lost': (points with "+d6 DP" left, others left, any
    lost, the DP their "+d6 DP if hit" adds, ways, dice) -- the points without it by whether
    any is lost (no rule reads which), each with it one by one, its d6 DP taken when lost."""
    n = plain_left
    none = 5**n
    out: list[tuple[tuple[tuple[int, str], ...], int, bool, int, int, int]] = []
    for extra, lost, more, w, m in _extra_outcomes(extra_left):
        out.append((extra, n, lost, more, none * w, n + m))
        if n:
            out.append((extra, 0, True, more, (6**n - none) * w, n + m))
    return tuple(out)


@cache
def _extra_outcomes(
    left: tuple[tuple[int, str], ...],
) -> tuple[tuple[tuple[tuple[int, str], ...], bool, int, int, int], ...]:
    if not left:
        return (((), False, 0, 1, 0),)
    (number, dice), rest = left[0], left[1:]
    out = []
    for extra, lost, more, w, m in _extra_outcomes(rest):
        out.append((((number, dice), *extra), lost, more, 5 * w, 1 + m))
        for dp, w1, n1 in _ways(dice):
            out.append((extra, True, more + dp, w1 * w, 1 + n1 + m))
    return tuple(out)


@cache
def _ways(value: int | str | None) -> tuple[tuple[int, int, int], ...]:
    """A number, or each total of a dice spec of d6s ("d6", "2d6"): (total, ways, dice)."""
    if value is None or isinstance(value, int):
        return ((value or 0, 1, 0),)
    spec = DiceSpec.parse(value)
    faces = 6**spec.count
    return tuple((t, int(p * faces), spec.count) for t, p in distribution(value).items())


__all__ = ["Craft", "UfoChain"]
