"""Panels that are hidden or tabbed away do no work until they are shown (issue 20).

``WhenShown(rebuild)`` wraps a panel's handlers of the model's signals. Once the main window
has put the panel in its dock (``attach``), the dock's ``visibilityChanged`` says whether the
umpire can see it: while it can, the handlers run as before; while it is hidden or tabbed away
the first signal only marks it stale, and the panel rebuilds itself in full (``rebuild``) when
it comes back into view. A panel not in a dock (a preview, a test) always does its work.

Handlers that keep what the umpire typed (the Combat form's aircraft list, the Initiative
roll) use ``unless_stale`` instead: they run in view or not, except while a rebuild is pending,
which would redo their work. What the desk asks of a panel from outside (open a procedure,
roll, print) first calls ``fresh`` so it never acts on a panel still showing an old game;
``rebuilt`` lets the desk give a rebuilt panel the roster's selection again.

Every handler wrapped is one of the desk's actions (``guest_worker.patient``, issue 44): a
ruleset call it makes that has to be waited for does not stop the event loop; the handler is
run again once the call has answered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget

from app.ui.shell.guest_worker import patient


class WhenShown(QObject):
    #: the panel has just rebuilt itself in full
    rebuilt = Signal()

    def __init__(self, parent: QObject, rebuild: Callable[[], None]) -> None:
        super().__init__(parent)
        self.rebuild = rebuild
        #: the umpire can see the panel (as far as its dock says)
        self.on_screen = True
        #: a signal came while out of view: rebuild when back in view
        self.stale = False

    def attach(self, dock: QDockWidget, shown: bool = False) -> None:
        """Follow the dock the panel lives in; ``shown``: it is coming into view now (its
        ``visibilityChanged`` is being sent), whatever Qt says of it yet."""
        dock.visibilityChanged.connect(self._visible)
        self.on_screen = shown or in_view(dock)

    def wrap(self, handler: Callable[..., Any]) -> Callable[..., None]:
        """``handler`` while the panel is in view; otherwise remember to rebuild."""

        @patient
        def run(*args: Any) -> None:
            if self.on_screen:
                handler(*args)
            else:
                self.stale = True

        return run

    def unless_stale(self, handler: Callable[..., Any]) -> Callable[..., None]:
        """``handler`` in view or not, unless a rebuild is pending (it would redo the work)."""

        @patient
        def run(*args: Any) -> None:
            if not self.stale:
                handler(*args)

        return run

    def fresh(self) -> None:
        """Rebuild now if a signal came while out of view (in view or not)."""
        if self.stale:
            self.stale = False
            self.rebuild()
            self.rebuilt.emit()

    @patient
    def _visible(self, on: bool) -> None:
        self.on_screen = on
        if on:
            self.fresh()


def in_view(dock: QDockWidget) -> bool:
    """The umpire can see some of the dock (a dock tabbed away can still count as visible)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()
