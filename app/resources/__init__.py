"""Files the app ships beside its code: the demo engagement and the application icon.

They live inside the ``app`` package so that the wheel and the frozen bundle carry them.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent

#: the built-in demo engagement
DEMO = HERE / "demo.toml"
#: the application icon (SVG) and its PNG renderings, airboss-<size>.png
ICON_SVG = HERE / "icons" / "airboss.svg"


def icon_png(size: int) -> Path:
    return HERE / "icons" / f"airboss-{size}.png"
