"""Issue 28: a "who acts now" line becomes one prepared action, which the desk shows and resolve
uses. One full turn of every ruleset, 6-9 aircraft, every line with a procedure: the
procedure, each aircraft in its role, every value with its source, the dice to type, and the
event resolve appends holding exactly the prepared inputs. Owed damage, critical, fire and
ejection rolls of both sides, in every ruleset that has them, open on the aircraft that owes
them; a shooter whose shot owes rolls is never their target."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.core.acting import ActingLine
from app.core.data import save_override
from app.core.dice import SeededDice, TableDice
from app.core.engagement import Status
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import AttributesSet, ProcedureResolved, StatusChanged
from app.core.prepared import ROLES, Prepared
from app.session import GameSession

#: the umpire's values for cells the rules texts do not print (test values, not the games'):
#: Air Power's damage table of attack ratings 3 and 7, Nth Fleet's attack and defence tables
AIRPOWER_DAMAGE = {"results": {r: ["X"] * 5 + ["-"] * 7 for r in ("3", "7")}}
NTH_ATTACK = {
    "lower_columns": [10, 20, 30],
    "cells": {str(c): {str(r): c // 10 * r // 2 for r in range(11)} for c in (10, 20, 30, 40, 50)},
}
NTH_DEFENCE = {
    "values": {
        t: 4
        for t in (
            "f15c",
            "f14a",
            "fa18c",
            "tornado_f",
            "mig29",
            "a6e",
            "su24",
            "ea6b",
            "e2c",
            "tu95rt",
        )
    }
}


@pytest.fixture(autouse=True)
def _filled(_user_data: Path) -> None:
    save_override("airpower", "aircraft_damage", AIRPOWER_DAMAGE)
    save_override("nth_fleet", "air_to_air_attack", NTH_ATTACK)
    save_override("nth_fleet", "defence_values", NTH_DEFENCE)


RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")
SOURCES = {"card", "board", "game", "typed", "override", "default", "unset"}


def build(path: Path, ruleset_id: str) -> GameSession:
    """Three aircraft a side (UFO: four Tornados and two UFOs, initiative rolled)."""
    s = GameSession.create(path, ruleset_id, "Prepared")
    if ruleset_id == "ufo_interception":
        for n in range(1, 5):
            s.add_aircraft("NATO", "tornado", f"Tornado {n}", reaction=n % 3)
        s.add_aircraft("Visitors", "small_ufo", "Saucer")
        s.add_aircraft("Visitors", "large_ufo", "Mothership")
        ids = [f"tornado-{n}" for n in range(1, 5)]
        s.perform("initiative", {"planes": ids, "reactions": [1, 2, 0, 1]}, TableDice([3, 5, 2, 6]))
        return s
    types = list(s.ruleset.aircraft)
    for side, first in (("Blue", 0), ("Red", 1)):
        for n in range(1, 4):
            extra = {"base": f"{side} base"} if ruleset_id == "nth_fleet" else {}
            s.add_aircraft(side, types[(first + n) % len(types)], f"{side} {n}", **extra)
    if s.ruleset.initiative == "initiative":
        init = s.ruleset.procedures["initiative"].prefill(s.engagement, None, None)
        s.perform("initiative", init, SeededDice(1))
    return s


def lines(s: GameSession) -> list[ActingLine]:
    return [line for line in s.who_acts.acting() if line.procedure in s.ruleset.procedures]


def check_roles(s: GameSession, line: ActingLine, p: Prepared) -> None:
    """The line's aircraft in the procedure's role; the other opposite; a target is an enemy."""
    who, pid = line.who, line.procedure
    proc = s.ruleset.procedures[pid]
    e = s.engagement
    assert p.procedure == pid
    assert set(p.roles) <= set(ROLES)
    if who not in e.aircraft:
        return
    if "aircraft" in p.roles:
        assert p.roles["aircraft"] == who
    elif proc.line_role == "target":
        assert p.roles["target"] == who
        assert p.roles.get("attacker") != who  # the one hit is never its own shooter
    else:
        assert p.roles["attacker"] == who
        if line.other:
            assert p.roles.get("target") == line.other
        target = p.roles.get("target")
        if "target" in p.roles:
            assert target is not None, f"{pid} from a turn line opened on nobody"
            assert e.aircraft[target].side != e.aircraft[who].side
    for v in p.values:
        assert v.source in SOURCES
        if v.locked:
            assert v.source in {"card", "board", "game"}, v
    ids = set(e.aircraft)
    for die in p.dice:
        assert die.spec.count == 1
        assert not any(i in die.label.split() for i in ids), die.label  # printed names


def resolve_and_compare(s: GameSession, p: Prepared, seed: int) -> None:
    """Resolve exactly the prepared action: the event records the inputs it showed."""
    if p.inputs is None:
        return
    before = len(s.events())
    try:
        s.actions.resolve(p, SeededDice(seed))
    except (RuleViolation, MissingTableValue):
        assert len(s.events()) == before  # a refusal writes nothing
        return
    rec = next(env.event for env in s.events()[before:])
    assert isinstance(rec, ProcedureResolved)
    assert rec.procedure == p.procedure
    assert rec.inputs == p.inputs.model_dump(mode="json")
    for v in p.values:
        if v.source != "unset":
            assert rec.inputs[v.name] == _json(p.inputs, v.name), v.name
    first = p.roles.get("attacker") or p.roles.get("aircraft")
    assert (rec.attacker, rec.target) == (first, p.roles.get("target"))


def _json(inputs: Any, name: str) -> Any:
    return inputs.model_dump(mode="json")[name]


def one_turn(s: GameSession) -> Iterator[ActingLine]:
    """Every line of every step of one turn, as the umpire walks it."""
    start = s.engagement.turn
    while s.engagement.turn == start:
        yield from lines(s)
        s.clock.next_step()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_line_of_a_turn_becomes_one_prepared_action(tmp_path: Path, ruleset_id: str) -> None:
    """Issue 28: for every "who acts now" line of one full turn, the prepared action holds
    the line's procedure, its aircraft in their roles, every value with its source, and the
    dice to type; resolving it records exactly what it holds."""
    s = build(tmp_path / "g.airboss", ruleset_id)
    seen = 0
    for n, line in enumerate(one_turn(s)):
        if line.procedure == s.ruleset.initiative:
            continue  # the Initiative panel's roll: prepared with the whole game, below
        p = s.actions.prepare_line(line.procedure, line.who, line.other or None)
        check_roles(s, line, p)
        resolve_and_compare(s, p, n)
        seen += 1
    assert seen >= 6
    s.close()


def full_refusal(s: GameSession, line: ActingLine) -> str:
    """What a line's refusal was before issue 36 asked it without the dice: the line prepared
    whole (its dice worked out), a pick stood in for, the rules run up to their first die."""
    suggested = s.ruleset.procedures[line.procedure].suggested  # the umpire's to type
    p = s.actions.prepare_line(line.procedure, line.who, line.other or None, pending=suggested)
    if p.cannot:
        return p.cannot
    if p.inputs is None and not p.refused:
        pick = {
            v.name: p.choices[v.name][0][0]
            for v in p.values
            if v.source == "unset" and p.choices.get(v.name)
        }
        if pick:
            p = s.actions.prepare(line.procedure, p.roles, pick)
    return p.refused


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_line_asked_before_its_dice_is_the_same_line(tmp_path: Path, ruleset_id: str) -> None:
    """Issue 36: "can this line act?" is asked without working out the dice (a dry run of the
    rules for each line of the step, most of the time of drawing the Turn panel). For every
    line of one full turn the action prepared without its dice is the one prepared with them,
    dice aside, and the line's refusal is what the whole prepared action says."""
    s = build(tmp_path / "g.airboss", ruleset_id)
    asked = 0
    for line in one_turn(s):
        if line.procedure not in s.ruleset.procedures:
            continue
        other = line.other or None
        whole = s.actions.prepare_line(line.procedure, line.who, other)
        quick = s.actions.prepare_line(line.procedure, line.who, other, dice=False)
        assert quick.dice == ()
        for field in ("roles", "values", "inputs", "choices", "cannot", "refused", "error"):
            assert getattr(quick, field) == getattr(whole, field), (line, field)
        assert s.refusals.line_refusal(line.procedure, line.who, other) == full_refusal(s, line), (
            line
        )
        asked += 1
    assert asked >= 6
    s.close()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_can_this_line_act_runs_the_rules_once(
    tmp_path: Path, ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 48: "can this line act" is asked of every line at every step, so the rules run
    once for a line, up to their first die: that run says the refusal (issue 29) and a
    ruleset's error (issue 32), with the first pick offered standing in for one still to make
    (the missile). They ran twice for a line (the dry run for the dice, then the check), three
    times for one refused (the dry run tried a what-if after the refusal), and twice more for a
    pick (the rules run with the pick unset, then again with it)."""
    s = build(tmp_path / "g.airboss", ruleset_id)
    runs = 0
    for proc in s.ruleset.procedures.values():

        def counted(*args: Any, _decide: Any = proc.decide) -> Any:
            nonlocal runs
            runs += 1
            return _decide(*args)

        monkeypatch.setattr(proc, "decide", counted)
    start, steps, asked, ran = s.engagement.turn, 0, 0, 0
    refused: set[str] = set()
    while s.engagement.turn == start:
        step = lines(s)
        if step:
            runs = 0  # every line of the step is asked at once, as the Turn panel asks
            said = [s.refusals.line_refusal(a.procedure, a.who, a.other or None) for a in step]
            assert runs <= len(step), (step, said)
            ran += runs
            refused.update(why for why in said if why)
            steps += 1
            asked += len(step)
        s.clock.next_step()
    assert steps >= 2 and asked >= 6 and ran >= 4
    if ruleset_id in ("advanced_air_force", "ufo_interception"):
        assert refused  # their turns have lines the rules refuse: counted too
    s.close()


# -- owed rolls: the aircraft that owes a roll is the one it applies to ------------------------


def owe(
    s: GameSession, aircraft: str, values: dict[str, Any], status: tuple[str, ...] = ()
) -> None:
    events: list[Any] = [AttributesSet(aircraft=aircraft, values=values)] if values else []
    if status:
        events.append(StatusChanged(aircraft=aircraft, set=status))
    s.log.append(events, f"{aircraft} owes a roll (test set-up)")


OWED = {
    # Phantoms 8.1 critical hits owed, 9.0 fire checks, 8.2 ejection of a destroyed aircraft
    "phantoms": [
        ("critical_hit", {"criticals_due": 1}, ()),
        ("ejection", {}, (Status.DESTROYED,)),
        ("fire_check", {}, (Status.ON_FIRE,)),
    ],
    # Air Power "Aircraft Damage Resolution": a hit waiting for its damage roll
    "airpower": [
        (
            "damage",
            {"hits_to_resolve": [{"attack_rating": 3, "source": "gun", "rule": "test"}]},
            (),
        )
    ],
    # UFO rules, Hitting/Damage: rolls on the damage table owed
    "ufo_interception": [("damage_roll", {"damage_rolls_due": 2}, ())],
}


@pytest.mark.parametrize("ruleset_id", sorted(OWED))
def test_owed_rolls_of_both_sides_open_on_the_aircraft_that_owes_them(
    tmp_path: Path, ruleset_id: str
) -> None:
    """Issue 28: an owed damage, critical or ejection roll of either side opens with the
    aircraft that owes it in the role it applies to (the target of a damage roll, the aircraft
    of a critical hit), never the first aircraft of the other side, and is resolved on it."""
    for pid, values, status in OWED[ruleset_id]:
        s = build(tmp_path / f"{pid}.airboss", ruleset_id)
        e = s.engagement
        sides = {}
        for a in e.aircraft.values():
            sides.setdefault(a.side, a.id)
        owing = list(sides.values())
        if ruleset_id == "ufo_interception":
            owing = ["tornado-2", "mothership"]
        for aid in owing:
            owe(s, aid, values, status)
        found: list[ActingLine] = []
        for _ in range(len(s.ruleset.steps(s.engagement))):  # the step that rolls them
            found = [line for line in s.who_acts.acting() if line.procedure == pid]
            if found:
                break
            s.clock.next_step()
        assert {line.who for line in found} >= set(owing), found
        for aid in owing:
            line = next(line for line in found if line.who == aid)
            p = s.actions.prepare_line(pid, aid, None)
            role = "aircraft" if "aircraft" in p.roles else "target"
            assert p.roles[role] == aid
            assert p.roles.get("attacker") != aid
            check_roles(s, line, p)
            before = len(s.events())
            s.actions.resolve(p, SeededDice(3))
            rec = s.events()[before].event
            assert isinstance(rec, ProcedureResolved)
            assert (rec.target if role == "target" else rec.attacker) == aid
        s.close()


def test_an_air_power_damage_roll_reads_the_hit_it_resolves(tmp_path: Path) -> None:
    """Air Power, Aircraft Damage Resolution: the damage roll owed by Red 1 is prepared with
    the attack rating and weapon of the hit waiting on Red 1 (read from its state, locked),
    not an attack rating of 0 on the first enemy."""
    s = build(tmp_path / "g.airboss", "airpower")
    owe(s, "red-1", {"hits_to_resolve": [{"attack_rating": 7, "source": "rocket", "rule": "t"}]})
    p = s.actions.prepare_line("damage", "red-1")
    assert p.roles == {"attacker": None, "target": "red-1"}
    assert (p.value("attack_rating").value, p.value("attack_rating").source) == (7, "card")
    assert p.value("weapon").value == "rocket" and p.value("weapon").locked
    s.close()


# -- Nth Fleet: the air combat of counters ------------------------------------------------------


def test_nth_fleet_air_combat_line_opens_on_both_forces_with_exact_odds(tmp_path: Path) -> None:
    """Nth Fleet 2.9-2.12: the activation phase's air combat line opens with its attacking
    counter and the enemy's (never a friendly target), the two forces' attack totals read
    from the counters (air points x attack value, 2.9), and exact odds in the game."""
    s = GameSession.create(tmp_path / "n.airboss", "nth_fleet", "Strike")
    r = s.add_aircraft("Red", "tu95rt", "Bears", base="Olenya", air_points=2)
    b = s.add_aircraft("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    s.perform("launch_mission", {"aircraft": r, "points": 2, "mission": "rcn"})
    s.perform("launch_mission", {"aircraft": b, "points": 4, "mission": "cap"})
    s.clock.next_step()
    line = next(line for line in s.who_acts.acting() if line.procedure == "air_combat")
    assert line.who == r and line.other == b
    p = s.actions.prepare_line("air_combat", line.who, line.other)
    assert p.roles == {"attacker": r, "target": b}
    first, second = p.value("first_attack"), p.value("second_attack")
    assert first.source == second.source == "game" and first.locked
    assert p.inputs is not None
    odds = s.odds.odds(p)
    assert all(isinstance(v, Fraction) for v in odds.values()) and sum(odds.values()) == 1
    assert odds == s.ruleset.procedures["air_combat"].odds(p.inputs, s.engagement)
    s.close()


def test_a_stale_prepared_action_is_refused_naming_what_happened(tmp_path: Path) -> None:
    """Issue 28: resolve uses what was shown; if another station acted since, it says so
    (never "the ruleset could not resolve") and writes nothing."""
    path = tmp_path / "g.airboss"
    s = build(path, "phantoms")
    p = s.actions.prepare("afterburner", {"aircraft": "blue-1"})
    with GameSession.open(path) as other:
        other.perform("afterburner", {"aircraft": "red-1"})
    before = len(s.events())
    with pytest.raises(Exception, match="another station or window acted first: Red 1"):
        s.actions.resolve(p, SeededDice(1))
    assert len(s.events()) == before  # the other station's action only: nothing of ours
    s.close()


def test_a_typed_card_value_that_disagrees_is_refused_unless_overridden(tmp_path: Path) -> None:
    """Issue 15/28: a script's card value that is not what the card says is refused; the
    same value overridden is used and the log records the override."""
    s = build(tmp_path / "g.airboss", "airpower")
    p = s.actions.prepare("radar_ranging", {"attacker": "blue-1", "target": "red-1"})
    card = p.value("lock_on_number")
    assert card.locked and card.source == "card"
    wrong = {"lock_on_number": card.value + 1}
    bad = s.actions.prepare("radar_ranging", {"attacker": "blue-1", "target": "red-1"}, wrong)
    assert bad.inputs is None and "is not what" in bad.disagrees
    ok = s.actions.prepare(
        "radar_ranging", {"attacker": "blue-1", "target": "red-1"}, wrong, {"lock_on_number"}
    )
    assert ok.value("lock_on_number").source == "override"
    assert ok.overrides == {card.title: (card.value, card.value + 1)}
    s.close()


def test_set_speed_starts_at_the_current_speed_for_the_umpire_to_change(tmp_path: Path) -> None:
    """Phantoms 5.0 (issue 29): Set speed prefills the aircraft's current speed, the umpire's
    to change (not locked), so Enter keeps it."""
    s = build(tmp_path / "g.airboss", "phantoms")
    while s.engagement.step != 0:
        s.clock.next_step()
    line = next(line for line in lines(s) if line.procedure == "set_speed")
    p = s.actions.prepare_line("set_speed", line.who)
    speed = p.value("speed")
    assert speed.source == "card" and not speed.locked
    assert speed.value == s.engagement.aircraft[line.who].attributes["speed"]
    s.close()


def test_a_set_speed_line_can_act_when_the_current_speed_is_above_the_new_maximum(
    tmp_path: Path,
) -> None:
    """Phantoms 5.0 (found at the desk): an engine hit (8.1) leaves an aircraft at speed 8,
    above its Damaged Engine level maximum. Its Set speed line must still act -- the umpire
    types the new speed -- so "who acts now" does not say "cannot: speed 8 is above its level
    maximum" of the speed the form only suggests; typed, 8 is refused and the maximum is set.
    A refusal that reads no speed (out of control: 6.4.2) is still said on the line."""
    s = build(tmp_path / "g.airboss", "phantoms")
    while s.engagement.step != 0:
        s.clock.next_step()
    line = next(line for line in lines(s) if line.procedure == "set_speed")
    s.log.append(
        [
            AttributesSet(aircraft=line.who, values={"speed": 8}),
            StatusChanged(aircraft=line.who, set=(Status.ENGINE_DAMAGED,)),
        ],
        "engine hit at speed 8",
        "8.1",
    )
    assert s.refusals.line_refusal("set_speed", line.who) == ""
    said = s.actions.prepare_line("set_speed", line.who).refused  # the form says it
    top = re.search(r"speed 8 is above its level maximum (\d+) \(5\.0\)", said)
    assert top is not None, said
    with pytest.raises(RuleViolation, match="above its level maximum"):
        s.perform("set_speed", {"aircraft": line.who, "speed": 8})
    s.perform("set_speed", {"aircraft": line.who, "speed": int(top[1])})
    assert s.engagement.aircraft[line.who].attributes["speed"] == int(top[1])
    s.log.append(
        [StatusChanged(aircraft=line.who, set=(Status.OUT_OF_CONTROL,))], "out of control", "6.4.2"
    )
    assert "keeps its speed (6.4.2)" in s.refusals.line_refusal("set_speed", line.who)
    s.close()


def test_nth_fleet_combat_narrative_reads_as_the_table(tmp_path: Path) -> None:
    """Nth Fleet 2.9 (issue 29): each force's roll is logged as the table reads it, each die
    shown: "2d5 = 1 + 2 = 3 (column 40)"."""
    s = GameSession.create(tmp_path / "n.airboss", "nth_fleet", "Strike")
    r = s.add_aircraft("Red", "tu95rt", "Bears", base="Olenya", air_points=2)
    b = s.add_aircraft("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2, units=2)
    s.perform("launch_mission", {"aircraft": r, "points": 2, "mission": "rcn"})
    s.perform("launch_mission", {"aircraft": b, "points": 4, "mission": "cap"})
    s.clock.next_step()
    p = s.actions.prepare_line("air_combat", r, b)
    assert [d.spec.die_name for d in p.dice] == ["d5", "d5"]  # the Bears' 10 is below 20
    res = s.actions.resolve(p, TableDice([1, 2]))
    assert "2d5 = 1 + 2 = 3 +2 = 5 (column 40) = 10 damage points" in res.narrative  # on CAP +2
    s.close()


def test_a_refusal_before_the_dice_is_prepared_once_its_values_are_in(tmp_path: Path) -> None:
    """Issue 29: the rules run up to their first die as the action is prepared, a stand-in for
    each value still to type: Phantoms 7.1.1b/7.1.2, a radar-guided missile at a target its
    launcher has no lock-on on is refused before the range is typed; at the locked target a
    range the Sparrow cannot reach is refused once typed, and waits while it is only shown
    (``pending``); a heat-seeker's refusal that reads the range waits for it."""
    from rulesets.phantoms.clock import step_of

    with GameSession.create(tmp_path / "l.airboss", "phantoms", "Lock-on") as s:
        s.add_aircraft("Blue", "f15c", "Blue 1")
        s.add_aircraft("Red", "f4e", "Red 1")
        s.add_aircraft("Red", "f4e", "Red 2")
        while (s.engagement.turn, s.engagement.step) != (1, step_of(1, "h")):
            s.clock.next_step()
        lock = {"attacker": "blue-1", "target": "red-2", "range_hexes": 3}
        s.perform("radar_lock", lock, TableDice([9, 1]))  # 9+6 against 1+3: locked on Red 2
        while (s.engagement.turn, s.engagement.step) != (1, step_of(2, "g")):
            s.clock.next_step()
        red1 = {"attacker": "blue-1", "target": "red-1"}
        red2 = {"attacker": "blue-1", "target": "red-2"}
        p = s.actions.prepare("missile_launch", red1, {"missile": "aim7m"})
        assert p.inputs is None and p.value("range_hexes").source == "unset"
        assert p.refused == "Blue 1 has no radar lock-on on Red 1 (7.1.1b)"
        assert s.actions.prepare("missile_launch", red2, {"missile": "aim7m"}).refused == ""
        short = {"missile": "aim7m", "range_hexes": 1}
        assert "range 1 is outside" in s.actions.prepare("missile_launch", red2, short).refused
        assert (
            s.actions.prepare("missile_launch", red2, short, pending={"range_hexes"}).refused == ""
        )
        assert s.actions.prepare("missile_launch", red1, {"missile": "aim9m"}).refused == ""
        before = len(s.events())
        with pytest.raises(RuleViolation, match="no radar lock-on"):
            s.perform("missile_launch", {**red1, "missile": "aim7m", "range_hexes": 3})
        assert len(s.events()) == before
        # the line opens on Red 1 with the first missile offered, a Sidewinder: not refused
        assert s.refusals.line_refusal("missile_launch", "blue-1") == ""
