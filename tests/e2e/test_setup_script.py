"""``scripts/setup`` (issue 47): it installs once, and a second set-up with nothing changed is a
no-op (neither pip nor apt run); a changed pyproject.toml, or the test extra asked for after a
desk-only set-up, installs again. Run on a copy of the script and pyproject.toml with a
stand-in ``.venv/bin/python`` that records every pip call and a stand-in ``apt-get``/``sudo``
that record theirs, so nothing is installed for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder laid out as a checkout whose .venv's Python only records pip being run."""
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    python = bin_ / "python"
    python.write_text(
        "#!/usr/bin/env bash\n"
        f'if [ "$1" = "-m" ]; then echo "$*" >>"{tmp_path}/calls.log"; exit 0; fi\n'
        f'exec "{sys.executable}" "$@"\n'
    )
    python.chmod(0o755)
    fake = tmp_path / "fakebin"
    fake.mkdir()
    for tool in ("apt-get", "sudo"):
        (fake / tool).write_text(
            f'#!/usr/bin/env bash\necho "{tool} $*" >>"{tmp_path}/calls.log"\n'
        )
        (fake / tool).chmod(0o755)
    return tmp_path


def setup(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHON": sys.executable,
        "PATH": f"{where / 'fakebin'}:{os.environ['PATH']}",
    }
    result = subprocess.run(
        ["bash", str(where / "scripts" / "setup"), *args],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def calls(where: Path) -> list[str]:
    log = where / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def test_a_second_set_up_is_a_no_op(checkout: Path) -> None:
    first = setup(checkout)
    assert calls(checkout) == ["-m pip install -e ."], first.stdout
    assert "setup: installing Airboss" in first.stdout
    stamp = checkout / ".venv" / ".airboss-setup"
    written = stamp.stat().st_mtime_ns

    second = setup(checkout)
    assert second.stdout.splitlines() == [
        "setup: up to date (pyproject.toml unchanged since .venv was set up): nothing to install"
    ]
    assert calls(checkout) == ["-m pip install -e ."]  # neither pip nor apt again
    assert stamp.stat().st_mtime_ns == written


def test_the_test_extra_installs_once_and_the_desk_keeps_it(checkout: Path) -> None:
    setup(checkout)
    setup(checkout, "--test")
    assert calls(checkout) == ["-m pip install -e .", "-m pip install -e .[test]"]
    setup(checkout, "--test")
    setup(checkout)  # ./scripts/run after ./scripts/test: the extra is there, nothing to do
    assert len(calls(checkout)) == 2


def test_a_changed_pyproject_installs_again(checkout: Path) -> None:
    setup(checkout)
    pyproject = checkout / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# a dependency added\n")
    again = setup(checkout)
    assert calls(checkout) == ["-m pip install -e .", "-m pip install -e ."]
    assert "up to date" not in again.stdout


def test_the_desk_set_up_asks_for_no_test_tools() -> None:
    """./scripts/run sets up the desk alone; ./scripts/test and CI the test extra."""
    run = (ROOT / "scripts" / "run").read_text()
    test = (ROOT / "scripts" / "test").read_text()
    assert "./scripts/setup\n" in run and "--test" not in run
    assert "./scripts/setup --test" in test
    assert "exec ./scripts/test" in (ROOT / ".ci" / "run").read_text()
