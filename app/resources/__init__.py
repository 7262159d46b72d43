"""Files the app ships beside its code: the demo engagement, its rows and the application icon.

They live inside the ``app`` package so that the wheel and the frozen bundle carry them.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent

#: the built-in demo engagement
DEMO = HERE / "demo.toml"
#: the rows a new game of the demo engagement is drawn from (``app.startup.demo_rows``)
DEMO_ROWS = HERE / "demo_rows.json"
#: the application icon (SVG) and its PNG renderings, airboss-<size>.png
ICON_SVG = HERE / "icons" / "airboss.svg"


def icon_png(size: int) -> Path:
    return HERE / "icons" / f"airboss-{size}.png"
