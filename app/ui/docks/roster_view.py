"""The Roster's look without its game: sides, aircraft, badges and toolbar (issue 20).

``RosterView`` builds every widget the Roster shows, laid out as the live panel lays them out,
and fills them from a glance: what the Roster showed when the desk last closed, as plain data
(``glance``, ``show_glance``). The desk paints it at start-up before the game's models, pydantic
and the ruleset are imported; ``RosterDock`` (``app.ui.docks.roster``) is this view with the
game: it fills it from the engagement and connects the actions. Nothing here needs a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolBar,
    QToolButton,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.status import PILOT_QUALITIES, Status
from app.ui.docks.glance_capture import (
    carry_tree,
    check_kind,
    label_glance,
    malformed_as_value_error,
    need,
    show_label,
    show_tree,
    tree_glance,
)
from app.ui.message_bar import MessageBar

NAME, TYPE, PILOT, STATUS, DAMAGE = range(5)
HEADERS = ("Aircraft", "Type", "Pilot", "Status", "Damage")
ID_ROLE = Qt.ItemDataRole.UserRole
STATUS_ROLE = Qt.ItemDataRole.UserRole + 1

#: badge text and colour for each status flag the desk knows; others get a grey badge
BADGES: dict[str, tuple[str, str]] = {
    Status.ON_FIRE: ("FIRE", "#d84315"),
    Status.OUT_OF_CONTROL: ("OOC", "#8e24aa"),
    Status.WOUNDED: ("WND", "#f9a825"),
    Status.DESTROYED: ("DEST", "#212121"),
    Status.EJECTED: ("EJ", "#1565c0"),
    Status.BROKEN_OFF: ("OFF", "#607d8b"),
    Status.CRASHED: ("CRSH", "#4e342e"),
    Status.PILOT_KILLED: ("KIA", "#000000"),
    Status.ENGINE_DAMAGED: ("ENG", "#ef6c00"),
    Status.LOADED: ("LOAD", "#2e7d32"),
}
#: the order badges are drawn in (most serious first)
BADGE_ORDER = list(BADGES)


#: the data roles of a row a glance keeps: the aircraft's id and its badges
GLANCE_ROLES = (ID_ROLE, STATUS_ROLE)
#: the toolbar's controls whose enabled state a glance keeps
ENABLED_KEYS = ("add", "rename", "remove", "pilot")

#: columns sized to their contents (see ``RosterView.__init__``)
FITTED = (TYPE, PILOT, DAMAGE)


def status_words(status: Iterable[str]) -> str:
    """The status flags as words, most serious first: ``on fire, wounded``."""
    ordered = sorted(status, key=lambda s: (BADGE_ORDER.index(s) if s in BADGES else 99, s))
    return ", ".join(s.replace("_", " ") for s in ordered)


def badge(flag: str) -> tuple[str, str]:
    return BADGES.get(flag, (flag.replace("_", " ")[:5].upper(), "#757575"))


def badge_flags(index: QModelIndex | QPersistentModelIndex) -> list[str]:
    """The status flags stored on a roster cell (a comma-joined string)."""
    return [f for f in str(index.data(STATUS_ROLE) or "").split(",") if f]


class StatusBadges(QStyledItemDelegate):
    """Paints the status column as small coloured badges (FIRE, OOC, WND, DEST, EJ, OFF)."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """The cell as any other (background, selection, focus) but without its words: the
        badges say them."""
        super().initStyleOption(option, index)
        option.text = ""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        super().paint(painter, option, index)
        flags = badge_flags(index)
        if not flags:
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont(opt.font)
        font.setBold(True)
        font.setPointSizeF(max(6.0, opt.font.pointSizeF() * 0.8))
        painter.setFont(font)
        metrics = painter.fontMetrics()
        x = opt.rect.x() + 3
        h = min(opt.rect.height() - 4, metrics.height() + 2)
        y = opt.rect.y() + (opt.rect.height() - h) // 2
        for flag in flags:
            text, colour = badge(flag)
            w = metrics.horizontalAdvance(text) + 8
            rect = QRect(x, y, w, h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(colour))
            painter.drawRoundedRect(rect, 3, 3)
            painter.setPen(QColor("white"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            x += w + 3
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        base = super().sizeHint(option, index)
        flags = badge_flags(index)
        metrics = option.fontMetrics
        width = sum(metrics.horizontalAdvance(badge(f)[0]) + 11 for f in flags) + 6
        return QSize(max(base.width(), width), base.height())


class RosterView(QWidget):
    """The Roster's widgets with nothing in them: a tree of sides and aircraft (``tree``), the
    toolbar (``add_action``, ``rename_action``, ``pilot_button`` with ``pilot_menu`` and its
    ``pilot_actions``, ``remove_action``) and the refusal bar (``message``).

    The actions do nothing here; ``RosterDock`` connects them. ``glance()`` is what the view
    shows as plain data, ``show_glance(data)`` shows it again in a fresh view.
    """

    #: what ``glance`` writes; ``show_glance`` refuses another kind or version
    GLANCE_KIND = "roster"
    GLANCE_VERSION = 1

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(HEADERS))
        self.tree.setHeaderLabels(HEADERS)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setItemDelegateForColumn(STATUS, StatusBadges(self.tree))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        # sized to their contents when the roster is built and when a changed row needs more:
        # ResizeToContents would measure all 200 rows on every change (issue 20)
        for col in FITTED:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        # a fixed width for three badges: sizing this column to its contents would measure every
        # row's badges on every change (200 aircraft); the full list is in the tooltip
        header.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.Interactive)
        three = sum(self.fontMetrics().horizontalAdvance(t) + 11 for t in ("FIRE", "OOC", "WND"))
        header.resizeSection(STATUS, three + 6)

        self.add_action = self._action("Add…", "Insert")
        self.add_action.setToolTip("Add an aircraft from the ruleset's catalogue (Insert)")
        self.rename_action = self._action("Rename", "F2")
        self.remove_action = self._action("Remove", "Delete")
        self.remove_action.setToolTip("Remove the selected aircraft (undoable) (Delete)")
        self.pilot_menu = QMenu("Pilot", self)
        self.pilot_actions: dict[str, QAction] = {}
        for quality in PILOT_QUALITIES:
            self.pilot_actions[quality] = self.pilot_menu.addAction(quality)
        self.pilot_button = QToolButton()
        self.pilot_button.setText("Pilot")
        self.pilot_button.setMenu(self.pilot_menu)
        self.pilot_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.pilot_button.setToolTip("Change the pilot quality of the selected aircraft")

        bar = QToolBar()
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        bar.addAction(self.add_action)
        bar.addAction(self.rename_action)
        bar.addWidget(self.pilot_button)
        bar.addAction(self.remove_action)

        self.message = MessageBar()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(bar)
        layout.addWidget(self.tree)
        layout.addWidget(self.message)

    def _action(self, text: str, key: str) -> QAction:
        act = QAction(text, self)
        act.setShortcut(QKeySequence(key))
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.addAction(act)
        return act

    # -- glance -------------------------------------------------------------------------------

    def glance(self) -> dict[str, Any]:
        """What the roster shows, as plain (JSON-able) data: every side and aircraft row with
        its texts, tooltips, badges (``STATUS_ROLE``), ids (``ID_ROLE``), fonts and colours,
        the header's widths, what is expanded, selected and current, the scroll position, the
        refusal bar and which toolbar actions are enabled (issue 20)."""
        return {
            "kind": self.GLANCE_KIND,
            "version": self.GLANCE_VERSION,
            "tree": tree_glance(self.tree, GLANCE_ROLES),
            "message": label_glance(self.message),
            "enabled": {
                "add": self.add_action.isEnabled(),
                "rename": self.rename_action.isEnabled(),
                "remove": self.remove_action.isEnabled(),
                "pilot": self.pilot_button.isEnabled(),
            },
        }

    def carry_to(self, live: RosterView) -> None:
        """The live roster taking this glance's place at start-up keeps the selection, the
        current aircraft and the scroll position the umpire left (issue 20)."""
        carry_tree(self.tree, live.tree)

    def show_glance(self, data: dict[str, Any]) -> None:
        """Show what ``glance`` captured (in a fresh view). A malformed glance raises
        ``ValueError`` saying what is wrong; the view may then be half filled."""
        with malformed_as_value_error(self.GLANCE_KIND):
            check_kind(data, self.GLANCE_KIND, self.GLANCE_VERSION)
            enabled = need(data, "enabled", dict, "roster")
            states = {key: need(enabled, key, bool, "roster.enabled") for key in ENABLED_KEYS}
            show_tree(self.tree, need(data, "tree", dict, "roster"), GLANCE_ROLES, "roster.tree")
            show_label(self.message, need(data, "message", dict, "roster"), "roster.message")
            self.add_action.setEnabled(states["add"])
            self.rename_action.setEnabled(states["rename"])
            self.remove_action.setEnabled(states["remove"])
            self.pilot_button.setEnabled(states["pilot"])
