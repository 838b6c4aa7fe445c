"""The check that every node of a cluster plays the code the driver has.

On a Ray cluster each node imports whist_sim and the strategy plug-ins from its own
installation. A node left on another version of a plug-in (or of whist_sim) plays its
tasks with that code, and its rows sit beside the others under the same labels: one
run mixing two behaviours, with nothing in the results to show it (an operator's probe).

Each task therefore carries a fingerprint of the code that played it: the SHA-256 of
whist_sim's own source, and per entrant the SHA-256 of its strategy's module, of the
plug-in's helper modules it imports and of the code and files its parameters name (the
digests run.json keeps, ``strategy.strategy_source`` and ``parameter_sources``, without
the paths, which may differ from node to node). The driver computes the same
fingerprint when the first task of a Ray node comes in (a run in its own process, or
in a supervised child on the driver's disk, compares no code) and commits no task
whose fingerprint differs: the
run stops with a line naming the node and the first file that differs, and everything
committed before is kept, for a resume once the node has the driver's code.

The files the entrants' parameters name (a policy's weights) are read again by every
task that builds the strategies, so they are compared for every task, wherever it
plays, with those the session started with (``parameter_fingerprint``,
``check_parameter_files``): a checkpoint overwritten while the run plays it stops the
run at the first task that read the new one.

Not covered: entrants in processes of their own (bots, ``isolate = true``), whose files
the driver hashes at the start (run.json) but which each node starts from its own disk.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whist_sim.games.base import WhistSimError
from whist_sim.other_copies import source_digest
from whist_sim.parameter_sources import parameter_file_digests, parameter_sources
from whist_sim.strategy import strategy_source

PACKAGE = "whist_sim"
"""The fingerprint's entry for whist_sim's own source."""


class DifferentCodeError(WhistSimError):
    """A task played on a node whose code differs from the driver's."""


class ChangedParameterFileError(DifferentCodeError):
    """A task played with a parameter file other than the one the run started with."""


FILES = "parameter_files."
"""How a fingerprint names the file a parameter names (``parameter_files.weights``)."""


def parameter_fingerprint(strategies: Mapping[str, tuple[str, Mapping[str, Any]]]
                          ) -> dict[str, dict[str, str]]:
    """``{label: {"parameter_files.KEY": sha}}``: the files each entrant's parameters name
    as they are now (``parameter_file_digests``; a ``stat`` a file unless one changed).
    Unlike the code, which a process imports once, a parameter file is read each time
    a task builds its strategy, so it is fingerprinted afresh for every task, wherever
    the task plays."""
    return {label: {FILES + key: digest
                    for key, digest in parameter_file_digests(params).items()}
            for label, (_, params) in strategies.items()}


def with_parameter_files(code: Mapping[str, Mapping[str, str]],
                         files: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """``code`` with each entrant's parameter files taken from ``files``: a worker's code
    is hashed once per process, its files for every task; the driver's code is hashed at
    a node's first task, its files as the session started."""
    return {name: {**parts, **files.get(name, {})} for name, parts in code.items()}


@functools.cache
def package_digest() -> str:
    """SHA-256 over whist_sim's own Python source: every ``.py`` file of the package, by
    its path inside the package and its bytes. Computed once per process (a few
    milliseconds), as a worker process imports the package once."""
    return source_digest(Path(__file__).resolve().parents[1])


def code_fingerprint(game: str, strategies: Mapping[str, tuple[str, Mapping[str, Any]]],
                     in_process: Any = None, cached: bool = True) -> dict[str, dict[str, str]]:
    """``{"whist_sim": {"source": sha}, label: {what: sha, ...}}`` for the entrants of
    ``strategies`` (label -> (use, params)) that play in this process (``in_process``:
    the labels to fingerprint; None: all).

    ``cached``: kept per process and set of entrants, as a worker wants it (its modules
    are imported once, and hashing them again for every task would cost milliseconds a
    task); the driver reads the files as they are when a session starts, as run.json's
    record of them does."""
    labels = sorted(strategies if in_process is None else in_process)
    key = json.dumps([game, [[label, *strategies[label]] for label in labels]],
                     sort_keys=True, default=str)
    return _kept_fingerprint(key) if cached else _fingerprint(key)


def _fingerprint(key: str) -> dict[str, dict[str, str]]:
    game, entrants = json.loads(key)
    fingerprint = {PACKAGE: {"source": package_digest()}}
    for label, use, params in entrants:
        record = {"module": strategy_source(use, game), **parameter_sources(params)}
        fingerprint[label] = dict(_digests(record))
    return fingerprint


_kept_fingerprint = functools.cache(_fingerprint)


def _digests(record: Any, path: str = "") -> list[tuple[str, str]]:
    """Every ``sha256`` in a source record, by where it sits (``module``,
    ``module.helpers.pkg.util``, ``parameter_files.weights``): the paths of the files are
    left out, since a node may install them elsewhere."""
    if not isinstance(record, Mapping):
        return []
    found = []
    for key, value in sorted(record.items()):
        if key == "sha256" and isinstance(value, str):
            found.append((path or key, value))
        else:
            found += _digests(value, f"{path}.{key}" if path else str(key))
    return found


def check_node_code(expected: Mapping[str, Mapping[str, str]],
                    played: Mapping[str, Mapping[str, str]], node: str, task: int,
                    folder: Path) -> None:
    """Refuse (``DifferentCodeError``) a task whose fingerprint ``played`` differs from the
    driver's ``expected``, naming the node, the entrant and the file. A task played
    outside Ray (``node`` "local": in the driver's process, or a child of it on the same
    disk) is not compared: the driver's files are the ones it played, and a plug-in
    edited between two runs of one notebook would read as another node's code."""
    if node == "local":
        return
    for name in sorted(set(expected) | set(played)):
        here, there = expected.get(name, {}), played.get(name, {})
        for part in sorted(set(here) | set(there)):
            if here.get(part) == there.get(part):
                continue
            whose = "whist_sim's own source" if name == PACKAGE else (
                f"strategy {name!r}: {part}")
            raise DifferentCodeError(
                f"task {task} was played on node {node} with other code than this driver's:"
                f" {whose} has SHA-256 {_short(there.get(part))} there,"
                f" {_short(here.get(part))} here. Install the same whist_sim and plug-ins on"
                f" every node (docs/cluster.md); the tasks committed before are kept, and"
                f" `whist-sim run --resume {folder}` plays the rest")


def check_parameter_files(expected: Mapping[str, Mapping[str, str]],
                          played: Mapping[str, Mapping[str, str]], task: int,
                          folder: Path) -> None:
    """Refuse (``ChangedParameterFileError``) a task whose entrants read a parameter file
    other than the one the run started with (``expected``, ``parameter_fingerprint``'s
    at the session's start, as run.json records them): a checkpoint retrained into the
    file a running tournament plays changed the policy from one task to the next, the
    standings pooling both under one label without a word (a probe's finding). Compared
    for every task, in process as on a cluster."""
    for label in sorted(set(expected) & set(played)):
        here, there = expected[label], played[label]
        for part in sorted(p for p in set(here) | set(there) if p.startswith(FILES)):
            if here.get(part) == there.get(part):
                continue
            then = _digest_said(here, part, "no such file")  # one made during the run
            now = _digest_said(there, part, "no longer found")
            raise ChangedParameterFileError(
                f"strategy {label!r}: the file of its parameter {part[len(FILES):]} changed"
                f" while the run played it ({then} when the run started, {now} when task"
                f" {task} was played): one label would stand for"
                " two players. The tasks committed before are kept; put the file back as it"
                f" was and `whist-sim run --resume {folder}`, or start a new run to play the"
                " new file (leave a checkpoint a run plays unchanged until the run is done)")


def _digest_said(parts: Mapping[str, str], part: str, missing: str) -> str:
    """A parameter file's digest as the refusal says it, or ``missing``."""
    return f"SHA-256 {parts[part][:12]}" if part in parts else missing


def _short(digest: str | None) -> str:
    return "none (an older whist_sim?)" if digest is None else digest[:12]
