"""Air Power rule "Air-to-Air Gun Combat": exact odds against hand enumeration, modifiers,
restrictions, ammunition in half points, multiple guns, limits per game turn.

The modifier table is not in the rules text; the tests use an umpire's values (conftest
TEST_MODIFIERS: 30 arc 0, average pilot 0, RE -1 ...) and say where they depend on them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.errors import MissingTableValue, RuleViolation
from app.core.events import LedgerChanged
from app.plugins import load_ruleset
from rulesets.airpower.guns import GunInputs

RS = load_ruleset("airpower")
GUN = RS.procedures["gun_attack"]


def gun(**kw: object) -> GunInputs:
    base: dict[str, object] = {"hit_numbers": [7, 5, 3], "attack_rating": 5, "horizontal_range": 1}
    base.update(kw)
    return GunInputs.model_validate(base)


def test_missing_table_cells_are_reported() -> None:
    """The angle-off and pilot-quality modifiers are not printed: the umpire must fill them."""
    with pytest.raises(MissingTableValue) as e:
        GUN.odds(gun())
    assert e.value.cell == "angle off 30 arc"


def test_basic_hit_roll(filled: object) -> None:
    """Gun Attack Procedure: hit if the modified d10 is at most the hit die roll for the range.
    Range 1, hit 5, no modifier (30 arc 0, average pilot 0): rolls 1-5 hit -> 5/10."""
    assert GUN.odds(gun()) == {"hit: attack rating 5": Fraction(1, 2), "miss": Fraction(1, 2)}
    # range 0 and 2 use the other two hit die rolls
    assert GUN.odds(gun(horizontal_range=0))["hit: attack rating 5"] == Fraction(7, 10)
    assert GUN.odds(gun(horizontal_range=2))["hit: attack rating 5"] == Fraction(3, 10)


def test_snap_shot(filled: object) -> None:
    """Snap shot: +1 to the roll and attack rating -1: rolls 1-4 hit (4/10) with rating 4."""
    assert GUN.odds(gun(snap_shot=True)) == {
        "hit: attack rating 4": Fraction(2, 5),
        "miss": Fraction(3, 5),
    }


def test_modifiers_add_up(filled: object) -> None:
    """Die Roll Modifiers: size +1, left 90 arc (+2, test value), BT gunsight +2 (ADC), green
    pilot (+2, test value): total +7; range 0 hit 7: only a 0 modified... roll 1 + 7 = 8 > 7:
    nothing hits. With an ace (-2, test value) the total is +3: rolls 1-4 hit."""
    kw = dict(
        horizontal_range=0,
        target_size=1,
        angle_off="90 arc",
        turn_rates=["TT", "BT"],
        gunsight_tt=1,
        gunsight_bt=2,
    )
    assert GUN.odds(gun(pilot="green", **kw)) == {"miss": Fraction(1)}
    assert GUN.odds(gun(pilot="ace", **kw))["hit: attack rating 5"] == Fraction(2, 5)


def test_ssgt_and_radar_ranging(filled: object) -> None:
    """SSGT Modifiers: -1 per 1/3 of the speed (round down) in FPs, at most -2. Speed 7.0: a
    third is 2 FPs; 1 FP -> 0, 3 FPs -> -1, 5 FPs -> -2, 6 FPs -> -2 (limit). Range 2, hit 3."""
    for fps, hits in [(1, 3), (3, 4), (5, 5), (6, 5)]:
        o = GUN.odds(gun(horizontal_range=2, speed=7.0, ssgt_fps=fps))
        assert o["hit: attack rating 5"] == Fraction(hits, 10), fps
    # RE radar ranging (-1, test value) needs 1 FP of SSGT
    o = GUN.odds(
        gun(horizontal_range=2, speed=7.0, ssgt_fps=5, radar_ranged=True, radar_ranging="RE")
    )
    assert o["hit: attack rating 5"] == Fraction(6, 10)
    with pytest.raises(RuleViolation, match="SSGT"):
        GUN.odds(gun(radar_ranged=True, radar_ranging="RE"))
    # CA needs the 90- arc; IG works from any arc
    with pytest.raises(RuleViolation, match="90-"):
        GUN.odds(gun(radar_ranged=True, radar_ranging="CA", angle_off="120 arc"))
    o = GUN.odds(gun(radar_ranged=True, radar_ranging="IG", angle_off="180 line"))
    assert o["hit: attack rating 5"] == Fraction(7, 10)  # 5 - (+1 180 line) - (-3 IG) = 7


def test_same_location_vertical_attack(filled: object) -> None:
    """Same-Location Vertical Attacks: +2 climbing against diving, +1 against level, none when
    both climb. Range 0 (hit 7) at the same level."""
    kw = dict(same_location=True, horizontal_range=0)
    odds = {
        ("climbing", "diving"): Fraction(5, 10),
        ("diving", "climbing"): Fraction(5, 10),
        ("climbing", "level"): Fraction(6, 10),
        ("climbing", "climbing"): Fraction(7, 10),
        ("level", "diving"): Fraction(7, 10),
    }
    for (att, tgt), p in odds.items():
        o = GUN.odds(gun(attacker_flight=att, target_flight=tgt, **kw))
        assert o["hit: attack rating 5"] == p, (att, tgt)


def test_attacker_damage(filled: object) -> None:
    """Attacker Damage: the table's modifier (test value +2) for a damaged attacker."""
    assert GUN.odds(gun(attacker_damage="damaged"))["hit: attack rating 5"] == Fraction(3, 10)
    with pytest.raises(RuleViolation, match="no attacker damage entry"):
        GUN.odds(gun(attacker_damage="on fire"))


def test_multiple_guns(filled: object) -> None:
    """Multiple Guns Firing: one roll against each gun's hit die roll; the best attack rating of
    the guns that hit, +1 for each other gun that hits. Internal 7/5/3 rating 5, two pods 6/4/2
    rating 4, range 0, modifiers +2 (size 1, BT gunsight +1): rolls 1-4 hit with all three
    (5 + 2 = 7), roll 5 with the internal gun only (5), 6-10 miss."""
    o = GUN.odds(
        gun(
            horizontal_range=0,
            target_size=1,
            turn_rates=["BT"],
            gunsight_bt=1,
            pods_firing=2,
            pod_hit_numbers=[6, 4, 2],
            pod_attack_rating=4,
        )
    )
    assert o == {
        "hit: attack rating 7": Fraction(4, 10),
        "hit: attack rating 5": Fraction(1, 10),
        "miss": Fraction(5, 10),
    }
    assert sum(o.values()) == 1


def test_two_hit_numbers_is_a_one_hex_gun(filled: object) -> None:
    """Gun Attack Procedure: "If only two hit die rolls are given, the gun's range is only one
    hex." Range is horizontal + altitude levels / 2 rounded down."""
    one_hex = dict(hit_numbers=[6, 4])
    assert GUN.odds(gun(horizontal_range=1, **one_hex))["hit: attack rating 5"] == Fraction(2, 5)
    with pytest.raises(RuleViolation, match="beyond"):
        GUN.odds(
            gun(
                horizontal_range=1,
                attacker_altitude=3,
                target_altitude=5,
                attacker_flight="climbing",
                **one_hex,
            )
        )
    with pytest.raises(RuleViolation, match="beyond"):
        GUN.odds(gun(horizontal_range=3))


@pytest.mark.parametrize(
    "kw, message",
    [
        (dict(target_sighted=False), "unsighted"),
        (dict(attacker_flight="climbing", attacker_altitude=5, target_altitude=4), "lower"),
        (dict(attacker_flight="diving", attacker_altitude=5, target_altitude=6), "higher"),
        (dict(same_location=True, attacker_altitude=5, target_altitude=6), "same altitude"),
        (dict(attacker_altitude=5, target_altitude=7), "adjacent"),
        (dict(last_fp="ET"), "ET"),
        (dict(last_fp="unloaded"), "unloaded"),
        (dict(last_fp="roll"), "rolling"),
        (dict(recovering_from="ET"), "recovery"),
        (dict(return_fire=True, angle_off="150 arc"), "head-on"),
    ],
)
def test_gun_attack_requirements(filled: object, kw: dict[str, object], message: str) -> None:
    """Gun Attack Requirements: each forbidden case is refused with the reason."""
    with pytest.raises(RuleViolation, match=message):
        GUN.odds(gun(**kw))


def test_return_fire_needs_no_sighting(filled: object) -> None:
    """Head-On Gun Attacks: return fire meets "all of the normal requirements except the
    sighting requirement"."""
    o = GUN.odds(gun(return_fire=True, target_sighted=False, angle_off="180 line"))
    assert o["hit: attack rating 5"] == Fraction(4, 10)  # 180 line +1 (test value)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValidationError):
        gun(hit_numbers=[11, 5, 3])
    with pytest.raises(ValidationError):
        gun(hit_numbers=[7])
    with pytest.raises(ValidationError):
        gun(fire_internal=False)
    with pytest.raises(ValidationError):
        gun(angle_off="45 arc")


def _game() -> tuple[Engagement, str, str]:
    e = Engagement(turn=3)
    for i, (aid, t) in enumerate([("blue", "f-100d"), ("red", "mig-17f")], start=1):
        e = e.apply(RS.new_aircraft(aid, aid.title(), aid.title(), t, "average", {}), i)
    return e, "blue", "red"


def test_ammunition_in_half_points(filled: object) -> None:
    """Ammunition: a normal shot uses one point, a snap shot half a point."""
    e, blue, red = _game()
    assert e.get(blue).ledger("gun_ammunition") == 5
    res = GUN.resolve(gun(attacker=blue, target=red, snap_shot=True, fp=2), TableDice([3]), e)
    spent = [ev for ev in res.events if isinstance(ev, LedgerChanged)]
    assert [s.delta for s in spent] == [Fraction(-1, 2)]
    assert res.outcome == "hit: attack rating 4"  # 3 + 1 <= 5
    for n, ev in enumerate(res.events, start=10):
        e = e.apply(ev, n)
    assert e.get(blue).ledger("gun_ammunition") == Fraction(9, 2)


def test_two_attacks_per_turn_after_different_fps(filled: object) -> None:
    """Gun Attacks: one or two per game turn, each after a different FP; an aborted shot uses
    an opportunity but no ammunition (Aborting Gun Shots)."""
    e, blue, red = _game()
    abort = RS.procedures["gun_abort"]
    res = abort.resolve(abort.Inputs(attacker=blue, target=red, fp=1), TableDice([]), e)
    assert res.outcome == "miss"
    assert not [ev for ev in res.events if isinstance(ev, LedgerChanged)]
    for n, ev in enumerate(res.events, start=10):
        e = e.apply(ev, n)
    with pytest.raises(RuleViolation, match="different FP"):
        GUN.resolve(gun(attacker=blue, target=red, fp=1), TableDice([5]), e)
    res = GUN.resolve(gun(attacker=blue, target=red, fp=2), TableDice([9]), e)
    for n, ev in enumerate(res.events, start=20):
        e = e.apply(ev, n)
    with pytest.raises(RuleViolation, match="at most two"):
        GUN.resolve(gun(attacker=blue, target=red, fp=4), TableDice([5]), e)
    rockets = RS.procedures["rocket_attack"]
    with pytest.raises(RuleViolation, match="fired guns"):
        rockets.resolve(
            rockets.Inputs(attacker=blue, target=red, fp=5, horizontal_range=2), TableDice([1]), e
        )


def test_original_wording_ssgt_needs_the_60_arc(filled: object) -> None:
    """SSGT (original wording): "Any aircraft attacking from the 60 or less angle-off arc may
    track its target"; the revised text uses the tracking lines instead."""
    original = RS.bind(["original_wording"]).procedures["gun_attack"]
    tracked = gun(speed=6.0, ssgt_fps=2, angle_off="90 arc")
    assert GUN.odds(tracked)["hit: attack rating 5"] == Fraction(4, 10)  # 5 - 2 + 1
    with pytest.raises(RuleViolation, match="60 or less"):
        original.odds(tracked)


def test_original_wording_ssgt_counts_thirds_with_the_conversion_table(
    filled: object, _user_data: object
) -> None:
    """SSGT (original wording, 1B errata): "For each 1/3 of the aircraft's speed expended on
    the tracking line (use the 1/3-2/3 conversion table), modify the Roll to Hit by -1"; the
    table is not printed, so it is missing until the umpire fills it (test values: speed 7,
    1/3 = 3 FPs, 2/3 = 5 FPs). The revised text rounds a third down (7 // 3 = 2 FPs)."""
    from app.core.data import save_override

    original = RS.bind(["original_wording"]).procedures["gun_attack"]
    two_fps = gun(speed=7.0, ssgt_fps=2)
    assert GUN.odds(two_fps)["hit: attack rating 5"] == Fraction(6, 10)  # 5 + 1 third
    with pytest.raises(MissingTableValue, match="speed 7"):
        original.odds(two_fps)
    save_override("airpower", "ssgt_conversion", {"fps": {"7": [3, 5]}})
    assert original.odds(two_fps)["hit: attack rating 5"] == Fraction(5, 10)  # no third yet
    assert original.odds(gun(speed=7.0, ssgt_fps=3))["hit: attack rating 5"] == Fraction(6, 10)
    assert original.odds(gun(speed=7.0, ssgt_fps=5))["hit: attack rating 5"] == Fraction(7, 10)
    with pytest.raises(RuleViolation, match="no row for speed 20"):
        original.odds(gun(speed=20.0, ssgt_fps=5))


def test_original_wording_return_fire_needs_only_three_requirements(filled: object) -> None:
    """Head On Gun Attacks, original wording: return fire "provided it does not exceed the 2
    shot per game turn limit, the higher/lower target restrictions, and the ET turn rate
    prohibition" (2B errata: all normal requirements but sighting). An unloaded last FP
    forbids revised return fire but not the original's; a lower target for a climber or an ET
    forbids both."""
    original = RS.bind(["original_wording"]).procedures["gun_attack"]
    head_on = {"return_fire": True, "angle_off": "180 line", "target_sighted": False}
    unloaded = gun(last_fp="unloaded", **head_on)
    with pytest.raises(RuleViolation, match="unloaded"):
        GUN.odds(unloaded)
    assert original.odds(unloaded)["hit: attack rating 5"] == Fraction(4, 10)  # 180 line +1
    two_levels = gun(attacker_altitude=3, target_altitude=1, **head_on)
    with pytest.raises(RuleViolation, match="adjacent altitude"):
        GUN.odds(two_levels)
    assert original.odds(two_levels)
    for bad, why in (
        (dict(attacker_flight="climbing", attacker_altitude=3, target_altitude=2), "lower"),
        (dict(last_fp="ET"), "ET turn rate prohibition"),
        (dict(recovering_from="ET"), "ET turn rate prohibition"),
        (dict(last_fp="roll"), "roll"),
    ):
        with pytest.raises(RuleViolation, match=why):
            original.odds(gun(**head_on, **bad))


def test_return_fire_refused_after_a_roll_on_the_last_fp(filled: object) -> None:
    """Head-On Gun Attacks: an aircraft that has not flown yet may not respond if it executed a
    rolling maneuver on the last FP of the previous game turn (read from its flight record)."""
    from rulesets.airpower.attacks import flight_prefill
    from rulesets.airpower.state import State

    pre = flight_prefill(State(speed=6.0, this_turn=(), last_turn=("none", "roll")))
    assert pre["last_fp"] == "roll"
    with pytest.raises(RuleViolation, match="rolling"):
        GUN.odds(gun(return_fire=True, angle_off="180 line", **pre))


def test_card_values_come_from_the_adc_and_a_contradiction_is_refused(
    filled: object, tmp_path
) -> None:
    """Issue 15: with the aircraft named, the gun's hit numbers and attack rating, the target's
    size, the gunsight and the pilot are the ADC's and the state's -- a value left out is never
    a made-up default (7/5/3, rating 0), one that disagrees is refused unless the umpire
    overrode it (and the log says so)."""
    from app.session import GameSession

    with GameSession.create(tmp_path / "ap.airboss", "airpower", "Cards") as s:
        mig = s.add_aircraft("Red", "mig-17f", "Fresco")
        sabre = s.add_aircraft("Blue", "f-86d", "Sabre Dog")
        # only what the umpire judges: the MiG's N-37/NR-23 (6, 4; rating 6) from its ADC
        res = s.perform(
            "gun_attack",
            {"attacker": mig, "target": sabre, "horizontal_range": 1, "fp": 1},
            TableDice([1]),
        )
        record = s.events()[-len(res.events)].event
        assert record.inputs["hit_numbers"] == [6, 4] and record.inputs["attack_rating"] == 6
        assert (
            record.inputs["gunsight_tt"] == 1
            and record.inputs["target_size"] == (s.engagement.aircraft[sabre].card["size"])
        )
        before = len(s.events())
        with pytest.raises(RuleViolation, match=r"attack rating: 9 is not what Fresco's card"):
            s.perform(
                "gun_attack",
                {
                    "attacker": mig,
                    "target": sabre,
                    "horizontal_range": 1,
                    "fp": 3,
                    "attack_rating": 9,
                },
                TableDice([1]),
            )
        assert len(s.events()) == before  # nothing recorded, no ammunition spent
        title = GunInputs.model_fields["attack_rating"].title
        s.perform(
            "gun_attack",
            {"attacker": mig, "target": sabre, "horizontal_range": 1, "fp": 3, "attack_rating": 9},
            TableDice([1]),
            overrides={title: (6, 9)},
        )
        assert f"umpire's override: {title} 6 -> 9" in s.undoing.undo_text


def test_what_if_asks_for_the_card_values_instead_of_assuming_them(filled: object) -> None:
    """Gun Attack Procedure: "If the modified die roll is less than or equal to the hit die
    roll listed on the ADC for the appropriate range, the attack hits" -- the hit die rolls
    and the attack rating are the ADC's. A what-if (no aircraft named) used to assume 7/5/3
    and attack rating 0; now it asks for them (issue 33)."""
    bare = GunInputs.model_validate({"horizontal_range": 1})
    assert bare.hit_numbers is None and bare.attack_rating is None
    with pytest.raises(
        RuleViolation,
        match=r"give Internal gun: hit die roll at range 0, 1, 2; Internal gun: attack rating",
    ):
        GUN.odds(bare)
    with pytest.raises(RuleViolation, match=r"give Internal gun: attack rating \(from the ADC\)"):
        GUN.odds(GunInputs.model_validate({"hit_numbers": [7, 5, 3]}))
    pods_only = {"fire_internal": False, "pods_firing": 2, "pod_hit_numbers": [6, 4]}
    with pytest.raises(RuleViolation, match="give Gun pod: attack rating"):
        GUN.odds(GunInputs.model_validate(pods_only))
    # typed, the odds are exact: range 1 hit 4 -> 4/10, rating 4 + 1 for the second pod
    typed = GunInputs.model_validate({**pods_only, "pod_attack_rating": 4, "horizontal_range": 1})
    assert GUN.odds(typed) == {"hit: attack rating 5": Fraction(2, 5), "miss": Fraction(3, 5)}


def test_named_attacker_reads_the_gun_values_off_its_card(filled: object) -> None:
    """With the attacker named, the empty gun values are the ADC's (sample F-100D card)."""
    e, blue, red = _game()
    card = RS.aircraft["f-100d"].gun  # type: ignore[attr-defined]
    inputs = GunInputs.model_validate({"attacker": blue, "target": red, "horizontal_range": 0})
    r = GUN.resolve(inputs, TableDice([1]), e)
    assert r.outcome == f"hit: attack rating {card.attack_rating}"


SSGT_MODIFIERS = (
    "SSGT Modifiers. When attacking with guns or rockets, an aircraft gains a -1 modifier of "
    "each 1/3 of its speed (round down) in accumulated FPs. The maximum modifier is -2."
)


def test_ssgt_below_speed_3_both_readings(filled: object) -> None:
    """``SSGT_MODIFIERS``: at speed 2 a third rounds down to 0 FPs. Default: taken as 1 FP,
    so 1 FP of SSGT is -1 (hit 5 -> 6/10) and 2 FPs -2 (7/10). ``ssgt_slow_no_modifier``: no
    third is accumulated, no modifier (5/10). Speed 3 is one FP per third either way."""
    slow = RS.bind(["ssgt_slow_no_modifier"]).procedures["gun_attack"]
    hit = "hit: attack rating 5"
    assert GUN.odds(gun(speed=2.0, ssgt_fps=1))[hit] == Fraction(6, 10)
    assert GUN.odds(gun(speed=2.0, ssgt_fps=2))[hit] == Fraction(7, 10)
    assert slow.odds(gun(speed=2.0, ssgt_fps=2))[hit] == Fraction(5, 10)
    assert slow.odds(gun(speed=2.5, ssgt_fps=2))[hit] == Fraction(5, 10)
    for proc in (GUN, slow):
        assert proc.odds(gun(speed=3.0, ssgt_fps=1))[hit] == Fraction(6, 10)
        assert proc.odds(gun(speed=3.0, ssgt_fps=2))[hit] == Fraction(7, 10)
