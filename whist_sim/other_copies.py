"""Another copy of whist_sim, or of its built-in ``strategies``, in the folder whist-sim
runs from: named before anything starts, not found after a run has mixed the two.

The ``whist-sim`` command imports the installed copy, but the processes it starts look
in the folder it runs from first: ``python -m`` puts that folder first on the path (the
embedded run's restart, every isolated entrant's bot), and Ray's workers are given it on
``PYTHONPATH`` so that plug-ins kept there are found. From a checkout of another version,
``whist-sim check --isolate`` and a run on Ray played that version's code while the
command that recorded them was the installed one (a newcomer's probe). A copy whose
Python files are the installed ones byte for byte is no problem, nor is the installed
copy itself (an editable install run from its own checkout).
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

PACKAGES = ("whist_sim", "strategies")
"""The packages whist_sim installs, which a folder's copy would replace in its children."""


def source_digest(root: Path) -> str:
    """SHA-256 over a package's Python source: every ``.py`` file under ``root``, by its
    path inside the package and its bytes."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def other_copies(folder: Path) -> list[str]:
    """One line per package of ``PACKAGES`` that ``folder`` holds a different copy of
    than the one this process imports (found, not imported: call it before ``folder``
    goes on the path), naming both and the ways on; none when there is no such copy."""
    lines = []
    for name in PACKAGES:
        here = folder / name
        if not (here / "__init__.py").is_file():
            continue
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        installed = Path(spec.origin).resolve().parent
        if installed == here.resolve() or _same_source(installed, here):
            continue
        lines.append(
            f"{here.resolve()} is another copy of {name} than the one whist-sim runs"
            f" ({installed}), and the processes whist-sim starts (Ray's workers, isolated"
            " entrants' bots) would import it from this folder: run whist-sim from another"
            " folder, or install this one (pip install -e .) to run its code")
    return lines


def _same_source(installed: Path, here: Path) -> bool:
    """Whether the two copies' Python files are the same; a copy that cannot be read whole
    (a dangling link among its files read as a traceback: a hostile probe) is not."""
    try:
        return source_digest(installed) == source_digest(here)
    except OSError:
        return False
