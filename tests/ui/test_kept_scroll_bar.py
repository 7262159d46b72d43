"""Issue 48 ("Fast"): a scroll bar is drawn from its last picture while nothing it shows
changed, and the picture is the one Qt draws."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QListWidget, QScrollBar

from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from app.ui.widgets.kept_scroll_bar import KeptScrollBars, keep_scroll_bars_under


def picture_of(bar: QScrollBar):
    return bar.grab().toImage()


def drawn_by_qt(bar: QScrollBar):
    keeper = QApplication.instance().findChild(KeptScrollBars)
    bar.removeEventFilter(keeper)
    try:
        return picture_of(bar)
    finally:
        bar.installEventFilter(keeper)


def test_a_kept_bar_shows_what_qt_draws_and_draws_it_once(qtbot):
    view = QListWidget()
    qtbot.addWidget(view)
    view.addItems([f"line {i}" for i in range(300)])
    view.resize(260, 640)
    view.show()
    qtbot.waitExposed(view)
    keep_scroll_bars_under(view)
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0
    picture_of(bar)
    for row in (150, 299, 0):
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


def test_the_desk_keeps_the_bars_of_its_panels(tmp_path, qtbot):
    model = EngagementModel(create_demo_game(tmp_path / "demo.airboss"))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(model, settings)
    w.persist_layout = False
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.reset_layout()
    qtbot.wait(50)
    keeper = QApplication.instance().findChild(KeptScrollBars)
    combat = w.panels["combat"]
    bars = [
        bar
        for area in combat.findChildren(QAbstractScrollArea)
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar())
    ]
    assert bars and all(bar in keeper.pictures for bar in bars)
    shown = [bar for bar in bars if bar.isVisible()]
    assert shown  # the Combat form is taller than its dock at 1366x768
    for bar in shown:
        assert picture_of(bar) == drawn_by_qt(bar)
    dock = w.docks["combat"]
    kept = dock.grab().toImage()
    for bar in shown:
        bar.removeEventFilter(keeper)
    assert dock.grab().toImage() == kept  # the panel as Qt draws it
    for bar in shown:
        bar.installEventFilter(keeper)
    drawn = KeptScrollBars.drawn
    w.docks["combat"].repaint()
    assert KeptScrollBars.drawn == drawn
    w.close()
    model.set_session(None)


def test_a_bar_under_the_pointer_is_drawn_by_qt(qtbot):
    """Hover and press are drawn from Qt's own state: no picture is put back then."""
    view = QListWidget()
    qtbot.addWidget(view)
    view.addItems([f"line {i}" for i in range(300)])
    view.resize(260, 400)
    view.show()
    qtbot.waitExposed(view)
    keep_scroll_bars_under(view)
    bar = view.verticalScrollBar()
    bar.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, True)
    drawn = KeptScrollBars.drawn
    bar.repaint()
    assert KeptScrollBars.drawn == drawn
    bar.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, False)
