"""The project's own entry points list only rulesets that really exist and work."""

from app.plugins import broken_rulesets


def test_every_built_in_ruleset_loads() -> None:
    from importlib.metadata import entry_points

    built_in = {
        ep.name for ep in entry_points(group="airboss.rulesets") if ep.value.startswith("rulesets.")
    }
    assert built_in
    assert not built_in & set(broken_rulesets())
