"""Issue 34: odds to the end of the chain, checked against an independent enumeration.

``app.core.chain_odds`` composes the procedures' own ``decide`` walked over dice *totals*,
following the rolls the ruleset's "who acts now" says a result owes. Each test here instead
resolves every *face* of every die of every roll in the chain (``itertools.product`` a die at
a time, the umpire's typed dice, ``TableDice``), following the chain by the rules as the test
writes them out (Phantoms 8.1, 8.2, 9.0; the UFO damage table; Air Power's damage roll;
Advanced Air Force's hit effects, rules 24-27), and counts what came of it exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from app.core.chain_odds import chain_odds
from app.core.data import save_override
from app.core.dice import DiceError, DiceSpec, TableDice
from app.core.engagement import AircraftState, Engagement
from app.core.events import Event, StatusChanged
from app.core.procedure import Procedure
from app.core.ruleset import Ruleset
from app.core.status import Status
from app.session import GameSession
from tests.umpire_values import AIRPOWER_MODIFIERS

Ends = dict[frozenset[str], Fraction]


def faces_of(spec: str) -> range:
    s = DiceSpec.parse(spec)
    return range(s.low, s.high + 1)


def every_face(
    proc: Procedure, inputs: Any, state: Engagement
) -> list[tuple[Fraction, tuple[Event, ...]]]:
    """Every sequence of faces ``resolve`` asks for, die by die, with its chance and the
    events it gives (a result that rolls more dice asks for them: they are enumerated too)."""
    out: list[tuple[Fraction, tuple[Event, ...]]] = []
    # the dice the procedure says it rolls, every face of each (itertools), then any die a
    # result asks for beyond them, one at a time
    dice_faces = [
        faces_of(DiceSpec.parse(spec).die_name)
        for spec, _ in proc.dice_needed(inputs)
        for _ in range(DiceSpec.parse(spec).count)
    ]
    weight = Fraction(1)
    for f in dice_faces:
        weight /= len(f)
    todo: list[tuple[tuple[int, ...], Fraction]] = [
        (faces, weight) for faces in itertools.product(*dice_faces)
    ]
    while todo:
        faces, p = todo.pop()
        dice = TableDice(list(faces))
        try:
            res = proc.resolve(inputs, dice, state)
        except DiceError:
            assert dice.wanted is not None
            one = faces_of(DiceSpec.parse(dice.wanted[0]).die_name)
            for f in one:
                todo.append(((*faces, f), p / len(one)))
            continue
        out.append((p, res.events))
    return out


def after(state: Engagement, events: tuple[Event, ...]) -> Engagement:
    for ev in events:
        state = state.apply(ev, state.seq)
    return state


def new_flags(start: AircraftState, end: AircraftState) -> set[str]:
    return {str(s) for s in end.status} - {str(s) for s in start.status}


def flags_set(events: tuple[Event, ...], who: str) -> set[str]:
    return {
        str(f)
        for ev in events
        if isinstance(ev, StatusChanged) and ev.aircraft == who
        for f in ev.set
    }


def chances(ends: Ends, name: Callable[[str], str] = lambda f: f) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for facts, p in ends.items():
        for f in facts:
            out[name(f)] = out.get(name(f), Fraction(0)) + p
    return out


def game(tmp_path: Path, rid: str, roster: list[tuple[str, str, str]]) -> GameSession:
    s = GameSession.create(tmp_path / f"{rid}.airboss", rid, "chain")
    for side, type_id, name in roster:
        s.add_aircraft(side, type_id, name)
    return s


# --- Phantoms: gun hit -> critical hits (8.1) -> ejection (8.2); a fire -> fire check (9.0) ---

PHANTOMS_NAMES = {
    Status.DESTROYED: "destroyed",
    Status.PILOT_KILLED: "pilot killed",
    Status.EJECTED: "ejected",
    Status.ON_FIRE: "fire",
}


def phantoms_chain(rs: Ruleset, state: Engagement, gun_inputs: Any, target: str) -> Ends:
    """The chain as rules 7.2, 8.1, 8.2 and 9.0 say it, face by face."""
    from rulesets.phantoms.state import state_of

    start = state.get(target)
    fire_step = next(
        i for i, st in enumerate(rs.steps(state)) if i > state.step and st.title == "Fire check"
    )
    procs = rs.procedures

    def follow(s: Engagement, seen: frozenset[str], fire_checked: bool) -> Ends:
        t = s.get(target)
        st = state_of(t)
        if st.criticals_due > 0 and t.in_play:  # 8.1: one roll per critical hit owed
            return roll(procs["critical_hit"], {"aircraft": target}, s, seen, fire_checked)
        lost = Status.DESTROYED in t.status and not st.ejection_rolled
        if lost and not t.status & {Status.PILOT_KILLED, Status.EJECTED}:  # 8.2
            return roll(procs["ejection"], {"aircraft": target}, s, seen, fire_checked)
        if Status.ON_FIRE in t.status and t.in_play and not fire_checked:  # 9.0, next segment
            at = replace(s, step=fire_step)
            return roll(procs["fire_check"], {"aircraft": target}, at, seen, True)
        return {seen | new_flags(start, t): Fraction(1)}

    def roll(
        proc: Procedure, inputs: Any, s: Engagement, seen: frozenset[str], checked: bool
    ) -> Ends:
        out: Ends = {}
        for p, events in every_face(proc, proc.parse(inputs), s):
            got = seen | flags_set(events, target)
            for facts, q in follow(after(s, events), frozenset(got), checked).items():
                out[facts] = out.get(facts, Fraction(0)) + p * q
        return out

    out: Ends = {}
    gun = procs["gun_attack"]
    for p, events in every_face(gun, gun_inputs, state):
        got = frozenset(flags_set(events, target))
        for facts, q in follow(after(state, events), got, False).items():
            out[facts] = out.get(facts, Fraction(0)) + p * q
    return out


def test_phantoms_gun_hit_critical_fire_ejection(tmp_path: Path) -> None:
    """Phantoms 7.2 -> 8.1 -> 8.2 / 9.0: a strong gun (many hits, so critical hits) on a
    weak target; every die of the attack, each critical hit, the ejection and the fire check."""
    s = game(tmp_path, "phantoms", [("USAF", "f4e", "Olds 1"), ("VPAF", "mig21", "Red 1")])
    olds, red = list(s.engagement.aircraft)
    p = s.prepare(
        "gun_attack",
        {"attacker": olds, "target": red},
        {"position_modifier": 0, "hits_by_difference": [1, 2, 3, 4]},
        {"hits_by_difference"},
    )
    assert p.inputs is not None, p.error
    got = chain_odds(s.ruleset, s.engagement, "gun_attack", p.inputs)
    assert got.rolls[:2] == ("Gun attack", "Critical hit") and "Ejection" in got.rolls
    assert "Fire check" in got.rolls
    want = phantoms_chain(s.ruleset, s.engagement, p.inputs, red)
    assert sum(want.values()) == 1
    expected = {
        k.replace("_", " ") if k not in PHANTOMS_NAMES else PHANTOMS_NAMES[Status(k)]: v
        for k, v in chances(want).items()
        if k != Status.LOADED
    }
    assert dict(got.chances) == expected
    assert got.unknown == 0 and not got.missing
    for fact in ("destroyed", "pilot killed", "ejected", "fire"):
        assert got.chances[fact] > 0, fact
    line = got.lines()[0]
    assert line.startswith("destroyed ") and "/" in line and "%)" in line
    s.close()


# --- UFO Interception: cannon -> the damage table --------------------------------------------


def test_ufo_cannon_then_the_damage_table(tmp_path: Path) -> None:
    """UFO rules, Hitting: Cannon ("d6+1 and subtract range in inches- this is number of hits
    on Damage Table") -> Damage (2d6 on the UFO column, with the dice its results roll)."""
    s = game(
        tmp_path, "ufo_interception", [("UFO", "small_ufo", "Saucer"), ("RAF", "tornado", "T1")]
    )
    ufo, fighter = list(s.engagement.aircraft)
    for _ in range(3):
        s.next_step()  # Cannon firing, at the half way point
    p = s.prepare("cannon", {"attacker": fighter, "target": ufo}, {"range_inches": 6})
    assert p.inputs is not None, p.error
    got = chain_odds(s.ruleset, s.engagement, "cannon", p.inputs)
    assert got.rolls == ("Cannon", "Damage table")
    rs, state = s.ruleset, s.engagement
    start = state.get(ufo)
    from rulesets.ufo_interception.state import state_of

    missiles = next(i for i, st in enumerate(rs.steps(state)) if st.title == "Missile Firing")
    want: Ends = {}
    cannon = rs.procedures["cannon"]
    damage = rs.procedures["damage_roll"]

    def follow(st: Engagement, seen: frozenset[str]) -> Ends:
        t = st.get(ufo)
        if state_of(t).damage_rolls_due and t.in_play:  # rolled in Missile Firing
            at = replace(st, step=missiles)
            inputs = damage.parse({"target": ufo, "target_type": "ufo"})
            out: Ends = {}
            for p, events in every_face(damage, inputs, at):
                got_ = seen | flags_set(events, ufo)
                for facts, q in follow(after(at, events), frozenset(got_)).items():
                    out[facts] = out.get(facts, Fraction(0)) + p * q
            return out
        return {seen | new_flags(start, t): Fraction(1)}

    for p_, events in every_face(cannon, p.inputs, state):
        for facts, q in follow(after(state, events), frozenset(flags_set(events, ufo))).items():
            want[facts] = want.get(facts, Fraction(0)) + p_ * q
    assert sum(want.values()) == 1
    expected = {k.replace("_", " "): v for k, v in chances(want).items()}
    assert dict(got.chances) == expected and got.unknown == 0
    assert got.chances["destroyed"] > 0
    s.close()


# --- Air Power: gun -> damage roll (its table filled in: the text does not print it) ----------

#: test values, not the game's (as tests/unit/rulesets/airpower/conftest.py): the modifiers
#: the rules text does not print
AP_MODIFIERS = AIRPOWER_MODIFIERS
#: test values, not the game's (the rules text does not print the damage table)
AP_DAMAGE = {
    "results": {str(r): ["X"] * min(6, r) + ["A"] * 3 + ["-"] * (9 - min(6, r)) for r in range(13)}
}


def test_airpower_gun_then_damage_roll(tmp_path: Path) -> None:
    """Air Power, Air-to-Air Gun Combat -> Aircraft Damage Resolution: a d10 in the hit's
    attack-rating column. Without the damage table the chain says which table it needs."""
    save_override("airpower", "modifiers", AP_MODIFIERS)
    s = game(tmp_path, "airpower", [("Blue", "f-4e", "Blue 1"), ("Red", "mig-17f", "Red 1")])
    blue, red = list(s.engagement.aircraft)
    p = s.prepare("gun_attack", {"attacker": blue, "target": red})
    if p.inputs is None:
        p = s.prepare(
            "gun_attack",
            {"attacker": blue, "target": red},
            {v.name: 1 for v in p.values if v.source == "unset"},
        )
    assert p.inputs is not None, p.error
    unprinted = chain_odds(s.ruleset, s.engagement, "gun_attack", p.inputs)
    assert unprinted.missing and "Aircraft damage" in unprinted.missing[0]
    assert unprinted.unknown > 0 and "not printed in the rules text" in unprinted.lines()[-1]

    save_override("airpower", "aircraft_damage", AP_DAMAGE)
    s.close()
    s = GameSession.open(tmp_path / "airpower.airboss")  # the ruleset reads the filled table
    got = chain_odds(s.ruleset, s.engagement, "gun_attack", p.inputs)
    assert got.rolls == ("Gun attack", "Damage roll") and not got.missing
    rs, state = s.ruleset, s.engagement
    gun, damage = rs.procedures["gun_attack"], rs.procedures["damage"]
    from rulesets.airpower.state import State

    want: Ends = {}
    for p_, events in every_face(gun, p.inputs, state):
        st = after(state, events)
        pending = st.get(red).typed(State, "attributes").hits_to_resolve
        if not pending:
            want[frozenset()] = want.get(frozenset(), Fraction(0)) + p_
            continue
        assert len(pending) == 1
        inputs = damage.parse(
            {"target": red, "attack_rating": pending[0].attack_rating, "weapon": "gun"}
        )
        for q, more in every_face(damage, inputs, st):
            codes = frozenset(f"damage result {e.result}" for e in more if e.kind == "critical_hit")  # type: ignore[attr-defined]
            want[codes] = want.get(codes, Fraction(0)) + p_ * q
    assert sum(want.values()) == 1
    assert dict(got.chances) == chances(want) and got.chances
    s.close()


# --- Advanced Air Force: gunfire -> hit effects (rules 24-27) ---------------------------------


def test_advanced_air_force_fire_and_its_hit_effects(tmp_path: Path) -> None:
    """Advanced Air Force fire tables -> the hits marked and what they do (rules 24-27): an E
    hit damages the engine and costs speed (24), W hits may reach the W limit (27)."""
    s = GameSession.create(tmp_path / "aaf.airboss", "advanced_air_force", "chain")
    types = list(s.ruleset.aircraft)
    a = s.add_aircraft("Blue", types[0], "Blue 1")
    t = s.add_aircraft("Red", types[1], "Red 1")
    p = s.prepare("gun_fire", {"attacker": a, "target": t})
    if p.inputs is None:
        p = s.prepare(
            "gun_fire",
            {"attacker": a, "target": t},
            {v.name: 1 for v in p.values if v.source == "unset"},
        )
    assert p.inputs is not None, p.error
    got = chain_odds(s.ruleset, s.engagement, "gun_fire", p.inputs)
    rs, state = s.ruleset, s.engagement
    start = state.get(t)
    want: Ends = {}
    for q, events in every_face(rs.procedures["gun_fire"], p.inputs, state):
        end = after(state, events).get(t)
        facts = {f.replace("_", " ") for f in new_flags(start, end)}
        facts |= set(rs.chain_facts(start, end))  # type: ignore[attr-defined]
        want[frozenset(facts)] = want.get(frozenset(facts), Fraction(0)) + q
    assert sum(want.values()) == 1
    assert dict(got.chances) == chances(want) and got.chances
    assert "engine damaged" in got.chances
    s.close()


def test_a_what_if_has_no_chain_and_a_refused_first_roll_is_said(tmp_path: Path) -> None:
    s = game(tmp_path, "phantoms", [("USAF", "f4e", "Olds 1"), ("VPAF", "mig21", "Red 1")])
    olds, red = list(s.engagement.aircraft)
    proc = s.ruleset.procedures["break_lock"]
    p = s.prepare("break_lock", {"attacker": olds, "target": red})
    if p.inputs is not None:
        got = chain_odds(s.ruleset, s.engagement, "break_lock", p.inputs)
        assert not got.chances and got.notes and "7.1.1c" in got.notes[0]
    what_if = proc.Inputs.model_construct()
    assert chain_odds(s.ruleset, s.engagement, "break_lock", what_if).aircraft is None
    s.close()
