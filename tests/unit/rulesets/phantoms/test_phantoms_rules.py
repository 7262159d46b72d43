"""Phantoms 4.0, 10.0, 13.0, 14.0, the control card, the catalogue and the data files."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.core.data import save_override
from app.core.dice import DiceError, TableDice
from app.core.engagement import Engagement, Status
from app.core.errors import DataFileError, MissingTableValue, RuleViolation
from app.core.ruleset import KeyValues, Table, Track
from app.plugins import load_ruleset
from rulesets.phantoms import RULESET
from rulesets.phantoms.tables import positions, tables

INIT = RULESET.procedures["initiative"]
BREAK = RULESET.procedures["break_off"]


def test_plugin_loads() -> None:
    rs = load_ruleset("phantoms")
    assert rs.id == "phantoms" and rs.title == "Phantoms"
    assert {"gun_attack", "missile_attack", "radar_lock"} <= set(rs.procedures)
    assert rs.initiative == "initiative" and rs.initiative_by == "side"
    assert rs.default_variants == ()


# --- 4.0 initiative --------------------------------------------------------------------------


def test_4_0_initiative_odds_with_ties_rerolled() -> None:
    # equal modifiers: a tie is re-rolled, so each side holds the marker half the time
    assert INIT.odds(INIT.Inputs()) == {
        "Blue holds the marker": Fraction(1, 2),
        "Red holds the marker": Fraction(1, 2),
    }
    # Blue: Ace +2 and controller +1 = +3; Red: only green pilots -2. Difference 5.
    i = INIT.Inputs(first_ace=True, first_controller=True, second_only_green_or_inexperienced=True)
    win = sum(1 for a in range(1, 11) for b in range(1, 11) if a + 3 > b - 2)
    tie = sum(1 for a in range(1, 11) for b in range(1, 11) if a + 3 == b - 2)
    assert INIT.odds(i)["Blue holds the marker"] == Fraction(win, 100 - tie)
    assert INIT.modifiers(INIT.Inputs(first_loaded=True)) == (-2, 0)  # type: ignore[attr-defined]


#: one side's modifier combinations (4.0: Ace +2, loaded -2, only Inexp./Green -2, controller
#: +1), one per modifier value -4..3
SIDE_FLAGS = {
    sum(m): dict(
        zip(("ace", "loaded", "only_green_or_inexperienced", "controller"), f, strict=True)
    )
    for f in product((False, True), repeat=4)
    for m in [(2 * f[0], -2 * f[1], -2 * f[2], f[3])]
}


def _initiative(m1: int, m2: int) -> Any:
    return INIT.parse(
        {
            **{f"first_{k}": v for k, v in SIDE_FLAGS[m1].items()},
            **{f"second_{k}": v for k, v in SIDE_FLAGS[m2].items()},
        }
    )


def _by_hand(m1: int, m2: int) -> Fraction:
    """Blue's chance: Blue's win over the 100 pairs of faces, conditioned on no tie."""
    win = sum(1 for a in range(1, 11) for b in range(1, 11) if a + m1 > b + m2)
    tie = sum(1 for a in range(1, 11) for b in range(1, 11) if a + m1 == b + m2)
    return Fraction(win, 100 - tie)


def _truncated(i: Any, rounds: int) -> tuple[dict[str, Fraction], Fraction]:
    """``resolve`` over every face typed at the table, re-roll after re-roll, up to
    ``rounds`` rounds: the outcomes decided within them and the chance still tied after them
    (an independent walk: ``TableDice`` face by face, not the odds' pool)."""
    decided: dict[str, Fraction] = {}
    tied = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            res = INIT.resolve(i, TableDice(prefix), Engagement())
        except DiceError:
            if len(prefix) >= 2 * rounds:
                tied += p
                continue
            stack += [([*prefix, f], p / 10) for f in range(1, 11)]
            continue
        decided[res.outcome] = decided.get(res.outcome, Fraction(0)) + p
    return decided, tied


@pytest.mark.parametrize("m1", sorted(SIDE_FLAGS))
@pytest.mark.parametrize("m2", sorted(SIDE_FLAGS))
def test_4_0_initiative_odds_exact_for_every_modifier(m1: int, m2: int) -> None:
    """4.0 ties are re-rolled: the odds (one round, conditioned on no tie) are exactly the hand
    computation, and exactly what the walk of every re-roll gives: after N rounds the decided
    part plus the still-tied chance times the odds."""
    i = _initiative(m1, m2)
    odds = INIT.odds(i)
    blue = _by_hand(m1, m2)
    assert odds == {
        k: v
        for k, v in {"Blue holds the marker": blue, "Red holds the marker": 1 - blue}.items()
        if v
    }
    decided, tied = _truncated(i, 2)
    assert tied == Fraction(10 - abs(m1 - m2), 100) ** 2
    for label, p in odds.items():
        assert decided.get(label, 0) + tied * p == p


def test_4_0_initiative_odds_within_1e_6_of_the_walk_of_the_re_rolls() -> None:
    """Blue +3 (Ace, controller) against Red -4 (loaded, only green): 3 tied pairs in 100, so
    four rounds of re-rolls leave 0.03**4 < 1e-6 undecided; the walk of ``resolve`` over every
    re-roll of those four rounds is the odds within 1e-6."""
    i = _initiative(3, -4)
    decided, tied = _truncated(i, 4)
    assert tied == Fraction(3, 100) ** 4 < Fraction(1, 10**6)
    odds = INIT.odds(i)
    assert odds["Blue holds the marker"] == _by_hand(3, -4)
    for label, p in odds.items():
        assert abs(decided[label] - p) < Fraction(1, 10**6)


def test_4_0_initiative_tie_rerolled_and_marker(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", "ace")
    g.add("b", "Red", "mig21", "green")
    pre = INIT.prefill(g.e, None, None)
    assert pre["first_ace"] and pre["second_only_green_or_inexperienced"]
    # Blue 3 + 2 = 5, Red 7 - 2 = 5: tie, re-roll; Blue 1 + 2 = 3, Red 6 - 2 = 4
    r = g.do("initiative", pre, [3, 7, 1, 6])
    assert r.outcome == "Red holds the marker"
    assert g.e.initiative_marker == "Red" and g.e.initiative_scores == {"Blue": 3, "Red": 4}
    g.do("pass_initiative", {})
    assert g.e.initiative_marker == "Blue"
    # 4.0 "to the other side": named, it must be a side not holding the marker
    with pytest.raises(RuleViolation, match="Blue cannot take the marker from Blue"):
        g.do("pass_initiative", {"to": "Blue"})
    with pytest.raises(RuleViolation, match="Green cannot take the marker"):
        g.do("pass_initiative", {"to": "Green"})
    g.do("pass_initiative", {"to": "Red"})
    assert g.e.initiative_marker == "Red" and g.e.initiative_order == ("Red", "Blue")


# --- 10.0 break-off --------------------------------------------------------------------------


def test_10_0_turn_modifiers_text_and_chart() -> None:
    from rulesets.phantoms.breakoff import turn_modifier

    assert [turn_modifier(t, chart=False) for t in range(1, 10)] == [2, 2, -2, -2, -2, 2, 4, 4, 4]
    assert [turn_modifier(t, chart=True) for t in range(1, 10)] == [1, 1, -2, -2, -2, 2, 4, 4, 4]


def test_10_0_break_off_odds_by_hand() -> None:
    def p(m: int) -> Fraction:
        return Fraction(sum(1 for a in range(1, 11) for b in range(1, 11) if a + m > b), 100)

    assert BREAK.odds(BREAK.Inputs(turn=1))["broken off"] == p(2)
    chart = RULESET.bind(["breakoff_chart_modifiers"]).procedures["break_off"]
    assert chart.odds(BREAK.Inputs(turn=1))["broken off"] == p(1)
    assert BREAK.odds(BREAK.Inputs(turn=4, pilot="green"))["broken off"] == p(-4)
    assert BREAK.odds(BREAK.Inputs(turn=8, pilot="ace"))["broken off"] == p(5)
    # +5 unspotted only with the optional spotting rule (13.0); without it, refused
    with pytest.raises(RuleViolation, match="13.0 spotting is an optional rule"):
        BREAK.odds(BREAK.Inputs(turn=3, unspotted=True))
    assert BREAK.odds(BREAK.Inputs(turn=3))["broken off"] == p(-2)
    spot = RULESET.bind(["spotting"]).procedures["break_off"]
    assert spot.odds(BREAK.Inputs(turn=3, unspotted=True))["broken off"] == p(3)
    with pytest.raises(RuleViolation, match="tailing"):
        BREAK.odds(BREAK.Inputs(tailed=True))


def test_10_0_break_off_in_the_phase_and_not_when_tailed(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e")
    g.add("b", "Red", "mig21")
    with pytest.raises(RuleViolation, match="Break-Off Check Phase"):
        g.do("break_off", {"aircraft": "a"}, [9, 1])
    g.do("tailing", {"attacker": "b", "target": "a"})
    g.clock(1, 1)
    with pytest.raises(RuleViolation, match="tailing"):
        g.do("break_off", {"aircraft": "a"}, [9, 1])
    g.do("tailing", {"attacker": "b", "target": "a", "tailing": False})
    r = g.do("break_off", {"aircraft": "a"}, [9, 1])
    assert r.outcome == "broken off" and Status.BROKEN_OFF in g.a("a").status


def test_10_0_disengage_needs_a_static_map(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e")
    with pytest.raises(RuleViolation, match="static map"):
        g.do("disengage", {"aircraft": "a"})
    g2 = game(["static_map"])
    g2.add("a", "Blue", "f4e")
    g2.do("disengage", {"aircraft": "a"})
    assert Status.BROKEN_OFF in g2.a("a").status


# --- 13.0 spotting ---------------------------------------------------------------------------


def test_13_0_spotting_is_optional(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e")
    g.add("b", "Red", "mig21")
    with pytest.raises(RuleViolation, match="optional"):
        g.do(
            "radar_spot",
            {
                "spotter_radar": 4,
                "spotter_altitude": 3,
                "target_altitude": 3,
                "target_radar_countermeasures": 2,
                "attacker": "a",
                "target": "b",
            },
            [9, 1],
        )
    from rulesets.phantoms.spotting import is_spotted

    assert is_spotted(g.e, "b", "a", frozenset())


def test_13_1_13_2_spotting_odds_and_sharing(game: Any) -> None:
    rs = RULESET.bind(["spotting"])
    radar = rs.procedures["radar_spot"]
    visual = rs.procedures["visual_spot"]
    # 13.1: radar 4 + 2 (Ace) - 4 (target at altitude 0) - 1 (lower) = +1 vs C/M 2
    i = radar.Inputs(
        spotter_radar=4,
        spotter_pilot="ace",
        spotter_altitude=2,
        target_altitude=0,
        target_radar_countermeasures=2,
    )
    n = sum(1 for a in range(1, 11) for b in range(1, 11) if a + 1 > b + 2)
    assert radar.odds(i)["spotted"] == Fraction(n, 100)
    # 13.2: +2 Exp., +3 radar spot, +2 canopy, +2 large, +1 crew = +10 against range 7
    v = visual.Inputs(
        spotter_pilot="experienced",
        radar_spot_lock_or_controller=True,
        all_round_canopy=True,
        target_size="large",
        two_crew=True,
        target_altitude=3,
        range_hexes=7,
    )
    assert visual.modifiers(v) == (10, 7)  # type: ignore[attr-defined]
    small = visual.Inputs(target_size="small", target_altitude=0, range_hexes=4)
    assert visual.modifiers(small) == (-2, 5)  # type: ignore[attr-defined]
    with pytest.raises(ValidationError):
        visual.Inputs(target_altitude=3, range_hexes=11)  # beyond 10 hexes

    g = game(["spotting"])
    g.add("a1", "Blue", "f4e", wingman="a2")
    g.add("a2", "Blue", "f4e", wingman="a1")
    g.add("a3", "Blue", "f4e")
    g.add("r", "Red", "mig21")
    from rulesets.phantoms.spotting import is_spotted

    vs = {
        "spotter_pilot": "average",
        "target_altitude": 3,
        "range_hexes": 2,
        "attacker": "a1",
        "target": "r",
    }
    g.do("visual_spot", vs, [10, 1])
    assert is_spotted(g.e, "r", "a1", g.rs.chosen)
    assert is_spotted(g.e, "r", "a2", g.rs.chosen)  # wingmen share visual spots
    assert not is_spotted(g.e, "r", "a3", g.rs.chosen)  # other friends do not
    g.do("lose_spot", {"attacker": "a1", "reason": "wingmen more than 5 hexes apart"})
    assert not is_spotted(g.e, "r", "a2", g.rs.chosen)
    # radar spots are shared with every friendly aircraft
    g.do(
        "radar_spot",
        {
            "spotter_radar": 4,
            "spotter_altitude": 3,
            "target_altitude": 3,
            "target_radar_countermeasures": 2,
            "attacker": "a3",
            "target": "r",
        },
        [10, 1],
    )
    assert is_spotted(g.e, "r", "a2", g.rs.chosen)
    g.do("lose_spot", {"attacker": "a3", "target": "r", "reason": "target left the radar cone"})
    assert not is_spotted(g.e, "r", "a3", g.rs.chosen)
    # the unspotted modifier is prefilled for the attack
    gun = g.rs.procedures["gun_attack"]
    assert gun.prefill(g.e, "r", "a3")["attacker_unspotted"] is True


# --- 14.0 countermeasures --------------------------------------------------------------------


def test_14_0_countermeasure_defaults(game: Any) -> None:
    from rulesets.phantoms.card import countermeasures

    assert countermeasures("1960-1969", "US") == (2, 1)
    assert countermeasures("1990 on", "NATO") == (5, 5)
    assert countermeasures("before 1960", "Russia") == (0, 1)
    with pytest.raises(ValueError, match="choose"):
        countermeasures("1980-1989", "2nd World")  # printed "2 or 3"
    with pytest.raises(ValueError, match="no Warsaw Pact"):
        countermeasures("1990 on", "Warsaw Pact")
    g = game()
    g.add("a", "Blue", "f15c")  # card: 1980-1989, US -> 4 / 4
    assert (g.a("a").attributes["radar_cm"], g.a("a").attributes["ir_cm"]) == (4, 4)
    g.add("b", "Red", "mig21", era="1990 on", country_group="3rd World")
    assert (g.a("b").attributes["radar_cm"], g.a("b").attributes["ir_cm"]) == (2, 3)
    g.add("c", "Red", "mig21", radar_cm=1, ir_cm=0)
    assert (g.a("c").attributes["radar_cm"], g.a("c").attributes["ir_cm"]) == (1, 0)
    with pytest.raises(RuleViolation, match="choose"):
        g.add("d", "Red", "mig21", era="1980-1989", country_group="2nd World")
    g.add("d", "Red", "mig21", era="1980-1989", country_group="2nd World", radar_cm=3)
    assert g.a("d").attributes["radar_cm"] == 3


def test_details_are_validated(game: Any) -> None:
    g = game()
    with pytest.raises(RuleViolation):
        g.add("a", "Blue", "f4e", altitude=-1)
    with pytest.raises(RuleViolation):
        g.add("a", "Blue", "f4e", speed=10)  # above the level maximum 8
    with pytest.raises(RuleViolation):
        g.add("a", "Blue", "f4e", rockets=3)
    with pytest.raises(RuleViolation):
        g.add("a", "Blue", "spitfire")


# --- catalogue, card, data files -------------------------------------------------------------


def test_catalogue_samples_are_marked() -> None:
    cat = RULESET.aircraft
    assert {"f4e", "mig21", "f15c", "mig23"} <= set(cat)
    for card in cat.values():
        assert card.sample is True  # type: ignore[attr-defined]


def test_ledgers_per_card(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e")
    led = {k: v.value for k, v in g.a("a").ledgers.items()}
    assert led == {"gun_ammunition": 5, "afterburner": 4, "missile_aim9j": 4, "missile_aim7e": 4}
    # one place names a card's ledgers (issue 19): each missile type by its printed name
    spec = RULESET.ledger_spec("missile_aim9j", g.a("a").card)
    assert spec is not None and spec.title == "Missiles: AIM-9J" and spec.rule == "7.1.2"
    assert [s.id for s in RULESET.ledgers_for(g.a("a").card)][-2:] == [
        "missile_aim9j",
        "missile_aim7e",
    ]


def test_card_spec_blocks(game: Any) -> None:
    g = game()
    g.add("a", "Blue", "f4e", "ace")
    spec = RULESET.card_spec(g.a("a"), g.e)
    assert "sample" in spec.title
    titles = [b.title for b in spec.blocks]
    for want in (
        "Speed Chart",
        "Maneuver Chart",
        "Gun Combat Information Chart",
        "Missiles",
        "Damage",
        "Gun ammunition",
        "Afterburner uses",
        "Critical hits",
    ):
        assert any(want in t for t in titles), want
    damage = next(b for b in spec.blocks if isinstance(b, Track) and b.title.startswith("Damage"))
    assert damage.total == 16 and damage.grey_from == 12
    assert any(isinstance(b, Table) for b in spec.blocks)
    assert any(isinstance(b, KeyValues) and ("Pilot", "Ace") in b.items for b in spec.blocks)


def test_tables_cite_rules() -> None:
    t = tables()
    assert t.impulse_chart.rule == "6.0" and t.critical.rule == "8.1"
    assert t.countermeasures.rule == "14.0"
    assert set(RULESET.table_files()) == {"tables", "positions"}


def test_position_charts_are_missing_until_filled() -> None:
    with pytest.raises(MissingTableValue) as e:
        positions().modifier("gun", "adjacent, dead astern")
    assert "Gun Firing Position Diagram" in str(e.value)
    save_override("phantoms", "positions", {"gun": {"cells": {"adjacent, dead astern": 1}}})
    assert positions().modifier("gun", "adjacent, dead astern") == 1


def test_malformed_table_names_file_and_field(tmp_path: Path) -> None:
    from app.core.data import load_table
    from rulesets.phantoms.tables import Tables

    bad = tmp_path / "tables.toml"
    text = (Path(__file__).parents[4] / "rulesets/phantoms/tables/tables.toml").read_text()
    bad.write_text(text.replace("1 = [4, 5, 6, 7, 8, 9, 10]", "1 = [4, 5, 6, 7, 8, 9, 11]"))
    with pytest.raises(DataFileError, match=r"tables.toml.*impulse_chart"):
        load_table("phantoms-test", bad, Tables)


def test_malformed_aircraft_names_file_and_field(tmp_path: Path) -> None:
    from app.core.data import load_catalogue
    from rulesets.phantoms.card import Card

    (tmp_path / "bad.toml").write_text('name = "X"\ndefense = "high"\n')
    with pytest.raises(DataFileError, match=r"bad.toml.*defense"):
        load_catalogue(tmp_path, Card)


def test_13_0_a_spin_loses_all_spots(game: Any) -> None:
    from app.core.events import AttributesSet

    g = game(["spotting"])
    g.add("a", "Blue", "f4e", "green")
    g.add("r", "Red", "mig21")
    vs = {"target_altitude": 3, "range_hexes": 2, "attacker": "a", "target": "r"}
    g.do("visual_spot", vs, [10, 1])
    g.apply(
        [
            AttributesSet(
                aircraft="a", values={"control_checks": [{"cause": "hard turn", "below_zero": 0}]}
            )
        ]
    )
    assert g.do("loss_of_control", {"aircraft": "a"}, [9]).outcome == "out of control"
    assert g.e.attributes["spots"]["a"] == {"radar": [], "visual": []}
