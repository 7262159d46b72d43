"""A one-column A4 PDF as the desk writes its reports (a ruling, the after-action report):
portrait, 15 mm margins, 300 dpi, titled and signed by Airboss."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter

#: the report's resolution (dots per inch) and margins (mm)
DPI = 300
MARGIN_MM = 15


def a4_writer(path: str | Path, title: str) -> QPdfWriter:
    """A PDF writer for ``path``, on A4 portrait with the report's margins and resolution."""
    writer = QPdfWriter(str(path))
    writer.setTitle(title)
    writer.setCreator("Airboss")
    writer.setResolution(DPI)
    m = MARGIN_MM
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4),
            QPageLayout.Orientation.Portrait,
            QMarginsF(m, m, m, m),
            QPageLayout.Unit.Millimeter,
        )
    )
    return writer
