"""Shared fixtures of the desk's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.session import GameSession


@pytest.fixture
def session(tmp_path: Path) -> Iterator[GameSession]:
    """A skirmish game with one jet a side, Blue 1 and Red 1 (a test may override it)."""
    s = GameSession.create(tmp_path / "desk.airboss", "skirmish", "Desk test")
    s.add_aircraft("Blue", "jet", "Blue 1")
    s.add_aircraft("Red", "jet", "Red 1")
    yield s
    s.close()
