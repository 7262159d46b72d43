"""The Tab order of a panel built of a draft's form and dice (issue 48).

A widget put in a window (a form built or shown again, a die field made for another roll) goes
to the end of the window's Tab chain: Tab from the form's last field went on to the first panel
of the window, never to the dice or Resolve. The panel says the order its widgets are worked in,
each time it paints; the chain is set again only when that list changed. Qt sets no Tab order
to or from a widget that takes no focus (a field read from the card, locked): those are left
out, and a field overridden (it takes the cursor now) changes the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget


class TabChain:
    """Tab goes through the widgets in the order last given (Shift+Tab back); hidden ones are
    passed over, the window's other widgets come after the last."""

    def __init__(self) -> None:
        self._set: tuple[QWidget, ...] = ()

    def order(self, widgets: Sequence[QWidget]) -> None:
        want = tuple(w for w in widgets if w.focusPolicy() != Qt.FocusPolicy.NoFocus)
        if len(want) == len(self._set) and all(
            a is b for a, b in zip(want, self._set, strict=True)
        ):
            return
        for before, after in zip(want, want[1:], strict=False):
            QWidget.setTabOrder(before, after)
        self._set = want
