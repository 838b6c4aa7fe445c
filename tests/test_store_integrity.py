"""The manifest catches what a footer cannot: a unit removed from a complete run is reported
as incomplete, naming its tasks, and played again by --resume; bytes changed inside a
Parquet file are named by the checksum, with the way out, in report, replay and resume."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.store_helpers import assert_documented_reads_equal, assert_tidy, manifest_path
from tests.tournament_helpers import assert_same_rows, quick_config, run_rows
from whist_sim.cli import app
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.tournament import runner
from whist_sim.tournament.config import validate_config
from whist_sim.tournament.runner import resume_tournament, run_tournament

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

COMMANDS = {
    "report": lambda run: ["report", str(run)],
    "replay": lambda run: ["replay", str(run), "0-0-0-0"],
    "resume": lambda run: ["run", "--resume", str(run), "--no-progress"],
}


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A complete run of 12 tasks in four batches of three."""
    import tomllib

    monkeypatch.setattr(runner, "COMPACT_EVERY", 3)
    config = validate_config(tomllib.loads(quick_config(deals=12, per_task=3)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    assert sorted(p.name for p in (summary.path / ".units").iterdir()) == [
        f"batch-0000{n}" for n in range(1, 5)]
    return summary.path


def _one_line_error(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("command", ["report", "replay"])
def test_a_complete_run_missing_a_unit_is_reported_incomplete_naming_its_tasks(
    run: Path, command: str
):
    shutil.rmtree(run / ".units" / "batch-00002")  # how a user discards a unit
    line = _one_line_error(COMMANDS[command](run))
    assert "incomplete: unit batch-00002 holding tasks 3-5 is missing" in line, line
    assert f"run whist-sim run --resume {run} to play their deals again" in line
    assert json.loads((run / "run.json").read_text())["status"] == "complete"  # it says so


def test_resume_says_a_unit_is_missing_and_plays_its_tasks_again(
    run: Path, capsys: pytest.CaptureFixture[str]
):
    reference = run_rows(run)
    shutil.rmtree(run / ".units" / "batch-00002")
    resumed = resume_tournament(run, workers=0, progress=False)
    said = capsys.readouterr().err
    assert "incomplete: unit batch-00002 holding tasks 3-5 was missing" in said, said
    assert "playing their deals again" in said
    assert resumed.status == "complete" and resumed.tasks_run == 3
    assert_same_rows(run_rows(run), reference)
    assert_documented_reads_equal(run, reference)
    assert_tidy(run)


def test_data_that_lost_a_units_files_is_rebuilt_without_playing_anything(run: Path):
    reference = run_rows(run)
    for table in RunFolder.open(run).tables():
        (run / "data" / table / "batch-00002.parquet").unlink()
    with pytest.raises(RunFolderError) as caught:
        RunFolder.open(run)
    assert f"{run}/data/deals/batch-00002.parquet: is missing, though the unit's file is" \
           " intact" in str(caught.value)
    assert f"run whist-sim run --resume {run} to rebuild data/" in str(caught.value)
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.tasks_run == 0
    assert_documented_reads_equal(run, reference)
    assert_tidy(run)


def _corrupt_inside(file: Path) -> None:
    """Change bytes in the middle of ``file``, in place (its footer still reads)."""
    with open(file, "r+b") as data:
        size = data.seek(0, 2)
        data.seek(size // 3)
        chunk = data.read(32)
        data.seek(size // 3)
        data.write(bytes(b ^ 0xFF for b in chunk))
    pq.read_metadata(file)  # the footer is intact: only the checksum can tell


@pytest.mark.parametrize("command", COMMANDS)
def test_corrupt_bytes_inside_a_parquet_file_are_named_by_the_checksum(run: Path, command):
    victim = run / "data" / "actions" / "batch-00001.parquet"
    _corrupt_inside(victim)
    line = _one_line_error(COMMANDS[command](run))
    assert line.startswith(f"error: {victim}: corrupt: its SHA-256 differs"), line
    assert "unit batch-00001 (tasks 0-2)" in line
    assert (f"remove {run}/.units/batch-00001 and run whist-sim run --resume {run} to play"
            " its deals again") in line


def test_the_way_out_of_a_corrupt_unit_plays_its_deals_again(run: Path):
    reference = run_rows(run)
    _corrupt_inside(run / "data" / "actions" / "batch-00001.parquet")
    shutil.rmtree(run / ".units" / "batch-00001")
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.tasks_run == 3
    assert_same_rows(run_rows(run), reference)
    assert_tidy(run)


def test_a_quick_open_checks_footers_and_row_counts_without_hashing(run: Path):
    _corrupt_inside(run / "data" / "actions" / "batch-00001.parquet")
    RunFolder.open(run, verify=False)  # bytes are not read: the footer and counts agree
    with pytest.raises(RunFolderError, match="SHA-256"):
        RunFolder.open(run, verify=False).verify()


LOSSES = {
    "manifest removed": lambda run: manifest_path(run).unlink(),
    "manifest garbled": lambda run: manifest_path(run).write_text("{ not json"),
    "snapshots removed": lambda run: shutil.rmtree(run / ".snapshots"),
}


@pytest.mark.parametrize("loss", LOSSES)
def test_a_lost_manifest_is_named_and_rebuilt_by_resume_from_the_units_records(
    run: Path, loss: str, capsys: pytest.CaptureFixture[str]
):
    reference = run_rows(run)
    LOSSES[loss](run)
    line = _one_line_error(COMMANDS["report"](run))
    assert f"run whist-sim run --resume {run} to rebuild" in line, line
    resumed = resume_tournament(run, workers=0, progress=False)
    assert "rebuilt from the units' own records (4 units, tasks 0-11)" in capsys.readouterr().err
    assert resumed.tasks_run == 0
    assert_same_rows(run_rows(run), reference)
    assert_tidy(run)


@pytest.mark.parametrize(("key", "value", "recorded"), [
    ("seed", 7, "tournament.seed is 7, but the run was started with"),
    ("deals", 3000, "tournament.deals is 3000, but the run was started with 12"),
    ("game", "solo_whist", "tournament.game is 'solo_whist', but the run was started with"),
])
def test_resume_refuses_a_run_json_whose_config_was_edited(run: Path, key, value, recorded):
    """An edited seed resumed "complete", its later tasks dealt from the new seed beside
    the earlier ones; an edited deal count was overruled by the plan without a word."""
    meta_path = run / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["config"]["tournament"][key] = value
    meta_path.write_text(json.dumps(meta))
    message = _one_line_error(COMMANDS["resume"](run))
    assert recorded in message and "run.json was edited" in message


@pytest.mark.parametrize(("key", "value", "recorded"), [
    ("time_limit", 0.001, "tournament.time_limit is 0.001, but the run was started with"),
    ("clock", {"base": 0.001}, "tournament.clock is {'base': 0.001, 'increment': 0.0,"
                               " 'per': 'deal'}, but the run was started with None"),
    ("bench_after", 1, "tournament.bench_after is 1, but the run was started with None"),
])
def test_resume_refuses_a_run_json_whose_play_rules_were_edited(run: Path, key, value,
                                                                recorded):
    """An edited clock or time limit resumed "complete", the later tasks forfeiting on time
    under rules the earlier ones never had (a probe's finding)."""
    _edit_run_json(run, lambda meta: meta["config"]["tournament"].update({key: value}))
    message = _one_line_error(COMMANDS["resume"](run))
    assert recorded in message and "run.json was edited" in message


def _edit_run_json(run: Path, edit) -> None:
    meta_path = run / "run.json"
    meta = json.loads(meta_path.read_text())
    edit(meta)
    meta_path.write_text(json.dumps(meta))


def test_resume_refuses_a_run_json_whose_strategy_params_were_edited(run: Path):
    """An edited entrant's params resumed "complete": two players' rows under one label."""
    _edit_run_json(run, lambda meta: meta["config"]["strategies"][1].update(
        label="heuristic", params={"contest_margin": 0.5}))
    message = _one_line_error(COMMANDS["resume"](run))
    # only the entrant edited is named, not both whole tables in different orders (a probe)
    assert ("strategies (use and params) 'heuristic' is {'use': 'heuristic', 'params':"
            " {'contest_margin': 0.5}}, but the run was started with") in message
    assert "run.json was edited" in message and "random" not in message


def _new_params(meta: dict) -> None:
    """The heuristic entrant's params changed in the config and in its record alike."""
    meta["config"]["strategies"][1].update(label="heuristic", params={"contest_margin": 0.5})
    meta["strategies"]["heuristic"]["params"] = {"contest_margin": 0.5}


def _fewer_deals(meta: dict) -> None:
    """The deal count cut in the config and in the plan alike."""
    meta["config"]["tournament"]["deals"] = 6
    meta["plan"].update(deals=6, tasks=2)


@pytest.mark.parametrize(("edit", "record"), [(_new_params, "strategies"),
                                              (_fewer_deals, "plan")])
def test_resume_refuses_a_run_json_edited_in_its_config_and_its_record_alike(
        run: Path, edit, record: str):
    """Two consistent hand edits passed the comparison of the config with its record: new
    params in both resumed a run that mixed two parameter sets under one label, and a cut
    deal count in both made the run "complete" with rows beyond its plan (a probe). The
    records' digests, written when the run started, catch the pair."""
    _edit_run_json(run, edit)
    message = _one_line_error(COMMANDS["resume"](run))
    assert (f"{run}/run.json: its record {record} is not what the run was started with"
            " (its digest in records_sha256") in message, message
    assert "restore run.json from a backup, or start a new run" in message


def test_a_run_json_records_the_digests_its_resume_checks(run: Path):
    """Every record a resume compares the config with has its digest, written at the start."""
    meta = json.loads((run / "run.json").read_text())
    assert set(meta["records_sha256"]) == {
        "root_seed", "seat_seeding", "seating_orders", "plan", "game", "variant", "players",
        "lineups", "pairing_ids", "strategies", "play_rules"}


def test_resume_names_the_record_when_run_json_s_root_seed_was_edited(run: Path):
    """An edited root_seed was reported as "the run was started with 7", as if the record
    were right and the config wrong, sending the reader to change a config that was right
    (a probe): the message names the record, which its digest shows is the edited one."""
    seed = json.loads((run / "run.json").read_text())["root_seed"]
    _edit_run_json(run, lambda meta: meta.update(root_seed=seed + 5))
    message = _one_line_error(COMMANDS["resume"](run))
    assert "its record root_seed is not what the run was started with" in message


def test_resume_names_the_record_of_a_run_json_without_digests(run: Path):
    """A run started before the records' digests were kept: an edited record is still
    refused, the message naming the record and saying either side may be the edited one."""
    seed = json.loads((run / "run.json").read_text())["root_seed"]
    _edit_run_json(run, lambda meta: (meta.update(root_seed=seed + 5),
                                      meta.pop("records_sha256")))
    message = _one_line_error(COMMANDS["resume"](run))
    assert (f"tournament.seed is {seed}, but the run was started with {seed + 5} according"
            " to its record root_seed (run.json was edited: the config or that record") in message


def test_resume_refuses_a_run_json_whose_plan_size_was_edited(run: Path):
    """An edited plan.deals_per_task made an unfinished run "complete" with a quarter of
    its hands: the task numbers already committed looked like the new tasks."""
    _edit_run_json(run, lambda meta: meta["plan"].update(deals_per_task=6))
    message = _one_line_error(COMMANDS["resume"](run))
    assert "its record plan is not what the run was started with" in message
    _edit_run_json(run, lambda meta: meta.pop("records_sha256"))  # an older run's run.json
    message = _one_line_error(COMMANDS["resume"](run))
    assert "tournament.deals_per_task is 3, but the run was started with 6" in message


def test_a_resume_counts_the_decisions_its_committed_tasks_hold(run: Path):
    """run.json's decision counts are written at most once a second; a driver killed just
    after a commit left them short of the committed rows, and the resumed run's totals
    stayed short for good (195,000 where the rows held 208,000). A resume now counts them
    again from the rows when run.json's do not cover them."""
    meta_path = run / "run.json"
    meta = json.loads(meta_path.read_text())
    exact = {label: count for label, (count, _) in meta["decisions"].items()}
    assert min(exact.values()) > 10
    meta["decisions"] = {label: [count - 7, seconds]
                         for label, (count, seconds) in meta["decisions"].items()}
    meta["status"] = "running"  # as a killed driver leaves it
    meta_path.write_text(json.dumps(meta))
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.status == "complete"
    after = json.loads(meta_path.read_text())["decisions"]
    assert {label: count for label, (count, _) in after.items()} == exact


def test_a_ctrl_c_that_compiled_code_wrapped_stops_the_run_as_interrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """numba turns a KeyboardInterrupt that lands inside one of its calls into a
    SystemError ("returned a result with an exception set"): 1 Ctrl-C in 22 was recorded
    as a failed run, with a traceback (a reproducibility probe). It is an interrupt."""
    import tomllib

    from whist_sim.tournament import executors

    real = executors.play_task
    calls = []

    def interrupted_third_task(spec):
        calls.append(spec.task)
        if len(calls) == 3:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as exc:
                raise SystemError("CPUDispatcher(<function tricks_from_log>) returned a"
                                  " result with an exception set") from exc
        return real(spec)

    monkeypatch.setattr(executors, "play_task", interrupted_third_task)
    config = validate_config(tomllib.loads(quick_config(deals=12, per_task=3)))
    stopped = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert stopped.status == "interrupted"
    assert json.loads((tmp_path / "run" / "run.json").read_text())["status"] == "interrupted"
    monkeypatch.setattr(executors, "play_task", real)
    assert resume_tournament(tmp_path / "run", workers=0, progress=False).status == "complete"


def test_a_run_whose_data_link_is_gone_says_resume_restores_it(run: Path):
    """A removed data/ link read "not a run folder (no data/ inside)" with no way out,
    though --resume restores it."""
    reference = run_rows(run)
    (run / "data").unlink()
    line = _one_line_error(COMMANDS["report"](run))
    assert f"its data/ link is missing (run.json is there): run whist-sim run --resume {run}" \
        in line
    resume_tournament(run, workers=0, progress=False)
    assert_same_rows(run_rows(run), reference)


def test_hidden_files_a_file_browser_leaves_in_data_are_not_the_runs_problem(run: Path):
    """A Mac's Finder leaves .DS_Store in every folder it opens, an NFS client .nfs000...
    for a file removed while open: the report refused the run as showing "other rows
    than the run holds". Parquet readers pass over such names, and so does the check."""
    for place in (run / "data", run / "data" / "seats"):
        (place / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    (run / "data" / "deals" / ".nfs0000000000a1b2c300000001").write_bytes(b"")
    RunFolder.open(run).close()  # the full check, every byte hashed
    assert resume_tournament(run, workers=0, progress=False).tasks_run == 0


def test_a_hidden_parquet_file_in_a_table_is_still_refused(run: Path):
    """Polars and DuckDB read ``data/seats/.extra.parquet`` with the table (pyarrow's
    datasets do not): its rows would be counted twice, so it is not passed over."""
    seats = run / "data" / "seats"
    shutil.copy(next(seats.glob("*.parquet")), seats / ".extra.parquet")
    with pytest.raises(RunFolderError, match=r"\.extra\.parquet: is not in the manifest"):
        RunFolder.open(run)


@pytest.mark.parametrize("command", ["report", "resume"])
def test_a_file_at_the_top_of_data_that_is_no_table_is_named_and_never_removed(
    run: Path, command: str
):
    """data/ holds the run's tables and nothing else (a tool reading all of data/ read a
    stray file too); the rebuild a resume makes would remove it with the old snapshot,
    so a resume refuses too, saying to move it out."""
    (run / "data" / "notes.txt").write_text("my notes")
    line = _one_line_error(COMMANDS[command](run))
    assert line == (
        f"error: {run}/data/notes.txt: is not one of the run's tables (deals, seats, matches,"
        " actions, tricks); data/ holds the run's tables and nothing else (a tool that reads"
        f" all of data/ would read it too): move it out of {run}")
    assert (run / "data" / "notes.txt").read_text() == "my notes"
    (run / "data" / "notes.txt").rename(run / "notes.txt")
    RunFolder.open(run).close()


def test_resume_says_a_file_added_to_a_table_folder_goes_with_the_old_snapshot(
    run: Path, capsys: pytest.CaptureFixture[str]
):
    """A user's ``data/seats/notes.txt`` was removed by the rebuild a resume makes, the
    note saying only "rebuilt data/ from the run's units" (a probe): it says the file
    went with the old snapshot, which the session removes."""
    notes = run / "data" / "seats" / "notes.txt"
    notes.write_text("my notes")
    assert resume_tournament(run, workers=0, progress=False).tasks_run == 0
    err = capsys.readouterr().err
    assert f"rebuilt {run}/data from the run's units; {notes} is not the run's: it went with" \
           " the old snapshot, which this session removes" in err, err
