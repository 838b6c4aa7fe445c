"""Run a tournament on Ray: plan tasks, ship them, commit results as they arrive.

Ray starts embedded by default (bound to a loopback address, so nothing on the
network can reach it) or joins an existing cluster given ``address`` or
``RAY_ADDRESS``. Finished tasks come back as Arrow tables and are committed
atomically by the driver in completion order (``ray.wait``); compaction keeps
the folder to a handful of files. Re-running the missing tasks of a folder
(``resume_tournament``) gives the same rows as an uninterrupted run.
"""

from __future__ import annotations

import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
from tqdm import tqdm

import whist_sim
from whist_sim.play import StrategyFailure
from whist_sim.store import RunFolder, RunFolderError, now_iso
from whist_sim.tournament.cluster import ray_session
from whist_sim.tournament.config import TournamentConfig, validate_config
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import TaskResult, TaskSpec, play_task

TARGET_TASK_SECONDS = 2.0
"""Aim for tasks this long: Ray's few milliseconds per task stay far below 5%."""

MIN_TASKS_PER_SLOT = 4
"""Cut at least this many tasks per worker, so the last tasks do not leave workers idle."""

COMPACT_EVERY = 64
"""Fold task units into a batch after this many commits."""


@dataclass
class RunSummary:
    """What a finished (or stopped) run did, for the CLI and notebooks."""

    path: Path
    status: str
    deals: int
    tasks_run: int
    wall_seconds: float
    task_seconds: float
    workers: int

    @property
    def overhead(self) -> float:
        """Share of worker time not spent playing: Ray scheduling, transfer, idle tails."""
        budget = self.wall_seconds * self.workers
        return max(0.0, 1.0 - self.task_seconds / budget) if budget > 0 else 0.0


def run_tournament(
    config: TournamentConfig,
    out: Path | str,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
) -> RunSummary:
    """Start a new run of ``config`` in folder ``out`` and play it to the end."""
    game = config.game()
    seats = config.lineups()
    if Path(out).exists() and any(Path(out).iterdir()):
        raise RunFolderError(
            f"{out} already exists and is not empty; choose another --out or"
            f" continue it with --resume {out}"
        )
    with ray_session(address, workers) as slots:
        per_task = config.tournament.deals_per_task
        if per_task == "auto":
            per_task = _auto_task_size(config, seats, slots)
        plan = Plan(len(seats), config.tournament.deals, per_task, game.duplicate_rotations)
        folder = RunFolder.create(Path(out), _run_meta(config, game, seats, plan))
        return _execute(folder, slots, progress)


def _run_meta(
    config: TournamentConfig, game: Any, seats: list[tuple[str, ...]], plan: Plan
) -> dict[str, Any]:
    """run.json: everything needed to understand, reproduce and resume the run."""
    return {
        "config": config.model_dump(mode="json"),
        "game": game.name,
        "game_version": game.version,
        "variant": game.variant.as_dict(),
        "players": [g.players for g in config.games()],
        "root_seed": config.tournament.seed,
        "lineups": [list(lineup) for lineup in seats],
        "plan": {"pairings": plan.pairings, "deals": plan.deals,
                 "deals_per_task": plan.deals_per_task, "tasks": plan.tasks},
        "strategies": {
            e.name: {"use": e.use, "params": e.params, "version": v}
            for e, v in zip(config.strategies, config.strategy_versions().values(), strict=True)
        },
        "whist_sim_version": whist_sim.__version__,
        "python": platform.python_version(),
        "ray_version": ray.__version__,
        "started": now_iso(),
        "ended": None,
        "status": "running",
        "schema_version": 1,
    }


def resume_tournament(
    run: Path | str,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
) -> RunSummary:
    """Play the tasks a stopped run is missing; the result equals an uninterrupted run."""
    folder = RunFolder.open(run, repair=True)
    load_plan(folder)  # a corrupt run.json fails before Ray starts
    with ray_session(address, workers) as slots:
        return _execute(folder, slots, progress)


def load_plan(folder: RunFolder) -> tuple[TournamentConfig, Plan, list[tuple[str, ...]]]:
    meta = folder.meta()
    try:
        config = validate_config(meta["config"], str(folder.path / "run.json"))
        rotations = config.game().duplicate_rotations
        plan = Plan(
            meta["plan"]["pairings"], meta["plan"]["deals"], meta["plan"]["deals_per_task"],
            rotations,
        )
        seats = [tuple(lineup) for lineup in meta["lineups"]]
    except (KeyError, TypeError) as exc:
        raise RunFolderError(f"{folder.path}/run.json: corrupt (missing {exc})") from None
    return config, plan, seats


def _execute(folder: RunFolder, slots: int, progress: bool) -> RunSummary:
    config, plan, seats = load_plan(folder)
    done = folder.completed_tasks()
    pending = [t for t in range(plan.tasks) if t not in done]
    specs = {t: _spec(config, plan, seats, t) for t in pending}
    games_of = {t: plan.task_games(t, seats) for t in range(plan.tasks)}
    started = time.perf_counter()
    task_seconds = 0.0
    deals = 0
    folder.update_meta(status="running", ended=None)
    bar = tqdm(
        total=sum(games_of.values()),
        initial=sum(games_of[t] for t in range(plan.tasks) if t not in specs),
        unit="deal",
        desc=folder.path.name,
        disable=not progress,
        smoothing=0.1,
        file=sys.stderr,
    )
    status = "complete"
    committed = 0
    nodes: set[str] = set(folder.meta().get("nodes", []))
    try:
        # SPREAD: tasks go to every node from the start instead of filling the node
        # whose workers happen to be warm first
        remote = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(play_task)
        queue = list(pending)
        in_flight: dict[Any, int] = {}
        while queue or in_flight:
            while queue and len(in_flight) < 2 * slots:
                task = queue.pop(0)
                in_flight[remote.remote(specs[task])] = task
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                in_flight.pop(ref)
                result: TaskResult = ray.get(ref)
                folder.commit_task(result.task, result.tables)
                committed += 1
                task_seconds += result.seconds
                deals += result.deals
                nodes.add(result.node)
                bar.update(games_of[result.task])
                if committed % COMPACT_EVERY == 0:
                    folder.compact()
    except KeyboardInterrupt:
        status = "interrupted"
    except ray.exceptions.RayTaskError as exc:
        cause = exc.cause if isinstance(getattr(exc, "cause", None), Exception) else exc
        status = "aborted" if isinstance(cause, StrategyFailure) else "failed"
        folder.update_meta(status=status, ended=now_iso(), error=str(cause))
        if isinstance(cause, StrategyFailure):
            raise cause from None  # on_error = "abort": one clear line, not a traceback
        raise
    except Exception as exc:  # a worker or node lost: finished tasks stay committed
        folder.update_meta(status="failed", ended=now_iso(), error=f"{type(exc).__name__}: {exc}")
        raise
    finally:
        bar.close()
    wall = time.perf_counter() - started
    if status == "complete":
        folder.compact(min_units=2)
    meta = folder.meta()
    totals = meta.get("totals", {"wall_seconds": 0.0, "task_seconds": 0.0})
    totals = {
        "wall_seconds": totals["wall_seconds"] + wall,
        "task_seconds": totals["task_seconds"] + task_seconds,
    }
    folder.update_meta(
        status=status, ended=now_iso() if status == "complete" else None, totals=totals,
        workers=slots,
        nodes=sorted(nodes),
    )
    return RunSummary(folder.path, status, deals, committed, wall, task_seconds, slots)


def _spec(
    config: TournamentConfig, plan: Plan, seats: list[tuple[str, ...]], task: int
) -> TaskSpec:
    return TaskSpec(
        task=task,
        game=config.tournament.game,
        variant=dict(config.variant),
        players=config.tournament.players,
        root_seed=config.tournament.seed,
        plan=plan,
        lineups=seats,
        strategies={e.name: (e.use, dict(e.params)) for e in config.strategies},
        time_limit=config.tournament.time_limit,
        on_error=config.tournament.on_error,
    )


def _auto_task_size(config: TournamentConfig, seats: list[tuple[str, ...]], slots: int) -> int:
    """Items per task so a task lasts about TARGET_TASK_SECONDS, measured on a sample.

    Plays a few items of the real plan in the driver (deterministic, then
    discarded) and scales, keeping at least MIN_TASKS_PER_SLOT tasks per worker
    so the load balances and progress moves. The size is stored in run.json, so
    a resume cuts the same tasks.
    """
    items = len(seats) * config.tournament.deals
    sample = Plan(len(seats), config.tournament.deals, max(1, min(items, 2 * len(seats))))
    # (a sample task plays every seating of its items, as the real tasks will)
    result = play_task(_spec(config, sample, seats, 0))
    per_item = max(result.seconds, 1e-6) / len(sample.task_items(0))
    size = int(TARGET_TASK_SECONDS / per_item)
    balanced = -(-items // (MIN_TASKS_PER_SLOT * slots))
    return max(1, min(size, balanced))
