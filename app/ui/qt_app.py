"""The one QApplication of a process, set up as the desk wants it (name, icon, Fusion style).

Kept apart from ``app.ui.application`` (which builds the desk) so that anything that only needs
a running Qt application, such as a panel's preview harness, imports no window or panel.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.resources import ICON_SVG

APP_NAME = "Airboss"


def version() -> str:
    """The installed distribution's version (the project's own when not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("airboss")
    except PackageNotFoundError:
        return "0.1.0"


def application() -> QApplication:
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication([sys.argv[0] if sys.argv else "airboss"])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName("airboss")
    app.setWindowIcon(QIcon(str(ICON_SVG)))
    app.setDesktopFileName("airboss")
    # Fusion follows the system's light or dark colour scheme on every platform
    app.setStyle("Fusion")
    return app
