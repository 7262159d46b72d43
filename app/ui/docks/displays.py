"""The displays panel: a ruleset's own boards (Nth Fleet's Air Base Displays ...), drawn from
``Ruleset.displays(engagement)`` and redrawn after every action."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from app.core.errors import RuleViolation
from app.core.guest import TIME_LIMIT, blocks_list, call_guest
from app.core.ruleset import CardBlock, KeyValues, Lines, Table, Track
from app.ui.model import EngagementModel
from app.ui.shell.guest_worker import patient
from app.ui.shell.when_shown import WhenShown


def block_html(block: CardBlock) -> str:
    """One block as an HTML fragment (tables with a header row, lines as a list)."""
    title = f"<h4>{escape(block.title)}</h4>"
    if isinstance(block, Table):
        head = "".join(f"<th align='left'>{escape(h)}</th>" for h in block.header)
        rows = "".join(
            "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in block.rows
        )
        return (
            f"{title}<table cellspacing='0' cellpadding='3' border='1'>"
            f"<tr>{head}</tr>{rows}</table>"
        )
    if isinstance(block, KeyValues):
        rows = "".join(
            f"<tr><td>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>" for k, v in block.items
        )
        return f"{title}<table cellpadding='2'>{rows}</table>"
    if isinstance(block, Lines):
        return (
            title + "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in block.lines) + "</ul>"
        )
    if isinstance(block, Track):
        boxes = "&#9746;" * block.used + "&#9744;" * (block.total - block.used)
        return f"{title}<p>{boxes} {escape(block.note)}</p>"
    raise TypeError(f"not a card block: {block!r}")


class DisplaysDock(QWidget):
    """Shows whatever boards the game's ruleset keeps beside the roster."""

    def __init__(self, model: EngagementModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Displays")
        self.model = model
        self.view = QTextBrowser()
        self.view.setObjectName("displays_view")
        self.view.setOpenLinks(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.view)
        #: hidden or tabbed away: no work until shown (issue 20)
        self.when_shown = WhenShown(self, self.redraw)
        model.reset.connect(self.when_shown.wrap(self.redraw))
        model.appended.connect(self.when_shown.wrap(lambda _envs: self.redraw()))
        self.redraw()

    @patient
    def redraw(self) -> None:
        if not self.model.has_session:
            self.view.setHtml("<p>No game is open.</p>")
            return
        rs = self.model.ruleset
        try:  # a guest's call (issue 46): time-limited, checked, and said in the message bar
            blocks = call_guest(
                rs,
                "displays (the ruleset's own boards)",
                rs.displays,
                self.model.engagement,
                time_limit=TIME_LIMIT,
                returns=blocks_list,
            )
        except RuleViolation as e:  # a ruleset's error is shown, not fatal
            self.view.setHtml(
                f"<p style='color:#c62828'>{escape(rs.title)} could not build its "
                f"displays: {escape(str(e))}</p>"
            )
            return
        if not blocks:
            self.view.setHtml(
                f"<p>{escape(rs.title)} keeps no displays of its own: the roster, "
                "ledgers and logs show everything.</p>"
            )
            return
        self.view.setHtml("".join(block_html(b) for b in blocks))

    def text(self) -> str:
        """What the panel shows, as plain text."""
        return self.view.toPlainText()


if __name__ == "__main__":
    from app.ui.docks.preview import preview

    raise SystemExit(preview(DisplaysDock))
