"""The helper modules a strategy's module imports from its own plug-in, found by reading
source and running nothing.

run.json records each entrant's module file and its SHA-256, and a resume refuses an
entrant whose file changed (``tournament.same_code``). A strategy's decisions often live
in a module beside it (``from myhelper import pick``, ``from .scoring import value``):
edited between two sessions, that module changed how the entrant plays while its own
file, and so its record, stayed the same (a resume probe mixed two behaviours under one
label that way). This finds those modules so they are recorded and compared too.

What counts as the plug-in's own, so that an upgrade of NumPy or of whist_sim itself
does not stop a resume:

- a strategy in a package (``mypkg.bots:Mine``, the built-in ``strategies`` package):
  the modules of that same top-level package;
- a strategy in a top-level module (``mybot.py``): the top-level modules and packages
  beside its file (``myhelper.py``, ``helpers/``), unless that folder is where installed
  packages or the standard library live.

``whist_sim`` is never a plug-in's own. Imports are read from the source (``import``
and ``from ... import`` anywhere in a module, relative ones too), level after level, so
a helper's helpers count; a module loaded by name at run time (``importlib``) is not
found: bump the strategy's ``version`` when such a module changes.
"""

from __future__ import annotations

import ast
import hashlib
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path

MAX_HELPERS = 500
"""At most this many helper modules are read for one strategy: a plug-in's own package
has far fewer; the cap bounds a run's start on a tree of thousands of modules."""

NEVER_OWN = frozenset({"whist_sim"})


def helper_modules(module_name: str, file: Path,
                   find: Callable[[str], Path | None]) -> dict[str, dict[str, str]]:
    """``{module: {"file": ..., "sha256": ...}}``: the modules ``module_name`` (whose
    source is ``file``) imports from its own plug-in, directly or through one another,
    itself left out. ``find``: where a module name would be imported from (a file), or
    None (not found, or not a file of source)."""
    own = _own_rule(module_name, file)
    found: dict[str, dict[str, str]] = {}
    queue = [(module_name, file)]
    seen = {module_name}
    while queue and len(found) < MAX_HELPERS:
        name, path = queue.pop()
        for imported in _imports(name, path):
            if imported in seen:
                continue
            seen.add(imported)
            location = find(imported)
            if location is None or location.suffix != ".py" or not own(imported, location):
                continue
            found[imported] = {"file": str(location),
                               "sha256": hashlib.sha256(location.read_bytes()).hexdigest()}
            queue.append((imported, location))
    return dict(sorted(found.items()))


def _own_rule(module_name: str, file: Path) -> Callable[[str, Path], bool]:
    """Whether an imported module (by name and file) belongs to the strategy's plug-in."""
    top = module_name.partition(".")[0]
    if "." in module_name or file.name == "__init__.py":
        return lambda name, _: name.partition(".")[0] == top and top not in NEVER_OWN
    folder = file.parent
    if _is_shared_folder(folder):
        return lambda name, _: False

    def beside(name: str, location: Path) -> bool:
        head = name.partition(".")[0]
        if head in NEVER_OWN:
            return False
        return location == folder / f"{head}.py" or folder / head in location.parents
    return beside


def _is_shared_folder(folder: Path) -> bool:
    """Whether ``folder`` is where installed packages or the standard library live (its
    other modules are not one plug-in's)."""
    shared = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            shared.add(Path(sysconfig.get_path(key)).resolve())
        except (KeyError, TypeError, OSError):
            continue
    return folder.resolve() in shared or folder.name in ("site-packages", "dist-packages")


def _imports(module_name: str, file: Path) -> Iterator[str]:
    """Every module name an import in ``file`` may load: each dotted prefix of an
    ``import a.b``, and for ``from a import b`` both ``a`` and ``a.b`` (``b`` may be a
    submodule); relative imports made absolute from ``module_name``'s package."""
    try:
        tree = ast.parse(file.read_bytes(), str(file))
    except (OSError, SyntaxError, ValueError):  # unreadable: importing it says why
        return
    package = module_name if file.name == "__init__.py" else module_name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _prefixes(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            if base is None:
                continue
            if base:
                yield from _prefixes(base)
            for alias in node.names:
                if alias.name != "*":
                    yield f"{base}.{alias.name}" if base else alias.name


def _absolute(module: str | None, level: int, package: str) -> str | None:
    """The absolute name of ``from <level dots><module> import``, or None when it climbs
    above the top-level package."""
    if not level:
        return module or ""
    parts = package.split(".") if package else []
    base = parts[:len(parts) - (level - 1)] if level - 1 < len(parts) else []
    if not base:
        return None
    return ".".join([*base, module] if module else base)


def _prefixes(name: str) -> Iterator[str]:
    parts = name.split(".")
    for depth in range(1, len(parts) + 1):
        yield ".".join(parts[:depth])
