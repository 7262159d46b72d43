"""Render app/resources/icons/airboss.svg to the PNG sizes desktops want (run when the SVG changes).

QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py
"""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "app" / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> None:
    app = QGuiApplication([])
    renderer = QSvgRenderer(str(ICONS / "airboss.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"airboss-{size}.png"))
    del app


if __name__ == "__main__":
    main()
