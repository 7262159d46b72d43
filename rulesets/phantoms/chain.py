"""Phantoms' chain of follow-up rolls (issue 45), for the odds to the end of the chain.

An aircraft hit by guns (7.2) or a missile (7.1.3) owes the critical hits of 8.1, rolled one by
one on the Critical Hit Table; a result that destroys it is followed by the ejection (8.2); a
Fire critical makes it check its fire in each Fire-Check Segment (9.0) until the fire is out
or it is lost, a check of 5 or less bringing one more critical hit; an aircraft out of control
(6.4.1) checks recovery in each impulse it would move (6.4.2) and crashes when it fails below
altitude 0 (6.4.3). The state that matters (``Plane``) is the criticals owed, the hits that
make a second one worse, the fire, the loss and its cause, the pilot, and for an aircraft out
of control its altitude and the impulse (the Movement Impulse Chart says when it moves).

Every roll is worked out by the functions its procedure uses (``critical_result``,
``loss_cause``, ``ejection_modifier``, ``fire_modifier``, ``fire_result``, the recovery
range), with the game's readings (variants). Fire checks and recoveries are taken at the
aircraft's speed now, not diving: the players set speed and dive as they go.

Facts (``ChainOdds.chances``), each newly true at the end of the chain:

- "destroyed": lost to a critical hit, or crashed out of control;
- "pilot killed": a second Pilot Wounded, or an ejection that failed;
- "ejected": a safe ejection (8.2);
- "out of the fight": any of those, or broken off (10.0);
- "fire": a Fire critical hit (Critical Hit Table #8), even one put out later;
- "pilot wounded", "structural damage", "engine damaged": those critical hits.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, cast

from app.core.chain_model import STANDARD_FACTS, ChainModel, standard_facts
from app.core.engagement import Engagement, Status
from app.core.markov import Weighted
from app.core.ruleset import PilotQuality
from rulesets.phantoms.clock import IMPULSES, clock_of, now_impulse
from rulesets.phantoms.damage import (
    CRITICALS_AFTER_LOSS,
    LOSING_RESULTS,
    STRUCTURAL,
    critical_result,
    ejection_modifier,
    ejection_result,
    fire_modifier,
    fire_result,
    loss_cause,
)
from rulesets.phantoms.state import pilot_of, state_of
from rulesets.phantoms.tables import tables

Pilot = Literal["in", "killed", "ejected"]
#: (impulse 1-10, slot): slot 0 the Movement Segment (recovery), 1 the Fire-Check Segment
Clock = tuple[int, int]


class Plane(NamedTuple):
    """What the rolls to come read of one aircraft (the names the Critical Hit Table's
    ``critical_result`` reads)."""

    due: int
    pilot_wounded: bool
    structural_damage: bool
    engine_hit: bool
    fire_hits: int
    on_fire: bool
    in_hard_turn_or_loop: bool
    #: the cause of its loss (``loss_cause``), None while it flies
    lost: str | None
    pilot: Pilot
    ejection_rolled: bool
    crashed: bool
    broken_off: bool
    out_of_control: bool
    altitude: int
    speed: int
    quality: PilotQuality
    #: the next segment of a roll for an aircraft out of control, else None
    clock: Clock | None = None
    #: a Fire critical hit since before the action (the fact "fire", even if put out)
    fire_new: bool = False

    @property
    def had_fire(self) -> bool:
        return self.fire_hits > 0

    @property
    def out(self) -> bool:
        """Out of the fight (10.0 broken off, or lost)."""
        return self.lost is not None or self.crashed or self.pilot != "in" or self.broken_off

    @property
    def in_play(self) -> bool:
        return not self.out


class PhantomsChain(ChainModel[Plane]):
    """The chain of a Phantoms action (see the module), with the game's readings."""

    listed = (*STANDARD_FACTS, "pilot wounded", "structural damage", "engine damaged")

    def __init__(self, variants: frozenset[str]) -> None:
        self.variants = variants
        self.table = tables()
        self._memo: dict[Plane, object] = {}
        #: the Critical Hit Table's rows (8.1): a d10 face of each, and how many faces give it
        #: (``critical_result`` reads the row a face gives, never the face itself)
        faces: dict[str, list[int]] = {}
        for roll in range(1, 11):
            faces.setdefault(self.table.critical.row(roll).id, []).append(roll)
        self._critical_rows = tuple((rolls[0], len(rolls)) for rolls in faces.values())

    @property
    def memo(self) -> dict[Plane, object]:
        return self._memo

    def state(
        self, engagement: Engagement, aircraft: str, before: Engagement | None = None
    ) -> Plane:
        a = engagement.get(aircraft)
        st = state_of(a)
        maneuver = st.maneuver
        lost = (st.destroyed_by or "other") if Status.DESTROYED in a.status else None
        pilot: Pilot = "in"
        if Status.PILOT_KILLED in a.status:
            pilot = "killed"
        elif Status.EJECTED in a.status:
            pilot = "ejected"
        plane = Plane(
            due=st.criticals_due,
            pilot_wounded=Status.WOUNDED in a.status,
            structural_damage=STRUCTURAL in a.status,
            engine_hit=Status.ENGINE_DAMAGED in a.status,
            fire_hits=st.fire_hits,
            on_fire=Status.ON_FIRE in a.status,
            in_hard_turn_or_loop=maneuver is not None and maneuver.kind in ("hard_turn", "loop"),
            lost=lost,
            pilot=pilot,
            ejection_rolled=st.ejection_rolled,
            crashed=Status.CRASHED in a.status,
            broken_off=Status.BROKEN_OFF in a.status,
            out_of_control=Status.OUT_OF_CONTROL in a.status,
            altitude=st.altitude,
            speed=max(st.speed, 1),
            quality=cast(PilotQuality, pilot_of(a)),
            fire_new=before is not None and st.fire_hits > state_of(before.get(aircraft)).fire_hits,
        )
        return self._timed(plane, _start_clock(engagement, st.fire_checked_at))

    # -- which roll comes next -------------------------------------------------------------

    def _can_roll_critical(self, s: Plane) -> bool:
        if s.in_play:
            return True
        return (
            CRITICALS_AFTER_LOSS in self.variants
            and s.lost is not None
            and s.pilot == "in"
            and not s.crashed
        )

    def _timed(self, s: Plane, clock: Clock | None) -> Plane:
        """``s`` with its clock: only an aircraft out of control needs one (when it moves);
        a fire alone is checked every impulse."""
        if not (s.in_play and s.out_of_control):
            return s if s.clock is None else s._replace(clock=None)
        c = clock or (1, 0)
        for _ in range(2 * IMPULSES):
            impulse, slot = c
            if slot == 0 and max(s.speed, 1) in self.table.impulse_chart.speeds[impulse]:
                break
            if slot == 1 and s.on_fire:
                break
            c = _after(c)
        return s if s.clock == c else s._replace(clock=c)

    def owed(self, s: Plane) -> str | None:
        if s.due > 0 and self._can_roll_critical(s):
            return "critical_hit"
        if s.lost is not None and s.pilot == "in" and not s.ejection_rolled and not s.crashed:
            return "ejection"
        if not s.in_play:
            return None
        if s.out_of_control:
            assert s.clock is not None
            return "recovery" if s.clock[1] == 0 else "fire_check"
        return "fire_check" if s.on_fire else None

    def roll(self, s: Plane) -> Weighted[Plane]:
        pid = self.owed(s)
        if pid == "critical_hit":
            return self._critical(s)
        if pid == "ejection":
            return self._ejection(s)
        if pid == "recovery":
            return self._recovery(s)
        return self._fire_check(s)

    # -- the rolls -------------------------------------------------------------------------

    def _critical(self, s: Plane) -> Weighted[Plane]:
        """Critical Hit Table (8.1): one d10, each row once with the faces that give it."""
        out: dict[Plane, int] = {}
        for roll, ways in self._critical_rows:
            nxt = self._critical_effect(s, critical_result(roll, s, self.variants, self.table))
            nxt = self._timed(nxt, nxt.clock)
            out[nxt] = out.get(nxt, 0) + ways
        return Weighted(out, 10)

    def _critical_effect(self, s: Plane, result: str) -> Plane:
        """What ``CriticalHitRoll`` does with a result (8.1, the Critical Hit Table)."""
        s = s._replace(due=s.due - 1)
        if result == "pilot wounded":
            return s._replace(pilot_wounded=True)
        if result == "structural damage":
            return s._replace(structural_damage=True)
        if result == "engine hit":
            return s._replace(engine_hit=True)
        if result == "fire":
            return s._replace(on_fire=True, fire_hits=s.fire_hits + 1, fire_new=True)
        if result not in LOSING_RESULTS:
            return s  # Minor Damage
        if s.lost is not None:  # criticals_after_loss: the first cause stands
            if result == "destroyed by fire":
                return s._replace(on_fire=True, fire_hits=s.fire_hits + 1, fire_new=True)
            if result == "pilot killed":
                return s._replace(pilot="killed", due=0)
            return s
        due = s.due if CRITICALS_AFTER_LOSS in self.variants else 0
        s = s._replace(lost=loss_cause(result, self.variants), due=due)
        if result == "pilot killed":
            s = s._replace(pilot="killed", due=0)
        if result == "destroyed by fire":
            s = s._replace(fire_hits=s.fire_hits + 1, fire_new=True)
        return s

    def _ejection(self, s: Plane) -> Weighted[Plane]:
        """8.2: a d10 plus the modifiers ``ejection_state`` reads (on fire: burning, or lost
        to a second Fire critical)."""
        by = s.lost if s.lost in ("major damage", "structural breakup") else "other"
        m = ejection_modifier(
            s.pilot_wounded, s.on_fire or s.lost == "fire", by or "other", self.table
        )
        out: dict[Plane, int] = {}
        for roll in range(1, 11):
            ejected = ejection_result(roll, m, self.table) == "ejected"
            pilot: Pilot = "ejected" if ejected else "killed"
            nxt = s._replace(pilot=pilot, ejection_rolled=True)
            out[nxt] = out.get(nxt, 0) + 1
        return Weighted(out, 10)

    def _fire_check(self, s: Plane) -> Weighted[Plane]:
        """9.0: a d10 plus speed and pilot (not diving); out, still burning, or a critical."""
        m = fire_modifier(s.speed, False, s.quality, self.table)
        out: dict[Plane, int] = {}
        for roll in range(1, 11):
            result = fire_result(roll + m, self.variants, self.table)
            nxt = s
            if result == "fire out":
                nxt = s._replace(on_fire=False)
            elif result == "critical hit":
                nxt = s._replace(due=s.due + 1)
            nxt = self._timed(nxt, None if nxt.clock is None else _after(nxt.clock))
            out[nxt] = out.get(nxt, 0) + 1
        return Weighted(out, 10)

    def _recovery(self, s: Plane) -> Weighted[Plane]:
        """6.4.2-6.4.3: recovered within the pilot's range (then d6 speed lost, at least 1);
        otherwise down one altitude level, crashing below altitude 0."""
        assert s.clock is not None
        safe = self.table.pilot.recovery[s.quality]
        after = _after(s.clock)
        out: dict[Plane, int] = {}

        def add(nxt: Plane, ways: int) -> None:
            nxt = self._timed(nxt, after)
            out[nxt] = out.get(nxt, 0) + ways

        # ways out of the 60 faces of the d10 and the d6 of the speed lost
        for roll in range(1, 11):
            if roll <= safe:
                for lost in range(1, 7):
                    add(s._replace(out_of_control=False, speed=max(s.speed - lost, 1)), 1)
            elif s.altitude == 0:
                add(s._replace(crashed=True), 6)
            else:
                add(s._replace(altitude=s.altitude - 1), 6)
        return Weighted(out, 60)

    # -- what came of it -------------------------------------------------------------------

    def facts(self, s: Plane) -> frozenset[str]:
        facts = standard_facts(
            destroyed=s.lost is not None or s.crashed,
            pilot_killed=s.pilot == "killed",
            ejected=s.pilot == "ejected",
            out=s.out,
        )
        own = (
            ("fire", s.fire_new),
            ("pilot wounded", s.pilot_wounded),
            ("structural damage", s.structural_damage),
            ("engine damaged", s.engine_hit),
        )
        return frozenset(facts | {fact for fact, holds in own if holds})

    def notes(self, start: Plane, owed: frozenset[str]) -> tuple[str, ...]:
        if not owed & {"fire_check", "recovery"}:
            return ()
        return (
            f"fire checks and recoveries at speed {start.speed}, as now, not diving, each "
            "impulse until the fire is out or it recovers (9.0, 6.4.2)",
        )


def _after(c: Clock) -> Clock:
    impulse, slot = c
    if slot == 0:
        return impulse, 1
    return (impulse % IMPULSES) + 1, 0


def _start_clock(engagement: Engagement, fire_checked_at: int | None) -> Clock:
    """The next segment a roll of an aircraft out of control may come in: this impulse's
    Fire-Check Segment if it is still to come (or not yet checked), else the next impulse's
    Movement Segment (an aircraft that lost control in this impulse's movement has moved)."""
    impulse, seg = clock_of(engagement.step)
    if impulse is None or seg is None:
        return 1, 0
    if seg == "a" or (seg == "b" and fire_checked_at != now_impulse(engagement)):
        return impulse, 1
    return (impulse % IMPULSES) + 1, 0
