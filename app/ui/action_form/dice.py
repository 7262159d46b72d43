"""The dice of an action draft, typed at the table, painted from it (issue 43).

One field per die, or one for a pool of identical dice (issue 29); each field's text is the
draft's (``draft.die_text``) and each keystroke or paste goes to it (``draft.type_die``): a
pasted "3,4" fills two dice or is refused in place, never cut to "3,". A die the rules will not
roll with the dice typed before it says "not rolled". No length limit is set on a field: what
was typed is what shows. A field is as wide as what it says empty (its hint, "not rolled"), in
the type it is painted in: Table mode's larger type cut the hint ("1-10 (0 …").
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QLineEdit, QWidget

from app.core.dice import DiceSpec
from app.core.draft import ActionDraft, DieSlot, Entry, tokens
from app.ui.action_form.keys import desk_keys
from app.ui.shell.guest_worker import patient

#: a die field's placeholder for a die the rules will not roll with the dice typed before it
NOT_ROLLED = "not rolled"
#: the width a die field is given when its hint is narrower (one die, a pool of dice)
DIE_WIDTH, POOL_WIDTH = 90, 160


class DieField(QWidget):
    """One slot's field: the die and its purpose, the typed text, its error in place."""

    def __init__(self, slot: DieSlot, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setObjectName("die")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        self.error.hide()
        self.title = QLabel()
        self.title.setBuddy(self.edit)
        self.set_slot(slot)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.title)
        row.addWidget(self.edit)
        row.addWidget(self.error, 1)
        row.addStretch(0)  # the field beside its label, not pushed to the far side
        desk_keys(self.edit)
        self.edit.installEventFilter(self)  # its type or style changed: its width again

    def set_slot(self, slot: DieSlot) -> None:
        """The field for ``slot`` (a field of the slot before it, its text left to the
        draft's paint): the die, its purpose and its hint."""
        self.slot = slot
        self.spec: DiceSpec = slot.spec
        self.purpose = slot.label
        self.count = slot.count
        self.edit.setPlaceholderText(slot.hint)
        self.edit.setAccessibleName(f"{slot.name} for {slot.label}")
        self.edit.setAccessibleDescription(f"type the number rolled, {slot.hint}")
        #: the hint shown in the empty field (a die the rules skip says "not rolled" instead)
        self.placeholder = slot.hint
        self.title.setText(f"{slot.name}, {slot.label}:")
        self._fit()

    def _fit(self) -> None:
        """The field as wide as the widest text it says empty, in its type and style now: the
        room its frame and margins take is its size hint less the 17 "x" Qt sizes a line
        edit's text for."""
        fm = self.edit.fontMetrics()
        beside = self.edit.sizeHint().width() - 17 * fm.horizontalAdvance("x")
        need = max(fm.horizontalAdvance(t) for t in (self.placeholder, NOT_ROLLED)) + beside + 1
        self.edit.setMinimumWidth(need)
        self.edit.setMaximumWidth(max(need, DIE_WIDTH if self.count == 1 else POOL_WIDTH))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() in (
            QEvent.Type.FontChange,
            QEvent.Type.StyleChange,
        ):
            self._fit()
        return super().eventFilter(watched, event)

    def values(self) -> list[int] | None:
        """The faces the field shows as numbers (``None`` while one is not a whole number)."""
        faces = tokens(self.edit.text(), self.count)
        if not all(t.lstrip("-").isdigit() for t in faces):
            return None
        return [int(t) for t in faces]

    def value(self) -> int | None:
        vals = self.values()
        return vals[0] if vals and len(vals) == 1 else None


#: said where the dice would be when the action has none to type
NO_DICE = "This procedure rolls no dice."


class DiceView(QWidget):
    """The draft's die slots, when the players roll; "rolls no dice" when it has none, or,
    when a table cell the rules text does not print stops the dice being worked out, which.
    Painted by its panel (``paint`` after each change of the draft)."""

    def __init__(self, draft: ActionDraft, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.fields: list[DieField] = []
        self._slots: list[DieSlot] = []
        self._painting = False
        self.area = QWidget()
        self.grid = QGridLayout(self.area)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.no_dice = QLabel(NO_DICE)
        self.no_dice.setWordWrap(True)
        self.no_dice.setObjectName("no_dice")
        column = QGridLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.area, 0, 0)
        column.addWidget(self.no_dice, 1, 0)
        self.paint()

    def paint(self) -> None:
        d = self.draft
        slots = d.slots
        self._painting = True
        try:
            if slots != self._slots:
                self._build(slots)
            for i, f in enumerate(self.fields):
                skipped = i in d.skipped
                want = "" if skipped else d.die_text(i)
                if f.edit.text() != want:
                    f.edit.setText(want)
                f.setEnabled(not skipped)
                f.edit.setPlaceholderText(NOT_ROLLED if skipped else f.placeholder)
                err = "" if skipped else d.die_error(i)
                f.error.setText(err)
                f.error.setVisible(bool(err))
                style = "border: 1px solid #c62828;" if err else ""
                if f.edit.styleSheet() != style:  # set again, Qt polishes it again
                    f.edit.setStyleSheet(style)
                f.edit.setAccessibleDescription(err or f"type the number rolled, {f.placeholder}")
        finally:
            self._painting = False
        typed = d.players_roll
        self.area.setVisible(typed and bool(self.fields))
        p = d.prepared
        words = NO_DICE
        m = (p.missing or d.missing) if p is not None else None  # the odds may meet it first
        if m is not None:  # the dice wait for a cell the rules text does not print
            words = (
                f"The dice cannot be worked out until the value for {m.cell} in {m.table} "
                f"({m.rule}) is filled in (Tables editor)."
            )
        if self.no_dice.text() != words:
            self.no_dice.setText(words)
        self.no_dice.setVisible(
            typed and p is not None and p.inputs is not None and not self.fields
        )

    def _build(self, slots: list[DieSlot]) -> None:
        """A field per slot: a field there is takes the new slot when it is the same die
        (another line's roll: only its purpose differs, nothing is built); the others are
        made afresh or taken away."""
        cursor = next((i for i, f in enumerate(self.fields) if f.edit.hasFocus()), None)
        old, self.fields = self.fields, []
        self._slots = list(slots)
        for i, slot in enumerate(slots):
            f = old[i] if i < len(old) else None
            if f is not None and (f.spec, f.count) == (slot.spec, slot.count):
                f.set_slot(slot)
            else:
                if f is not None:
                    self._drop(f)
                f = DieField(slot)
                f.edit.textChanged.connect(lambda text, i=i: self._typed(i, text))
                f.edit.installEventFilter(self)
                self.grid.addWidget(f, i, 0)
                f.show()
            self.fields.append(f)
        for f in old[len(slots) :]:
            self._drop(f)
        for before, after in zip(self.fields, self.fields[1:], strict=False):
            QWidget.setTabOrder(before.edit, after.edit)
        if cursor is not None and self.fields:
            self.fields[min(cursor, len(self.fields) - 1)].edit.setFocus()

    def _drop(self, f: DieField) -> None:
        self.grid.removeWidget(f)
        f.hide()  # never a parentless window of its own (it kept the keyboard focus)
        f.deleteLater()

    @patient
    def _typed(self, index: int, text: str) -> None:
        if not self._painting:
            self.draft.type_die(index, text)

    def focus_die(self, index: int) -> None:
        if 0 <= index < len(self.fields):
            edit = self.fields[index].edit
            edit.setFocus(Qt.FocusReason.TabFocusReason)
            edit.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in a die goes on (the next die still to type, or resolve)."""
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            i = next((n for n, f in enumerate(self.fields) if f.edit is watched), None)
            if i is not None:
                self.draft.enter(Entry("die", index=i))
                return True
        return super().eventFilter(watched, event)
