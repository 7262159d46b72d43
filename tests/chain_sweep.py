"""Issue 45: the sweep of whole chains -- 96 actions of the four games whose actions owe
follow-up rolls or leave hit boxes (UFO 42, Advanced Air Force 23, Phantoms 21, Air Power 10)
-- for ``tests/unit/core/test_chain_odds.py`` (against ``tests/chain_oracles.py``) and
``tests/bench/bench_chain_odds.py``.

Each case is the game (a session, and the state it is asked on: damaged starts are the
session's state with events applied), the action and its inputs, and, for the cases the
enumeration written from the texts can follow, what it expects. Table values the texts do not
print are test values (``tests.umpire_values``), saved in the test's own data folder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.core.data import save_override
from app.core.engagement import Engagement, Status, apply
from app.core.events import AttributesSet, DamageTaken, Event, StatusChanged
from app.session import GameSession
from tests import chain_oracles as o
from tests.umpire_values import AIRPOWER_MODIFIERS

#: test values, not the game's (the text does not print the Aircraft Damage table): rating r
#: has r "X" results from the top of the roll, then "A"s, then no effect
AP_DAMAGE: dict[str, Any] = {
    "results": {str(r): ["X"] * min(6, r) + ["A"] * 3 + ["-"] * (9 - min(6, r)) for r in range(13)},
    "outcomes": {"out_of_the_fight": ["X"]},
}


@dataclass
class Case:
    id: str
    ruleset: str
    session: GameSession
    engagement: Engagement
    procedure: str
    inputs: BaseModel
    then: list[tuple[str, BaseModel]] = field(default_factory=list)
    #: what the enumeration from the texts expects (None: not enumerated, the bench's only)
    expect: Callable[[], dict[str, Fraction]] | None = None


def _with(engagement: Engagement, *events: Event) -> Engagement:
    for ev in events:
        engagement = apply(engagement, ev, engagement.seq)
    return engagement


def _prepared(s: GameSession, pid: str, roles: dict[str, str], typed: dict[str, Any]) -> Any:
    p = s.actions.prepare(pid, roles, typed)
    if p.inputs is None:
        p = s.actions.prepare(
            pid, roles, {**typed, **{v.name: 1 for v in p.values if v.source == "unset"}}
        )
    assert p.inputs is not None, (pid, p.error)
    return p.inputs


# -- Phantoms ---------------------------------------------------------------------------------


def phantoms(folder: Path) -> list[Case]:
    from rulesets.phantoms.state import MissileInFlight, flying

    s = GameSession.create(folder / "phantoms.airboss", "phantoms", "sweep")
    olds = s.add_aircraft("USAF", "f4e", "Olds 1")
    red = s.add_aircraft("VPAF", "mig21", "Red 1", pilot="experienced")
    e0 = s.engagement
    t0 = e0.get(red)
    roles = {"attacker": olds, "target": red}
    speed = t0.attributes["speed"]
    out: list[Case] = []

    def gun_case(cid: str, engagement: Engagement, n: int, jet: o.Jet, damage: int = 0) -> Case:
        inputs = _prepared(s, "gun_attack", roles, {"position_modifier": n})
        att, dfn = o.gun_totals(inputs)
        chart = inputs.hits_by_difference  # type: ignore[attr-defined]
        t = engagement.get(red)

        def expect() -> dict[str, Fraction]:
            return o.phantoms_attack(att, dfn, chart, jet, t.damage, t.max_damage or 0)

        return Case(cid, "phantoms", s, engagement, "gun_attack", inputs, expect=expect)

    base = o.Jet(speed=speed, quality="experienced")
    for n in range(10):
        out.append(gun_case(f"phantoms gun, position {n}", e0, n, base))
    near = t0.max_damage - 1  # type: ignore[operator]
    out.append(
        gun_case(
            "phantoms gun, damage at the maximum",
            _with(e0, DamageTaken(aircraft=red, points=near)),
            0,
            base,
        )
    )
    out.append(
        gun_case(
            "phantoms gun, damage two short of the maximum",
            _with(e0, DamageTaken(aircraft=red, points=near - 1)),
            3,
            base,
        )
    )
    burning = _with(
        e0,
        StatusChanged(aircraft=red, set=(Status.ON_FIRE,)),
        AttributesSet(aircraft=red, values={"fire_hits": 1}),
    )
    out.append(
        gun_case(
            "phantoms gun, target on fire", burning, 0, replace_jet(base, fires=1, burning=True)
        )
    )
    put_out = _with(e0, AttributesSet(aircraft=red, values={"fire_hits": 1}))
    out.append(
        gun_case("phantoms gun, a fire put out before", put_out, 0, replace_jet(base, fires=1))
    )
    hurt = _with(
        e0,
        StatusChanged(aircraft=red, set=(Status.WOUNDED, "structural_damage")),
    )
    out.append(
        gun_case(
            "phantoms gun, wounded and structural",
            hurt,
            2,
            replace_jet(base, wounded=True, structural=True),
        )
    )

    def missile_case(cid: str, engagement: Engagement, guidance: str, hit: int, jet: o.Jet) -> Case:
        flight = MissileInFlight(
            attacker=olds, target=red, missile="aim9", name="AIM-9", guidance=guidance,
            active=False, hit=hit, launched_at=None, impact_at=0,
        )  # fmt: skip
        engagement = _with(engagement, flying([flight]))
        proc = s.ruleset.procedures["missile_attack"]
        inputs = proc.parse(
            {
                **roles, "guidance": guidance, "hit_number": hit, "position_modifier": 0,
                "target_countermeasures": 2, "target_pilot": "experienced", "target_altitude": 3,
            }
        )  # fmt: skip
        t = engagement.get(red)

        def expect() -> dict[str, Fraction]:
            return o.phantoms_attack(hit, 2 + 2, None, jet, t.damage, t.max_damage or 0)

        return Case(cid, "phantoms", s, engagement, "missile_attack", inputs, expect=expect)

    out.append(missile_case("phantoms heat missile, hit 6", e0, "heat", 6, base))
    out.append(missile_case("phantoms radar missile, hit 9", e0, "radar", 9, base))
    out.append(
        missile_case(
            "phantoms heat missile, fire put out before",
            put_out,
            "heat",
            8,
            replace_jet(base, fires=1),
        )
    )
    out.append(
        missile_case(
            "phantoms radar missile, target on fire",
            burning,
            "radar",
            7,
            replace_jet(base, fires=1, burning=True),
        )
    )

    owed = _with(e0, AttributesSet(aircraft=red, values={"criticals_due": 3}))
    crit = s.ruleset.procedures["critical_hit"].parse({"aircraft": red})

    def crit_expect() -> dict[str, Fraction]:
        return o.marginals(o.jet_end(replace_jet(base, due=3)))

    out.append(
        Case(
            "phantoms three critical hits owed",
            "phantoms",
            s,
            owed,
            "critical_hit",
            crit,
            expect=crit_expect,
        )
    )
    fire = s.ruleset.procedures["fire_check"].parse(
        {"aircraft": red, "speed": speed, "pilot": "experienced"}
    )

    def fire_expect() -> dict[str, Fraction]:
        return o.marginals(o.jet_end(replace_jet(base, fires=1, burning=True)))

    out.append(
        Case("phantoms fire check", "phantoms", s, burning, "fire_check", fire, expect=fire_expect)
    )
    return out


def replace_jet(j: o.Jet, **kw: Any) -> o.Jet:
    from dataclasses import replace

    return replace(j, **kw)


# -- UFO interception -------------------------------------------------------------------------


def ufo(folder: Path) -> list[Case]:
    from rulesets.ufo_interception.state import Missile, flying

    s = GameSession.create(folder / "ufo.airboss", "ufo_interception", "sweep")
    t1 = s.add_aircraft("RAF", "tornado", "T1")
    t2 = s.add_aircraft("Rogue", "tornado", "T2")
    saucer = s.add_aircraft("UFO", "small_ufo", "Saucer")
    for _ in range(3):
        s.clock.next_step()  # Cannon firing, at the half way point
    e0 = s.engagement
    cannon = s.ruleset.procedures["cannon"]
    out: list[Case] = []

    def cannon_case(
        cid: str, target: str, rng: int, engagement: Engagement, start: Any, then: int | None = None
    ) -> Case:
        inputs = cannon.parse({"attacker": t1, "target": target, "range_inches": rng})
        later = (
            []
            if then is None
            else [
                ("cannon", cannon.parse({"attacker": t1, "target": target, "range_inches": then}))
            ]
        )

        def expect() -> dict[str, Fraction]:
            second = None if then is None else o.cannon_hits(then)
            return o.ufo_chain(o.cannon_hits(rng), start, second)

        most = 7 - rng + (7 - then if then is not None else 0)
        heavy = isinstance(start, o.Plane) and most > 5
        return Case(
            cid,
            "ufo_interception",
            s,
            engagement,
            "cannon",
            inputs,
            later,
            None if heavy else expect,
        )

    for rng in range(7):
        out.append(cannon_case(f"ufo cannon at {rng} inches, Tornado", t2, rng, e0, o.Plane(0)))
    for rng in range(7):
        out.append(
            cannon_case(f"ufo cannon at {rng} inches, Small UFO", saucer, rng, e0, o.Saucer(0))
        )
    for a, b in ((0, 0), (2, 3), (4, 5), (5, 5), (6, 4)):
        out.append(
            cannon_case(
                f"ufo cannon twice ({a} then {b} inches), Tornado", t2, a, e0, o.Plane(0), b
            )
        )
    for a, b in ((0, 0), (3, 3), (5, 6)):
        out.append(
            cannon_case(
                f"ufo cannon twice ({a} then {b} inches), Small UFO", saucer, a, e0, o.Saucer(0), b
            )
        )
    hurt = _with(
        e0,
        DamageTaken(aircraft=t2, points=3),
        AttributesSet(aircraft=t2, values={"hard_points_lost": [3], "damage_this_turn": 0}),
    )
    for rng in (2, 4, 6):
        out.append(
            cannon_case(
                f"ufo cannon at {rng} inches, Tornado with 3 DP and Hard Point 3 lost", t2, rng,
                hurt, o.Plane(0, damage=3, points=frozenset({1, 2, 4}), extra=frozenset()),
            )
        )  # fmt: skip
    worn = _with(e0, DamageTaken(aircraft=saucer, points=7))
    for rng in (1, 3, 5):
        out.append(
            cannon_case(
                f"ufo cannon at {rng} inches, Small UFO with 7 DP",
                saucer,
                rng,
                worn,
                o.Saucer(0, damage=7),
            )
        )

    # the ray gun, in Missile Firing
    e6 = e0
    for _ in range(3):
        s.clock.next_step()
    e6 = s.engagement
    ray = s.ruleset.procedures["ray_gun"]
    for charge, rng in ((9, 0), (9, 4), (9, 6), (9, 8), (9, 9), (9, 3)):
        inputs = ray.parse({"attacker": saucer, "target": t1, "charge": 9, "range_inches": rng})

        def ray_expect(rng: int = rng) -> dict[str, Fraction]:
            return o.ufo_chain(o.ray_gun_hits(9, rng), o.Plane(0))

        small = 9 - rng <= 5
        out.append(
            Case(
                f"ufo ray gun charge {charge} at {rng} inches, Tornado",
                "ufo_interception",
                s,
                e6,
                "ray_gun",
                inputs,
                expect=ray_expect if small else None,
            )
        )
    # missiles: 'it explodes for 1d6 rolls on Damage Table'
    flight = s.ruleset.procedures["missile_flight"]
    for target, start, cid in ((t2, o.Plane(0), "Tornado"), (saucer, o.Saucer(0), "Small UFO")):
        m = Missile(
            id="M1",
            type="amraam",
            attacker=t1,
            target=target,
            turns_left=3,
            launched=1,
            moved_turn=0,
        )
        e = _with(e6, flying([m]))
        inputs = flight.parse({"missile": "M1", "came_within_1_inch": True})

        def m_expect(start: Any = start) -> dict[str, Fraction]:
            return o.ufo_chain(o.missile_rolls(), start)

        out.append(
            Case(
                f"ufo missile explodes, {cid}",
                "ufo_interception",
                s,
                e,
                "missile_flight",
                inputs,
                expect=m_expect,
            )
        )
    # damage rolls owed from a damaged start
    damage = s.ruleset.procedures["damage_roll"]
    for due, dp in ((1, 0), (2, 2), (3, 4), (4, 1), (5, 0), (2, 5)):
        e = _with(
            e6,
            DamageTaken(aircraft=t2, points=dp) if dp else AttributesSet(aircraft=t2, values={}),
            AttributesSet(
                aircraft=t2,
                values={
                    "damage_rolls_due": due,
                    "damaged_turn": e6.turn if dp else None,
                    "damage_this_turn": dp,
                },
            ),
        )
        inputs = damage.parse({"target": t2, "target_type": "fighter"})

        def d_expect(due: int = due, dp: int = dp) -> dict[str, Fraction]:
            first = o.Plane(due, damage=dp, damaged=dp > 0)
            return o.marginals(o.plane_end(first))

        out.append(
            Case(
                f"ufo {due} damage roll(s) owed, Tornado with {dp} DP",
                "ufo_interception",
                s,
                e,
                "damage_roll",
                inputs,
                expect=d_expect,
            )
        )
    return out


# -- Advanced Air Force ----------------------------------------------------------------------


def advanced_air_force(folder: Path) -> list[Case]:
    s = GameSession.create(folder / "aaf.airboss", "advanced_air_force", "sweep")
    p47 = s.add_aircraft("Blue", "p47_sample", "Blue 1")
    b17 = s.add_aircraft("Blue", "b17_sample", "Fortress")
    bf = s.add_aircraft("Red", "bf110_sample", "Red 1")
    spit = s.add_aircraft("Blue", "spitfire_sample", "Blue 2")
    e0 = s.engagement
    gun = s.ruleset.procedures["gun_fire"]
    out: list[Case] = []

    def boxes(a: str) -> dict[str, int]:
        from rulesets.advanced_air_force.card import Card

        return dict(e0.get(a).typed(Card, "card").hit_boxes)

    def case(
        cid: str, attacker: str, target: str, typed: dict[str, Any], marked: dict[str, int],
        engine: str, factors: int, entry: tuple[int, ...] = (), c_times: int = 1,
        heavy: bool = False,
    ) -> Case:  # fmt: skip
        e = e0
        if marked:  # marked as the game marks hits, with their effects (rules 24-27)
            from rulesets.advanced_air_force.guns import _mark_hits

            e = _with(e0, *_mark_hits(e0.get(target), dict(marked), "front", None, frozenset()))
        inputs = gun.parse({"attacker": attacker, "target": target, **typed})

        def expect() -> dict[str, Fraction]:
            return o.aaf_burst(
                factors, typed["range_hexes"], boxes(target), marked, entry_above=entry,
                c_times=c_times, engine=engine, heavy_bomber=heavy,
            )  # fmt: skip

        return Case(cid, "advanced_air_force", s, e, "gun_fire", inputs, expect=expect)

    fixed = {"gun_type": "FF", "total_gun_factors": 12}
    for rng in range(1, 7):
        out.append(
            case(
                f"aaf P-47 12 FF at {rng} hexes, Bf 110",
                p47,
                bf,
                {**fixed, "range_hexes": rng},
                {},
                "twin",
                12,
            )
        )
    for rng in (1, 3, 5):
        out.append(
            case(
                f"aaf P-47 at {rng} hexes, Bf 110 with 7 F 6 W 3 E marked",
                p47,
                bf,
                {**fixed, "range_hexes": rng},
                {"F": 7, "W": 6, "E": 3},
                "twin",
                12,
            )
        )
    out.append(
        case(
            "aaf P-47 at 2 hexes, Bf 110 with 1 C marked",
            p47,
            bf,
            {**fixed, "range_hexes": 2},
            {"C": 1},
            "twin",
            12,
        )
    )
    for clock in (2, 10):
        out.append(
            case(
                f"aaf P-47 High Deflection from {clock} o'clock, K-14",
                p47,
                bf,
                {**fixed, "range_hexes": 2, "target_clock": clock, "k14_sight": True},
                {},
                "twin",
                12,
                (2,),
            )
        )
    out.append(
        case(
            "aaf P-47 High Deflection, no K-14",
            p47,
            bf,
            {**fixed, "range_hexes": 1, "target_clock": 4, "k14_sight": False},
            {},
            "twin",
            12,
            (4,),
        )
    )
    bf_fh = {"gun_type": "FH", "total_gun_factors": 10, "silhouette_modifier": 1}
    for rng in (1, 2, 4):
        out.append(
            case(
                f"aaf Bf 110 10 FH (+1 silhouette, rule 14) at {rng} hexes, P-47",
                bf,
                p47,
                {**bf_fh, "range_hexes": rng},
                {},
                "p_47_group",
                11,
            )
        )
    out.append(
        case(
            "aaf Bf 110 at 1 hex, P-47 with 1 E and 3 W marked",
            bf,
            p47,
            {**bf_fh, "range_hexes": 1},
            {"E": 1, "W": 3},
            "p_47_group",
            11,
        )
    )
    flex = {"gun_type": "F", "total_gun_factors": 6, "flexible_rolls": 1}
    for rng in (1, 2, 3):
        out.append(
            case(
                f"aaf B-17 6 F guns at {rng} hexes, Bf 110 (entry on a 6, C x2)",
                b17,
                bf,
                {**flex, "range_hexes": rng},
                {},
                "twin",
                6,
                (5,),
                2,
            )
        )
    out.append(
        case(
            "aaf B-17 F guns from the 6 o'clock straight path",
            b17,
            bf,
            {**flex, "range_hexes": 1, "six_oclock_straight_path": True},
            {},
            "twin",
            6,
            (4,),
            2,
        )
    )
    spit_fixed = {"gun_type": "FF", "total_gun_factors": 8}
    out.append(
        case(
            "aaf Spitfire 8 FF at 1 hex, B-17 heavy bomber",
            spit,
            b17,
            {**spit_fixed, "range_hexes": 1},
            {},
            "none",
            8,
            heavy=True,
        )
    )
    out.append(
        case(
            "aaf Spitfire at 1 hex, B-17 with 10 F marked",
            spit,
            b17,
            {**spit_fixed, "range_hexes": 1},
            {"F": 10},
            "none",
            8,
            heavy=True,
        )
    )
    return out


# -- Air Power --------------------------------------------------------------------------------


def airpower(folder: Path) -> list[Case]:
    from rulesets.airpower.state import PendingHit

    fill_tables()
    s = GameSession.create(folder / "airpower.airboss", "airpower", "sweep")
    blue = s.add_aircraft("Blue", "f-4e", "Blue 1")
    red = s.add_aircraft("Red", "mig-17f", "Red 1")
    e0 = s.engagement
    damage = s.ruleset.procedures["damage"]
    out: list[Case] = []
    kw = {"table": AP_DAMAGE["results"], "out_of_the_fight": {"X"}}

    def waiting(hits: list[tuple[int, str]]) -> Engagement:
        values = [PendingHit(attack_rating=r, source=w).model_dump(mode="json") for r, w in hits]  # type: ignore[arg-type]
        return _with(e0, AttributesSet(aircraft=red, values={"hits_to_resolve": values}))

    for hits in (
        [(4, "gun")],
        [(2, "gun")],
        [(6, "rocket")],
        [(3, "gun"), (5, "gun")],
        [(1, "rocket"), (4, "gun"), (2, "gun")],
        [(0, "gun")],
    ):
        e = waiting(hits)
        inputs = damage.parse({"target": red, "attack_rating": hits[0][0], "weapon": hits[0][1]})

        def d_expect(hits: list[tuple[int, str]] = hits) -> dict[str, Fraction]:
            return o.airpower_damage(hits, **kw)  # type: ignore[arg-type]

        out.append(
            Case(
                f"airpower damage rolls {hits}", "airpower", s, e, "damage", inputs, expect=d_expect
            )
        )
    gun = s.ruleset.procedures["gun_attack"]
    for number, rng, before in ((7, 1, []), (5, 1, []), (9, 0, [(2, "gun")]), (3, 2, [])):
        e = waiting(before) if before else e0
        inputs = gun.parse(
            {
                "attacker": blue, "target": red, "hit_numbers": [number + 1, number, number - 1],
                "attack_rating": 4, "horizontal_range": rng, "angle_off": "30 arc",
                "pilot": "average", "target_size": 0,
            }
        )  # fmt: skip

        def g_expect(
            number: int = number, rng: int = rng, before: list[tuple[int, str]] = before
        ) -> dict[str, Fraction]:
            n = [number + 1, number, number - 1][rng]
            return o.airpower_gun(n, 0, 4, before, **kw)

        out.append(
            Case(
                f"airpower gun, hit die roll {[number + 1, number, number - 1][rng]}",
                "airpower",
                s,
                e,
                "gun_attack",
                inputs,
                expect=g_expect,
            )
        )
    return out


def fill_tables() -> None:
    """The test values of the tables the texts do not print, in the current data folder."""
    save_override("airpower", "modifiers", AIRPOWER_MODIFIERS)
    save_override("airpower", "aircraft_damage", AP_DAMAGE)


def sweep(folder: Path) -> list[Case]:
    """The whole sweep: UFO 42, Advanced Air Force 23, Phantoms 21, Air Power 10."""
    return [*ufo(folder), *advanced_air_force(folder), *phantoms(folder), *airpower(folder)]
