"""A tournament through ``--address`` on a real two-node Ray cluster on this machine.

Both nodes use loopback addresses (127.0.0.2 head, 127.0.0.3 worker) and token
authentication, as `ray start --head` enables it. Results must equal an
embedded run of the same config.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]
RAY = str(Path(sys.executable).with_name("ray"))


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _kill_processes_mentioning(text: str) -> None:
    """Stop this cluster's processes only (``ray stop`` would stop every Ray here)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if text in cmdline and int(pid) != os.getpid():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)


@pytest.fixture
def two_node_cluster():
    temp = Path(tempfile.mkdtemp(prefix="wsray-", dir="/tmp"))  # short: socket paths
    env = {**os.environ, "RAY_AUTH_MODE": "token"}
    port = _free_port("127.0.0.2")
    common = ["--num-cpus=1", "--disable-usage-stats", f"--temp-dir={temp}"]
    try:
        subprocess.run(
            [RAY, "start", "--head", "--node-ip-address=127.0.0.2", f"--port={port}",
             "--include-dashboard=false", *common],
            env=env, check=True, capture_output=True, timeout=120,
        )
        subprocess.run(
            [RAY, "start", f"--address=127.0.0.2:{port}", "--node-ip-address=127.0.0.3",
             *common],
            env=env, check=True, capture_output=True, timeout=120,
        )
        yield f"127.0.0.2:{port}", env
    finally:
        _kill_processes_mentioning(str(temp))
        shutil.rmtree(temp, ignore_errors=True)


def test_tournament_on_a_two_node_cluster_equals_the_embedded_run(
    tmp_path, two_node_cluster, ray_cluster
):
    address, env = two_node_cluster
    body = quick_config(deals=16, per_task=2)
    config = write_config(tmp_path, body)
    out = tmp_path / "on-cluster"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--out", str(out),
         "--address", address, "--no-progress"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    meta = json.loads((out / "run.json").read_text())
    assert meta["status"] == "complete"
    assert meta["nodes"] == ["127.0.0.2", "127.0.0.3"]  # both nodes played tasks
    embedded = run_tournament(load_config(config), tmp_path / "embedded", progress=False)
    assert_same_rows(run_rows(out), run_rows(embedded.path))


@pytest.mark.slow
def test_an_embedded_run_starts_its_own_ray_beside_a_cluster_ray_start_left(tmp_path):
    """Ray joins the cluster `ray start` last recorded on this machine when not told
    otherwise, and a join takes no CPU count: the embedded run died with a traceback
    while a user's local cluster (or the stale record of one) was there."""
    temp = Path(tempfile.mkdtemp(prefix="wsray-", dir="/tmp"))  # short: socket paths
    try:
        (temp / "ray").mkdir()
        (temp / "ray" / "ray_current_cluster").write_text("127.0.0.9:6390")
        config = write_config(tmp_path, quick_config(deals=4, per_task=2))
        result = subprocess.run(
            [sys.executable, "-m", "whist_sim", "run", str(config), "--out",
             str(tmp_path / "run"), "--workers", "2", "--no-progress"],
            cwd=ROOT, env={**os.environ, "RAY_TMPDIR": str(temp)}, capture_output=True,
            text=True, timeout=300,
        )
        assert result.returncode == 0, result.stderr[-2000:]
        assert json.loads((tmp_path / "run" / "run.json").read_text())["status"] == "complete"
    finally:
        _kill_processes_mentioning(str(temp))
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.slow
def test_joining_a_token_cluster_without_the_token_mode_says_what_to_set(
        tmp_path, two_node_cluster):
    """Ray's own reason (an invalid token) went to a warning line above ours, which said
    only "cannot join the Ray cluster (Failed to connect ...)" (an operator probe)."""
    address, env = two_node_cluster
    config = write_config(tmp_path, quick_config(deals=2, per_task=2))
    plain = {key: value for key, value in env.items() if key != "RAY_AUTH_MODE"}
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--out", str(tmp_path / "r"),
         "--address", address, "--no-progress"],
        cwd=ROOT, env=plain, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert "cannot join the Ray cluster" in result.stderr
    assert "set RAY_AUTH_MODE=token here too" in result.stderr
    assert "Traceback" not in result.stderr


def _failing_init(monkeypatch, raised: BaseException) -> None:
    """``ray.init`` raising ``raised``, with no Ray of this test session touched."""
    import ray

    def init(**_):
        raise raised

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "shutdown", lambda: None)


def test_an_embedded_ray_that_cannot_start_is_one_line_naming_the_likely_causes(monkeypatch):
    """Ray's temporary folder on a full disk: Ray's RuntimeError came out as a traceback."""
    from whist_sim.tournament.cluster import ClusterError, ray_session

    _failing_init(monkeypatch, RuntimeError("Timed out waiting for file /x/ray/session_1/gcs"
                                            "_server_port\nmore lines"))
    with pytest.raises(ClusterError) as raised, ray_session(None, 2):
        pass
    text = str(raised.value)
    assert "Ray could not start on 127.0.0.2 (Timed out waiting for file" in text
    assert "\n" not in text and "--workers 0" in text and "ulimit -f" in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_ctrl_c_while_ray_starts_ends_the_processes_it_had_started(monkeypatch):
    """An operator's probe: Ray's agents outlived a Ctrl-C during ray.init by a minute or
    more, ray.shutdown knowing no node yet. Here ray.init starts a process whose command
    is Ray's, and a grandchild of it, then is interrupted: both are ended."""
    import ray

    from whist_sim.tournament.cluster import ray_session

    started, agents = [], []

    def init(**_):
        script = ("import subprocess, sys, time; subprocess.Popen([sys.executable, '-c',"
                  " 'import time; time.sleep(60)', 'ray::RuntimeEnvAgent']); time.sleep(60)")
        started.append(subprocess.Popen([sys.executable, "-c", script, "raylet"]))
        for _ in range(200):  # until the agent has started
            agents.extend(_children(started[0].pid))
            if agents:
                break
            time.sleep(0.05)
        raise KeyboardInterrupt

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    # a Ray this process ran before (a test session's): not this start's, left alone
    earlier = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "raylet"])
    try:
        with pytest.raises(KeyboardInterrupt), ray_session(None, 2):
            pass
        assert started[0].wait(5) == -signal.SIGKILL
        assert agents and all(_ended(agent) for agent in agents)
        assert earlier.poll() is None
    finally:
        earlier.kill()
        earlier.wait()


def _children(pid: int) -> list[int]:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(word) for word in handle.read().split()]
    return []


def _ended(pid: int) -> bool:
    """Gone, or a zombie its new parent has not reaped yet."""
    for _ in range(100):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_a_sigterm_while_ray_starts_stops_the_run_as_ctrl_c_does(monkeypatch):
    """Ray's handler, in place during ray.init, exits with the signal's number: the run
    ended with status 15 and no word, not 'interrupted before the run began'."""
    from whist_sim.tournament.cluster import ray_session

    _failing_init(monkeypatch, SystemExit(signal.SIGTERM))
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), ray_session(None, 2):
        pass
    assert signal.getsignal(signal.SIGTERM) is before
