"""Ruleset discovery (DESIGN.md "Rulesets are plugins"): broken plugins are isolated."""

import pytest

from app.plugins import available_rulesets, broken_rulesets, load_ruleset


def test_registered_test_ruleset_loads() -> None:
    assert available_rulesets()["skirmish"] == "Skirmish (test ruleset)"
    rs = load_ruleset("skirmish")
    assert rs.id == "skirmish" and "gun_attack" in rs.procedures


def test_unknown_id_lists_known_ids() -> None:
    with pytest.raises(KeyError) as err:
        load_ruleset("kriegsspiel")
    assert "skirmish" in str(err.value)


def test_broken_plugin_is_reported_and_others_keep_working() -> None:
    broken = broken_rulesets()
    assert "broken" in broken
    assert "this ruleset is broken on purpose" in broken["broken"]
    assert "broken" not in available_rulesets()
    with pytest.raises(RuntimeError):
        load_ruleset("broken")
    assert load_ruleset("skirmish").title
