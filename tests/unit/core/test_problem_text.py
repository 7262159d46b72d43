"""A rule's refusal raised inside its inputs' checks reaches the umpire in the rule's own words,
not after pydantic's "Value error, " (found at the desk: Advanced Air Force's fixed guns,
"Not resolved: Value error, rules 2, 6, 7: fixed guns need the target directly ahead ...")."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError, field_validator

from app.core.engagement import Engagement
from app.core.errors import problem_text, problems_text
from app.core.prepared import prepare
from app.plugins import load_ruleset


class Speed(BaseModel):
    speed: int

    @field_validator("speed")
    @classmethod
    def within(cls, v: int) -> int:
        if v > 8:
            raise ValueError("5.0: speed 9 is above its level maximum 8")
        if v == 0:
            raise AssertionError("5.0: a jet never stops")  # as an ``assert`` raises it
        return v


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (9, "speed: 5.0: speed 9 is above its level maximum 8"),
        (0, "speed: 5.0: a jet never stops"),
        ("x", "speed: Input should be a valid integer, unable to parse string as an integer"),
    ],
)
def test_a_rules_own_words_without_pydantics_prefix(value: object, said: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Speed(speed=value)  # type: ignore[arg-type]
    assert problems_text(caught.value) == said
    assert problem_text(caught.value.errors()[0]) == said.removeprefix("speed: ")


def test_advanced_air_force_fixed_guns_refusal_is_said_in_the_rules_words() -> None:
    """Rules 2, 6, 7: on the First Advantage fixed guns need the target directly ahead; the
    prepared action's message (what the Combat form and the status bar show) says so as the
    rule does."""
    rs = load_ruleset("advanced_air_force")
    p = prepare(
        rs.procedures["gun_fire"],
        Engagement(),
        roles={},
        typed={"total_gun_factors": 4, "range_hexes": 1, "advantage": "first"},
    )
    assert p.inputs is None
    assert p.error.startswith("rules 2, 6, 7: fixed guns need the target directly ahead")
    assert "Value error" not in p.error
