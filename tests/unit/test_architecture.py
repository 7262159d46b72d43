"""The import rule (DESIGN.md Layout): core is pure, rulesets import only core, Qt only in ui."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_linter_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_import_cycles() -> None:
    """Issue 19: no module imports, directly or through others, a module that imports it
    (function-level and ``__main__`` imports included: grimp, import-linter's graph)."""
    import grimp

    graph = grimp.build_graph("app", "rulesets")
    cycles = [
        (module, imported)
        for module in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(module))
        if imported != module and graph.find_shortest_chain(importer=imported, imported=module)
    ]
    assert cycles == []


def test_core_and_rulesets_import_without_qt() -> None:
    """The core and every built-in ruleset load in a process where PySide6 cannot be imported."""
    code = (
        "import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None\n"
        "import sqlalchemy; sys.modules['sqlalchemy'] = None\n"
        "import app.core.dice, app.core.engagement, app.core.history, app.core.ruleset\n"
        "import importlib, pkgutil, rulesets\n"
        "for m in pkgutil.iter_modules(rulesets.__path__):\n"
        "    importlib.import_module('rulesets.' + m.name)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_ruff_lint_is_clean() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_core_and_rulesets() -> None:
    """STYLE.md 8: mypy strict on app/core and rulesets (configured in pyproject)."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "app/core", "rulesets"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
