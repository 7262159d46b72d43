"""Test-wide setup: the test-only rulesets are registered, user data goes to a temp dir."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SITE = Path(__file__).parent / "fixtures" / "site"
if str(SITE) not in sys.path:
    # The dist-info there registers "skirmish" and "broken" under airboss.rulesets, exactly as
    # an installed third-party ruleset would be.
    sys.path.insert(0, str(SITE))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _user_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own user data directory (overrides, the umpire's aircraft)."""
    d = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("AIRBOSS_DATA_DIR", str(d))
    return d


HOSTILE_SITE = Path(__file__).parent / "fixtures" / "hostile_site"
#: the import time limit for hostile plugins in tests (the hang at import costs this once)
HOSTILE_TIME_LIMIT = 8.0


@pytest.fixture
def hostile_site(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The hostile ruleset plugins of issue 31 (tests/fixtures/hostile_site: a dist-info that
    registers them, exactly as an installed distribution would) on ``sys.path`` for one test;
    yields ``airboss_hostile.guest``, the one that imports cleanly, with no misbehaviour set.
    Hanging calls are released at the end, and waited for."""
    from app import plugins

    monkeypatch.syspath_prepend(str(HOSTILE_SITE))
    monkeypatch.setattr(plugins, "IMPORT_TIME_LIMIT", HOSTILE_TIME_LIMIT)
    guest = importlib.import_module("airboss_hostile.guest")
    guest.MISBEHAVE.clear()
    guest.RELEASE.clear()
    yield guest
    guest.MISBEHAVE.clear()
    guest.RELEASE.set()
    from app.core import guest as guarded

    guarded.settle()  # the released calls return: no later test meets them as "still busy"
