"""Issue 35: the series, the luck and the dice a known log gives, against hand-computed values.

The game (Skirmish: a d10 gun roll hits on the shooter's hit number or less, read from its
card: a jet's 6, a prop's 5; a 10 always misses; a jet has 3 rounds and 4 damage boxes, a prop
2 rounds and 3 boxes), every die typed:

  Blue 1 (jet) guns Red 1 (prop): 3 -> hit   Red 1 damage 1, Blue 1 rounds 3 -> 2
  Blue 1 guns Red 1: 9 -> miss               Blue 1 rounds 2 -> 1
  Red 1 guns Blue 1: 5 -> hit                Blue 1 damage 1, Red 1 rounds 2 -> 1
  Blue 2 (jet) guns Red 1: 4 -> hit, then UNDONE (not in the game, nor in the dice)
  next step (turn 1, step 1 of 3)
  Blue 1 guns Red 1: 2 -> hit                Red 1 damage 2, Blue 1 rounds 1 -> 0
  Blue 2 guns Red 1: 1 -> hit                Red 1 damage 3 = its boxes: destroyed

Hand-computed luck: Blue's four attack rolls each hit with 6/10: 12/5 hits expected, 3 came;
the chance of fewer than 3 of 4 is .0256 + .1536 + .3456 = .5248, of exactly 3 .3456, so
Blue's rolls beat .5248 + .3456 / 2 = 69.76% of fair games. Red's one roll hits with 5/10:
1/2 expected, 1 came: luckier than .5 + .5 / 2 = 75%. Only Blue 2's roll could kill (Red 1
at 2 of 3): 3/5 kills expected, 1 came.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from app.core.after_action import read_after_action
from app.core.dice import TableDice
from app.core.dice_check import (
    MIN_EXPECTED,
    check_die,
    chi_square,
    chi_square_p,
    dice_checks,
    read_typed_dice,
    typed_faces,
)
from app.core.errors import RuleViolation
from app.core.luck import attacks, band, hits_of, luck_rolls, luckier_than, tally
from app.session import GameSession


@pytest.fixture
def game(tmp_path: Path):
    s = GameSession.create(tmp_path / "luck.airboss", "skirmish", "Luck")
    b1 = s.add_aircraft("Blue", "jet", "Blue 1")
    b2 = s.add_aircraft("Blue", "jet", "Blue 2")
    r1 = s.add_aircraft("Red", "prop", "Red 1")

    def gun(a: str, t: str, die: int) -> str:
        return s.perform("gun_attack", {"attacker": a, "target": t}, TableDice([die])).outcome

    assert gun(b1, r1, 3) == "hit"
    assert gun(b1, r1, 9) == "miss"
    assert gun(r1, b1, 5) == "hit"
    assert gun(b2, r1, 4) == "hit"
    s.undo()
    s.clock.next_step()
    assert gun(b1, r1, 2) == "hit"
    assert gun(b2, r1, 1) == "hit"
    yield s, (b1, b2, r1)
    s.close()


def test_series_from_a_known_log(game):
    s, (b1, b2, r1) = game
    events = list(s.log.iter_stored())
    aa = read_after_action(events, steps_per_turn=3, ledger_titles={"ammunition": "Rounds"})
    damage = {x.name: [int(v) for v in x.values] for x in aa.of_aircraft("damage")}
    assert damage == {"Blue 1": [0, 1], "Blue 2": [0], "Red 1": [0, 1, 2, 3]}
    rounds = {x.name: x.values for x in aa.of_aircraft("ledger:ammunition")}
    assert rounds == {"Blue 1": [3, 2, 1, 0], "Blue 2": [3, 2], "Red 1": [2, 1]}
    assert aa.title("ledger:ammunition") == "Rounds"
    # game time in turns: the last two rolls came in step 1 of 3 of turn 1
    red = aa.of_aircraft("damage")[2]
    assert red.xs == pytest.approx([1, 1, 4 / 3, 4 / 3])
    # per side: the sum over the side's aircraft, one point per moment of game time
    sides = {s.name: [(p.x, int(p.value)) for p in s.points] for s in aa.of_sides("damage")}
    assert sides == {"Blue": [(1, 1)], "Red": [(1, 1), (pytest.approx(4 / 3), 3)]}
    # the loss, with the enemy whose attack came last, and its log line
    (loss,) = aa.losses
    assert (loss.name, loss.how, loss.by_name, loss.by_side) == (
        "Red 1",
        "destroyed",
        "Blue 2",
        "Blue",
    )
    assert "Blue 2" in aa.line(loss.action) and "Turn 1, step 2, #" in aa.line(loss.action)
    named = read_after_action(events, step_labels=["Initiative", "Movement", "Combat"])
    assert named.line(loss.action).startswith(f"Turn 1, Movement, #{loss.action}: Blue 2")


def test_luck_sums_from_a_known_log(game):
    s, (b1, b2, r1) = game
    events = list(s.log.iter_stored())
    rolls = luck_rolls(events, s.ruleset.procedures)
    assert [r.outcome for r in rolls] == ["hit", "miss", "hit", "hit", "hit"]  # undone left out
    jet, prop = (
        {"hit": Fraction(3, 5), "miss": Fraction(2, 5)},
        {"hit": Fraction(1, 2), "miss": Fraction(1, 2)},
    )
    assert [r.odds for r in rolls] == [jet, jet, prop, jet, jet]
    assert [r.kill_chance for r in rolls] == [0, 0, 0, 0, Fraction(3, 5)]
    assert [r.killed for r in rolls] == [False, False, False, False, True]
    sides = {t.name: t for t in tally(rolls)}
    blue, red_t = sides["Blue"], sides["Red"]
    assert (blue.rolls, blue.expected_hits, blue.hits) == (4, Fraction(12, 5), 3)
    assert (blue.expected_kills, blue.kills) == (Fraction(3, 5), 1)
    assert blue.luckier_than == pytest.approx(0.6976, abs=1e-12)
    assert (red_t.expected_hits, red_t.hits) == (Fraction(1, 2), 1)
    assert red_t.luckier_than == pytest.approx(0.75, abs=1e-12)
    assert "luckier than 70% of games with these odds" in blue.sentence()
    per_aircraft = {t.name: (t.rolls, t.hits) for t in tally(rolls, "aircraft")}
    assert per_aircraft == {"Blue 1": (3, 2), "Red 1": (1, 1), "Blue 2": (1, 1)}
    # the band of the middle 90% of fair games, after each of Blue's rolls
    b = band(attacks(rolls, "Blue"))
    assert [(p.expected, p.actual) for p in b] == [
        (Fraction(3, 5), 1), (Fraction(6, 5), 1), (Fraction(9, 5), 2), (Fraction(12, 5), 3)
    ]  # fmt: skip
    assert [(p.low, p.high) for p in b] == [(0, 1), (0, 2), (0, 3), (1, 4)]


def test_hits_read_from_outcome_labels():
    assert [hits_of(x) for x in ("miss", "1 hit", "4 hits", "lock", "3FW2L")] == [0, 1, 4, 1, 1]
    # two rolls of 0/1/2 hits with 1/4, 1/2, 1/4: a total of 2 is the middle (ties count half)
    odds = {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert luckier_than([odds, odds], 2) == pytest.approx(0.5)


def test_chi_square_of_a_fixed_sample_equals_the_hand_computed_value():
    # 60 rolls of a d6, 10 expected per face: (25 + 4 + 1 + 4 + 0 + 100) / 10 = 13.4
    check = check_die(
        "d6", range(1, 7), [1] * 5 + [2] * 8 + [3] * 9 + [4] * 8 + [5] * 10 + [6] * 20
    )
    assert check.statistic == Fraction(67, 5) == chi_square([5, 8, 9, 8, 10, 20])
    assert check.df == 5
    # e^-6.7 (1 + 6.7 ... ) by the closed form, against the tables' 0.01 < p < 0.025
    assert 0.01 < check.p < 0.025 and not check.flagged
    # the closed form against the printed critical values (odd and even degrees of freedom)
    for stat, df, p in [(3.841, 1, 0.05), (9.210, 2, 0.01), (11.070, 5, 0.05), (15.086, 5, 0.01),
                        (21.666, 9, 0.01), (16.919, 9, 0.05), (13.277, 4, 0.01)]:  # fmt: skip
        assert chi_square_p(stat, df) == pytest.approx(p, rel=2e-3), (stat, df)


def test_a_biased_die_over_300_typed_rolls_is_flagged_and_a_fair_one_is_not(tmp_path):
    rng = random.Random(35)
    fair = [rng.randint(1, 10) for _ in range(300)]
    biased = [10 if rng.random() < 0.2 else rng.randint(1, 9) for _ in range(300)]
    for name, faces in (("fair", fair), ("biased", biased)):
        with GameSession.create(tmp_path / f"{name}.airboss", "skirmish", name) as s:
            for face in faces:  # critical-table rolls typed at the table, no aircraft named
                s.perform("critical_hit", {}, TableDice([0 if face == 10 else face]))
            (check,) = dice_checks(typed_faces(s.log.iter_stored()))
        assert check.label == "d10" and check.rolls == 300
        assert check.flagged is (name == "biased"), (name, check.verdict())
    assert "looks unfair" in check.verdict()


def test_too_few_rolls_are_never_flagged_and_the_panel_says_how_many_are_needed():
    check = check_die("d10", range(1, 11), [10] * 12)
    assert check.p < 1e-6 and not check.flagged
    assert check.needed == MIN_EXPECTED * 10 == 50
    assert "too few to judge: the test needs 50" in check.verdict()


def test_typed_dice_of_undone_actions_are_left_out(game):
    s, _ = game
    assert typed_faces(list(s.log.iter_stored()), undone={a for a in s.log.undone_actions()}) == {
        ("d10", ""): [3, 9, 5, 2, 1]
    }


def test_dice_named_per_side_and_per_player_group_the_rolls_typed_after(game):
    """Issue 35: the umpire names once which dice a side (or one aircraft's player) rolls;
    every roll typed from then on is checked with those dice, those before stay unnamed."""
    s, (b1, b2, r1) = game  # five typed d10s so far, none named: 3, 9, 5 (Red), 2, 1

    def roll(a: str, die: int) -> None:  # a critical-hit roll on ``a``: its side rolls it
        s.perform("critical_hit", {"aircraft": a}, TableDice([die]))

    s.roster.set_dice("Blue", "the blue d10")
    s.roster.set_dice("Red", "the red d10")
    s.roster.set_dice("Blue", " Anna's  dice ", aircraft=b2)  # Blue 2's player rolls her own
    roll(b1, 7)
    roll(b2, 4)
    roll(r1, 8)
    s.roster.set_dice("Blue", "a borrowed d10")  # Blue's die changes from now on
    s.roster.set_dice("Blue", "the blue d10")
    s.undo()  # ... and back: the undone naming never counted
    roll(b1, 6)
    s.roster.set_dice("", "the umpire's d10")  # the rolls no aircraft makes
    s.perform("critical_hit", {}, TableDice([9]))
    typed = read_typed_dice(list(s.log.iter_stored()), s.log.undone_actions())
    assert typed.faces == {
        ("d10", ""): [3, 9, 5, 2, 1],
        ("d10", "the umpire's d10"): [9],
        ("d10", "the blue d10"): [7],
        ("d10", "Anna's dice"): [4],
        ("d10", "the red d10"): [8],
        ("d10", "a borrowed d10"): [6],
    }
    assert typed.said() == [
        "Red: the red d10", "Blue 2: Anna's dice", "Blue: a borrowed d10",
        "Rolls of no aircraft: the umpire's d10",
    ]  # fmt: skip
    checks = dice_checks(typed.faces)
    assert [c.label for c in checks] == [
        "d10", "d10, Anna's dice", "d10, a borrowed d10", "d10, the blue d10", "d10, the red d10",
        "d10, the umpire's d10",
    ]  # fmt: skip
    # a name emptied: that player's rolls go back to the side's dice
    s.roster.set_dice("Blue", "", aircraft=b2)
    roll(b2, 5)
    assert read_typed_dice(list(s.log.iter_stored())).faces[("d10", "a borrowed d10")] == [6, 5]


def test_one_unfair_die_among_the_tables_is_flagged_on_its_own(tmp_path):
    """Two sides, each its own d10 named at the table, 300 typed rolls each: only the die
    fond of 10 is flagged (together they would blur it)."""
    rng = random.Random(35)
    with GameSession.create(tmp_path / "two.airboss", "skirmish", "two dice") as s:
        blue = s.add_aircraft("Blue", "jet", "Blue 1")
        red = s.add_aircraft("Red", "jet", "Red 1")
        s.roster.set_dice("Blue", "Blue's d10")
        s.roster.set_dice("Red", "Red's d10")
        for _ in range(300):
            fair = rng.randint(1, 10)
            biased = 10 if rng.random() < 0.2 else rng.randint(1, 9)
            for a, face in ((blue, fair), (red, biased)):
                s.perform("critical_hit", {"aircraft": a}, TableDice([face % 10]))
        checks = {c.dice: c for c in dice_checks(typed_faces(s.log.iter_stored()))}
    assert {d: c.rolls for d, c in checks.items()} == {"Blue's d10": 300, "Red's d10": 300}
    assert not checks["Blue's d10"].flagged and checks["Red's d10"].flagged
    assert checks["Red's d10"].verdict().startswith("d10, Red's d10: looks unfair")


def test_naming_dice_is_refused_with_a_clear_message(game):
    s, (b1, _b2, _r1) = game
    with pytest.raises(RuleViolation, match="no side 'Green' in this game"):
        s.roster.set_dice("Green", "green dice")
    with pytest.raises(RuleViolation, match="at most 80"):
        s.roster.set_dice("Blue", "x" * 81)
    with pytest.raises(RuleViolation, match="nope"):
        s.roster.set_dice("Blue", "a die", aircraft="nope")
    s.roster.set_dice("Blue", "the blue d10", aircraft=b1)
    assert s.events()[-1].narrative == "Dice at the table: Blue 1 rolls the blue d10"
    s.roster.set_dice("Blue", "")
    assert s.events()[-1].narrative == "Dice at the table: Blue's dice no longer named"
    s.roster.set_dice("", "the umpire's d6")
    assert (
        s.events()[-1].narrative == "Dice at the table: rolls of no aircraft with the umpire's d6"
    )
