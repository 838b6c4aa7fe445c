"""The driver's commit rate: how many hands a second one driver can take in from its workers.

A Ray run's driver receives every finished task's Arrow tables and commits them: a
Parquet unit per task (zstd, SHA-256 of every file), a new snapshot of ``data/``,
the live standings, run.json's totals, a compaction every 64 commits. Its rate
bounds the whole cluster's: past it, workers wait on the driver whatever their number.

This benchmark plays a few real tasks once (``tournament.worker.play_task``, German
Whist, a round robin of random and two heuristics, ``--task-hands`` hands each), then feeds them to
the driver again and again without playing, and times, in the same run:

1. **the whole driver** (``runner._execute`` with an executor that hands back the
   pre-made results at once), both ways a run can go: workers that cannot reach the
   run folder send their tables and the driver writes every unit (nodes without shared
   storage), and workers that reach it write their own units, the driver naming them
   (``tournament.unit_writing``, the default whenever the folder is reachable; the
   units are written before the clock starts, and the merges a compaction hands to
   workers are timed apart and taken out): everything the driver does per task, hands/s;
2. its parts, each alone over the same tasks: the driver's share of Ray's transfer
   (unpickling a ``TaskResult``, protocol 5, as ``ray.get`` does), the live standings
   (``LiveStandings.add_rows``), the store's commit (``RunFolder.commit_task``) and
   the compactions;
3. the store's commit split as sharded writing would split it: the unit's files
   (Parquet encoding, SHA-256, the rename into ``.units/``: ``RunFolder._write_unit``),
   which a worker would do, and the naming of the unit in a new snapshot
   (``RunFolder._publish``), all the driver would still do; and that naming done
   for ``GROUP`` units at once (a group commit). Compaction runs every 64 commits
   there too, untimed (sharded, it would be a worker's task), so the snapshots hold
   as many units as they do in a real run.

It compares each rate with what 64 workers produce at the heuristic target rate of
issue 20 (German Whist 4,000 hands/s a core: 256,000 hands/s). docs/cluster.md
explains what the figures mean for a cluster. The machine is shared and noisy:
read the shares and ratios more than the rates.

Usage: python benchmarks/commit_rate.py [--task-hands 4000] [--tasks 128] [--distinct 4]
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from whist_sim.store import RunFolder
from whist_sim.tournament.config import validate_config
from whist_sim.tournament.live import LiveStandings
from whist_sim.tournament.runner import COMPACT_EVERY, _execute, _run_meta, _spec
from whist_sim.tournament.schedule import Plan, seatings
from whist_sim.tournament.unit_writing import MergedBatch, UnitTarget, merge_batch, store_task
from whist_sim.tournament.worker import TaskResult, TaskSpec, play_task

TARGET_WORKERS = 64
TARGET_RATE_PER_CORE = 4_000
"""Issue 20's German Whist heuristic target through ``play_task``, hands/s a core."""
NEEDED = TARGET_WORKERS * TARGET_RATE_PER_CORE
ENTRANTS = ({"use": "random"}, {"use": "heuristic"},
            {"use": "heuristic", "label": "heuristic_bold", "params": {"contest_margin": -0.5}})
"""Three entrants, as configs/quickstart.toml: a round robin of three line-ups. (Two would
make the driver end with a fixed-sample verdict over every row, a cost per run, not per
commit, and one that reads the deal indices the fed copies repeat.)"""


def config(deals: int) -> Any:
    """A German Whist round robin of ``deals`` deals per line-up."""
    return validate_config({
        "tournament": {"game": "german_whist", "deals": deals, "seed": 4242},
        "strategies": list(ENTRANTS),
    })


def hands_per_item() -> int:
    cfg = config(1)
    game = cfg.game()
    lineups = cfg.lineups()
    return sum(len(seatings(lineups[p], game.duplicate_rotations))
               for p in cfg.played_pairings()) // len(cfg.played_pairings())


GROUP = 16
"""Units named in one snapshot in the group-commit measurement (half a second of results
from 64 workers playing two-second tasks)."""

PAIRINGS = 3
"""Line-ups of the three entrants' round robin."""


def items_per_task(task_hands: int) -> int:
    """Items of a task of about ``task_hands`` hands: whole rounds of every line-up, so a
    plan of n tasks is exactly n * items deals' worth."""
    return max(PAIRINGS, task_hands // hands_per_item() // PAIRINGS * PAIRINGS)


def make_results(task_hands: int, distinct: int) -> tuple[list[TaskResult], float]:
    """``distinct`` real task results of about ``task_hands`` hands, and the seconds a hand
    took to play on this core."""
    per_task = items_per_task(task_hands)
    cfg = config(per_task * distinct // PAIRINGS)
    lineups = cfg.lineups()
    played = cfg.played_pairings()
    plan = Plan(len(played), cfg.tournament.deals, per_task, cfg.game().duplicate_rotations)
    results = []
    seconds = 0.0
    for task in range(distinct):
        result = play_task(_spec(cfg, plan, lineups, played, task))
        results.append(result)
        seconds += result.seconds
    return results, seconds / sum(r.deals for r in results)


class FeedExecutor:
    """An executor whose tasks are already played: it hands back a pre-made result,
    renumbered to the task asked for, the moment it is asked. Its workers cannot reach
    the run folder: they send their tables."""

    slots = TARGET_WORKERS
    where = "ray"
    merging = 0

    def __init__(self, results: list[TaskResult]) -> None:
        self._results = results
        self._asked: list[TaskSpec] = []
        self.merge_seconds = 0.0
        self._target: UnitTarget | None = None

    def store_to(self, target: UnitTarget) -> None:
        self._target = target

    def submit(self, spec: TaskSpec) -> None:
        self._asked.append(spec)

    def submit_merge(self, batch: str, group: Any) -> MergedBatch:
        """A worker's merge, done here: its time is not the driver's (``merge_seconds``)."""
        begun = time.perf_counter()
        merged = merge_batch(self._target, batch, group)
        self.merge_seconds += time.perf_counter() - begun
        return merged

    def next_result(self) -> Any:
        spec = self._asked.pop(0)
        made = self._results[spec.task % len(self._results)]
        return dataclasses.replace(made, task=spec.task)

    def ready_results(self) -> list[Any]:
        return []

    def cancel(self) -> None:
        self._asked.clear()


class StoredFeedExecutor(FeedExecutor):
    """Workers that reach the run folder: every task's unit is written before the clock
    starts (``prepare``), and a result is the unit's name and record with the small tables,
    as ``unit_writing.store_task`` makes it. ``GROUP`` results are ready at once, as from
    many workers, so the driver names them in one snapshot."""

    def prepare(self, folder: RunFolder, tasks: int) -> None:
        target = UnitTarget.of(folder)
        self._stored = {}
        for task in range(tasks):
            made = self._results[task % len(self._results)]
            self._stored[task] = store_task(dataclasses.replace(made, task=task), target)

    def next_result(self) -> Any:
        return self._stored.pop(self._asked.pop(0).task)

    def ready_results(self) -> list[Any]:
        ready = []
        while self._asked and len(ready) < GROUP - 1:
            ready.append(self.next_result())
        return ready


def new_folder(root: Path, name: str, tasks: int, per_task: int) -> RunFolder:
    """A run folder whose plan has ``tasks`` tasks of ``per_task`` items, as the runner makes."""
    cfg = config(tasks * per_task // PAIRINGS)
    lineups = cfg.lineups()
    played = cfg.played_pairings()
    plan = Plan(len(played), cfg.tournament.deals, per_task, cfg.game().duplicate_rotations)
    return RunFolder.create(root / name, _run_meta(cfg, cfg.game(), lineups, played, plan))


def whole_driver(root: Path, results: list[TaskResult], tasks: int, per_task: int,
                 stored: bool) -> float:
    """Seconds the runner's driver loop takes to take in ``tasks`` pre-made results, less
    the merges it handed to workers; ``stored``: the workers wrote their units."""
    executor = (StoredFeedExecutor if stored else FeedExecutor)(results)
    with new_folder(root, "stored" if stored else "whole", tasks, per_task) as folder:
        if stored:
            executor.prepare(folder, tasks)
        started = time.perf_counter()
        summary = _execute(folder, executor, progress=False)
        seconds = time.perf_counter() - started
    if summary.tasks_run != tasks:
        raise SystemExit(f"commit_rate: the driver committed {summary.tasks_run} of {tasks}"
                         " tasks")
    return seconds - (executor.merge_seconds if stored else 0.0)


def timed_each(results: list[TaskResult], tasks: int,
               step: Callable[[int, TaskResult], None]) -> float:
    started = time.perf_counter()
    for task in range(tasks):
        step(task, results[task % len(results)])
    return time.perf_counter() - started


def parts(root: Path, results: list[TaskResult], tasks: int, per_task: int) -> dict[str, float]:
    """Seconds of each part of the driver's work over ``tasks`` commits."""
    out: dict[str, float] = {}
    blobs = [pickle.dumps(r, protocol=5) for r in results]
    out["transfer (unpickle a result)"] = timed_each(
        results, tasks, lambda task, _: pickle.loads(blobs[task % len(blobs)]))
    standings = LiveStandings([e.get("label", e["use"]) for e in ENTRANTS])
    out["live standings"] = timed_each(
        results, tasks, lambda _, result: standings.add_rows(result.tables["seats"]))

    compacting = 0.0
    with new_folder(root, "store", tasks, per_task) as folder:
        started = time.perf_counter()
        for task in range(tasks):
            folder.commit_task(task, results[task % len(results)].tables)
            if (task + 1) % COMPACT_EVERY == 0:
                begun = time.perf_counter()
                folder.compact()
                compacting += time.perf_counter() - begun
        out["store: commit_task"] = time.perf_counter() - started - compacting
        out["store: compact"] = compacting

    with new_folder(root, "split", tasks, per_task) as folder:
        if not (hasattr(folder, "_write_unit") and hasattr(folder, "_publish")):
            return out
        write = publish = 0.0
        for task in range(tasks):
            unit = f"task-{task:08d}"
            begun = time.perf_counter()
            record = folder._write_unit(unit, results[task % len(results)].tables, [task],
                                        "commit")
            written = time.perf_counter()
            folder._publish(folder._manifest.next({unit: record}), "commit")
            publish += time.perf_counter() - written
            write += written - begun
            if (task + 1) % COMPACT_EVERY == 0:
                folder.compact()  # untimed: sharded, a worker's task; it bounds the units
        out["split: write the unit (a worker's share if sharded)"] = write
        out["split: name it in a snapshot (the driver's share)"] = publish

    with new_folder(root, "group", tasks, per_task) as folder:
        publish = 0.0
        for start in range(0, tasks, GROUP):
            group = range(start, min(tasks, start + GROUP))
            records = {f"task-{task:08d}": folder._write_unit(
                f"task-{task:08d}", results[task % len(results)].tables, [task], "commit")
                for task in group}
            begun = time.perf_counter()
            folder._publish(folder._manifest.next(records), "commit")
            publish += time.perf_counter() - begun
            if (start + len(group)) % COMPACT_EVERY == 0:
                folder.compact()
        out[f"split: name {GROUP} units a snapshot (group commit)"] = publish
    return out


def rate(hands: float, seconds: float) -> str:
    return f"{hands / seconds:>12,.0f}" if seconds > 0 else f"{'inf':>12s}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task-hands", type=int, default=4000,
                        help="hands per task (the runner's auto size aims at 2 s of play:"
                        " 8,000 German hands at the 4,000 hands/s target)")
    parser.add_argument("--tasks", type=int, default=2 * COMPACT_EVERY,
                        help="commits timed (two compactions at the default)")
    parser.add_argument("--distinct", type=int, default=4,
                        help="tasks actually played; the commits cycle through them")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many")
    args = parser.parse_args()

    played = time.perf_counter()
    results, per_hand = make_results(args.task_hands, args.distinct)
    played = time.perf_counter() - played
    hands = results[0].deals
    per_task = items_per_task(args.task_hands)
    rows = sum(t.num_rows for t in results[0].tables.values())
    print(f"{args.distinct} German Whist tasks of {hands:,} hands ({rows:,} rows) played in"
          f" {played:.1f} s: {1 / per_hand:,.0f} hands/s on this core through play_task")
    print(f"feeding {args.tasks} tasks ({args.tasks * hands:,} hands) to the driver,"
          f" best of {args.repeats}")

    best_whole = best_stored = float("inf")
    best_parts: dict[str, float] = {}
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="commit-rate-") as tmp:
            best_whole = min(best_whole, whole_driver(Path(tmp), results, args.tasks, per_task,
                                                      stored=False))
            best_stored = min(best_stored, whole_driver(Path(tmp), results, args.tasks,
                                                        per_task, stored=True))
            for name, seconds in parts(Path(tmp), results, args.tasks, per_task).items():
                best_parts[name] = min(best_parts.get(name, float("inf")), seconds)

    total = args.tasks * hands
    print()
    print(f"{'driver work':52s} {'ms/task':>8s} {'hands/s':>12s} {'x needed':>9s}")
    lines = [("whole driver loop, workers send tables", best_whole),
             ("whole driver loop, workers write units", best_stored), *best_parts.items()]
    for name, seconds in lines:
        ms = 1000 * seconds / args.tasks
        share = total / seconds / NEEDED if seconds > 0 else float("inf")
        print(f"{name:52s} {ms:8.1f} {rate(total, seconds)} {share:9.2f}")
    print()
    for name, seconds in (("workers send their tables (no shared storage)", best_whole),
                          ("workers write their units (the default)", best_stored)):
        taken = total / seconds
        print(f"{name}: the driver takes in {taken:,.0f} hands/s, {taken / NEEDED:.2f}x the"
              f" {NEEDED:,} hands/s of {TARGET_WORKERS} workers x {TARGET_RATE_PER_CORE:,};"
              f" enough for {taken / TARGET_RATE_PER_CORE:,.1f} workers at the target rate"
              f" ({taken * per_hand:,.1f} at this machine's {1 / per_hand:,.0f} hands/s"
              " a core)")
    if args.repeats == 1:
        print("(one repeat: --repeats 3 for steadier figures)")


if __name__ == "__main__":
    main()
