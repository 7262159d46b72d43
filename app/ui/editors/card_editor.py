"""The card editor: an aircraft type's card data, edited in a form generated from the ruleset's
``Card`` model and saved into the umpire's own catalogue (``app.core.data.save_aircraft``).
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.data import DataFileError, own_aircraft_path, save_aircraft
from app.core.ruleset import Ruleset
from app.ui.forms import InputForm
from app.ui.message_bar import MessageBar

NEW_TYPE = "(a new type)"
TYPE_ID = re.compile(r"[a-z0-9][a-z0-9_\-]*")


class CardEditor(QWidget):
    """Pick a type from the catalogue (or start a new one), edit its card, Save (Ctrl+S)."""

    saved = Signal(str)

    def __init__(
        self, ruleset: Ruleset, parent: QWidget | None = None, type_id: str | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("CardEditor")
        self.setWindowTitle(f"Aircraft cards: {ruleset.title}")
        self.ruleset = ruleset

        layout = QVBoxLayout(self)
        self.message = MessageBar()
        layout.addWidget(self.message)
        top = QFormLayout()
        self.types = QComboBox()
        self.types.setObjectName("types")
        self.types.addItem(NEW_TYPE, "")  # never None: see docks.critical_log.ALL
        for tid in ruleset.aircraft:
            self.types.addItem(tid, tid)
        top.addRow("&Start from", self.types)
        self.type_id = QLineEdit()
        self.type_id.setObjectName("type_id")
        self.type_id.setPlaceholderText("a short id: lower case, digits, - and _ (e.g. f4e)")
        top.addRow("Type &id", self.type_id)
        self.type_error = QLabel()
        self.type_error.setObjectName("type_error")
        self.type_error.setStyleSheet("color: #c62828;")
        self.type_error.hide()
        top.addRow(self.type_error)
        layout.addLayout(top)
        self.form = InputForm(ruleset.Card)
        self.form.setObjectName("card_form")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        layout.addWidget(scroll, 1)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        row.addWidget(self.status, 1)
        self.save_button = QPushButton("&Save to my catalogue")
        self.save_button.setObjectName("save")
        row.addWidget(self.save_button)
        layout.addLayout(row)
        self.resize(560, 640)

        self.types.currentIndexChanged.connect(self._load)
        self.type_id.textChanged.connect(lambda _t: self._check_id())
        self.form.changed.connect(lambda _v: self.status.clear())
        self.save_button.clicked.connect(self.save)
        QShortcut(QKeySequence.StandardKey.Save, self).activated.connect(self.save)
        if type_id is not None and self.types.findData(type_id) >= 0:
            self.types.setCurrentIndex(self.types.findData(type_id))

    def _load(self, *_: object) -> None:
        tid = self.types.currentData()
        self.message.clear_refusal()
        if not tid:
            self.type_id.clear()
            return
        card = self.ruleset.aircraft[tid]
        self.type_id.setText(tid)
        self.form.set_values(card.model_dump(mode="json"))

    def _check_id(self) -> str | None:
        tid = self.type_id.text().strip()
        if not tid:
            why = "give the type an id"
        elif not TYPE_ID.fullmatch(tid):
            why = f"{tid!r}: use lower-case letters, digits, - and _ only"
        else:
            why = ""
        self.type_error.setText(why)
        self.type_error.setVisible(bool(why))
        return None if why else tid

    def save(self) -> None:
        """Validate the card and write it into the umpire's catalogue."""
        tid = self._check_id()
        card = self.form.value()
        if tid is None or card is None:
            reasons = [r for r in (self.type_error.text(), self.form.error_text()) if r]
            self.message.show_refusal("Not saved: " + "; ".join(reasons))
            return
        known = tid in self.ruleset.aircraft
        had_own = own_aircraft_path(self.ruleset.id, tid).exists()
        try:
            path = save_aircraft(self.ruleset.id, tid, card)
        except (OSError, DataFileError) as e:
            self.message.show_refusal(f"Not saved: {e}")
            return
        self.message.clear_refusal()
        # a type of the umpire's own, saved again, replaces only the umpire's earlier card
        replaced = (
            " (it replaces your earlier card of that type)"
            if had_own
            else " (it replaces the shipped card of that type)"
            if known
            else " (a new type)"
        )
        self.status.setText(f"Saved {tid} to {path}{replaced}")
        self.saved.emit(tid)


if __name__ == "__main__":
    import sys

    from app.plugins import load_ruleset
    from app.ui.qt_app import application

    app = application()
    editor = CardEditor(load_ruleset(sys.argv[1] if len(sys.argv) > 1 else "phantoms"))
    editor.show()
    raise SystemExit(app.exec())
