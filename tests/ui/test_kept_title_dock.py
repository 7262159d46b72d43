"""Issue 48 ("Fast"): a dock's title bar is drawn from its last picture while it looks the
same, and the picture is the one Qt draws."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from app.startup.demo import create_demo_game
from app.ui.model import EngagementModel
from app.ui.shell.main_window import MainWindow
from app.ui.widgets.kept_title_dock import KeptTitleDock


def drawn_by_qt(dock: KeptTitleDock):
    dock.keeps_title = False
    try:
        return dock.grab().toImage()
    finally:
        dock.keeps_title = True


def test_the_desks_docks_show_what_qt_draws(tmp_path, qtbot):
    model = EngagementModel(create_demo_game(tmp_path / "demo.airboss"))
    w = MainWindow(model, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.persist_layout = False
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.reset_layout()
    QApplication.processEvents()
    docks = [d for d in w.findChildren(KeptTitleDock) if not d.visibleRegion().isEmpty()]
    assert {d.objectName() for d in docks} >= {"turn", "roster", "combat"}
    for dock in docks:
        kept = dock.grab().toImage()
        assert kept == drawn_by_qt(dock), dock.objectName()
    w.close()
    model.set_session(None)


def test_a_title_unchanged_is_put_back_and_a_changed_one_drawn_again(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    dock = KeptTitleDock("Turn", window)
    dock.setWidget(QLabel("the sequence of play"))
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    window.resize(500, 300)
    window.show()
    qtbot.waitExposed(window)
    first = dock.grab().toImage()
    drawn = KeptTitleDock.drawn
    dock.repaint()
    assert dock.grab().toImage() == first
    assert KeptTitleDock.drawn == drawn  # unchanged: the picture put back
    dock.setWindowTitle("Who acts now")
    QApplication.processEvents()
    retitled = dock.grab().toImage()
    assert KeptTitleDock.drawn > drawn  # another title: drawn again
    drawn = KeptTitleDock.drawn
    assert dock.grab().toImage() == retitled
    assert KeptTitleDock.drawn == drawn
    assert retitled != first and retitled == drawn_by_qt(dock)
    dock.setEnabled(False)  # its look changes with its state: drawn again, as Qt draws it
    QApplication.processEvents()
    assert dock.grab().toImage() == drawn_by_qt(dock)
    font = dock.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)  # table mode's larger type
    dock.setFont(font)
    QApplication.processEvents()
    assert dock.grab().toImage() == drawn_by_qt(dock)
