"""An input form generated from a pydantic model: a procedure's ``Inputs`` or a ruleset's ``Card``.

Each field gets the editor its type calls for (int -> spin box within its ``ge``/``le``,
bool -> check box, ``Literal``/``Enum`` -> combo box, str -> line edit, ``list[int]`` -> a line
of comma-separated numbers, anything else -> a line edit read as JSON or text). The field's
title and description become its label and tooltip. Every change validates the whole model;
the pydantic message is shown under the field it concerns and ``changed`` carries the valid
model (or ``None`` while something is wrong).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from PySide6.QtCore import QEvent, QObject, Qt, Signal
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
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.wheel_guard import guard_wheel

if typing.TYPE_CHECKING:
    from app.core.prepared import Prepared

#: the aircraft reference fields every procedure may have; the combat dock picks them itself
AIRCRAFT_FIELDS = ("attacker", "target", "aircraft")

_SPIN_LIMIT = 999_999
_NONE = "\x00none"
_UNSHOWN = object()


def _unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``X | None``; ``(annotation, False)`` otherwise."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(args) < len(typing.get_args(annotation)):
            return args[0], True
        if len(args) < len(typing.get_args(annotation)):  # ``int | Literal["missing"] | None``
            return typing.Union[tuple(args)], True  # noqa: UP007 (built from a list)
    return annotation, False


def _literal_choices(annotation: Any) -> list[Any] | None:
    """The values of a ``Literal``, or of a union of ``Literal``s (``Literal["cap"] | Mission``)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        parts = [_literal_choices(a) for a in typing.get_args(annotation)]
        if all(p is not None for p in parts):
            return list(dict.fromkeys(v for p in parts for v in p or ()))
    return None


def _bounds(info: FieldInfo) -> tuple[int, int]:
    low, high = -_SPIN_LIMIT, _SPIN_LIMIT
    for m in info.metadata:
        if isinstance(m, annotated_types.Ge):
            low = max(low, int(m.ge))
        elif isinstance(m, annotated_types.Gt):
            low = max(low, int(m.gt) + 1)
        elif isinstance(m, annotated_types.Le):
            high = min(high, int(m.le))
        elif isinstance(m, annotated_types.Lt):
            high = min(high, int(m.lt) - 1)
    return low, high


def is_complete(text: str, low: int, high: int) -> bool:
    """Whether ``text`` is a whole number in ``low..high`` that no further digit could turn
    into another one (so the desk may move on after a single keystroke)."""
    if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
        return False
    longer = [int(text + d) for d in "0123456789" if text.lstrip("-") != "0"]
    return not any(low <= v <= high for v in longer)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


class _Field:
    """One row of the form: the editor widget, how to read and set it, and its error label."""

    def __init__(self, name: str, info: FieldInfo, form: InputForm) -> None:
        self.name = name
        self.info = info
        annotation, self.optional = _unwrap_optional(info.annotation)
        self.kind, self.widget = self._editor(annotation, form)
        self.widget.setObjectName(f"field_{name}")
        self.error = QLabel()
        self.error.setObjectName(f"error_{name}")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        tip = info.description or ""
        if tip:
            self.widget.setToolTip(tip)

    def _editor(self, annotation: Any, form: InputForm) -> tuple[str, QWidget]:
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if annotation is bool:
            box = QCheckBox()
            box.toggled.connect(form._on_edit)
            return "bool", box
        if annotation is int and not self.optional:
            spin = QSpinBox()
            low, high = _bounds(self.info)
            spin.setRange(low, high)
            spin.setKeyboardTracking(True)
            spin.valueChanged.connect(form._on_edit)
            line = spin.findChild(QLineEdit)
            if line is not None:  # typed (never set by the desk) and complete: move on
                line.textEdited.connect(
                    lambda text: form._typed(self.name) if is_complete(text, low, high) else None
                )
            return "int", spin
        choices = _literal_choices(annotation)
        if choices is None and isinstance(annotation, type) and issubclass(annotation, Enum):
            choices = [m.value for m in annotation]
        if choices is not None:
            combo = QComboBox()
            if self.optional:
                # a string, never None, as item data (see app.ui.docks.critical_log.ALL)
                combo.addItem("(none)", _NONE)
            for c in choices:
                combo.addItem(str(c), c)
            combo.currentIndexChanged.connect(form._on_edit)
            return "choice", combo
        edit = QLineEdit()
        edit.textChanged.connect(form._on_edit)
        inner = args[0] if args else Any
        if (origin in (list, tuple, typing.Sequence) or annotation in (list, tuple)) and (
            inner in (int, str)
        ):
            edit.setPlaceholderText(
                "numbers separated by commas" if inner is int else "items separated by commas"
            )
            return ("int_list" if inner is int else "str_list"), edit
        if annotation is int:
            edit.setPlaceholderText("a whole number, or empty for none")
            return "int_text", edit
        if annotation is str:
            return "str", edit
        if annotation in (float, Fraction):
            edit.setPlaceholderText("a number, e.g. 2 or 5/2")
            return "number", edit
        edit.setPlaceholderText("a value (JSON)")
        return "json", edit

    # -- reading and writing ----------------------------------------------------------------

    def raw(self) -> Any:
        """The editor's value as pydantic should see it (``None`` for an empty optional)."""
        w = self.widget
        if self.kind == "bool":
            assert isinstance(w, QCheckBox)
            return w.isChecked()
        if self.kind == "int":
            assert isinstance(w, QSpinBox)
            return w.value()
        if self.kind == "choice":
            assert isinstance(w, QComboBox)
            data = w.currentData()
            return None if data == _NONE else data
        if self.kind == "multi":
            assert isinstance(w, QListWidget)
            return [
                w.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(w.count())
                if w.item(i).checkState() == Qt.CheckState.Checked
            ]
        assert isinstance(w, QLineEdit)
        text = w.text().strip()
        if not text and self.optional:
            return None
        if self.kind == "int_list":
            parts = [p.strip() for p in text.split(",") if p.strip()]
            return [int(p) if p.lstrip("+-").isdigit() else p for p in parts]
        if self.kind == "str_list":
            return [p.strip() for p in text.split(",") if p.strip()]
        if self.kind == "int_text":
            return int(text) if text.lstrip("+-").isdigit() else text
        if self.kind == "json":
            try:
                return json.loads(text)
            except ValueError:
                return text
        return text

    def set(self, value: Any) -> None:
        w = self.widget
        if self.kind == "bool":
            assert isinstance(w, QCheckBox)
            w.setChecked(bool(value))
        elif self.kind == "int":
            assert isinstance(w, QSpinBox)
            if isinstance(value, int):
                w.setValue(value)
        elif self.kind == "multi":
            assert isinstance(w, QListWidget)
            chosen = set(value or [])
            for i in range(w.count()):
                item = w.item(i)
                on = item.data(Qt.ItemDataRole.UserRole) in chosen
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        elif self.kind == "choice":
            assert isinstance(w, QComboBox)
            i = w.findData(
                _NONE if value is None else value.value if isinstance(value, Enum) else value
            )
            if i >= 0:
                w.setCurrentIndex(i)
        else:
            assert isinstance(w, QLineEdit)
            if self.kind == "json" and value is not None and not isinstance(value, str):
                w.setText(json.dumps(value, default=str))
            else:
                w.setText(_text(value))

    def pick(self, options: Sequence[tuple[Any, str]], form: InputForm) -> QWidget:
        """Become a picker of ``options`` (value, printed label): the old editor is returned
        for the form to replace. With nothing to pick, one item says so (and is invalid). A
        list field becomes a list of check boxes (the ticked values, in the offered order)."""
        old = self.widget
        if self.kind in ("str_list", "multi"):
            box = QListWidget()
            box.setObjectName(f"field_{self.name}")
            box.setToolTip(old.toolTip())
            for value, label in options:
                item = QListWidgetItem(label)
                item.setData(Qt.ItemDataRole.UserRole, value)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                box.addItem(item)
            rows = max(1, min(len(options), 6))
            box.setFixedHeight(rows * box.fontMetrics().height() + 8 + rows * 4)
            box.itemChanged.connect(form._on_edit)
            self.kind, self.widget = "multi", box
            return old
        combo = QComboBox()
        combo.setObjectName(f"field_{self.name}")
        combo.setToolTip(old.toolTip())
        for value, label in options:
            combo.addItem(label, value)
        if not options:
            combo.addItem("(none left)", "")
        combo.currentIndexChanged.connect(form._on_edit)
        self.kind, self.widget = "choice", combo
        return old

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))
        self.widget.setProperty("invalid", bool(message))
        self.widget.setStyleSheet("border: 1px solid #c62828;" if message else "")


class InputForm(QWidget):
    """A form for a pydantic model class; ``changed`` carries the valid model or ``None``."""

    changed = Signal(object)
    #: prepared mode: the umpire changed these fields (name -> the editor's value)
    edited = Signal(dict)
    #: prepared mode: the umpire asked to override this locked field
    override_asked = Signal(str)
    #: Enter was pressed in a field
    submitted = Signal()
    #: the last field the umpire must type was typed in full (the desk moves to the dice)
    typed_all = Signal()
    #: a key was typed in this field (the umpire judged it, even where the value is unchanged)
    keyed = Signal(str)

    def __init__(
        self,
        model: type[BaseModel],
        parent: QWidget | None = None,
        *,
        exclude: Iterable[str] = (),
        fixed: Mapping[str, Any] | None = None,
        prepared: bool = False,
    ) -> None:
        super().__init__(parent)
        self.model = model
        #: prepared mode (issue 28): the form validates nothing itself; it shows a prepared
        #: action (``show``) and reports what the umpire changes (``edited``)
        self.prepared_mode = prepared
        self._shown: dict[str, Any] = {}
        self._choices: dict[str, list[Any]] = {}
        self._locked_shown: dict[str, Any] = {}
        #: prepared mode: where each shown value came from (card, board, typed ...)
        self.locked_source: dict[str, str] = {}
        self.fixed: dict[str, Any] = dict(fixed or {})
        self._fields: dict[str, _Field] = {}
        self._loading = False
        self._valid: BaseModel | None = None
        self._message = ""
        #: values read from the cards and state: shown read-only until overridden
        self.locked: dict[str, Any] = {}
        self._override: dict[str, QToolButton] = {}
        self._rows: dict[str, QHBoxLayout] = {}
        self._labels: dict[str, QLabel] = {}
        self._notes: dict[str, QLabel] = {}
        skip = set(exclude)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        layout = QFormLayout()
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        outer.addLayout(layout)
        self._loading = True
        for name, info in model.model_fields.items():
            if name in skip:
                continue
            f = _Field(name, info, self)
            self._fields[name] = f
            if not info.is_required():
                default = info.get_default(call_default_factory=True)
                if default is not None or f.optional:
                    f.set(default)
            label = QLabel(info.title or name.replace("_", " ").capitalize())
            label.setBuddy(f.widget)
            self._labels[name] = label
            if info.description:
                label.setToolTip(info.description)
            box = QWidget()
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 0)
            col.setSpacing(1)
            row = QHBoxLayout()
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(f.widget, 1)
            self._rows[name] = row
            override = QToolButton()
            override.setObjectName(f"override_{name}")
            override.setText("✎")
            override.setAccessibleName("Override")
            override.setToolTip("Read from the card: click to override it (the log records it)")
            # Tab goes through the fields the umpire judges, never to the override buttons
            override.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            override.hide()
            override.clicked.connect(lambda _c=False, n=name: self._override_clicked(n))
            self._override[name] = override
            row.addWidget(override)
            col.addLayout(row)
            col.addWidget(f.error)
            note = QLabel()
            note.setObjectName(f"note_{name}")
            note.setWordWrap(True)
            note.hide()
            self._notes[name] = note
            col.addWidget(note)
            layout.addRow(label, box)
            f.widget.installEventFilter(self)
            guard_wheel(f.widget)
        self._loading = False
        self.general_error = QLabel()
        self.general_error.setObjectName("form_error")
        self.general_error.setWordWrap(True)
        self.general_error.setStyleSheet("color: #c62828;")
        self.general_error.hide()
        outer.addWidget(self.general_error)
        if not prepared:
            self._validate()

    # -- public ------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self._fields)

    def title(self, name: str) -> str:
        """The field's printed label."""
        info = self._fields[name].info
        return info.title or name.replace("_", " ").capitalize()

    def kind(self, name: str) -> str:
        """The kind of editor field ``name`` has ("int" is a spin box, "choice" a picker ...)."""
        return self._fields[name].kind

    def editor(self, name: str) -> QWidget:
        """The widget editing field ``name`` (for tests and focus)."""
        return self._fields[name].widget

    def error_text(self, name: str | None = None) -> str:
        """The message shown under field ``name`` (or the whole form's message)."""
        if name is None:
            return self._message
        return self._fields[name].error.text() if not self._fields[name].error.isHidden() else ""

    def raw_values(self) -> dict[str, Any]:
        return {**{n: f.raw() for n, f in self._fields.items()}, **self.fixed}

    def value(self) -> BaseModel | None:
        """The valid model, or ``None`` while a field is wrong."""
        return self._valid

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Fill fields (prefill); unknown names are ignored. Validates once at the end."""
        self._loading = True
        try:
            for name, v in values.items():
                if name in self._fields:
                    self._fields[name].set(v)
        finally:
            self._loading = False
        self._on_edit()

    def set_choices(self, choices: Mapping[str, Sequence[tuple[Any, str]]]) -> None:
        """Show these fields as pickers of (value, printed label), the current value kept when
        it is still offered (issue 14: choices are pickers, never typed ids)."""
        for name, options in choices.items():
            f = self._fields.get(name)
            if f is None:
                continue
            keep = f.raw()
            old = f.pick(options, self)
            self._rows[name].replaceWidget(old, f.widget)
            self._labels[name].setBuddy(f.widget)
            f.widget.setVisible(old.isVisibleTo(self))
            old.removeEventFilter(self)
            old.deleteLater()
            f.widget.installEventFilter(self)
            guard_wheel(f.widget)
            self._loading = True
            try:
                f.set(keep)
            finally:
                self._loading = False
        widgets = [f.widget for f in self._fields.values()]
        for before, after in zip(widgets, widgets[1:], strict=False):
            QWidget.setTabOrder(before, after)  # a new picker keeps its place in the Tab order
        if not self.prepared_mode:
            self._on_edit()

    def lock(self, values: Mapping[str, Any], card_fields: Iterable[str] = ()) -> None:
        """Fill these fields from the cards and state; the card values among them (fields the
        model requires, and choices such as a pilot quality) are shown read-only, each with an
        Override button (issue 13: a card value never changes unless the umpire means it).
        Modifiers and flags with a default stay the umpire's to judge, unless the procedure
        names them among its ``card_fields``."""
        self.set_values(values)
        for name in list(self.locked):
            self._set_locked(name, False)
        cards = set(card_fields)
        self.locked = {
            n: self._fields[n].raw()
            for n in values
            if n in self._fields
            and (
                self._fields[n].info.is_required() or self._fields[n].kind == "choice" or n in cards
            )
        }
        for name in self.locked:
            self._set_locked(name, True)

    def unlock(self, name: str) -> None:
        """Let the umpire change a card value; ``overrides`` then reports the change."""
        self._set_locked(name, False)
        self._fields[name].widget.setFocus()

    def _set_locked(self, name: str, on: bool) -> None:
        w = self._fields[name].widget
        if isinstance(w, QSpinBox | QLineEdit):
            w.setReadOnly(on)
            if isinstance(w, QSpinBox):
                w.setButtonSymbols(
                    QSpinBox.ButtonSymbols.NoButtons if on else QSpinBox.ButtonSymbols.UpDownArrows
                )
        else:
            w.setEnabled(not on)
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus if on else Qt.FocusPolicy.StrongFocus)
        self._override[name].setVisible(on)

    def is_locked(self, name: str) -> bool:
        return not self._override[name].isHidden()

    def overrides(self) -> dict[str, tuple[Any, Any]]:
        """Card values the umpire changed: field title -> (card value, value used)."""
        out: dict[str, tuple[Any, Any]] = {}
        for name, card in self.locked.items():
            now = self._fields[name].raw()
            if now != card:
                out[self._fields[name].info.title or name] = (card, now)
        return out

    def must_type(self) -> list[str]:
        """The fields the umpire has to type for this shot: required, not read from a card."""
        return [
            n
            for n, f in self._fields.items()
            if f.info.is_required() and n not in self.locked and f.widget.isEnabled()
        ]

    def focus_first(self) -> bool:
        """Put the cursor in the first field to type (all selected); False if there is none."""
        names = self.must_type()
        if not names:
            return False
        self._focus(names[0])
        return True

    def focus_field(self, name: str) -> None:
        """The cursor in field ``name``, its value selected (what is typed replaces it)."""
        self._focus(name)

    def _focus(self, name: str) -> None:
        w = self._fields[name].widget
        w.setFocus(Qt.FocusReason.TabFocusReason)
        if isinstance(w, QSpinBox | QLineEdit):
            w.selectAll()

    def _typed(self, name: str) -> None:
        names = self.must_type()
        later = names[names.index(name) + 1 :] if name in names else []
        if later:
            self._focus(later[0])
        else:
            self.typed_all.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() in (
                Qt.Key.Key_Return,
                Qt.Key.Key_Enter,
            ) and not (event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier):
                self.submitted.emit()
                return True
            if event.text().strip():
                name = next((n for n, f in self._fields.items() if f.widget is watched), None)
                if name is not None:
                    self.keyed.emit(name)
        return super().eventFilter(watched, event)

    def set_fixed(self, values: Mapping[str, Any]) -> None:
        """Values the form does not show but includes (the aircraft ids)."""
        self.fixed = dict(values)
        self._on_edit()

    # -- validation --------------------------------------------------------------------------

    def _on_edit(self, *_: object) -> None:
        if self._loading:
            return
        if self.prepared_mode:
            changed = {
                n: f.raw()
                for n, f in self._fields.items()
                if f.raw() != self._shown.get(n, _UNSHOWN)
            }
            if changed:
                self._shown.update(changed)
                self.edited.emit(changed)
            return
        self._validate()
        self.changed.emit(self._valid)

    def _override_clicked(self, name: str) -> None:
        if self.prepared_mode:
            self.override_asked.emit(name)
            self._focus(name)  # all selected: the value typed replaces the one read
        else:
            self.unlock(name)

    # -- prepared mode (issue 28) ----------------------------------------------------------------

    def show_prepared(self, prepared: Prepared) -> None:
        """Show exactly the values the prepared action will resolve with: each value, locked
        or not, its error in place; a locked value that changed since it was last shown says
        so (a piece moved on the board, a card edited, another station's action)."""
        self._loading = True
        try:
            if prepared.choices:
                offered = {
                    n: list(opts)
                    for n, opts in prepared.choices.items()
                    if n in self._fields and list(opts) != self._choices.get(n)
                }
                if offered:
                    self.set_choices(offered)
                    self._choices.update(offered)
            before = dict(self._locked_shown)
            self._locked_shown = {}
            for v in prepared.values:
                f = self._fields.get(v.name)
                if f is None:
                    continue
                if v.source != "unset" and f.raw() != v.value:
                    f.set(v.value)
                self._shown[v.name] = f.raw()
                self.locked_source[v.name] = v.source
                if v.locked:
                    self._locked_shown[v.name] = v.value
                if v.locked != self.is_locked(v.name):
                    self._set_locked(v.name, v.locked)
                f.show_error(v.error if v.source != "unset" else "")
                note = self._notes[v.name]
                was = before.get(v.name, v.value)
                if v.locked and was != v.value:
                    note.setText(f"Changed: now {_text(v.value)} (was {_text(was)})")
                    note.setVisible(True)
                elif v.source == "override":
                    note.setText(f"Overridden: the card and state say {_text(v.read)}")
                    note.setVisible(True)
                elif not v.locked or before.get(v.name) is None:
                    note.setVisible(False)
            # read off the cards or the board (overridden or not): not the umpire's to type
            self.locked = {
                v.name: v.value for v in prepared.values if v.locked or v.source == "override"
            }
            general = "" if any(v.error for v in prepared.values) else prepared.error
            self._message = prepared.error
            self.general_error.setText(general)
            self.general_error.setVisible(bool(general))
        finally:
            self._loading = False

    def unset_shown(self, prepared: Prepared) -> dict[str, Any]:
        """What the editors show for values the prepared action has not got (a spin box
        always shows a number): the dock takes them as typed, so the form never shows one
        value while another is used."""
        out: dict[str, Any] = {}
        for v in prepared.values:
            f = self._fields.get(v.name)
            if f is not None and v.source == "unset" and f.kind in ("int", "bool", "choice"):
                raw = f.raw()
                if raw is not None:
                    out[v.name] = raw
        return out

    def note_text(self, name: str) -> str:
        """The note under a field (a locked value that changed, an override)."""
        note = self._notes[name]
        return note.text() if not note.isHidden() else ""

    def _validate(self) -> None:
        for f in self._fields.values():
            f.show_error("")
        general: list[str] = []
        try:
            self._valid = self.model.model_validate(self.raw_values())
            self._message = ""
        except ValidationError as e:
            self._valid = None
            per_field: dict[str, list[str]] = {}
            for err in e.errors():
                loc = err["loc"]
                name = str(loc[0]) if loc else ""
                msg = err["msg"]
                if len(loc) > 1:
                    msg = f"item {'.'.join(str(p) for p in loc[1:])}: {msg}"
                if name in self._fields:
                    per_field.setdefault(name, []).append(msg)
                else:
                    general.append(f"{name}: {msg}" if name else msg)
            for name, msgs in per_field.items():
                if self._fields[name].raw() in ("", [], None):
                    continue  # not filled in yet: nothing is wrong in it (the message says it)
                self._fields[name].show_error("; ".join(dict.fromkeys(msgs)))
            self._message = "; ".join(
                [f"{n.replace('_', ' ')}: {'; '.join(m)}" for n, m in per_field.items()] + general
            )
        except ValueError as e:
            self._valid = None
            self._message = str(e)
            general.append(str(e))
        self.general_error.setText("; ".join(general))
        self.general_error.setVisible(bool(general))


__all__ = ["AIRCRAFT_FIELDS", "InputForm", "is_complete"]
