"""View > Players' screens (issue 48): turn the players' pages on, and give each side its link.

Off by default. The umpire picks where the server listens: this computer only (localhost), or
one address of this laptop on the club's network; TLS with a certificate and key (the club
server's, when it has one). Each side's link is shown as text and as a QR code to scan with a
phone; "New link" revokes the side's token at once (its open pages say so) and shows the new
one. Each game has new links. Each side's "New link" has its own key (Alt and a letter of the
side's name): one key shared by both only moved the cursor between them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui.players.bridge import PlayersBridge
from app.ui.widgets.message_bar import MessageBar

LOCALHOST = "127.0.0.1"
#: the port offered first (any free one with 0)
PORT = 8765


def network_addresses() -> list[tuple[str, str]]:
    """This laptop's addresses on its networks (not loopback): (address, interface name)."""
    out: list[tuple[str, str]] = []
    for iface in QNetworkInterface.allInterfaces():
        flags = iface.flags()
        if not flags & QNetworkInterface.InterfaceFlag.IsUp or (
            flags & QNetworkInterface.InterfaceFlag.IsLoopBack
        ):
            continue
        for entry in iface.addressEntries():
            ip = entry.ip()
            if ip.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol:
                out.append((ip.toString(), iface.humanReadableName()))
    return out


def club_certificate() -> tuple[Path, Path] | None:
    """The club server's certificate and key (``airboss club-server --tls``), if this laptop
    made them and this account may read them."""
    from app.core.paths import user_data_dir

    data = user_data_dir() / "club-server" / "data"
    crt, key = data / "server.crt", data / "server.key"
    try:
        if crt.is_file() and key.is_file():
            with crt.open("rb"), key.open("rb"):
                return crt, key
    except OSError:
        pass
    return None


def with_mnemonic(text: str, used: set[str]) -> tuple[str, str]:
    """``text`` as a button's text with a key of its own: "&" before its first letter or digit
    not in ``used`` (lower case), which is added to it; "&" in ``text`` shown as itself. The
    text and the key's character ("" when every one is taken)."""
    shown = text.replace("&", "&&")
    for i, ch in enumerate(shown):
        if ch.isascii() and ch.isalnum() and ch.lower() not in used:
            used.add(ch.lower())
            return f"{shown[:i]}&{shown[i:]}", ch.upper()
    return shown, ""


def qr_pixmap(text: str, scale: int = 4) -> QPixmap:
    """The text as a QR code (segno), for a phone's camera."""
    import io

    import segno

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="png", scale=scale, border=2)
    pixmap = QPixmap()
    pixmap.loadFromData(buf.getvalue(), "PNG")
    return pixmap


class PlayersDialog(QDialog):
    """Start or stop the players' pages; each side's link and QR code; revoke a link."""

    def __init__(self, bridge: PlayersBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Players' screens")
        self.setObjectName("players-dialog")
        self.bridge = bridge
        self.where = QComboBox()
        self.where.setObjectName("where")
        self.where.addItem("This computer only (localhost)", LOCALHOST)
        for ip, name in network_addresses():
            self.where.addItem(f"The club's network: {ip} ({name})", ip)
        self.port = QLineEdit(str(PORT))
        self.port.setObjectName("port")
        self.tls = QCheckBox("TLS (https) with this certificate and key")
        self.tls.setObjectName("tls")
        self.certfile = QLineEdit()
        self.keyfile = QLineEdit()
        self.certfile.setPlaceholderText("certificate file (PEM)")
        self.keyfile.setPlaceholderText("key file (PEM)")
        club = club_certificate()
        if club is not None:
            self.certfile.setText(str(club[0]))
            self.keyfile.setText(str(club[1]))
        self.start_button = QPushButton("&Start")
        self.start_button.setObjectName("start")
        self.start_button.clicked.connect(self.toggle)
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.message = MessageBar()
        form = QFormLayout()
        form.addRow("Listen on", self.where)
        form.addRow("Port", self.port)
        form.addRow(self.tls)
        form.addRow("Certificate", self.certfile)
        form.addRow("Key", self.keyfile)
        self.sides_box = QWidget()
        self.sides = QGridLayout(self.sides_box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab stops on the links inside it only
        scroll.setWidget(self.sides_box)
        top = QHBoxLayout()
        top.addWidget(self.start_button)
        top.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(scroll, 1)
        bridge.changed.connect(self.refresh)
        self.resize(620, 640)
        self.refresh()

    def toggle(self) -> None:
        if self.bridge.running:
            self.bridge.stop()
            return
        from app.players.server import PlayersServerError

        port_text = self.port.text().strip()
        if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
            self.message.show_refusal(f"Port: {port_text!r} is not a port number (0 to 65535)")
            return
        cert = key = None
        if self.tls.isChecked():
            cert, key = self.certfile.text().strip(), self.keyfile.text().strip()
            if not cert or not key:
                self.message.show_refusal("TLS: name the certificate and its key file")
                return
        try:
            self.bridge.start(self.where.currentData(), int(port_text), cert, key)
        except PlayersServerError as e:
            self.message.show_refusal(str(e))
            return
        self.message.clear_refusal()

    def refresh(self) -> None:
        on = self.bridge.running
        self.start_button.setText("&Stop" if on else "&Start")
        for w in (self.where, self.port, self.tls, self.certfile, self.keyfile):
            w.setEnabled(not on)
        if on and self.bridge.server is not None:
            where = self.bridge.server.host
            scope = "this computer only" if where == LOCALHOST else f"the club's network ({where})"
            self.status.setText(f"Serving the players' pages on {scope}: {self.bridge.server.base}")
        else:
            self.status.setText("Off: no page is served.")
        # the side's link or button the keyboard was on: on its new one after (a New link
        # pressed by keys rebuilds the boxes, and the deleted button took the cursor with it)
        focused = QApplication.focusWidget()
        keep = focused.objectName() if focused is not None and self.isAncestorOf(focused) else ""
        made: dict[str, QWidget] = {}
        while self.sides.count():
            item = self.sides.takeAt(0)
            gone = item.widget() if item is not None else None
            if gone is not None:
                gone.deleteLater()
        if not on:
            return
        used = {"s"}  # &Start / &Stop
        for row, (side, link) in enumerate(self.bridge.links().items()):
            box = QGroupBox(side)
            col = QVBoxLayout(box)
            text = QLineEdit(link)
            text.setReadOnly(True)
            text.setObjectName(f"link-{side}")
            # longer than its field: shown from its start (the address and port), whole in
            # the tooltip, still selected whole for a copy
            text.setCursorPosition(0)
            text.setToolTip(link)
            code = QLabel()
            code.setObjectName(f"qr-{side}")
            code.setPixmap(qr_pixmap(link))
            # a key of its own for each side (one shared key only moves between the buttons)
            named, key = with_mnemonic(side, used)
            revoke = QPushButton(f"New link for {named} (the old one stops working)")
            revoke.setObjectName(f"new-link-{side}")
            revoke.setToolTip(
                (f"Alt+{key}: " if key else "")
                + f"a new link for {side}; the old one stops working at once"
            )
            revoke.clicked.connect(lambda _=False, s=side: self.bridge.revoke(s))
            col.addWidget(text)
            col.addWidget(code)
            col.addWidget(revoke)
            self.sides.addWidget(box, row // 2, row % 2)
            made.update({text.objectName(): text, revoke.objectName(): revoke})
        if keep in made:
            made[keep].setFocus(Qt.FocusReason.OtherFocusReason)
