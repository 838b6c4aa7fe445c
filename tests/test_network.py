"""The embedded Ray stays on loopback: it advertises 127.0.0.2 and talks to nothing else."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import ray

from tests.tournament_helpers import quick_config, write_config
from whist_sim.tournament.cluster import EMBEDDED_HOST
from whist_sim.tournament.config import load_config
from whist_sim.tournament.loopback import HOST_VARIABLE, loopback_environment
from whist_sim.tournament.runner import run_tournament

pytestmark = pytest.mark.slow  # every test here plays whole runs (seconds each)

CONNECTED_STATES = {"01", "02", "03"}  # ESTABLISHED, SYN_SENT, SYN_RECV


def _process_tree(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo.extend(children.get(pid, []))
    return tree


def _socket_inodes(pids: set[int]) -> set[str]:
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    return inodes


def _decode(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    host = bytes.fromhex(hex_address.split(":")[0])
    if len(host) == 4:
        return ipaddress.IPv4Address(host[::-1])
    words = b"".join(host[i : i + 4][::-1] for i in range(0, 16, 4))
    address = ipaddress.IPv6Address(words)
    return address.ipv4_mapped or address


def _remote_peers(inodes: set[str]) -> list:
    peers = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes and fields[3] in CONNECTED_STATES:
                peers.append(_decode(fields[2]))
    return peers


def test_embedded_ray_advertises_a_loopback_address_other_than_127_0_0_1(ray_cluster):
    addresses = {node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"]}
    assert addresses == {EMBEDDED_HOST}
    assert ipaddress.ip_address(EMBEDDED_HOST).is_loopback and EMBEDDED_HOST != "127.0.0.1"


def test_a_tournament_opens_no_connection_outside_loopback(tmp_path, ray_cluster):
    config = load_config(write_config(tmp_path, quick_config(deals=6, per_task=1)))
    run_tournament(config, tmp_path / "run", progress=False)
    inodes = _socket_inodes(_process_tree(os.getpid()))
    peers = _remote_peers(inodes)
    assert peers, "expected the driver and Ray's processes to be connected to each other"
    outside = [str(p) for p in peers if not p.is_loopback]
    assert outside == []


LISTENING = "0A"


def _listening_addresses(inodes: set[str]) -> list:
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes and fields[3] == LISTENING:
                found.append(_decode(fields[1]))
    return found


def test_an_embedded_run_listens_on_loopback_only(tmp_path):
    """The console script, as README runs it: every port of the run is on loopback."""
    if loopback_environment(EMBEDDED_HOST) == {}:
        pytest.skip("no C compiler here to build the bind shim")  # documented fallback
    config = write_config(tmp_path, quick_config(deals=30, per_task=1))
    command = [str(Path(sys.executable).with_name("whist-sim")), "run", str(config),
               "--out", str(tmp_path / "run"), "--no-progress", "--workers", "2"]
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", HOST_VARIABLE)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    listening: set[str] = set()
    try:
        while process.poll() is None:
            inodes = _socket_inodes(_process_tree(process.pid))
            listening |= {str(a) for a in _listening_addresses(inodes)}
            time.sleep(0.1)
        _, stderr = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, stderr[-2000:]
    assert listening, "expected to see the run's Ray ports"
    assert all(ipaddress.ip_address(a).is_loopback for a in listening), listening
