"""Where the umpire's own files live: light to import (no pydantic), so the desk can find its
settings before the game's models are loaded (issue 20)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


def user_data_dir() -> Path:
    """Where the umpire's own aircraft, table values and settings live."""
    env = os.environ
    return _data_dir(env.get("AIRBOSS_DATA_DIR"), env.get("XDG_DATA_HOME"), env.get("HOME"))


@cache
def _data_dir(override: str | None, xdg_data_home: str | None, home: str | None) -> Path:
    """The folder, worked out once for each value of the variables it is made from (every
    table read asks for its override file: issue 36 measured the platform's lookup at a third
    of working out who can act in a 60-aircraft step)."""
    if override:
        return Path(override)
    import platformdirs  # here, not on import: only when no AIRBOSS_DATA_DIR says where

    return Path(platformdirs.user_data_dir("airboss", "airboss"))
