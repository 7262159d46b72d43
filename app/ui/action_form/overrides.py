"""A value read from the cards overridden by key (issue 48, the umpire's walk at 1366x768).

The ✎ beside a value read from the cards, the board or the game takes no Tab stop (issue 29:
Tab goes through what the umpire judges, never to "read from the cards"), and no other key
reached it: an umpire at the keyboard could not override the card. F2 anywhere in a panel with
a draft's form lists those values, in the form's order, each with its number; the number (or
the arrows and Enter) presses its ✎: the value is the umpire's to type, the cursor in it, and
the log records the override. Where nothing is read from the cards, F2 says so.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu, QWidget

from app.ui.action_form.fields import DraftForm

#: the key that lists the values of the form shown that a ✎ overrides
OVERRIDE_KEY = "F2"
#: what F2 says in a form with no value read from the cards
NOTHING = "No value here is read from the cards"


def override_by_key(panel: QWidget, form: DraftForm) -> QShortcut:
    """F2 with the cursor anywhere in ``panel``: ``form``'s values to override, listed."""
    key = QShortcut(QKeySequence(OVERRIDE_KEY), panel)
    key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    key.activated.connect(lambda: offer_overrides(panel, form))
    return key


def offer_overrides(panel: QWidget, form: DraftForm) -> QMenu:
    """A menu of the values the form shows read-only with their ✎ ("&1  Gun Attack Value: 3"),
    under the first ✎; picking one presses that ✎. Escape closes it, nothing pressed."""
    menu = QMenu(panel)
    menu.setObjectName("overrides")
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    locked = [n for n in form.names if form.is_locked(n)]
    for i, name in enumerate(locked, 1):
        words = f"{form.title(name)}: {form.shown_text(name)}".replace("&", "&&")
        action = menu.addAction(f"&{i}  {words}" if i <= 9 else words)
        pencil = form.override_button(name)
        action.triggered.connect(lambda _checked=False, p=pencil: p.click())
    if not locked:
        menu.addAction(NOTHING).setEnabled(False)
    under = form.override_button(locked[0]) if locked else form
    menu.popup(under.mapToGlobal(QPoint(0, under.height())))
    return menu
