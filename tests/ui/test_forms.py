"""The generated input form: one editor per field type, live validation shown in place."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

from app.ui.editors.forms import InputForm


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    attacker: str | None = None
    gun_value: int = Field(4, ge=1, le=12, description="The gun value printed on the card")
    pilot: Literal["green", "average", "ace"] = "average"
    unspotted: bool = False
    callsign: str = Field("", title="Call sign")
    hits_by_difference: list[int] = Field(default_factory=lambda: [1, 1, 2])
    ammunition: Fraction = Fraction(3)
    afterburner: int | None = None


def test_each_type_gets_its_editor_with_bounds_titles_and_tooltips(qtbot):
    form = InputForm(Sample, exclude=("attacker",))
    qtbot.addWidget(form)
    assert form.names == [
        "gun_value",
        "pilot",
        "unspotted",
        "callsign",
        "hits_by_difference",
        "ammunition",
        "afterburner",
    ]
    spin = form.editor("gun_value")
    assert isinstance(spin, QSpinBox)
    assert (spin.minimum(), spin.maximum(), spin.value()) == (1, 12, 4)
    assert spin.toolTip() == "The gun value printed on the card"
    combo = form.editor("pilot")
    assert isinstance(combo, QComboBox)
    assert [combo.itemText(i) for i in range(combo.count())] == ["green", "average", "ace"]
    assert combo.currentText() == "average"
    assert isinstance(form.editor("unspotted"), QCheckBox)
    assert isinstance(form.editor("callsign"), QLineEdit)
    hits = form.editor("hits_by_difference")
    assert isinstance(hits, QLineEdit) and hits.text() == "1, 1, 2"
    assert form.value() == Sample()


def test_typing_updates_the_model_and_the_signal(qtbot):
    form = InputForm(Sample, exclude=("attacker",), fixed={"attacker": "blue-1"})
    qtbot.addWidget(form)
    form.show()
    seen = []
    form.changed.connect(seen.append)
    spin = form.editor("gun_value")
    spin.selectAll()
    qtbot.keyClicks(spin, "9")
    box = form.editor("unspotted")
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().topLeft() + QPoint(6, 6))
    hits = form.editor("hits_by_difference")
    hits.clear()
    qtbot.keyClicks(hits, "1, 2, 3, 4")
    form.editor("pilot").setCurrentIndex(2)
    v = form.value()
    assert v == Sample(
        attacker="blue-1",
        gun_value=9,
        unspotted=True,
        hits_by_difference=[1, 2, 3, 4],
        pilot="ace",
    )
    assert seen[-1] == v


def test_a_bad_value_shows_the_pydantic_message_under_its_field(qtbot):
    form = InputForm(Sample)
    qtbot.addWidget(form)
    form.show()
    seen = []
    form.changed.connect(seen.append)
    hits = form.editor("hits_by_difference")
    hits.clear()
    qtbot.keyClicks(hits, "1, two")
    assert form.value() is None and seen[-1] is None
    assert "item 1" in form.error_text("hits_by_difference")
    assert "valid integer" in form.error_text("hits_by_difference")
    assert form.error_text("gun_value") == ""
    hits.clear()
    qtbot.keyClicks(hits, "1, 2")
    assert form.error_text("hits_by_difference") == ""
    assert form.value() is not None


def test_optional_int_is_empty_for_none_and_set_values_prefills(qtbot):
    form = InputForm(Sample)
    qtbot.addWidget(form)
    assert form.value().afterburner is None
    form.set_values({"afterburner": 2, "gun_value": 7, "ammunition": Fraction(5, 2), "x": 1})
    assert form.editor("ammunition").text() == "5/2"
    assert form.value().afterburner == 2
    assert form.value().ammunition == Fraction(5, 2)
    assert form.value().gun_value == 7


def test_spin_box_refuses_values_outside_ge_le(qtbot):
    form = InputForm(Sample)
    qtbot.addWidget(form)
    spin = form.editor("gun_value")
    spin.selectAll()
    qtbot.keyClicks(spin, "99")
    assert form.value().gun_value <= 12


def test_a_union_of_literals_is_one_combo_box(qtbot):
    """Nth Fleet's mission: ``Literal["cap"] | Literal["strike", ...]`` offers every value."""

    class Inputs(BaseModel):
        mission: Literal["cap"] | Literal["strike", "escort"] = "strike"

    form = InputForm(Inputs)
    qtbot.addWidget(form)
    combo = form.editor("mission")
    assert [combo.itemText(i) for i in range(combo.count())] == ["cap", "strike", "escort"]
    assert combo.currentText() == "strike"


def test_a_field_given_choices_becomes_a_picker_of_printed_names(qtbot):
    """Issue 14: a value the umpire picks (a missile on the card) is never a typed id."""

    class Launch(BaseModel):
        missile: str = Field(title="Missile")
        range_hexes: int = Field(ge=0, le=20)

    form = InputForm(Launch)
    qtbot.addWidget(form)
    assert isinstance(form.editor("missile"), QLineEdit)
    form.set_choices({"missile": [("aim9j", "AIM-9J (2 left)"), ("aim7e", "AIM-7E (1 left)")]})
    picker = form.editor("missile")
    assert isinstance(picker, QComboBox)
    assert form.value() is not None and form.value().missile == "aim9j"
    picker.setCurrentIndex(1)
    assert form.value().missile == "aim7e"
    # offered again (a roster change): the umpire's pick stays while it is still offered
    form.set_choices({"missile": [("aim9j", "AIM-9J (2 left)"), ("aim7e", "AIM-7E (1 left)")]})
    assert form.value().missile == "aim7e"
    form.set_choices({"missile": []})
    assert form.editor("missile").currentText() == "(none left)"
    assert form.value().missile == ""  # the model says whether an empty pick is allowed


def test_a_list_field_given_choices_becomes_check_boxes_of_printed_names(qtbot):
    """Issue 14: forces and planes are ticked by name, never typed as ids."""

    class Combat(BaseModel):
        first: list[str] = Field(default_factory=list, title="More counters")

    form = InputForm(Combat)
    qtbot.addWidget(form)
    form.set_values({"first": ["vf-1"]})
    form.set_choices({"first": [("vf-1", "VF-1 (4 aloft)"), ("va-35", "VA-35 (4 aloft)")]})
    box = form.editor("first")
    assert [box.item(i).text() for i in range(box.count())] == ["VF-1 (4 aloft)", "VA-35 (4 aloft)"]
    assert form.value().first == ["vf-1"]  # kept from before
    box.item(1).setCheckState(Qt.CheckState.Checked)
    assert form.value().first == ["vf-1", "va-35"]
    form.set_values({"first": []})
    assert form.value().first == []
