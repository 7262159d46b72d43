"""Run one panel alone on a throwaway demo game: ``python -m app.ui.docks.roster``.

``--screenshot PATH`` renders the panel to a PNG instead of opening a window.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from app.ui.model import EngagementModel


def preview(factory: Callable[[EngagementModel], QWidget], argv: list[str] | None = None) -> int:
    """Show ``factory(model)`` on a fresh copy of the demo game; 2 if there is no demo."""
    from app.startup.demo import create_demo_game
    from app.ui.shell.qt_app import application

    parser = argparse.ArgumentParser(
        description=f"Preview {getattr(factory, '__name__', 'a panel')}"
    )
    parser.add_argument("--screenshot", metavar="PATH", help="write the panel to a PNG and exit")
    parser.add_argument("--demo", metavar="TOML", help="another demo engagement file")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    app = application()
    with tempfile.TemporaryDirectory(prefix="airboss-preview-") as tmp:
        try:
            kwargs = {"demo": Path(args.demo)} if args.demo else {}
            session = create_demo_game(Path(tmp) / "preview.airboss", **kwargs)
        except Exception as e:  # noqa: BLE001 - say why there is nothing to preview
            print(f"preview: {e}", file=sys.stderr)
            return 2
        model = EngagementModel(session)
        widget = factory(model)
        widget.setWindowTitle(f"{widget.windowTitle() or type(widget).__name__} — preview")
        widget.resize(700, 600)
        widget.show()
        if args.screenshot:
            app.processEvents()
            ok = widget.grab().save(args.screenshot)
            code = 0 if ok else 1
        else:
            code = app.exec()
        widget.close()
        model.set_session(None)
    return code
