"""File > New game: ruleset (broken ones listed with their error), title, variants, file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.plugins import available_rulesets, broken_rulesets, load_ruleset
from app.startup.demo import fresh_path
from app.ui.widgets.message_bar import MessageBar
from app.ui.widgets.wheel_guard import guard_wheel


class NewGameDialog(QDialog):
    """Choose what a new game is; the window creates it (``values()``)."""

    def __init__(self, parent: QWidget | None = None, players_roll: bool = True) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setMinimumWidth(480)
        self.ruleset_box = QComboBox()
        for rid, title in available_rulesets().items():
            self.ruleset_box.addItem(title, rid)
        self.title_edit = QLineEdit()
        self.title_edit.setPlaceholderText("e.g. Club night, table 2")
        self.variant_list = QListWidget()
        self.variant_list.setMaximumHeight(140)
        self.path_edit = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path_edit, 1)
        where.addWidget(browse)

        form = QFormLayout()
        form.addRow("&Ruleset", self.ruleset_box)
        form.addRow("&Title", self.title_edit)
        form.addRow("&Variants", self.variant_list)
        form.addRow("&File", where)
        #: how the dice are rolled at this table (issue 28: asked with every new game)
        self.dice_box = QComboBox()
        self.dice_box.setObjectName("dice_box")
        self.dice_box.addItem("Players roll real dice (type them)", True)
        self.dice_box.addItem("Airboss rolls", False)
        self.dice_box.setCurrentIndex(0 if players_roll else 1)
        form.addRow("&Dice", self.dice_box)
        # the wheel never changes a box the umpire has not picked (issue 29)
        guard_wheel(self.ruleset_box, self.dice_box)

        broken = broken_rulesets()
        self.broken_label = QLabel(
            "Not available (broken):\n"
            + "\n".join(f"• {rid}: {err}" for rid, err in broken.items())
        )
        self.broken_label.setWordWrap(True)
        self.broken_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.broken_label.setVisible(bool(broken))

        self.message = MessageBar()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        self.buttons.accepted.connect(self._check)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.broken_label)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)

        self.ruleset_box.currentIndexChanged.connect(self._ruleset_chosen)
        self.title_edit.textChanged.connect(self._suggest_path)
        self._path_touched = False
        self.path_edit.textEdited.connect(lambda _: setattr(self, "_path_touched", True))
        self._ruleset_chosen()
        self._suggest_path("")
        if self.ruleset_box.count() == 0:
            self.message.show_refusal("No working ruleset is installed.")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)

    def _ruleset_chosen(self) -> None:
        self.variant_list.clear()
        if self.ruleset_box.count() == 0:
            return
        rid = self.ruleset_box.currentData()
        for v in load_ruleset(rid).variants:
            item = QListWidgetItem(v.title + (f" ({v.rule})" if v.rule else ""))
            item.setData(Qt.ItemDataRole.UserRole, v.id)
            item.setToolTip(v.help)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if v.default else Qt.CheckState.Unchecked)
            self.variant_list.addItem(item)
        if self.variant_list.count() == 0:
            none = QListWidgetItem("(this ruleset has no variants)")
            none.setData(Qt.ItemDataRole.UserRole, "")
            self.variant_list.addItem(none)

    def _suggest_path(self, title: str) -> None:
        if not self._path_touched:
            self.path_edit.setText(str(fresh_path(title or "game")))

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "New game file", self.path_edit.text(), "Airboss games (*.airboss)"
        )
        if path:
            self._path_touched = True
            self.path_edit.setText(path if path.endswith(".airboss") else path + ".airboss")

    def _check(self) -> None:
        if not self.title_edit.text().strip():
            self.message.show_refusal("A new game needs a title.")
            return
        path = Path(self.path_edit.text().strip())
        if not str(path) or path.exists():
            self.message.show_refusal(f"{path}: a file of that name exists already.")
            return
        self.accept()

    def variants(self) -> list[str]:
        out = []
        for i in range(self.variant_list.count()):
            item = self.variant_list.item(i)
            vid = item.data(Qt.ItemDataRole.UserRole)
            if vid and item.checkState() == Qt.CheckState.Checked:
                out.append(vid)
        return out

    def players_roll(self) -> bool:
        """The dice choice: True when the players roll real dice and the umpire types them."""
        return bool(self.dice_box.currentData())

    def values(self) -> tuple[Path, str, str, list[str]]:
        """(file, ruleset id, title, variants)."""
        return (
            Path(self.path_edit.text().strip()),
            self.ruleset_box.currentData(),
            self.title_edit.text().strip(),
            self.variants(),
        )
