"""The code and files an entrant's parameters name, recorded so a resume can compare them.

run.json records the module of each entrant's strategy class and its helpers
(``strategy.strategy_source``), and a resume refuses an entrant whose code changed
(``tournament.same_code``). A trained policy is played by the built-in
``strategies.policy``, whose file never changes: what plays is the function its
``callable`` names and, often, a weights file its parameters name (``weights =
"ckpt-1000.npz"``). Edited or retrained between two sessions, either changed how the
entrant played while nothing recorded did. The same holds for any plug-in that reads a
file its parameters name (an opening book, a table of weights).

So, for each parameter whose value is a string:

- ``package.module:name`` whose module has been imported (building the strategy
  imported it): the module's file, SHA-256 and helper modules (``module_record``);
- the path of an existing file (relative to the working folder, as the strategy reads
  it): its resolved path and SHA-256.

Values nested in lists or tables are not looked at; bump the strategy's ``version``
when such a file changes.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from whist_sim.deal_sets import file_digest
from whist_sim.strategy import CALLABLE_REFERENCE, module_record


def parameter_sources(params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"parameter_modules": {key: module record}, "parameter_files": {key: {"file",
    "sha256"}}}`` for the parameters that name imported code or an existing file."""
    modules: dict[str, Any] = {}
    for key, value in sorted(params.items()):
        if isinstance(value, str) and CALLABLE_REFERENCE.fullmatch(value):
            module_name = value.partition(":")[0]
            if module_name in sys.modules:
                modules[key] = module_record(module_name)
    files = {}
    for key, path in _named_files(params):
        digest = _current_digest(path)
        if digest is not None:
            files[key] = {"file": str(path.resolve()), "sha256": digest}
    return {"parameter_modules": modules, "parameter_files": files}


def parameter_file_digests(params: Mapping[str, Any]) -> dict[str, str]:
    """``{key: SHA-256}`` of the files ``params`` name, as ``parameter_sources`` records
    them, read now: the files a process building the strategy now reads. A run compares
    them at every task with what it recorded at its start (``node_code``): a checkpoint
    overwritten while a run played it mixed two policies under one label, in process as
    each task built the strategy again. A file is hashed again only when its size,
    modification time or inode changed, so a task pays a ``stat`` a file."""
    digests = {}
    for key, path in _named_files(params):
        digest = _current_digest(path)
        if digest is not None:
            digests[key] = digest
    return digests


def _current_digest(path: Path) -> str | None:
    """``path``'s SHA-256 as the file is now, read only if its size, modification time or
    inode changed since it was last read (by the record or a check: the record was read
    twice at a run's start, for the config and for the nodes' check, and each task's
    check once more); None if it is gone since it was found."""
    try:
        seen = path.stat()
        return _digest_of(str(path.resolve()), seen.st_size, seen.st_mtime_ns, seen.st_ino)
    except OSError:
        return None


@functools.lru_cache(maxsize=256)
def _digest_of(file: str, size: int, modified: int, inode: int) -> str:
    """``file``'s SHA-256, kept for the size, modification time and inode it was read at."""
    return file_digest(Path(file))


def _named_files(params: Mapping[str, Any]) -> Iterator[tuple[str, Path]]:
    """The parameters whose value is the path of an existing file (relative to the working
    folder, as the strategy reads it), by key; a ``package.module:name`` is none."""
    for key, value in sorted(params.items()):
        if not isinstance(value, str) or not value or CALLABLE_REFERENCE.fullmatch(value):
            continue
        path = Path(value)
        try:
            if path.is_file():
                yield key, path
        except OSError:  # a value no file system accepts as a path (too long, say)
            continue

