"""An input form generated from a pydantic model: a ruleset's ``Card`` (the card editor) or its
aircraft ``Details`` (the Add aircraft dialog). The Combat and Initiative forms are views of an
action draft instead (``app.ui.action_form``).

Each field gets the editor its type calls for (int -> spin box within its ``ge``/``le``,
bool -> check box, ``Literal``/``Enum`` -> combo box, str -> line edit, ``list[int]`` -> a line
of comma-separated numbers, anything else -> a line edit read as JSON or text). The field's
title and description become its label and tooltip. Every change validates the whole model;
the pydantic message is shown under the field it concerns and ``changed`` carries the valid
model (or ``None`` while something is wrong).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from PySide6.QtCore import Qt, Signal
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
    QVBoxLayout,
    QWidget,
)

from app.core.errors import problem_text
from app.core.field_text import bounds as _bounds
from app.core.field_text import choices_of as _literal_choices
from app.core.field_text import render as _text
from app.core.field_text import unwrap_optional as _unwrap_optional
from app.ui.widgets.wheel_guard import guard_wheel

#: the aircraft reference fields every procedure may have; the combat dock picks them itself
AIRCRAFT_FIELDS = ("attacker", "target", "aircraft")

_NONE = "\x00none"


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
            return "int", spin
        choices = _literal_choices(annotation)
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

    def __init__(
        self,
        model: type[BaseModel],
        parent: QWidget | None = None,
        *,
        exclude: Iterable[str] = (),
        fixed: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.fixed: dict[str, Any] = dict(fixed or {})
        self._fields: dict[str, _Field] = {}
        self._loading = False
        self._valid: BaseModel | None = None
        self._message = ""
        self._rows: dict[str, QHBoxLayout] = {}
        self._labels: dict[str, QLabel] = {}
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
            f.widget.setAccessibleName(label.text())
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
            col.addLayout(row)
            col.addWidget(f.error)
            layout.addRow(label, box)
            guard_wheel(f.widget)
        self._loading = False
        self.general_error = QLabel()
        self.general_error.setObjectName("form_error")
        self.general_error.setWordWrap(True)
        self.general_error.setStyleSheet("color: #c62828;")
        self.general_error.hide()
        outer.addWidget(self.general_error)
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
            old.deleteLater()
            guard_wheel(f.widget)
            self._loading = True
            try:
                f.set(keep)
            finally:
                self._loading = False
        widgets = [f.widget for f in self._fields.values()]
        for before, after in zip(widgets, widgets[1:], strict=False):
            QWidget.setTabOrder(before, after)  # a new picker keeps its place in the Tab order
        self._on_edit()

    def set_fixed(self, values: Mapping[str, Any]) -> None:
        """Values the form does not show but includes (the aircraft ids)."""
        self.fixed = dict(values)
        self._on_edit()

    # -- validation --------------------------------------------------------------------------

    def _on_edit(self, *_: object) -> None:
        if self._loading:
            return
        self._validate()
        self.changed.emit(self._valid)

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
                msg = problem_text(err)
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


__all__ = ["AIRCRAFT_FIELDS", "InputForm"]
