"""Whether a target names a server or a game file: light to import (the desk asks it before
any store is opened, issue 20)."""

from __future__ import annotations

from pathlib import Path


def is_url(target: str | Path) -> bool:
    """A URL (``scheme://...``) names a server; anything else a game file."""
    return "://" in str(target)
