"""A resumed run plays the code it started with: an entrant whose module file, bot file or
version changed since is refused, naming what changed, and nothing committed is touched.

A newcomer probe edited a plug-in between an interrupted run and its resume: the run
finished without a word, its first half played by the old code and its second by the new
(mean net 1.86 over deals 0-99, 0.85 over 100-199)."""

from __future__ import annotations

import json
import re
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from tests.tournament_helpers import assert_same_rows, run_rows
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.tournament.config import ConfigError, validate_config
from whist_sim.tournament.node_code import ChangedParameterFileError
from whist_sim.tournament.runner import resume_tournament, run_tournament
from whist_sim.tournament.same_code import check_same_code

PLUGIN = textwrap.dedent('''
    """A plug-in for the resume test: plays its lowest legal card."""
    from whist_sim.strategy import Strategy


    class Lowest(Strategy):
        games = frozenset({"german_whist"})
        version = "2"

        def choose(self, view, rng):
            legal = view.legal
            return (legal & -legal).bit_length() - 1
''')


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A complete two-entrant run with a plug-in loaded from ``tmp_path``."""
    module = tmp_path / "resume_plugin_lowest.py"
    module.write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    return _played(tmp_path, 'use = "resume_plugin_lowest:Lowest"\nlabel = "lowest"'), module


def test_a_plugin_file_edited_since_the_run_started_stops_its_resume(run):
    folder, module = run
    units = sorted((folder / ".units").iterdir())
    module.write_text(PLUGIN.replace("legal & -legal", "legal & -legal & legal"))
    with pytest.raises(RunFolderError) as refused:
        resume_tournament(folder, workers=0, progress=False)
    message = str(refused.value)
    assert "strategy 'lowest' changed since the run started" in message
    assert str(module) in message and "SHA-256" in message
    assert "restore its code to continue, or start a new run" in message
    assert sorted((folder / ".units").iterdir()) == units  # nothing committed was touched
    module.write_text(PLUGIN)  # restored: the resume goes on
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"


def test_a_version_other_than_the_recorded_one_stops_its_resume(run):
    folder, _ = run
    meta_path = folder / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["strategies"]["lowest"]["version"] = "1"  # as if the run was played by version 1
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(RunFolderError, match="its version is '2', the run was played with '1'"):
        resume_tournament(folder, workers=0, progress=False)


def test_a_distribution_at_another_version_stops_its_resume(tmp_path):
    """The built-ins come from the whist-sim distribution, as a plug-in comes from its
    own. A distribution upgraded between the start and the resume may change what its
    strategy does without its module's file changing (a module the plug-in does not
    import at load, a data file, a compiled extension): the version tells."""
    folder = _played(tmp_path, 'use = "heuristic"')
    units = sorted((folder / ".units").iterdir())
    meta_path = folder / "run.json"
    meta = json.loads(meta_path.read_text())
    source = meta["strategies"]["heuristic"]["source"]
    assert source["distribution"] == "whist-sim" and source["distribution_version"]
    now, source["distribution_version"] = source["distribution_version"], "0.0.1"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(RunFolderError) as refused:
        resume_tournament(folder, workers=0, progress=False)
    message = str(refused.value)
    assert "strategy 'heuristic' changed since the run started" in message
    assert (f"the distribution that supplies it, whist-sim, is at version {now!r}, the run"
            " was played with '0.0.1'") in message
    assert "restore whist-sim 0.0.1 (pip install 'whist-sim==0.0.1') to continue" in message
    assert sorted((folder / ".units").iterdir()) == units


def test_a_distribution_recorded_without_a_version_or_not_at_all_is_not_compared():
    then = {"use": "x", "version": "1", "source": {"distribution": None,
                                                   "distribution_version": None}}
    check_same_code(Path("run.json"), {"x": then}, {"x": "1"},
                    {"x": {"distribution": "mine", "distribution_version": "2.0"}})
    check_same_code(Path("run.json"), {"x": {"use": "x", "version": "1", "source": {}}},
                    {"x": "1"}, {"x": {"distribution": "mine", "distribution_version": "2.0"}})


def test_a_strategy_now_supplied_by_another_distribution_stops_its_resume():
    then = {"use": "x", "version": "1", "source": {"distribution": "theirs",
                                                   "distribution_version": "1.2"}}
    with pytest.raises(RunFolderError, match=re.escape(
            "the distribution that supplies it is now mine '2.0', the run was played with"
            " theirs '1.2'. Resuming would mix results of two versions of it in one run;"
            " restore theirs 1.2 (pip install 'theirs==1.2') to continue")):
        check_same_code(Path("run.json"), {"x": then}, {"x": "1"},
                        {"x": {"distribution": "mine", "distribution_version": "2.0"}})


BOT = textwrap.dedent('''
    """A bot for the resume test: the built-in random strategy over the protocol."""
    from whist_sim.protocol.client import main

    raise SystemExit(main(["random"]))
''')


def _played(tmp_path: Path, entry: str) -> Path:
    """A complete run of the entry (TOML lines) against ``random``, in process."""
    config = validate_config(tomllib.loads(textwrap.dedent(f'''
        [tournament]
        game = "german_whist"
        deals = 4
        deals_per_task = 2

        [[strategies]]
        {entry}

        [[strategies]]
        use = "random"
    ''')))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    return summary.path


def _isolated_run(tmp_path: Path, entry: str) -> Path:
    return _played(tmp_path, f'{entry}\nlabel = "theirs"\ncwd = "{tmp_path}"')


def test_an_isolated_plugin_edited_since_the_run_started_stops_its_resume(tmp_path):
    """Its code is never imported by the driver: the file is found without running it."""
    module = tmp_path / "resume_plugin_isolated.py"
    module.write_text(PLUGIN)
    folder = _isolated_run(tmp_path, 'use = "resume_plugin_isolated:Lowest"\nisolate = true')
    recorded = json.loads((folder / "run.json").read_text())["strategies"]["theirs"]["source"]
    assert recorded["plugin_file"] == str(module.resolve())
    module.write_text(PLUGIN + "# edited\n")
    with pytest.raises(RunFolderError, match=rf"strategy 'theirs' changed since the run started:"
                       rf" its module {re.escape(str(module.resolve()))} is not the file"):
        resume_tournament(folder, workers=0, progress=False)
    module.write_text(PLUGIN)
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"


def test_a_bot_script_edited_since_the_run_started_stops_its_resume(tmp_path):
    script = tmp_path / "resume_bot.py"
    script.write_text(BOT)
    folder = _isolated_run(tmp_path, f'use = "process"\ncommand = ["{sys.executable}",'
                                     f' "{script}"]')
    script.write_text(BOT + "# edited\n")
    with pytest.raises(RunFolderError, match=rf"'{re.escape(str(script))}' of its command is not"
                       " the file the run was played with"):
        resume_tournament(folder, workers=0, progress=False)


def test_a_run_without_records_is_not_compared():
    recorded = {"old": {"use": "random"}}  # a run.json from before the records
    check_same_code(Path("run.json"), recorded, {"old": "9"}, {"old": {"sha256": "c" * 64}})


HELPED = textwrap.dedent('''
    """A plug-in for the resume test whose choice is made in a helper module beside it."""
    from resume_helper_pick import pick
    from whist_sim.strategy import Strategy


    class Helped(Strategy):
        games = frozenset({"german_whist"})

        def choose(self, view, rng):
            return pick(view.legal)
''')

HELPER = textwrap.dedent('''
    def pick(legal):
        return (legal & -legal).bit_length() - 1
''')


def _with_helper(tmp_path: Path, name: str) -> tuple[Path, Path]:
    (tmp_path / f"{name}.py").write_text(HELPED)
    helper = tmp_path / "resume_helper_pick.py"
    helper.write_text(HELPER)
    return tmp_path / f"{name}.py", helper


def test_a_helper_module_edited_since_the_run_started_stops_its_resume(tmp_path, monkeypatch):
    """The strategy's own file is unchanged; the module it imports its choice from is not
    (a resume probe: the run went on with the new helper under the old label)."""
    _, helper = _with_helper(tmp_path, "resume_plugin_helped")
    monkeypatch.syspath_prepend(str(tmp_path))
    folder = _played(tmp_path, 'use = "resume_plugin_helped:Helped"\nlabel = "helped"')
    recorded = json.loads((folder / "run.json").read_text())["strategies"]["helped"]["source"]
    assert recorded["helpers"]["resume_helper_pick"]["file"] == str(helper.resolve())
    helper.write_text(HELPER.replace("legal & -legal", "legal & -legal & legal"))
    with pytest.raises(RunFolderError, match=rf"strategy 'helped' changed since the run started:"
                       r" its helper module resume_helper_pick"
                       rf" \({re.escape(str(helper.resolve()))}\) is not the file"):
        resume_tournament(folder, workers=0, progress=False)
    helper.write_text(HELPER)
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"


def test_an_isolated_plugins_helper_module_edited_since_the_run_started_stops_its_resume(
        tmp_path):
    """Found by reading the plug-in's source: the driver never imports it."""
    _, helper = _with_helper(tmp_path, "resume_plugin_isolated_helped")
    folder = _isolated_run(tmp_path, 'use = "resume_plugin_isolated_helped:Helped"\n'
                                     'isolate = true')
    helper.write_text(HELPER + "# edited\n")
    with pytest.raises(RunFolderError, match="its helper module resume_helper_pick"):
        resume_tournament(folder, workers=0, progress=False)


def test_a_helper_module_no_longer_found_stops_its_resume():
    then = {"helped": {"source": {"sha256": "a" * 64, "helpers": {
        "resume_helper_pick": {"file": "/gone/resume_helper_pick.py", "sha256": "b" * 64}}}}}
    with pytest.raises(RunFolderError, match=r"its helper module resume_helper_pick"
                       r" \(/gone/resume_helper_pick.py\) is no longer imported from where"):
        check_same_code(Path("run.json"), then, {"helped": "0"},
                        {"helped": {"sha256": "a" * 64, "helpers": {}}})


POLICY = textwrap.dedent('''
    """A policy for the resume test: the first action its weights file allows."""
    import numpy as np


    def load(weights):
        offset = int(open(weights).read())

        def act(observation):
            allowed = np.flatnonzero(observation["action_mask"])
            return int(allowed[min(offset, allowed.size - 1)])

        return act
''')


@pytest.fixture
def policy_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A complete run of a policy whose factory reads a weights file its params name."""
    module = tmp_path / "resume_policy_first.py"
    module.write_text(POLICY)
    weights = tmp_path / "weights.txt"
    weights.write_text("0")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    folder = _played(tmp_path, 'use = "policy"\ncallable = "resume_policy_first:load"\n'
                               'params = { weights = "weights.txt" }\nlabel = "policy"')
    return folder, module, weights


def test_a_policys_module_edited_since_the_run_started_stops_its_resume(policy_run):
    """Its strategy class, the built-in policy, never changes: the module its callable
    names does (a probe's finding: an edited policy resumed without a word)."""
    folder, module, _ = policy_run
    recorded = json.loads((folder / "run.json").read_text())["strategies"]["policy"]["source"]
    assert recorded["parameter_modules"]["callable"]["file"] == str(module.resolve())
    module.write_text(POLICY + "# edited\n")
    with pytest.raises(RunFolderError, match=r"strategy 'policy' changed since the run started:"
                       r" the module of its parameter callable"
                       rf" \({re.escape(str(module.resolve()))}\) is not the file"):
        resume_tournament(folder, workers=0, progress=False)
    module.write_text(POLICY)
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"


def test_a_weights_file_changed_since_the_run_started_stops_its_resume(policy_run):
    folder, _, weights = policy_run
    weights.write_text("1")  # retrained
    with pytest.raises(RunFolderError, match=r"the file of its parameter weights"
                       rf" \({re.escape(str(weights.resolve()))}\) is not the file"):
        resume_tournament(folder, workers=0, progress=False)
    weights.unlink()
    with pytest.raises(ConfigError, match=r"No such file or directory: 'weights\.txt'"):
        resume_tournament(folder, workers=0, progress=False)
    weights.write_text("0")
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"


@pytest.mark.parametrize("node", ["local", "127.0.0.9"])
def test_a_weights_file_changed_while_the_run_plays_stops_it_keeping_what_was_played(
    tmp_path, monkeypatch, node
):
    """A checkpoint retrained into the file a running tournament plays changed the policy
    from one task to the next, in process, without a word: the standings pooled two
    policies under one label (a probe's finding). The run stops at the first task played
    with the new file, keeping those played with the old; the file put back, it resumes
    to the rows of a run that never saw the change. On a Ray node (the process a test
    suite ran Ray in reads as one) the driver's fingerprint, made at the node's first
    task, read the file as it was then, and blamed the node for the file it had changed."""
    from whist_sim.tournament import executors, worker

    (tmp_path / "resume_policy_live.py").write_text(POLICY)
    weights = tmp_path / "weights.txt"
    weights.write_text("0")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    entry = ('use = "policy"\ncallable = "resume_policy_live:load"\n'
             'params = { weights = "weights.txt" }\nlabel = "policy"')
    clean = _played(tmp_path, entry)
    clean.rename(tmp_path / "clean")
    played = executors.play_task

    def retrained_after_the_first(spec):
        result = played(spec)
        weights.write_text("1")  # the trainer saves its next checkpoint
        return result

    monkeypatch.setattr(executors, "play_task", retrained_after_the_first)
    monkeypatch.setattr(worker, "node_address", lambda: node)
    with pytest.raises(ChangedParameterFileError) as stopped:
        _played(tmp_path, entry)
    assert str(stopped.value).startswith(
        "strategy 'policy': the file of its parameter weights changed while the run played"
        " it (SHA-256 ")
    assert "when task 1 was played): one label would stand for two players" in str(
        stopped.value)
    folder = tmp_path / "run"
    assert RunFolder.open(folder).completed_tasks() == {0}
    assert json.loads((folder / "run.json").read_text())["status"] == "failed"
    monkeypatch.undo()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    weights.write_text("0")
    assert resume_tournament(folder, workers=0, progress=False).status == "complete"
    assert_same_rows(run_rows(folder), run_rows(tmp_path / "clean"))


def test_a_parameter_file_no_longer_found_stops_its_resume():
    then = {"reader": {"source": {"parameter_files": {
        "book": {"file": "/gone/book.json", "sha256": "b" * 64}}}}}
    with pytest.raises(RunFolderError, match=r"the file of its parameter book"
                       r" \(/gone/book.json\) is no longer found"):
        check_same_code(Path("run.json"), then, {"reader": "0"},
                        {"reader": {"parameter_files": {}}})


def test_a_changed_parameter_file_is_named_as_the_thing_to_restore():
    """A retrained weights file is data, not code: the refusal said "restore its code"
    for it (a probe's finding), sending the reader to the policy's module."""
    then = {"reader": {"source": {"parameter_files": {
        "weights": {"file": "/w/a.npz", "sha256": "b" * 64}}}}}
    now = {"reader": {"parameter_files": {"weights": {"file": "/w/a.npz", "sha256": "c" * 64}}}}
    with pytest.raises(RunFolderError) as refused:
        check_same_code(Path("run.json"), then, {"reader": "0"}, now)
    message = str(refused.value)
    assert "restore the file of its parameter weights (/w/a.npz) to continue" in message
    assert "restore its code" not in message
