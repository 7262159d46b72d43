"""The Turn panel's look without its game: heading, sequence of play, who acts (issue 20).

``TurnView`` builds every widget the Turn panel shows, laid out as the live panel lays them
out, and fills them from a glance: what the panel showed when the desk last closed, as plain
data (``glance``, ``show_glance``). The desk paints it at start-up before the game's models,
pydantic and the ruleset are imported; ``TurnDock`` (``app.ui.docks.turn``) is this view with
the game. Nothing here needs a game.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.docks.glance_capture import (
    check_kind,
    label_glance,
    list_glance,
    malformed_as_value_error,
    need,
    scroll_glance,
    show_label,
    show_list,
    show_scroll,
)
from app.ui.message_bar import MessageBar

#: the tooltips of Next and Previous (the live panel's actions say the same)
NEXT_TIP = "Advance to the next step of the sequence of play (Space)"
PREVIOUS_TIP = "Go back one step (Shift+Space)"


class TurnView(QWidget):
    """The Turn panel's widgets with nothing in them: ``heading``, the Previous and Next
    buttons (``previous_button``, ``next_button``), the refusal bar (``message``), the
    sequence of play (``step_list``), what the current step says (``what``) and who acts now
    (``acting_title``, ``acting``).

    The buttons do nothing here; ``TurnDock`` connects them. ``glance()`` is what the view
    shows as plain data, ``show_glance(data)`` shows it again in a fresh view.
    """

    #: what ``glance`` writes; ``show_glance`` refuses another kind or version
    GLANCE_KIND = "turn"
    GLANCE_VERSION = 1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        font = QFont(self.heading.font())
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)

        self.step_list = QListWidget()
        self.step_list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.step_list.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        self.what = QLabel()
        self.what.setWordWrap(True)
        self.what.setTextFormat(Qt.TextFormat.PlainText)
        self.acting_title = QLabel("<b>Who acts now, in order</b>")
        self.acting = QListWidget()
        self.acting.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        for view in (self.step_list, self.acting):
            view.setMinimumHeight(60)

        self.previous_button = QPushButton("◀ Previous")
        self.previous_button.setToolTip(PREVIOUS_TIP)
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip(NEXT_TIP)
        self.next_button.setDefault(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.previous_button)
        buttons.addWidget(self.next_button)

        self.message = MessageBar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.step_list, 1)
        layout.addWidget(self.what)
        layout.addWidget(self.acting_title)
        layout.addWidget(self.acting, 2)

    # -- glance -------------------------------------------------------------------------------

    def _labels(self) -> dict[str, QLabel]:
        return {
            "heading": self.heading,
            "what": self.what,
            "acting_title": self.acting_title,
            "message": self.message,
        }

    def glance(self) -> dict[str, Any]:
        """What the panel shows, as plain (JSON-able) data: the heading, every line of the
        sequence of play and of who acts now (texts, tooltips, fonts, colours, the current
        line, the scroll positions), what the step says, the refusal bar and whether Previous
        and Next are enabled (issue 20)."""
        return {
            "kind": self.GLANCE_KIND,
            "version": self.GLANCE_VERSION,
            **{key: label_glance(label) for key, label in self._labels().items()},
            "steps": list_glance(self.step_list),
            "acting": list_glance(self.acting),
            "enabled": {
                "previous": self.previous_button.isEnabled(),
                "next": self.next_button.isEnabled(),
            },
        }

    def carry_to(self, live: TurnView) -> None:
        """The live Turn panel taking this glance's place at start-up keeps where the umpire
        had scrolled its lists (which lines are current follows from the game; issue 20)."""
        show_scroll(live.step_list, scroll_glance(self.step_list), "steps.scroll")
        show_scroll(live.acting, scroll_glance(self.acting), "acting.scroll")

    def show_glance(self, data: dict[str, Any]) -> None:
        """Show what ``glance`` captured (in a fresh view). A malformed glance raises
        ``ValueError`` saying what is wrong; the view may then be half filled."""
        with malformed_as_value_error(self.GLANCE_KIND):
            check_kind(data, self.GLANCE_KIND, self.GLANCE_VERSION)
            enabled = need(data, "enabled", dict, "turn")
            previous = need(enabled, "previous", bool, "turn.enabled")
            following = need(enabled, "next", bool, "turn.enabled")
            for key, label in self._labels().items():
                show_label(label, need(data, key, dict, "turn"), f"turn.{key}")
            show_list(self.step_list, need(data, "steps", dict, "turn"), where="turn.steps")
            show_list(self.acting, need(data, "acting", dict, "turn"), where="turn.acting")
            self.previous_button.setEnabled(previous)
            self.next_button.setEnabled(following)
