"""Recording at the speed of play: what a worker's task costs beside the bare play loop.

For each game and each of ``random`` and ``heuristic`` (every seat the same strategy),
plays the same matches twice in this process, on one core, interleaved:

- bare play: ``play_match`` over the task's line-ups, deals and seatings, nothing
  recorded (the engine, the views, the strategies);
- the task: ``tournament.worker.play_task`` for the same items: the same play, the
  entrants' wrappers (timing, captured output), every row, and the Arrow tables a
  worker hands to the driver.

It prints both in hands per second and the ratio task / bare (target: at least
0.85, "recording at the speed of play"), best of ``--repeats`` interleaved runs.
The machine is noisy: read the ratios, measured side by side, more than the rates.

Usage: python benchmarks/pipeline_throughput.py [--deals 200] [--repeats 3]
       [--games german_whist ...] [--strategies random heuristic]
"""

from __future__ import annotations

import argparse
import time

from whist_sim.games import make_game
from whist_sim.play import play_match
from whist_sim.strategy import build_strategy
from whist_sim.tournament.schedule import Plan, match_seed, rotate, seatings
from whist_sim.tournament.worker import TaskSpec, play_task

GAMES = {"german_whist": None, "solo_whist": None, "minnesota_whist": None,
         "knockout_whist": 4}
TARGET_RATIO = 0.85


def task_spec(game: str, players: int | None, strategy: str, deals: int) -> TaskSpec:
    seats = make_game(game, {}, players).players
    lineup = tuple("a" if seat % 2 == 0 else "b" for seat in range(seats))
    return TaskSpec(
        task=0, game=game, variant={}, players=players, root_seed=7,
        plan=Plan(1, deals, deals, make_game(game, {}, players).duplicate_rotations),
        lineups=[lineup], strategies={"a": (strategy, {}), "b": (strategy, {})},
        time_limit=None, on_error="forfeit",
    )


def bare(spec: TaskSpec) -> tuple[float, int]:
    """Seconds and hands of the task's play with nothing recorded."""
    game = make_game(spec.game, spec.variant, spec.players)
    built = {label: build_strategy(use, params, game.name)
             for label, (use, params) in spec.strategies.items()}
    lineup = spec.lineups[0]
    hands = 0
    started = time.perf_counter()
    for _, deal in spec.plan.task_items(0):
        seed = match_seed(spec.root_seed, deal)
        for rotation in seatings(lineup, game.duplicate_rotations):
            played, _ = play_match(game, [built[label] for label in rotate(lineup, rotation)],
                                   seed)
            hands += len(played)
    return time.perf_counter() - started, hands


def recorded(spec: TaskSpec) -> tuple[float, int]:
    started = time.perf_counter()
    result = play_task(spec)
    return time.perf_counter() - started, result.deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--strategies", nargs="+", default=["random", "heuristic"])
    args = parser.parse_args()
    print(f"{'game':16s} {'strategy':10s} {'bare hands/s':>13s} {'task hands/s':>13s}"
          f" {'task/bare':>9s}")
    for game in args.games:
        for strategy in args.strategies:
            spec = task_spec(game, GAMES[game], strategy, args.deals)
            best_bare = best_task = float("inf")
            hands = 0
            for _ in range(args.repeats):
                seconds, hands = bare(spec)
                best_bare = min(best_bare, seconds)
                seconds, task_hands = recorded(spec)
                best_task = min(best_task, seconds)
                assert task_hands == hands
            ratio = best_bare / best_task
            flag = "" if ratio >= TARGET_RATIO else "  below 0.85"
            print(f"{game:16s} {strategy:10s} {hands / best_bare:13.0f} {hands / best_task:13.0f}"
                  f" {ratio:9.2f}{flag}")


if __name__ == "__main__":
    main()
