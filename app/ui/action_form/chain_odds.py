"""The Combat panel's line of odds to the end of the chain (issue 34): "destroyed 13/200
(6.5%) · pilot killed ... · fire ...", worked out by the session's odds (``Odds.chain_odds``)
off the GUI thread (a chain of many rolls can take longer than a frame), and shown when it is
ready for the action still on the form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import QLabel, QWidget

from app.core.chain_odds import ChainOdds
from app.core.prepared import Prepared

if TYPE_CHECKING:
    from app.session.odds import Odds


class _Done(QObject):
    finished = Signal(object, object)  # the prepared action, ChainOdds or an error text


class _Work(QRunnable):
    def __init__(self, odds: Odds, prepared: Prepared, done: _Done) -> None:
        super().__init__()
        self.odds, self.prepared, self.done = odds, prepared, done

    def run(self) -> None:
        try:
            result: object = self.odds.chain_odds(self.prepared)
        except Exception as e:  # noqa: BLE001 - said on the line, never fatal
            result = f"{type(e).__name__}: {e}"
        self.done.finished.emit(self.prepared, result)


class ChainOddsLine(QLabel):
    """One line under the odds: what the chain of this action comes to for its target."""

    #: a result was shown (for tests and the Compare columns): the prepared action
    shown = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chain_odds")
        self.setWordWrap(True)
        self.setToolTip(
            "The exact chance, within this action and the rolls it owes (damage, critical "
            "hits, fire checks until the fire is out, an ejection ...), of what it does to the "
            'target; "at least" where the chain could not be followed to its end'
        )
        self.hide()
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._done = _Done(self)
        self._done.finished.connect(self._finished)
        self._for: Prepared | None = None
        #: the last chain shown, and for which prepared action
        self.result: ChainOdds | None = None

    def show_for(self, odds: Odds | None, prepared: Prepared | None) -> None:
        """Work out the chain of ``prepared`` with the session's ``odds`` (``None``: nothing
        to show)."""
        self._for = prepared
        self.result = None
        self._pool.clear()  # a chain still queued is for an action the form has left
        if odds is None or prepared is None or prepared.inputs is None or prepared.is_what_if:
            self.clear()
            self.hide()
            return
        self.setText("To the end of the chain: working it out…")
        self.show()
        self._pool.start(_Work(odds, prepared, self._done))

    def _finished(self, prepared: Prepared, result: object) -> None:
        if prepared is not self._for:
            return  # the form moved on meanwhile
        if isinstance(result, ChainOdds):
            self.result = result
            self.setText(chain_text(result))
            self.setVisible(bool(self.text()))
        else:
            self.setText(f"To the end of the chain: not worked out ({result})")
        self.shown.emit(prepared)

    def wait(self, ms: int = 30_000) -> bool:
        """Wait for the work under way (tests, closing)."""
        return self._pool.waitForDone(ms)


def chain_text(c: ChainOdds) -> str:
    """The line as the panel shows it; empty when the chain has nothing to say. A chain cut
    short says each chance as "at least ..." (``ChainOdds.lines``), never as a fraction."""
    lines = c.lines()
    if not lines:
        return ""
    via = " → ".join(c.rolls)
    return f"To the end of the chain ({via}): " + " · ".join(lines)
