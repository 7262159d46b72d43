"""File > Open from server: the games on a club's server and how to open one (issue 17).

The dialog asks for the server's URL (remembered for next time), lists its games with the same
overview ``airboss --db URL --list`` prints (``opening.overview``) and opens the chosen one
as a station (the umpire acts), read-only at the desk (HQ follows live, acts on nothing) or as
the Player display (only what the players may see). Enter lists the games when the URL is new,
and opens the chosen game once they are listed; Esc closes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import error_text
from app.session import opening
from app.session.opening import OVERVIEW_HEAD
from app.ui.widgets.tab_leaves import let_tab_leave

#: how a game from a server is opened
STATION, HQ, PLAYERS = "station", "hq", "players"
ROLES = (
    (STATION, "As a &station (this desk acts on the game)"),
    (HQ, "&Read-only desk (HQ: follows live, changes nothing)"),
    (PLAYERS, "&Player display (read-only, what the players may see)"),
)
#: where the last server's URL is remembered
URL_KEY = "server/url"


def ask_password(shown_url: str) -> str | None:
    """A server's password that this computer's keyring does not hold, asked for when the
    game opens (issue 30: ``airboss --db URL`` at the desk): typed hidden; ``passwords`` keeps
    it in the keyring where there is one. ``None`` if the umpire cancels."""
    from PySide6.QtWidgets import QInputDialog

    text, ok = QInputDialog.getText(
        None,
        "Password for the club's server",
        f"Password for {shown_url}\n(the keyring keeps it for the next time):",
        QLineEdit.EchoMode.Password,
    )
    return text if ok and text else None


def ask_trust(host: str, port: int, fingerprint: str) -> bool:
    """Whether to trust a club's server this computer meets for the first time (issue 46):
    its certificate's fingerprint shown to compare with what the club's laptop printed; No
    (the default) sends nothing to it."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(
        QMessageBox.Icon.Question,
        "A server this computer does not know",
        f"{host}:{port} is not known to this computer yet. Its certificate's fingerprint is\n\n"
        f"{fingerprint}\n\nIs it the fingerprint the club's server printed when it started? "
        "Only then trust it: this computer will send its password to no other server at "
        "this address.",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
    )
    box.setObjectName("trust-server")
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return box.exec() == QMessageBox.StandardButton.Yes


def ask_here() -> None:
    """The desk asks, in dialogs, for a password the keyring lacks and whether to trust a
    club's server met for the first time."""
    opening.ask_passwords_with(ask_password)
    opening.ask_trust_with(ask_trust)


class OpenFromServerDialog(QDialog):
    """A server's games; ``chosen()`` after ``exec()``: (url, game id, role)."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open from server")
        self.setObjectName("open-from-server")
        self.settings = settings
        self.rows: list[dict[str, Any]] = []
        self._listed: str | None = None

        self.url = QLineEdit(str(settings.value(URL_KEY, "") or ""))
        self.url.setPlaceholderText("postgresql://airboss_station@club-laptop:5433/club")
        #: the role's password, when this computer's keyring does not hold it yet (issue 30)
        self.password = QLineEdit()
        self.password.setObjectName("server-password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("only the first time: the keyring keeps it")
        self.list_button = QPushButton("&List games")
        self.list_button.setAutoDefault(False)
        self.list_button.clicked.connect(self.list_games)
        top = QHBoxLayout()
        label = QLabel("&Server:")
        label.setBuddy(self.url)
        top.addWidget(label)
        top.addWidget(self.url, 1)
        secret = QLabel("Pass&word:")
        secret.setBuddy(self.password)
        top.addWidget(secret)
        top.addWidget(self.password)
        top.addWidget(self.list_button)

        self.table = QTableWidget(0, len(OVERVIEW_HEAD) - 1)
        self.table.setHorizontalHeaderLabels([h.capitalize() for h in OVERVIEW_HEAD[1:]])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        let_tab_leave(self.table)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _index: self.accept())

        self.roles = QButtonGroup(self)
        role_box = QVBoxLayout()
        for n, (role, text) in enumerate(ROLES):
            button = QRadioButton(text)
            button.setObjectName(f"role-{role}")
            button.setChecked(n == 0)
            self.roles.addButton(button, n)
            role_box.addWidget(button)

        self.message = QLabel()
        self.message.setObjectName("server-message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel
        )
        self.open_button = self.buttons.button(QDialogButtonBox.StandardButton.Open)
        self.open_button.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addLayout(role_box)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.resize(900, 420)
        self.url.setFocus()

    def list_games(self) -> bool:
        """Read the server's overview into the table; a message (never a password) if the
        server cannot be reached or refuses."""
        url = self.url.text().strip()
        typed = self.password.text()
        # the typed password kept for this run, and in the keyring where there is one; the
        # URL remembered and shown without its password
        if url and typed:
            self.password.clear()
        url = opening.server_url(url, typed)
        self.url.setText(url)
        self.table.setRowCount(0)
        self.rows = []
        self._listed = None
        if not url:
            self.message.setText("Type the server's address, as the club's server printed it.")
            return False
        opening.ask_trust_with(ask_trust)  # the password has its own box here
        try:
            rows = opening.overview(url)
        except Exception as e:  # noqa: BLE001 - an unreachable server is a message
            self.message.setText(f"Could not list the games: {error_text(e)}")
            return False
        self.settings.setValue(URL_KEY, url)
        self._listed = url
        self.rows = rows
        for r, cells in enumerate(opening.overview_table(rows)):
            self.table.insertRow(r)
            for c, text in enumerate(cells[1:]):
                self.table.setItem(r, c, QTableWidgetItem(text))
        if rows:
            self.table.selectRow(0)
            self.table.setFocus()
            self.message.setText(f"{len(rows)} game(s) on the server: choose one and press Enter.")
        else:
            self.message.setText("The server holds no games yet.")
        return True

    @property
    def role(self) -> str:
        return ROLES[max(0, self.roles.checkedId())][0]

    def set_role(self, role: str) -> None:
        self.roles.button([r for r, _ in ROLES].index(role)).setChecked(True)

    def chosen(self) -> tuple[str, str, str] | None:
        """(server URL, game id, role) of the chosen game, or ``None``."""
        row = self.table.currentRow()
        if self._listed is None or not 0 <= row < len(self.rows):
            return None
        return self._listed, str(self.rows[row]["id"]), self.role

    def accept(self) -> None:
        # Enter on a new address lists its games; Enter on a listed game opens it
        if self._listed is None or self._listed != self.url.text().strip():
            self.list_games()
            return
        if self.chosen() is None:
            self.message.setText("Choose a game first.")
            return
        super().accept()


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(lambda _model: OpenFromServerDialog(QSettings())))
