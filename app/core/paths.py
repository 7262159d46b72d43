"""Where the umpire's own files live: light to import (no pydantic), so the desk can find its
settings before the game's models are loaded (issue 20)."""

from __future__ import annotations

import os
from pathlib import Path


def user_data_dir() -> Path:
    """Where the umpire's own aircraft, table values and settings live."""
    override = os.environ.get("AIRBOSS_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs  # here, not on import: only when no AIRBOSS_DATA_DIR says where

    return Path(platformdirs.user_data_dir("airboss", "airboss"))
