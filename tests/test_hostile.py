"""A tournament survives its strategies: crashes, hangs, memory hogs and floods cost a deal.

Every hostile strategy (tests/plugins/hostile.py) attacks on the same deals: those where
it holds the ace of spades at its first decision. The reference is its harmless twin,
which raises an ordinary exception there; every hostile run must forfeit exactly the
twin's deals, with a cause naming the seat and the strategy, play every other deal as
the twin's run does, and end ``complete``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from tests.tournament_helpers import run_rows, write_config
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

CONFIG = """
[tournament]
game = "german_whist"
deals = 8
seed = 21
deals_per_task = 4
time_limit = {time_limit}
memory_limit = "600 MiB"
output_limit = "64 KiB"

[[strategies]]
use = "tests.plugins.hostile:{name}"
label = "bad"

[[strategies]]
use = "random"
"""

CAUSES = {
    "ExitsTheProcess": "seat {seat} (bad) process exited with code 1",
    "CallsSysExit": "seat {seat} (bad) raised SystemExit: 3",
    "RaisesKeyboardInterrupt": "seat {seat} (bad) raised KeyboardInterrupt",
    "RaisesBaseException": "seat {seat} (bad) raised _Escape: not an Exception",
    "KillsItsProcess": "seat {seat} (bad) process died: SIGKILL",
    "StartsThreads": "seat {seat} (bad) thread limit 256 exceeded",
    "RaisesUnprintable": ("seat {seat} (bad) strategy raised _Unprintable: (its message could"
                          " not be read: str() raised RuntimeError)"),
    "RaisesGeneratorExit": "seat {seat} (bad) raised GeneratorExit",
    "EatsMemory": "seat {seat} (bad) memory limit 600 MiB exceeded",
    "SwitchesOffTheAlarm": "seat {seat} (bad) took more than its time limit of 0.3 s",
    "SwallowsEverything": "seat {seat} (bad) took more than its time limit of 0.3 s",
}


HANGS = ("SwitchesOffTheAlarm", "SwallowsEverything")
"""Strategies that never return: a short time limit keeps the test short."""


def _body(name: str) -> str:
    return CONFIG.format(name=name, time_limit=0.3 if name in HANGS else 5.0)


def _run(tmp_path: Path, name: str, workers: int = 2) -> Path:
    config = load_config(write_config(tmp_path, _body(name), f"{name}.toml"))
    summary = run_tournament(config, tmp_path / name, workers=workers, progress=False)
    assert summary.status == "complete"
    return summary.path


@pytest.fixture(scope="module")
def twin(tmp_path_factory, ray_cluster):
    """The harmless twin's rows: the deals every hostile run must forfeit, and the rest."""
    rows = run_rows(_run(tmp_path_factory.mktemp("twin"), "RaisesOnTrigger"))
    forfeited = rows["deals"].filter(pl.col("status") == "forfeit")
    assert 0 < forfeited.height < rows["deals"].height
    return rows


@pytest.mark.parametrize("name", list(CAUSES))
def test_a_hostile_strategy_forfeits_its_deals_and_the_run_completes(tmp_path, twin, name):
    rows = run_rows(_run(tmp_path, name))
    deals = rows["deals"]
    expected = twin["deals"]
    assert deals["deal_key"].to_list() == expected["deal_key"].to_list()
    assert deals["status"].to_list() == expected["status"].to_list()
    for row in deals.filter(pl.col("status") == "forfeit").iter_rows(named=True):
        assert CAUSES[name].format(seat=row["forfeit_seat"]) in row["error"], row["error"]
    # every deal it did not attack is played exactly as the twin played it
    same = ["deal_key", "tricks", "net", "result"]
    assert rows["seats"].select(same).equals(twin["seats"].select(same))
    ok = pl.col("status") == "ok"
    assert rows["actions"].join(deals.filter(ok).select("deal_key"), on="deal_key").equals(
        twin["actions"].join(expected.filter(ok).select("deal_key"), on="deal_key"))


def _ray_log_bytes() -> int:
    import ray

    logs = Path(ray._private.worker.global_worker.node.get_logs_dir_path())
    return sum(path.stat().st_size for path in logs.rglob("*") if path.is_file())


def test_a_flood_of_output_is_capped_and_kept_in_the_run_folder(tmp_path, ray_cluster):
    before = _ray_log_bytes()
    run = _run(tmp_path, "PrintsALot")
    # about 9 MB printed per decision, over a hundred decisions: Ray's logs barely grow
    assert _ray_log_bytes() - before < 1 << 20
    output = run / "logs" / "output"
    kept = {path.name: path.stat().st_size for path in output.iterdir()}
    assert set(kept) == {"bad.log", "(process).log"}
    assert all(size <= 64 << 10 for size in kept.values())
    assert "output limit of 65,536 bytes reached" in (output / "bad.log").read_text()


def test_a_huge_error_is_cut_in_the_tables_and_kept_whole_once(tmp_path, ray_cluster):
    run = _run(tmp_path, "HugeError")
    forfeits = run_rows(run)["deals"].filter(pl.col("status") == "forfeit")
    errors = forfeits["error"]
    assert errors.len() > 0 and errors.str.len_chars().max() < 3000
    files = {path.name: path for path in (run / "logs" / "errors").iterdir()}
    # one file per distinct text (the text names the seat), however many deals it ended
    assert len(files) == forfeits["forfeit_seat"].n_unique() < errors.len()
    assert all(path.stat().st_size > 50 << 20 for path in files.values())
    assert all(any(name in error for name in files) for error in errors)


def test_in_process_runs_are_not_contained_and_say_so(tmp_path):
    """The trade-off of a fast start: without a supervisor, a BaseException that is not
    SystemExit (or os._exit, which no test process survives) ends the run."""
    config = load_config(write_config(tmp_path, _body("RaisesBaseException")))
    with pytest.raises(BaseException, match="not an Exception"):
        run_tournament(config, tmp_path / "here", workers=0, progress=False)
    assert json.loads((tmp_path / "here" / "run.json").read_text())["status"] != "complete"


def test_sys_exit_in_a_strategy_is_its_forfeit_even_in_process(tmp_path):
    """sys.exit is caught where the strategy is called: it would otherwise end the whole
    in-process run, and `whist-sim check` with status 0 and no word."""
    config = load_config(write_config(tmp_path, _body("CallsSysExit")))
    summary = run_tournament(config, tmp_path / "here", workers=0, progress=False)
    assert summary.status == "complete"
    deals = run_rows(summary.path)["deals"]
    forfeits = deals.filter(pl.col("status") == "forfeit")
    assert 0 < forfeits.height < deals.height
    assert all("strategy raised SystemExit: 3" in error for error in forfeits["error"])


@pytest.mark.parametrize(("name", "cause"), [
    ("RaisesUnprintable", CAUSES["RaisesUnprintable"]),
    ("RaisesGeneratorExit", "seat {seat} (bad) strategy raised GeneratorExit (at "),
])
def test_an_exception_with_no_text_or_a_generator_exit_is_a_forfeit_in_process(
    tmp_path, name, cause
):
    """An exception whose str() raises took the whole run down with a traceback while its
    forfeit's reason was written (a probe's plug-in), and GeneratorExit, a BaseException,
    passed through the play loop."""
    config = load_config(write_config(tmp_path, _body(name)))
    summary = run_tournament(config, tmp_path / "here", workers=0, progress=False)
    assert summary.status == "complete"
    forfeits = run_rows(summary.path)["deals"].filter(pl.col("status") == "forfeit")
    assert forfeits.height > 0
    for row in forfeits.iter_rows(named=True):
        assert cause.format(seat=row["forfeit_seat"]) in row["error"], row["error"]


def test_the_cli_survives_a_crashing_plug_in_with_every_default(tmp_path):
    """deals_per_task = "auto" times a sample before Ray starts: a plug-in that ends its
    process must not end the command there either."""
    import subprocess
    import sys

    body = _body("ExitsTheProcess").replace("deals_per_task = 4\n", "")
    config = write_config(tmp_path, body, "cli.toml")
    out = tmp_path / "cli"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--out", str(out),
         "--no-progress"],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "complete:" in result.stdout
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_what_a_strategy_forked_ends_with_its_supervised_process(tmp_path):
    """A probe's strategy forked a sleeper a decision: a hundred outlived the run. The
    supervised child leads a process group, and the supervisor ends the group with it."""
    import subprocess

    from whist_sim.tournament.sandbox import Supervisor
    from whist_sim.tournament.schedule import Plan
    from whist_sim.tournament.worker import TaskSpec

    # this run's own sleepers: pgrep sees the whole machine, and a full run beside another
    # (most likely a CI clone's, running this test too) once found six just after close()
    seconds = f"61.{os.getpid()}"

    def sleepers() -> int:
        found = subprocess.run(["pgrep", "-f", f"^sleep {seconds}$"],
                               capture_output=True, text=True).stdout
        return len(found.split())

    spec = TaskSpec(task=0, game="german_whist", variant={}, players=None, root_seed=3,
                    plan=Plan(1, 3, 3, 2), lineups=[("bad", "random")],
                    strategies={"bad": ("tests.plugins.hostile:ForksSleepers",
                                        {"seconds": seconds}),
                                "random": ("random", {})},
                    time_limit=5.0, on_error="forfeit")
    supervisor = Supervisor()
    try:
        assert supervisor.play(spec).deals == 6
        assert sleepers() == 6  # one a hand: they run while the child does
    finally:
        supervisor.close()
    # a killed process needs the CPU to exit: ten seconds, not none
    deadline = time.monotonic() + 10.0
    while sleepers() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sleepers() == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_supervised_child_is_not_dumpable(tmp_path):
    """A bot the child starts, running as the same user, opened the child's pipe to its
    supervisor through /proc/<its parent>/fd and wrote a pickle into it, which ran its
    code in the engine (a hostile bot author's probe). A process that is not dumpable
    keeps its descriptors from such processes (not from root: docs/protocol.md)."""
    from whist_sim.tournament.sandbox import Supervisor
    from whist_sim.tournament.schedule import Plan
    from whist_sim.tournament.worker import TaskSpec

    report = tmp_path / "dumpable"
    spec = TaskSpec(task=0, game="german_whist", variant={}, players=None, root_seed=3,
                    plan=Plan(1, 1, 1, 2), lineups=[("probe", "random")],
                    strategies={"probe": ("tests.plugins.hostile:ReportsDumpable",
                                          {"path": str(report)}),
                                "random": ("random", {})},
                    time_limit=5.0, on_error="forfeit")
    supervisor = Supervisor()
    try:
        assert supervisor.play(spec).deals == 2
    finally:
        supervisor.close()
    assert report.read_text() == "0"


class _Planted:
    """A pickle that creates a file when unpickled: what an attacker writes into a pipe."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/<pid>/fd is Linux's")
def test_a_frame_written_into_the_supervisors_pipe_by_another_process_is_never_unpickled(
        tmp_path):
    """A bot opened the pipe through /proc/<pid>/fd and wrote a pickle into it, which ran
    its code in the engine (a hostile bot author's probe). Frames are signed now: this
    one is refused unread, and the task stops with one line saying why."""
    import pickle
    from multiprocessing.connection import Connection

    from whist_sim.tournament.sandbox import Supervisor
    from whist_sim.tournament.schedule import Plan
    from whist_sim.tournament.signed_frames import ForgedFrame
    from whist_sim.tournament.worker import TaskSpec

    planted = tmp_path / "planted"
    spec = TaskSpec(task=0, game="german_whist", variant={}, players=None, root_seed=3,
                    plan=Plan(1, 1, 1, 2), lineups=[("a", "random")],
                    strategies={"a": ("random", {}), "random": ("random", {})},
                    time_limit=5.0, on_error="forfeit")
    supervisor = Supervisor()
    try:
        supervisor._start()
        reader = supervisor._conn.fileno()
        attacker = Connection(os.open(f"/proc/self/fd/{reader}", os.O_WRONLY), readable=False)
        attacker.send_bytes(pickle.dumps(("result", _Planted(str(planted)))))
        attacker.close()
        with pytest.raises(ForgedFrame, match="a message not signed by the other end"):
            supervisor._wait(spec, 1 << 31)
    finally:
        supervisor.close()
    assert not planted.exists()


def test_only_a_frame_signed_with_the_key_is_read():
    from whist_sim.tournament.signed_frames import ForgedFrame, new_key, signed, verified

    key = new_key()
    assert verified(key, signed(key, b"payload"), "here") == b"payload"
    for frame in (signed(new_key(), b"payload"), b"payload", b"", signed(key, b"p")[:-1]):
        with pytest.raises(ForgedFrame, match="here: a message not signed"):
            verified(key, frame, "here")


@pytest.mark.parametrize(("name", "why"), [
    ("EatsMemory", "memory limit 600 MiB exceeded"),
    ("StartsThreads", "thread limit 256 exceeded"),
])
def test_an_isolated_strategy_is_held_to_the_memory_and_thread_limits(tmp_path, twin, name,
                                                                     why):
    """Isolated strategies and bots were not weighed at all: six isolated processes of 742
    MB and 300 threads each played a run whose limit was 300 MiB (an adversarial probe).
    Now each bot, with what it started, is held to the child's limits: its process is
    ended, its seat forfeits the deal, and the reason is kept in the run's logs."""
    body = _body(name).replace('label = "bad"', 'label = "bad"\nisolate = true')
    config = load_config(write_config(tmp_path, body, f"{name}.toml"))
    summary = run_tournament(config, tmp_path / name, workers=1, progress=False)
    assert summary.status == "complete"
    deals = run_rows(summary.path)["deals"]
    assert deals["status"].to_list() == twin["deals"]["status"].to_list()
    for error in deals.filter(pl.col("status") == "forfeit")["error"]:
        assert "(bad)" in error and "was killed by SIGKILL" in error, error
    log = (summary.path / "logs" / "output" / "(process).log").read_text()
    assert "[supervisor] ended bot process" in log and why in log, log
