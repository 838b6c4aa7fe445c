"""Contained bots (``tournament.contain_bots``): what a hostile bot did, it cannot do.

Red-team bots found the root seed in the config and rebuilt every deal, killed their
isolated opponent through ``/proc`` at every deal, wrote into the run, and left daemons
behind. Contained (``whist_sim.protocol.bot_containment``), each probe below tries one
of those from inside the bot and reports what it found on stderr.

These tests need a kernel that lets an unprivileged process make namespaces; on a
machine that refuses, they are skipped saying so, and the refusal's own error is
tested by making such a machine inside a user namespace (the last test).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tournament_helpers import assert_same_rows, run_rows, write_config
from whist_sim.protocol import BotCrashed, BotError, BotStartError, ProcessStrategy
from whist_sim.protocol.bot_process import KEEPER_SWEEP_SECONDS, CannotContain
from whist_sim.reports.run_section import run_section
from whist_sim.store import RunFolder
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]

PROBE = """\
import json, os, socket, sys
from whist_sim.protocol.client import registry_factory, run_bot

def probe(paths, victim):
    found = {"pids": sorted(int(e) for e in os.listdir("/proc") if e.isdigit()),
             "me": os.getpid(), "tmpdir": os.environ.get("TMPDIR")}
    for path in paths:
        try:
            if os.path.isdir(path):
                found[path] = sorted(os.listdir(path))
            else:
                with open(path, "rb") as handle:
                    found[path] = len(handle.read())
        except OSError as exc:
            found[path] = type(exc).__name__
    for name, where in (("cwd", "probe_was_here"),
                        ("tmpdir", os.path.join(os.environ.get("TMPDIR") or "/tmp", "mine"))):
        try:
            with open(where, "w") as handle:
                handle.write("x")
            found["write " + name] = "ok"
        except OSError as exc:
            found["write " + name] = exc.strerror
    try:
        os.kill(victim, 0)
        found["signal"] = "delivered"
    except OSError as exc:
        found["signal"] = type(exc).__name__
    port = int(os.environ.get("PROBE_PORT") or 9)
    try:
        socket.create_connection(("127.0.0.2", port), timeout=2).close()
        found["network"] = "connected"
    except OSError as exc:
        found["network"] = exc.strerror
    service = os.environ.get("PROBE_UNIX")
    if service:
        try:
            with socket.socket(socket.AF_UNIX) as unix:
                unix.settimeout(2)
                unix.connect(service)
            found["unix"] = "connected"
        except OSError as exc:
            found["unix"] = exc.strerror
    print("PROBE " + json.dumps(found), file=sys.stderr, flush=True)

probe(sys.argv[2:], int(sys.argv[1]))
sys.exit(run_bot(registry_factory("random"), name="probe", version="1"))
"""


def _contained_or_skip() -> None:
    """Skip where the kernel refuses what containment needs (the refusal is tested below)."""
    try:
        with ProcessStrategy([sys.executable, "-c", "pass"], contain=[]) as bot:
            bot.start()
    except BotStartError as exc:
        if "could not be contained" in str(exc):
            pytest.skip(f"this machine refuses containment: {exc}")
    except BotError:  # "pass" says no hello: containment itself worked
        pass


@pytest.fixture(scope="module")
def contained() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("containment uses Linux namespaces")
    _contained_or_skip()


def _probe(tmp_path: Path, paths: list[Path], hidden: list[Path], victim: int = 1,
           env: dict[str, str] | None = None) -> dict:
    """What the probe found from inside a contained bot, given ``paths`` to look at."""
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    log = tmp_path / "stderr.log"
    with ProcessStrategy([sys.executable, str(script), str(victim), *map(str, paths)],
                         game="german_whist", cwd=tmp_path, stderr_path=log,
                         contain=[str(path) for path in hidden],
                         env=None if env is None else {**os.environ, **env}) as bot:
        bot.start()
    line = next(line for line in log.read_text().splitlines() if "PROBE " in line)
    return json.loads(line.split("PROBE ", 1)[1])


def test_a_contained_bot_sees_no_process_but_its_own(tmp_path, contained):
    found = _probe(tmp_path, [], [])
    assert found["me"] == 2, found  # its init is process 1
    assert os.getpid() not in found["pids"] or os.getpid() <= 2
    assert len(found["pids"]) <= 3, found  # init, the bot, at most a child of its start-up


def test_a_contained_bot_cannot_signal_a_process_outside(tmp_path, contained):
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        found = _probe(tmp_path, [], [], victim=victim.pid)
        assert found["signal"] == "ProcessLookupError", found
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()


def test_the_paths_hidden_from_a_contained_bot_read_empty(tmp_path, contained):
    secret_folder = tmp_path / "run"
    secret_folder.mkdir()
    (secret_folder / "run.json").write_text('{"seed": 12345}')
    secret_file = tmp_path / "config.toml"
    secret_file.write_text("seed = 12345\n")
    public = tmp_path / "public.txt"
    public.write_text("hello")
    found = _probe(tmp_path, [secret_folder, secret_file, public], [secret_folder, secret_file])
    assert found[str(secret_folder)] == [], found
    assert found[str(secret_file)] == 0, found
    assert found[str(public)] == 5, found  # the rest of the machine reads as before


def test_a_contained_bot_writes_only_to_a_folder_of_its_own(tmp_path, contained):
    found = _probe(tmp_path, [], [])
    assert found["write cwd"] == "Read-only file system", found
    assert not (tmp_path / "probe_was_here").exists()
    assert found["tmpdir"] == "/dev/shm" and found["write tmpdir"] == "ok", found
    assert not Path("/dev/shm/mine").exists()  # its /dev/shm is its own


def test_a_contained_bot_reaches_no_listening_socket(tmp_path, contained):
    with socket.socket() as listener:
        listener.bind(("127.0.0.2", 0))
        listener.listen()
        port = listener.getsockname()[1]
        found = _probe(tmp_path, [], [], env={"PROBE_PORT": str(port)})
    assert found["network"] == "Network is unreachable", found


def test_a_contained_bot_reaches_no_unix_socket_of_the_machine(tmp_path, contained):
    """A Unix socket is reached by its path, whatever the network namespace, and a
    read-only file system does not stop a connect: Ray's raylet listens on one in
    /tmp/ray, and through it a bot could have reached past its namespaces."""
    path = tmp_path / "service.sock"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        listener.listen()
        found = _probe(tmp_path, [], [], env={"PROBE_UNIX": str(path)})
        with socket.socket(socket.AF_UNIX) as outside:  # uncontained, it is reachable
            outside.connect(str(path))
    assert found["unix"] == "Connection refused", found


def _alive_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                pass
    return found


def test_a_daemon_a_contained_bot_leaves_behind_ends_with_it(tmp_path, contained):
    marker = f"whist-contained-daemon-{os.getpid()}"
    script = tmp_path / "daemon.py"
    script.write_text(
        "import os, subprocess, sys\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv(sys.executable, [sys.executable, '-c',"
        f" 'import time; time.sleep(120)', {marker!r}])\n"
        "    os._exit(0)\n"
        "from whist_sim.protocol.client import registry_factory, run_bot\n"
        "sys.exit(run_bot(registry_factory('random'), name='d', version='1'))\n")
    with ProcessStrategy([sys.executable, str(script)], game="german_whist",
                         contain=[]) as bot:
        bot.start()
        deadline = time.monotonic() + 10
        while not _alive_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _alive_with(marker), "the daemon never started"
    deadline = time.monotonic() + 5 * KEEPER_SWEEP_SECONDS
    while _alive_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive_with(marker) == []


def test_a_contained_bot_killed_by_a_signal_is_said_to_be_so(tmp_path, contained):
    """Its init cannot end itself by the bot's signal, so it tells the keeper."""
    import random

    from whist_sim.games import make_game

    script = tmp_path / "dies.py"
    script.write_text(
        "import json, os, signal, sys\n"
        "sys.stdin.readline()\n"
        "print(json.dumps({'type': 'hello', 'name': 'dies', 'version': '1',"
        " 'protocol': '1.0', 'games': ['german_whist']}), flush=True)\n"
        "sys.stdin.readline(); sys.stdin.readline()\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    state = make_game("german_whist").new_deal(3, 0)
    with (ProcessStrategy([sys.executable, str(script)], label="dies", contain=[],
                          time_limit=5.0) as bot, pytest.raises(BotCrashed) as raised):
        bot.choose(state.view(state.to_act), random.Random(1))
    assert "was killed by SIGKILL" in str(raised.value), raised.value


CONFIG = """
[tournament]
game = "german_whist"
deals = 4
seed = 8191
deals_per_task = 2
contain_bots = {contain}

[[strategies]]
use = "process"
command = ["{python}", "{probe}", "1", "{run}", "{config}"]
cwd = "{cwd}"
label = "probe"

[[strategies]]
use = "heuristic"
label = "h"
"""


def test_contained_bots_play_the_same_rows_and_never_read_the_run(tmp_path, contained):
    (tmp_path / "probe.py").write_text(PROBE)
    runs = {}
    for contain in ("false", "true"):
        run = tmp_path / f"run-{contain}"
        path = tmp_path / f"{contain}.toml"
        body = CONFIG.format(contain=contain, python=sys.executable, probe=tmp_path / "probe.py",
                             run=run, config=path, cwd=tmp_path)
        config = load_config(write_config(tmp_path, body, path.name))
        summary = run_tournament(config, run, workers=0, progress=False)
        assert summary.status == "complete"
        runs[contain] = run
    assert_same_rows(run_rows(runs["false"]), run_rows(runs["true"]))
    probes = [json.loads(line.split("PROBE ", 1)[1]) for line in
              (runs["true"] / "logs" / "output" / "probe (stderr).log").read_text().splitlines()
              if "PROBE " in line]
    assert probes, "the contained probe reported nothing"
    for found in probes:
        assert found[str(runs["true"])] in ([], "FileNotFoundError"), found
        assert found[str(tmp_path / "true.toml")] == 0, found
    for contain, said in (("true", "yes: each in namespaces of its own"),
                          ("false", "no: they ran as your user")):
        with RunFolder.open(runs[contain], verify=False) as folder:
            rows = dict(run_section(folder, folder.meta()).tables[0].rows)
        assert rows["bots contained"].startswith(said), rows
    uncontained = (runs["false"] / "logs" / "output" / "probe (stderr).log").read_text()
    assert any(json.loads(line.split("PROBE ", 1)[1])[str(tmp_path / "false.toml")] > 0
               for line in uncontained.splitlines() if "PROBE " in line)


def test_contain_bots_takes_true_or_false(tmp_path):
    body = CONFIG.format(contain='"yes"', python=sys.executable, probe="probe.py", run="r",
                         config="c", cwd=tmp_path)
    with pytest.raises(ConfigError) as raised:
        load_config(write_config(tmp_path, body))
    assert "tournament.contain_bots" in str(raised.value)
    assert "allowed values: true, false" in str(raised.value)


REFUSING_MACHINE = """\
import ctypes, os, sys
uid, gid = os.getuid(), os.getgid()
if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) != 0:
    print("SKIP cannot make a user namespace"); sys.exit(0)
open("/proc/self/setgroups", "w").write("deny")
open("/proc/self/uid_map", "w").write(f"0 {uid} 1")
open("/proc/self/gid_map", "w").write(f"0 {gid} 1")
open("/proc/sys/user/max_user_namespaces", "w").write("0")  # a machine that refuses them
from whist_sim.protocol import BotStartError, ProcessStrategy
try:
    with ProcessStrategy([sys.executable, "-c", "pass"], label="bot", contain=[]) as bot:
        bot.start()
except BotStartError as exc:
    print("ERROR", exc)
"""


def test_a_machine_that_refuses_namespaces_says_what_to_change(tmp_path, contained):
    said = subprocess.run([sys.executable, "-c", REFUSING_MACHINE], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert "ERROR" in said.stdout, said.stdout + said.stderr
    error = said.stdout.split("ERROR", 1)[1]
    assert "could not be contained (tournament.contain_bots)" in error
    assert "unshare(CLONE_NEWUSER | CLONE_NEWPID)" in error
    assert "user.max_user_namespaces" in error
    assert "tournament.contain_bots = false" in error


def test_containment_off_linux_is_refused_by_name(monkeypatch, tmp_path):
    from whist_sim.protocol import bot_process

    monkeypatch.setattr(bot_process, "_keeper_command", lambda: None)
    with pytest.raises(CannotContain) as raised:
        bot_process.BotProcess([sys.executable, "-c", "pass"], cwd=None, env=None,
                               log=bot_process.LineLog(None, 1000, in_memory=True), tag="x",
                               tail_lines=5, contain=[])
    assert "containment uses Linux namespaces" in str(raised.value)


def test_a_resumed_contained_run_still_hides_the_config_it_was_started_from(
        tmp_path, contained, monkeypatch):
    """A resume reads the config from run.json; the file it was started from is
    recorded there (``config_files``), or its bots could have read the root seed in it."""
    from tests.tournament_helpers import interrupt_in_process_at
    from whist_sim.tournament.runner import resume_tournament

    (tmp_path / "probe.py").write_text(PROBE)
    run, path = tmp_path / "run", tmp_path / "started.toml"
    body = CONFIG.format(contain="true", python=sys.executable, probe=tmp_path / "probe.py",
                         run=run, config=path, cwd=tmp_path).replace("deals = 4", "deals = 8")
    config = load_config(write_config(tmp_path, body, path.name))
    interrupt_in_process_at(monkeypatch, 2)
    assert run_tournament(config, run, workers=0, progress=False).status == "interrupted"
    monkeypatch.undo()
    assert json.loads((run / "run.json").read_text())["config_files"] == [str(path)]
    log = run / "logs" / "output" / "probe (stderr).log"
    before = log.read_text().count("PROBE ")
    assert resume_tournament(run, workers=0, progress=False).status == "complete"
    probes = [json.loads(line.split("PROBE ", 1)[1])
              for line in log.read_text().splitlines() if "PROBE " in line]
    assert len(probes) > before, "the resumed session started no bot"
    assert all(found[str(path)] == 0 for found in probes), probes
