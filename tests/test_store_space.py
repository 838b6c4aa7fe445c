"""A run and the disk it writes to: a run too large for the room left is warned about before
it starts, with the room it needs measured on a sample; a run whose disk fills stops in one
line, keeps every committed task and resumes once there is room, to the rows of a run that
never stopped; a resume on a disk still short is warned about as a new run is. The full
disk is simulated (a write that fails half way with ENOSPC) and, where this process may
mount one, real (a small tmpfs)."""

from __future__ import annotations

import builtins
import contextlib
import errno
import os
import shutil
import subprocess
import tomllib
from collections import namedtuple
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.cli import app
from whist_sim.store import RunFolder, space
from whist_sim.store import manifest as manifest_module
from whist_sim.store import units as units_module
from whist_sim.tournament import runner
from whist_sim.tournament.config import validate_config
from whist_sim.tournament.runner import resume_tournament, run_tournament

cli = CliRunner()
Usage = namedtuple("Usage", "total used free")


def _cli(*args: str):
    return cli.invoke(app, [*args, "--workers", "0", "--no-progress"])


def _unit_bytes(run: Path) -> int:
    return sum(f.stat().st_size for f in (run / ".units").rglob("*.parquet"))


# -- the warning before a run starts --------------------------------------------------------

def test_the_measured_bytes_per_hand_cover_what_the_run_writes(tmp_path, monkeypatch):
    """The estimate the warning gives errs high, and not by more than a small factor."""
    estimates: list[space.RoomEstimate] = []
    real = runner.estimate_room
    monkeypatch.setattr(runner, "estimate_room",
                        lambda *a, **k: estimates.append(real(*a, **k)) or estimates[-1])
    config = validate_config(tomllib.loads(quick_config(deals=150, per_task=150)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    [estimate] = estimates
    hands = RunFolder.open(summary.path).scan("deals").collect().height
    assert estimate.hands == hands
    written = _unit_bytes(summary.path) / hands
    assert written <= estimate.bytes_per_hand <= 3 * written, (written, estimate)
    assert estimate.needed >= _unit_bytes(summary.path)


def _on_disk(folder: Path) -> int:
    """Bytes ``folder``'s files take on disk, a hard-linked file (``data/``) counted once."""
    blocks = {}
    for top, _, names in os.walk(folder):  # not Path.rglob: measured before each of the
        for name in names:                 # run's 460 writes, it took 29 of the test's 40 s
            found = os.lstat(os.path.join(top, name))
            blocks[(found.st_dev, found.st_ino)] = found.st_blocks
    return sum(blocks.values()) * 512


def test_the_estimates_compaction_size_is_the_runners():
    assert space.COMPACT_UNITS == runner.COMPACT_EVERY


def test_a_run_of_small_tasks_never_takes_more_disk_than_its_estimate(tmp_path, monkeypatch):
    """Ten-deal tasks filled a disk the estimate said was enough: each task file's own
    footer and schema, and the batch a compaction writes beside the units it folds, had
    not been counted. The run folder's size on disk, measured before every file it
    writes, stays within the estimate."""
    estimates: list[space.RoomEstimate] = []
    real = runner.estimate_room
    monkeypatch.setattr(runner, "estimate_room",
                        lambda *a, **k: estimates.append(real(*a, **k)) or estimates[-1])
    out = tmp_path / "run"
    write = units_module.write_table_file
    peak = [0]

    def measured(path: Path, table, schema=None):
        peak[0] = max(peak[0], _on_disk(out))
        return write(path, table, schema)

    monkeypatch.setattr(units_module, "write_table_file", measured)
    config = validate_config(tomllib.loads(quick_config(deals=60, per_task=2)))
    run_tournament(config, out, workers=0, progress=False)
    [estimate] = estimates
    assert 0 < peak[0] <= estimate.needed, (peak[0], estimate)


def test_a_run_too_large_for_the_disk_left_is_warned_about_before_it_starts(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(space.shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 2_000))
    warned_first = []
    create = RunFolder.create.__func__

    def create_after_warning(cls, path, meta):
        warned_first.append("warning:" in capsys.readouterr().err)
        return create(cls, path, meta)

    monkeypatch.setattr(RunFolder, "create", classmethod(create_after_warning))
    config = validate_config(tomllib.loads(quick_config(deals=40, per_task=10)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert warned_first == [True]  # printed before the run folder existed
    assert summary.status == "complete"  # a warning, not a refusal


def test_the_warning_says_how_much_room_the_run_needs_and_how_to_go_on(tmp_path, monkeypatch):
    monkeypatch.setattr(space.shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 2_000))
    config = write_config(tmp_path, quick_config(deals=40, per_task=10))
    out = tmp_path / "run"
    result = _cli("run", str(config), "--out", str(out))
    assert result.exit_code == 0, result.output
    [line] = [li for li in result.output.splitlines() if li.startswith("warning:")]
    hands = RunFolder.open(out).scan("deals").collect().height
    assert f"{out}: the run needs about " in line
    assert f"({hands:,} hands at about " in line and "measured on a sample" in line
    assert "2.0 kB free" in line and f"whist-sim run --resume {out}" in line


def test_no_warning_when_the_disk_has_room(tmp_path, capsys):
    config = validate_config(tomllib.loads(quick_config(deals=12, per_task=6)))
    run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert "warning" not in capsys.readouterr().err


# -- a disk that fills mid-run ---------------------------------------------------------------

def test_a_write_that_fills_the_disk_half_way_stops_the_run_cleanly_and_resume_finishes_it(
    tmp_path, monkeypatch
):
    """Simulated: the fourth table file of the third commit gets half its bytes onto the
    disk, then ENOSPC. The command says so in one line; the two committed tasks are kept
    and intact; the half-written unit is never shown, and removed; --resume plays the
    rest."""
    config = write_config(tmp_path, quick_config(deals=12, per_task=3))
    out = tmp_path / "out"
    write = units_module.write_table_file
    calls = []

    def fills_up(path: Path, table, schema=None):
        calls.append(path)
        if len(calls) == 2 * 5 + 4:
            data = path.with_suffix(".whole")
            write(data, table, schema)
            path.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
            data.unlink()
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return write(path, table, schema)

    monkeypatch.setattr(units_module, "write_table_file", fills_up)
    result = _cli("run", str(config), "--out", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert "no space left on the device" in result.output
    assert f"whist-sim run --resume {out}" in result.output
    monkeypatch.setattr(units_module, "write_table_file", write)
    stopped = RunFolder.open(out)  # checks every byte of what data/ shows
    assert stopped.completed_tasks() == {0, 1}
    assert stopped.meta()["status"] == "failed"
    assert list((out / ".staging").iterdir()) == [], "the half-written unit is removed"
    resumed = _cli("run", "--resume", str(out))
    assert resumed.exit_code == 0, resumed.output
    assert _cli("run", str(config), "--out", str(tmp_path / "clean")).exit_code == 0
    assert_same_rows(run_rows(out), run_rows(tmp_path / "clean"))
    assert list((out / ".staging").iterdir()) == []


def test_a_disk_that_fills_on_a_units_record_names_that_file_and_leaves_no_half_run_json(
    tmp_path, monkeypatch
):
    """A write that fills the disk raises an error naming no file (the open succeeded):
    the run's line named only the folder, and recording the failure in run.json, failing
    too, replaced that error and left a half-written .run.json.tmp behind."""
    config = write_config(tmp_path, quick_config(deals=12, per_task=3))
    out = tmp_path / "out"
    write_text = Path.write_text
    full = []

    def fills_up(self: Path, text: str, *args, **kwargs):
        if self.name == "_unit.json" and len(list((out / ".units").iterdir())) >= 2:
            full.append(self)
        if full and self.name in ("_unit.json", ".run.json.tmp"):
            write_text(self, text[: len(text) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")  # no file name
        return write_text(self, text, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fills_up)
    result = _cli("run", str(config), "--out", str(out))
    monkeypatch.setattr(Path, "write_text", write_text)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert f"{full[0]}: no space left on the device" in result.output
    assert not (out / ".run.json.tmp").exists() and not full[0].exists()
    assert RunFolder.open(out).completed_tasks() == {0, 1}
    assert _cli("run", "--resume", str(out)).exit_code == 0
    assert RunFolder.open(out).meta()["status"] == "complete"


class _FillingDisk:
    """A disk that fills on the ``at``-th Parquet file the run writes, as a real one does:
    half the file's bytes reach it, then the write fails with ENOSPC naming no file (the
    open succeeded). It stays full while the run's half-written unit is in ``.staging/``:
    writing run.json then fails the same way (a real 2 MB tmpfs stayed at 100%)."""

    def __init__(self, monkeypatch, out: Path, at: int) -> None:
        self.out, self.at, self.opened = out, at, 0
        self.failed: Path | None = None
        """The file whose write filled the disk."""
        monkeypatch.setattr(manifest_module, "open", self._open, raising=False)
        write_text = Path.write_text
        monkeypatch.setattr(Path, "write_text", lambda path, text, *args, **kwargs: (
            self._refuse(path, write_text, text) if self._full(path)
            else write_text(path, text, *args, **kwargs)))

    def _open(self, file, mode="r", *args, **kwargs):
        opened = builtins.open(file, mode, *args, **kwargs)  # noqa: SIM115 (closed by its caller)
        if "w" not in mode:
            return opened
        self.opened += 1
        return _HalfWritten(opened, self, Path(file)) if self.opened == self.at else opened

    def _full(self, path: Path) -> bool:
        return (path.name == ".run.json.tmp" and self.failed is not None
                and any(p.is_file() for p in (self.out / ".staging").rglob("*")))

    @staticmethod
    def _refuse(path: Path, write_text, text: str) -> None:
        write_text(path, text[: len(text) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")  # no file name


class _HalfWritten:
    """A file on a disk with room for half of what is written to it."""

    def __init__(self, file, disk: _FillingDisk, path: Path) -> None:
        self.file, self.disk, self.path = file, disk, path

    def write(self, data) -> int:
        view = memoryview(data)
        self.file.write(view[: len(view) // 2])
        self.disk.failed = self.path
        raise OSError(errno.ENOSPC, "No space left on device")  # no file name

    def __enter__(self) -> _HalfWritten:
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()


def test_a_writer_keeps_room_for_its_last_run_json_while_it_holds_the_folder(tmp_path):
    """From the writer's opening (a new run, a resume) to its closing, the folder holds
    the kept room, in blocks on the disk; a closed run holds none."""
    from whist_sim.store.kept_room import KEPT_ROOM_BYTES, KEPT_ROOM_FILE

    kept = tmp_path / "run" / KEPT_ROOM_FILE
    with RunFolder.create(tmp_path / "run", {"game": "german_whist", "config": {},
                                             "root_seed": 1, "status": "running"}):
        assert kept.stat().st_blocks * 512 >= KEPT_ROOM_BYTES
    assert not kept.exists()
    with RunFolder.open(tmp_path / "run", repair=True):
        assert kept.stat().st_blocks * 512 >= KEPT_ROOM_BYTES
    assert not kept.exists()
    with RunFolder.open(tmp_path / "run"):  # a reader keeps nothing
        assert not kept.exists()


def test_a_disk_without_the_room_a_writer_keeps_is_named_in_the_error(tmp_path, monkeypatch):
    """A writer keeps room for the run.json that records its stop (``kept_room``): on a
    disk without that room, opening fails naming the file it could not write (a write
    that fills the disk names none), and leaves none of it."""
    from types import SimpleNamespace

    from whist_sim.store import kept_room

    disk = SimpleNamespace(failed=None)
    monkeypatch.setattr(kept_room, "open", raising=False, value=lambda file, mode="r": (
        _HalfWritten(builtins.open(file, mode), disk, Path(file))))  # noqa: SIM115 (closed by its caller)
    with pytest.raises(OSError) as raised:
        kept_room.keep_room(tmp_path, 5_000)
    path = tmp_path / kept_room.KEPT_ROOM_FILE
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(path)
    assert disk.failed == path and not path.exists()


TRICKS_OF_THE_THIRD_TASK = 2 * 5 + 5
"""The Parquet file written when a run of German Whist (five tables: deals, seats, matches,
actions, tricks) has committed two tasks: the third task's tricks.parquet."""


def _stopped_by_the_disk(tmp_path, monkeypatch):
    """A run of four tasks whose disk fills while its third task's tricks are written: the
    config, the run folder, the disk and the command's result (exit 2, no traceback)."""
    config = write_config(tmp_path, quick_config(deals=12, per_task=3))
    out = tmp_path / "out"
    disk = _FillingDisk(monkeypatch, out, TRICKS_OF_THE_THIRD_TASK)
    result = _cli("run", str(config), "--out", str(out))
    monkeypatch.undo()
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    return config, out, disk, result


def test_a_disk_full_of_a_half_written_unit_is_recorded_failed_with_the_unit_removed(
    tmp_path, monkeypatch
):
    """A real full disk stopped a run with its half-written unit left in .staging/: the
    disk stayed full, run.json could not be told the run failed and said "running", and
    the room the user made went to the run's leftovers first. The unit is removed before
    the failure is recorded; the committed tasks are kept, every byte."""
    config, out, disk, _result = _stopped_by_the_disk(tmp_path, monkeypatch)
    assert disk.failed is not None and ".staging" in disk.failed.parts
    stopped = RunFolder.open(out)  # checks every byte of what data/ shows
    meta = stopped.meta()
    assert meta["status"] == "failed" and meta["ended"], meta
    assert "No space left on device" in meta["error"] and str(disk.failed) in meta["error"]
    assert stopped.completed_tasks() == {0, 1}
    assert list((out / ".staging").iterdir()) == []
    assert len(os.listdir(out / ".units")) == 2, "the two committed units, nothing else"
    assert _cli("run", "--resume", str(out)).exit_code == 0
    assert _cli("run", str(config), "--out", str(tmp_path / "clean")).exit_code == 0
    assert_same_rows(run_rows(out), run_rows(tmp_path / "clean"))


def test_a_table_file_that_fills_the_disk_is_named_and_removed(tmp_path, monkeypatch):
    """``open(path, "wb").write(data)`` on a full disk raises an OSError with no file name
    (the open succeeded): the run's line named only the run folder."""
    _FillingDisk(monkeypatch, tmp_path, at=1)
    path = tmp_path / "tricks.parquet"
    table = pa.table({"x": list(range(1000))})
    with pytest.raises(OSError) as raised:
        manifest_module.write_table_file(path, table)
    assert raised.value.errno == errno.ENOSPC and raised.value.filename == str(path)
    assert not path.exists(), "what was written of a file that failed is no file"


def test_the_line_of_a_run_the_disk_stopped_names_the_file_and_the_room_the_run_needs(
    tmp_path, monkeypatch
):
    _config, out, disk, result = _stopped_by_the_disk(tmp_path, monkeypatch)
    assert disk.failed is not None and disk.failed.name == "tricks.parquet"
    assert disk.failed.parent.name.startswith("task-00000002-")
    [line] = [li for li in result.output.splitlines() if li.startswith("error:")]
    assert f"error: {disk.failed}: no space left on the device (the run needs about " in line
    assert "free when it started); every task committed so far is kept in" in line
    assert line.endswith(f"whist-sim run --resume {out}")


def test_a_resume_on_a_disk_still_short_is_warned_about_before_it_plays(
    tmp_path, monkeypatch, capsys
):
    """A run the disk stopped was resumed on a disk gigabytes short without a word, played
    and stopped again. A resume warns as a new run does, for the hands still to play, at
    the bytes a hand its committed units take (measured on the run, not a sample)."""
    config = write_config(tmp_path, quick_config(deals=12, per_task=3))
    out = tmp_path / "out"
    _FillingDisk(monkeypatch, out, TRICKS_OF_THE_THIRD_TASK)
    assert _cli("run", str(config), "--out", str(out)).exit_code == 2
    monkeypatch.undo()
    stopped = RunFolder.open(out)
    kept = stopped.scan("deals").collect().height
    written = _unit_bytes(out)
    monkeypatch.setattr(space.shutil, "disk_usage", lambda path: Usage(10**9, 10**9, 2_000))
    estimates: list[space.RoomEstimate] = []
    real = runner.estimate_room
    monkeypatch.setattr(runner, "estimate_room",
                        lambda *a, **k: estimates.append(real(*a, **k)) or estimates[-1])
    printed: list[str] = []
    name_units = RunFolder.name_units

    def name_after_warning(self, units):
        printed.append(capsys.readouterr().err)
        return name_units(self, units)

    monkeypatch.setattr(RunFolder, "name_units", name_after_warning)
    summary = resume_tournament(out, workers=0, progress=False)
    assert summary.status == "complete"  # a warning, not a refusal
    hands = RunFolder.open(out).scan("deals").collect().height
    [estimate] = estimates
    assert estimate.hands == hands - kept
    assert estimate.bytes_per_hand == pytest.approx(written / kept)
    [line] = [li for li in printed[0].splitlines() if li.startswith("warning:")]  # before play
    assert f"{out}: the rest of the run needs about " in line
    assert f"({hands - kept:,} hands still to play at about " in line
    assert "measured on the 2 committed tasks" in line and "2.0 kB free" in line
    assert line.endswith(f"whist-sim run --resume {out}")


def _can_mount() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount") is not None


def _mount_tmpfs(where: Path, size: int) -> bool:
    where.mkdir(exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


@contextlib.contextmanager
def _a_tmpfs_beside_a_clean_run(tmp_path, deals: int, size: int):
    """A config of ``deals`` deals in three-deal tasks, its run on ``tmp_path``'s own disk
    (the rows to match), and a tmpfs of ``size`` bytes to run it again on, unmounted after
    (skipped where none may be mounted)."""
    config = write_config(tmp_path, quick_config(deals=deals, per_task=3))
    clean = tmp_path / "clean"
    assert _cli("run", str(config), "--out", str(clean)).exit_code == 0
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, size):
        pytest.skip("mount -t tmpfs was refused (no CAP_SYS_ADMIN in this container)")
    try:
        yield config, clean, disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


@pytest.mark.slow
@pytest.mark.skipif(not _can_mount(), reason="mounting a small tmpfs needs root")
def test_a_real_full_disk_stops_the_run_and_resume_finishes_it_once_there_is_room(tmp_path):
    """A tmpfs half the size the run takes: the run stops when it is full, in one line,
    keeping what it committed; the file system is grown and --resume completes the run."""
    with _a_tmpfs_beside_a_clean_run(tmp_path, 45, 64 << 20) as (config, clean, disk):
        out = disk / "run"
        assert _cli("run", str(config), "--out", str(out)).exit_code == 0
        taken = shutil.disk_usage(disk).used
        shutil.rmtree(out)
        subprocess.run(["mount", "-o", f"remount,size={taken // 2}", str(disk)], check=True)
        stopped = _cli("run", str(config), "--out", str(out))
        assert stopped.exit_code == 2, stopped.output
        assert "Traceback" not in stopped.output
        assert "no space left on the device" in stopped.output, stopped.output
        assert f"whist-sim run --resume {out}" in stopped.output
        assert "warning:" in stopped.output and "the run needs about" in stopped.output
        stopped_run = RunFolder.open(out)
        kept = stopped_run.completed_tasks()  # every byte checked
        assert kept, "tasks committed before the disk filled are kept"
        assert stopped_run.meta()["status"] == "failed", "the half-written unit was removed"
        assert list((out / ".staging").iterdir()) == []
        assert ".staging" in stopped.output and ".parquet: no space left" in stopped.output
        subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        resumed = _cli("run", "--resume", str(out))
        assert resumed.exit_code == 0, resumed.output
        assert_same_rows(run_rows(out), run_rows(clean))


def _fill(disk: Path) -> Path:
    """Take every free byte of ``disk`` with one file, and return it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (1 << 20, 1 << 12, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\xff" * size)
    finally:
        os.close(fd)
    return filler


@pytest.mark.skipif(not _can_mount(), reason="mounting a small tmpfs needs root")
def test_a_disk_full_to_the_last_byte_still_records_the_run_as_failed(tmp_path, monkeypatch):
    """The disk filled as a task's first file began, so dropping the half-written unit gave
    back nothing, and run.json still said "running" (a clean-clone CI): the record that the
    run failed is written into room the run kept for it."""
    with _a_tmpfs_beside_a_clean_run(tmp_path, 12, 16 << 20) as (config, clean, disk):
        out = disk / "run"
        real = units_module.write_table_file
        filled: list[Path] = []

        def fill_then_write(*args, **kwargs):
            if RunFolder.open(out, verify=False).completed_tasks() and not filled:
                filled.append(_fill(disk))
            return real(*args, **kwargs)

        monkeypatch.setattr(units_module, "write_table_file", fill_then_write)
        stopped = _cli("run", str(config), "--out", str(out))
        assert filled and stopped.exit_code == 2, stopped.output
        assert "no space left on the device" in stopped.output, stopped.output
        meta = RunFolder.open(out).meta()
        assert meta["status"] == "failed", "the stop is recorded on a full disk"
        assert "No space left on device" in meta["error"]
        monkeypatch.undo()
        kept = RunFolder.open(out).completed_tasks()
        still_full = _cli("run", "--resume", str(out))  # no room made: one line, nothing lost
        assert still_full.exit_code == 2 and "Traceback" not in still_full.output
        assert "no space left on the device" in still_full.output, still_full.output
        assert RunFolder.open(out).meta()["status"] == "failed"
        assert RunFolder.open(out).completed_tasks() == kept
        filled[0].unlink()
        resumed = _cli("run", "--resume", str(out))
        assert resumed.exit_code == 0, resumed.output
        assert_same_rows(run_rows(out), run_rows(clean))


def test_a_file_a_compaction_folded_mid_read_says_to_run_the_command_again():
    """Polars names the missing file only in its text: a report overlapping a running
    run's compaction printed "No such file or directory (os error 2): RUN/.units/..."."""
    from whist_sim.cli import _os_error_line

    gone = FileNotFoundError("No such file or directory (os error 2):"
                             " live/.units/task-00000400-1/seats.parquet")
    line = _os_error_line(gone)
    assert line.startswith("No such file or directory (os error 2): live/.units/task-")
    assert line.endswith("went away while it was read (a compaction folds task files into"
                         " a batch): run the command again")
