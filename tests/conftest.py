"""Test-wide setup: the test-only rulesets are registered, user data goes to a temp dir."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
