"""The one control-card renderer: a ruleset's ``CardSpec`` for an aircraft, drawn with QPainter.

Everything is laid out in decipoints (1/720 inch) with pixel-sized fonts, so the layout does
not depend on the device: the preview widget, the PDF (``QPdfWriter``) and the printer
(``QPrinter``) only differ in the scale the painter is given. Cards are black and white (light
grey for shading only), drawn as vector text and lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QPainter,
    QPen,
)

from app.core.card_face import CardFace, card_face, card_faces
from app.core.ruleset import CardBlock, KeyValues, Lines, Table, Track

#: what a card shows, made without Qt (``app.core.card_face``): the printed card, the preview
#: and the players' pages (issue 48) draw the same faces
__all__ = ["CardFace", "card_face", "card_faces", "layout_card", "paint_card"]

#: layout units per inch: a decipoint
DPI = 720
MM = DPI / 25.4
#: text size for each layout: a whole-page card reads larger, a quarter-page one smaller
SCALE = {1: 1.35, 2: 1.0, 4: 0.85}
_BLACK = QColor(0, 0, 0)
_DARK = QColor(70, 70, 70)
_GREY = QColor(205, 205, 205)
_SHADE = QColor(238, 238, 238)


# -- fonts and text -------------------------------------------------------------------------


@cache
def _family() -> str:
    families = set(QFontDatabase.families())
    for name in ("DejaVu Sans", "Helvetica", "Arial", "Liberation Sans", "Noto Sans"):
        if name in families:
            return name
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont).family()


@cache
def _font(points: float, bold: bool = False) -> tuple[QFont, QFontMetricsF]:
    f = QFont(_family())
    f.setPixelSize(max(1, round(points * 10)))
    f.setBold(bold)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    # no "fi" ligatures: the PDF's text stays searchable and copyable as typed
    f.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
    return f, QFontMetricsF(f)


class _Style:
    """The fonts and sizes of a card at scale ``k`` (1 = the two-per-page card)."""

    def __init__(self, k: float) -> None:
        self.k = k
        self.name = _font(15 * k, True)
        self.heading = _font(9 * k)
        self.meta = _font(6.5 * k)
        self.title = _font(7 * k, True)
        self.body = _font(8 * k)
        self.bold = _font(8 * k, True)
        self.small = _font(6.5 * k)
        self.small_bold = _font(6.5 * k, True)
        self.box = 14 * 10 * k
        self.gap = 5 * 10 * k  # between blocks
        self.pad = 2.2 * 10 * k


def _wrap(text: str, fm: QFontMetricsF, width: float) -> list[str]:
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and fm.horizontalAdvance(trial) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return [fm.elidedText(t, Qt.TextElideMode.ElideRight, width) for t in out]


def _text(p: QPainter, font: tuple[QFont, QFontMetricsF], x: float, top: float, s: str) -> None:
    p.setFont(font[0])
    p.drawText(QPointF(x, top + font[1].ascent()), s)


def _text_right(
    p: QPainter, font: tuple[QFont, QFontMetricsF], right: float, top: float, s: str
) -> None:
    _text(p, font, right - font[1].horizontalAdvance(s), top, s)


def _pen(color: QColor, width: float) -> QPen:
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


# -- blocks: measure(width) and draw at (x, y) ----------------------------------------------


def _title_height(st: _Style) -> float:
    return st.title[1].height() + st.pad


def _note_fits(st: _Style, title: str, note: str, w: float) -> bool:
    """Whether a block's note fits on its title line (else it gets a line of its own)."""
    need = st.title[1].horizontalAdvance(title.upper()) + st.small[1].horizontalAdvance(note)
    return not note or need + 4 * st.pad <= w


def _draw_title(
    p: QPainter, st: _Style, title: str, note: str, x: float, y: float, w: float
) -> None:
    fm = st.title[1]
    _text(p, st.title, x, y, fm.elidedText(title.upper(), Qt.TextElideMode.ElideRight, w))
    if note:
        p.setPen(_DARK)
        _text_right(p, st.small, x + w, y + fm.ascent() - st.small[1].ascent(), note)
        p.setPen(_BLACK)
    line_y = y + fm.height() + st.pad * 0.35
    p.setPen(_pen(_BLACK, 6 * st.k))
    p.drawLine(QPointF(x, line_y), QPointF(x + w, line_y))
    p.setPen(_BLACK)


def _kv_layout(
    b: KeyValues, st: _Style, w: float
) -> tuple[int, float, int, list[tuple[list[str], list[str], bool, float]]]:
    """Columns, column width, items per column, and each item's key lines, value lines,
    whether the value sits under the key, and its height.

    Pairs go side by side when they fit; a pair too long for one line puts its value on the
    next line, right-aligned, and wraps rather than cuts.
    """
    fm, fb = st.body[1], st.bold[1]
    need = max((fm.horizontalAdvance(k) + fb.horizontalAdvance(v) for k, v in b.items), default=0.0)
    need += 4 * st.pad
    most = 3 if w > 120 * MM else 2
    ncol = max(1, min(most, len(b.items), int((w + 2 * st.pad) // max(need, 1))))
    colw = (w - (ncol - 1) * 2 * st.pad) / ncol
    rh, lh = _kv_row(st), fb.height()
    cells = []
    for key, value in b.items:
        if fm.horizontalAdvance(key) + fb.horizontalAdvance(value) + st.pad <= colw:
            cells.append(([key], [value], False, rh))
        else:
            keys, values = _wrap(key, fm, colw), _wrap(value, fb, colw)
            cells.append((keys, values, True, rh + (len(keys) + len(values) - 1) * lh))
    return ncol, colw, -(-len(b.items) // ncol), cells


def _kv_row(st: _Style) -> float:
    return st.body[1].height() * 1.35


def _measure_kv(b: KeyValues, st: _Style, w: float) -> float:
    _, _, rows, cells = _kv_layout(b, st, w)
    cols = [cells[i : i + rows] for i in range(0, len(cells), rows)]
    return _title_height(st) + max((sum(c[3] for c in col) for col in cols), default=0.0)


def _draw_kv(p: QPainter, b: KeyValues, st: _Style, x: float, y: float, w: float) -> None:
    _draw_title(p, st, b.title, "", x, y, w)
    ncol, colw, rows, cells = _kv_layout(b, st, w)
    text_dy = (_kv_row(st) - st.body[1].height()) / 2
    lh = st.bold[1].height()
    for c in range(ncol):
        cx, cy = x + c * (colw + 2 * st.pad), y + _title_height(st)
        for keys, values, stacked, h in cells[c * rows : (c + 1) * rows]:
            p.setPen(_DARK)
            for j, line in enumerate(keys):
                _text(p, st.body, cx, cy + text_dy + j * lh, line)
            p.setPen(_BLACK)
            first = len(keys) if stacked else 0
            for j, line in enumerate(values, first):
                _text_right(p, st.bold, cx + colw, cy + text_dy + j * lh, line)
            cy += h
            p.setPen(_pen(_GREY, 3 * st.k))
            p.drawLine(QPointF(cx, cy), QPointF(cx + colw, cy))
    p.setPen(_BLACK)


def _table_fonts(b: Table, st: _Style, w: float) -> tuple[float, list[float]]:
    """A scale for the table's text (shrunk if too wide) and its column widths."""
    ncol = max(len(b.header), max((len(r) for r in b.rows), default=0))
    for shrink in (1.0, 0.9, 0.8, 0.7, 0.6):
        fh, fb = _font(6.5 * st.k * shrink, True)[1], _font(8 * st.k * shrink)[1]
        widths = [0.0] * ncol
        for i, h in enumerate(b.header):
            widths[i] = fh.horizontalAdvance(h)
        for row in b.rows:
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], fb.horizontalAdvance(cell))
        widths = [x + 2 * st.pad * shrink for x in widths]
        if sum(widths) <= w:
            break
    extra = max(0.0, w - sum(widths))
    if ncol > 1:
        widths = [widths[0]] + [x + extra / (ncol - 1) for x in widths[1:]]
    elif ncol:
        widths[0] += extra
    return shrink, widths


def _table_rows(b: Table, st: _Style, shrink: float) -> tuple[float, float]:
    header = _font(6.5 * st.k * shrink, True)[1].height() * 1.4 if b.header else 0.0
    return header, _font(8 * st.k * shrink)[1].height() * 1.3


def _measure_table(b: Table, st: _Style, w: float) -> float:
    shrink, _ = _table_fonts(b, st, w)
    hh, rh = _table_rows(b, st, shrink)
    return _title_height(st) + hh + rh * len(b.rows)


def _draw_table(p: QPainter, b: Table, st: _Style, x: float, y: float, w: float) -> None:
    _draw_title(p, st, b.title, "", x, y, w)
    shrink, widths = _table_fonts(b, st, w)
    hh, rh = _table_rows(b, st, shrink)
    head, body = _font(6.5 * st.k * shrink, True), _font(8 * st.k * shrink)
    top = y + _title_height(st)
    pad = st.pad * shrink

    def cells(row: Sequence[str], font: tuple[QFont, QFontMetricsF], cy: float, h: float) -> None:
        cx = x
        ty = cy + (h - font[1].height()) / 2
        for i, cell in enumerate(row):
            cw = widths[i]
            s = font[1].elidedText(cell, Qt.TextElideMode.ElideRight, cw - pad)
            if i == 0:
                _text(p, font, cx + pad / 2, ty, s)
            else:
                _text(p, font, cx + (cw - font[1].horizontalAdvance(s)) / 2, ty, s)
            cx += cw

    if b.header:
        p.setPen(_DARK)
        cells(b.header, head, top, hh)
        p.setPen(_pen(_BLACK, 5 * st.k))
        p.drawLine(QPointF(x, top + hh), QPointF(x + w, top + hh))
        top += hh
    for r, row in enumerate(b.rows):
        cy = top + r * rh
        if r % 2 == 1:
            p.fillRect(QRectF(x, cy, w, rh), _SHADE)
        p.setPen(_BLACK)
        cells(row, body, cy, rh)
    p.setPen(_pen(_GREY, 3 * st.k))
    cx = x
    for cw in widths[:-1]:
        cx += cw
        p.drawLine(QPointF(cx, y + _title_height(st)), QPointF(cx, top + rh * len(b.rows)))
    p.setPen(_BLACK)


def _track_geometry(b: Track, st: _Style, w: float) -> tuple[float, float, int]:
    """Box size, gap between groups of five, boxes per row."""
    box, group_gap = st.box, st.box * 0.3
    per_row = max(1, int((w + group_gap) // (box * 5 + group_gap)) * 5)
    if per_row > 5:
        # rows of even length (10 + 6, not 15 + 1), still whole groups of five
        rows = -(-b.total // per_row)
        even = -(-b.total // rows)
        per_row = min(per_row, -(-even // 5) * 5)
    else:
        per_row = max(1, int(w // box))
    return box, group_gap, per_row


def _track_note_lines(b: Track, st: _Style, w: float) -> list[str]:
    return [] if _note_fits(st, b.title, b.note, w) else _wrap(b.note, st.small[1], w)


def _measure_track(b: Track, st: _Style, w: float) -> float:
    box, _, per_row = _track_geometry(b, st, w)
    rows = max(1, -(-b.total // per_row))
    notes = len(_track_note_lines(b, st, w)) * st.small[1].height()
    return _title_height(st) + notes + rows * (box + st.pad * 0.6)


def _draw_track(p: QPainter, b: Track, st: _Style, x: float, y: float, w: float) -> None:
    notes = _track_note_lines(b, st, w)
    _draw_title(p, st, b.title, "" if notes else b.note, x, y, w)
    box, group_gap, per_row = _track_geometry(b, st, w)
    top = y + _title_height(st)
    p.setPen(_DARK)
    for line in notes:
        _text_right(p, st.small, x + w, top, line)
        top += st.small[1].height()
    p.setPen(_BLACK)
    if b.total <= 0:
        _text(p, st.small, x, top, "none")
        return
    inset = box * 0.08
    side = box - 2 * inset
    for i in range(b.total):
        r, c = divmod(i, per_row)
        bx = x + c * box + (c // 5) * group_gap + inset
        by = top + r * (box + st.pad * 0.6) + inset
        rect = QRectF(bx, by, side, side)
        if b.grey_from is not None and i >= b.grey_from:
            p.fillRect(rect, _GREY)
        p.setPen(_pen(_BLACK, 5 * st.k))
        p.drawRect(rect)
        if i < b.used:
            p.setPen(_pen(_BLACK, 11 * st.k))
            d = side * 0.16
            p.drawLine(QPointF(bx + d, by + d), QPointF(bx + side - d, by + side - d))
            p.drawLine(QPointF(bx + side - d, by + d), QPointF(bx + d, by + side - d))
    p.setPen(_BLACK)


def _line_items(b: Lines, st: _Style, w: float) -> list[tuple[bool, str]]:
    indent = st.body[1].horizontalAdvance("\u2022 ")
    out: list[tuple[bool, str]] = []
    for line in b.lines:
        for j, part in enumerate(_wrap(line, st.body[1], w - indent)):
            out.append((j == 0, part))
    return out


def _measure_lines(b: Lines, st: _Style, w: float) -> float:
    return _title_height(st) + len(_line_items(b, st, w)) * st.body[1].height() * 1.15


def _draw_lines(p: QPainter, b: Lines, st: _Style, x: float, y: float, w: float) -> None:
    _draw_title(p, st, b.title, "", x, y, w)
    indent = st.body[1].horizontalAdvance("\u2022 ")
    top = y + _title_height(st)
    lh = st.body[1].height() * 1.15
    for i, (first, text) in enumerate(_line_items(b, st, w)):
        if first:
            _text(p, st.body, x, top + i * lh, "\u2022")
        _text(p, st.body, x + indent, top + i * lh, text)


def measure_block(b: CardBlock, st: _Style, w: float) -> float:
    if isinstance(b, KeyValues):
        return _measure_kv(b, st, w)
    if isinstance(b, Table):
        return _measure_table(b, st, w)
    if isinstance(b, Track):
        return _measure_track(b, st, w)
    return _measure_lines(b, st, w)


def draw_block(p: QPainter, b: CardBlock, st: _Style, x: float, y: float, w: float) -> None:
    if isinstance(b, KeyValues):
        _draw_kv(p, b, st, x, y, w)
    elif isinstance(b, Table):
        _draw_table(p, b, st, x, y, w)
    elif isinstance(b, Track):
        _draw_track(p, b, st, x, y, w)
    else:
        _draw_lines(p, b, st, x, y, w)


# -- the card -------------------------------------------------------------------------------


def _meta_lines(face: CardFace, st: _Style, w: float) -> list[str]:
    meta = f"{face.ruleset} \u00b7 {face.game} \u00b7 Turn {face.turn}"
    lines = _wrap(meta, st.meta[1], w)
    if face.variants:
        lines += _wrap("Variants: " + "; ".join(face.variants), st.meta[1], w)
    return lines


def _header_height(face: CardFace, st: _Style, w: float) -> float:
    return (
        st.name[1].height()
        + st.heading[1].height() * 1.2
        + len(_meta_lines(face, st, w)) * st.meta[1].height()
        + st.pad * 2.2
    )


def _draw_header(p: QPainter, face: CardFace, st: _Style, x: float, y: float, w: float) -> None:
    # the side, boxed at the top right; the aircraft's name takes the rest of the line
    side = face.side.upper()
    fb = st.bold
    sw = fb[1].horizontalAdvance(side) + 2 * st.pad
    sh = fb[1].height() + st.pad * 0.8
    name_h = st.name[1].height()
    side_rect = QRectF(x + w - sw, y + (name_h - sh) / 2, sw, sh)
    p.setPen(_pen(_BLACK, 8 * st.k))
    p.drawRect(side_rect)
    _text(p, fb, side_rect.x() + st.pad, side_rect.y() + st.pad * 0.4, side)
    name = st.name[1].elidedText(face.name, Qt.TextElideMode.ElideRight, w - sw - 2 * st.pad)
    _text(p, st.name, x, y, name)
    y += name_h
    who = [face.heading]
    if face.count != 1:
        who.append(f"\u00d7{face.count}")
    if face.pilot:
        who.append(f"{face.pilot} pilot")
    badges = [s.upper() for s in face.status]
    bw = sum(st.small_bold[1].horizontalAdvance(s) + 2.6 * st.pad for s in badges)
    heading = st.heading[1].elidedText(
        " \u00b7 ".join(who), Qt.TextElideMode.ElideRight, max(w - bw, w * 0.4)
    )
    _text(p, st.heading, x, y + st.heading[1].height() * 0.1, heading)
    # status flags as outlined badges, right-aligned on the type line
    bx = x + w
    hb = st.small_bold[1].height() + st.pad * 0.5
    by = y + (st.heading[1].height() * 1.2 - hb) / 2
    for s in reversed(badges):
        bwi = st.small_bold[1].horizontalAdvance(s) + 2 * st.pad
        bx -= bwi
        if bx < x + st.heading[1].horizontalAdvance(heading):
            break
        p.setPen(_pen(_BLACK, 6 * st.k))
        p.drawRect(QRectF(bx, by, bwi, hb))
        _text(p, st.small_bold, bx + st.pad, by + st.pad * 0.25, s)
        bx -= 0.6 * st.pad
    y += st.heading[1].height() * 1.2
    p.setPen(_DARK)
    for line in _meta_lines(face, st, w):
        _text(p, st.meta, x, y, line)
        y += st.meta[1].height()
    p.setPen(_pen(_BLACK, 12 * st.k))
    y += st.pad * 0.6
    p.drawLine(QPointF(x, y), QPointF(x + w, y))
    p.setPen(_BLACK)


def _columns(heights: list[float], n: int, gap: float, limit: float) -> list[int] | None:
    """Column index of each block, balancing n columns no taller than ``limit`` (or None)."""

    def pack(cap: float) -> list[int] | None:
        col, used, out = 0, 0.0, []
        for h in heights:
            need = h if used == 0 else used + gap + h
            if need > cap + 1e-6:
                col, used = col + 1, h
                if col >= n or h > cap + 1e-6:
                    return None
            else:
                used = need
            out.append(col)
        return out

    if not heights:
        return []
    if pack(limit) is None:
        return None
    lo, hi = max(heights), limit
    for _ in range(24):
        mid = (lo + hi) / 2
        if pack(mid) is None:
            lo = mid
        else:
            hi = mid
    return pack(hi)


@dataclass(frozen=True)
class _Laid:
    style: _Style
    columns: int
    placed: tuple[tuple[CardBlock, float, float, float], ...]  # block, x, y, width
    header: float


def _inner(rect: QRectF) -> QRectF:
    inset = 4 * MM
    return rect.adjusted(inset, inset, -inset, -inset)


def layout_card(face: CardFace, rect: QRectF, scale: float) -> _Laid:
    """Place the card's blocks in ``rect``, shrinking the text until everything fits."""
    inner = _inner(rect)
    k = scale
    while True:
        st = _Style(k)
        header = _header_height(face, st, inner.width())
        ncol = max(1, min(3, int(inner.width() // (80 * MM))))
        colgap = 5 * MM * k
        colw = (inner.width() - (ncol - 1) * colgap) / ncol
        heights = [measure_block(b, st, colw) for b in face.blocks]
        room = inner.height() - header - st.gap - st.meta[1].height() * 1.5  # the footer
        cols = _columns(heights, ncol, st.gap, room)
        if cols is not None or k <= 0.45:
            break
        k *= 0.92
    if cols is None:  # still too long at the smallest size: one column after another, clipped
        cols = [min(i * ncol // max(len(heights), 1), ncol - 1) for i in range(len(heights))]
    placed = []
    used = [0.0] * ncol
    top = inner.y() + header + st.gap
    for b, h, c in zip(face.blocks, heights, cols, strict=True):
        x = inner.x() + c * (colw + colgap)
        placed.append((b, x, top + used[c], colw))
        used[c] += h + st.gap
    return _Laid(st, ncol, tuple(placed), header)


def paint_card(p: QPainter, face: CardFace, rect: QRectF, scale: float = 1.0) -> None:
    """One card in ``rect`` (decipoints, in the painter's current coordinates)."""
    _paint_card(p, face, rect, scale)


def _paint_card(p: QPainter, face: CardFace, rect: QRectF, scale: float) -> None:
    laid = layout_card(face, rect, scale)
    st = laid.style
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setClipRect(rect)
    p.setPen(_pen(_BLACK, 8))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(rect.adjusted(4, 4, -4, -4), 2 * MM, 2 * MM)
    inner = _inner(rect)
    _draw_header(p, face, st, inner.x(), inner.y(), inner.width())
    for b, x, y, w in laid.placed:
        draw_block(p, b, st, x, y, w)
    p.setPen(_DARK)
    foot = f"rev {face.revision}"
    _text_right(p, st.meta, inner.right(), rect.bottom() - 2.6 * MM - st.meta[1].height(), foot)
    p.restore()
