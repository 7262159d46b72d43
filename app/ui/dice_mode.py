"""Who rolls: "players roll real dice" (typed at the desk) or "Airboss rolls". One choice for
every panel that rolls, shown beside each Resolve button and remembered across starts."""

from __future__ import annotations

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QCheckBox, QWidget

KEY = "dice/players_roll"


class DiceMode(QObject):
    """The desk's one dice choice; ``changed(players_roll)`` tells every panel."""

    changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._players_roll = False
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

    def remember_in(self, settings: QSettings) -> None:
        """Read the choice from ``settings`` and keep it there from now on."""
        self._settings = settings
        self.set_players_roll(bool(settings.value(KEY, False, type=bool)))


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
