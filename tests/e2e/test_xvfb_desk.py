"""Issue 47: the desk opens on a real X display with Qt's own xcb platform, with only the
Debian libraries ``scripts/setup`` installs (CI runs this from a clean clone after
``scripts/setup --test``, which also installs Xvfb and xwininfo), on a 1366x768 screen with
no window manager: its window is within the screen, and a screenshot of the screen shows it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREEN = (1366, 768)

pytestmark = pytest.mark.slow

GRAB = """
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication([])
assert app.platformName() == "xcb", app.platformName()
shot = app.primaryScreen().grabWindow(0)
print(shot.width(), shot.height())
shot.save(sys.argv[1])
image = shot.toImage()
xs, ys = range(0, image.width(), 7), range(0, image.height(), 7)
colours = {image.pixel(x, y) for x in xs for y in ys}
print(len(colours))
"""


@pytest.fixture
def display():
    """An Xvfb server of its own (1366x768, 24 bits), on a display number it chose."""
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is missing: scripts/setup --test installs it (Debian's xvfb)"
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
         "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number.isdigit(), "Xvfb did not say its display"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def windows(display: str) -> list[tuple[str, int, int, int, int]]:
    """(name, width, height, x, y) of the top-level windows on the display (xwininfo)."""
    out = subprocess.run(
        ["xwininfo", "-root", "-children", "-display", display],
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    found = []
    for m in re.finditer(r'"([^"]*)": \(.*?\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)', out):
        found.append((m[1], int(m[2]), int(m[3]), int(m[4]), int(m[5])))
    return found


def test_the_desk_opens_on_x_within_the_screen(display, tmp_path):
    assert shutil.which("xwininfo"), "xwininfo is missing: scripts/setup --test installs x11-utils"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=display, AIRBOSS_DATA_DIR=str(tmp_path / "data"))
    desk = subprocess.Popen(
        [sys.executable, "-m", "app.cli"],  # the very first start: the demo engagement
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        shown: list[tuple[str, int, int, int, int]] = []
        while time.monotonic() < deadline and desk.poll() is None:
            shown = [w for w in windows(display) if w[0].endswith("— Airboss") and w[1] > 1]
            if shown:
                break
            time.sleep(0.2)
        assert desk.poll() is None, desk.communicate()[1]
        assert shown, f"no Airboss window on {display}: {windows(display)}"
        time.sleep(1.5)  # the panels built after the first paint, the pictures drawn
        name, width, height, x, y = max(windows(display), key=lambda w: w[1] * w[2] * (
            w[0].endswith("— Airboss")))  # fmt: skip
        assert name.endswith("— Airboss")
        assert width <= SCREEN[0] and height <= SCREEN[1], (width, height)
        assert 0 <= x and 0 <= y and x + width <= SCREEN[0] and y + height <= SCREEN[1]
        picture = tmp_path / "screen.png"
        grab = subprocess.run(
            [sys.executable, "-c", GRAB, str(picture)],
            env={**env, "QT_QPA_PLATFORM": "xcb"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert grab.returncode == 0, grab.stderr
        size, colours = grab.stdout.split("\n")[:2]
        assert size == f"{SCREEN[0]} {SCREEN[1]}"
        assert int(colours) > 20, "the screen is blank"  # the desk's panels, text and colours
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert desk.poll() is None  # still running: nothing went wrong meanwhile
    finally:
        desk.send_signal(signal.SIGTERM)
        try:
            desk.wait(10)
        except subprocess.TimeoutExpired:
            desk.kill()
            desk.wait(10)
    log = (tmp_path / "data" / "log" / "airboss.log").read_text()
    assert "airboss started" in log
