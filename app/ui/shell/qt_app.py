"""The one QApplication of a process, set up as the desk wants it (name, icon, Fusion style).

Kept apart from ``app.ui.shell.application`` (which builds the desk) so that anything that only
needs a running Qt application, such as a panel's preview harness, imports no window or panel.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.resources import ICON_SVG

APP_NAME = "Airboss"


def version() -> str:
    """Airboss's version: ``app.__version__``, which the distribution's metadata is built
    from (pyproject.toml), read without ``importlib.metadata``."""
    from app import __version__

    return __version__


def application() -> QApplication:
    """The process's QApplication (made here unless one runs already), named, with the icon
    and the Fusion style: Fusion follows the system's light or dark colour scheme on every
    platform. A QApplication made here is given Fusion on its command line (``-style``), so Qt
    never builds the platform's default style only to replace it; one that runs already is
    switched to Fusion unless it has it."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication([sys.argv[0] if sys.argv else "airboss", "-style", "Fusion"])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("airboss")
    app.setWindowIcon(QIcon(str(ICON_SVG)))
    app.setDesktopFileName("airboss")
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    return app
