"""Bots are stopped between their decisions (``tournament.pause_bots``, on by default).

A bot that kept computing after its reply, a chess engine's pondering or a hostile
bot's plan, thought on the other seats' time and took a core from their timed
decisions. The engine now stops each bot's process group (SIGSTOP) once it has read
its reply, and continues it (SIGCONT) as its next message goes out. Its keeper is
outside that group, so a bot held when the engine dies is still ended.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.test_bot_containment import _contained_or_skip
from tests.tournament_helpers import write_config
from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.protocol import ProcessStrategy
from whist_sim.protocol.bot_tree import ended
from whist_sim.reports.run_section import run_section
from whist_sim.store import RunFolder
from whist_sim.strategy import build_strategy
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads process states in /proc (Linux)")

ROOT = Path(__file__).resolve().parents[1]
RANDOM_BOT = [sys.executable, str(ROOT / "examples" / "bots" / "python_random_bot.py")]

PONDERER = textwrap.dedent('''
    """whist_sim's random over the protocol, beside a process of its own that computes all
    the time (a thread would slow the bot's own replies too, through the GIL)."""
    import runpy
    import subprocess
    import sys

    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    with open(sys.argv[2], "w") as handle:
        handle.write(str(spinner.pid))
    sys.argv = [sys.argv[1]]
    runpy.run_path(sys.argv[0], run_name="__main__")
''')


def state(pid: int) -> str:
    """The process's state letter in ``/proc/PID/stat`` (``T``: stopped)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rfind(")") + 2:].split()[0]


def settled(pid: int, seconds: float = 1.0) -> str:
    """The process's state once it is stopped, or after ``seconds``: a stop is taken when
    the process next runs, so one waiting for a core on a busy machine reads ``R``
    until then (it runs no code of its own meanwhile)."""
    deadline = time.monotonic() + seconds
    while (found := state(pid)) != "T" and time.monotonic() < deadline:
        time.sleep(0.001)
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used so far."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rfind(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watcher:
    """An in-process seat that, at each of its decisions, notes the state of the bot
    playing the other seat, then takes ``pause`` seconds: the other seat's time."""

    def __init__(self, bot: ProcessStrategy, pause: float = 0.0,
                 spinner: Path | None = None) -> None:
        self.bot = bot
        self.pause = pause
        self.spinner = spinner
        """A file naming a process of the bot's whose CPU time is read at each decision."""
        self.random = build_strategy("random", None, "german_whist")
        self.seen: list[str] = []
        self.spun: list[float] = []

    def choose(self, view, rng) -> int:
        if 0 in self.bot._seats:  # after the bot's first decision of the deal
            self.seen.append(settled(bot_pid(self.bot)) if self.bot.pause
                             else state(bot_pid(self.bot)))
            if self.spinner is not None:
                self.spun.append(cpu_seconds(int(self.spinner.read_text())))
        time.sleep(self.pause)
        return self.random.choose(view, rng)


def bot_pid(bot: ProcessStrategy) -> int:
    """The bot's own process (under a keeper: its child, which leads the paused group)."""
    return bot._seats[0].process._group


def play(bot: ProcessStrategy, watcher: Watcher, deals: int) -> None:
    game = make_game("german_whist")
    for seed in range(deals):
        played = play_deal(game, [bot, watcher], seed)
        assert played.outcome.forfeit_seat is None, played.outcome.error


def test_a_bot_is_stopped_while_another_seat_decides():
    with ProcessStrategy(RANDOM_BOT, game="german_whist") as bot:
        watcher = Watcher(bot)
        play(bot, watcher, deals=2)
        assert watcher.seen and set(watcher.seen) == {"T"}, watcher.seen
        assert bot._seats[0].process.held  # and after its last reply too


def test_with_pause_bots_false_a_bot_runs_while_another_seat_decides():
    with ProcessStrategy(RANDOM_BOT, game="german_whist", pause=False) as bot:
        watcher = Watcher(bot)
        play(bot, watcher, deals=2)
        assert watcher.seen and "T" not in watcher.seen, watcher.seen


ESCAPING_PONDERER = PONDERER.replace(
    '"while True: pass"])', '"while True: pass"], start_new_session=True)').replace(
    "beside a process of its own", "beside a process in a session of its own (setsid)")


@pytest.mark.parametrize("script", [PONDERER, ESCAPING_PONDERER], ids=["own", "setsid"])
def test_a_pondering_bot_computes_only_on_its_own_time(tmp_path, script):
    """The other seat takes 20 ms a decision. Not paused, the bot's second process
    computes through all of them; paused, only while the bot decides, and for the
    moment between its reply and its stop. Its CPU time is read at each of the other
    seat's decisions: from the first to the last, the bot's start-up (its own time)
    is left out. A second process in a session of its own (``setsid``), outside the
    bot's process group that ``hold`` stops, computed through the other seat's time as
    if not paused (its keeper, a subreaper, still finds it below it)."""
    (tmp_path / "ponderer.py").write_text(script)
    used = {}
    for pause in (False, True):
        said = tmp_path / f"spinner-{pause}"
        command = [sys.executable, str(tmp_path / "ponderer.py"), RANDOM_BOT[1], str(said)]
        with ProcessStrategy(command, game="german_whist", pause=pause) as bot:
            watcher = Watcher(bot, pause=0.02, spinner=said)
            play(bot, watcher, deals=1)
            used[pause] = watcher.spun[-1] - watcher.spun[0]
    waited = 25 * 0.02  # the other seat's decisions from its first to its last
    assert used[False] > waited / 2, used  # it pondered through the other seat's time
    assert used[True] < used[False] / 4, used


HOPPING_PONDERER = textwrap.dedent('''
    """whist_sim's random over the protocol, beside a chain of processes in a session of
    their own, each computing 20 ms, then starting the next and exiting: each is new, so
    a walk of /proc made before it started never finds it."""
    import os
    import runpy
    import sys
    import time

    if os.fork() == 0:
        os.setsid()
        while True:
            end = time.monotonic() + 0.02
            while time.monotonic() < end:
                pass
            if os.fork():
                os._exit(0)
    sys.argv = [sys.argv[1]]
    runpy.run_path(sys.argv[0], run_name="__main__")
''')


def reaped_cpu_seconds(pid: int) -> float:
    """CPU time of the children ``pid`` has reaped (a keeper reaps what its bot leaves)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rfind(")") + 2:].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def test_a_chain_of_new_processes_outside_the_group_is_paused_too(tmp_path):
    """Processes outside the bot's group are looked for in /proc at most every 0.1 s; a
    chain of processes each living 20 ms was never there when looked for, and computed
    through the other seat's time. Once any has been found, every hold looks again.
    Their CPU time is read from the keeper, which reaps them."""
    (tmp_path / "hopper.py").write_text(HOPPING_PONDERER)
    used = {}
    for pause in (False, True):
        command = [sys.executable, str(tmp_path / "hopper.py"), RANDOM_BOT[1]]
        with ProcessStrategy(command, game="german_whist", pause=pause) as bot:
            watcher = Watcher(bot, pause=0.02)
            watcher.keeper_cpu = []
            inner = watcher.choose

            def choose(view, rng, watcher=watcher, inner=inner, bot=bot):
                if 0 in bot._seats:
                    watcher.keeper_cpu.append(reaped_cpu_seconds(bot._seats[0].process.popen.pid))
                return inner(view, rng)

            watcher.choose = choose
            play(bot, watcher, deals=1)
            used[pause] = watcher.keeper_cpu[-1] - watcher.keeper_cpu[0]
    waited = 25 * 0.02  # the other seat's decisions from its first to its last
    assert used[False] > waited / 2, used  # the chain computed through the other seat's time
    assert used[True] < used[False] / 4, used


def test_a_held_bot_is_ended_when_its_keeper_is_told_to_stop():
    """What the engine's death sends the keeper (its parent-death signal, SIGTERM): a
    keeper stopped with its bot would have taken it only once continued, never."""
    with ProcessStrategy(RANDOM_BOT, game="german_whist") as bot:
        play(bot, Watcher(bot), deals=1)
        process = bot._seats[0].process
        assert process.held and settled(bot_pid(bot)) == "T"
        os.kill(process.popen.pid, signal.SIGTERM)
        process.popen.wait(5)
        deadline = time.monotonic() + 5
        while not ended(bot_pid(bot)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ended(bot_pid(bot))


def test_closing_ends_a_held_bot_at_once():
    with ProcessStrategy(RANDOM_BOT, game="german_whist", quit_timeout=5.0) as bot:
        play(bot, Watcher(bot), deals=1)
        pid = bot_pid(bot)
        assert settled(pid) == "T"
        started = time.monotonic()
        bot.close()
        assert time.monotonic() - started < 2.0  # it read its quit, not the timeout
    assert ended(pid)


def test_a_contained_bot_is_stopped_too(tmp_path):
    _contained_or_skip()
    with ProcessStrategy(RANDOM_BOT, game="german_whist", contain=[]) as bot:
        watcher = Watcher(bot)
        play(bot, watcher, deals=1)
        assert watcher.seen and set(watcher.seen) == {"T"}, watcher.seen


CONFIG = """
[tournament]
game = "german_whist"
deals = 2
deals_per_task = 2
{pause}

[[strategies]]
use = "random"
isolate = true
label = "isolated"

[[strategies]]
use = "random"
"""


@pytest.mark.parametrize("pause, said", [("", "yes: stopped from each reply"),
                                         ("pause_bots = false", "no: a bot could compute")])
def test_the_run_section_says_whether_bots_were_paused(tmp_path, pause, said):
    config = load_config(write_config(tmp_path, CONFIG.format(pause=pause)))
    assert config.tournament.pause_bots is (pause == "")
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    with RunFolder.open(summary.path, verify=False) as folder:
        rows = dict(run_section(folder, folder.meta()).tables[0].rows)
    assert rows["bots paused between decisions"].startswith(said), rows


def test_pause_bots_takes_true_or_false(tmp_path):
    with pytest.raises(ConfigError) as raised:
        load_config(write_config(tmp_path, CONFIG.format(pause='pause_bots = "yes"')))
    assert "tournament.pause_bots" in str(raised.value)
    assert "allowed values: true, false" in str(raised.value)
