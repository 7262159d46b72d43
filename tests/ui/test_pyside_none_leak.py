"""Guard against the PySide6 6.12.0 defect that drops a reference to None on every Qt call
returning nothing: on Python 3.11 the interpreter aborts ("deallocating None") after a few
thousand such calls, i.e. within minutes of using the desk. pyproject pins a release without
it; this test fails if an upgrade brings the defect back."""

import sys

from PySide6.QtCore import QObject


def test_void_qt_calls_keep_none_alive() -> None:
    obj = QObject()
    before = sys.getrefcount(None)
    for _ in range(1000):
        obj.setObjectName("x")
    assert sys.getrefcount(None) >= before - 10
