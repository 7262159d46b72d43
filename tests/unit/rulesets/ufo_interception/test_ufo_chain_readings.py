"""Issue 45: the UFO readings of the text where it is open change the odds to the end of the
chain, and the outcome of a roll, as each reading's quoted text says (exact ``Fraction``s,
worked out by hand from the damage table below).

UFO rules, Damage (seed 003), Fighter / UFO columns of the 2d6 table:
2 "Pilot killed- Automatic Crash" / "Power Plant D6 DP, Max speed -d6"; 3 "4 DP" / "1 DP plus
Engine: max speed-1"; 4 "Roll for each hardpoint, 6 = lost" / "1 DP plus Anti Grav-1"; 5 "1 DP
plus Engine: max speed-1" / "3 DP"; 6 "2 DP" / "1 DP"; 7 "1 DP" / "1 DP"; 8 "2 DP" / "2 DP and
Ray gun with highest charge loses d6"; 9 "3 DP" / "2 DP"; 10 "1 DP" / "1DP"; 11 "2 DP plus
Engine: max speed-1" / "1 DP plus Anti Grav-1"; 12 "Critical- plane destroyed" / "2D6 DP".
2d6 totals 2..12 come up 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 ways in 36.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from app.core.chain_odds import chain_odds
from app.core.dice import TableDice
from app.core.engagement import Engagement, Status, apply
from app.core.errors import RuleViolation
from app.core.events import AttributesSet, DamageTaken, Event, LedgerChanged
from app.session import GameSession
from rulesets.ufo_interception.damage import (
    DP_EXHAUSTED_NOT_DESTROYED,
    UFO_ZERO_SPEED_CRASHES,
)
from rulesets.ufo_interception.sequence import VITAL_EACH_DAMAGE_ROLL
from rulesets.ufo_interception.state import Ledger

WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def _with(e: Engagement, *events: Event) -> Engagement:
    for ev in events:
        e = apply(e, ev, e.seq)
    return e


def _game(tmp_path: Path, variants: tuple[str, ...]) -> tuple[GameSession, str, str]:
    s = GameSession.create(
        tmp_path / f"ufo-{len(variants)}.airboss", "ufo_interception", "r", variants
    )
    plane = s.add_aircraft("RAF", "tornado", "T1")
    saucer = s.add_aircraft("UFO", "small_ufo", "Saucer")
    return s, plane, saucer


def _owed(e: Engagement, aircraft: str, due: int, **values: object) -> Engagement:
    return _with(e, AttributesSet(aircraft=aircraft, values={"damage_rolls_due": due, **values}))


def _odds(s: GameSession, e: Engagement, target: str, kind: str) -> dict[str, Fraction]:
    damage = s.ruleset.procedures["damage_roll"]
    inputs = damage.parse({"target": target, "target_type": kind})
    odds = chain_odds(s.ruleset, e, "damage_roll", inputs)
    assert odds.exact
    return dict(odds.chances)


# -- whether exhausted damage points destroy by themselves ------------------------------------


@pytest.mark.parametrize(
    ("variants", "destroyed"),
    [((), Fraction(1)), ((DP_EXHAUSTED_NOT_DESTROYED,), Fraction(0))],
)
def test_exhausted_damage_points_destroy_only_by_the_default_reading(
    tmp_path: Path, variants: tuple[str, ...], destroyed: Fraction
) -> None:
    """'Small UFO 10DP': a Small UFO with 9 DP taken owes one damage roll. Every result of
    the UFO column does at least 1 DP, so the last one is always taken. Default: the damage
    points are what it can take, the last destroys it (chance 1). With the reading, damage
    beyond them destroys nothing by itself; Anti Grav 7 loses at most 1 and a UFO at 0 speed
    stays up, so nothing else can bring it down (chance 0)."""
    s, _, saucer = _game(tmp_path, variants)
    e = _owed(_with(s.engagement, DamageTaken(aircraft=saucer, points=9)), saucer, 1)
    odds = _odds(s, e, saucer, "ufo")
    assert odds["destroyed"] == destroyed
    assert odds["out of the fight"] == destroyed
    s.close()


@pytest.mark.parametrize(
    ("variants", "destroyed"), [((), True), ((DP_EXHAUSTED_NOT_DESTROYED,), False)]
)
def test_the_last_damage_point_taken_destroys_only_by_the_default_reading(
    tmp_path: Path, variants: tuple[str, ...], destroyed: bool
) -> None:
    """A 7 typed (3 + 4) on the UFO column: "1 DP", the Small UFO's tenth."""
    s, _, saucer = _game(tmp_path, variants)
    e = _owed(_with(s.engagement, DamageTaken(aircraft=saucer, points=9)), saucer, 1)
    proc = s.ruleset.procedures["damage_roll"]
    res = proc.resolve(proc.parse({"target": saucer, "target_type": "ufo"}), TableDice([3, 4]), e)
    after = _with(e, *res.events)
    assert after.get(saucer).damage == 10
    assert (Status.DESTROYED in after.get(saucer).status) is destroyed
    s.close()


# -- whether a UFO at 0 maximum speed crashes -------------------------------------------------


@pytest.mark.parametrize(
    ("variants", "destroyed"),
    [
        # only 12, "2D6 DP", can bring 10 DP down: 2d6 of 10 or more, 6 ways in 36
        ((), Fraction(1, 36) * Fraction(6, 36)),
        # and 2 ("Max speed -d6", at least 1) and 3 ("max speed-1") take its last inch
        ((UFO_ZERO_SPEED_CRASHES,), Fraction(1, 216) + Fraction(1 + 2, 36)),
    ],
)
def test_a_ufo_at_zero_maximum_speed_crashes_only_with_the_reading(
    tmp_path: Path, variants: tuple[str, ...], destroyed: Fraction
) -> None:
    """'Any aircraft reduced to 0 speed crashes.' A Small UFO with 1 inch of maximum speed
    left and no damage owes one damage roll. Default ('aircraft' are the planes): it stays up
    at 0 speed, and is destroyed only by its 10 DP (1/216). With the reading it crashes on a 2
    or a 3 too: 1/216 + 3/36 = 19/216."""
    s, _, saucer = _game(tmp_path, variants)
    e = _with(
        s.engagement,
        LedgerChanged(aircraft=saucer, ledger=Ledger.MAX_SPEED, delta=Fraction(-5), reason="t"),
    )
    e = _owed(e, saucer, 1)
    odds = _odds(s, e, saucer, "ufo")
    assert odds["destroyed"] == destroyed
    assert odds["engine damaged"] == Fraction(3, 36)
    s.close()


@pytest.mark.parametrize(("variants", "crashed"), [((), False), ((UFO_ZERO_SPEED_CRASHES,), True)])
def test_the_last_inch_of_speed_lost_crashes_a_ufo_only_with_the_reading(
    tmp_path: Path, variants: tuple[str, ...], crashed: bool
) -> None:
    """A 3 typed (1 + 2) on the UFO column: "1 DP plus Engine: max speed-1", from 1 to 0."""
    s, _, saucer = _game(tmp_path, variants)
    e = _with(
        s.engagement,
        LedgerChanged(aircraft=saucer, ledger=Ledger.MAX_SPEED, delta=Fraction(-5), reason="t"),
    )
    e = _owed(e, saucer, 1)
    proc = s.ruleset.procedures["damage_roll"]
    res = proc.resolve(proc.parse({"target": saucer, "target_type": "ufo"}), TableDice([1, 2]), e)
    after = _with(e, *res.events)
    assert after.get(saucer).ledger(Ledger.MAX_SPEED) == 0
    assert (Status.CRASHED in after.get(saucer).status) is crashed
    s.close()


# -- the vital-system check: once a turn, or after each damage roll ----------------------------

#: the Fighter column's results that do damage and leave the plane flying (its 6 DP, no
#: hard point left to lose): 2d6 total -> DP
FIGHTER_DP = {3: 4, 5: 1, 6: 2, 7: 1, 8: 2, 9: 3, 10: 1, 11: 2}


def _vital_after_one_roll() -> Fraction:
    """One damage roll on an undamaged Tornado, then a check: 'If the result is LESS than
    the total damage taken then a vital system has been hit ... the pilot ejects': a d6 below
    d DP, (d - 1)/6."""
    return sum(
        (Fraction(WAYS[t], 36) * Fraction(dp - 1, 6) for t, dp in FIGHTER_DP.items()),
        Fraction(0),
    )


def _checked_and_hit_again(e: Engagement, plane: str) -> Engagement:
    """The Tornado, its hard points all lost, damaged and checked this turn, owes one damage
    roll more."""
    values = {
        "hard_points_lost": [1, 2, 3, 4],
        "damaged_turn": e.turn,
        "vital_checked_turn": e.turn,
    }
    return _owed(_with(e, AttributesSet(aircraft=plane, values=values)), plane, 1)


@pytest.mark.parametrize(
    ("variants", "ejected"),
    [((), Fraction(0)), ((VITAL_EACH_DAMAGE_ROLL,), Fraction(13, 108))],
)
def test_a_second_hit_in_a_turn_checks_vital_systems_again_only_per_damage_roll(
    tmp_path: Path, variants: tuple[str, ...], ejected: Fraction
) -> None:
    """'Any turn a plane takes damage roll d6.' A Tornado, its hard points all lost, has
    checked its vital systems this turn and is hit again: one damage roll owed. Read as
    written, one check a turn: none is owed, nobody ejects. Read per damage roll, a check after
    this roll's damage: (2x3 + 5x1 + 5x1 + 4x2 + 2x1) / 6 / 36 = 13/108."""
    assert _vital_after_one_roll() == Fraction(13, 108)
    s, plane, _ = _game(tmp_path, variants)
    e = _checked_and_hit_again(s.engagement, plane)
    odds = _odds(s, e, plane, "fighter")
    assert odds["ejected"] == ejected
    # "Pilot killed- Automatic Crash" (2) and "Critical- plane destroyed" (12) either way
    assert odds["pilot killed"] == Fraction(2, 36)
    s.close()


@pytest.mark.parametrize(("variants", "owed"), [((), False), ((VITAL_EACH_DAMAGE_ROLL,), True)])
def test_a_damage_roll_owes_its_own_vital_system_check_only_per_damage_roll(
    tmp_path: Path, variants: tuple[str, ...], owed: bool
) -> None:
    """The same Tornado rolls a 6 (2 + 4): "2 DP". Per damage roll, a vital-system check is
    owed now, and a typed 1 (less than 2) ejects the pilot; read as written, it checked this
    turn already and the check is refused."""
    s, plane, _ = _game(tmp_path, variants)
    e = _checked_and_hit_again(s.engagement, plane)
    damage = s.ruleset.procedures["damage_roll"]
    res = damage.resolve(
        damage.parse({"target": plane, "target_type": "fighter"}), TableDice([2, 4]), e
    )
    e = _with(e, *res.events)
    vital = s.ruleset.procedures["vital_system"]
    inputs = vital.parse({"aircraft": plane, "total_damage": 2})
    if owed:
        out = vital.resolve(inputs, TableDice([1]), e)
        assert Status.EJECTED in _with(e, *out.events).get(plane).status
    else:
        with pytest.raises(RuleViolation, match="already checked its vital systems this turn"):
            vital.resolve(inputs, TableDice([1]), e)
    s.close()
