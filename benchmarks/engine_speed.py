"""Engine and heuristic speed: this checkout beside an earlier commit, in the same run.

Measures, per core (one process at a time):

- heuristic against heuristic through ``tournament.worker.play_task`` (everything a
  worker does: play, rows, Arrow tables) for each game: German Whist, Solo Whist and
  Minnesota Whist in hands per second, Knock-out Whist at 4 players in games per second;
- random against random German Whist through ``play.play_deal`` (the bare play loop).

Time is the process's CPU time (``time.process_time``), not the wall clock: on a
shared machine a process waiting for a core is not charged, so hands per CPU-second
is the figure per core. Each figure is printed beside the same measurement of the
code at ``--old`` (default c43568d, the commit before the engine and heuristics were
made faster): that commit's ``whist_sim`` and ``strategies`` are extracted with
``git archive`` into a temporary folder and imported from there by a child process,
so the old code path stays callable. Old and new children alternate, ``--repeats``
times each, and the best run of each is kept: read the ratio new/old more than the
rates. Targets (issue 20): German 4,000, Solo 3,000, Minnesota 2,500 hands/s,
Knock-out 1,000 games/s, random German 15,000 hands/s through play_deal.

The heuristics' rows come in threes: ``decisions`` (the strategy alone: the views of
the run's deals with more than one legal action, recorded in play and put again to a
fresh player, in decisions per CPU-second and microseconds a decision), ``play_match``
(bare play: the engine and the strategies) and ``play_task`` (the same items recorded,
where the target applies; the recording is tournament/recording.py's part).

Measured at 95d3cc8 against c43568d (``--hands 300 --repeats 3``, 2 shared cores with
other processes running, load average 2 to 4; hands or games per CPU-second; the
decisions row in decisions per CPU-second)::

    case                 loop             old       new  new/old   target
    german_heuristic     decisions     94,932   772,756     8.14 10.53 -> 1.29 us a decision
    german_heuristic     play_match     1,594     5,927     3.72
    german_heuristic     play_task      1,020     4,165     4.08    4,000 hands/s met
    solo_heuristic       decisions     83,283   512,872     6.16 12.01 -> 1.95 us a decision
    solo_heuristic       play_match     2,061     5,850     2.84
    solo_heuristic       play_task      1,510     4,852     3.21    3,000 hands/s met
    minnesota_heuristic  decisions    149,369   677,315     4.53 6.69 -> 1.48 us a decision
    minnesota_heuristic  play_match     1,881     5,010     2.66
    minnesota_heuristic  play_task      1,276     4,038     3.17    2,500 hands/s met
    knockout_heuristic   decisions     82,329   401,166     4.87 12.15 -> 2.49 us a decision
    knockout_heuristic   play_match       804     1,799     2.24
    knockout_heuristic   play_task        589     1,488     2.53    1,000 games/s met
    german_random        play_deal      9,083     9,711     1.07   15,000 hands/s not met

Random German Whist was measured again once ``play_deal`` played deals of ``random`` seats
only in compiled code (``games.german_whist_uniform``: the same actions and final state,
tested deal by deal), ``--cases german_random --repeats 3``, quiet machine::

    case                 loop             old       new  new/old   target
    german_random        play_deal      6,160    21,631     3.51   15,000 met (old c43568d)
    german_random        play_deal      5,754    21,923     3.81   15,000 met (old 76279e5)

(The old figures are lower than the table's above: the machine's speed varies from one
day to the next; the ratios are measured in the same run.)

German Whist's play_task is the closest to its target: two earlier runs the same
afternoon, a few commits before and under heavier load (load average 5 to 8), gave
3,950 and 3,723 hands/s.

The ``play_task`` ratios include the recording's own speed-up over the same commits.

Usage: python benchmarks/engine_speed.py [--hands 400] [--repeats 3] [--old c43568d]
       [--cases german_heuristic solo_heuristic ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OLD_COMMIT = "c43568d"

CASES = {
    # name: (game, players, strategy, loop, target, unit)
    "german_heuristic": ("german_whist", None, "heuristic", "play_task", 4000, "hands"),
    "solo_heuristic": ("solo_whist", None, "heuristic", "play_task", 3000, "hands"),
    "minnesota_heuristic": ("minnesota_whist", None, "heuristic", "play_task", 2500, "hands"),
    "knockout_heuristic": ("knockout_whist", 4, "heuristic", "play_task", 1000, "games"),
    "german_random": ("german_whist", None, "random", "play_deal", 15000, "hands"),
}
"""Each ``play_task`` case is also measured as bare play (``play_match`` over the task's
items, nothing recorded): the engine and the strategies alone, which this work changes,
apart from the recording, which tournament/recording.py owns."""


# -- the child: one measurement, with whatever whist_sim is importable ---------------------

def task_spec(game: str, players: int | None, strategy: str, deals: int) -> Any:
    from whist_sim.games import make_game
    from whist_sim.tournament.schedule import Plan
    from whist_sim.tournament.worker import TaskSpec

    built = make_game(game, {}, players)
    lineup = tuple("a" if seat % 2 == 0 else "b" for seat in range(built.players))
    return TaskSpec(
        task=0, game=game, variant={}, players=players, root_seed=7,
        plan=Plan(1, deals, deals, built.duplicate_rotations),
        lineups=[lineup], strategies={"a": (strategy, {}), "b": (strategy, {})},
        time_limit=None, on_error="forfeit",
    )


def measure_play_task(game: str, players: int | None, strategy: str, deals: int) -> tuple:
    from whist_sim.tournament.worker import play_task

    spec = task_spec(game, players, strategy, deals)
    started = time.process_time()
    result = play_task(spec)
    return time.process_time() - started, result.deals


def measure_play_match(game: str, players: int | None, strategy: str, deals: int) -> tuple:
    """The task's line-up, deals and seatings through ``play_match``, nothing recorded
    (as benchmarks/pipeline_throughput.py's bare loop)."""
    from whist_sim.games import make_game
    from whist_sim.play import play_match
    from whist_sim.strategy import build_strategy
    from whist_sim.tournament.schedule import match_seed, rotate, seatings

    spec = task_spec(game, players, strategy, deals)
    built = make_game(game, {}, players)
    entrants = {label: build_strategy(use, params, game)
                for label, (use, params) in spec.strategies.items()}
    lineup = spec.lineups[0]
    hands = 0
    started = time.process_time()
    for _, deal in spec.plan.task_items(0):
        seed = match_seed(spec.root_seed, deal)
        for rotation in seatings(lineup, built.duplicate_rotations):
            played, _ = play_match(built, [entrants[label] for label in rotate(lineup, rotation)],
                                   seed)
            hands += len(played)
    return time.process_time() - started, hands


def measure_play_deal(game: str, players: int | None, strategy: str, deals: int) -> tuple:
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.strategy import build_strategy

    built = make_game(game, {}, players)
    seats = [build_strategy(strategy, {}, game) for _ in range(built.players)]
    started = time.process_time()
    for seed in range(deals):
        play_deal(built, seats, seed, seed % built.players)
    return time.process_time() - started, deals


def measure_decisions(game: str, players: int | None, strategy: str, deals: int) -> tuple:
    """The strategy's decisions alone: the views of ``deals`` deals with more than one
    legal action, recorded in play, then put again to a fresh player (best of three
    passes, in the order played: a heuristic's trick memo sees what it sees in play)."""
    from random import Random

    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.strategy import build_strategy

    built = make_game(game, {}, players)
    views = []

    class Recorder:
        def __init__(self) -> None:
            self.player = build_strategy(strategy, {}, game)

        def choose(self, view: Any, rng: Any) -> int:
            if view.legal & (view.legal - 1):
                views.append(view)
            return self.player.choose(view, rng)

    seats = [Recorder() for _ in range(built.players)]
    for seed in range(deals):
        play_deal(built, seats, seed, seed % built.players)
    player = build_strategy(strategy, {}, game)
    rng = Random(0)
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for view in views:
            player.choose(view, rng)
        best = min(best, time.process_time() - started)
    return best, len(views)


def child(case: str, loop: str, deals: int) -> None:
    game, players, strategy, _, _, _ = CASES[case]
    measure = {"play_task": measure_play_task, "play_match": measure_play_match,
               "play_deal": measure_play_deal, "decisions": measure_decisions}[loop]
    from whist_sim import play

    if hasattr(play, "use_compiled_play"):  # a long run's steady state: compiled random play
        play.use_compiled_play = True
    measure(game, players, strategy, max(2, deals // 20))  # warm up: imports, caches
    seconds, hands = measure(game, players, strategy, deals)
    print(json.dumps({"seconds": seconds, "hands": hands}))


# -- the parent: alternate old and new children ---------------------------------------------

def extract(commit: str, into: Path) -> None:
    """``whist_sim`` and ``strategies`` of ``commit`` into ``into``."""
    archive = subprocess.run(
        ["git", "archive", commit, "whist_sim", "strategies"], cwd=ROOT, check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def run_child(case: str, loop: str, deals: int, path: Path | None) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(path) if path else str(ROOT)
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", case, "--loop", loop,
         "--hands", str(deals)],
        cwd=path or ROOT, env=env, check=True, capture_output=True, text=True,
    ).stdout
    found = json.loads(out.strip().splitlines()[-1])
    return found["hands"] / found["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands (games) per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side, best kept")
    parser.add_argument("--old", default=OLD_COMMIT, help="the commit to compare with")
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--child", choices=list(CASES), help=argparse.SUPPRESS)
    parser.add_argument("--loop", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.loop, args.hands)
        return
    print(f"per core, best of {args.repeats} alternating runs; old = {args.old}, new = this"
          " checkout (measured on a shared machine: read the ratios)")
    print(f"{'case':20s} {'loop':10s} {'old':>9s} {'new':>9s} {'new/old':>8s} {'target':>8s}")
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp)
        extract(args.old, old_tree)
        for case in args.cases:
            _, _, strategy, loop, target, unit = CASES[case]
            deals = args.hands * (4 if strategy == "random" else 1)
            loops = [loop] if loop == "play_deal" else ["decisions", "play_match", loop]
            for measured in loops:
                best = {"old": 0.0, "new": 0.0}
                for _ in range(args.repeats):
                    best["old"] = max(best["old"], run_child(case, measured, deals, old_tree))
                    best["new"] = max(best["new"], run_child(case, measured, deals, None))
                met = ("met" if best["new"] >= target else "not met") if measured == loop else ""
                shown = f"{target:8,} {unit}/s {met}" if met else ""
                if measured == "decisions":  # decisions per second; also time per decision
                    shown = (f"{1e6 / best['old']:.2f} -> {1e6 / best['new']:.2f} us a decision"
                             " (views replayed)")
                print(f"{case:20s} {measured:10s} {best['old']:9,.0f} {best['new']:9,.0f}"
                      f" {best['new'] / best['old']:8.2f} {shown}", flush=True)

if __name__ == "__main__":
    main()
