"""Which modules count as a strategy's helpers: the ones it imports from its own plug-in,
found by reading source (``whist_sim.helper_modules``); not the standard library, NumPy,
whist_sim or another installed package, so that upgrading those does not stop a resume."""

from __future__ import annotations

import hashlib
import sys
import textwrap
from pathlib import Path

from whist_sim.helper_modules import helper_modules
from whist_sim.strategy import _module_file


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def _helpers(root: Path, module: str, file: str) -> dict[str, dict[str, str]]:
    search = [str(root), *sys.path]
    return helper_modules(module, (root / file).resolve(),
                          lambda name: _module_file(name, search))


def test_a_packaged_strategys_helpers_are_its_own_packages_modules(tmp_path):
    _tree(tmp_path, {
        "helpedpkg/__init__.py": "",
        "helpedpkg/bots.py": """
            import json
            import numpy as np
            import whist_sim.cards
            from . import tables
            from .scoring import value
            from helpedpkg.deep import leaf
            def later():
                from .lazy import thing  # an import inside a function counts too
        """,
        "helpedpkg/tables.py": "TABLE = 1\n",
        "helpedpkg/scoring.py": "from .tables import TABLE\nvalue = TABLE\n",
        "helpedpkg/deep/__init__.py": "",
        "helpedpkg/deep/leaf.py": "from .. import unused_sibling\n",
        "helpedpkg/unused_sibling.py": "",
        "helpedpkg/lazy.py": "thing = 2\n",
        "helpedpkg/never_imported.py": "",
    })
    found = _helpers(tmp_path, "helpedpkg.bots", "helpedpkg/bots.py")
    assert sorted(found) == ["helpedpkg", "helpedpkg.deep", "helpedpkg.deep.leaf",
                             "helpedpkg.lazy", "helpedpkg.scoring", "helpedpkg.tables",
                             "helpedpkg.unused_sibling"]
    scoring = tmp_path / "helpedpkg/scoring.py"
    assert found["helpedpkg.scoring"] == {
        "file": str(scoring.resolve()),
        "sha256": hashlib.sha256(scoring.read_bytes()).hexdigest()}


def test_a_top_level_strategys_helpers_are_the_modules_beside_it(tmp_path):
    _tree(tmp_path, {
        "mybot.py": "import myhelper\nfrom helperpkg.part import f\nimport os.path\n",
        "myhelper.py": "from helperpkg import other\n",
        "helperpkg/__init__.py": "",
        "helperpkg/part.py": "f = 1\n",
        "helperpkg/other.py": "",
        "unrelated.py": "",
    })
    assert sorted(_helpers(tmp_path, "mybot", "mybot.py")) == [
        "helperpkg", "helperpkg.other", "helperpkg.part", "myhelper"]


def test_a_module_among_installed_packages_has_no_helpers_there(tmp_path):
    """A single-file module installed into site-packages: its neighbours there are other
    distributions, recorded by their versions, not one plug-in's helpers."""
    site = tmp_path / "site-packages"
    _tree(site, {"installedbot.py": "import installedneighbour\n", "installedneighbour.py": ""})
    assert _helpers(site, "installedbot", "installedbot.py") == {}


def test_relative_imports_above_the_top_package_and_unreadable_files_are_skipped(tmp_path):
    _tree(tmp_path, {"toppkg/__init__.py": "", "toppkg/bot.py": "from ... import nothing\n",
                     "broken.py": "def (:\n"})
    assert _helpers(tmp_path, "toppkg.bot", "toppkg/bot.py") == {}
    assert _helpers(tmp_path, "broken", "broken.py") == {}


def test_the_built_in_heuristic_records_the_strategies_modules_it_imports():
    from whist_sim.strategy import strategy_source

    helpers = strategy_source("heuristic", "german_whist")["helpers"]
    assert helpers and all(name.split(".")[0] == "strategies" for name in helpers)
