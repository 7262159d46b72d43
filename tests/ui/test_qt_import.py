"""PySide6's import hook asked the same question for less (issue 36, ``app.ui.shell.qt_import``)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
from types import ModuleType

from app.ui.shell.qt_import import fast_check


def by_source(module: ModuleType) -> bool:
    """PySide6's own answer: the module's source, read by ``inspect``, says ``PySide6``."""
    try:
        return "PySide6" in inspect.getsource(module)
    except (TypeError, OSError):
        return False


def test_the_fast_check_answers_as_pysides_own_for_every_kind_of_module() -> None:
    asked: list[str] = []

    def original(module: ModuleType) -> bool:
        asked.append(module.__name__)
        return by_source(module)

    check = fast_check(original)
    names = ["app.ui.shell.main_window", "app.core.events", "json", "sys", "_sqlite3", "app.ui"]
    for name in names:
        module = importlib.import_module(name)
        assert check(module) == by_source(module), name
    # only what is not a .py file is asked of PySide6's own function
    assert set(asked) == {"sys", "_sqlite3"}


def test_the_desk_installs_it_before_pyside6_is_imported_and_once() -> None:
    code = (
        "import sys\n"
        "from app.ui.shell.qt_import import install\n"
        "install(); install()\n"
        "feature = sys.modules['shibokensupport.feature']\n"
        "assert getattr(feature._mod_uses_pyside, 'airboss', False)\n"
        "assert feature._mod_uses_pyside.__closure__[0].cell_contents.__name__ "
        "== '_mod_uses_pyside'\n"
        "from app.ui.shell.main_window import MainWindow\n"
        "from app.core.events import Envelope\n"
        "d = feature.pyside_feature_dict\n"
        "print(d['app.ui.shell.main_window'], d['app.core.events'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # a module that uses PySide6 is switched by its features (0), any other ignored (-1)
    assert done.stdout.split() == ["0", "-1"]
