"""The code base stays ruff-clean: the same check CI and the before-stop hook run."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# -- layers: the library never imports the plug-in package ------------------------------

PLUGIN_PACKAGE = "strategies"
"""The built-in strategies, registered as plug-ins: they may import whist_sim, never the
reverse (what search needs of a strategy it gets from the registry or as a parameter)."""


def _names_plugin_package(name: str | None) -> bool:
    return name is not None and (name == PLUGIN_PACKAGE or name.startswith(PLUGIN_PACKAGE + "."))


def imports_of_plugin_package(source: str) -> list[tuple[int, str]]:
    """(line, statement) of every import of ``strategies`` in ``source``: ``import``,
    ``from ... import`` (absolute), and ``importlib.import_module`` / ``__import__`` with
    a literal module name, wherever they sit (a function body, a TYPE_CHECKING block)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names
                      if _names_plugin_package(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and _names_plugin_package(node.module):
                found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (called in ("import_module", "__import__") and isinstance(first, ast.Constant)
                    and isinstance(first.value, str) and _names_plugin_package(first.value)):
                found.append((node.lineno, f"{called}({first.value!r})"))
    return sorted(found)


def test_the_import_finder_sees_every_form_of_import():
    source = "\n".join([
        "import strategies.pimc",
        "from strategies.heuristic import Heuristic",
        "def late():",
        "    from strategies import german_heuristic",
        "import importlib",
        "importlib.import_module('strategies.ismcts')",
        "import strategies_elsewhere",
        "from whist_sim.strategy import build_strategy",
        "from . import strategies",
    ])
    assert [line for line, _ in imports_of_plugin_package(source)] == [1, 2, 4, 6]


def test_no_module_of_whist_sim_imports_the_strategies_package():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {statement}"
        for path in sorted((ROOT / "whist_sim").rglob("*.py"))
        for line, statement in imports_of_plugin_package(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, (
        "whist_sim must not import the plug-in package strategies/ (take the strategy as a"
        " parameter or find it in the registry, whist_sim.strategy):\n" + "\n".join(offenders)
    )
