"""A task played on a node with other code than the driver's is never committed.

A cluster node left on another version of a plug-in (or of whist_sim) played its tasks
with that code, and its rows sat beside the others under the same labels, with nothing
to show it. The runs here play in this process; a task is made to look as if another
node had played it, with another fingerprint (``worker.node_address`` and
``worker.task_code``). Real Ray workers with the driver's code are covered by the
in-process-equals-Ray and two-node cluster tests, which must not be refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.store import RunFolder
from whist_sim.tournament import worker
from whist_sim.tournament.config import load_config
from whist_sim.tournament.node_code import (
    PACKAGE,
    DifferentCodeError,
    _digests,
    check_node_code,
    code_fingerprint,
)
from whist_sim.tournament.runner import resume_tournament, run_tournament

NODE = "127.0.0.9"


def _edited(fingerprint: dict, label: str, part: str) -> dict:
    changed = {name: dict(parts) for name, parts in fingerprint.items()}
    changed[label][part] = "0" * 64
    return changed


def test_a_task_played_with_other_code_stops_the_run_and_keeps_what_was_committed(
        tmp_path, monkeypatch):
    body = quick_config(deals=12, per_task=3)  # four tasks, committed in plan order here
    clean = run_tournament(load_config(write_config(tmp_path, body)), tmp_path / "clean",
                           workers=0, progress=False)
    real_code = worker.task_code

    def elsewhere(spec):  # tasks 2 and on come from a node with another heuristic
        code = real_code(spec)
        return _edited(code, "heuristic", "module") if spec.task >= 2 else code

    monkeypatch.setattr(worker, "node_address", lambda: NODE)
    monkeypatch.setattr(worker, "task_code", elsewhere)
    run = tmp_path / "run"
    with pytest.raises(DifferentCodeError) as stopped:
        run_tournament(load_config(write_config(tmp_path, body)), run, workers=0,
                       progress=False)
    message = str(stopped.value)
    assert f"task 2 was played on node {NODE} with other code" in message
    assert "strategy 'heuristic': module has SHA-256 000000000000 there" in message
    assert f"whist-sim run --resume {run}" in message
    folder = RunFolder.open(run)
    assert sorted(folder.completed_tasks()) == [0, 1]  # committed before it: kept
    assert json.loads((run / "run.json").read_text())["status"] == "failed"

    monkeypatch.setattr(worker, "task_code", real_code)  # the node gets the driver's code
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.status == "complete"
    assert_same_rows(run_rows(clean.path), run_rows(run))


def test_a_node_on_another_whist_sim_is_named_as_such():
    here = code_fingerprint("german_whist", {"random": ("random", {})})
    with pytest.raises(DifferentCodeError, match="whist_sim's own source has SHA-256"):
        check_node_code(here, _edited(here, PACKAGE, "source"), NODE, 5, "/runs/r")
    with pytest.raises(DifferentCodeError, match=r"none \(an older whist_sim\?\) there"):
        check_node_code(here, {}, NODE, 5, "/runs/r")  # a worker that sends no fingerprint


def test_a_task_played_in_the_drivers_own_process_is_not_compared():
    """A plug-in edited between two runs of one notebook reads as new on disk, while the
    process plays the module it imported: no other node is involved."""
    here = code_fingerprint("german_whist", {"random": ("random", {})})
    check_node_code(here, {}, "local", 0, "/runs/r")


def test_the_same_code_at_other_paths_has_the_same_fingerprint():
    """Nodes may install whist_sim and the plug-ins in other folders: only the digests
    count, each named by where it sits in the record."""
    record = {"module": {"file": "/home/a/p.py", "sha256": "ab",
                         "helpers": {"pkg.util": {"file": "/home/a/u.py", "sha256": "cd"}}},
              "parameter_files": {"weights": {"file": "/home/a/w.npz", "sha256": "ef"}}}
    moved = json.loads(json.dumps(record).replace("/home/a/", "/opt/b/"))
    assert dict(_digests(record)) == dict(_digests(moved)) == {
        "module": "ab", "module.helpers.pkg.util": "cd", "parameter_files.weights": "ef"}


def test_a_plug_in_parameter_file_is_part_of_the_fingerprint(tmp_path):
    weights = tmp_path / "weights.txt"
    weights.write_text("1 2 3")
    first = code_fingerprint("german_whist", {"p": ("random", {"file": str(weights)})},
                             cached=False)
    weights.write_text("1 2 4")
    second = code_fingerprint("german_whist", {"p": ("random", {"file": str(weights)})},
                              cached=False)
    assert first["p"]["parameter_files.file"] != second["p"]["parameter_files.file"]
    with pytest.raises(DifferentCodeError, match=r"strategy 'p': parameter_files\.file"):
        check_node_code(first, second, NODE, 0, "/runs/r")


def test_a_parameter_file_made_or_removed_during_the_run_is_said_so():
    """A file a parameter names that appeared or went away while the run played read
    "SHA-256 none (an older whist_sim?)", the wording of a node's missing code."""
    from whist_sim.tournament.node_code import ChangedParameterFileError, check_parameter_files

    weights = {"policy": {"parameter_files.weights": "a" * 64}}
    with pytest.raises(ChangedParameterFileError, match=r"\(no such file when the run started,"
                       r" SHA-256 aaaaaaaaaaaa when task 3 was played\)"):
        check_parameter_files({"policy": {}}, weights, 3, Path("run"))
    with pytest.raises(ChangedParameterFileError, match=r"\(SHA-256 aaaaaaaaaaaa when the run"
                       r" started, no longer found when task 3 was played\)"):
        check_parameter_files(weights, {"policy": {}}, 3, Path("run"))
    check_parameter_files(weights, weights, 3, Path("run"))  # the same file: no refusal


def test_a_parameter_file_is_read_once_for_the_record_and_the_checks(tmp_path, monkeypatch):
    """run.json's record (``parameter_sources``, made for the config and again for the
    nodes' check) and each task's check (``parameter_file_digests``) read a weights file
    three times at a run's start; a file unchanged since it was read is read once."""
    from whist_sim import parameter_sources as sources

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"w" * 1000)
    reads = []
    real = sources.file_digest
    monkeypatch.setattr(sources, "file_digest", lambda path: reads.append(path) or real(path))
    params = {"weights": str(weights)}
    first = sources.parameter_sources(params)["parameter_files"]["weights"]["sha256"]
    assert sources.parameter_sources(params)["parameter_files"]["weights"]["sha256"] == first
    assert sources.parameter_file_digests(params) == {"weights": first}
    assert len(reads) == 1
    weights.write_bytes(b"v" * 1000)  # changed: read again, and its new digest given
    assert sources.parameter_file_digests(params)["weights"] != first
    assert len(reads) == 2
