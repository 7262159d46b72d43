"""Issue 32: the example ruleset in examples/duel is installed as a club would install its own
(``pip install`` of its folder, which registers it under the ``airboss.rulesets`` entry point;
here into a throw-away target folder), is found and loaded by Airboss through that entry point,
and keeps the ruleset contract: its own test (one call of the author's kit) passes, and the kit
run here on the ruleset Airboss loaded passes too."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import plugins
from app.testing import check_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "duel"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example pip-installed into a target folder (built from a copy: nothing is written
    into the repository)."""
    tmp = tmp_path_factory.mktemp("duel")
    source, site = tmp / "duel", tmp / "site"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert (site / "airboss_duel" / "tables" / "ranges.toml").is_file()
    return site


@pytest.mark.slow
def test_the_installed_example_is_loaded_through_its_entry_point_and_keeps_the_contract(
    installed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(installed))
    plugins.forget()
    try:
        assert plugins.available_rulesets()["duel"] == "Duel"
        rs = plugins.load_ruleset("duel")
        assert type(rs).__module__ == "airboss_duel.ruleset"
        check_ruleset(rs, fills={"ranges": {"modifiers": [0, -1, -2]}})
        # without the umpire's value for range 3 the kit says which cell is missing
        with pytest.raises(AssertionError, match=r"ranges: modifiers\[2\]: still marked missing"):
            check_ruleset(rs)
    finally:
        for name in [m for m in sys.modules if m.startswith("airboss_duel")]:
            del sys.modules[name]
        plugins.forget()


@pytest.mark.slow
def test_the_examples_own_test_passes_against_the_installed_package(
    installed: Path, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(installed), str(ROOT)]),
        "AIRBOSS_DATA_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=EXAMPLE,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
