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


START_DEMO = """
ruleset = "skirmish"
title = "Start-up"
[[aircraft]]
side = "Blue"
type = "jet"
name = "Blue 1"
[[aircraft]]
side = "Red"
type = "prop"
name = "Red 1"
"""


@pytest.fixture
def demo_game_file(tmp_path: Path) -> Path:
    """A closed game file made as the desk's first start makes one, from a demo engagement
    (skirmish: Blue 1, a jet, and Red 1, a prop), for the start-up tests."""
    from app.startup.demo import create_demo_game

    demo = tmp_path / "demo.toml"
    demo.write_text(START_DEMO, encoding="utf-8")
    path = tmp_path / "start.airboss"
    create_demo_game(path, demo=demo).close()
    return path
