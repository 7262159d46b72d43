"""Air Power rule "Recovery Periods": the worked examples of the text, FP by FP."""

from __future__ import annotations

import pytest

from rulesets.airpower.recovery import fire_status, recovery_length, status_before_move


def guns(statuses: list) -> list[int]:
    return [s.fp for s in statuses if s.may_fire_guns]


def test_recovery_is_half_the_speed_rounded_down() -> None:
    assert recovery_length(7.0) == 3
    assert recovery_length(5.0) == 2
    assert recovery_length(6.5) == 3
    with pytest.raises(ValueError):
        recovery_length(-1)


def test_after_an_et_turn() -> None:
    """Recovery After an ET Turn: speed 7.0, ET on FPs 1-2, recovery on FPs 3-5: "It can conduct
    a gun attack after its sixth FP"."""
    s = fire_status(["ET", "ET", "none", "none", "none", "none", "none"], 7.0)
    assert guns(s) == [6, 7]
    assert [x.counts_for_ssgt for x in s] == [False] * 5 + [True] * 2


def test_recovery_split_between_game_turns() -> None:
    """Recovery Split Between Game Turns: ET on the last FP; new start speed 7.0: recovery on FPs
    1-3 of the next turn, "able to conduct a gun attack after its fourth FP"."""
    last = ["none"] * 4 + ["ET"]
    assert not status_before_move(7.0, last, 5.0).may_fire_guns
    s = fire_status(["none"] * 7, 7.0, last, 5.0)
    assert guns(s) == [4, 5, 6, 7]
    # the higher of the two speeds sets the length: 7.0 last turn, 5.0 now -> still 3 FPs
    assert guns(fire_status(["none"] * 5, 5.0, last, 7.0)) == [4, 5]
    # with 5.0 in both turns it is 2 FPs
    assert guns(fire_status(["none"] * 5, 5.0, last, 5.0)) == [3, 4, 5]


def test_after_unloaded_fps() -> None:
    """Recovery After Unloaded FPs: speed 7.0, unloaded FPs 1-3, recovery 4-6, "can conduct a gun
    attack after its seventh FP"."""
    s = fire_status(["unloaded"] * 3 + ["none"] * 4, 7.0)
    assert guns(s) == [7]


def test_interrupted_recovery_starts_again() -> None:
    """ "If the recovery period is interrupted, it must start again.\""""
    s = fire_status(["ET", "none", "none", "ET", "none", "none", "none", "none"], 7.0)
    assert guns(s) == [8]
    s = fire_status(["ET", "none", "roll", "none", "none", "none", "none"], 7.0)
    assert guns(s) == [7]


def test_after_lesser_turns() -> None:
    """Recovery After Lesser Turns: speed 5.0, BT on FP 1, recovery FPs 2-3: the BT gunsight
    modifier after FPs 1, 2 or 3, none after 4 or 5."""
    s = fire_status(["BT", "none", "none", "none", "none"], 5.0)
    assert guns(s) == [1, 2, 3, 4, 5]
    assert [x.gunsight_rate for x in s] == ["BT", "BT", "BT", None, None]


def test_highest_turn_rate_applies() -> None:
    """Gunsight and Turning Effects: "If different turn rates are applicable, use the highest
    one"; turning at a lesser rate still completes the higher rate's recovery."""
    s = fire_status(["BT", "TT", "TT", "TT", "TT", "none"], 5.0)
    assert [x.gunsight_rate for x in s] == ["BT", "BT", "BT", "TT", "TT", "TT"]


def test_after_rolling_maneuvers() -> None:
    """Recovery After Rolling Maneuvers: speed 5.0, prepares a lag roll on FP 1, executes it on
    FP 2, recovery FPs 3-4: BT gunsight after FPs 3 or 4, none after 5; no attack after 1 or 2."""
    s = fire_status(["roll", "roll", "none", "none", "none"], 5.0)
    assert guns(s) == [3, 4, 5]
    assert [x.gunsight_rate for x in s][2:] == ["BT", "BT", None]


def test_rockets_refuse_ht_and_bt_fps() -> None:
    """Rocket Attack Restrictions: not immediately after an FP turned at the HT, BT or ET rate."""
    s = fire_status(["HT", "TT", "BT"], 7.0)
    assert [x.may_fire_rockets for x in s] == [False, True, False]
    assert all(x.may_fire_guns for x in s)


def test_return_fire_before_moving() -> None:
    """Head-On Gun Attacks: an aircraft that has not flown may not respond if it is recovering
    from an ET turn or rolled on the last FP of the previous game turn."""
    assert not status_before_move(6.0, ["none", "roll"]).may_fire_guns
    assert status_before_move(6.0, ["roll", "none", "none", "none"]).may_fire_guns
    assert status_before_move(6.0, ["BT"]).gunsight_rate == "BT"


def test_bad_fp_kinds_are_refused() -> None:
    with pytest.raises(ValueError):
        fire_status(["loop"], 5.0)  # type: ignore[list-item]


def test_status_names_the_recovery_period() -> None:
    """Activities Requiring Recovery: the status says which recovery period the FP is in."""
    s = fire_status(["unloaded", "none", "none", "none"], 5.0)
    assert [x.recovering_from for x in s] == [(), ("unloaded",), ("unloaded",), ()]
    assert status_before_move(7.0, ["ET"]).recovering_from == ("ET",)
