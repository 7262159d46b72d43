"""Issue 48 ("Fast"): a scroll bar is drawn from its last picture while nothing it shows
changed, and the picture is the one Qt draws."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidget, QScrollBar, QStyle

from app.ui.widgets.kept_pictures import KEPT_LOOKS
from app.ui.widgets.kept_scroll_bar import KeptScrollBars, background, keep_scroll_bars_under


def picture_of(bar: QScrollBar):
    return bar.grab().toImage()


def drawn_by_qt(bar: QScrollBar):
    keeper = QApplication.instance().findChild(KeptScrollBars)
    bar.removeEventFilter(keeper)
    try:
        return picture_of(bar)
    finally:
        bar.installEventFilter(keeper)


def long_list(qtbot, height: int) -> QListWidget:
    """A list of 300 lines, shown, its bars kept."""
    view = QListWidget()
    qtbot.addWidget(view)
    view.addItems([f"line {i}" for i in range(300)])
    view.resize(260, height)
    view.show()
    qtbot.waitExposed(view)
    keep_scroll_bars_under(view)
    # (the pointer of an earlier test may rest where the bar is, or hold a button: a bar
    # under the pointer or while a button is down is drawn by Qt, as it should be)
    QCursor.setPos(view.mapToGlobal(QPoint(-200, -200)))
    for button in (
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.RightButton,
        Qt.MouseButton.MiddleButton,
    ):
        if QApplication.mouseButtons() & button:
            QTest.mouseRelease(view.viewport(), button, pos=QPoint(1, 1))
    QApplication.processEvents()
    view.verticalScrollBar().setAttribute(Qt.WidgetAttribute.WA_UnderMouse, False)
    bar = view.verticalScrollBar()
    assert not bar.underMouse() and QApplication.mouseButtons() == Qt.MouseButton.NoButton
    assert not bar.style().styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar)
    assert background(bar) is not None, (
        bar.palette().window().style(),
        QApplication.instance().styleSheet(),
    )
    return view


def test_a_kept_bar_shows_what_qt_draws_and_draws_it_once(qtbot):
    view = long_list(qtbot, 640)
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0
    picture_of(bar)
    for row in (150, 299, 40):  # (row 0 is where it was drawn first: its look is kept)
        drawn = KeptScrollBars.drawn
        view.scrollToItem(view.item(row))
        QApplication.processEvents()
        kept = picture_of(bar)
        assert KeptScrollBars.drawn == drawn + 1  # the bar moved: drawn again
        assert kept == drawn_by_qt(bar)
        bar.repaint()
        bar.repaint()
        assert KeptScrollBars.drawn == drawn + 1  # unchanged: the picture put back
        assert picture_of(bar) == kept
    view.setEnabled(False)  # its look changes with its state: drawn again, as Qt draws it
    QApplication.processEvents()
    assert picture_of(bar) == drawn_by_qt(bar)
    # the bar still scrolls the list
    view.setEnabled(True)
    bar.setValue(20)
    assert view.indexAt(view.viewport().rect().topLeft()).row() == 20


def test_a_bar_back_at_an_earlier_look_is_put_back(qtbot):
    """A form that grows and shrinks back (a line opened, resolved, the next one opened: issue
    48, a resolve at the desk) shows its bar's earlier looks again: each is put back from its
    picture, not drawn again, and is what Qt draws; the oldest look gives way past
    ``KEPT_LOOKS``."""
    view = long_list(qtbot, 640)
    bar = view.verticalScrollBar()
    looks = (0, 60, 120)
    for value in looks:
        bar.setValue(value)
        QApplication.processEvents()
        picture_of(bar)
    drawn = KeptScrollBars.drawn
    for value in (*looks, *reversed(looks)):
        bar.setValue(value)
        QApplication.processEvents()
        assert picture_of(bar) == drawn_by_qt(bar)
    assert KeptScrollBars.drawn == drawn  # every look put back
    for value in range(200, 200 + KEPT_LOOKS):  # new looks: the oldest ones give way
        bar.setValue(value)
        QApplication.processEvents()
        picture_of(bar)
    drawn = KeptScrollBars.drawn
    bar.setValue(looks[0])
    QApplication.processEvents()
    assert picture_of(bar) == drawn_by_qt(bar)
    assert KeptScrollBars.drawn == drawn + 1  # given way: drawn again


def test_a_bar_under_the_pointer_is_drawn_by_qt(qtbot):
    """Hover and press are drawn from Qt's own state: no picture is put back then."""
    view = long_list(qtbot, 400)
    bar = view.verticalScrollBar()
    bar.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, True)
    drawn = KeptScrollBars.drawn
    bar.repaint()
    assert KeptScrollBars.drawn == drawn
    bar.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, False)
