"""How far the first read of a long log has come, in the panels that show the log's history
(issue 20): the desk reads it a slice at a time between turns of its event loop, and says so
("Reading the log… 40,000 of 100,000 events") until it is whole."""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar, QWidget

from app.ui.model import EngagementModel


class LogProgress(QProgressBar):
    """A bar shown while the model's log is being read; hidden once it is whole. Its panel
    calls ``follow`` when it takes in what the read brought (a panel out of view does no work,
    and a bar shown in it would lay the window out again for nothing)."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("log_progress")
        self.model = model
        self.setTextVisible(True)
        self.hide()

    def follow(self) -> None:
        """Show how far the read has come."""
        if self.model.log_whole:
            self.hide()
            return
        read, last = self.model.log_progress
        self.setMaximum(max(last, 1))
        self.setValue(read)
        self.setFormat(f"Reading the log… {read:,} of {last:,} events")
        # wide enough for the whole text at its longest, set once a game (not on every slice)
        widest = self.fontMetrics().horizontalAdvance(
            f"Reading the log… {last:,} of {last:,} events"
        )
        if self.minimumWidth() < widest + 16:
            self.setMinimumWidth(widest + 16)
        self.show()
