"""Every variant of every built-in ruleset says both readings (issue 33): what the game does
without it and with it, for Help > Rules readings, and names the rule it reads."""

from __future__ import annotations

import pytest

from app.plugins import load_ruleset

BUILT_IN = ("phantoms", "airpower", "advanced_air_force", "nth_fleet", "ufo_interception")


@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_every_variant_gives_both_readings_and_its_rule(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    assert rs.variants
    for v in rs.variants:
        assert v.off.strip() and v.on.strip(), v.id
        assert v.off != v.on, v.id
        assert v.rule.strip(), v.id
        assert rs.bind([v.id]).chosen == {v.id}


#: the open readings issue 33 asked for, each with the default the program had before
ISSUE_33_READINGS = {
    "phantoms": "wounded_minus_one_guns_only",
    "ufo_interception": "recharge_dice_rolled",
    "advanced_air_force": "fixed_f_gunnery_as_flexible",
    "nth_fleet": "ew_each",
    "airpower": ("ssgt_slow_no_modifier", "genie_vfps_nearest"),
}


@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_issue_33_readings_are_offered_off_by_default(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    wanted = ISSUE_33_READINGS[ruleset_id]
    ids = (wanted,) if isinstance(wanted, str) else wanted
    known = {v.id: v for v in rs.variants}
    for vid in ids:
        assert vid in known and not known[vid].default
        assert vid not in rs.default_variants
