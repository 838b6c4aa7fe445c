"""What playing through the bot protocol costs: the round trip per decision, and hands/s.

Plays German Whist hands with both seats behind the protocol (``ProcessStrategy``,
processes started once and reused), and the same hands in process, in one run:

- the median round trip of one decision: from writing ``decide`` to reading the
  whole ``action`` line (the protocol and the pipe, with the C reference bot, whose
  own work is a few microseconds), target at most 100 microseconds; and the median
  of the whole ``choose`` call, which adds building and parsing the messages;
- full hands per second with both seats external ``random`` bots (the Python client
  serving whist_sim's ``random``), beside ``random`` in process on the same deals,
  and the ratio.

Each is measured with the bots paused between their decisions (``pause_bots``, the
default: SIGSTOP once a reply is read, SIGCONT as the next message goes out) and again
without, interleaved: the pause's cost is the difference.

The machine is noisy: compare the ratio, not the absolute figures.

Usage: python benchmarks/protocol_overhead.py [--hands 300]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.protocol import ProcessStrategy
from whist_sim.strategy import build_strategy

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "examples" / "bots"
TARGET_MICROSECONDS = 100.0


class Timed:
    """A strategy's ``choose`` with each call's time kept (the whole call, all in)."""

    def __init__(self, strategy) -> None:
        self.strategy = strategy
        self.times: list[float] = []

    def choose(self, view, rng) -> int:
        started = time.perf_counter()
        action = self.strategy.choose(view, rng)
        self.times.append(time.perf_counter() - started)
        return action


def c_bot(folder: Path) -> list[str]:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise SystemExit("the C reference bot needs gcc")
    binary = folder / "simple_bot"
    subprocess.run([compiler, "-O2", "-std=c99", "-o", str(binary),
                    str(BOTS / "c" / "simple_bot.c")], check=True)
    return [str(binary)]


WARM_SEEDS = 1_000_000
"""Where warming up deals from: a bot process is never dealt a hand twice (it could
remember it), so warming up on the measured deals started fresh processes inside the
measurement."""


def hands_per_second(game, players, hands: int, first: int = 0) -> float:
    started = time.perf_counter()
    for seed in range(first, first + hands):
        played = play_deal(game, players, seed, seed % 2)
        assert played.outcome.forfeit_seat is None, played.outcome.error
    return hands / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    game = make_game("german_whist")
    inside = build_strategy("random", None, game.name)
    in_process = hands_per_second(game, [inside, inside], args.hands)
    print(f"German Whist, {args.hands} hands, both seats behind the protocol")
    with tempfile.TemporaryDirectory() as tmp:
        command = c_bot(Path(tmp))
        for pause in (True, False):
            measured = measure(game, command, pause, args.hands)
            round_trip, per_call, external_trip, external = measured
            print(f" bots {'paused' if pause else 'not paused'} between decisions"
                  f" (pause_bots = {str(pause).lower()})")
            print(f"  round trip, decide -> action (C bot, median) {1e6 * round_trip:7.1f} us"
                  f"   target <= {TARGET_MICROSECONDS:g} us:"
                  f" {'met' if 1e6 * round_trip <= TARGET_MICROSECONDS else 'NOT met'}")
            print(f"  whole choose() call (C bot, median)          {1e6 * per_call:7.1f} us")
            print(f"  round trip (Python random bot, median)       {1e6 * external_trip:7.1f}"
                  " us")
            print(f"  hands/s, external random bots                {external:9.1f}")
            print(f"  hands/s, random in process (same deals)      {in_process:9.1f}")
            print(f"  ratio external / in process                  {external / in_process:9.3f}")


def measure(game, command: list[str], pause: bool, hands: int
            ) -> tuple[float, float, float, float]:
    """The C bot's median round trip and whole call, the Python random bot's median
    round trip and hands/s, with ``pause`` as given."""
    with ProcessStrategy(command, label="c", game=game.name, pause=pause) as bot:
        timed = Timed(bot)
        hands_per_second(game, [timed, timed], 10, WARM_SEEDS)  # both processes started
        timed.times.clear()
        bot.exchange_log = []
        hands_per_second(game, [timed, timed], min(hands, 200))
        round_trip = statistics.median(bot.exchange_log)
        per_call = statistics.median(timed.times)
    random_bot = [sys.executable, str(BOTS / "python_random_bot.py")]
    with ProcessStrategy(random_bot, label="random", game=game.name, pause=pause) as bot:
        hands_per_second(game, [bot, bot], 20, WARM_SEEDS)  # both processes started
        bot.exchange_log = []
        external = hands_per_second(game, [bot, bot], hands)
        external_trip = statistics.median(bot.exchange_log)
    return round_trip, per_call, external_trip, external


if __name__ == "__main__":
    main()
