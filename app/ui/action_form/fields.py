"""The fields of an action draft, painted from it (issue 43).

Each field's text is ``draft.text(name)`` and each keystroke is ``draft.type_text`` (a pick,
``draft.pick``): no widget keeps a value of its own, so the text the umpire reads is the value
the action resolves with. Whole numbers are typed in line edits, never spin boxes: a spin box
keeps a number its text does not show, and clamps or drops what it cannot hold; here "44" in a
0-6 field stays "44", refused in place. Values read off the cards, the board or the game are
read-only until overridden (the log records the override).

The rows of the last few forms are kept built (issue 48, "Fast"): a resolve that makes a roll
owed opens the other procedure, and the umpire comes back to the attack next; each comes back
as it was built, painted from the draft again, not built afresh (26 to 30 ms a resolve).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.draft import ActionDraft, Entry
from app.core.field_text import render
from app.ui.action_form.keys import desk_keys
from app.ui.widgets.wheel_guard import guard_wheel

#: a picker's first item while nothing is picked (a string, never None, as item data)
PICK = "\x00pick"
#: an optional picker's "(none)" item
NONE = "\x00none"
ERROR_STYLE = "border: 1px solid #c62828;"
#: how many forms are kept built, the one shown among them: the longest round the desk makes
#: before it comes back to a form is Phantoms' (an attack, the critical hit it owes, the
#: ejection a lost aircraft owes, and the attack of another kind that comes next: 8.1, 8.2);
#: the one least recently shown gives way, so the widgets kept stay bounded
KEPT_FORMS = 4


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, Enum):
        a = a.value
    if isinstance(b, Enum):
        b = b.value
    return bool(a == b)


class _Row:
    """One field: its editor, label, override button, error and note."""

    def __init__(self, form: DraftForm, name: str) -> None:
        d = form.draft
        self.name = name
        self.kind = d.kind(name)
        self.form = form
        p = d.prepared
        assert p is not None
        self.title = p.value(name).title
        self.options: tuple[tuple[Any, str], ...] = (
            d.options(name) if self.kind in ("choice", "multi") else ()
        )
        self.widget = self._editor()
        self.widget.setObjectName(f"field_{name}")
        self.widget.setAccessibleName(self.title)
        info = d.proc.Inputs.model_fields[name] if d.proc is not None else None
        tip = info.description if info is not None and info.description else ""
        if tip:
            self.widget.setToolTip(tip)
        self.label = QLabel(self.title)
        self.label.setBuddy(self.widget)
        if tip:
            self.label.setToolTip(tip)
        self.override = QToolButton()
        self.override.setObjectName(f"override_{name}")
        self.override.setText("✎")
        self.override.setAccessibleName(f"Override {self.title}")
        self.override.setToolTip(
            "Read from the card: click, or F2 and its number, to override it (the log records it)"
        )
        self.override.setAccessibleDescription("F2 lists the values read from the cards")
        # Tab goes through the fields the umpire judges, never to the override buttons (F2
        # reaches them: app/ui/action_form/overrides.py)
        self.override.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.override.hide()
        self.override.clicked.connect(lambda _c=False: form.draft.override(name))
        self.error = QLabel()
        self.error.setObjectName(f"error_{name}")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        self.note = QLabel()
        self.note.setObjectName(f"note_{name}")
        self.note.setWordWrap(True)
        self.note.hide()
        #: the locked value last shown (a change of it is said under the field)
        self.shown_locked: Any = None
        self.box = QWidget()
        col = QVBoxLayout(self.box)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(1)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.widget, 1)
        row.addWidget(self.override)
        col.addLayout(row)
        col.addWidget(self.error)
        col.addWidget(self.note)
        self.widget.installEventFilter(form)
        desk_keys(self.widget)
        guard_wheel(self.widget)

    def _editor(self) -> QWidget:
        form, name = self.form, self.name
        d = form.draft
        if self.kind == "bool":
            box = QCheckBox()
            box.toggled.connect(lambda on: form.edited(lambda: d.pick(name, on)))
            return box
        if self.kind == "choice":
            combo = QComboBox()
            if d.optional(name):
                combo.addItem("(none)", NONE)
            elif not self.options:  # nothing left to pick (no missile left): said, refused
                combo.addItem("(none left)", PICK)
            for n, (value, label) in enumerate(self.options, 1):
                combo.addItem(label, value)
                if n <= 9:
                    combo.setItemData(
                        combo.count() - 1, f"Key {n} picks it", Qt.ItemDataRole.ToolTipRole
                    )
            combo.currentIndexChanged.connect(lambda i: form.edited(lambda: self._picked(i)))
            return combo
        if self.kind == "multi":
            ticks = QListWidget()
            for value, label in self.options:
                item = QListWidgetItem(label)
                item.setData(Qt.ItemDataRole.UserRole, value)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                ticks.addItem(item)
            rows = max(1, min(len(self.options), 6))
            ticks.setFixedHeight(rows * ticks.fontMetrics().height() + 8 + rows * 4)
            ticks.itemChanged.connect(lambda _i: form.edited(lambda: d.pick(name, self._ticked())))
            return ticks
        edit = QLineEdit()
        edit.textChanged.connect(lambda text: form.edited(lambda: d.type_text(name, text)))
        return edit

    def _picked(self, index: int) -> None:
        w = self.widget
        assert isinstance(w, QComboBox)
        data = w.itemData(index)
        if data == PICK:
            return
        self.form.draft.pick(self.name, None if data == NONE else data)

    def _ticked(self) -> list[Any]:
        w = self.widget
        assert isinstance(w, QListWidget)
        return [
            w.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(w.count())
            if w.item(i).checkState() == Qt.CheckState.Checked
        ]

    def reset(self) -> None:
        """As newly built, for a form shown again: no note of a change carried over from the
        last time it was shown, no undo history, no list row left current (``paint`` paints the
        rest from the draft). Called while the form paints (no edit reaches the draft)."""
        self.shown_locked = None
        self.note.setText("")
        w = self.widget
        if isinstance(w, QLineEdit):
            w.setText("")  # (clears its undo history; ``paint`` sets the draft's text)
        elif isinstance(w, QListWidget):
            w.setCurrentRow(-1)
            w.scrollToTop()

    def paint(self) -> None:
        """The field as the draft has it: its text or pick, locked or not, its error and note."""
        d = self.form.draft
        name, w = self.name, self.widget
        p = d.prepared
        assert p is not None
        v = p.value(name)
        locked = v.locked and v.source != "override"
        if isinstance(w, QLineEdit):
            w.setEnabled(True)  # (locked: read-only, not disabled)
            want = d.text(name)
            if w.text() != want:
                w.setText(want)
            w.setReadOnly(locked)
            hint = ""
            if v.source == "unset":
                hint = "type it" if d.required(name) else ""
            if self.kind == "int" and not locked:
                low, high = d.bounds(name)
                if -999_999 < low or high < 999_999:
                    hint = f"{hint + ': ' if hint else ''}{low} to {high}"
            w.setPlaceholderText(hint)
        elif isinstance(w, QCheckBox):
            on = bool(d.value(name))
            if w.isChecked() != on:
                w.setChecked(on)
            w.setEnabled(not locked)
        elif isinstance(w, QComboBox):
            value = d.value(name)
            at = 0
            for i in range(w.count()):
                data = w.itemData(i)
                if data in (PICK, NONE):
                    if value is None:
                        at = i
                    continue
                if value is not None and _same(data, value):
                    at = i
                    break
            if w.currentIndex() != at:
                w.setCurrentIndex(at)
            w.setEnabled(not locked)
        elif isinstance(w, QListWidget):
            chosen = list(d.value(name) or [])
            for i in range(w.count()):
                item = w.item(i)
                on = any(_same(item.data(Qt.ItemDataRole.UserRole), c) for c in chosen)
                state = Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
                if item.checkState() != state:
                    item.setCheckState(state)
            w.setEnabled(not locked)
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus if locked else Qt.FocusPolicy.StrongFocus)
        self.override.setVisible(locked)
        error = d.error(name)
        self.error.setText(error)
        self.error.setVisible(bool(error))
        style = ERROR_STYLE if error else ""
        if w.styleSheet() != style:
            w.setStyleSheet(style)
        was = self.shown_locked
        note = ""
        if locked and was is not None and was != v.value:
            note = f"Changed: now {render(v.value)} (was {render(was)})"
        elif v.source == "override":
            note = f"Overridden: the card and state say {render(v.read)}"
        elif locked and self.note.text().startswith("Changed") and was == v.value:
            note = self.note.text()  # said until the umpire acts on it
        self.shown_locked = v.value if locked else None
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.widget.setAccessibleDescription(error or note)


class _Page(QWidget):
    """The rows of one form (one key: the procedure, its fields, their kinds and options),
    laid out; kept built while it is among the last ``KEPT_FORMS`` shown."""

    def __init__(self, form: DraftForm, key: tuple[Any, ...]) -> None:
        super().__init__()
        self.key = key
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.rows: dict[str, _Row] = {}
        for name in form.draft.names:
            row = _Row(form, name)
            self.rows[name] = row
            layout.addRow(row.label, row.box)

    def order_tabs(self) -> None:
        """Tab goes through the fields in the order shown."""
        widgets = [r.widget for r in self.rows.values()]
        for before, after in zip(widgets, widgets[1:], strict=False):
            QWidget.setTabOrder(before, after)


class DraftForm(QWidget):
    """The draft's fields (all but the aircraft, which the panel picks), painted from it by
    its panel (``paint`` after each change of the draft)."""

    def __init__(self, draft: ActionDraft, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inputs")
        self.draft = draft
        self._rows: dict[str, _Row] = {}
        self._key: tuple[Any, ...] | None = None
        #: the forms kept built, the least recently shown first (the one shown is last); a
        #: form not shown has no parent: no search of the form's children, no Tab, no paint
        #: of the window reaches it
        self._kept: dict[tuple[Any, ...], _Page] = {}
        self._page: _Page | None = None
        #: the action the notes speak of ("Changed: now ... (was ...)"): another procedure or
        #: other aircraft is another action, whose values changed nothing
        self._action: tuple[Any, ...] | None = None
        self._painting = False
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.general_error = QLabel()
        self.general_error.setObjectName("form_error")
        self.general_error.setWordWrap(True)
        self.general_error.setStyleSheet("color: #c62828;")
        self.general_error.hide()
        self._layout.addWidget(self.general_error)
        self.paint()

    # -- what the panel and tests read -----------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self._rows)

    def editor(self, name: str) -> QWidget:
        return self._rows[name].widget

    def kind(self, name: str) -> str:
        return self._rows[name].kind

    def title(self, name: str) -> str:
        return self._rows[name].title

    def override_button(self, name: str) -> QToolButton:
        """Field ``name``'s ✎ (shown while its value is read from the cards)."""
        return self._rows[name].override

    def is_locked(self, name: str) -> bool:
        return not self._rows[name].override.isHidden()

    def error_text(self, name: str | None = None) -> str:
        """The message shown under field ``name`` (or the whole form's message)."""
        if name is None:
            p = self.draft.prepared
            return p.error if p is not None else ""
        e = self._rows[name].error
        return e.text() if not e.isHidden() else ""

    def note_text(self, name: str) -> str:
        note = self._rows[name].note
        return note.text() if not note.isHidden() else ""

    def shown_text(self, name: str) -> str:
        """What field ``name`` paints: its text, the picker's item, the box's state."""
        w = self._rows[name].widget
        if isinstance(w, QLineEdit):
            return w.displayText()
        if isinstance(w, QComboBox):
            return w.currentText()
        if isinstance(w, QCheckBox):
            return "ticked" if w.isChecked() else "not ticked"
        if isinstance(w, QListWidget):
            return ", ".join(
                w.item(i).text()
                for i in range(w.count())
                if w.item(i).checkState() == Qt.CheckState.Checked
            )
        return ""

    def focus_first(self) -> bool:
        """The cursor in the first field the umpire types; False if there is none."""
        todo = [n for n in self.draft.must_type() if n in self._rows]
        if not todo:
            return False
        self.focus_field(todo[0])
        return True

    def focus_field(self, name: str) -> None:
        """The cursor in field ``name``, its text selected (what is typed replaces it)."""
        row = self._rows.get(name)
        if row is None:
            return
        w = row.widget
        w.setFocus(Qt.FocusReason.TabFocusReason)
        if isinstance(w, QLineEdit):
            w.selectAll()

    # -- painting ---------------------------------------------------------------------------------

    def edited(self, change: Any) -> None:
        """A widget changed: the umpire's edit goes to the draft (never while painting)."""
        if not self._painting:
            change()

    def paint(self) -> None:
        d = self.draft
        p = d.prepared
        if p is None and d.prepare_error and d.procedure == (self._key or (None,))[0]:
            # the rules could not prepare it (said in the refusal line): the fields stay as
            # they were, read-only, until it can be prepared again
            for row in self._rows.values():
                row.widget.setEnabled(False)
            return
        key = (
            (d.procedure, tuple((n, d.kind(n), d.options(n)) for n in d.names))
            if p is not None
            else None
        )
        self._painting = True
        try:
            if key != self._key:
                self._build(key)
            action = (d.procedure, tuple(sorted(p.roles.items()))) if p is not None else None
            if action != self._action:
                self._action = action
                for row in self._rows.values():
                    row.shown_locked = None
            for row in self._rows.values():
                # (each row sets its widget enabled or not: not enabled here first, so a
                # locked pick is not enabled and disabled again, and repainted, at every paint)
                row.paint()
            general = ""
            if (
                p is not None
                and p.inputs is None
                and not any(d.error(n) for n in p.names)
                and not any(v.source == "unset" and d.required(v.name) for v in p.values)
            ):
                general = p.error  # a refusal of the whole, not of one field
            self.general_error.setText(general)
            self.general_error.setVisible(bool(general))
        finally:
            self._painting = False

    def _build(self, key: tuple[Any, ...] | None) -> None:
        """The form of ``key`` shown: the one kept built for it if there is one (as newly
        built), else built. The cursor stays on a field of the same name."""
        focus = next((n for n, r in self._rows.items() if r.widget.hasFocus()), None)
        old = self._page
        if old is not None:
            # taken out and hidden, not deleted: the widget may be in the middle of the very
            # key press that changed the form (and it is kept to be shown again)
            self._layout.removeWidget(old)
            old.hide()
            old.setParent(None)
        self._page, self._rows, self._key = None, {}, key
        if key is None:
            return
        page = self._kept.pop(key, None)
        if page is None:
            page = _Page(self, key)
            # a kept form has no parent: it goes with this one
            self.destroyed.connect(page.deleteLater)
        else:
            for row in page.rows.values():
                row.reset()
        self._kept[key] = page
        while len(self._kept) > KEPT_FORMS:
            gone = self._kept.pop(next(iter(self._kept)))
            gone.deleteLater()  # (the least recently shown, never the one just taken out)
        self._page, self._rows = page, page.rows
        self._layout.insertWidget(0, page)
        page.show()  # now, not when the layout gets round to it: Tab and the cursor go
        page.order_tabs()  # through its fields at once
        if focus in self._rows:
            self._rows[focus].widget.setFocus()

    # -- keys -------------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter goes on (``draft.enter``); a digit in a picker picks its n-th item and goes
        on; Up and Down step a whole number by one."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        row = next((r for r in self._rows.values() if r.widget is watched), None)
        if row is None:
            return super().eventFilter(watched, event)
        key = event.key()
        plain = not (event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier)
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and plain:
            if isinstance(watched, QComboBox) and watched.view().isVisible():
                return super().eventFilter(watched, event)
            self.draft.enter(Entry("field", row.name))
            return True
        if isinstance(watched, QComboBox) and event.text().isdigit() and plain:
            n = int(event.text())
            if 0 < n <= len(row.options):
                self.draft.pick(row.name, row.options[n - 1][0], advance=True)
            return True
        if row.kind == "int" and key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and plain:
            assert isinstance(watched, QLineEdit)
            if watched.isReadOnly():
                return True
            now = self.draft.value(row.name)
            start = now if isinstance(now, int) and not isinstance(now, bool) else 0
            step = 1 if key == Qt.Key.Key_Up else -1
            self.draft.type_text(row.name, str(start + step), advance=False)
            return True
        return super().eventFilter(watched, event)
