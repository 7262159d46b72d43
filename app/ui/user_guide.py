"""Help > User guide (F1, issue 47): the README's guide to the desk, shown in the desk.

One text, not two: the guide is the README itself, read from the checkout beside the ``app``
package (an editable install, a source tree) or else from the installed distribution's
metadata, whose description is the README (a wheel; the frozen bundle copies that metadata).
The sections written for developers (how it is built, dependencies, performance figures) are
left out; pictures show where their files are (a checkout) and are left out elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

#: the README's sections that are for developers, not for the umpire at the table
DEVELOPER_SECTIONS = ("How it is built", "Why each dependency is there", "Performance")
README = Path(__file__).resolve().parents[2] / "README.md"


def readme_text() -> tuple[str, Path | None]:
    """The README's text and the folder its pictures are relative to (None: no pictures)."""
    if README.is_file():
        return README.read_text(encoding="utf-8"), README.parent
    try:
        from importlib.metadata import PackageNotFoundError, metadata

        text = metadata("airboss").get_payload()  # type: ignore[attr-defined]
    except (PackageNotFoundError, OSError):
        text = None
    if isinstance(text, str) and text.strip():
        return text, None
    return (
        "# Airboss\n\nThis installation carries no user guide (the README of Airboss is "
        "not here). It is the project's README.md.\n",
        None,
    )


def guide_markdown(text: str, pictures: Path | None) -> str:
    """The README without its developers' sections, pictures kept only where they exist."""
    parts = re.split(r"(?m)^(?=## )", text)
    kept = [
        p for p in parts if not any(p.startswith(f"## {title}") for title in DEVELOPER_SECTIONS)
    ]

    def picture(m: re.Match[str]) -> str:
        target = m.group(2)
        if pictures is not None and (pictures / target).is_file():
            return m.group(0)
        return ""

    return re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", picture, "".join(kept))


class UserGuide(QDialog):
    """The guide in a window beside the desk (not modal), with Find (Ctrl+F)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("user_guide")
        self.setWindowTitle("Airboss — User guide")
        self.setModal(False)
        text, pictures = readme_text()
        self.browser = QTextBrowser()
        self.browser.setObjectName("user_guide_text")
        self.browser.setOpenExternalLinks(True)
        self.browser.setAccessibleName("User guide")
        self.browser.setAccessibleDescription("The README's guide to the desk, as Markdown")
        if pictures is not None:
            self.browser.setSearchPaths([str(pictures)])
            self.browser.document().setBaseUrl(QUrl.fromLocalFile(str(pictures) + "/"))
        self.browser.setMarkdown(guide_markdown(text, pictures))
        self.find_box = QLineEdit()
        self.find_box.setPlaceholderText("Find in the guide (Enter: next)")
        self.find_box.setAccessibleName("Find in the user guide")
        self.find_box.setClearButtonEnabled(True)
        self.find_box.returnPressed.connect(self.find_next)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.find_box)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.find_action = QAction("Find", self)
        self.find_action.setShortcuts(QKeySequence.StandardKey.Find)
        self.find_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.find_action.triggered.connect(lambda: self.find_box.setFocus())
        self.addAction(self.find_action)
        self.resize(820, 640)

    def text(self) -> str:
        """The guide as shown (plain text)."""
        return self.browser.toPlainText()

    def find_next(self) -> bool:
        """The next place the find box's text is in the guide, selected (from the top again
        once past the last)."""
        wanted = self.find_box.text()
        if not wanted:
            return False
        if self.browser.find(wanted):
            return True
        cursor = self.browser.textCursor()
        cursor.movePosition(cursor.MoveOperation.Start)
        self.browser.setTextCursor(cursor)
        return self.browser.find(wanted)
