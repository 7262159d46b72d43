"""The desk as the benchmarks open it: the main window in its default layout at 1366x768, as
``airboss`` starts (its panels built after the first paint), optionally on the Phantoms demo.

Imported by the benchmark scripts run from this folder (``bench_players.py``,
``bench_redraw.py``, ``bench_resolve.py``); Qt is imported when a desk is opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def default_desk(app: Any, model: Any, folder: Path) -> Any:
    """The main window on ``model`` in its default layout at 1366x768, shown and its panels
    built (its layout kept in ``folder``, never the user's)."""
    from PySide6.QtCore import QSettings

    from app.ui.shell.main_window import MainWindow

    settings = QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(model, settings, panels_later=True)  # as airboss starts
    window.persist_layout = False
    window.resize(1366, 768)
    window.show()
    window.reset_layout()
    app.processEvents()
    window.build_panels()
    return window


def demo_desk(app: Any, folder: Path) -> tuple[Any, Any, Any]:
    """The Phantoms demo (8 aircraft) with its initiative rolled, on the default desk:
    ``(session, model, window)``, the collector started as the desk runs it."""
    from app.core.dice import TableDice
    from app.startup.demo import create_demo_game
    from app.ui.model import EngagementModel
    from app.ui.shell.application import started

    session = create_demo_game(folder / "demo.airboss")
    init = session.ruleset.procedures["initiative"].prefill(session.engagement, None, None)
    session.perform("initiative", init, TableDice([4, 9]))
    model = EngagementModel(session)
    window = default_desk(app, model, folder)
    app.processEvents()
    started()
    return session, model, window
