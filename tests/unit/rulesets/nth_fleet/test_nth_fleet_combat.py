"""Nth Fleet 1.2 and 2.5-2.15: 2d5 dice, attack and defence values, air-to-air combat."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest
from pydantic import ValidationError

from app.core.dice import TableDice, distribution
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation
from rulesets.nth_fleet.card import catalogue
from rulesets.nth_fleet.combat import (
    INT,
    NON_INT,
    Combatant,
    allocate_aborts,
    allocate_losses,
    damage_for_rolls,
    roll_modifier,
)
from rulesets.nth_fleet.tables import attack_table
from rulesets.nth_fleet.values import attack_value, bombing_mode, in_int_mode

FACES = range(6)  # 1.2: two dice marked zero through five

#: a what-if: no game, no counters (``resolve`` always takes the engagement)
NO_GAME = Engagement()


def test_1_2_2d5_odds_by_hand() -> None:
    """Nth Fleet 1.2: 2d5 = 2d6 - 2, two dice 0-5: P(total) counted over the 36 faces."""
    by_hand: dict[int, Fraction] = {}
    for a, b in itertools.product(FACES, FACES):
        by_hand[a + b] = by_hand.get(a + b, Fraction(0)) + Fraction(1, 36)
    assert distribution("2d5") == by_hand
    assert by_hand[5] == Fraction(6, 36)
    assert by_hand[0] == by_hand[10] == Fraction(1, 36)
    assert sum(by_hand.values()) == 1


# -- attack and defence values (2.6-2.8) --------------------------------------------------


def test_2_6_f15c_attacks_with_14_and_tornado_f_with_13(filled: None) -> None:
    """Nth Fleet 2.6: exceptions to the printed air-air strength (samples print 12 and 9)."""
    cards = catalogue()
    assert cards["f15c"].air_air == 12
    assert attack_value("f15c", cards["f15c"], "intercept") == 14
    assert cards["tornado_f"].air_air == 9
    assert attack_value("tornado_f", cards["tornado_f"], None) == 13
    # any other fighter in fighter mode: its printed air-air strength
    assert attack_value("f14a", cards["f14a"], "escort") == cards["f14a"].air_air == 11


def test_2_6_exceptions_need_no_table(rs) -> None:
    """Nth Fleet 2.6: a fighter's attack value needs no Defence Value Table entry."""
    cards = catalogue()
    assert attack_value("f15c", cards["f15c"], None) == 14


def test_2_7_attack_and_support_aircraft_attack_at_half_defence(filled: None) -> None:
    """Nth Fleet 2.7: half the defence value, rounded down (test defences A-6E 4, Su-24 3)."""
    cards = catalogue()
    assert attack_value("a6e", cards["a6e"], "strike") == 2
    assert attack_value("su24", cards["su24"], "strike") == 1  # 3 / 2 rounded down
    assert attack_value("ea6b", cards["ea6b"], "ew") == 1
    assert attack_value("e2c", cards["e2c"], "aew") == 1


def test_2_7_fighters_in_bombing_mode_attack_at_half_defence(filled: None) -> None:
    """Nth Fleet 2.7: a fighter flying a strike uses its bombing mode (F/A-18C defence 4)."""
    fa18 = catalogue()["fa18c"]
    assert bombing_mode(fa18, "strike") and bombing_mode(fa18, "tactical strike")
    assert not in_int_mode(fa18, "strike")
    assert attack_value("fa18c", fa18, "strike") == 2
    assert attack_value("fa18c", fa18, "escort") == fa18.air_air == 8
    # the F-15C exception is for fighter mode only (2.6); bombing mode halves its defence 5
    assert attack_value("f15c", catalogue()["f15c"], "strike") == 2


def test_2_8_half_defence_needs_the_defence_value_table() -> None:
    """Nth Fleet 2.8: with the table not filled in, the combat stops and asks."""
    with pytest.raises(MissingTableValue, match="A-6E"):
        attack_value("a6e", catalogue()["a6e"], "strike")


# -- the attack table (2.9-2.11) --------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "columns"),
    [(90, [40, 50]), (40, [40]), (49, [40]), (50, [50]), (100, [50, 50]), (140, [40, 50, 50])],
)
def test_2_9_split_across_columns(total: int, columns: list[int]) -> None:
    """Nth Fleet 2.9: round down to a column; above the last column the attack is split."""
    assert attack_table().split(total) == columns


def test_2_9_ninety_points_roll_5_yield_21_damage() -> None:
    """Nth Fleet 2.9: 90 points roll on the 40 and 50 columns; a 5 gives 10 + 11 = 21."""
    table = attack_table()
    assert damage_for_rolls(table, table.split(90), [5, 5], 0) == 21


def test_2_9_air_attack_procedure_with_table_dice(rs) -> None:
    """Nth Fleet 2.9: the what-if attack of 90 points, one 2d5 per column: 2+3 and 1+4. The
    dice are found by a dry run of decide over the totals the printed cells decide (roll 5),
    the cells not printed say nothing of the dice after them."""
    p = rs.procedures["air_attack"]
    inputs = p.parse({"attack_total": 90})
    assert p.dice_needed(inputs) == [("2d5", "attack, 40 column"), ("2d5", "attack, 50 column")]
    res = p.resolve(inputs, TableDice([2, 3, 1, 4]), NO_GAME)
    assert res.outcome == "21 damage points"
    assert [r.total for r in res.rolls] == [5, 5]
    assert "(2.9)" in res.narrative


def test_2_9_variant_one_roll_read_on_every_column(rs) -> None:
    """Nth Fleet 2.9 read as one roll for a split attack (variant): 5 gives 10 + 11."""
    p = rs.bind(["one_roll_for_split"]).procedures["air_attack"]
    inputs = p.parse({"attack_total": 90})
    assert len(p.dice_needed(inputs)) == 1
    assert p.resolve(inputs, TableDice([2, 3]), NO_GAME).outcome == "21 damage points"


def test_2_9_a_missing_cell_stops_the_attack(rs) -> None:
    p = rs.procedures["air_attack"]
    with pytest.raises(MissingTableValue, match="column 40, roll 6"):
        p.resolve(p.parse({"attack_total": 45}), TableDice([3, 3]), NO_GAME)
    with pytest.raises(MissingTableValue):
        p.odds(p.parse({"attack_total": 45}))


def test_2_10_2_11_roll_modifiers() -> None:
    """Nth Fleet 2.10: +/-1 friendly/enemy EW; 2.11: +2 on CAP, -2 attacking CAP."""
    assert roll_modifier(True, False, False, False) == 1
    assert roll_modifier(False, True, False, False) == -1
    assert roll_modifier(True, True, False, False) == 0
    assert roll_modifier(False, False, True, False) == 2
    assert roll_modifier(False, False, False, True) == -2
    assert roll_modifier(True, False, False, True) == -1


def test_2_11_cap_modifier_reads_the_printed_row(rs) -> None:
    """Nth Fleet 2.11: CAP rolling 3 (+2) and attackers of CAP rolling 7 (-2) read row 5."""
    p = rs.procedures["air_attack"]
    cap = p.resolve(p.parse({"attack_total": 40, "on_cap": True}), TableDice([1, 2]), NO_GAME)
    assert cap.outcome == "10 damage points"
    attacking = p.resolve(
        p.parse({"attack_total": 50, "attacking_cap": True}), TableDice([3, 4]), NO_GAME
    )
    assert attacking.outcome == "11 damage points"
    ew = p.resolve(
        p.parse({"attack_total": 40, "friendly_ew": True, "on_cap": True}),
        TableDice([0, 2]),
        NO_GAME,
    )
    assert ew.outcome == "10 damage points"


def test_2_9_a_modified_roll_below_the_table(rs, filled: None) -> None:
    """Nth Fleet 2.9-2.11 (issue 15, an open reading): 50 points attacking CAP (-2, 2.11) with
    a 2d5 of 1 make a modified roll of -1, below the table's first row (0); 2.9 does not say
    how it is read. Default: on the first row (the test 50 column: 1 damage point). Variant
    ``below_table_no_damage``: no damage. Above the last row both read the last row."""
    (variant,) = [v for v in rs.variants if v.id == "below_table_no_damage"]
    assert variant.rule == "Nth Fleet 2.9" and not variant.default
    assert "Default: on the nearest printed row" in variant.help
    default = rs.procedures["air_attack"]
    reading = rs.bind(["below_table_no_damage"]).procedures["air_attack"]
    attack = {"attack_total": 50, "attacking_cap": True}
    assert default.resolve(default.parse(attack), TableDice([0, 1]), NO_GAME).outcome == (
        "1 damage points"
    )
    assert reading.resolve(reading.parse(attack), TableDice([0, 1]), NO_GAME).outcome == "miss"
    # 2d5 of 2 is modified to 0, the first row itself: read alike
    for p in (default, reading):
        assert p.resolve(p.parse(attack), TableDice([1, 1]), NO_GAME).outcome == "1 damage points"
    # 2d5 of 10 on CAP (+2) is 12, above the last row (10): the last row in both readings
    cap = {"attack_total": 50, "on_cap": True}
    for p in (default, reading):
        assert p.resolve(p.parse(cap), TableDice([5, 5]), NO_GAME).outcome == "21 damage points"
    two_d5 = distribution("2d5")
    assert default.odds(default.parse(attack))["1 damage points"] == sum(
        two_d5[r] for r in (0, 1, 2)
    )
    odds = reading.odds(reading.parse(attack))
    assert odds["miss"] == two_d5[0] + two_d5[1] == Fraction(3, 36)
    assert odds["1 damage points"] == two_d5[2]
    # a split attack (90: 40 + 50, two rolls) reads each column's roll the same way: the test
    # 40 column's row 0 is 0 anyway (2d5 of 2 or less), the 50 column misses only below it
    split = reading.odds(reading.parse({"attack_total": 90, "attacking_cap": True}))
    assert split["miss"] == Fraction(6, 36) * Fraction(3, 36)
    assert "miss" not in default.odds(default.parse({"attack_total": 90, "attacking_cap": True}))


def test_2_9_odds_exact_by_enumeration(rs, filled: None) -> None:
    """Exact odds of a split attack (90 -> 40 + 50, -2 attacking CAP) by enumerating 4 dice."""
    p = rs.procedures["air_attack"]
    odds = p.odds(p.parse({"attack_total": 90, "attacking_cap": True}))

    def cell(column: int, roll: int) -> int:
        row = min(max(roll, 0), 10)  # beyond the printed rows: the first or last row
        return 2 * row if column == 40 else 2 * row + 1

    by_hand: dict[str, Fraction] = {}
    for a, b, c, d in itertools.product(FACES, repeat=4):
        dmg = cell(40, a + b - 2) + cell(50, c + d - 2)
        key = "miss" if dmg == 0 else f"{dmg} damage points"
        by_hand[key] = by_hand.get(key, Fraction(0)) + Fraction(1, 6**4)
    assert odds == by_hand
    assert sum(odds.values()) == 1


def test_2_9_odds_of_one_column_equal_the_2d5_odds(rs, filled: None) -> None:
    p = rs.procedures["air_attack"]
    odds = p.odds(p.parse({"attack_total": 40}))
    two_d5 = distribution("2d5")
    assert odds == {("miss" if r == 0 else f"{2 * r} damage points"): q for r, q in two_d5.items()}


def test_below_the_first_column_there_is_no_roll(rs, filled: None) -> None:
    p = rs.procedures["air_attack"]
    inputs = p.parse({"attack_total": 9})
    assert p.dice_needed(inputs) == []
    assert p.odds(inputs) == {"miss": Fraction(1)}
    assert p.resolve(inputs, TableDice([]), NO_GAME).outcome == "miss"


# -- losses (2.12, 2.15) and aborts (2.13, 2.14) ------------------------------------------


def _c(cid: str, points: int, category: str = INT, mission: str | None = None) -> Combatant:
    return Combatant(cid, cid, points, 0, category, mission)


def test_2_12_13_damage_against_defence_4_shoots_down_3() -> None:
    """Nth Fleet 2.12: 13 damage points, all defences 4: 3 air points shot down."""
    losses, left = allocate_losses(13, [_c("mig", 10)], lambda c: 4)
    assert losses == {"mig": 3}
    assert left == 1


def test_2_12_ints_first_then_left_over_damage_on_non_ints() -> None:
    """Nth Fleet 2.12: INTs are destroyed first; damage left over falls on non-INTs."""
    defence = {"int": 4, "bomber": 2}
    targets = [_c("bomber", 5, NON_INT, "strike"), _c("int", 2)]
    losses, left = allocate_losses(13, targets, lambda c: defence[c.id])
    assert losses == {"int": 2, "bomber": 2}
    assert left == 1


def test_2_15_the_shooter_chooses_within_a_category() -> None:
    """Nth Fleet 2.15: within INTs the shooter's order decides whose points go."""
    defence = {"f15": 5, "f14": 4}
    first = allocate_losses(9, [_c("f15", 4), _c("f14", 4)], lambda c: defence[c.id])
    second = allocate_losses(9, [_c("f14", 4), _c("f15", 4)], lambda c: defence[c.id])
    assert first == ({"f15": 1, "f14": 1}, 0)
    assert second == ({"f14": 2}, 1)


def test_2_13_aborts_equal_points_shot_down() -> None:
    """Nth Fleet 2.13: as many surviving strike points abort as points were shot down."""
    strike = [_c("a6", 4, NON_INT, "strike"), _c("a7", 2, NON_INT, "strike")]
    assert allocate_aborts(3, strike, {"a6": 2}) == {"a6": 2, "a7": 1}
    assert allocate_aborts(9, strike, {}) == {"a6": 4, "a7": 2}
    assert allocate_aborts(0, strike, {}) == {}


# -- the whole combat with counters (2.5-2.15) --------------------------------------------


def _strike_against_cap(game: Callable):  # noqa: ANN202 - the test game
    g = game()
    a6 = g.add("Blue", "a6e", "VA-35", base="Nimitz", unit_sides=2)
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2, units=2)
    g.perform("launch_mission", {"aircraft": a6, "points": 4, "mission": "strike"})
    g.perform("launch_mission", {"aircraft": f14, "points": 4, "mission": "escort"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "cap"})
    return g, a6, f14, mig


def test_2_5_2_15_strike_with_escort_against_cap(game: Callable, filled: None) -> None:
    """Nth Fleet 2.9-2.13: a strike and its escort fight CAP in an activation phase.

    Blue: 4 A-6E x 2 (half defence 4, 2.7) + 4 F-14A x 11 = 52: the 50 column, and 2 left
    below the first test column; it attacks CAP, -2 (2.11): 2d5 = 6 -> row 4 -> 9 damage.
    Red: 4 MiG-29 on CAP x 9 = 36: the 30 column, +2 (2.11): 2d5 = 4 -> row 6 -> 9 damage.
    Simultaneous (2.12): Blue's 9 damage shoots down 2 MiGs (defence 4), 1 left over; Red's 9
    shoots down 1 F-14A (INT first, defence 5) and then 1 A-6E (defence 4). Blue lost 2 points,
    so 2 more A-6E points abort (2.13) and go to the used track (2.1).
    """
    g, a6, f14, mig = _strike_against_cap(game)
    res = g.perform(
        "air_combat",
        {"first": [a6, f14], "second": [mig], "cap": "second", "phase": "activation"},
        [3, 3, 2, 2],
    )
    assert res.outcome == "first force 9, second force 9 damage points"
    assert g.tracks(mig) == {"unused": 4, "aloft": 0, "cap": 2, "used": 0}
    assert g.tracks(f14) == {"unused": 0, "aloft": 3, "cap": 0, "used": 0}
    assert g.tracks(a6) == {"unused": 0, "aloft": 1, "cap": 0, "used": 2}
    assert [g.state.get(x).ledger("air_points") for x in (a6, f14, mig)] == [3, 3, 6]
    assert "shoots down 2 Fulcrums (1 damage point(s) left over)" in res.narrative
    assert "aborted: 2 VA-35 (2.13)" in res.narrative


def test_2_14_strategic_air_phase_aborts_rcn(game: Callable, filled: None) -> None:
    """Nth Fleet 2.14: in a strategic air phase RCN points abort, one per point shot down."""
    g = game()
    bear = g.add("Red", "tu95rt", "Bears", base="Olenya", air_points=3)
    f15 = g.add("Blue", "f15c", "Eagles", base="Keflavik", unit_sides=2)
    g.perform("launch_mission", {"aircraft": bear, "points": 3, "mission": "rcn"})
    g.perform("launch_mission", {"aircraft": f15, "points": 3, "mission": "intercept"})
    # Blue: 3 x 14 = 42 -> 40 column, 2d5 = 3 -> 6 damage; Tu-95RT defence 5: 1 shot down,
    # 1 more aborts. Red: 3 x (5 // 2) = 6, below the 10 column: no roll.
    res = g.perform(
        "air_combat", {"first": [f15], "second": [bear], "phase": "strategic air"}, [1, 2]
    )
    assert res.outcome == "first force 6, second force 0 damage points"
    assert g.tracks(bear) == {"unused": 0, "aloft": 1, "cap": 0, "used": 1}
    assert g.tracks(f15) == {"unused": 1, "aloft": 3, "cap": 0, "used": 0}


def test_2_10_effective_ew_counter_adds_one(game: Callable, filled: None) -> None:
    """Nth Fleet 2.10: an effective EW counter in the force: +1 for it, -1 for the enemy."""
    g = game()
    ew = g.add("Blue", "ea6b", "VAQ-136", base="Nimitz", unit_sides=1)
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2)
    g.perform("launch_mission", {"aircraft": ew, "points": 2, "mission": "ew"})
    g.perform("launch_mission", {"aircraft": f14, "points": 4, "mission": "escort"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "intercept"})
    combat = {"first": [ew, f14], "second": [mig], "first_picks": [mig]}
    with pytest.raises(RuleViolation, match="effectiveness first"):
        g.perform("air_combat", combat, [0, 0, 0, 0])
    g.perform("mission_effectiveness", {"aircraft": ew, "points": 2, "kind": "support"}, [1])
    # Blue: 2 x 1 + 4 x 11 = 46 -> 40 column, 2d5 = 4 +1 -> 10. Red: 36 -> 30, 2d5 = 4 -1 ->
    # 3 x 3 // 2 = 4 damage: too little for an F-14A (defence 5), so it is left over and
    # falls on the non-INT EA-6B (defence 3, 2.12).
    res = g.perform("air_combat", combat, [2, 2, 2, 2])
    assert res.outcome == "first force 10, second force 4 damage points"
    assert g.tracks(mig)["aloft"] == 2
    assert g.tracks(f14)["aloft"] == 4
    assert g.tracks(ew)["aloft"] == 1


def test_2_12_variant_ints_screen_the_others() -> None:
    """Nth Fleet 2.12 read strictly: non-INTs only once every INT point is down (variant)."""
    defence = {"f14": 5, "ea6b": 3}
    targets = [_c("f14", 4), _c("ea6b", 2, NON_INT, "ew")]
    assert allocate_losses(4, targets, lambda c: defence[c.id]) == ({"ea6b": 1}, 1)
    assert allocate_losses(4, targets, lambda c: defence[c.id], ints_screen=True) == ({}, 4)
    assert allocate_losses(26, targets, lambda c: defence[c.id], ints_screen=True) == (
        {"f14": 4, "ea6b": 2},
        0,
    )


def test_combat_destroys_a_counter_at_zero_points(game: Callable, filled: None) -> None:
    g = game()
    f15 = g.add("Blue", "f15c", "Eagles", base="Keflavik", unit_sides=2, units=3)
    su = g.add("Red", "su24", "Fencers", base="Olenya", air_points=2)
    g.perform("launch_mission", {"aircraft": f15, "points": 12, "mission": "intercept"})
    g.perform("launch_mission", {"aircraft": su, "points": 2, "mission": "strike"})
    # Blue: 12 x 14 = 168: three rolls on the 50 column and 18 on the 10 column (2.9);
    # four 2d5 rolls of 10 give 5 + 3 x 21 = 68. Red: 2 x (3 // 2) = 2, no column: no roll.
    assert attack_table().split(168) == [10, 50, 50, 50]
    res = g.perform("air_combat", {"first": [f15], "second": [su]}, [5, 5] * 4)
    assert res.outcome == "first force 68, second force 0 damage points"
    s = g.state.get(su)
    assert s.ledger("air_points") == 0
    assert "destroyed" in s.status
    assert g.tracks(su) == {"unused": 0, "aloft": 0, "cap": 0, "used": 0}
    assert s.attributes["mission"] is None


def test_combat_refusals(game: Callable, filled: None) -> None:
    g, a6, f14, mig = _strike_against_cap(game)
    with pytest.raises(RuleViolation, match="no air points aloft"):
        g.perform("air_combat", {"first": [a6], "second": [mig]}, [0] * 4)
    with pytest.raises(RuleViolation, match="two sides"):
        g.perform("air_combat", {"first": [a6], "second": [f14]}, [0] * 4)
    su = g.add("Red", "su24", "Fencers", base="Olenya", air_points=2)
    g.perform("launch_mission", {"aircraft": su, "points": 2, "mission": "strike"})
    with pytest.raises(RuleViolation, match="mixes sides"):
        g.perform("air_combat", {"first": [a6, su], "second": [mig], "cap": "second"}, [0] * 4)
    with pytest.raises(RuleViolation, match="choose among"):
        g.perform(
            "air_combat",
            {"first": [a6, f14], "second": [mig], "cap": "second", "first_picks": [a6]},
            [5, 5, 5, 5],
        )
    with pytest.raises(RuleViolation, match="attack value of 52, not 50"):
        g.perform(
            "air_combat",
            {"first": [a6, f14], "first_attack": 50, "second": [mig], "cap": "second"},
            [0] * 4,
        )
    with pytest.raises(ValidationError, match="both sides"):
        g.perform("air_combat", {"first": [a6], "second": [a6]})
    with pytest.raises(ValidationError, match="counters or an attack total"):
        g.perform("air_combat", {"first": [a6]})


def test_combat_what_if_odds_exact(rs, filled: None) -> None:
    """The joint odds of a what-if combat, by enumerating the four dice (40 v 30 columns)."""
    p = rs.procedures["air_combat"]
    inputs = p.parse({"first_attack": 40, "second_attack": 30, "cap": "second"})
    by_hand: dict[str, Fraction] = {}
    for a, b, c, d in itertools.product(FACES, repeat=4):
        first = 2 * min(max(a + b - 2, 0), 10)
        second = 3 * min(c + d + 2, 10) // 2  # the 30 column, +2 on CAP
        key = (
            "miss"
            if first == second == 0
            else f"first force {first}, second force {second} damage points"
        )
        by_hand[key] = by_hand.get(key, Fraction(0)) + Fraction(1, 6**4)
    assert p.odds(inputs) == by_hand
    res = p.resolve(inputs, TableDice([0, 1, 2, 3]), NO_GAME)
    assert res.outcome == "first force 0, second force 10 damage points"
    assert len(res.events) == 1  # a what-if only logs its result


RULE_2_10 = "2.10 The air-to-air attack roll is modified +/- 1 for friendly/enemy EW aircraft."


def test_2_10_several_ew_aircraft_once_or_each(rs, filled: None) -> None:
    """``RULE_2_10``: with three friendly EW aircraft and one enemy, the default reading gives
    +1 - 1 = 0; the ``ew_each`` reading +3 - 1 = +2 -- exactly the odds of +2 on CAP."""
    from rulesets.nth_fleet.combat import ew_modifier

    assert [ew_modifier(n, each=False) for n in range(4)] == [0, 1, 1, 1]
    assert [ew_modifier(n, each=True) for n in range(4)] == [0, 1, 2, 3]
    each = rs.bind(["ew_each"]).procedures["air_attack"]
    once = rs.procedures["air_attack"]
    ew = {"attack_total": 40, "friendly_ew": True, "enemy_ew": True}
    three = {**ew, "friendly_ew_aircraft": 3, "enemy_ew_aircraft": 1}
    assert each.odds(each.parse(three)) == once.odds(
        once.parse({"attack_total": 40, "on_cap": True})
    )
    assert once.odds(once.parse(ew)) == once.odds(once.parse({"attack_total": 40}))
    assert each.odds(each.parse(ew)) == once.odds(once.parse(ew))  # one each side: +1 - 1
    # without the reading the counts are not asked for, and a count is refused
    assert set(once.inputs_off()) == {"friendly_ew_aircraft", "enemy_ew_aircraft"}
    assert not each.inputs_off()
    with pytest.raises(RuleViolation, match="ew_each"):
        once.odds(once.parse(three))


def test_2_10_each_reading_counts_an_ew_counters_air_points(
    rs, game: Callable, filled: None
) -> None:
    """``RULE_2_10`` read as +1 for each EW aircraft: the effective EA-6B mission of 2 air
    points gives Blue +2 (default: +1) and Red -2. The scenario of
    ``test_2_10_effective_ew_counter_adds_one`` with each force's 2d5 one lower for Blue and
    one higher for Red gives the same modified rolls (5 and 3), so the same damage."""
    g = game(rs.bind(["ew_each"]))
    ew = g.add("Blue", "ea6b", "VAQ-136", base="Nimitz", unit_sides=1)
    f14 = g.add("Blue", "f14a", "VF-1", base="Nimitz", unit_sides=2)
    mig = g.add("Red", "mig29", "Fulcrums", base="Olenya", unit_sides=2)
    g.perform("launch_mission", {"aircraft": ew, "points": 2, "mission": "ew"})
    g.perform("launch_mission", {"aircraft": f14, "points": 4, "mission": "escort"})
    g.perform("launch_mission", {"aircraft": mig, "points": 4, "mission": "intercept"})
    g.perform("mission_effectiveness", {"aircraft": ew, "points": 2, "kind": "support"}, [1])
    combat = {"first": [ew, f14], "second": [mig], "first_picks": [mig]}
    pre = g.rs.procedures["air_combat"].prefill(g.state, ew, mig)
    assert "first_ew" not in pre  # its own EW counter is counted, not ticked as support
    res = g.perform("air_combat", combat, [2, 1, 3, 2])
    assert res.outcome == "first force 10, second force 4 damage points"
