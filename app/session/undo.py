"""Undo and redo: the Edit menu's wording (saying when the action is another window's or
station's, issue 28) and the records that undo and redo an action."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import RuleViolation
from app.core.events import Envelope, Restored, Reverted
from app.session.log import GameLog

#: what Undo says of an action another window or station made while this one was open
ELSEWHERE = "another window's or station's action"


class Undo:
    """Undo and redo of the game's actions, newest first."""

    def __init__(self, log: GameLog) -> None:
        self._log = log

    def _whose(self, action: int) -> str:
        return f" ({ELSEWHERE})" if action in self._log.theirs else ""

    def elsewhere(self, envelopes: Sequence[Envelope]) -> bool:
        """Whether these envelopes are of an action another window or station appended."""
        return any(env.action in self._log.theirs for env in envelopes)

    @property
    def undo_elsewhere(self) -> bool:
        """Undo would undo an action another window or station made while this one was open."""
        t = self._log.timeline
        return t.can_undo and t.undo_stack[-1] in self._log.theirs

    @property
    def redo_elsewhere(self) -> bool:
        """Redo would redo an action another window or station made while this one was open."""
        t = self._log.timeline
        return t.can_redo and t.redo_stack[-1] in self._log.theirs

    @property
    def undo_text(self) -> str | None:
        """What Undo would undo, for the menu, saying so when it is an action another window
        or station made while this one was open; ``None`` when there is nothing."""
        t = self._log.timeline
        if not t.can_undo:
            return None
        action = t.undo_stack[-1]
        return self._log.narrative(action) + self._whose(action)

    @property
    def redo_text(self) -> str | None:
        t = self._log.timeline
        if not t.can_redo:
            return None
        action = t.redo_stack[-1]
        return self._log.narrative(action) + self._whose(action)

    def undo(self) -> str:
        """Undo the newest action that counts; returns its narrative."""
        t = self._log.timeline
        if not t.can_undo:
            raise RuleViolation("nothing to undo")
        action = t.undo_stack[-1]
        text = self._log.narrative(action)
        self._log.append([Reverted(action=action)], f"Undone: {text}")
        return text + self._whose(action)

    def redo(self) -> str:
        """Redo the newest undone action; returns its narrative."""
        t = self._log.timeline
        if not t.can_redo:
            raise RuleViolation("nothing to redo")
        action = t.redo_stack[-1]
        text = self._log.narrative(action)
        self._log.append([Restored(action=action)], f"Redone: {text}")
        return text + self._whose(action)
