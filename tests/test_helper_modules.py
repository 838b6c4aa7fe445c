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


class _EditableFinder:
    """What ``pip install -e .`` installs for a plug-in (setuptools' editable finder): a
    finder on ``sys.meta_path`` that maps the package's name to its folder, which is on
    no search path."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name, self.folder = name, folder

    def find_spec(self, fullname, path=None, target=None):
        from importlib.util import spec_from_file_location

        if fullname != self.name:
            return None
        init = self.folder / "__init__.py"
        return spec_from_file_location(fullname, init,
                                       submodule_search_locations=[str(self.folder)])


def test_an_editable_installs_module_and_helpers_are_found(tmp_path, monkeypatch):
    """The documented install of a plug-in, ``pip install -e .``: its modules are found by
    a meta-path finder, not through sys.path; they went unrecorded, so a resume took an
    edited helper (or an isolated entrant's own module) for the original."""
    _tree(tmp_path, {"editedpkg/__init__.py": "", "editedpkg/bot.py": "from .scoring import v\n",
                     "editedpkg/scoring.py": "v = 1\n"})
    monkeypatch.setattr(sys, "meta_path",
                        [*sys.meta_path, _EditableFinder("editedpkg", tmp_path / "editedpkg")])
    bot = _module_file("editedpkg.bot", [str(tmp_path / "elsewhere")])
    assert bot == (tmp_path / "editedpkg/bot.py").resolve()
    found = helper_modules("editedpkg.bot", bot,
                           lambda name: _module_file(name, [str(tmp_path / "elsewhere")]))
    assert sorted(found) == ["editedpkg", "editedpkg.scoring"]


def test_the_built_in_heuristic_records_its_helpers_as_the_installed_command_runs_it(tmp_path):
    """README installs whist_sim with ``pip install -e .``: run from another folder, where
    the repository is on no search path, the heuristic recorded no helper module (a
    plug-in author's probe), so a resume took an edited helper for the original. Run in a
    process of its own, from ``tmp_path``, as the ``whist-sim`` command runs."""
    import json
    import os
    import subprocess

    code = ("import json; from whist_sim.strategy import strategy_source;"
            " print(json.dumps(sorted(strategy_source('heuristic', 'german_whist')"
            "['helpers'])))")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout
    helpers = json.loads(out.splitlines()[-1])
    assert "strategies.heuristic_memo" in helpers, helpers
