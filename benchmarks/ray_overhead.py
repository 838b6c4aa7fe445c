"""How much of a tournament's time goes to Ray rather than to playing cards.

Plays a German Whist tournament (heuristic vs random, duplicate deals) on an
embedded Ray with warm workers, then reports:
- overhead = 1 - (sum of the time tasks spent playing) / (wall time x workers):
  scheduling, transfer of Arrow tables, the driver's Parquet commits and
  idle tails; the target is under 5%;
- the speed-up over the same plan played in this process without Ray (the
  reference, measured in the same run; the ideal on this machine is the number
  of workers).

Usage: python benchmarks/ray_overhead.py [--deals N] [--workers W]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from whist_sim.tournament.cluster import ray_session
from whist_sim.tournament.config import validate_config
from whist_sim.tournament.runner import _spec, run_tournament
from whist_sim.tournament.schedule import Plan, lineups
from whist_sim.tournament.worker import play_task


def config(deals: int, per_task: int | str = "auto") -> dict:
    return {
        "tournament": {"game": "german_whist", "deals": deals, "seed": 99,
                       "deals_per_task": per_task},
        "strategies": [{"use": "heuristic"}, {"use": "random"}],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, ray_session(None, args.workers) as slots:
        run_tournament(validate_config(config(50)), Path(tmp) / "warm-up", progress=False,
                       workers=args.workers)
        summary = run_tournament(
            validate_config(config(args.deals)), Path(tmp) / "measured", progress=False,
            workers=args.workers,
        )
        plan_size = summary.path / "run.json"
        per_task = __import__("json").loads(plan_size.read_text())["plan"]["deals_per_task"]

    cfg = validate_config(config(args.deals, args.deals))
    seats = lineups(cfg.labels(), 2)
    started = time.perf_counter()
    played = list(range(len(seats)))
    play_task(_spec(cfg, Plan(len(seats), args.deals, args.deals), seats, played, 0))
    sequential = time.perf_counter() - started

    print(f"deals played            {summary.deals} ({args.deals} seeds x 2 seatings)")
    print(f"workers                 {slots}, task size {per_task} items, {summary.tasks_run} tasks")
    print(f"wall time on Ray        {summary.wall_seconds:.2f} s")
    print(f"time spent playing      {summary.task_seconds:.2f} s (summed over tasks)")
    print(f"Ray overhead            {summary.overhead:.1%}  (target < 5%)")
    print(f"reference, no Ray       {sequential:.2f} s in one process")
    print(f"speed-up over reference {sequential / summary.wall_seconds:.2f}x (ideal {slots}x)")


if __name__ == "__main__":
    main()
