"""``airboss [GAME] [--screenshot PATH]``: the Qt application around the main window.

Opens GAME, or the last game, or on the very first start a new game from the built-in demo
engagement. With ``--screenshot`` it renders the window with every panel and exits.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings

from app.core.data import user_data_dir
from app.session import GameSession
from app.store import is_url
from app.ui.demo import DEMO, create_demo_game
from app.ui.main_window import MainWindow, settle
from app.ui.model import EngagementModel, describe_error
from app.ui.qt_app import application

#: the window size of a ``--screenshot``
SCREENSHOT_SIZE = (1600, 1000)


def app_settings() -> QSettings:
    """The desk's settings file, beside the umpire's own data (one per user data dir)."""
    path = user_data_dir() / "settings.ini"
    path.parent.mkdir(parents=True, exist_ok=True)
    return QSettings(str(path), QSettings.Format.IniFormat)


def start_game(
    game: str | None, game_id: str | None, settings: QSettings, demo: Path = DEMO
) -> tuple[GameSession | None, str]:
    """The game to show at start and a message for the umpire if something was not opened.

    An explicit GAME that cannot be opened raises (the command line reports it); a last game
    that has gone missing is a message, and the desk starts empty.
    """
    if game:
        return GameSession.open(game, game=game_id), ""
    last = settings.value("last_game")
    if last is None:
        try:
            return create_demo_game(demo=demo), ""
        except Exception as e:  # noqa: BLE001 - no demo is a message, not a crash
            return None, f"No demo game: {describe_error(e)}"
    if last:
        if not is_url(str(last)) and not Path(str(last)).exists():
            return None, f"The last game, {last}, is no longer there."
        try:
            return GameSession.open(str(last)), ""
        except Exception as e:  # noqa: BLE001 - a damaged last game must not stop the desk
            return None, f"Could not reopen the last game {last}: {describe_error(e)}"
    return None, ""


def run(
    game: str | None = None,
    game_id: str | None = None,
    screenshot: str | None = None,
    settings: QSettings | None = None,
) -> int:
    """Start the desk; with ``screenshot`` write the window to that PNG and return 0."""
    app = application()
    settings = settings if settings is not None else app_settings()
    session, problem = start_game(game, game_id, settings)
    model = EngagementModel()
    window = MainWindow(model, settings)
    if session is not None:
        window.show_session(session)
    if problem:
        window.show_refusal(problem)
    if screenshot:
        return take_screenshot(window, Path(screenshot))
    window.show()
    code = app.exec()
    model.set_session(None)
    return code


def take_screenshot(window: MainWindow, path: Path) -> int:
    """Every panel visible, the window rendered to ``path``; the saved layout is untouched."""
    window.persist_layout = False
    window.resize(*SCREENSHOT_SIZE)
    window.show_all_panels(untab=True)
    window.show()
    settle()
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = window.grab().save(str(path))
    window.close()
    window.model.set_session(None)
    if not ok:
        print(f"airboss: could not write {path}", file=sys.stderr)
        return 1
    return 0
