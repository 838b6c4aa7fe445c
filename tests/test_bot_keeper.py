"""The bot's keeper (Linux): a subreaper between the engine and the bot, invisible to both.

The bot sees the environment, pipes and signals it saw without one; the engine sees the
bot's own exit; the engine never becomes a subreaper itself; and what the bot left (a
daemon's double fork) ends whether the bot exits, is ended, stops its keeper, or the
engine dies. The double fork in a run is tested beside the other escapes, in
test_bots_in_tournaments.py.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys

import pytest

from tests.test_bots_in_tournaments import (
    _daemon_pids,
    _ends_within,
    double_forking_bot,
    random_bot_after,
)
from whist_sim.protocol import BotHandshakeError, BotStartError, ProcessStrategy

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="subreapers are Linux's")

PR_GET_CHILD_SUBREAPER = 37


def _keeper_of(strategy: ProcessStrategy) -> int:
    """The pid of the process the engine started: the keeper."""
    process = strategy._spares[0].process
    assert process.kept
    return process.popen.pid


def _assert_ends(pid: int, what: str) -> None:
    if not _ends_within(pid, 5):
        os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"{what} outlived it")


def test_the_engine_itself_never_becomes_a_subreaper(tmp_path):
    """Ray and the command line start children of their own: orphans of theirs must not
    be handed to the engine's process."""
    bot = random_bot_after(tmp_path / "plain.sh", "")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        flag = ctypes.c_int(-1)
        assert ctypes.CDLL(None).prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
        assert flag.value == 0


def test_a_bot_gets_exactly_the_environment_it_was_given(tmp_path):
    """The keeper is Python, which adds ``LC_CTYPE`` to its own environment when the
    locale is C: the bot gets the environment the engine gave, not the keeper's."""
    seen = tmp_path / "env"
    bot = random_bot_after(tmp_path / "env.sh", f"env > {seen}")
    given = {"PATH": os.environ["PATH"], "BOT_SETTING": "a b=c"}
    with ProcessStrategy([str(bot)], env=given) as strategy:
        strategy.start()
    lines = set(seen.read_text().splitlines())
    assert {"BOT_SETTING=a b=c", f"PATH={given['PATH']}"} <= lines
    assert not [line for line in lines if line.startswith(("LC_", "PYTHON"))], lines


def test_a_bot_killed_by_a_signal_is_reported_killed_by_that_signal(tmp_path):
    bot = random_bot_after(tmp_path / "segv.sh", "kill -SEGV $$")
    with pytest.raises(BotHandshakeError) as raised:
        ProcessStrategy([str(bot)], label="segv").start()
    assert "was killed by SIGSEGV" in str(raised.value), raised.value


def test_a_command_the_kernel_cannot_run_is_named_as_popen_named_it(tmp_path):
    script = tmp_path / "no_shebang"
    script.write_bytes(b"\x7fELF not really\n")
    script.chmod(0o755)
    with pytest.raises(BotStartError) as raised:
        ProcessStrategy([str(script)], label="odd").start()
    assert f"cannot be started: [Errno 8] Exec format error: '{script}'" in str(raised.value)


def test_a_bot_that_stops_its_keeper_leaves_nothing_behind(tmp_path):
    """A bot of the same user can stop its keeper (SIGSTOP): its daemon is then still
    the keeper's child, found below it, and the keeper's group is killed after
    ``KEEPER_SWEEP_SECONDS``."""
    bot, pid_file = double_forking_bot(tmp_path, "kill -STOP $PPID")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        keeper = _keeper_of(strategy)
        [daemon] = _daemon_pids(pid_file)
        with open(f"/proc/{keeper}/stat") as stat:
            assert stat.read().rsplit(")", 1)[1].split()[0] == "T"  # stopped
    _assert_ends(daemon, "the daemon of a bot that stopped its keeper")
    _assert_ends(keeper, "the stopped keeper")


ENGINE = """
import sys, time
from whist_sim.protocol import ProcessStrategy
strategy = ProcessStrategy([sys.argv[1]])
strategy.start()
print(strategy._spares[0].process.popen.pid, flush=True)
time.sleep(300)
"""


def test_when_the_engine_dies_the_keeper_ends_the_bot_and_its_daemon(tmp_path):
    """The keeper's parent-death signal is SIGTERM, which it takes to end what it holds
    (the bot's SIGKILL, as before, would have left the daemon)."""
    bot, pid_file = double_forking_bot(tmp_path, "")
    engine = subprocess.Popen([sys.executable, "-c", ENGINE, str(bot)], stdout=subprocess.PIPE,
                              text=True)
    try:
        keeper = int(engine.stdout.readline())
        [daemon] = _daemon_pids(pid_file)
        engine.kill()
        engine.wait()
        _assert_ends(daemon, "the daemon of a bot whose engine died")
        _assert_ends(keeper, "the keeper of an engine that died")
    finally:
        engine.kill()
        engine.wait()
        engine.stdout.close()


NOBODY = 65534


def _python_for(uid: int) -> str | None:
    """A Python 3.11 or later another user can run (the engine's may be in a private
    home), or None."""
    import shutil

    for name in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3")):
        if name and os.path.exists(name):
            probe = subprocess.run([name, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                                   user=uid, group=uid, capture_output=True, text=True)
            if probe.stdout.strip() == "True":
                return name
    return None


@pytest.mark.parametrize("contained", [False, True], ids=["plain", "contained"])
def test_the_keeper_starts_a_bot_for_a_user_that_is_not_root(contained):
    """Every user but root: a keeper that is not dumpable cannot read its own
    ``/proc/self/environ`` (owned by root then), so it must read it first (it read it
    after, and no bot of a user other than root started)."""
    from whist_sim.protocol.bot_containment import hidden_argument
    from whist_sim.protocol.bot_process import KEEPER

    if os.geteuid() != 0:
        pytest.skip("runs the keeper as another user, which takes root")
    python = _python_for(NOBODY)
    if python is None or subprocess.run([python, "-I", "-S", "-c", f"open({str(KEEPER)!r})"],
                                        user=NOBODY, group=NOBODY).returncode:
        pytest.skip("no Python, or not this checkout, that another user can read")
    status_r, status_w = os.pipe()
    contain = ["--contain", hidden_argument([])] if contained else []
    done = subprocess.run([python, "-I", "-S", str(KEEPER), str(status_w), *contain,
                           "/bin/sh", "-c", "echo bot ran as $(id -u)"],
                          user=NOBODY, group=NOBODY, extra_groups=[], pass_fds=(status_w,),
                          capture_output=True, text=True, timeout=30)
    os.close(status_w)
    said = os.read(status_r, 4096)
    os.close(status_r)
    assert done.returncode == 0, done.stderr + said.decode()
    assert done.stdout == f"bot ran as {NOBODY}\n"



STOPPED_AFTER_THE_BOT_ENDS = """
import importlib.util, os, signal, sys
at, told, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
os.set_inheritable(told, False)  # the bot does not hold it open
spec = importlib.util.spec_from_file_location("bot_keeper", path)
keeper = importlib.util.module_from_spec(spec)
spec.loader.exec_module(keeper)
real_waitpid = os.waitpid
lines = None  # lines the keeper has run since it reaped the bot

def waitpid(pid, options):
    global lines
    reaped, status = real_waitpid(pid, options)
    if reaped and reaped == keeper._bot and lines is None:
        lines = 0
    return reaped, status

def trace(frame, event, arg):
    global lines
    if event == "line" and lines is not None:
        lines += 1
        if lines == at:  # the engine's SIGTERM lands here
            os.write(told, b"told")
            os.kill(os.getpid(), signal.SIGTERM)
    return trace

os.waitpid = waitpid
sys.settrace(trace)
keeper.main(sys.argv[4:])
"""


def _keeper_told_to_stop_at(line: int) -> tuple[int, bool]:
    """Run a keeper whose bot kills itself (SIGKILL), and tell the keeper to stop
    (SIGTERM) at the ``line``-th line of Python it runs after reaping the bot: how it
    exited, and whether it got that far before exiting."""
    from whist_sim.protocol.bot_process import KEEPER

    status_r, status_w = os.pipe()
    told_r, told_w = os.pipe()
    keeper = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", STOPPED_AFTER_THE_BOT_ENDS, str(line), str(told_w),
         str(KEEPER), str(status_w), "sh", "-c", "kill -KILL $$"],
        pass_fds=(status_w, told_w))
    os.close(status_w)
    os.close(told_w)
    try:
        assert os.read(status_r, 64) == b""  # the bot's command ran
        code = keeper.wait(10)
        return code, os.read(told_r, 64) == b"told"
    finally:
        os.close(status_r)
        os.close(told_r)
        keeper.kill()
        keeper.wait()


def test_a_keeper_told_to_stop_after_its_bot_ended_exits_as_the_bot_did():
    """The supervisor ends a bot past its limits by killing it (SIGKILL), then tells its
    keeper to stop (SIGTERM). Under a full test run's load that SIGTERM once reached the
    keeper just after it had reaped the bot, outside the code that caught it: the keeper
    died of it with code 1, and the forfeit said the bot "exited with code 1" where it was
    killed. Here the SIGTERM lands at each line the keeper runs after reaping, in turn,
    until the keeper exits first: it always exits as its bot did."""
    exits = {}
    for line in range(1, 2000):
        code, told = _keeper_told_to_stop_at(line)
        if not told:
            break
        exits[line] = code
    else:
        raise AssertionError("the keeper ran 2,000 lines after its bot ended")
    wrong = {line: code for line, code in exits.items() if code != -signal.SIGKILL}
    assert exits and not wrong, f"exit codes by the line told at: {wrong}"
