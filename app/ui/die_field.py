"""A die rolled at the table, typed by the umpire: one field per die, refused in place."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from app.core.dice import DiceError, DiceSpec


class DieField(QWidget):
    """One typed die: a line edit with the die and its purpose, and its error in place."""

    def __init__(self, spec: DiceSpec, purpose: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec, self.purpose = spec, purpose
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(f"{spec.low}-{spec.high}")
        self.edit.setMaximumWidth(70)
        self.edit.setAccessibleName(f"{spec.die_name} for {purpose}")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        self.error.hide()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(f"{spec.die_name}, {purpose}:"))
        row.addWidget(self.edit)
        row.addWidget(self.error, 1)
        self.edit.textChanged.connect(lambda _t: self.check(required=False))

    def value(self) -> int | None:
        text = self.edit.text().strip()
        return int(text) if text.lstrip("-").isdigit() else None

    def check(self, required: bool) -> bool:
        """Whether the typed value is a face of this die; the reason shown in place if not."""
        text = self.edit.text().strip()
        message = ""
        if not text:
            message = "type the number rolled" if required else ""
        else:
            try:
                self.spec.read(int(text) if text.lstrip("-").isdigit() else text, self.purpose)
            except DiceError as e:
                message = str(e)
        self.error.setText(message)
        self.error.setVisible(bool(message))
        self.edit.setStyleSheet("border: 1px solid #c62828;" if message else "")
        return not message and bool(text)
