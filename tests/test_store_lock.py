"""One writer per run folder: a second is refused in one line naming the holder, before it
changes anything; readers are never blocked; a killed writer's lock frees itself."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.store_helpers import ROOT
from tests.tournament_helpers import make_run_without_ray, quick_config
from whist_sim.cli import app
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.store.lock import LOCK_FILE
from whist_sim.tournament.runner import resume_tournament

HOLDER = """
import sys, time
from whist_sim.store import RunFolder
folder = RunFolder.open(sys.argv[1], repair=True)
print("holding", flush=True)
time.sleep(300)
"""


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run_without_ray(tmp_path, quick_config(deals=4, per_task=2))


def _state(run: Path) -> dict[str, str]:
    """Every file of the folder (the lock file aside) and a digest of its bytes."""
    return {str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run.rglob("*")) if p.is_file() and p.name != ".writer.lock"}


def test_a_second_writer_is_refused_in_one_line_naming_the_holder(run: Path, tmp_path: Path):
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen([sys.executable, str(script), str(run)], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding", holder.stderr.read()
        before = _state(run)

        result = CliRunner().invoke(app, ["run", "--resume", str(run), "--no-progress"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, lines
        assert f"process {holder.pid} (" in lines[0] and "holder.py" in lines[0], lines[0]
        assert "one writer at a time" in lines[0]
        assert _state(run) == before  # refused before changing anything

        # readers take no lock and are never blocked
        assert RunFolder.open(run).scan("deals").collect().height == 24
        shown = CliRunner().invoke(app, ["replay", str(run), "0-0-0-0"])
        assert shown.exit_code == 0, shown.output
    finally:
        holder.kill()  # SIGKILL: the holder gets no chance to let go
        holder.wait()

    # the kernel released the dead holder's lock: the next writer needs no clean-up
    resumed = resume_tournament(run, workers=0, progress=False)
    assert resumed.status == "complete" and resumed.tasks_run == 0


def test_two_writers_in_one_process_are_refused_too(run: Path):
    with RunFolder.open(run, repair=True), pytest.raises(
            RunFolderError, match=f"process {os.getpid()} "):
        RunFolder.open(run, repair=True)
    RunFolder.open(run, repair=True).close()  # released on close


def test_a_new_run_refuses_a_folder_being_written(run: Path):
    with RunFolder.open(run, repair=True), pytest.raises(RunFolderError, match="not empty"):
        RunFolder.create(run, RunFolder.open(run).meta())


@pytest.mark.parametrize("was_there", [False, True], ids=["new folder", "empty folder"])
def test_a_run_that_fails_while_its_folder_is_made_leaves_nothing_half_made(
        tmp_path: Path, monkeypatch, was_there):
    """A full disk while run.json was written left a folder holding a lock file (or an
    empty run.json.tmp): running into it again said "already exists and is not empty;
    continue it with --resume", and --resume said "not a run folder" (an operator
    probe). Now nothing is left, and the same --out works once there is room."""
    import errno

    out = tmp_path / "run"
    if was_there:
        out.mkdir()

    def full(self, meta):
        (self.path / ".run.json.tmp").write_bytes(b"")
        raise OSError(errno.ENOSPC, "No space left on device")

    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    command = ["run", str(config), "--out", str(out), "--workers", "0", "--no-progress"]
    with monkeypatch.context() as patched:
        patched.setattr(RunFolder, "write_meta", full)
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "no space left on the device" in result.output
    assert (list(out.iterdir()) == []) if was_there else not out.exists()
    again = CliRunner().invoke(app, command)
    assert again.exit_code == 0, again.output


def test_a_folder_holding_only_a_lock_file_takes_a_new_run(tmp_path: Path):
    """What a killed start leaves: the lock file alone, no run in it."""
    import tomllib

    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    out = tmp_path / "run"
    out.mkdir()
    (out / ".writer.lock").write_text("")
    config = validate_config(tomllib.loads(quick_config(deals=2)))
    assert run_tournament(config, out, workers=0, progress=False).status == "complete"


def test_a_folder_of_other_files_is_not_offered_a_resume(tmp_path: Path):
    """A non-empty folder with no run.json was told "continue the run there: whist-sim run
    --resume", which then refused it as not a run folder (a cluster probe). A folder
    holding a run is still offered its resume."""
    config = tmp_path / "quick.toml"
    config.write_text(quick_config(deals=2))
    other = tmp_path / "notes"
    other.mkdir()
    (other / "stuff.txt").write_text("mine")
    result = CliRunner().invoke(app, ["run", str(config), "--out", str(other), "--workers", "0",
                                      "--no-progress"])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"{other} already exists and is not empty; choose another folder" in text, text
    assert "it holds no run (run.json) to continue" in text and "--resume" not in text, text
    run = tmp_path / "run"
    first = CliRunner().invoke(app, ["run", str(config), "--out", str(run), "--workers", "0",
                                     "--no-progress"])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(app, ["run", str(config), "--out", str(run), "--workers", "0",
                                     "--no-progress"])
    assert again.exit_code == 2
    assert f"whist-sim run --resume {run}" in " ".join(again.output.split())


def _lock_names(run: Path, pid: int, host: str) -> None:
    (run / LOCK_FILE).write_text(json.dumps({"pid": pid, "host": host, "started": "-",
                                             "command": "whist-sim run"}))


def test_a_run_whose_writer_was_killed_reads_as_stopped_not_running(tmp_path):
    """After kill -9, run.json still says running: report and deals export said the run
    was running, though nothing wrote it any more."""
    from whist_sim.store.lock import shown_status, writer_gone

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    _lock_names(tmp_path, int(ended.stdout), socket.gethostname())
    assert writer_gone(tmp_path)
    assert shown_status(tmp_path, "running").startswith("stopped (run.json says running")
    assert shown_status(tmp_path, "interrupted") == "interrupted"


@pytest.mark.parametrize("holder", ["alive", "other host", "unreadable"])
def test_a_run_whose_writer_may_be_alive_still_reads_as_running(tmp_path, holder):
    from whist_sim.store.lock import shown_status

    if holder == "unreadable":
        (tmp_path / LOCK_FILE).write_text("{not json")
    else:
        _lock_names(tmp_path, os.getpid() if holder == "alive" else 1,
                    socket.gethostname() if holder == "alive" else "elsewhere")
    assert shown_status(tmp_path, "running") == "running"


def test_the_reports_run_section_names_a_killed_run_stopped_not_running(tmp_path):
    """The Verdict of a killed run said "stopped (run.json says running ...)" while the
    Run section's status row beside it still read `running` (a probe)."""
    from tests.test_reports import play_small_run
    from whist_sim.reports.run_section import run_section

    folder = play_small_run(tmp_path / "run", deals=4)
    meta = {**folder.meta(), "status": "running"}
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    _lock_names(folder.path, int(ended.stdout), socket.gethostname())
    rows = dict(run_section(folder, meta).tables[0].rows)
    assert rows["status"].startswith("stopped (run.json says running")
