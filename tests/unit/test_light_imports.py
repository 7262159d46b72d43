"""Issue 20: the desk's window paints before pydantic and the game's models are loaded.

Importing the window and what it is built from (the model, the message bar, the panels'
registry, the layout, the Qt application, the command line) must load none of pydantic, the
game's core models, the session, the store, the rulesets or ``importlib.metadata``: they load
with the first game, once the window is on the screen.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WINDOW = (
    "app.ui.shell.main_window",
    "app.ui.model",
    "app.ui.widgets.message_bar",
    "app.ui.shell.dock_registry",
    "app.ui.shell.desk_layout",
    "app.ui.shell.qt_app",
    "app.cli",
)
HEAVY = (
    "pydantic",
    "app.core.events",
    "app.core.engagement",
    "app.core.ruleset",
    "app.core.data",
    "app.session",
    "app.store.store",
    "app.plugins",
    "rulesets",
    "importlib.metadata",
)


def test_the_window_imports_nothing_heavy() -> None:
    code = (
        f"import sys\nimport {', '.join(WINDOW)}\n"
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert loaded == [], f"importing the desk's window loaded: {', '.join(loaded)}"
