"""Help > Rules readings: every variant of every installed ruleset -- the optional rules, errata
and the open readings of the texts -- with its rule, what each reading does, its default, and
whether the open game uses it (issue 15: "the variant help lists every open reading with its
default")."""

from __future__ import annotations

from collections.abc import Collection
from html import escape

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from app.core.ruleset import Ruleset
from app.plugins import available_rulesets, load_ruleset


def readings_html(rulesets: list[Ruleset], current: str | None, chosen: Collection[str]) -> str:
    """The readings of ``rulesets`` as HTML, the open game's ruleset (``current``) first with
    its chosen variants marked."""
    ordered = sorted(rulesets, key=lambda rs: (rs.id != current, rs.title))
    parts: list[str] = []
    for rs in ordered:
        heading = escape(rs.title) + (" — this game" if rs.id == current else "")
        parts.append(f"<h3>{heading}</h3>")
        if not rs.variants:
            parts.append("<p>No variants: the text is followed as written.</p>")
            continue
        parts.append("<ul>")
        for v in rs.variants:
            default = "on" if v.default else "off"
            state = ""
            if rs.id == current:
                state = " <b>In this game: " + ("on" if v.id in chosen else "off") + ".</b>"
            rule = f" ({escape(v.rule)})" if v.rule else ""
            text = escape(v.help).replace("\n", "<br>")
            readings = "".join(
                f"<br><i>{label}:</i> {escape(said)}"
                for label, said in (("Without it", v.off), ("With it", v.on))
                if said
            )
            parts.append(
                f"<li><b>{escape(v.title)}</b>{rule}. Default: {default}.{state}<br>{text}"
                f"{readings}</li>"
            )
        parts.append("</ul>")
    return "".join(parts)


class ReadingsDialog(QDialog):
    """The readings in a scrolling browser; Esc or Close shuts it."""

    def __init__(self, current: str | None, chosen: Collection[str], parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules readings and variants")
        rulesets = [load_ruleset(rid) for rid in available_rulesets()]
        self.browser = QTextBrowser()
        self.browser.setObjectName("readings")
        self.browser.setHtml(readings_html(rulesets, current, chosen))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        QShortcut(QKeySequence.StandardKey.Close, self, self.reject)
        screen = parent.screen().availableGeometry() if parent.screen() else None
        width, height = 760, 620
        if screen is not None:
            width, height = min(width, screen.width() - 40), min(height, screen.height() - 60)
        self.resize(width, height)
