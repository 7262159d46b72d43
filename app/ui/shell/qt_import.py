"""PySide6's import hook, asked the same question for less (issue 36).

Once PySide6 is imported, its ``__feature__`` support (``shibokensupport.feature``) looks at
every module imported after it, to learn whether the module uses PySide6: it reads the
module's whole source with ``inspect.getsource`` (through ``linecache`` and ``tokenize``) and
looks for the text ``PySide6`` in it. On the desk's start that is every module of the game's
core, its ruleset and the store, and on a ``--screenshot`` also numpy's and pyqtgraph's:
several hundred modules, a tenth of the process's time.

``install()`` (called before PySide6 is first imported) imports ``shiboken6`` and gives the
hook the same answer by a plain read of the module's ``.py`` file, looking for the same bytes;
anything that is not a ``.py`` file is asked of PySide6's own function as before. If PySide6
is ever built without that function, nothing is changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


def fast_check(original: Callable[[ModuleType], bool]) -> Callable[[ModuleType], bool]:
    """``original``'s answer (does the module's source say ``PySide6``?) read from the file."""

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return original(module)

    uses_pyside.airboss = True  # type: ignore[attr-defined]
    return uses_pyside


def install() -> None:
    """Import ``shiboken6`` (which installs PySide6's import hook) and speed the hook up."""
    import shiboken6  # noqa: F401 - installs the hook and loads shibokensupport

    feature: Any = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "airboss", False):
        return
    feature._mod_uses_pyside = fast_check(original)
