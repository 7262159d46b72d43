"""Game log: every action's narrative line, newest last; undone actions struck through."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.events import Envelope, Restored, Reverted
from app.session import undone_in
from app.ui.model import EngagementModel

ACTION_ROLE = Qt.ItemDataRole.UserRole


class GameLogDock(QWidget):
    """The log as the umpire reads it; a filter narrows it to lines containing some words."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._items: dict[int, list[QListWidgetItem]] = {}
        self._undone: set[int] = set()

        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the log…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.count = QLabel()
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.count)

        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # one line per action keeps a 20,000-line log quick to append to and scroll; the
        # tooltip and a wider panel show the rest of a long line
        self.list.setWordWrap(False)
        self.list.setUniformItemSizes(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.list)

        model.reset.connect(self.rebuild)
        model.appended.connect(self.add_envelopes)
        self.rebuild()

    # -- rendering ----------------------------------------------------------------------------

    def rebuild(self) -> None:
        self.list.clear()
        self._items.clear()
        events = self.model.session.events() if self.model.has_session else []
        self._undone = undone_in(events)
        self._add(events)
        self._finish()

    def add_envelopes(self, envelopes: Sequence[Envelope]) -> None:
        touched: set[int] = set()
        for env in envelopes:
            if isinstance(env.event, Reverted):
                self._undone.add(env.event.action)
                touched.add(env.event.action)
            elif isinstance(env.event, Restored):
                self._undone.discard(env.event.action)
                touched.add(env.event.action)
        self._add(envelopes)
        for action in touched:
            for item in self._items.get(action, []):
                self._style(item)
        self._finish()

    def _add(self, envelopes: Iterable[Envelope]) -> None:
        for env in envelopes:
            if not env.narrative:
                continue
            text = f"{env.time.astimezone():%H:%M:%S}  {env.narrative}"
            if env.rule and env.rule not in env.narrative:
                text += f"  [{env.rule}]"
            item = QListWidgetItem(text)
            action = env.seq if env.is_meta else env.action
            item.setData(ACTION_ROLE, action)
            item.setData(ACTION_ROLE + 1, env.is_meta)
            item.setToolTip(
                f"#{env.seq} by {env.actor}" + (f", rule {env.rule}" if env.rule else "")
            )
            self._items.setdefault(action, []).append(item)
            self.list.addItem(item)
            self._style(item)
            self._filter_item(item)

    def _style(self, item: QListWidgetItem) -> None:
        undone = item.data(ACTION_ROLE) in self._undone and not item.data(ACTION_ROLE + 1)
        font = item.font()
        font.setStrikeOut(undone)
        font.setItalic(bool(item.data(ACTION_ROLE + 1)))
        item.setFont(font)
        if undone:
            item.setForeground(self.palette().placeholderText())
            item.setToolTip(item.toolTip().split(" (undone)")[0] + " (undone)")
        else:
            item.setForeground(self.list.palette().text())
            item.setToolTip(item.toolTip().split(" (undone)")[0])

    def _finish(self) -> None:
        n = self.list.count()
        self.count.setText(f"{n} line{'s' if n != 1 else ''}")
        self.list.scrollToBottom()

    # -- reading ------------------------------------------------------------------------------

    def is_struck(self, row: int) -> bool:
        return self.list.item(row).font().strikeOut()

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _filter_item(self, item: QListWidgetItem) -> None:
        words = self.filter.text().lower().split()
        text = item.text().lower()
        item.setHidden(bool(words) and not all(w in text for w in words))

    def _apply_filter(self) -> None:
        for i in range(self.list.count()):
            self._filter_item(self.list.item(i))


if __name__ == "__main__":
    from app.ui.preview import preview

    raise SystemExit(preview(GameLogDock))
