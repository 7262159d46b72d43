"""The Ruling window (issue 34): why a logged action came out as it did, every number explained.

Opened by a double-click or Enter on a line of the Game log, a row of the Critical hits panel,
or the Combat panel's last result. It shows ``app.core.ruling``'s ruling of that action; "Show
to players" puts its public parts on the Player display; Print and PDF give it on one page.
The window only renders: the ruling is worked out in ``app.core.ruling``.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import (
    QFont,
    QKeyEvent,
    QKeySequence,
    QPageLayout,
    QPainter,
    QPdfWriter,
    QShortcut,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import error_text
from app.core.ruling import Ruling
from app.ui.model import EngagementModel
from app.ui.widgets.message_bar import MessageBar
from app.ui.widgets.pdf_page import a4_writer

if TYPE_CHECKING:  # QtPrintSupport loads when the umpire first prints
    from PySide6.QtPrintSupport import QPrinter


def ruling_html(ruling: Ruling, size: float = 0) -> str:
    """The ruling as simple HTML: a heading per section, a line per item."""
    style = f"font-size:{size:g}pt;" if size else ""
    out = [f"<div style='{style}'>"]
    for n, (title, lines) in enumerate(ruling.sections()):
        tag = "h2" if n == 0 else "h3"
        if n == 0:
            out.append(f"<{tag}>{escape(lines[0])}</{tag}>")
            lines = lines[1:]
        else:
            out.append(f"<{tag}>{escape(title)}</{tag}>")
        for line in lines:
            bold = line.startswith("UNDONE") or line.endswith("<- came")
            text = escape(line)
            out.append(f"<div>{'<b>' + text + '</b>' if bold else text}</div>")
    out.append("</div>")
    return "\n".join(out)


def render_page(ruling: Ruling, device: QPdfWriter | QPrinter) -> None:
    """Draw the ruling on one page of ``device`` (a PDF writer or a printer): the type is made
    smaller until the whole ruling fits the page."""
    painter = QPainter(device)
    try:
        layout = device.pageLayout()
        dpi = device.resolution()
        paint = layout.paintRect(QPageLayout.Unit.Inch)
        width, height = paint.width() * dpi, paint.height() * dpi
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        size = 11.0
        while True:
            font = QFont()
            font.setPointSizeF(size)
            doc.setDefaultFont(font)
            doc.setHtml(ruling_html(ruling, size))
            # the document lays out in points; the page is in device pixels
            scale = dpi / 72
            doc.setTextWidth(width / scale)
            if doc.size().height() * scale <= height or size <= 5:
                break
            size -= 0.5
        painter.scale(scale, scale)
        doc.drawContents(painter, QRectF(0, 0, width / scale, height / scale))
    finally:
        painter.end()


def write_pdf(ruling: Ruling, path: str | Path) -> None:
    writer = a4_writer(path, f"Airboss ruling: {ruling.title}, log entry {ruling.seq}")
    render_page(ruling, writer)


class RulingWindow(QWidget):
    """One action's ruling, with Show to players, Print and PDF."""

    def __init__(self, model: EngagementModel, ruling: Ruling, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("ruling-window")
        self.model = model
        self.ruling = ruling
        self.setWindowTitle(f"Ruling — {ruling.title} (log entry {ruling.seq})")
        self.text = QTextBrowser()
        self.text.setObjectName("ruling_text")
        self.text.setHtml(ruling_html(ruling))
        self.show_button = QPushButton("&Show to players")
        self.show_button.setObjectName("show_to_players")
        self.show_button.setToolTip(
            "Put the ruling on the Player display: public parts only (nothing the rules keep "
            "secret, no positions, no umpire's notes)"
        )
        self.take_off_button = QPushButton("&Take off the Player display")
        self.take_off_button.setObjectName("take_off")
        self.print_button = QPushButton("&Print…")
        self.print_button.setObjectName("print")
        self.pdf_button = QPushButton("P&DF…")
        self.pdf_button.setObjectName("pdf")
        close = QPushButton("&Close")
        self.message = MessageBar()
        buttons = QHBoxLayout()
        for b in (self.show_button, self.take_off_button, self.print_button, self.pdf_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.show_button.clicked.connect(self.show_to_players)
        self.take_off_button.clicked.connect(lambda: self.model.show_ruling(None))
        self.print_button.clicked.connect(self.print_page)
        self.pdf_button.clicked.connect(self.save_pdf)
        close.clicked.connect(self.close)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self).activated.connect(self.close)
        self.resize(640, 700)

    def texts(self) -> str:
        return self.text.toPlainText()

    def show_to_players(self) -> None:
        """The public ruling on the Player display (opened if it is not)."""
        parent = self.parentWidget()
        main = parent.window() if parent is not None else None
        opener: Callable[[], object] | None = getattr(main, "open_player_view", None)
        if opener is not None:
            opener()  # the desk's Player display, opened or brought forward
        self.model.show_ruling(self.ruling)
        self.message.show_notice("On the Player display (public parts only).")

    def print_page(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        dialog = QPrintDialog(printer, self)
        if dialog.exec() != QPrintDialog.DialogCode.Accepted:
            return
        render_page(self.ruling, printer)

    def save_pdf(self) -> None:
        name = f"ruling-{self.ruling.seq}.pdf"
        path, _ = QFileDialog.getSaveFileName(self, "Save the ruling as PDF", name, "PDF (*.pdf)")
        if not path:
            return
        try:
            write_pdf(self.ruling, path)
        except OSError as e:
            self.message.show_refusal(f"The PDF was not written: {e}")
            return
        self.message.show_notice(f"Saved {path} (one page).")


def open_ruling(model: EngagementModel, seq: int, parent: QWidget) -> RulingWindow | None:
    """Open the ruling of the action that log entry ``seq`` belongs to (``None``: no game)."""
    if not model.has_session:
        return None
    # the undone actions as the desk's log index knows them (the whole log if it holds it)
    undone = model.log.undone if model.log_whole else None
    try:
        ruling = model.odds.ruling(seq, undone)
    except Exception as e:  # noqa: BLE001 - a log that cannot be read is said, never fatal
        model.refused.emit(f"No ruling for log entry {seq}: {error_text(e)}")
        return None
    window = RulingWindow(model, ruling, parent)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    window.show()
    window.raise_()
    return window


class OpensRuling(QObject):
    """An event filter: a double-click, or Enter with focus, on a widget opens a ruling."""

    def __init__(self, widget: QWidget, open_it: Callable[[], None]) -> None:
        super().__init__(widget)
        self._open = open_it
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseButtonDblClick:
            self._open()
            return True
        if (
            kind == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self._open()
            return True
        return super().eventFilter(watched, event)


__all__ = ["OpensRuling", "RulingWindow", "open_ruling", "render_page", "ruling_html", "write_pdf"]
