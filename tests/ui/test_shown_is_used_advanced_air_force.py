"""Issue 43: shown = used, on what is painted (the steps and checks: shown_is_used.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DESK_EXAMPLES, SLOW_IS_FINE
from tests.ui.shown_is_used import STEP, Desk, desks, property_test

__all__ = ["desks"]  # the module's two windows (a fixture)


@settings(max_examples=DESK_EXAMPLES, suppress_health_check=SLOW_IS_FINE)
@given(moves=st.lists(STEP, min_size=3, max_size=14))
def test_what_the_form_paints_is_what_resolves(
    desks: dict[str, Desk], qtbot: Any, tmp_path_factory: Any, moves: list[Any]
) -> None:
    property_test("advanced_air_force", desks, qtbot, tmp_path_factory, moves)
