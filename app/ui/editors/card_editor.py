"""The card editor: an aircraft type's card data, edited in a form generated from the ruleset's
``Card`` model and saved into the umpire's own catalogue (``app.core.data.save_aircraft``).

The card's own tables (speeds, manoeuvres, missiles, guns, hard points) are grids of cells
(``card_tables.CardTable``); the whole card is validated by the ruleset's model and a wrong cell
is marked and named in place, and named again when saving is refused.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError
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

from app.core.data import MISSING, own_aircraft_path, save_aircraft
from app.core.errors import DataFileError, problem_text
from app.core.ruleset import Ruleset
from app.ui.editors.card_tables import MISSING_CSS, NOT_PRINTED, CardTable, shape_of
from app.ui.editors.forms import InputForm
from app.ui.widgets.message_bar import MessageBar

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
        #: the values the rules text does not print, named (issue 43: marked as the Tables
        #: editor marks an unprinted cell)
        self.missing_note = QLabel()
        self.missing_note.setObjectName("missing_note")
        self.missing_note.setWordWrap(True)
        self.missing_note.setStyleSheet(f"background: {MISSING_CSS}; padding: 4px;")
        self.missing_note.hide()
        layout.addWidget(self.missing_note)
        self._tips: dict[str, str] = {}
        fields = ruleset.Card.model_fields
        self.tables: dict[str, CardTable] = {
            n: CardTable(n, info) for n, info in fields.items() if shape_of(info.annotation)
        }
        self.form = InputForm(ruleset.Card, exclude=self.tables, fixed=self._table_values())
        self.form.setObjectName("card_form")
        body = QWidget()
        col = QVBoxLayout(body)
        col.addWidget(self.form)
        for name, table in self.tables.items():
            heading = QLabel(f"<b>{self.form_title(name)}</b>")
            heading.setBuddy(table.table)
            col.addWidget(heading)
            col.addWidget(table)
            table.changed.connect(lambda: self.form.set_fixed(self._table_values()))
        col.addStretch(1)
        self.card_error = QLabel()
        self.card_error.setObjectName("card_error")
        self.card_error.setWordWrap(True)
        self.card_error.setStyleSheet("color: #c62828;")
        self.card_error.hide()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops on what is inside it only
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.card_error)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        row.addWidget(self.status, 1)
        self.save_button = QPushButton("&Save to my catalogue")
        self.save_button.setObjectName("save")
        row.addWidget(self.save_button)
        layout.addLayout(row)
        self.resize(760, 700)

        self.types.currentIndexChanged.connect(self._load)
        self.type_id.textChanged.connect(lambda _t: self._check_id())
        self.form.changed.connect(lambda _v: self._validate())
        self.save_button.clicked.connect(self.save)
        QShortcut(QKeySequence.StandardKey.Save, self).activated.connect(self.save)
        if type_id is not None and self.types.findData(type_id) >= 0:
            self.types.setCurrentIndex(self.types.findData(type_id))
        self._validate()

    def form_title(self, name: str) -> str:
        info = self.ruleset.Card.model_fields[name]
        return info.title or name.replace("_", " ").capitalize()

    def _table_values(self) -> dict[str, Any]:
        return {n: t.value() for n, t in self.tables.items()}

    def _validate(self) -> None:
        """Validate the whole card; mark each wrong table cell and name it below."""
        self.status.clear()
        self.form.general_error.hide()  # the tables' errors are shown in their cells
        self.errors: list[str] = []
        per_table: dict[str, dict[tuple[int, int], str]] = {n: {} for n in self.tables}
        general: dict[str, list[str]] = {n: [] for n in self.tables}
        try:
            self.card: BaseModel | None = self.ruleset.Card.model_validate(self.form.raw_values())
        except ValidationError as e:
            self.card = None
            for err in e.errors():
                loc = err["loc"]
                name = str(loc[0]) if loc else ""
                if name not in self.tables:
                    continue
                cell = self.tables[name].locate(loc[1:])
                if cell is None:
                    general[name].append(f"{self.form_title(name)}: {problem_text(err)}")
                else:
                    per_table[name].setdefault(cell, problem_text(err))
        except ValueError as e:
            self.card = None
            self.errors.append(str(e))
        for name, table in self.tables.items():
            table.mark(per_table[name], "; ".join(dict.fromkeys(general[name])))
            if table.error.text():
                self.errors.append(table.error.text())
        self.card_error.setText("; ".join(self.errors))
        self.card_error.setVisible(bool(self.errors))
        self._mark_missing()

    def _mark_missing(self) -> None:
        """Mark every value the rules text does not print (``"missing"``: a Medium UFO's
        anti-grav rating, its ray guns) as the Tables editor marks an unprinted cell, and name
        them above the card (issue 43); a value typed over it is unmarked at once."""
        raw = self.form.raw_values()
        said: list[str] = []
        for name in self.form.names:
            w = self.form.editor(name)
            missing = raw.get(name) == MISSING
            if missing:
                said.append(self.form.title(name))
                self._tips.setdefault(name, w.toolTip())
                w.setToolTip(f"{NOT_PRINTED}. {self._tips[name]}".strip())
                if not self.form.error_text(name):
                    w.setStyleSheet(f"background: {MISSING_CSS};")
            elif name in self._tips:
                w.setToolTip(self._tips.pop(name))
                if not self.form.error_text(name):
                    w.setStyleSheet("")
        for name, table in self.tables.items():
            if table.mark_missing(table.placeholder == MISSING):
                said.append(self.form_title(name))
        self.missing_note.setText(
            "Not printed in the rules text (marked): "
            + ", ".join(said)
            + ". Type the values from your copy of the game."
            if said
            else ""
        )
        self.missing_note.setVisible(bool(said))

    def _load(self, *_: object) -> None:
        tid = self.types.currentData()
        self.message.clear_refusal()
        if not tid:
            self.type_id.clear()
            return
        card = self.ruleset.aircraft[tid]
        self.type_id.setText(tid)
        values = card.model_dump(mode="json")
        for name, table in self.tables.items():
            table.set_value(values.get(name))
        self.form.fixed = self._table_values()
        self.form.set_values(values)  # validates the whole card (``_validate``)

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
        self._validate()
        card = self.card if self.form.value() is not None else None
        if tid is None or card is None:
            form_errors = [
                f"{self.form.title(n)}: {self.form.error_text(n)}"
                for n in self.form.names
                if self.form.error_text(n)
            ]
            if not form_errors and self.form.value() is None and not self.errors:
                form_errors = [self.form.error_text()]
            reasons = [r for r in (self.type_error.text(), *form_errors, *self.errors) if r]
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
        if self.types.findData(tid) < 0:
            # a new type is at once a type to start the next card from
            self.types.blockSignals(True)
            self.types.addItem(tid, tid)
            self.types.blockSignals(False)
        self.saved.emit(tid)


if __name__ == "__main__":
    import sys

    from app.plugins import load_ruleset
    from app.ui.shell.qt_app import application

    app = application()
    editor = CardEditor(load_ruleset(sys.argv[1] if len(sys.argv) > 1 else "phantoms"))
    editor.show()
    raise SystemExit(app.exec())
