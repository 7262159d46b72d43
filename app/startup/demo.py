"""The built-in demo engagement (``app/resources/demo.toml``): a game made from a TOML file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.core.data import read_toml, user_data_dir, validate
from app.core.errors import DataFileError, RuleViolation
from app.core.text import file_stem
from app.plugins import broken_rulesets, load_ruleset
from app.resources import DEMO
from app.session import GameSession


class DemoAircraft(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on first use (issue 20)
    side: str
    type: str
    name: str
    pilot: str | None = "average"
    details: dict[str, Any] = Field(default_factory=dict)


class DemoFile(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)  # built on first use (issue 20)
    ruleset: str
    title: str
    variants: list[str] = Field(default_factory=list)
    aircraft: list[DemoAircraft]


class DemoUnavailable(RuleViolation):
    """The demo's ruleset cannot be loaded (not installed yet, or broken)."""


def read_demo(path: Path = DEMO) -> DemoFile:
    """The demo file, validated (``DataFileError`` naming the file and field)."""
    return validate(DemoFile, read_toml(path), str(path))


def new_games_dir() -> Path:
    """Where new games go unless the umpire chooses a place."""
    return user_data_dir() / "games"


def fresh_path(stem: str, directory: Path | None = None) -> Path:
    """A game file name that does not exist yet: ``<stem> <date>.airboss`` (numbered if taken)."""
    directory = directory or new_games_dir()
    base = f"{file_stem(stem)} {dt.date.today():%Y-%m-%d}"
    path, n = directory / f"{base}.airboss", 1
    while path.exists():
        n += 1
        path = directory / f"{base} ({n}).airboss"
    return path


def create_demo_game(target: Path | None = None, demo: Path = DEMO) -> GameSession:
    """A new game holding the demo engagement; ``DemoUnavailable`` if its ruleset is missing."""
    spec = read_demo(demo)
    try:
        load_ruleset(spec.ruleset)
    except Exception as e:  # noqa: BLE001 - any plugin failure means: no demo
        why = broken_rulesets().get(spec.ruleset) or str(e)
        raise DemoUnavailable(
            f"the demo engagement ({demo.name}) needs the {spec.ruleset!r} ruleset, "
            f"which cannot be loaded: {why}"
        ) from None
    target = target or fresh_path(spec.title)
    session = GameSession.create(target, spec.ruleset, spec.title, spec.variants)
    try:
        for a in spec.aircraft:
            session.add_aircraft(a.side, a.type, a.name, a.pilot, **a.details)
    except RuleViolation as e:
        session.close()
        for leftover in (target, *(Path(f"{target}{x}") for x in ("-wal", "-shm"))):
            Path(leftover).unlink(missing_ok=True)
        raise DataFileError(f"{demo}: {e}") from None
    return session
