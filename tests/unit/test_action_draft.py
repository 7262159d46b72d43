"""Issue 43: the action draft and its flow, without Qt.

Every "who acts now" line of a whole turn of each of the five games is opened in a draft and
typed as the umpire types it (each field still to type, then each die the rules roll, moving
on as the draft says), then resolved with Enter. After every step the text the draft gives a
field (what the form paints) parses to the value the prepared action uses; after Resolve the
event records exactly those values. A line the rules refuse says why before anything is typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import field_text
from app.core.data import save_override
from app.core.dice import DiceSpec, TableDice
from app.core.draft import ActionDraft, Entry, pools, tokens
from app.core.events import ProcedureResolved
from app.core.prepared import DieToType
from app.session import GameSession
from tests.umpire_values import AIRPOWER_MODIFIERS

RULESETS = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")


def game(path: Path, ruleset_id: str) -> GameSession:
    """Two aircraft a side (UFO: two Tornados and a Small UFO, initiative rolled)."""
    s = GameSession.create(path, ruleset_id, "One turn")
    if ruleset_id == "ufo_interception":
        s.add_aircraft("NATO", "tornado", "Blue 1", reaction=2)
        s.add_aircraft("NATO", "tornado", "Blue 2", reaction=1)
        s.add_aircraft("Visitors", "small_ufo", "Saucer")
        s.perform(
            "initiative", {"planes": ["blue-1", "blue-2"], "reactions": [2, 1]}, TableDice([3, 6])
        )
    else:
        types = list(s.ruleset.aircraft)
        for n in (1, 2):
            for side, t in (("Blue", types[0]), ("Red", types[1 % len(types)])):
                extra = {"base": f"{side} base"} if ruleset_id == "nth_fleet" else {}
                s.add_aircraft(side, t, f"{side} {n}", **extra)
    return s


def shown_is_used(d: ActionDraft) -> None:
    """The text each field shows parses to the value the prepared action uses (the typed text
    exactly as typed; any other value written as the form writes it)."""
    p = d.prepared
    if p is None:
        return
    for name in p.names:
        v = p.value(name)
        text = d.text(name)
        if name in d.texts:
            assert text == d.texts[name]
            kind, optional = field_text.kind_of(d.proc.Inputs.model_fields[name])
            assert field_text.parse(kind, text, optional) == v.value, (name, text, v)
        elif v.source == "unset":
            assert text == "", (name, text)
        else:
            assert text == field_text.render(v.value), (name, text, v)
        if p.inputs is not None and v.source != "unset" and name not in d.picked:
            got = getattr(p.inputs, name)
            if d.kind(name) in ("int", "str"):
                assert field_text.render(got) == field_text.render(v.value) or got == v.value


def fill(d: ActionDraft) -> None:
    """Type each field still to type: the first value of its range the rules take."""
    for _ in range(12):
        entry = d.next_entry()
        if entry.kind != "field":
            return
        name = entry.name
        kind = d.kind(name)
        if kind == "choice":
            for value, _label in d.options(name):
                d.pick(name, value, advance=True)
                if not d.error(name):
                    break
        elif kind == "int":
            low, high = d.bounds(name)
            for n in range(max(low, 0), min(high, max(low, 0) + 8) + 1):
                d.type_text(name, str(n))
                if not d.error(name):
                    break
        else:
            return  # a list or free text the umpire must judge: left as the rules said
        shown_is_used(d)
        if d.error(name):
            return


def roll(d: ActionDraft, face: int) -> None:
    """Type each die the draft asks for, in the order it asks (a skipped die never typed)."""
    for _ in range(40):
        entry = d.next_entry()
        if entry.kind != "die":
            return
        slot = d.slots[entry.index]
        faces = [str(min(max(face, slot.spec.low), slot.spec.high))] * slot.count
        d.type_die(entry.index, ("" if slot.count == 1 else "").join(faces))
        shown_is_used(d)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_line_of_a_turn_resolves_as_the_draft_shows_it(tmp_path, ruleset_id) -> None:
    save_override("airpower", "modifiers", AIRPOWER_MODIFIERS)
    s = game(tmp_path / "g.airboss", ruleset_id)
    d = ActionDraft(s.actions)
    d.reset()
    shown_is_used(d)
    steps = len(s.clock.steps())
    opened = resolved = 0
    for _step in range(steps):
        for line in list(s.who_acts.acting()):
            if line.procedure not in s.ruleset.procedures:
                continue
            if line.procedure == s.ruleset.initiative:
                continue
            d.open_line(line.procedure, line.who, line.other or None)
            opened += 1
            shown_is_used(d)
            assert d.procedure == line.procedure
            if d.refusal:  # said before anything is typed
                assert not d.can_resolve or d.prepared is None or d.prepared.inputs is None
                continue
            for _owed in range(6):  # the line, then each roll it owes
                fill(d)
                roll(d, face=6)
                p = d.prepared
                before = len(s.events())
                d.enter(d.next_entry())
                new = [env.event for env in s.events()[before:]]
                records = [e for e in new if isinstance(e, ProcedureResolved)]
                if not records:
                    assert not new  # refused: nothing written, and said
                    assert d.refusal
                    break
                resolved += 1
                rec = records[0]
                assert p is not None and p.inputs is not None
                assert rec.inputs == p.inputs.model_dump(mode="json")
                first = p.roles.get("attacker") or p.roles.get("aircraft")
                assert (rec.attacker, rec.target) == (first, p.roles.get("target"))
                if not d.notice.startswith("Owed now"):
                    break
                shown_is_used(d)
        s.clock.next_step()
        d.game_changed()
        shown_is_used(d)
    assert opened and resolved
    s.close()


# -- the flow, case by case ---------------------------------------------------------------------


def phantoms_at_guns(tmp_path: Path) -> tuple[GameSession, dict[str, str]]:
    from app.startup.demo import create_demo_game
    from rulesets.phantoms.clock import step_of

    s = create_demo_game(tmp_path / "demo.airboss")
    init = s.ruleset.procedures["initiative"].prefill(s.engagement, None, None)
    s.perform("initiative", init, TableDice([4, 9]))
    while (s.engagement.turn, s.engagement.step) != (1, step_of(1, "f")):
        s.clock.next_step()
    return s, {a.name: a.id for a in s.engagement.aircraft.values()}


def test_phantoms_gun_attack_typed_is_used_and_moves_on(tmp_path) -> None:
    """Phantoms 7.2: the firing position typed ("3") is the number shown and the number used;
    the cursor moves on to the attacker's die, then the target's, then Resolve."""
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    where: list[Entry] = []
    d.focus.connect(where.append)
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    assert where[-1] == Entry("field", "position_modifier")
    assert d.text("position_modifier") == ""  # unset: shown empty, never a 0 it does not use
    assert d.error("position_modifier") == ""  # not yet typed: nothing wrong in it
    d.type_text("position_modifier", "3")
    assert d.text("position_modifier") == "3"
    assert d.prepared.inputs.position_modifier == 3
    assert where[-1] == Entry("die", index=0)
    d.type_die(0, "6")
    assert where[-1] == Entry("die", index=1)
    d.type_die(1, "5")
    assert where[-1] == Entry("resolve")
    d.enter(where[-1])
    rec = [e.event for e in s.events() if isinstance(e.event, ProcedureResolved)][-1]
    assert rec.inputs["position_modifier"] == 3
    s.close()


def test_a_resolve_prepares_once_on_the_game_after_it(tmp_path) -> None:
    """Issue 48: the draft's own resolve appends; the draft prepares on the game after it
    once (not on the append and again after it), and what it holds is the game now."""
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    s.subscribe(lambda _envs: d.game_changed())  # as the desk's model tells it
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    d.type_text("position_modifier", "0")
    d.type_die(0, "0")
    d.type_die(1, "1")
    prepared: list[str] = []
    prepare = s.actions.prepare

    def counted(procedure, *args, **kwargs):
        prepared.append(procedure)
        return prepare(procedure, *args, **kwargs)

    s.actions.prepare = counted  # type: ignore[method-assign]
    before = s.engagement.seq
    d.enter(Entry("resolve"))
    assert s.engagement.seq > before  # recorded
    assert len(prepared) == 1, prepared
    assert d.prepared is not None and d.prepared.seq == s.engagement.seq
    s.close()


def test_dice_a_page_sent_fill_the_form_in_one_change(tmp_path) -> None:
    """Issue 48: the umpire's key on a page's dice fills every slot as if typed, and the form
    is told once (painted once), the cursor then on Resolve."""
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    d.type_text("position_modifier", "3")
    changes: list[object] = []
    where: list[Entry] = []
    d.changed.connect(changes.append)
    d.focus.connect(where.append)
    labels = [slot.label for slot in d.slots]
    assert len(labels) == 2
    assert d.fill_sent([(labels[0], "6"), (labels[1], "5")], {}, "sent") == ""
    assert [d.die_text(0), d.die_text(1)] == ["6", "5"]
    assert len(changes) == 1 and where == [Entry("resolve")]
    assert d.notice.startswith("sent")
    s.close()


def test_a_value_typed_is_the_value_used_never_cut(tmp_path) -> None:
    """UFO rules, the ray gun: "one die for every point of charge, minus 1 die for every inch
    of range". A range of 44 inches is shown as 44 and used as 44 (never cut to 4): no die is
    left to roll, and Enter records the shot as it stands, a miss at 44 inches."""
    from rulesets.ufo_interception.sequence import MISSILES
    from tests.ui.test_umpire_pace import ufo_game

    s = ufo_game(tmp_path / "u.airboss", MISSILES)
    d = ActionDraft(s.actions)
    d.open_line("ray_gun", "saucer", "tornado-1")
    d.type_text("range_inches", "44")
    assert d.text("range_inches") == "44"
    assert d.prepared.inputs.range_inches == 44 and d.slots == []
    assert d.next_entry() == Entry("resolve")
    before = len(s.events())
    d.enter(Entry("field", "range_inches"))
    rec = [e.event for e in s.events()[before:] if isinstance(e.event, ProcedureResolved)]
    assert rec and rec[0].inputs["range_inches"] == 44 and rec[0].outcome == "miss"
    s.close()


def test_a_value_the_field_cannot_hold_is_refused_in_place_never_clamped(tmp_path) -> None:
    """UFO rules, the cannon: "Range 6 inches". 44 typed shows 44 and is refused where it was
    typed; Enter says why and writes nothing."""
    from rulesets.ufo_interception.sequence import CANNON_1
    from tests.ui.test_umpire_pace import ufo_game

    s = ufo_game(tmp_path / "u.airboss", CANNON_1)
    d = ActionDraft(s.actions)
    d.open_line("cannon", "tornado-1", "saucer")
    d.type_text("range_inches", "44")
    assert d.text("range_inches") == "44"
    assert d.prepared.inputs is None and "6" in d.error("range_inches")
    before = len(s.events())
    d.enter(Entry("field", "range_inches"))
    assert len(s.events()) == before and "Range" in d.refusal
    s.close()


def test_text_that_is_not_a_number_is_refused_in_place(tmp_path) -> None:
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    d.type_text("position_modifier", "3,")
    assert d.text("position_modifier") == "3,"
    assert d.prepared.inputs is None and d.error("position_modifier")
    before = len(s.events())
    d.enter(Entry("field", "position_modifier"))
    assert len(s.events()) == before
    assert "Gun Firing Position Diagram" in d.refusal
    d.type_text("position_modifier", "")
    assert d.error("position_modifier") == "" or "type" in d.error("position_modifier")
    s.close()


def test_pasted_dice_fill_two_fields_or_are_refused_with_the_reason(tmp_path) -> None:
    """ "3,4" pasted in the first die's field fills both dice of a Phantoms gun attack; "3,4,5"
    does not fit in two and stays as typed, refused in place (never cut to "3,")."""
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    d.type_text("position_modifier", "1")
    d.type_die(0, "3,4")
    assert [d.die_text(0), d.die_text(1)] == ["3", "4"]
    assert d.next_entry() == Entry("resolve")
    d.clear_dice("test")
    d.type_die(0, "3,4,5")
    assert d.die_text(0) == "3,4,5"
    assert "3 dice typed in the field of one die" in d.die_error(0)
    before = len(s.events())
    d.enter(Entry("die", index=0))
    assert len(s.events()) == before
    assert "field of one die" in d.refusal
    s.close()


def test_enter_on_a_form_that_cannot_resolve_says_why(tmp_path) -> None:
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    d.enter(Entry("field", "position_modifier"))
    assert "Gun Firing Position Diagram" in d.refusal and "type it" in d.refusal
    d.type_text("position_modifier", "2")
    d.enter(Entry("die", index=0))
    assert "type the number rolled" in d.refusal
    s.close()


def test_an_owed_roll_undone_leaves_the_form_and_says_why(tmp_path) -> None:
    """Phantoms 8.1: a gun attack that does damage owes critical-hit rolls; the draft opens
    the first. The attack undone, the roll is no longer owed: it leaves the form, said why."""
    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    for position, faces in (("0", ("0", "1")), ("0", ("9", "1")), ("0", ("0", "2"))):
        d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
        d.type_text("position_modifier", position)
        d.type_die(0, faces[0])
        d.type_die(1, faces[1])
        d.enter(Entry("resolve"))
        if d.notice.startswith("Owed now"):
            break
    assert d.notice.startswith("Owed now"), d.notice
    owed = d.procedure
    s.undo()
    d.game_changed(undone=True)
    assert d.procedure == owed  # the panel stays on it, clean
    assert "left the form" in d.notice and "undone" in d.notice
    assert d.line is None and not any(d.dice_texts)
    s.close()


def test_a_result_that_rolls_more_asks_for_it_in_the_same_draft(tmp_path) -> None:
    """UFO rules, Damage: a 2 on 2d6 rolls again; the draft asks for the die, keeps the dice
    typed, and the roll records every die."""
    from tests.ui.test_umpire_pace import ufo_game

    s = ufo_game(tmp_path / "u.airboss")
    d = ActionDraft(s.actions)
    d.reset()
    d.choose_procedure("damage_roll")
    d.set_role("target", "saucer")
    assert [sl.count for sl in d.slots] == [2]
    where: list[Entry] = []
    d.focus.connect(where.append)
    d.type_die(0, "11")  # 2d6 = 2: the table rolls once more, asked for at once
    assert len(d.slots) == 2 and d.die_text(0) == "11"
    assert where[-1] == Entry("die", index=1)
    before = len(s.events())
    d.enter(Entry("die", index=0))  # Enter before it is typed: it says what is missing
    assert len(s.events()) == before
    while (at := d.next_entry()).kind == "die":  # each further roll is asked for as typed
        d.type_die(at.index, "4")
    d.enter(d.next_entry())
    rec = [e.event for e in s.events()[before:] if isinstance(e.event, ProcedureResolved)]
    assert rec and all(r["typed"] for r in rec[0].rolls)
    s.close()


def test_pools_group_the_dice_of_one_roll() -> None:
    d6 = DiceSpec.parse("d6")
    dice = [DieToType(d6, f"ray gun (die {i} of 3)") for i in (1, 2, 3)]
    assert [(sl.label, sl.count) for sl in pools(dice)] == [("ray gun", 3)]
    assert tokens("345", 3) == ["3", "4", "5"] and tokens("10", 1) == ["10"]
    assert tokens("3, 4", 1) == ["3", "4"]


def test_the_drafts_look_moves_on_with_the_game_only_when_nothing_shown_changed(tmp_path):
    """Issue 48: a change of the game prepares the draft again (what resolves is the game's
    now); its ``look`` (what a view shows of it) is the same when only the game's sequence
    number moved, so a view need not paint it again, and differs when anything it shows
    does. ``moving_on`` says the change told is the game's, not the umpire's."""
    from dataclasses import replace

    s, ids = phantoms_at_guns(tmp_path)
    d = ActionDraft(s.actions)
    s.subscribe(lambda _envs: d.game_changed())  # as the desk's model tells it
    d.open_line("gun_attack", ids["Olds 1"], ids["Red 1"])
    told: list[tuple[bool, dict]] = []
    d.changed.connect(lambda _p: told.append((d.moving_on, d.look())))
    before, seq = d.look(), d.prepared.seq
    s.clock.next_step()
    assert told[-1] == (True, before)
    assert d.prepared.seq == s.engagement.seq > seq

    real = s.actions.prepare

    def read_otherwise(*args, **kwargs):  # the same action, one value read off the game changed
        p = real(*args, **kwargs)
        values = tuple(
            replace(v, value=v.value + 1) if v.name == "attacker_gun_value" else v for v in p.values
        )
        return replace(p, values=values)

    s.actions.prepare = read_otherwise  # type: ignore[method-assign]
    s.clock.next_step()
    moving_on, look = told[-1]
    assert moving_on and look != before
    assert d.text("attacker_gun_value") == str(d.prepared.value("attacker_gun_value").value)
    d.type_text("position_modifier", "3")
    assert told[-1][0] is False and not d.moving_on
    s.close()
