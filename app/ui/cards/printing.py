"""Pages of cards and File > Print cards.

Pages: paper size from the locale, one, two or four cards a page, drawn by
``app.ui.cards.render`` onto any paged device (``QPdfWriter``, ``QPrinter``) with a progress
callback that can cancel. The dialog chooses the cards (all, a side, the selection, or changed
since last printed), previews them and prints them or saves a PDF; the preview widget draws a
page with the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLocale, QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPaintEvent,
    QPdfWriter,
    QShowEvent,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressDialog,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import RuleViolation
from app.core.text import file_stem
from app.session.roster import Roster
from app.ui.cards.render import (
    DPI,
    MM,
    SCALE,
    CardFace,
    card_faces,
    paint_card,
)
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient

#: page margin, and the gap between two cards (where the scissors go)
MARGIN_MM = 8.0
GUTTER = 6 * MM
PER_PAGE = (1, 2, 4)

#: (done, total) -> False to cancel
Progress = Callable[[int, int], bool]

# CLDR's paper-size data: these territories use US Letter, the rest of the world A4.
_LETTER_TERRITORIES = {
    "UnitedStates",
    "Canada",
    "Mexico",
    "Belize",
    "Chile",
    "Colombia",
    "CostaRica",
    "Guatemala",
    "Nicaragua",
    "Panama",
    "Philippines",
    "PuertoRico",
    "ElSalvador",
    "Venezuela",
}


class CardsCancelled(Exception):
    """The umpire cancelled a print job part way."""


def page_size_for(locale: QLocale | None = None) -> QPageSize:
    """Letter where the locale's territory uses it (US, Canada ...), else A4."""
    territory = (locale or QLocale.system()).territory()
    letter = any(territory == getattr(QLocale.Country, n, None) for n in _LETTER_TERRITORIES)
    return QPageSize(QPageSize.PageSizeId.Letter if letter else QPageSize.PageSizeId.A4)


def page_size_named(name: str | None) -> QPageSize:
    """``"A4"`` or ``"Letter"`` (any case); ``None`` for the locale's size."""
    if name is None:
        return page_size_for()
    sizes = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
    try:
        return QPageSize(sizes[name.lower()])
    except KeyError:
        raise ValueError(f"page size {name!r}: choose A4 or Letter") from None


def page_layout(size: QPageSize) -> QPageLayout:
    m = MARGIN_MM
    return QPageLayout(
        size, QPageLayout.Orientation.Portrait, QMarginsF(m, m, m, m), QPageLayout.Unit.Millimeter
    )


def pages_needed(cards: int, per_page: int) -> int:
    return -(-cards // per_page)


# -- pages ----------------------------------------------------------------------------------


def card_slots(area: QRectF, per_page: int) -> list[QRectF]:
    """Where the cards of one page go: one, two stacked (landscape) or four (2 x 2)."""
    if per_page not in PER_PAGE:
        raise ValueError(f"cards per page must be one of {PER_PAGE}, not {per_page}")
    if per_page == 1:
        return [QRectF(area)]
    h = (area.height() - GUTTER) / 2
    if per_page == 2:
        return [QRectF(area.x(), area.y() + i * (h + GUTTER), area.width(), h) for i in (0, 1)]
    w = (area.width() - GUTTER) / 2
    return [
        QRectF(area.x() + c * (w + GUTTER), area.y() + r * (h + GUTTER), w, h)
        for r in (0, 1)
        for c in (0, 1)
    ]


def paint_page(p: QPainter, faces: Sequence[CardFace], area: QRectF, per_page: int) -> None:
    """The cards of one page into ``area`` (decipoints)."""
    for face, slot in zip(faces, card_slots(area, per_page), strict=False):
        paint_card(p, face, slot, SCALE[per_page])


def paint_pages(
    device: QPagedPaintDevice,
    faces: Sequence[CardFace],
    per_page: int = 2,
    progress: Progress | None = None,
) -> int:
    """Draw every card onto a paged device (``QPdfWriter`` or ``QPrinter``); returns the pages.

    ``progress(done, total)`` is called before the first card and after each one; when it
    returns False the job stops and ``CardsCancelled`` is raised.
    """
    return _paint_pages(device, faces, per_page, progress)


def _paint_pages(
    device: QPagedPaintDevice,
    faces: Sequence[CardFace],
    per_page: int,
    progress: Progress | None,
) -> int:
    card_slots(QRectF(), per_page)  # validates per_page before anything is drawn
    total = len(faces)
    if progress is not None and not progress(0, total):
        raise CardsCancelled()
    p = QPainter()
    if not p.begin(device):
        raise OSError("cannot draw on this printer or file")
    try:
        s = device.logicalDpiX() / DPI
        p.scale(s, device.logicalDpiY() / DPI)
        area = QRectF(0, 0, device.width() / s, device.height() * DPI / device.logicalDpiY())
        done = 0
        pages = pages_needed(total, per_page)
        for page in range(pages):
            if page:
                device.newPage()
            for face, slot in zip(
                faces[page * per_page : (page + 1) * per_page],
                card_slots(area, per_page),
                strict=False,
            ):
                paint_card(p, face, slot, SCALE[per_page])
                done += 1
                if progress is not None and not progress(done, total):
                    raise CardsCancelled()
    finally:
        p.end()
    return pages


def write_pdf(
    path: str | Path,
    faces: Sequence[CardFace],
    per_page: int = 2,
    page_size: QPageSize | None = None,
    progress: Progress | None = None,
    title: str = "Airboss control cards",
) -> int:
    """The cards as a PDF file; returns the number of pages. A cancelled job leaves no file."""
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setResolution(DPI)
    writer.setPageLayout(page_layout(page_size or page_size_for()))
    writer.setTitle(title)
    writer.setCreator("Airboss")
    try:
        pages = paint_pages(writer, faces, per_page, progress)
    except CardsCancelled:
        del writer
        path.unlink(missing_ok=True)
        raise
    del writer  # closes the file
    return pages


#: which cards a print job takes
WHICH = ("all", "side", "selected", "changed")


def choose_cards(
    roster: Roster,
    which: str = "all",
    side: str | None = None,
    selected: Sequence[str] = (),
) -> list[str]:
    """The aircraft ids a job prints, in roster order: all, one side, a selection, or changed
    (since last printed: the game's ``roster`` knows)."""
    e = roster.engagement
    if which == "all":
        return list(e.aircraft)
    if which == "side":
        if side not in e.sides:
            raise RuleViolation(
                f"no side {side!r} in this game; sides: {', '.join(e.sides) or 'none'}"
            )
        return [a.id for a in e.aircraft.values() if a.side == side]
    if which == "selected":
        chosen = set(selected)
        return [k for k in e.aircraft if k in chosen]
    if which == "changed":
        return roster.changed_since_printed()
    raise ValueError(f"which cards: one of {', '.join(WHICH)}, not {which!r}")


class CardPreview(QWidget):
    """One page of cards on screen, drawn by the same code as the PDF and the printer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._faces: list[CardFace] = []
        self._per_page = 2
        self._size = page_size_for()
        self._page = 0
        self.setMinimumSize(260, 360)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_cards(self, faces: Sequence[CardFace], per_page: int, size: QPageSize) -> None:
        self._faces, self._per_page, self._size = list(faces), per_page, size
        self._page = min(self._page, max(0, self.page_count - 1))
        self.update()

    @property
    def page_count(self) -> int:
        return pages_needed(len(self._faces), self._per_page)

    @property
    def page(self) -> int:
        return self._page

    def set_page(self, page: int) -> None:
        self._page = max(0, min(page, self.page_count - 1))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        self._paint()

    def _paint(self) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), self.palette().window())
        pts = self._size.sizePoints()
        page_w, page_h = pts.width() * DPI / 72, pts.height() * DPI / 72
        room = QRectF(self.rect()).adjusted(10, 10, -10, -10)
        s = min(room.width() / page_w, room.height() / page_h)
        x = room.x() + (room.width() - page_w * s) / 2
        y = room.y() + (room.height() - page_h * s) / 2
        p.fillRect(QRectF(x + 3, y + 3, page_w * s, page_h * s), QColor(0, 0, 0, 60))
        p.fillRect(QRectF(x, y, page_w * s, page_h * s), Qt.GlobalColor.white)
        p.translate(x, y)
        p.scale(s, s)
        m = MARGIN_MM * MM
        area = QRectF(m, m, page_w - 2 * m, page_h - 2 * m)
        first = self._page * self._per_page
        paint_page(p, self._faces[first : first + self._per_page], area, self._per_page)
        p.end()


class PrintCardsDialog(QDialog):
    """Choose the cards (all, a side, the selection, or changed since printed), see them, and
    print them, preview them or save them as a PDF; printed cards are recorded in the log."""

    #: a job that takes longer than this shows its progress, with Cancel
    progress_after_ms = 400

    def __init__(
        self,
        model: EngagementModel,
        selected_aircraft_ids: Sequence[str] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._selection = list(selected_aircraft_ids)
        self.setWindowTitle("Print cards")

        self._radios = {
            "all": QRadioButton(),
            "side": QRadioButton(),
            "selected": QRadioButton(),
            "changed": QRadioButton(),
        }
        self._group = QButtonGroup(self)
        self._side = QComboBox()
        which = QGroupBox("Cards")
        grid = QGridLayout(which)
        for row, radio in enumerate(self._radios.values()):
            self._group.addButton(radio)
            grid.addWidget(radio, row, 0)
        grid.addWidget(self._side, 1, 1)

        self._per_page = QComboBox()
        for n in PER_PAGE:
            self._per_page.addItem(f"{n} per page", n)
        self._per_page.setCurrentIndex(PER_PAGE.index(2))
        self._size = QComboBox()
        for size_id in (QPageSize.PageSizeId.A4, QPageSize.PageSizeId.Letter):
            self._size.addItem(QPageSize(size_id).key(), size_id)
        self._size.setCurrentIndex(self._size.findData(page_size_for().id()))
        form = QFormLayout()
        form.addRow("Layout", self._per_page)
        form.addRow("Paper", self._size)

        self._summary = QLabel()
        self._status = QLabel()
        self._status.setWordWrap(True)
        self.preview = CardPreview()
        self._prev = QPushButton("\u25c0")
        self._next = QPushButton("\u25b6")
        self._page_label = QLabel()
        for b in (self._prev, self._next):
            b.setMaximumWidth(48)
            b.setAutoDefault(False)
        nav = QHBoxLayout()
        nav.addWidget(self._prev)
        nav.addWidget(self._page_label, 1, Qt.AlignmentFlag.AlignCenter)
        nav.addWidget(self._next)

        self._preview_button = QPushButton("Print preview\u2026")
        self._pdf_button = QPushButton("Save PDF\u2026")
        self._print_button = QPushButton("Print\u2026")
        close = QPushButton("Close")
        self._print_button.setDefault(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self._preview_button)
        buttons.addWidget(self._pdf_button)
        buttons.addStretch(1)
        buttons.addWidget(self._print_button)
        buttons.addWidget(close)

        left = QVBoxLayout()
        left.addWidget(which)
        left.addLayout(form)
        left.addWidget(self._summary)
        left.addWidget(self._status)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.preview, 1)
        right.addLayout(nav)
        body = QHBoxLayout()
        body.addLayout(left)
        body.addLayout(right, 1)
        outer = QVBoxLayout(self)
        outer.addLayout(body, 1)
        outer.addLayout(buttons)
        self.resize(820, 600)

        default = (
            "changed"
            if model.has_session and model.roster.printed and model.roster.changed_since_printed()
            else "all"
        )
        self._radios[default].setChecked(True)
        self._group.buttonToggled.connect(lambda *_: self._refresh())
        self._side.currentIndexChanged.connect(self._side_chosen)
        self._per_page.currentIndexChanged.connect(lambda *_: self._refresh())
        self._size.currentIndexChanged.connect(lambda *_: self._refresh())
        self._prev.clicked.connect(lambda: self._turn(-1))
        self._next.clicked.connect(lambda: self._turn(1))
        self._preview_button.clicked.connect(self.show_print_preview)
        self._pdf_button.clicked.connect(self._ask_save_pdf)
        self._print_button.clicked.connect(self._ask_print)
        close.clicked.connect(self.reject)
        # a hidden dialog redraws nothing on game actions, and a finished one stops listening
        self._stale = False
        model.appended.connect(self._model_changed)
        model.reset.connect(self._model_changed)
        self.finished.connect(self._detach)
        self._refresh()

    def _model_changed(self, *_: object) -> None:
        if self.isVisible():
            self._refresh()
        else:
            self._stale = True

    def _detach(self) -> None:
        self._model.appended.disconnect(self._model_changed)
        self._model.reset.disconnect(self._model_changed)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        if self._stale:
            self._stale = False
            self._refresh()
        super().showEvent(event)

    # -- the choice ---------------------------------------------------------------------------

    def which(self) -> str:
        return next(k for k, r in self._radios.items() if r.isChecked())

    def set_which(self, which: str, side: str | None = None) -> None:
        if side is not None:
            self._side.setCurrentIndex(self._side.findText(side))
        self._radios[which].setChecked(True)

    def set_layout(self, per_page: int, size: QPageSize.PageSizeId | None = None) -> None:
        self._per_page.setCurrentIndex(PER_PAGE.index(per_page))
        if size is not None:
            self._size.setCurrentIndex(self._size.findData(size))

    @property
    def per_page(self) -> int:
        return int(self._per_page.currentData())

    @property
    def page_size(self) -> QPageSize:
        return QPageSize(self._size.currentData())

    def aircraft_ids(self) -> list[str]:
        """The aircraft whose cards the current choice prints."""
        if not self._model.has_session:
            return []
        side = self._side.currentText() or None
        return choose_cards(self._model.roster, self.which(), side, self._selection)

    def faces(self) -> list[CardFace]:
        return card_faces(self._model.ruleset, self._model.engagement, self.aircraft_ids())

    def _side_chosen(self) -> None:
        if self._side.currentText():
            self._radios["side"].setChecked(True)
        self._refresh()

    @patient
    def _refresh(self) -> None:
        if not self._model.has_session:
            self._summary.setText("No game is open.")
            for b in (self._preview_button, self._pdf_button, self._print_button):
                b.setEnabled(False)
            return
        roster = self._model.roster
        e = roster.engagement
        sides = list(e.sides)
        if [self._side.itemText(i) for i in range(self._side.count())] != sides:
            current = self._side.currentText()
            self._side.blockSignals(True)
            self._side.clear()
            self._side.addItems(sides)
            if current in sides:
                self._side.setCurrentText(current)
            self._side.blockSignals(False)
        counts = {
            "all": len(e.aircraft),
            "selected": len(choose_cards(roster, "selected", None, self._selection)),
            "changed": len(roster.changed_since_printed()),
        }
        self._radios["all"].setText(f"All aircraft ({counts['all']})")
        self._radios["side"].setText("One side")
        self._radios["side"].setEnabled(bool(sides))
        self._radios["selected"].setText(f"Selected aircraft ({counts['selected']})")
        self._radios["selected"].setEnabled(counts["selected"] > 0)
        self._radios["changed"].setText(self._changed_text(counts["changed"]))
        # none changed: nothing to offer (a print from the command line may have taken them)
        self._radios["changed"].setEnabled(counts["changed"] > 0)
        if counts["changed"] == 0 and self._radios["changed"].isChecked():
            self._radios["all"].setChecked(True)
            return  # the radio's toggle refreshes
        faces = self.faces()
        pages = pages_needed(len(faces), self.per_page)
        self._summary.setText(
            f"{len(faces)} card{'s' if len(faces) != 1 else ''} on "
            f"{pages} page{'s' if pages != 1 else ''}"
        )
        for b in (self._preview_button, self._pdf_button, self._print_button):
            b.setEnabled(bool(faces))
        self.preview.set_cards(faces, self.per_page, self.page_size)
        self._turn(0)

    def _changed_text(self, count: int) -> str:
        """ "Changed since last printed (N)", saying when and where the cards were last
        printed (from the desk or the command line: ``airboss cards`` records its prints too,
        issue 47)."""
        last = self._model.whole_log().last_printed if self._model.has_session else None
        if last is None:
            return f"Changed since last printed ({count})"
        when = datetime.fromtimestamp(last[0]).strftime("%d %b %H:%M")
        where = f", {last[1]}" if last[1] else ""
        return f"Changed since last printed ({count or 'none'}; last printed {when}{where})"

    def _turn(self, step: int) -> None:
        self.preview.set_page(self.preview.page + step)
        n = self.preview.page_count
        self._page_label.setText(f"Page {self.preview.page + 1} of {n}" if n else "No cards")
        self._prev.setEnabled(self.preview.page > 0)
        self._next.setEnabled(self.preview.page + 1 < n)

    # -- the jobs -----------------------------------------------------------------------------

    def _progress(self, total: int) -> tuple[QProgressDialog, Progress]:
        dlg = QProgressDialog("Drawing control cards\u2026", "Cancel", 0, total, self)
        dlg.setWindowTitle("Print cards")
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        dlg.setMinimumDuration(self.progress_after_ms)

        def step(done: int, total: int) -> bool:
            dlg.setValue(done)
            return not dlg.wasCanceled()

        return dlg, step

    def _run(
        self, job: str, draw: Callable[[list[CardFace], Progress], int], where: str = ""
    ) -> bool:
        """Run a drawing job with progress; on success record the cards as printed (``where``
        they went, for the log and for the next print's "changed since")."""
        ids = self.aircraft_ids()
        faces = self.faces()
        dlg, step = self._progress(len(faces))
        try:
            pages = draw(faces, step)
        except CardsCancelled:
            self._status.setText(f"{job} cancelled; nothing was recorded as printed.")
            return False
        except OSError as e:
            self._status.setText(f"{job} failed: {e}")
            return False
        finally:
            dlg.reset()
            dlg.deleteLater()
        self._model.attempt(lambda: self._model.roster.mark_printed(ids, where))
        self._refresh()
        self._status.setText(f"{job}: {len(faces)} cards on {pages} pages.")
        return True

    def save_pdf(self, path: str) -> bool:
        """The chosen cards to a PDF file, then recorded as printed."""
        return self._run(
            "Saved " + path,
            lambda faces, step: write_pdf(
                path, faces, self.per_page, self.page_size, step, f"{self._title()} - cards"
            ),
            f"to {path} (the desk)",
        )

    def print_to(self, printer: QPrinter) -> bool:
        """The chosen cards on this printer (its paper as set up), then recorded as printed."""
        return self._run(
            "Printed",
            lambda faces, step: paint_pages(printer, faces, self.per_page, step),
            f"on the printer {printer.printerName() or '(default)'} (the desk)",
        )

    def _title(self) -> str:
        return self._model.engagement.title if self._model.has_session else "Airboss"

    def new_printer(self) -> QPrinter:
        """A printer set up with the chosen paper and the cards' margins."""
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(page_layout(self.page_size))
        printer.setDocName(f"{self._title()} - cards")
        return printer

    @patient
    def _ask_print(self) -> None:
        printer = self.new_printer()
        if QPrintDialog(printer, self).exec() == QDialog.DialogCode.Accepted:
            if self.print_to(printer):
                self.accept()

    @patient
    def _ask_save_pdf(self) -> None:
        name = f"{file_stem(self._title(), 'Airboss')} cards.pdf"
        path, _ = QFileDialog.getSaveFileName(self, "Save cards as PDF", name, "PDF (*.pdf)")
        if path and self.save_pdf(path if path.lower().endswith(".pdf") else path + ".pdf"):
            self.accept()

    def print_preview_dialog(self) -> QPrintPreviewDialog:
        """Qt's print preview of the chosen cards; printing from it records them."""
        # the dialog does not own its printer: keep it alive as long as the dialog
        self._preview_printer = printer = self.new_printer()
        dlg = QPrintPreviewDialog(printer, self)
        dlg.setWindowTitle("Print preview: cards")
        faces, per_page = self.faces(), self.per_page
        dlg.paintRequested.connect(lambda pr: paint_pages(pr, faces, per_page))
        return dlg

    @patient
    def show_print_preview(self) -> None:
        ids = self.aircraft_ids()
        if self.print_preview_dialog().exec() == QDialog.DialogCode.Accepted:
            where = f"on the printer {self._preview_printer.printerName() or '(default)'}"
            self._model.attempt(lambda: self._model.roster.mark_printed(ids, f"{where} (the desk)"))
            self.accept()


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(PrintCardsDialog))
