"""The rows of the built-in demo game, shipped beside it (issue 36).

At the desk's very first start (no settings yet) it makes a game from the built-in demo
engagement (``app.startup.demo``) and shows it. What the Roster, the Turn panel, the title and the
status bar draw of that game (its rows, ``app.startup.summary``) comes from the demo file, its
ruleset and that ruleset's tables and aircraft, all shipped with Airboss: every new demo game has
the same rows. They are shipped too, in ``app/resources/demo_rows.json`` (written by ``python -m
app.startup.demo_rows``; a test checks they are exactly the rows of a demo game made now), so the
first start paints them as any start paints a game's kept rows, then makes the demo game and
opens it, and the same panels draw it live.

Used only where nothing of the umpire's can change them: a data folder that holds no table
values and no aircraft of the demo's ruleset (``shipped_rows``); otherwise the demo game is
made before the paint, as before. Pure Python: nothing here imports pydantic or Qt until
``made_rows`` makes a game.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.resources import DEMO_ROWS
from app.startup.summary import well_formed

if TYPE_CHECKING:
    from app.startup.summary import Summary

#: the folders of the umpire's data folder that can change a ruleset's rows: its table values
#: (``app.core.data.override_path``) and its own aircraft (``app.core.data.own_aircraft_path``)
UMPIRES = ("tables", "aircraft")


def shipped_rows(data_dir: Path, path: Path = DEMO_ROWS) -> Summary | None:
    """The demo game's rows as shipped, when nothing in ``data_dir`` can change them (no table
    values or aircraft of the demo's ruleset); None otherwise, or when the file is missing or
    not well formed."""
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not well_formed(rows):
        return None
    ruleset = rows["desk"]["ruleset"]
    try:
        if any((data_dir / kind / ruleset).exists() for kind in UMPIRES):
            return None
    except OSError:  # a folder that cannot be looked into may hold anything
        return None
    found: Summary = rows
    return found


def made_rows(target: Path) -> Summary:
    """The rows of a demo game made now at ``target``, as the desk's first start makes it
    (in the data folder the environment names)."""
    from app.startup.demo import create_demo_game
    from app.startup.summary import session_rows

    with create_demo_game(target) as session:
        return session_rows(session)


def main() -> int:
    """Write ``app/resources/demo_rows.json`` from a demo game made in a data folder of its own
    (run when the demo, its ruleset or the rows change; a test says when)."""
    with tempfile.TemporaryDirectory() as folder:
        os.environ["AIRBOSS_DATA_DIR"] = folder
        rows = made_rows(Path(folder) / "demo.airboss")
    DEMO_ROWS.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {DEMO_ROWS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
