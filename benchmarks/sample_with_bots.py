"""How well a run of bots is sized: the timing sample's estimate against the play it sizes.

For round robins of ``--entrants`` isolated ``random`` entrants (German Whist, each
served by ``python -m whist_sim.protocol`` in processes of its own), prints:

- the timing sample's time on the clock, and its estimate of the seconds a (line-up,
  deal) item takes (``runner._seconds_per_item``, as ``deals_per_task = "auto"`` runs
  it);
- the seconds an item takes as a run plays it: a task of ``--items`` items played in
  this process with every bot already started (their start-ups, which a worker pays
  once, taken off: ``TaskResult.bot_start_seconds``);
- their ratio (estimate / as played: 1 is right; above 1 cuts the run into tasks too
  small), and the task size the estimate gives a run on 2 workers
  (``runner._auto_task_size``; at most ``MIN_TASKS_PER_SLOT`` tasks a worker's share).

Measured on 7 December (this 2-core machine, the defaults):

| entrants | line-ups | sample | estimate | as played | ratio | items a task |
| --- | --- | --- | --- | --- | --- | --- |
| 3 | 3 | 4.5 s | 27.1 ms | 27.6 ms | 0.98 | 73 |
| 6 | 15 | 3.9 s | 29.5 ms | 27.7 ms | 1.07 | 67 |
| 10 | 45 | 4.0 s | 29.0 ms | 27.1 ms | 1.07 | 69 |

The whist_sim before (``ca13cea``, run with ``PYTHONPATH`` at an export of it), whose
sample timed the bots' start-ups as play: samples of 2.0 s, estimates of 523-533 ms an
item against 29-31 ms as played (ratios 17.2-18.2), tasks of 3 items.

The machine is noisy: read the ratio more than the seconds.

Usage: python benchmarks/sample_with_bots.py [--entrants 3 6 10] [--deals 200]
       [--items 60]
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from pathlib import Path

from whist_sim.tournament import runner
from whist_sim.tournament.bots import close_bots
from whist_sim.tournament.config import load_config
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import play_task

SEED = 123_456_789
"""A root seed too large to guess (a small one is warned of when bots play)."""


def config_text(entrants: int, deals: int) -> str:
    entries = "".join(f'\n[[strategies]]\nuse = "random"\nlabel = "r{number}"\n'
                      "isolate = true\n" for number in range(entrants))
    return f'[tournament]\ngame = "german_whist"\ndeals = {deals}\nseed = {SEED}\n{entries}'


def as_played(config, items: int) -> float:
    """Seconds an item takes in a task of ``items`` items, every bot started already."""
    played = config.played_pairings()
    lineups = [config.lineups()[p] for p in played]
    plan = Plan(len(played), config.tournament.deals, items)
    spec = runner._spec(config, plan, lineups, played, 0)
    play_task(spec)  # every line-up's processes started: what a worker has after a task
    again = dataclasses.replace(spec, root_seed=SEED + 1)  # deals none of them has seen
    started = time.perf_counter()
    result = play_task(again)
    # (none measured before 7 December: run against an older whist_sim, that is 0)
    start_ups = getattr(result, "bot_start_seconds", 0.0)
    return (time.perf_counter() - started - start_ups) / items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, nargs="+", default=[3, 6, 10])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--items", type=int, default=60)
    args = parser.parse_args()
    print(f"{'entrants':>8} {'line-ups':>8} {'sample s':>9} {'estimate ms':>12}"
          f" {'played ms':>10} {'ratio':>6} {'items/task':>10}")
    for entrants in args.entrants:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "bots.toml"
            path.write_text(config_text(entrants, args.deals))
            config = load_config(path)
            pairings = len(config.played_pairings())
            try:
                started = time.perf_counter()
                estimate = runner._seconds_per_item(config, config.lineups(),
                                                    config.played_pairings(),
                                                    Path(folder) / "run")
                sampled = time.perf_counter() - started
                close_bots()  # the run's workers start their own
                played = as_played(config, min(args.items, pairings * args.deals))
            finally:
                close_bots()
        size = runner._auto_task_size(config, pairings, 2, estimate)
        print(f"{entrants:>8} {pairings:>8} {sampled:>9.1f} {1000 * estimate:>12.1f}"
              f" {1000 * played:>10.1f} {estimate / played:>6.2f} {size:>10}")


if __name__ == "__main__":
    main()
