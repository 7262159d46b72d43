"""What the desk's kept pictures share (issue 48): one event filter of each kind for the whole
application, watching each widget it keeps a picture of until the widget is destroyed."""

from __future__ import annotations

from typing import Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget

Keeper = TypeVar("Keeper", bound=QObject)


def the_keeper(kind: type[Keeper]) -> Keeper | None:
    """The application's one filter of this kind, made with the first widget it keeps; None
    with no application."""
    app = QApplication.instance()
    if app is None:
        return None
    found = app.findChild(kind)
    return found if found is not None else kind(app)


def watch(keeper: QObject, pictures: dict[Any, Any], widget: QWidget) -> None:
    """``keeper`` filters ``widget``'s events, its picture (none yet) in ``pictures`` until
    the widget is destroyed."""
    if widget not in pictures:
        pictures[widget] = None
        widget.installEventFilter(keeper)
        widget.destroyed.connect(lambda _o=None, w=widget: pictures.pop(w, None))
