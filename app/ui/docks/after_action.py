"""The After-action panel (issue 35): the game in plots, luck and dice at the table.

A light shell until it is first seen: building it imports neither pyqtgraph nor numpy, so
the desk (which builds its panels as they come into view, and every panel in the tests)
pays nothing for it; the first time its dock comes into view (a tab behind the Game log is
"shown" by Qt off the screen: its dock's ``visibilityChanged`` says when it is really seen)
it loads ``app.ui.after_action.view`` and reads the game's log. Out of view it does no work
(``WhenShown``); in view, actions redraw it a moment after they stop coming (a long log is
read again only then).

A click on a point shows that point's log line in the panel and emits ``log_line(action)``.
On the Dice tab the umpire names the dice a side or a player rolls (``GameSession.set_dice``,
a record in the log): the rolls typed from then on are checked per those dice.

Run alone on the demo engagement: ``python -m app.ui.docks.after_action``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QVBoxLayout, QWidget

from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown

if TYPE_CHECKING:
    from app.ui.after_action.view import AfterActionView

#: milliseconds after the last action before a shown panel reads the log again
REDRAW_AFTER_MS = 400
#: what the panel says until it is first seen, and while its plots load
NOT_YET = "The plots are drawn when this panel is first shown."
LOADING = "Loading the plots…"


def preload() -> bool:
    """Import the plots' modules (pyqtgraph, numpy) now, so the panel draws at once when it is
    first shown: the desk calls it in the idle time after its first paint (issue 47); False
    in an installation without them."""
    try:
        import app.ui.after_action.view  # noqa: F401
    except ImportError:
        return False
    return True


class _BuiltWhenSeen(WhenShown):
    """``WhenShown`` that also builds the panel's plots the first time its dock is seen."""

    def __init__(self, panel: AfterActionDock) -> None:
        super().__init__(panel, panel.refresh)
        self.panel = panel
        self.docked = False

    def attach(self, dock: QDockWidget, shown: bool = False) -> None:
        super().attach(dock, shown)
        self.docked = True
        dock.visibilityChanged.connect(self._seen)
        if self.on_screen:
            self.panel.build_soon()

    def _seen(self, on: bool) -> None:
        if on:
            self.panel.build_soon()


class AfterActionDock(QWidget):
    #: a point was clicked: the action it came from (its first event's sequence number)
    log_line = Signal(int)

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.view: AfterActionView | None = None
        self.waiting = QLabel(NOT_YET)
        self.waiting.setObjectName("after_action_waiting")
        self.waiting.setWordWrap(True)
        self.waiting.setAccessibleName("After-action plots")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.waiting)
        self.when_shown = _BuiltWhenSeen(self)
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(REDRAW_AFTER_MS)
        self._later.timeout.connect(self.refresh)
        model.reset.connect(self.when_shown.wrap(self.refresh))
        model.appended.connect(self.when_shown.wrap(lambda _envs: self._later.start()))

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self.view is None and not self.when_shown.docked:  # alone: a preview, a test
            self.build()

    def build_soon(self) -> None:
        """The panel comes into view: it says "Loading the plots…" at once, and builds them as
        soon as that is painted (issue 47: it stayed blank while pyqtgraph loaded)."""
        if self.view is not None:
            return
        self.waiting.setText(LOADING)
        QTimer.singleShot(0, self.build)

    def build(self) -> AfterActionView | None:
        """The plots, built now (pyqtgraph imported) and filled with the game; None, and the
        panel says why, in an installation without pyqtgraph or numpy."""
        if self.view is None:
            try:
                from app.ui.after_action.view import AfterActionView
            except ImportError as e:
                self.waiting.setText(
                    "The After-action plots need pyqtgraph and numpy, which this installation "
                    f"does not have ({e}). The rest of the desk works without them."
                )
                return None
            self.view = AfterActionView(self)
            self.view.log_line.connect(self.log_line)
            self.view.log_line.connect(self.model.show_log_line)  # the Game log follows
            self.view.dice_named.connect(self.name_dice)
            self.view.ruling_asked.connect(self.open_ruling)
            self._layout.removeWidget(self.waiting)
            self.waiting.deleteLater()
            self._layout.addWidget(self.view)
            self.refresh()
        return self.view

    def open_ruling(self, action: int) -> None:
        """The ruling of a clicked point's action, in its own window (issue 34)."""
        from app.ui.dialogs.ruling import open_ruling

        self.ruling_window = open_ruling(self.model, action, self)

    @patient
    def refresh(self) -> None:
        """Read the game's log again and redraw (nothing until the panel was first shown)."""
        self._later.stop()
        if self.view is None:
            return
        from app.ui.after_action.data import GameReading

        model = self.model
        self.view.show_reading(
            GameReading(model.game_log, model.clock) if model.has_session else None
        )
        self.view.dice_set_button.setEnabled(model.can_act)
        self.view.dice_name.setEnabled(model.can_act)

    def name_dice(self, side: str, aircraft: str, dice: str) -> bool:
        """From now on ``side``'s rolls (``aircraft``'s, if given) are rolled with ``dice``: a
        record in the log; a refusal is said in the panel (and to the desk). True if done."""
        refused: list[str] = []
        say = refused.append
        self.model.refused.connect(say)
        try:

            def set_dice() -> bool:
                self.model.roster.set_dice(side, dice, aircraft or None)
                return True

            done = self.model.attempt(set_dice)
        finally:
            self.model.refused.disconnect(say)
        if self.view is not None:
            whose = self.view.dice_who.currentText().strip() or side
            self.view.line.setText(
                f"The dice were not named: {refused[0]}" if refused else
                f"Dice named for {whose}: {' '.join(dice.split())}." if dice.strip() else
                f"Dice no longer named for {whose}."
            )  # fmt: skip
        return bool(done)


if __name__ == "__main__":  # the panel alone on the demo engagement
    import tempfile
    from pathlib import Path

    from app.startup.demo import create_demo_game
    from app.ui.shell.qt_app import application

    app = application()
    session = create_demo_game(Path(tempfile.mkdtemp()) / "demo.airboss")
    panel = AfterActionDock(EngagementModel(session))
    panel.resize(900, 600)
    panel.show()
    app.exec()
