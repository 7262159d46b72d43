"""A die rolled at the table, typed by the umpire: one field per die, refused in place."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from app.core.dice import DiceError, DiceSpec
from app.ui.forms import is_complete


class DieField(QWidget):
    """One typed die: a line edit with the die and its purpose, and its error in place.

    A d10 takes 1-10, and 0 read as 10; "10" is one die. ``completed`` is emitted when a
    typed value is a face no further digit could change (a 4 on a d6; a 1 on a d10 stays,
    since it may become 10), so the desk moves to the next die. A value that does not fit the
    die ("11" on a d10, "7" on a d6) is refused in place: never split, never carried on to
    the next field (issue 28).
    """

    completed = Signal()

    def __init__(self, spec: DiceSpec, purpose: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec, self.purpose = spec, purpose
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(
            f"{spec.low}-{spec.high}" + (" (0 = 10)" if spec.zero_reads else "")
        )
        self.edit.setMaxLength(len(str(max(self.typeable))))
        self.edit.setMaximumWidth(90)
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
        self.edit.textEdited.connect(self._edited)

    @property
    def typeable(self) -> list[int]:
        """The numbers that may be typed for this die: its faces, and 0 where 0 reads as one."""
        faces = list(self.spec.faces)
        return sorted({*faces, 0} if self.spec.zero_reads is not None else set(faces))

    def _edited(self, text: str) -> None:
        text = text.strip()
        typeable = self.typeable
        if is_complete(text, min(typeable), max(typeable)) and self.check(required=False):
            self.completed.emit()

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
