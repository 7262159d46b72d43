"""What the desk's kept pictures share (issue 48): one event filter of each kind for the whole
application, watching each widget it keeps a picture of until the widget is destroyed."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget

Keeper = TypeVar("Keeper", bound=QObject)
Picture = TypeVar("Picture")

#: how many looks of each widget are kept: a widget that changes and changes back (the Combat
#: form's odds table and bar, with and without its odds, at every resolve: issue 48) puts
#: back each of them
KEPT_LOOKS = 4


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


def recall(
    pictures: dict[Any, dict[Hashable, Picture] | None],
    widget: QWidget,
    look: Hashable,
    draw: Callable[[], Picture | None],
) -> Picture | None:
    """The picture of ``widget``'s ``look``: kept, or ``draw``n now and kept with its last
    ``KEPT_LOOKS`` looks (the one least recently shown gives way); None when ``draw`` gives
    none (Qt draws the widget as always)."""
    looks = pictures.get(widget)
    if looks is None:
        looks = pictures[widget] = {}
    kept = looks.pop(look, None)
    if kept is None:
        kept = draw()
        if kept is None:
            return None
        if len(looks) >= KEPT_LOOKS:
            del looks[next(iter(looks))]
    looks[look] = kept  # the latest last
    return kept
