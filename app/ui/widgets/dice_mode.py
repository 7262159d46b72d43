"""Who rolls: "players roll real dice" (typed at the desk) or "Airboss rolls". One choice for
every panel that rolls, shown beside each Resolve button and remembered across starts.

It is asked once, at the first start (``DiceQuestion``) and in File > New game, with "players
roll real dice" as the default for an umpire's desk (issue 28): a desk that rolled by itself
until asked dropped the digits the umpire typed."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QToolButton, QWidget

KEY = "dice/players_roll"


class DiceMode(QObject):
    """The desk's one dice choice; ``changed(players_roll)`` tells every panel."""

    changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._players_roll = True
        self._settings: QSettings | None = None

    @property
    def players_roll(self) -> bool:
        """True when the players roll real dice and the umpire types them."""
        return self._players_roll

    def set_players_roll(self, on: bool) -> None:
        if on == self._players_roll:
            return
        self._players_roll = on
        if self._settings is not None:
            self._settings.setValue(KEY, on)
        self.changed.emit(on)

    @property
    def asked(self) -> bool:
        """Whether the umpire has made the choice (it is kept in the settings)."""
        return self._settings is not None and self._settings.contains(KEY)

    def choose(self, players_roll: bool) -> None:
        """The umpire's answer: kept from now on, even when it is the default."""
        self.set_players_roll(players_roll)
        if self._settings is not None:
            self._settings.setValue(KEY, players_roll)

    def remember_in(self, settings: QSettings) -> None:
        """Read the choice from ``settings`` (players roll until asked) and keep it there."""
        self._settings = settings
        self.set_players_roll(bool(settings.value(KEY, True, type=bool)))


def dice_mode_box(mode: DiceMode, parent: QWidget | None = None) -> QCheckBox:
    """The check box beside a Resolve button, bound both ways to the desk's dice choice."""
    box = QCheckBox("Players roll &real dice", parent)
    box.setObjectName("players_roll")
    box.setToolTip(
        "Ticked: type the dice the players rolled at the table. Unticked: Airboss rolls.\n"
        "One choice for every panel, remembered across starts."
    )
    box.setChecked(mode.players_roll)
    box.toggled.connect(mode.set_players_roll)
    mode.changed.connect(box.setChecked)
    return box


class DiceQuestion(QWidget):
    """The first start's question: how are the dice rolled at this table? Answered once (the
    answer is kept), with "players roll real dice" as the default button; it can be changed
    any time beside Resolve."""

    answered = Signal(bool)

    def __init__(self, mode: DiceMode, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dice_question")
        self.mode = mode
        self.setToolTip(
            "How are the dice rolled at this table? Asked once; change it any time with the "
            "box beside Resolve."
        )
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        row.addWidget(QLabel("<b>Dice:</b>"))
        # small buttons: the status bar keeps its height, the panels theirs (1366x768)
        # its own keys (Alt+Y, Alt+O: no other widget of the desk takes them), never the
        # keyboard focus: Space at the first start is
        # Next step in the Turn panel, not this answer (issue 47)
        self.players = QToolButton()
        self.players.setText("Pla&yers roll (default)")
        self.players.setObjectName("dice_players")
        self.airboss = QToolButton()
        self.airboss.setText("Airb&oss rolls")
        self.airboss.setObjectName("dice_airboss")
        for button, who in ((self.players, "the players roll"), (self.airboss, "Airboss rolls")):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAccessibleName(f"Dice: {who}")
            button.setAccessibleDescription(self.toolTip())
        row.addWidget(self.players)
        row.addWidget(self.airboss)
        self.players.clicked.connect(lambda: self._answer(True))
        self.airboss.clicked.connect(lambda: self._answer(False))

    def _answer(self, players_roll: bool) -> None:
        self.mode.choose(players_roll)
        self.hide()
        self.answered.emit(players_roll)
