"""Keep ``None`` alive under PySide6 6.12 on Python 3.11.

PySide6 6.12.0 (abi3 wheels) drops one reference to ``None`` on every call of a method that
returns nothing (``label.setText``, ``item.setData`` ...) and every time an invalid
``QVariant`` becomes ``None``. On Python 3.12 and later ``None`` is immortal and nothing
happens; on Python 3.11 a million such calls -- minutes at the desk -- end the process with
"Fatal Python error: none_dealloc". Until PySide6 is fixed or the project moves to 3.12, the
desk gives ``None`` so many references that they can never run out, which is what 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys

#: references added to None: at one lost per Qt call this outlasts any session
_RESERVE = 1 << 40


def keep_none_alive() -> None:
    """Make ``None`` effectively immortal on Python 3.11 (idempotent; nothing on 3.12+)."""
    if sys.version_info >= (3, 12):
        return
    refcount = ctypes.c_ssize_t.from_address(id(None))
    if refcount.value < _RESERVE:
        refcount.value += _RESERVE


keep_none_alive()
