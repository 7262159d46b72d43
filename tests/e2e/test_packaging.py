"""Packaging (issue 10): the wheel installs and runs in a fresh venv; the frozen bundle runs;
the desktop entry and the AppStream metainfo validate."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import venv
from contextlib import closing
from pathlib import Path

import pytest

from app.session import GameSession

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
OFFSCREEN = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}

pytestmark = pytest.mark.slow


def run(
    cmd: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None, timeout: int = 600
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        cmd, cwd=cwd, env=env or OFFSCREEN, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, f"{' '.join(cmd)}\n{result.stdout}\n{result.stderr}"
    return result


def is_png(path: Path) -> bool:
    return path.exists() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_desktop_entry_validates() -> None:
    tool = shutil.which("desktop-file-validate")
    assert tool, "desktop-file-validate is missing: ./scripts/setup installs desktop-file-utils"
    run([tool, str(PACKAGING / "airboss.desktop")])


def test_metainfo_validates() -> None:
    tool = shutil.which("appstreamcli")
    assert tool, "appstreamcli is missing: ./scripts/setup installs appstream"
    run([tool, "validate", "--no-net", str(PACKAGING / "io.github.airboss.Airboss.metainfo.xml")])


def test_mime_type_registers_airboss_files() -> None:
    text = (PACKAGING / "airboss-mime.xml").read_text()
    assert '<glob pattern="*.airboss"/>' in text
    assert "application/x-airboss-game" in (PACKAGING / "airboss.desktop").read_text()


def test_wheel_installs_and_runs_in_a_fresh_venv(tmp_path: Path) -> None:
    """The wheel and its dependencies installed by pip into a fresh venv, whose ``airboss``
    lists the rulesets and paints the window.

    pip is the test environment's own, pointed at the fresh venv (``pip --python``): the venv
    gets no copy of pip of its own (ensurepip: about 8 s of processor time) and pip compiles no
    ``.pyc`` files (``--no-compile``: about 8 s; Python compiles what it imports anyway). What is
    installed into the venv is what ``pip install`` of the wheel installs there."""
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), "."])
    wheel = next((tmp_path / "dist").glob("airboss-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(py)]
    run([*pip, "install", "-q", "--no-compile", str(wheel)], timeout=900)
    # a fresh venv: nothing in it but what the wheel brought (no project checkout on its path)
    where = run([str(py), "-c", "import app; print(app.__file__)"], cwd=tmp_path).stdout
    assert Path(where.strip()).is_relative_to(env_dir), where
    airboss = env_dir / "bin" / "airboss"
    listing = run([str(airboss), "rulesets"], cwd=tmp_path).stdout
    for rid in ("phantoms", "airpower", "advanced_air_force", "ufo_interception", "nth_fleet"):
        assert f"{rid}:" in listing and "BROKEN" not in listing
    home = {
        **OFFSCREEN,
        "HOME": str(tmp_path / "home"),
        "AIRBOSS_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    shot = tmp_path / "window.png"
    run([str(airboss), "--screenshot", str(shot)], cwd=tmp_path, env=home)
    assert is_png(shot)


def test_frozen_bundle_runs(tmp_path: Path) -> None:
    run([str(PACKAGING / "build"), "--bundle-only"], timeout=1200)
    frozen = ROOT / "dist" / "airboss" / "airboss"
    assert frozen.exists()
    # issue 20: unused Qt modules left out, binaries stripped; issue 35: with pyqtgraph and
    # numpy back (the After-action plots) 196 MB, within its 200 MB goal; issue 30 adds the
    # keyring, whose Secret Service backend needs cryptography (11 MB): 208 MB, kept below 210
    bundle = frozen.parent
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    assert size <= 210 * 2**20, f"the bundle is {size / 2**20:.0f} MB"
    home = {
        **OFFSCREEN,
        "HOME": str(tmp_path / "home"),
        "AIRBOSS_DATA_DIR": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    listing = run([str(frozen), "rulesets"], cwd=tmp_path, env=home).stdout
    assert "phantoms:" in listing and "BROKEN" not in listing
    game = tmp_path / "fight.airboss"
    with GameSession.create(game, ruleset="phantoms", title="Frozen") as s:
        s.add_aircraft(side="USAF", type_id="f4e", name="Olds 1", pilot="ace")
        s.add_aircraft(side="VPAF", type_id="mig21", name="Red 1")
    shot = tmp_path / "frozen.png"
    run([str(frozen), "--screenshot", str(shot), str(game)], cwd=tmp_path, env=home)
    assert is_png(shot)
    pdf = tmp_path / "cards.pdf"
    run([str(frozen), "cards", str(game), "--out", str(pdf)], cwd=tmp_path, env=home)
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert "Olds 1" in run([str(frozen), "log", str(game)], cwd=tmp_path, env=home).stdout
    # issue 35: the frozen desk has its After-action plots (pyqtgraph and numpy bundled)
    report = tmp_path / "report.pdf"
    said = run([str(frozen), "report", str(game), "--out", str(report)], cwd=tmp_path, env=home)
    assert "after-action report of Frozen" in said.stdout
    assert report.read_bytes()[:5] == b"%PDF-"
    # the commands above kept the desk's rows as they closed the game (issue 36); as an older
    # Airboss leaves the file, with none, a child process of the frozen desk works them out
    # while the window is built, and the desk paints from them; it keeps them as it closes, and
    # the next start paints from them; either way the game is opened after the first paint
    # (the frozen desk imports the game's models after its first paint)
    with closing(sqlite3.connect(game)) as db, db:
        db.execute("DELETE FROM airboss_info WHERE key LIKE 'summary:%'")
    for from_child in (True, False):
        phases = run([str(frozen), "--startup-profile", str(game)], cwd=tmp_path, env=home).stdout
        assert phases.index("first paint") < phases.index("game opened")
        # one core: no child (app.startup.summary_child)
        two_cores = len(os.sched_getaffinity(0)) >= 2
        assert ("rows from the child" in phases) is (from_child and two_cores)
    # the very first start paints the demo game's rows shipped in the bundle, then makes the
    # demo game and opens it (app.startup.demo_rows)
    fresh = {**home, "AIRBOSS_DATA_DIR": str(tmp_path / "fresh")}
    phases = run([str(frozen), "--startup-profile"], cwd=tmp_path, env=fresh).stdout
    assert "rows from the child" not in phases
    assert phases.index("first paint") < phases.index("game opened")
    assert len(list((tmp_path / "fresh" / "games").glob("*.airboss"))) == 1
