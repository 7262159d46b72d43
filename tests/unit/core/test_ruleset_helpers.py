"""Helpers of the ruleset contract that every ruleset shares."""

import pytest

from app.core.engagement import Engagement
from app.core.errors import RuleViolation
from app.core.events import AircraftAdded
from app.core.ruleset import prefill_subject


def test_prefill_subject_is_the_one_aircraft_passed() -> None:
    e = Engagement().apply(AircraftAdded(aircraft="a", name="A", side="Blue", type_id="t"), 1)
    assert prefill_subject(e, "a", None).name == "A"  # as the desk passes it
    assert prefill_subject(e, None, "a").name == "A"
    assert prefill_subject(e, None, None) is None
    with pytest.raises(RuleViolation, match="no aircraft 'ghost'"):
        prefill_subject(e, "ghost", None)
