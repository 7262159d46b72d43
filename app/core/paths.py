"""Where the umpire's own files live: light to import (no pydantic), so the desk can find its
settings before the game's models are loaded (issue 20)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


def user_data_dir() -> Path:
    """Where the umpire's own aircraft, table values and settings live."""
    override = os.environ.get("AIRBOSS_DATA_DIR")
    if override:
        return Path(override)
    return _platform_dir(os.environ.get("XDG_DATA_HOME"), os.environ.get("HOME"))


@cache
def _platform_dir(xdg_data_home: str | None, home: str | None) -> Path:
    """The platform's place for Airboss's data, asked once for each value of the variables it
    is made from (every table read asks for its override file: issue 36 measured the lookup at
    a third of working out who can act in a 60-aircraft step)."""
    import platformdirs  # here, not on import: only when no AIRBOSS_DATA_DIR says where

    return Path(platformdirs.user_data_dir("airboss", "airboss"))
