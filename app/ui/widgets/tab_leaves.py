"""Tab leaves a table the umpire only reads.

Qt's table views take Tab to step from cell to cell, and wrap from the last cell to the first:
a read-only table (the game log, the critical hits, a ledger's history, the board's readings)
was a trap for the keyboard, with no key out of it but the mouse. In these tables Tab and
Shift+Tab go to the next and previous widget, as everywhere else; the arrows still move
between cells. (The editors' grids, where the umpire types cell after cell, keep Qt's Tab.)
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView


def let_tab_leave(view: QAbstractItemView) -> None:
    """Tab and Shift+Tab move the keyboard out of ``view``, not through its cells."""
    view.setTabKeyNavigation(False)
