"""Bots as entrants: use = "process" and isolate = true in a tournament.

The same strategy gives the same rows in process, isolated, and as an external program
that mirrors it (the Python client wrapping heuristic and random); bots in C and
JavaScript play every game; a bot that cannot start forfeits its deals with one clear
line and is benched, while the other pairings play on.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from tests.tournament_helpers import assert_same_rows, run_rows, write_config
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "examples" / "bots"

GERMAN = """
[tournament]
game = "{game}"
deals = {deals}
seed = 17
deals_per_task = 4
{players}

[[strategies]]
{first}
label = "h"

[[strategies]]
{second}
label = "r"

[[strategies]]
use = "heuristic"
label = "baseline"
"""


def _not_of_the_seed(warnings: list[str]) -> list[str]:
    """The warnings but the one of a small root seed (these configs keep theirs small)."""
    return [line for line in warnings if "tournament.seed" not in line]


def random_bot_after(script: Path, shell: str) -> Path:
    """A bot program at ``script``: ``shell`` lines, then the Python random bot."""
    script.write_text(f"#!/bin/sh\n{shell}\nexec {sys.executable} {BOTS}/python_random_bot.py\n")
    script.chmod(0o755)
    return script


def _play(tmp_path: Path, name: str, first: str, second: str, game: str = "german_whist",
          deals: int = 6, players: str = "", workers: int | None = 0):
    body = GERMAN.format(game=game, deals=deals, first=first, second=second, players=players)
    config = load_config(write_config(tmp_path, body, f"{name}.toml"))
    summary = run_tournament(config, tmp_path / name, workers=workers, progress=False)
    assert summary.status == "complete"
    return config, summary


IN_PROCESS = ('use = "heuristic"', 'use = "random"')
ISOLATED = ('use = "heuristic"\nisolate = true', 'use = "random"\nisolate = true')
EXTERNAL = (f'use = "process"\ncommand = ["{sys.executable}", "{BOTS}/python_heuristic_bot.py"]',
            f'use = "process"\ncommand = ["{sys.executable}", "{BOTS}/python_random_bot.py"]')


@pytest.mark.parametrize(("game", "ways"), [("german_whist", (ISOLATED, EXTERNAL)),
                                           ("solo_whist", (EXTERNAL,))])
@pytest.mark.slow
def test_in_process_isolated_and_external_give_the_same_rows(tmp_path, game, ways):
    """Solo Whist is played one way behind the protocol, as an external program: how an
    entrant comes to be behind it (``isolate = true`` or ``use = "process"``) is the
    config's, not the game's, and German Whist plays both. A run of Solo Whist behind
    the protocol starts some 38 bot processes (none is dealt a hand twice): 17 s a way."""
    _, here = _play(tmp_path, "here", *IN_PROCESS, game=game)
    rows = run_rows(here.path)
    assert (rows["deals"]["status"] == "ok").all()
    for number, way in enumerate(ways):
        _, behind = _play(tmp_path, f"way{number}", *way, game=game)
        assert_same_rows(rows, run_rows(behind.path))


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> Path:
    compiler = shutil.which("gcc") or shutil.which("cc")
    assert compiler, "the C reference bot needs a C compiler (gcc is in CI)"
    binary = tmp_path_factory.mktemp("cbot") / "simple_bot"
    subprocess.run([compiler, "-O2", "-std=c99", "-o", str(binary),
                    str(BOTS / "c" / "simple_bot.c")], check=True, capture_output=True)
    return binary


@pytest.mark.parametrize(
    ("game", "players"),
    [("german_whist", ""), ("solo_whist", ""), ("minnesota_whist", ""),
     ("knockout_whist", "players = 4")],
)
@pytest.mark.slow
def test_c_and_javascript_bots_play_every_game_on_ray(tmp_path, c_bot, game, players,
                                                      ray_cluster):
    assert shutil.which("node"), "the JavaScript reference bot needs node (it is in CI)"
    first = f'use = "process"\ncommand = ["{c_bot}"]'
    second = f'use = "process"\ncommand = ["node", "{BOTS}/js/simple_bot.js"]'
    _, summary = _play(tmp_path, game, first, second, game=game, deals=3, players=players,
                       workers=2)
    deals = run_rows(summary.path)["deals"]
    assert (deals["status"] == "ok").all(), deals.filter(pl.col("status") != "ok")["error"]
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["strategies"]["h"]["source"]["command"] == [str(c_bot)]
    assert meta["strategies"]["h"]["source"]["sha256"][str(c_bot)]


def test_a_bot_slower_to_start_than_the_time_limit_plays_every_deal(tmp_path):
    """Its start-up is the handshake's (10 s), not a decision's: started inside its first
    decision, a bot that loads for longer than time_limit timed out there, was ended, and
    started again in the next deal's first decision, forfeiting every deal."""
    slow = random_bot_after(tmp_path / "slow_bot.sh", "sleep 0.8")
    body = GERMAN.format(game="german_whist", deals=3, players="time_limit = 0.5",
                         first=f'use = "process"\ncommand = ["{slow}"]',
                         second='use = "random"')
    config = load_config(write_config(tmp_path, body, "slow.toml"))
    summary = run_tournament(config, tmp_path / "slow", workers=0, progress=False)
    deals = run_rows(summary.path)["deals"]
    assert (deals["status"] == "ok").all(), deals.filter(pl.col("status") != "ok")["error"]


def test_a_bot_that_cannot_start_forfeits_with_one_line_and_is_benched(tmp_path):
    """A bot that cannot start when the config is read stops the run there
    (tests/test_bad_input.py); one removed after (its program deleted) forfeits each deal
    with the reason and is benched, while the other pairing plays on."""
    bot = random_bot_after(tmp_path / "no-such-bot", "")
    body = GERMAN.format(game="german_whist", deals=8, players="", second='use = "random"',
                         first=f'use = "process"\ncommand = ["{bot}"]')
    config = load_config(write_config(tmp_path, body, "missing.toml"))
    assert _not_of_the_seed(config.warnings) == []  # it started when the config was read
    bot.unlink()
    summary = run_tournament(config, tmp_path / "missing", workers=0, progress=False)
    assert summary.status == "complete"
    deals = run_rows(summary.path)["deals"]
    with_bot = deals.filter(pl.col("strategies").list.contains("h"))
    errors = with_bot["error"].to_list()
    assert all(error is not None for error in errors)
    assert "(h)" in errors[0] and "no-such-bot" in errors[0]  # the entrant and the command
    assert any("benched after 10 forfeits" in error for error in errors)
    others = deals.filter(~pl.col("strategies").list.contains("h"))
    assert (others["status"] == "ok").all()  # the other pairing plays on
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["benched"]["h"]["forfeits"] == 10


@pytest.mark.parametrize(("module", "reason"), [
    (None, r"cannot import 'no_such_isolated_module' \(No module named"),
    ("raise RuntimeError('no licence key')\n",
     r"importing 'bad_isolated_plugin' raised RuntimeError: no licence key"),
])
def test_an_isolated_strategy_that_cannot_be_imported_stops_the_run_before_any_deal(
    tmp_path, module, reason
):
    """As it does played in the workers: one line naming the entry and why, not a
    warning, a traceback and every one of its deals forfeited (a newcomer probe ran the
    configs page's example, whose plug-in does not exist, to the end with exit code 0)."""
    from whist_sim.tournament.config import ConfigError

    name = "no_such_isolated_module" if module is None else "bad_isolated_plugin"
    if module is not None:
        (tmp_path / f"{name}.py").write_text(module)
    first = f'use = "{name}:Mine"\nisolate = true\ncwd = "{tmp_path}"'
    body = GERMAN.format(game="german_whist", deals=2, first=first, second='use = "random"',
                         players="")
    with pytest.raises(ConfigError, match=r"bad\.toml: strategies\[0\] \(h\): strategy"
                       rf" '{name}:Mine': {reason}") as refused:
        load_config(write_config(tmp_path, body, "bad.toml"))
    assert "Traceback" not in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(("first", "reason"), [
    ('use = "pimc"\nparams = { worlds = -3 }',
     r"cannot build the strategy for german_whist: strategy 'pimc': parameter 'worlds' must"
     r" be a whole number >= 1, not -3"),
    ('use = "random"\nparams = { wolds = 3 }',
     r"cannot build the strategy for german_whist: strategy 'random': unknown parameter"
     r" 'wolds'"),
    ('use = "strategies.solo_heuristic:SoloHeuristic"',
     r"strategies\.solo_heuristic:SoloHeuristic cannot play what it is entered for: it plays"
     r" solo_whist, not german_whist"),
], ids=["a bad value", "an unknown parameter", "another game"])
def test_an_isolated_entry_refused_in_process_is_refused_before_any_deal(tmp_path, first,
                                                                          reason):
    """A plug-in author's probe: each of these stops a run in process in one line, and
    isolated it played on, every hand a forfeit ("reported an error in reply to hello")."""
    from whist_sim.tournament.config import ConfigError

    body = GERMAN.format(game="german_whist", deals=2, first=f"{first}\nisolate = true",
                         second='use = "random"', players="")
    with pytest.raises(ConfigError, match=rf"bad\.toml: strategies\[0\] \(h\): {reason}"
                       ) as refused:
        load_config(write_config(tmp_path, body, "bad.toml"))
    assert "\n" not in str(refused.value)


def test_a_bot_whose_hello_leaves_out_the_game_is_refused_after_one_start(tmp_path):
    """Its hello is a definite answer: the config was refused with "started twice when the
    config was read, it failed both times", the bot started a second time for nothing."""
    from whist_sim.tournament.config import ConfigError

    starts = tmp_path / "starts.log"
    script = tmp_path / "solo_only.py"
    script.write_text(
        "import json, sys\n"
        f"open({str(starts)!r}, 'a').write('started\\n')\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line).get('type') == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'name': 'solo_only', 'version': '1',"
        " 'protocol': '1.0', 'games': ['solo_whist']}), flush=True)\n"
    )
    first = f'use = "process"\ncommand = [{sys.executable!r}, {str(script)!r}]'
    body = GERMAN.format(game="german_whist", deals=2, first=first, second='use = "random"',
                         players="")
    with pytest.raises(ConfigError, match=r"bad\.toml: strategies\[0\] \(h\): .*cannot play"
                       r" what it is entered for: it plays solo_whist, not german_whist"
                       ) as refused:
        load_config(write_config(tmp_path, body, "bad.toml"))
    assert "started twice" not in str(refused.value)
    assert starts.read_text().splitlines() == ["started"]


@pytest.mark.slow
def test_a_bots_stderr_is_kept_in_the_run_folder(tmp_path):
    script = tmp_path / "chatty.py"
    script.write_text(
        "import sys\n"
        "from whist_sim.protocol.client import registry_factory, run_bot\n"
        "print('chatty bot starting', file=sys.stderr)\n"
        "sys.exit(run_bot(registry_factory('random'), name='chatty', version='1'))\n"
    )
    chatty = f'use = "process"\ncommand = ["{sys.executable}", "{script}"]'
    _, summary = _play(tmp_path, "chatty", chatty, 'use = "random"', deals=2)
    log = summary.path / "logs" / "output" / "h (stderr).log"
    assert "chatty bot starting" in log.read_text()


def test_process_keys_are_checked_before_any_work(tmp_path):
    from whist_sim.tournament.config import ConfigError

    for first, fragment in [
        ('use = "process"', "needs command"),
        ('use = "process"\ncommand = ["x"]\nisolate = false', "isolate = false"),
        ('use = "heuristic"\ncommand = ["x"]', "command applies only"),
        ('use = "heuristic"\ncwd = "/tmp"', "cwd apply only"),
    ]:
        body = GERMAN.format(game="german_whist", deals=2, first=first,
                             second='use = "random"', players="")
        with pytest.raises(ConfigError, match=fragment):
            load_config(write_config(tmp_path, body, "bad.toml"))


@pytest.mark.parametrize("how", ["c bot", "isolated heuristic", "missing bot"])
@pytest.mark.slow
def test_check_accepts_the_same_entries(c_bot, how):
    from whist_sim.checking import StrategyCheckError, check_entrant

    if how == "missing bot":
        with pytest.raises(StrategyCheckError, match="no-such-bot"):
            check_entrant("process", command="./no-such-bot", deals=1)
        return
    report = (check_entrant("process", command=str(c_bot), deals=1) if how == "c bot"
              else check_entrant("heuristic", isolate=True, deals=1))
    assert set(report.games) == {"german_whist", "solo_whist", "minnesota_whist",
                                 "knockout_whist"}
    assert report.decisions > 0


def test_what_a_bot_started_in_the_background_ends_with_it(tmp_path):
    """Its process group is ended even when the bot quit as asked: the background child
    was left running after the run."""
    import os

    from whist_sim.protocol import ProcessStrategy

    pid_file = tmp_path / "child.pid"
    bot = random_bot_after(tmp_path / "forks.sh", f"sleep 300 &\necho $! > {pid_file}")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        child = int(pid_file.read_text())
        os.kill(child, 0)  # running while the bot runs
    if not _ends_within(child, 5):
        raise AssertionError("the bot's background child outlived it")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_background_child_in_a_process_group_of_its_own_ends_with_the_bot(tmp_path):
    """A probe's bot started a child in a process group of its own (``setpgid``) that
    outlived every run: ending the bot's group missed it. It is still in the bot's
    session, and the session's processes are ended with the bot."""
    import os

    from whist_sim.protocol import ProcessStrategy

    pid_file = tmp_path / "child.pid"
    bot = random_bot_after(tmp_path / "regroups.sh",
                           f"{sys.executable} -c 'import subprocess as s; print(s.Popen("
                           f"[\"sleep\", \"300\"], process_group=0, stdout=s.DEVNULL).pid)'"
                           f" > {pid_file}")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        child = int(pid_file.read_text())
        assert os.getpgid(child) != os.getsid(child)  # it left the bot's group, not its session
    if not _ends_within(child, 5):
        os.kill(child, 9)
        raise AssertionError("the bot's child in a group of its own outlived it")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_child_in_a_session_of_its_own_ends_with_the_bot_that_started_it(tmp_path):
    """A bot's child that started a session of its own (``setsid``) left the bot's group
    and session, and outlived the run. It is still the bot's child: the processes the
    bot started are found by their parents too, before it is asked to quit (a bot that
    quits leaves its children to init)."""
    import os

    from whist_sim.protocol import ProcessStrategy

    if shutil.which("setsid") is None:
        pytest.skip("no setsid program")
    pid_file = tmp_path / "child.pid"
    bot = random_bot_after(tmp_path / "leaves.sh", f"setsid sleep 300 &\necho $! > {pid_file}")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        child = int(pid_file.read_text())
        assert os.getsid(child) == child != os.getsid(os.getpid())  # a session of its own
    if not _ends_within(child, 5):
        os.kill(child, 9)
        raise AssertionError("the bot's child in a session of its own outlived it")


DAEMONIZE = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        with open(sys.argv[1] + ".tmp", "a") as pids:
            pids.write(f"{os.getpid()}\\n")
        os.replace(sys.argv[1] + ".tmp", sys.argv[1])
        time.sleep(300)
    os._exit(0)
os.wait()
"""
"""A daemon's double fork: fork, ``setsid``, fork, the middle child exits; the sleeper
writes its pid to the file named by its argument. Its parent is gone before the bot
runs on, so no parent chain leads from it to the bot."""


def double_forking_bot(tmp_path: Path, then: str) -> tuple[Path, Path]:
    """A bot that double-forks a daemon sleeper, then runs ``then`` (a sh line)."""
    daemonize = tmp_path / "daemonize.py"
    daemonize.write_text(DAEMONIZE)
    pid_file = tmp_path / "daemon.pid"
    return random_bot_after(tmp_path / "daemonizes.sh",
                            f"{sys.executable} {daemonize} {pid_file}\n{then}"), pid_file


def _daemon_pids(pid_file: Path) -> list[int]:
    deadline = time.monotonic() + 5
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return [int(line) for line in pid_file.read_text().split()]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_a_daemon_the_bot_double_forked_ends_with_the_bot(tmp_path):
    """A daemon's double fork left a sleeper whose parent had exited before anything
    looked for it, in a session of its own: it outlived every run. The bot's keeper is
    a subreaper: the sleeper is handed to it, and ended with the bot."""
    from whist_sim.protocol import ProcessStrategy

    bot, pid_file = double_forking_bot(tmp_path, "")
    with ProcessStrategy([str(bot)]) as strategy:
        strategy.start()
        [daemon] = _daemon_pids(pid_file)
        leader = os.getsid(daemon)  # a session of its own, whose leader, its parent, is gone
        assert leader != os.getsid(0) and not os.path.exists(f"/proc/{leader}")
        assert _running(daemon)
    if not _ends_within(daemon, 5):
        os.kill(daemon, 9)
        raise AssertionError("the daemon the bot double-forked outlived it")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_a_daemon_double_forked_by_a_bot_that_exits_ends_and_the_exit_is_reported(tmp_path):
    """A bot that double-forks and exits at once: its exit is reported as the bot's own
    (the keeper exits as the bot did), and the daemon does not outlive it."""
    from whist_sim.protocol import BotHandshakeError, ProcessStrategy

    bot, pid_file = double_forking_bot(tmp_path, "exit 3")
    with ProcessStrategy([str(bot)]) as strategy, pytest.raises(BotHandshakeError) as raised:
        strategy.start()
    assert "exited with code 3" in str(raised.value), raised.value
    [daemon] = _daemon_pids(pid_file)
    if not _ends_within(daemon, 5):
        os.kill(daemon, 9)
        raise AssertionError("the daemon of a bot that exited outlived it")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
@pytest.mark.parametrize("asked", [True, False], ids=["child asked to quit", "child ended"])
def test_daemons_bots_double_forked_end_with_the_run(tmp_path, monkeypatch, asked):
    """In a run (its timing sample's supervised child, then the run's own play), every
    daemon a bot double-forked ends: the bots asked to quit, or their supervised child
    ended and the keepers told to stop as it dies."""
    daemonize = tmp_path / "daemonize.py"
    daemonize.write_text(DAEMONIZE.replace('+ ".tmp", "a"', ', "a"').replace(
        'os.replace(sys.argv[1] + ".tmp", sys.argv[1])', ""))
    pids = tmp_path / "daemons.pid"
    alive = _still_running(_started_in_a_run(
        tmp_path, monkeypatch, asked, f"{sys.executable} {daemonize} {pids}", pids))
    for pid in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
    assert not alive, f"daemons double-forked by bots still running: {alive}"


def _started_in_a_run(tmp_path, monkeypatch, asked: bool, bot_line: str,
                      pids: Path) -> list[int]:
    """Play a run (its timing sample's supervised child, then the run's own play) whose
    bot runs ``bot_line`` before it plays, which writes the processes it starts to
    ``pids``; the child asked to quit its bots (``asked``) or ended. Those pids."""
    from whist_sim.tournament import sandbox

    if not asked:
        monkeypatch.setattr(sandbox, "CLOSE_SECONDS", 0.0)
    bot = random_bot_after(tmp_path / "starts_processes.sh", bot_line)
    body = GERMAN.format(game="german_whist", deals=2, players="",
                         first=f'use = "process"\ncommand = ["{bot}"]',
                         second='use = "random"').replace("deals_per_task = 4\n", "")
    config = load_config(write_config(tmp_path, body, "starts_processes.toml"))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) >= 2  # the sample's bots and the run's
    return started


def _still_running(pids: list[int], seconds: float = 5.0) -> list[int]:
    """Those of ``pids`` still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    alive = pids
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if _running(pid)]
        time.sleep(0.05)
    return alive


def _ends_within(pid: int, seconds: float) -> bool:
    """Whether process ``pid`` is gone within ``seconds``."""
    import os

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_new_run_starts_its_bots_for_validation_once(tmp_path):
    """run_tournament validated the config it was given a second time, starting every bot
    again (a bot that ignores its hello cost the handshake's 10 s twice)."""
    starts = tmp_path / "starts.log"
    bot = random_bot_after(tmp_path / "counted.sh", f"echo start >> {starts}")
    body = GERMAN.format(game="german_whist", deals=2, players="",
                         first=f'use = "process"\ncommand = ["{bot}"]', second='use = "random"')
    body = body[:body.index('[[strategies]]\nuse = "heuristic"\nlabel = "baseline"')]
    config = load_config(write_config(tmp_path, body, "counted.toml"))
    assert starts.read_text().count("start") == 1  # validation's handshake
    run_tournament(config, tmp_path / "counted", workers=0, progress=False)
    # then one process per seat it holds (seat 0, then seat 1 in the swapped seating) and
    # the fresh one kept ready for a deal none of a seat's processes may play again
    assert starts.read_text().count("start") == 4


@pytest.mark.parametrize("asked", [True, False], ids=["child asked to quit", "child ended"])
def test_a_bots_background_children_end_with_the_timing_samples_process(
        tmp_path, monkeypatch, asked):
    """The run's timing sample plays a bot's entrant in a supervised child; when the
    sample is done the child ends, and so must what its bots started in the background
    (two such processes outlived a run): asked to quit, or ended if it does not."""
    pids = tmp_path / "children.pid"
    alive = _still_running(_started_in_a_run(
        tmp_path, monkeypatch, asked, f"sleep 300 &\necho $! >> {pids}", pids))
    assert not alive, f"background children of bots still running: {alive}"


def _running(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as handle:  # a zombie waiting for its parent is done
        return handle.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_supervisor_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """Ray ends its workers without running their exit handlers, and each worker's
    supervisor left a folder with its heartbeat file in /tmp (an operator counted 900):
    the heartbeat is now a file with no name, shared with the child by descriptor."""
    import tempfile

    from whist_sim.tournament.sandbox import Supervisor

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    supervisor = Supervisor()
    supervisor.heartbeat.hand_started(3)  # the mapping is live
    assert list(tmp_path.iterdir()) == []  # before close(), which a killed worker never runs
    supervisor.close()


@pytest.mark.slow  # a bot that takes 0.8 s to start, started dozens of times
@pytest.mark.parametrize(("game", "extra"), [("knockout_whist", "players = 3")],
                         ids=["knockout X A X"])
def test_a_slow_starting_bot_holding_two_seats_plays_every_deal(tmp_path, game, extra):
    """One fresh process was kept ready per entrant: holding two seats whose processes had
    both played the deal (Knock-out's X A X after A X X, a Minnesota pair of itself), the
    second seat's started inside its first decision, and a bot slower to start than the
    limit forfeited; in the timing sample the whole run died (a bot operator's probe)."""
    slow = random_bot_after(tmp_path / "slow_bot.sh", "sleep 0.8")
    tournament, _, variant = extra.partition("[variant]")
    body = (f'[tournament]\ngame = "{game}"\ndeals = 2\nseed = 5\ntime_limit = 0.5\n'
            f"{tournament}\n{('[variant]' + variant) if variant else ''}\n"
            f'[[strategies]]\nuse = "process"\ncommand = ["{slow}"]\nlabel = "X"\n\n'
            '[[strategies]]\nuse = "random"\n')
    config = load_config(write_config(tmp_path, body, "slow.toml"))
    summary = run_tournament(config, tmp_path / "slow", workers=0, progress=False)
    assert summary.status == "complete"
    deals = run_rows(summary.path)["deals"]
    assert (deals["status"] == "ok").all(), deals.filter(pl.col("status") != "ok")["error"]


def test_a_run_on_ray_keeps_no_bot_of_its_timing_sample_in_the_driver(tmp_path, ray_cluster):
    """The timing sample of built-in entrants plays in the driver, isolated ones through bot
    processes the driver starts. On Ray the workers start their own, and the sample's
    stayed in the driver, idle, for the whole run: ten isolated ``random`` entrants left
    20 bots and their keepers, 1,001 MiB."""
    from whist_sim.tournament import bots

    body = GERMAN.format(game="german_whist", deals=4, players="",
                         first='use = "random"\nisolate = true',
                         second='use = "random"').replace("deals_per_task = 4\n", "")
    config = load_config(write_config(tmp_path, body, "sampled.toml"))
    seen_at_start: list[int] = []
    real = bots.BotEntry.strategy

    def strategy(self, label, game, spec):  # the sample's, here in the driver
        seen_at_start.append(os.getpid())
        return real(self, label, game, spec)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bots.BotEntry, "strategy", strategy)
        summary = run_tournament(config, tmp_path / "run", workers=2, progress=False)
    assert summary.status == "complete" and summary.where == "ray"
    assert os.getpid() in seen_at_start, "the sample played the isolated entrant here"
    assert bots._POOL == {}


def test_a_run_with_bots_leaves_no_scratch_folder(tmp_path, monkeypatch):
    """Each run left a whist-sim-bots-* folder (with copies of the bots' stderr) in the
    temporary folder, one per process that ran bots (a bot operator counted 300 in /tmp)."""
    import tempfile

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # this process and the timing sample's child
    monkeypatch.setattr(tempfile, "tempdir", None)
    body = GERMAN.format(game="german_whist", deals=2, players="",
                         first=f'use = "process"\ncommand = ["{sys.executable}",'
                               f' "{BOTS}/python_random_bot.py"]',
                         second='use = "random"').replace("deals_per_task = 4\n", "")
    config = load_config(write_config(tmp_path, body, "bots.toml"))
    assert run_tournament(config, tmp_path / "run", workers=0,
                          progress=False).status == "complete"
    assert [p.name for p in scratch.iterdir() if p.name.startswith("whist-sim")] == []


def test_a_decision_that_raises_is_no_longer_timed_by_the_supervisor():
    """A decision that ended in an exception (a bot that could not be started, say) left
    the heartbeat saying it still ran: the supervisor timed what followed it, the next
    bot start-up between deals, as that decision, and ended the process."""
    from whist_sim.tournament.entrants import Entrant, Table
    from whist_sim.tournament.sandbox import Heartbeat

    class Fails:
        def choose(self, view, rng):
            raise ValueError("no hello")

    heartbeat = Heartbeat.create()
    try:
        entrant = Entrant("bad", 0, Fails(), Table(monitor=heartbeat, contain=True))
        with pytest.raises(ValueError, match="no hello"):
            entrant.choose(None, None)
        assert heartbeat.deciding_since() is None
    finally:
        heartbeat.close()


def hello_less_bot(script: Path, seconds: float) -> Path:
    """A bot that never says hello once the config is read (its first start, which the
    config's check makes, greets as a bot should: one that fails there stops the run):
    silent for ``seconds`` (longer than the run's time_limit plus the supervisor's
    grace), then gone. The bot of the report stayed silent for ever; its handshake then
    fails after 10 s, this one's sooner, the same way."""
    marker = script.with_suffix(".started")
    script.write_text(
        f"#!/bin/sh\nif [ ! -e {marker} ]; then touch {marker};"
        f" exec {sys.executable} {BOTS}/python_random_bot.py; fi\nsleep {seconds}\n")
    script.chmod(0o755)
    return script


NO_HELLO = """
[tournament]
game = "german_whist"
deals = {deals}
seed = 3
time_limit = 0.2
{per_task}
[[strategies]]
use = "process"
label = "evil_nohello"
command = ["{bot}"]

[[strategies]]
use = "random"
"""


def _run_a_bot_that_never_says_hello(tmp_path: Path, workers: int, deals: int,
                                     per_task: str = "") -> None:
    """The run completes, every deal of the bot forfeited for its handshake."""
    from whist_sim.tournament.sandbox import GRACE_SECONDS

    bot = hello_less_bot(tmp_path / "no_hello.sh", 0.2 + GRACE_SECONDS + 0.8)
    body = NO_HELLO.format(deals=deals, bot=bot, per_task=per_task)
    config = load_config(write_config(tmp_path, body, "no_hello.toml"))
    assert _not_of_the_seed(config.warnings) == []  # its first start greeted
    summary = run_tournament(config, tmp_path / "run", workers=workers, progress=False)
    assert summary.status == "complete"
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["status"] == "complete" and meta.get("error") is None
    deals_rows = run_rows(summary.path)["deals"]
    assert deals_rows.height == 2 * deals  # every deal, in both seatings
    assert (deals_rows["status"] == "forfeit").all()
    for error in deals_rows["error"].to_list():
        assert "(evil_nohello)" in error and "hello" in error, error
        assert "to decide" not in error and "process died" not in error, error


@pytest.mark.slow  # each start of the bot takes two seconds to fail, a dozen starts
def test_a_bot_that_never_says_hello_forfeits_and_the_run_completes_in_process(tmp_path):
    """With a time_limit shorter than the bot's start-up, the run's timing sample (played
    under a supervisor, as deals_per_task = "auto" asks) ended with "its process died
    outside any strategy decision (took more than its time limit of 1 s to decide ...),
    twice" and a traceback."""
    _run_a_bot_that_never_says_hello(tmp_path, workers=0, deals=2)


def test_a_bot_that_never_says_hello_forfeits_and_the_run_completes_on_ray(
        tmp_path, ray_cluster):
    """On Ray the same task failed in its worker's supervisor: the run ended ``failed``,
    blaming Ray, and every --resume failed the same way. One deal a task: the task's
    second seating starts the bot after the first seating's forfeit."""
    _run_a_bot_that_never_says_hello(tmp_path, workers=2, deals=1,
                                     per_task="deals_per_task = 1")


def test_a_bots_stderr_is_in_no_file_another_bot_could_read(tmp_path, monkeypatch):
    """Each bot's stderr went live to a file in the temporary folder, where any other bot
    of the run could read it mid-deal (a probe read its opponent's hand there). It is now
    kept in the worker's memory and handed back with the task's results."""
    import tempfile
    from types import SimpleNamespace

    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.tournament.bots import BotEntry, bot_stderr, close_bots

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    chatty = random_bot_after(tmp_path / "chatty.sh", "echo 'debug: my hand SECRET-HAND-7' >&2")
    entry = BotEntry(command=(str(chatty),))
    game = make_game("german_whist")
    bot = entry.strategy("chatty", game, SimpleNamespace(time_limit=10.0))
    try:
        play_deal(game, [bot, bot], 5)
        handed: dict[str, str] = {}
        for _ in range(100):  # until the bots' stderr has been drained from their pipes
            handed = bot_stderr({"chatty": entry})
            if handed:
                break
            time.sleep(0.05)
        assert "SECRET-HAND-7" in handed["chatty (stderr)"]
        readable = [path for folder in (scratch, Path(tempfile.gettempdir()))
                    for path in folder.rglob("*") if path.is_file()]
        assert not [p for p in readable if b"SECRET-HAND-7" in p.read_bytes()]
        assert bot_stderr({"chatty": entry}) == {}  # handed back once
    finally:
        close_bots()


def test_a_task_says_how_long_its_bots_took_to_start(tmp_path):
    """What the run's timing sample takes off the time a deal takes: a worker starts a
    bot's processes once, not once a deal (``TaskResult.bot_start_seconds``)."""
    from whist_sim.tournament.bots import BotEntry, close_bots
    from whist_sim.tournament.schedule import Plan
    from whist_sim.tournament.worker import TaskSpec, play_task

    slow = random_bot_after(tmp_path / "slow.sh", "sleep 0.3")
    lineup = [("slow", "random")]
    strategies = {"slow": ("process", {}), "random": ("random", {})}

    def task(bots):
        return play_task(TaskSpec(0, "german_whist", {}, None, 5, Plan(1, 2, 2), lineup,
                                  strategies if bots else {"slow": ("random", {}),
                                                           "random": ("random", {})},
                                  10.0, "forfeit", bots=bots))

    try:
        played = task({"slow": BotEntry(command=(str(slow),))})
        # a process for each of the two seats it sits in (its two seatings), each asleep
        # for 0.3 s before it starts, and a spare kept ready besides
        assert played.bot_start_seconds >= 2 * 0.3, played.bot_start_seconds
        assert played.bot_start_seconds < played.seconds
        assert (pl.from_arrow(played.tables["deals"])["status"] == "ok").all()
    finally:
        close_bots()
    assert task({}).bot_start_seconds == 0.0


def test_a_strategy_refused_at_hello_is_known_from_the_reply_before_stderr_is_read():
    """A clean clone's suite: under load the engine read the hello's error reply before
    the thread draining stderr had the NOT_SERVED line, and the config only warned."""
    from whist_sim.protocol.client import not_served
    from whist_sim.protocol.errors import BotHandshakeError

    reason = "cannot build the strategy for german_whist: strategy 'pimc': parameter 'worlds'"
    error = BotHandshakeError("h", ["python", "-m", "whist_sim.protocol", "pimc"],
                              f"reported an error in reply to hello: {reason}", "a hello",
                              stderr_tail=())
    assert not_served(error) == reason
    crashed = BotHandshakeError("h", ["bot"], "exited with code 3", "a hello")
    assert not_served(crashed) is None
