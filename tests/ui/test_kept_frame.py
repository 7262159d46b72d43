"""Issue 48 ("Fast"): a scroll area's frame is put back from its last picture while it looks
the same (its edge filled with its one colour), and is the frame Qt draws, pixel for pixel."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QListWidget

from app.ui.widgets.kept_frame import KeptFrames, keep_frames_under
from app.ui.widgets.kept_pictures import KEPT_LOOKS
from tests.ui import test_step_work

#: the desk, as the step's tests have it
desk = test_step_work.desk


class QtPaints(QObject):
    """Installed before the keeper: it sees only the paints the keeper left to Qt."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter = Counter()

    def eventFilter(self, watched, event):  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint:
            self.seen[watched] += 1
        return False


def keeper() -> KeptFrames:
    found = QApplication.instance().findChild(KeptFrames)
    assert found is not None
    return found


def drawn_by_qt(area: QAbstractScrollArea, whole=None):
    """``whole`` (the area if None) grabbed with the area's frame drawn by Qt."""
    kept = keeper()
    area.removeEventFilter(kept)
    try:
        return (whole or area).grab().toImage()
    finally:
        area.installEventFilter(kept)


def listed(qtbot, lines: int) -> tuple[QListWidget, QtPaints]:
    view = QListWidget()
    qtbot.addWidget(view)
    qt = QtPaints()
    view.installEventFilter(qt)
    view.addItems([f"line {i} " + "wide " * 12 for i in range(lines)])
    view.resize(260, 300)
    view.show()
    qtbot.waitExposed(view)
    keep_frames_under(view)
    QApplication.processEvents()
    return view, qt


def test_a_kept_frame_is_the_frame_qt_draws_and_drawn_once(qtbot):
    view, qt = listed(qtbot, 3)
    first = view.grab().toImage()
    assert first == drawn_by_qt(view)
    drawn = KeptFrames.drawn
    qt.seen.clear()
    for _ in range(3):
        view.repaint()
    assert KeptFrames.drawn == drawn  # unchanged: put back
    assert not qt.seen  # and not drawn by Qt
    # its look changes with its size, state and palette: drawn again, as Qt draws it
    view.resize(300, 240)
    QApplication.processEvents()
    assert view.grab().toImage() == drawn_by_qt(view)
    view.setEnabled(False)
    QApplication.processEvents()
    assert view.grab().toImage() == drawn_by_qt(view)
    view.setEnabled(True)
    view.setFocus()
    QApplication.processEvents()
    assert view.grab().toImage() == drawn_by_qt(view)
    palette = view.palette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Window, QColor("#202830"))
        palette.setColor(group, QPalette.ColorRole.Base, QColor("#101418"))
    view.setPalette(palette)
    QApplication.processEvents()
    assert view.grab().toImage() == drawn_by_qt(view)
    assert KeptFrames.drawn > drawn


def test_an_area_back_at_an_earlier_size_is_put_back(qtbot):
    """An area that changes size and back (the Combat form's odds table, with and without its
    odds, at every resolve: issue 48) shows each earlier look again from its picture, not drawn
    again, and it is the frame Qt draws; the oldest look gives way past ``KEPT_LOOKS``."""
    view, qt = listed(qtbot, 3)
    sizes = ((260, 300), (260, 120), (300, 200))
    for w, h in sizes:
        view.resize(w, h)
        QApplication.processEvents()
        view.grab()
    drawn = KeptFrames.drawn
    qt.seen.clear()
    for w, h in (*sizes, *reversed(sizes)):
        view.resize(w, h)
        QApplication.processEvents()
        assert view.grab().toImage() == drawn_by_qt(view)
    assert KeptFrames.drawn == drawn  # every look put back
    for h in range(140, 140 + KEPT_LOOKS):  # new looks: the oldest ones give way
        view.resize(260, h)
        QApplication.processEvents()
        view.grab()
    drawn = KeptFrames.drawn
    view.resize(*sizes[0])
    QApplication.processEvents()
    assert view.grab().toImage() == drawn_by_qt(view)
    assert KeptFrames.drawn == drawn + 1  # given way: drawn again


def test_an_area_with_both_bars_is_drawn_by_qt(qtbot):
    """The corner between the two bars is painted with the frame: left to Qt."""
    view, qt = listed(qtbot, 300)
    assert view.verticalScrollBar().isVisible() and view.horizontalScrollBar().isVisible()
    qt.seen.clear()
    view.repaint()
    assert qt.seen[view] == 1
    assert view.grab().toImage() == drawn_by_qt(view)


def test_a_step_on_the_desk_draws_no_frame_by_qt(desk):
    """The desk's visible panels keep their scroll areas' frames: their docks repainted at a
    step show what Qt draws, and Qt draws none of the frames."""
    w = desk
    kept = keeper()
    qt = QtPaints()
    shown = {}
    for name in ("turn", "roster", "combat"):
        areas = [
            a
            for a in w.panels[name].findChildren(QAbstractScrollArea)
            if a.isVisible() and a.frameWidth() > 0
        ]
        assert areas, name
        for area in areas:
            assert area in kept.pictures
            area.removeEventFilter(kept)  # the keeper first, then what Qt is left
            area.installEventFilter(qt)
            area.installEventFilter(kept)
        shown[name] = areas
    for _ in range(3):
        w.panels["turn"].next_step()
        QApplication.processEvents()
        for name in shown:
            w.docks[name].repaint()
    both = [
        a
        for areas in shown.values()
        for a in areas
        if a.horizontalScrollBar().isVisible() and a.verticalScrollBar().isVisible()
    ]
    assert not any(qt.seen[a] for areas in shown.values() for a in areas if a not in both)
    for name, areas in shown.items():
        dock = w.docks[name]
        image = dock.grab().toImage()
        for area in areas:
            area.removeEventFilter(kept)
        assert dock.grab().toImage() == image, name
        for area in areas:
            area.installEventFilter(kept)
