"""The Air Power ruleset as a plugin: cards, gun pods, tables, the board geometry, the flight
record and the new-turn clock."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core.data import load_catalogue, save_override
from app.core.dice import TableDice
from app.core.engagement import Engagement
from app.core.errors import DataFileError, MissingTableValue, RuleViolation
from app.core.ruleset import Piece
from app.plugins import load_ruleset
from rulesets.airpower.card import Card, Details

RS = load_ruleset("airpower")


def test_sample_aircraft_say_they_are_samples() -> None:
    assert RS.aircraft
    for card in RS.aircraft.values():
        assert isinstance(card, Card) and card.sample and "sample" in card.name


def test_malformed_card_names_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        'name = "X"\nsize = 0\nspeed = 5.0\nmax_speed = 6.0\n'
        '[gun]\nname = "g"\nhit_numbers = [12, 5, 3]\nattack_rating = 4\nammunition = "3"\n'
    )
    with pytest.raises(DataFileError, match=r"bad\.toml.*gun\.hit_numbers"):
        load_catalogue(tmp_path, Card)


def test_malformed_table_override_names_the_field(_user_data: Path) -> None:
    save_override("airpower", "modifiers", {"angle_off": {"30 arc": "minus one"}})
    from rulesets.airpower.tables import modifiers

    with pytest.raises(DataFileError, match="angle_off"):
        modifiers()


def test_table_files_are_listed() -> None:
    names = set(RS.table_files())
    assert {"modifiers", "rockets", "genie", "gun_pods", "fields"} <= names


def test_gun_pods_symmetry_rule() -> None:
    """Gun Pods: one type; wing pods in symmetrical pairs."""
    Details(gun_pods=["L1", "R1", "C"], gun_pod_type="SUU-23/A")
    with pytest.raises(ValidationError, match="R2"):
        Details(gun_pods=["L2"], gun_pod_type="SUU-23/A")
    with pytest.raises(ValidationError, match="type"):
        Details(gun_pods=["C"])
    # the ADC's station limits decide where a pod may go
    with pytest.raises(RuleViolation, match="station limits"):
        RS.new_aircraft(
            "p", "P", "Blue", "f-100d", "average", {"gun_pods": ["C"], "gun_pod_type": "SUU-23/A"}
        )


def test_gun_pod_ammunition_ledger(_user_data: Path) -> None:
    """Gun pod ammunition comes from the pod table (not printed; test value 4 points a pod)."""
    details = {"gun_pods": ["C"], "gun_pod_type": "SUU-23/A"}
    with pytest.raises(RuleViolation, match="not printed"):
        RS.new_aircraft("p", "P", "Blue", "f-4e", "average", details)
    save_override("airpower", "gun_pods", {"pods": {"SUU-23/A": {"ammunition": 4}}})
    ev = RS.new_aircraft("p", "P", "Blue", "f-4e", "average", details)
    assert ev.ledgers == {"gun_ammunition": Fraction(4), "pod_ammunition": Fraction(4)}


def test_board_reports_arc_side_range_and_why_not(_user_data: Path) -> None:
    geo = RS.geometry
    assert geo is not None and geo.grid == "hex"
    target = Piece(0, 0, 90, altitude=5, speed=5)
    behind = Piece(0, -2, 90, altitude=6, speed=6)
    rel = dict(geo.relate(target, behind).lines)
    assert rel["Angle-off"] == "0 line"
    assert rel["Gun range"].startswith("2")
    assert "not filled in" in rel["Gun attack"]
    save_override("airpower", "fields", {"gun_field_of_fire": "150+", "limited_radar_arc": "150+"})
    relation = geo.relate(target, behind)
    rel = dict(relation.lines)
    assert rel["Gun attack"] == "possible" and relation.attack_allowed is True
    assert rel["Rocket attack"] == "possible"
    far = geo.relate(target, Piece(0, -4, 90, altitude=5, speed=6))
    assert far.attack_allowed is False and "beyond" in far.why_not
    assert len(relation.arcs) == 12
    # a borderline that needs the missing modifier table says so
    b2 = dict(geo.relate(Piece(0, 0, 0, speed=6), Piece(-2, -3, 60, speed=6)).lines)
    assert "60 arc or 90 arc" in b2["Angle-off"]
    bad = geo.relate(target, Piece(0.25, 0, 0))
    assert bad.attack_allowed is False


def test_flight_record_and_new_turn() -> None:
    """Recovery Split Between Game Turns, as the desk records it: the flight is kept per
    aircraft; at a new game turn it becomes last turn's flight and SSGT is lost."""
    flight = RS.procedures["flight"]
    e = Engagement(turn=1).apply(RS.new_aircraft("a", "A", "Blue", "f-100d", "average", {}), 1)
    inputs = flight.Inputs(
        aircraft="a",
        speed=7.0,
        this_turn=["none"] * 4 + ["ET"],
        tracking_since=2,
        tracked_range=3,
        target_in_field=True,
    )
    assert inputs.ssgt_fps == 3  # FPs 2-4; the ET FP does not count
    res = flight.resolve(inputs, TableDice([]), e)
    assert res.outcome == "may not fire guns, no rockets"
    for n, ev in enumerate(res.events, start=2):
        e = e.apply(ev, n)
    for n, ev in enumerate(RS.on_clock(e, 2, 0), start=10):
        e = e.apply(ev, n)
    at = e.get("a").attributes
    assert (
        at["last_turn"] == ["none"] * 4 + ["ET"] and at["this_turn"] == [] and at["ssgt_fps"] == 0
    )
    pre = flight.prefill(e, "a", None)
    nxt = flight.Inputs(**{**pre, "this_turn": ["none"] * 4})
    assert flight.odds(nxt) == {"may fire guns, rockets too": Fraction(1)}
    with pytest.raises(ValidationError, match="SSGT starts from zero"):
        flight.Inputs(
            speed=7.0, this_turn=["none"], tracking_since=2, tracked_range=1, target_in_field=True
        )


def test_ssgt_conditions_are_checked() -> None:
    """SSGT Procedure: "an aircraft must accumulate FPs consecutively while on a tracking line,
    within six hexes of the target, and with the target in the field of fire of its guns or in
    its limited arc"; ET, unloaded and rolling FPs and the recovery FPs after an ET do not count
    ("FPs used for or to recover from turns at lesser turn rates do count")."""
    flight = RS.procedures["flight"]
    track = {"tracked_range": 6, "target_in_field": True}
    assert flight.Inputs(speed=6.0, this_turn=["none", "TT", "HT"], tracking_since=1, **track)
    assert (
        flight.Inputs(speed=6.0, this_turn=["none", "TT", "HT"], tracking_since=1, **track).ssgt_fps
        == 3
    )
    # an ET FP and the three recovery FPs after it (speed 6: half the speed) do not count
    after_et = ["none", "ET", "none", "none", "none", "none"]
    assert flight.Inputs(speed=6.0, this_turn=after_et, tracking_since=1, **track).ssgt_fps == 2
    with pytest.raises(ValidationError, match="within 6 hexes"):
        flight.Inputs(
            speed=6.0, this_turn=["none"], tracking_since=1, tracked_range=7, target_in_field=True
        )
    with pytest.raises(ValidationError, match="range to the tracked target"):
        flight.Inputs(speed=6.0, this_turn=["none"], tracking_since=1, target_in_field=True)
    with pytest.raises(ValidationError, match="field of fire"):
        flight.Inputs(speed=6.0, this_turn=["none"], tracking_since=1, tracked_range=2)
    assert flight.Inputs(speed=6.0, this_turn=["none"]).ssgt_fps == 0


def test_ssgt_lost_on_defensive_preemption() -> None:
    """Defensive Pre-emption and SSGT: the attacker's accumulated SSGT is cancelled; "When the
    attacker resumes moving following a pre-emption, it must start to accumulate FPs for SSGT
    anew": tracking since an FP before the pre-emption is refused."""
    proc = RS.procedures["ssgt_cancelled"]
    flight = RS.procedures["flight"]
    e = Engagement().apply(RS.new_aircraft("a", "A", "Blue", "f-100d", "average", {}), 1)
    track = {"aircraft": "a", "speed": 7.0, "tracked_range": 3, "target_in_field": True}
    res = flight.resolve(
        flight.parse({**track, "this_turn": ["none"] * 3, "tracking_since": 1}), TableDice([]), e
    )
    for n, ev in enumerate(res.events, start=2):
        e = e.apply(ev, n)
    assert e.get("a").attributes["ssgt_fps"] == 3
    res = proc.resolve(proc.Inputs(aircraft="a"), TableDice([]), e)
    assert res.events[-1].values == {  # type: ignore[union-attr]
        "ssgt_fps": 0,
        "tracking_since": None,
        "ssgt_from": 3,
    }
    for n, ev in enumerate(res.events, start=5):
        e = e.apply(ev, n)
    pre = flight.prefill(e, "a", None)
    assert pre["ssgt_from"] == 3 and pre["tracking_since"] is None
    with pytest.raises(ValidationError, match="starts anew after it"):
        flight.parse({**pre, **track, "this_turn": ["none"] * 5, "tracking_since": 2})
    later = flight.parse({**pre, **track, "this_turn": ["none"] * 5, "tracking_since": 4})
    assert later.ssgt_fps == 2


def test_variants_and_card() -> None:
    assert [v.id for v in RS.variants] == [
        "original_wording",
        "borderline_equal_heading",
        "gun_range_from_figure",
        "ssgt_slow_no_modifier",
        "genie_vfps_nearest",
    ]
    help_text = RS.variants[0].help
    for place in ("equal speeds", "SSGT", "Rocket restrictions", "CC rocket", "Formation"):
        assert place in help_text
    e = Engagement().apply(RS.new_aircraft("a", "A", "Blue", "f-4e", "ace", {}), 1)
    spec = RS.card_spec(e.get("a"), e)
    assert "F-4E" in spec.title
    assert spec.blocks


def test_damage_roll_reads_the_umpires_table(_user_data: Path) -> None:
    """Aircraft Damage Resolution (not printed): missing until filled; rockets roll -2 (Rocket
    Attack Procedure). Test values: rating 4 gives "A" on modified rolls -1 to 2, "-" above."""
    dmg = RS.procedures["damage"]
    with pytest.raises(MissingTableValue):
        dmg.odds(dmg.Inputs(attack_rating=4))
    save_override("airpower", "aircraft_damage", {"results": {"4": ["A"] * 4 + ["-"] * 8}})
    assert dmg.odds(dmg.Inputs(attack_rating=4)) == {"A": Fraction(2, 10), "miss": Fraction(8, 10)}
    assert dmg.odds(dmg.Inputs(attack_rating=4, weapon="rocket")) == {
        "A": Fraction(4, 10),
        "miss": Fraction(6, 10),
    }
    e = Engagement().apply(RS.new_aircraft("t", "T", "Red", "mig-17f", "average", {}), 1)
    res = dmg.resolve(dmg.Inputs(attack_rating=4, target="t", weapon="rocket"), TableDice([3]), e)
    assert res.outcome == "A" and res.events[-1].kind == "critical_hit"
    with pytest.raises(RuleViolation, match="no column"):
        dmg.odds(dmg.Inputs(attack_rating=20))


def test_typed_state_refuses_a_misspelt_key() -> None:
    """Every per-aircraft value Air Power keeps is declared in its State: the draft refuses an
    attribute the State does not know, and a new aircraft's attributes fit it."""
    from app.core.events import AttributesSet
    from app.core.procedure import Draft
    from rulesets.airpower.state import State

    assert RS.State is State
    e = Engagement().apply(RS.new_aircraft("a", "A", "Blue", "f-4e", "ace", {}), 1)
    assert e.get("a").typed(State, "attributes").speed == 7.0
    draft = Draft(e, RS.State)
    with pytest.raises(TypeError, match="ssgt_fp"):
        draft.emit(AttributesSet(aircraft="a", values={"ssgt_fp": 1}))
    draft.emit(AttributesSet(aircraft="a", values={"ssgt_fps": 1}))
    assert draft.state("a", State).ssgt_fps == 1


def test_movement_help_shows_the_fps_left() -> None:
    """The flight record on the board (issue 18): FPs flown this game turn and left of the
    start speed (F-100D sample card: speed 7)."""
    flight = RS.procedures["flight"]
    e = Engagement(turn=1).apply(RS.new_aircraft("a", "A", "Blue", "f-100d", "average", {}), 1)
    help_ = RS.movement_help(e, "a")
    assert help_ is not None and dict(help_.lines)["FPs left"] == "7"
    res = flight.resolve(
        flight.Inputs(aircraft="a", speed=7.0, this_turn=["none"] * 3), TableDice([]), e
    )
    for n, ev in enumerate(res.events, start=2):
        e = e.apply(ev, n)
    lines = dict(RS.movement_help(e, "a").lines)  # type: ignore[union-attr]
    assert lines["FPs flown this game turn"] == "3 of 7" and lines["FPs left"] == "4"
