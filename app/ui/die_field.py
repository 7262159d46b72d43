"""Dice rolled at the table, typed by the umpire: one field per die, or one field for a pool of
identical dice, each refused in place."""

from __future__ import annotations

import re

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from app.core.dice import DiceError, DiceSpec
from app.ui.forms import is_complete


class DieField(QWidget):
    """Typed dice: a line edit with the die and its purpose, and its error in place.

    One die (``count`` 1): a d10 takes 1-10, and 0 read as 10; "10" is one die. ``completed``
    is emitted when a typed value is a face no further digit could change (a 4 on a d6; a 1
    on a d10 stays, since it may become 10), so the desk moves to the next die. A value that
    does not fit the die ("11" on a d10, "7" on a d6) is refused in place: never split, never
    carried on to the next field (issue 28).

    A pool (``count`` > 1 identical dice, issue 29): the faces typed as one string, one digit
    a die ("345612"; a d10's 0 is its 10) or separated by spaces or commas ("3 4 5 6 1 2", "10
    4"); each is checked against the die, and the field is complete with ``count`` faces.
    """

    completed = Signal()

    def __init__(
        self, spec: DiceSpec, purpose: str, parent: QWidget | None = None, count: int = 1
    ) -> None:
        super().__init__(parent)
        self.spec, self.purpose, self.count = spec, purpose, count
        self.edit = QLineEdit()
        zero = " (0 = 10)" if spec.zero_reads else ""
        if count == 1:
            self.edit.setPlaceholderText(f"{spec.low}-{spec.high}{zero}")
            self.edit.setMaxLength(len(str(max(self.typeable))))
            self.edit.setMaximumWidth(90)
            name = spec.die_name
        else:
            self.edit.setPlaceholderText(f"{count} dice, e.g. {'1' * count}{zero}")
            self.edit.setMaximumWidth(160)
            name = f"{count}{spec.die_name}"
        self.edit.setAccessibleName(f"{name} for {purpose}")
        #: the hint shown in the empty field (a die the rules skip says "not rolled" instead)
        self.placeholder = self.edit.placeholderText()
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        self.error.hide()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(f"{name}, {purpose}:"))
        row.addWidget(self.edit)
        row.addWidget(self.error, 1)
        self.edit.textChanged.connect(lambda _t: self.check(required=False))
        self.edit.textEdited.connect(self._edited)

    @property
    def typeable(self) -> list[int]:
        """The numbers that may be typed for one die: its faces, and 0 where 0 reads as one."""
        faces = list(self.spec.faces)
        return sorted({*faces, 0} if self.spec.zero_reads is not None else set(faces))

    def _edited(self, text: str) -> None:
        text = text.strip()
        if self.count > 1:
            tokens = self._tokens(text)
            if tokens is not None and len(tokens) == self.count and self.check(required=False):
                self.completed.emit()
            return
        typeable = self.typeable
        if is_complete(text, min(typeable), max(typeable)) and self.check(required=False):
            self.completed.emit()

    def _tokens(self, text: str) -> list[str] | None:
        """The faces typed: separated by spaces or commas, else one character a die."""
        text = text.strip()
        if not text:
            return []
        if re.search(r"[\s,]", text):
            return [t for t in re.split(r"[\s,]+", text) if t]
        return list(text) if self.count > 1 else [text]

    def values(self) -> list[int] | None:
        """The faces typed as numbers (``None`` while one is not a whole number)."""
        tokens = self._tokens(self.edit.text())
        if tokens is None or not all(t.lstrip("-").isdigit() for t in tokens):
            return None
        return [int(t) for t in tokens]

    def value(self) -> int | None:
        """One die's typed number (``None`` if none, or not a whole number)."""
        vals = self.values()
        return vals[0] if vals and len(vals) == 1 else None

    def check(self, required: bool) -> bool:
        """Whether the typed values are faces of this die, as many as there are dice; the
        reason is shown in place if not."""
        text = self.edit.text().strip()
        message = ""
        if not text:
            message = "type the number rolled" if required else ""
        else:
            tokens = self._tokens(text) or []
            try:
                for t in tokens:
                    self.spec.read(int(t) if t.lstrip("-").isdigit() else t, self.purpose)
            except DiceError as e:
                message = str(e)
            if not message and self.count > 1:
                if len(tokens) > self.count:
                    message = f"{len(tokens)} dice typed, {self.count} rolled"
                elif required and len(tokens) < self.count:
                    message = f"{len(tokens)} of {self.count} dice typed"
        self.error.setText(message)
        self.error.setVisible(bool(message))
        self.edit.setStyleSheet("border: 1px solid #c62828;" if message else "")
        return not message and bool(text)
