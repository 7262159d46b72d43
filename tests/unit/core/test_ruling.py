"""Issue 34: a ruling for every logged action -- every input with its value and source, the
modifiers with their rule numbers, the variants in force, the odds stored with the event (a
table edited later does not change them), the dice, the outcome, every event it caused; an
undone action says so; the public version keeps back what the Player display never shows.

One procedure of each built-in ruleset, played through ``GameSession`` as the desk plays it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.core.dice import SeededDice, TableDice
from app.core.errors import RuleViolation
from app.core.events import ProcedureResolved
from app.core.reckoning import rule_cited
from app.core.ruling import odds_text, ruling_of
from app.session import GameSession

RULESETS = ("phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet")


def game(tmp_path: Path, rid: str, variants: tuple[str, ...] = (), planes: int = 4) -> GameSession:
    s = GameSession.create(tmp_path / f"{rid}.airboss", rid, f"{rid} ruling", variants=variants)
    types = list(s.ruleset.aircraft)
    half = planes // 2
    for i in range(planes):
        side = "Blue" if i < half else "Red"
        extra = {"base": f"{side} carrier"} if rid == "nth_fleet" else {}
        s.add_aircraft(side, types[i % len(types)], f"{side} {i % half + 1}", **extra)
    return s


def record(s: GameSession) -> Any:
    return next(e for e in reversed(s.events()) if isinstance(e.event, ProcedureResolved))


def test_phantoms_radar_lock_ruling_lists_inputs_sources_modifiers_odds(tmp_path: Path) -> None:
    """Phantoms 7.1.1b radar lock: the typed range, the card's radar and pilot, the stored
    odds, the typed dice, the outcome."""
    s = game(tmp_path, "phantoms")
    blue, red = list(s.engagement.aircraft)[0], list(s.engagement.aircraft)[2]
    p = s.actions.prepare("radar_lock", {"attacker": blue, "target": red}, {"range_hexes": 5})
    assert p.inputs is not None, p.error
    before = s.odds.odds(p)
    s.actions.resolve(p, TableDice([7, 3]))
    env = record(s)
    r = ruling_of(s.events(), env.seq, s.ruleset)
    assert (r.procedure, r.rule, r.title) == ("radar_lock", "7.1.1b", "Radar lock-on")
    assert dict(r.roles) == {"attacker": "Blue 1", "target": "Red 1"}
    shown = {i.name: (i.value, i.source) for i in r.inputs}
    expected = {v.name: (v.value, v.source) for v in p.values}
    assert {k: v[1] for k, v in shown.items()} == {k: v[1] for k, v in expected.items()}
    assert shown["range_hexes"] == (5, "typed")
    assert shown["attacker_radar"][1] == "card"
    assert dict(r.odds) == before and r.odds_from == "stored"
    assert r.outcome in dict(r.odds) and r.chance == before[r.outcome]
    assert [(d.dice, d.typed) for d in r.dice] == [((7,), True), ((3,), True)]
    assert all(i.rules for i in r.modifiers) or not r.modifiers
    text = r.text()
    assert "7.1.1b" in text and "typed at the table" in text and "card and state" in text
    assert odds_text(r.chance) in text
    s.close()


def first_roll(s: GameSession) -> Any:
    """The first procedure with dice these aircraft may play now, as the desk prepares it
    (aircraft in their roles, card values read, required numbers the cards leave out 1)."""
    planes = list(s.engagement.aircraft.values())
    for proc in s.ruleset.procedures.values():
        if proc.is_calculator:
            continue
        fields = proc.Inputs.model_fields
        for a in planes:
            for t in [t for t in planes if t.side != a.side]:
                roles = {
                    k: v
                    for k, v in (("attacker", a.id), ("target", t.id), ("aircraft", a.id))
                    if k in fields and not (k == "aircraft" and "attacker" in fields)
                }
                p = s.actions.prepare(proc.id, roles)
                if p.inputs is None:
                    fill = {v.name: 1 for v in p.values if v.source == "unset"}
                    p = s.actions.prepare(proc.id, roles, fill)
                if p.inputs is None or p.cannot or not p.dice:
                    continue
                try:
                    before = s.odds.odds(p)
                    s.actions.resolve(p, SeededDice(3))
                except (RuleViolation, ValidationError):
                    continue
                return p, before
    raise AssertionError(f"{s.ruleset.id}: no procedure could be played")


@pytest.mark.parametrize("rid", RULESETS)
def test_a_ruling_lists_exactly_the_event_it_belongs_to(tmp_path: Path, rid: str) -> None:
    """One procedure of each ruleset: the ruling's inputs are exactly the record's, each with
    the source the prepared action gave it, the odds those shown before the roll, every die,
    and every other event of the action."""
    s = game(tmp_path, rid, planes=8)
    if rid == "nth_fleet":
        for a in s.engagement.aircraft.values():
            for mission in ("cap", "strike"):
                try:
                    s.perform("launch_mission", {"aircraft": a.id, "points": 2, "mission": mission})
                    break
                except RuleViolation:
                    continue
    p, before = first_roll(s)
    env = record(s)
    r = ruling_of(s.events(), env.seq, s.ruleset)
    ev = env.event
    assert r.procedure == p.procedure and r.rule == s.ruleset.procedures[p.procedure].rule
    assert {i.name for i in r.inputs} == set(ev.inputs) - {"attacker", "target", "aircraft"}
    given = {v.name: v.source for v in p.values}
    assert {i.name: i.source for i in r.inputs} == {
        i.name: given.get(i.name, "default") for i in r.inputs
    }
    assert all(i.source for i in r.inputs)
    assert {i.name: i.value for i in r.inputs} == {
        k: v for k, v in ev.inputs.items() if k not in ("attacker", "target", "aircraft")
    }
    assert dict(r.odds) == before and sum(before.values()) == 1 and r.odds_from == "stored"
    assert len(r.dice) == len(ev.rolls) and all(not d.typed for d in r.dice)
    action = [e.seq for e in s.events() if e.action == env.action and e.seq != env.seq]
    assert [e.seq for e in r.events] == action
    assert r.outcome == ev.outcome and not r.undone
    for i in r.modifiers:
        assert i.rules or r.rule, i.name  # a modifier cites its rule, or the procedure's
    text = r.text()
    assert r.rule in text and f"Outcome: {r.outcome}" in text
    # a rule is cited as the ruleset names it: "rule 7.2", "rules 2, 16-21, 29", "UFO rules,
    # Damage" (found at the desk: "rule rules 2, 16-21, 29", "rule Air Power, ...")
    assert f"{r.title} ({rule_cited(r.rule)})" in text
    assert r.rule[:1].isdigit() or f"rule {r.rule}" not in text
    s.close()


def test_stored_odds_survive_a_table_edited_later(tmp_path: Path) -> None:
    """The odds are kept with the event: a ruling read with other tables (a later edit)
    shows the odds as they stood; an older log without stored odds has them worked out
    again and says so."""
    s = game(tmp_path, "phantoms")
    ids = list(s.engagement.aircraft)
    p = s.actions.prepare("radar_lock", {"attacker": ids[0], "target": ids[2]}, {"range_hexes": 5})
    before = s.odds.odds(p)
    s.actions.resolve(p, TableDice([7, 3]))
    env = record(s)

    class Edited:
        """The same ruleset with its radar lock giving other odds (a table edited)."""

        def __init__(self, rs: Any) -> None:
            self.rs = rs
            proc = rs.procedures["radar_lock"]

            class Other(type(proc)):  # type: ignore[misc]
                def odds(self, inputs: Any, engagement: Any = None) -> dict[str, Fraction]:
                    return {"lock": Fraction(1), "miss": Fraction(0)}

            self.procedures = {**rs.procedures, "radar_lock": Other(rs.chosen, rs.State)}

        def __getattr__(self, name: str) -> Any:
            return getattr(self.rs, name)

    edited = Edited(s.ruleset)
    r = ruling_of(s.events(), env.seq, edited)  # type: ignore[arg-type]
    assert dict(r.odds) == before and r.odds_from == "stored"
    # an older log: the same record without stored odds or sources
    old = env.model_copy(
        update={"event": env.event.model_copy(update={"odds": None, "sources": {}, "read": {}})}
    )
    log = [old if e.seq == env.seq else e for e in s.events()]
    r_old = ruling_of(log, env.seq, s.ruleset)
    assert dict(r_old.odds) == before and r_old.odds_from == "replayed"
    assert all(i.source == "" for i in r_old.inputs)
    assert "worked out again" in r_old.text() and "not recorded" in r_old.text()
    r_changed = ruling_of(log, env.seq, edited)  # type: ignore[arg-type]
    assert dict(r_changed.odds) == {"lock": 1, "miss": 0}  # only the stored odds are kept
    s.close()


def test_an_old_record_is_still_read(tmp_path: Path) -> None:
    """A ProcedureResolved stored before issue 34 (no sources, read or odds) still loads."""
    from app.core.events import event_from_json

    ev = event_from_json(
        '{"kind": "procedure_resolved", "procedure": "radar_lock", "inputs": {}, '
        '"rolls": [], "outcome": "miss"}'
    )
    assert isinstance(ev, ProcedureResolved) and ev.odds is None and ev.sources == {}


def test_an_override_says_who_and_what_it_replaced_and_undo_is_said(tmp_path: Path) -> None:
    s = game(tmp_path, "phantoms")
    ids = list(s.engagement.aircraft)
    p = s.actions.prepare(
        "radar_lock",
        {"attacker": ids[0], "target": ids[2]},
        {"range_hexes": 5, "attacker_radar": 1},
        {"attacker_radar"},
    )
    read = p.value("attacker_radar").read
    assert read != 1
    s.actions.resolve(p, TableDice([7, 3]))
    env = record(s)
    r = ruling_of(s.events(), env.seq, s.ruleset)
    radar = next(i for i in r.inputs if i.name == "attacker_radar")
    assert (radar.source, radar.value, radar.read, radar.who) == ("override", 1, read, "umpire")
    assert f"override by umpire: replaced {read}" in r.text()
    s.undo()
    undone = ruling_of(s.events(), env.seq, s.ruleset)
    assert undone.undone and undone.undone_at == s.events()[-1].seq
    assert "UNDONE" in undone.text()
    # the ruling of the undo line is the ruling of the action it undid
    assert ruling_of(s.events(), s.events()[-1].seq, s.ruleset).seq == env.seq
    s.close()


def test_variants_in_force_are_listed(tmp_path: Path) -> None:
    from app.plugins import load_ruleset

    variant = load_ruleset("phantoms").variants[0]
    s = game(tmp_path, "phantoms", (variant.id,))
    ids = list(s.engagement.aircraft)
    p = s.actions.prepare("radar_lock", {"attacker": ids[0], "target": ids[2]}, {"range_hexes": 5})
    s.actions.resolve(p, TableDice([7, 3]))
    r = ruling_of(s.events(), record(s).seq, s.ruleset)
    assert [v[0] for v in r.variants] == [variant.id]
    assert variant.title in r.text()
    s.close()


def test_an_action_without_a_procedure_has_a_ruling(tmp_path: Path) -> None:
    s = game(tmp_path, "phantoms")
    added = next(e for e in s.events() if e.event.kind == "aircraft_added")
    r = ruling_of(s.events(), added.seq, s.ruleset)
    assert r.procedure is None and r.narrative and "Blue 1" in r.text()
    with pytest.raises(KeyError):
        ruling_of(s.events(), 10_000, s.ruleset)
    s.close()


def test_the_public_ruling_keeps_back_what_the_player_display_never_shows(
    tmp_path: Path,
) -> None:
    """Advanced Air Force: movement is written secretly (rule 2): a speed change shown to the
    players leaves out the plotted inputs; the umpire's state records (positions, fired
    marks) and who overrode what are left out of every public ruling."""
    s = game(tmp_path, "advanced_air_force")
    ids = list(s.engagement.aircraft)
    p = s.actions.prepare(
        "speed_change", {"aircraft": ids[0]}, {"current_speed": 5, "power_used": 1}
    )
    assert p.inputs is not None, p.error
    s.actions.resolve(p)
    env = record(s)
    r = ruling_of(s.events(), env.seq, s.ruleset)
    pub = r.public()
    secret = s.ruleset.secret_inputs["speed_change"]
    assert {i.name for i in r.inputs} & secret
    assert not {i.name for i in pub.inputs} & secret
    assert pub.narrative == "" and pub.actor == "" and pub.is_public
    assert all(e.public for e in pub.events)
    assert not any(e.kind in ("position_set", "attributes_set") for e in pub.events)
    assert "Not shown to the players" in pub.text()
    s.close()


def test_the_sessions_ruling_reads_one_action_and_agrees_with_the_log(tmp_path: Path) -> None:
    """``GameSession.ruling`` reads the one action from the store (the desk's double-click on
    a long log) and gives the ruling the whole log gives; an older record without stored
    odds falls back to the log."""
    s = game(tmp_path, "phantoms")
    ids = list(s.engagement.aircraft)
    p = s.actions.prepare("radar_lock", {"attacker": ids[0], "target": ids[2]}, {"range_hexes": 5})
    s.actions.resolve(p, TableDice([7, 3]))
    env = record(s)
    whole = ruling_of(s.events(), env.seq, s.ruleset)
    for seq in (env.seq, env.seq + 1):  # any entry of the action
        assert s.odds.ruling(seq) == whole
        assert s.odds.ruling(seq, set()) == whole
    s.undo()
    undone = s.odds.ruling(env.seq)
    assert undone.undone and "UNDONE" in undone.text()
    assert s.odds.ruling(s.engagement.seq).seq == env.seq  # the undo line: the action it undid
    with pytest.raises(KeyError):
        s.odds.ruling(999)
    s.close()
