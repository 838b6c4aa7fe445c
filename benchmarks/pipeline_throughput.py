"""Recording at the speed of play: what a worker's task costs beside the bare play loop.

For each game and each of ``random`` and ``heuristic`` (every seat the same strategy),
plays the same matches twice in this process, on one core, interleaved:

- bare play: ``play_match`` over the task's line-ups, deals and seatings, nothing
  recorded (the engine, the views, the strategies);
- the task: ``tournament.worker.play_task`` for the same items: the same play, the
  entrants' seating (captured output), each decision timed under the time limit a
  tournament has by default (``tournament.time_limit``, 10 s: ``--time-limit none`` for
  none), every row, and the Arrow tables a worker hands to the driver.

Tasks are sized as the runner sizes them (``deals_per_task = "auto"``): about
``TARGET_TASK_SECONDS`` (2 s) of play each, from a sample of bare play, so what a task
costs once (building its strategies, its schemas) weighs what it weighs in a run;
``--deals N`` fixes the size instead.

It prints both in hands per second and the ratio task / bare (target: at least
0.85, "recording at the speed of play"), best of ``--repeats`` interleaved runs; the
median of the repeats' paired ratios, each from a task and bare play back to back (in
alternating order), with their range, which shows how far one reading can be trusted
(on this shared machine one pair read 0.46 and another 0.99 in the same run, whose median
agreed with the ratio of the bests to 0.01); and
where the difference goes, in microseconds a hand, each part the best of as many runs
(``parts``): bare play and the same play with its decisions timed under the limit,
back to back (``timing`` is their difference); the task with a recorder that keeps
nothing (``loop``: what the task's loop adds to timed play: the entrants, the seating,
the deal source); the task with a recorder that keeps every hand but builds no table
(``keeping``: beyond ``loop``, the hands handed to the recorder as the task plays, with
the garbage collector's passes over what it keeps, which handing the same hands over
after play left out: 3.4 microseconds a random German hand that way, 6.5 in the task);
and building the tables; then the ratio the parts give, bare / (bare + timing + loop +
keeping + tables). On a shared machine bare play alone varies by 10% from one
run to the next, so the parts ratio, whose terms are measured close together, is the
steadier reading of the two. Then ``if free``: the ratio the task would reach if keeping
the hands and building the tables cost nothing, bare / (bare + timing + loop): the
bound that timing each decision under the limit and the task's loop alone leave, which
no recorder, however fast, can pass. Last, ``room us``: the microseconds a hand that keeping
and the tables may take together for the parts to reach 0.85 (``recording_room``), beside
what they take (negative: timing and the loop alone leave 0.85 out of reach).
The machine is noisy: read the ratios, measured side by side, more than the rates.
``--clock cpu`` times with the process's CPU time instead of the wall clock: on a
machine shared with other work, a wall clock counts the time the process waited for a
core, which can dwarf what is measured (both codes run on one core, in one process).

The task reads its tricks off the log as a long run's worker does once it has recorded
a few tasks: with the compiled kernels (``tournament.trick_kernels``, loaded before the
first measurement; ``--readings numpy`` measures the NumPy readings a process uses for
its first ``recording.COMPILED_AFTER_HANDS`` hands instead).

With the compiled readings, deals of ``random`` seats only are played compiled too, in
bare play and in the task alike (``play.use_compiled_play``), as in a worker that has
loaded numba: German Whist's random row then measures recording against compiled play,
about 47 microseconds a hand rather than 100 to 120, and its ratio reads lower
(0.66 against 0.83 on 4 December) while the task runs 2.2 times as fast; with
``--readings numpy`` both play through the loop.

``--before REV`` measures the same thing, in the same run, with the whist_sim of git
revision REV (exported to a temporary folder and run in a child process, interleaved
game by game with this checkout's measurement), and prints its ratio beside.

Usage: python benchmarks/pipeline_throughput.py [--deals N | --task-seconds 2] [--repeats 3]
       [--games german_whist ...] [--strategies random heuristic]
       [--time-limit 10] [--before REV] [--clock wall|cpu] [--readings compiled|numpy]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from whist_sim.games import make_game
from whist_sim.play import play_match
from whist_sim.strategy import build_strategy
from whist_sim.tournament.config import MAX_DEALS_PER_TASK
from whist_sim.tournament.runner import TARGET_TASK_SECONDS
from whist_sim.tournament.schedule import Plan, match_seed, rotate, seatings
from whist_sim.tournament.worker import TaskSpec, play_task

GAMES = {"german_whist": None, "solo_whist": None, "minnesota_whist": None,
         "knockout_whist": 4}
TARGET_RATIO = 0.85


def task_spec(game: str, players: int | None, strategy: str, deals: int,
              time_limit: float | None = None) -> TaskSpec:
    seats = make_game(game, {}, players).players
    lineup = tuple("a" if seat % 2 == 0 else "b" for seat in range(seats))
    return TaskSpec(
        task=0, game=game, variant={}, players=players, root_seed=7,
        plan=Plan(1, deals, deals, make_game(game, {}, players).duplicate_rotations),
        lineups=[lineup], strategies={"a": (strategy, {}), "b": (strategy, {})},
        time_limit=time_limit, on_error="forfeit",
    )


CLOCK = {"wall": time.perf_counter, "cpu": time.process_time}
now = time.perf_counter


def bare(spec: TaskSpec) -> tuple[float, int]:
    """Seconds and hands of the task's play with nothing recorded."""
    game = make_game(spec.game, spec.variant, spec.players)
    built = {label: build_strategy(use, params, game.name)
             for label, (use, params) in spec.strategies.items()}
    lineup = spec.lineups[0]
    hands = 0
    started = now()
    for _, deal in spec.plan.task_items(0):
        seed = match_seed(spec.root_seed, deal)
        for rotation in seatings(lineup, game.duplicate_rotations):
            played, _ = play_match(game, [built[label] for label in rotate(lineup, rotation)],
                                   seed)
            hands += len(played)
    return now() - started, hands


def parts(spec: TaskSpec) -> dict[str, float]:
    """The task's work beside bare play, each part timed alone, in seconds: ``bare`` and
    ``timed`` (the same play with every decision timed under the task's limit), played
    back to back here with nothing kept; ``nothing`` and ``kept``, ``play_task`` with a
    recorder that keeps nothing, and one that keeps every hand but builds no table;
    ``tables`` (the Arrow tables built at the end), as ``play_task`` does them. Steadier
    than the task's rate against bare play measured apart: on a shared machine bare
    play alone varies by 10% from one run to the next. (Imported here: a
    ``--before`` revision measures the task and bare play only, whatever it has.)"""
    from whist_sim.budget import decision_clock
    from whist_sim.tournament.recording import TaskRecorder
    from whist_sim.tournament.worker import _old_objects_aside

    game = make_game(spec.game, spec.variant, spec.players)
    built = {label: build_strategy(use, params, game.name)
             for label, (use, params) in spec.strategies.items()}
    lineup = spec.lineups[0]
    limit = spec.time_limit
    items = [(deal, rotation, rotate(lineup, rotation), match_seed(spec.root_seed, deal))
             for _, deal in spec.plan.task_items(0)
             for rotation in seatings(lineup, game.duplicate_rotations)]

    def play(timed: bool, clock: Any = None, keep: bool = False) -> list[tuple[Any, ...]]:
        """Every item played (timed: as the task plays it); ``keep``: each with what the
        recorder needs (else nothing is kept, as in bare play, whose hands die young)."""
        kept = []
        for deal, rotation, seated, seed in items:
            played = play_match(game, [built[label] for label in seated], seed,
                                time_limit=limit if timed else None, timed=timed,
                                clock=clock if timed and limit is not None else None)
            if keep:
                kept.append((deal, rotation, seated, *played))
        return kept

    recorder = TaskRecorder(game, json.dumps(game.variant.as_dict(), sort_keys=True))
    with _old_objects_aside(), decision_clock(limit or math.inf) as clock:
        started = now()
        play(False)
        bare_play = now() - started
        started = now()
        play(True, clock)
        timed_play = now() - started
        played_items = play(True, clock, keep=True)
        for deal, rotation, seated, played, match in played_items:
            for hand, result in enumerate(played):
                recorder.add_hand((0, deal, rotation, hand), seated, result,
                                  result.outcome.error, result.seconds)
            recorder.add_match((0, deal, rotation), seated, len(played), match)
        started = now()
        recorder.tables()
        tables = now() - started
    builds_nothing, keeps_nothing = _recorder_kinds()
    return {"bare": bare_play, "timed": timed_play, "nothing": in_task(spec, keeps_nothing),
            "kept": in_task(spec, builds_nothing), "tables": tables}


def in_task(spec: TaskSpec, recorder: type) -> float:
    """Seconds of ``play_task`` with ``recorder`` in place of the task's own."""
    from whist_sim.tournament import worker

    real = worker.TaskRecorder
    worker.TaskRecorder = recorder
    try:
        started = now()
        play_task(spec)
        return now() - started
    finally:
        worker.TaskRecorder = real


def _recorder_kinds() -> tuple[type, type]:
    """Recorders for ``in_task``: one that keeps every hand and builds no table, and one
    that keeps nothing either."""
    from whist_sim.tournament.recording import TaskRecorder

    class BuildsNothing(TaskRecorder):
        def tables(self) -> dict[str, Any]:
            return {}

        def decision_totals(self, labels: Any) -> dict[str, Any]:
            return {}

    class KeepsNothing(BuildsNothing):
        def add_hand(self, *args: Any) -> None:
            pass

        def add_match(self, *args: Any) -> None:
            pass

    return BuildsNothing, KeepsNothing


def part_ratios(spent: dict[str, float], hands: int) -> tuple[dict[str, float], float, float]:
    """From ``parts``' seconds: each part in microseconds a hand (``bare``, ``timing``,
    ``loop``, ``keeping``, ``tables``; a difference that noise made negative reads 0), the
    ratio they give, bare / their sum, and the ratio if keeping and tables cost nothing,
    bare / (bare + timing + loop): what timing and the loop alone leave."""
    micro = {part: seconds / hands * 1e6 for part, seconds in spent.items()}
    timed, nothing, kept = micro.pop("timed"), micro.pop("nothing"), micro.pop("kept")
    micro["timing"] = max(timed - micro["bare"], 0.0)
    micro["loop"] = max(nothing - timed, 0.0)
    micro["keeping"] = max(kept - nothing, 0.0)
    by_parts = micro["bare"] / sum(micro.values())
    if_free = micro["bare"] / (micro["bare"] + micro["timing"] + micro["loop"])
    return micro, by_parts, if_free


def recording_room(micro: dict[str, float], target: float = TARGET_RATIO) -> float:
    """From ``part_ratios``' microseconds a hand: what keeping the hands and building the
    tables may take together for the parts to reach ``target``, bare / target - (bare +
    timing + loop). Negative: timing and the loop alone leave the target out of reach."""
    return micro["bare"] / target - (micro["bare"] + micro["timing"] + micro["loop"])


def recorded(spec: TaskSpec) -> tuple[float, int]:
    started = now()
    result = play_task(spec)
    return now() - started, result.deals


def measure(game: str, strategy: str, deals: int, repeats: int, time_limit: float | None,
            with_parts: bool = True) -> tuple[int, float, float, list[float], dict[str, float]]:
    """Hands; the best seconds of bare play and of the task, interleaved; each repeat's
    ratio of the two (bare seconds / task seconds: the task's rate as a share of bare
    play's), the two played back to back in alternating order (bare first, then the task
    first), so a burst of outside load that lasts longer than the pair slows both alike;
    and the best seconds of each of the task's parts (``parts``; none unless
    ``with_parts``)."""
    spec = task_spec(game, GAMES[game], strategy, deals, time_limit)
    best_bare = best_task = float("inf")
    best_parts: dict[str, float] = {}
    paired = []
    hands = 0
    for repeat in range(repeats):
        if repeat % 2 == 0:
            bare_seconds, hands = bare(spec)
            task_seconds, task_hands = recorded(spec)
        else:
            task_seconds, task_hands = recorded(spec)
            bare_seconds, hands = bare(spec)
        assert task_hands == hands
        best_bare, best_task = min(best_bare, bare_seconds), min(best_task, task_seconds)
        paired.append(bare_seconds / task_seconds)
        for part, seconds in (parts(spec) if with_parts else {}).items():
            best_parts[part] = min(best_parts.get(part, float("inf")), seconds)
    return hands, best_bare, best_task, paired, best_parts


def task_size(game: str, strategy: str, seconds: float) -> int:
    """Deals whose bare play takes about ``seconds``, from a sample of 10 (the runner's
    automatic task size, which aims at a task length)."""
    spec = task_spec(game, GAMES[game], strategy, 10)
    bare(spec)  # warm up
    spent, _ = bare(spec)
    return max(10, min(MAX_DEALS_PER_TASK, round(10 * seconds / max(spent, 1e-6))))


def before(tree: Path, game: str, strategy: str, deals: int, args: argparse.Namespace) -> dict:
    """``measure`` with the whist_sim exported to ``tree``, in a child process."""
    command = [sys.executable, __file__, "--child", "--games", game, "--strategies", strategy,
               "--deals", str(deals), "--repeats", str(args.repeats),
               "--time-limit", str(args.time_limit), "--clock", args.clock,
               "--readings", args.readings]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(command, env=env, cwd=tree, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.splitlines()[-1])


def export(rev: str, folder: Path) -> Path:
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", rev], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def choose_readings(readings: str) -> None:
    """Make every task read its log as ``readings`` says (a revision from before the
    compiled readings has only the NumPy ones, and is left as it is), and play deals of
    ``random`` seats only as a process does that has loaded numba: compiled with the
    compiled readings, through the loop with the NumPy ones."""
    from whist_sim import play
    from whist_sim.tournament import recording

    if hasattr(play, "use_compiled_play"):
        play.use_compiled_play = readings == "compiled"

    if hasattr(recording, "use_compiled"):
        recording.use_compiled = readings == "compiled"
        if recording.use_compiled:  # numba and the kernels loaded before any timing
            import whist_sim.tournament.trick_kernels  # noqa: F401


def limit(text: str) -> float | None:
    return None if text.lower() == "none" else float(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, help="deals per task (default: sized by time)")
    parser.add_argument("--task-seconds", type=float, default=TARGET_TASK_SECONDS,
                        help="bare play per task when --deals is not given")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--strategies", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--time-limit", type=limit, default=10.0,
                        help="seconds per decision in the task (none: no limit)")
    parser.add_argument("--before", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--clock", choices=list(CLOCK), default="wall",
                        help="wall clock, or the process's CPU time (a shared machine)")
    parser.add_argument("--readings", choices=("compiled", "numpy"), default="compiled",
                        help="how the task reads its tricks off the log (default: compiled,"
                             " as a long run does)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global now
    now = CLOCK[args.clock]
    choose_readings(args.readings)
    # bare play is measured in the memory a worker keeps, as the task is; a --before
    # revision older than freed_memory measures both without it, as its workers ran
    try:
        from whist_sim.tournament.freed_memory import keep_freed_memory
    except ImportError:
        pass
    else:
        keep_freed_memory()
    if args.child:
        hands, bare_s, task_s, _, _ = measure(args.games[0], args.strategies[0],
                                           args.deals or 200, args.repeats, args.time_limit,
                                           with_parts=False)
        print(json.dumps({"hands": hands, "bare": bare_s, "task": task_s}))
        return
    shown = "none" if args.time_limit is None else f"{args.time_limit:g} s"
    size = (f"{args.deals} deals" if args.deals else
            f"deals for about {args.task_seconds:g} s of bare play")
    print(f"time limit per decision in the task: {shown}; best of {args.repeats}; a task of"
          f" {size}; {args.clock} clock; {args.readings} readings of the log")
    with tempfile.TemporaryDirectory() as temporary:
        tree = export(args.before, Path(temporary)) if args.before else None
        head = (f"{'game':16s} {'strategy':10s} {'deals':>6s} {'bare hands/s':>13s}"
                f" {'task hands/s':>13s} {'task/bare':>9s} {'paired [range]':>17s}"
                f"  {'us a hand: bare':>15s}"
                f" {'timing':>6s} {'loop':>5s} {'keeping':>7s} {'tables':>6s}"
                f" {'parts ratio':>11s} {'if free':>7s} {'room us':>7s}")
        if tree is not None:
            head += f"  {'before: bare':>12s} {'task':>7s} {'task/bare':>9s}"
        print(head)
        for game in args.games:
            for strategy in args.strategies:
                deals = args.deals or task_size(game, strategy, args.task_seconds)
                old = before(tree, game, strategy, deals, args) if tree is not None else None
                hands, bare_s, task_s, paired, spent = measure(game, strategy, deals, args.repeats,
                                                       args.time_limit)
                ratio = bare_s / task_s
                micro, by_parts, if_free = part_ratios(spent, hands)
                line = (f"{game:16s} {strategy:10s} {deals:6d} {hands / bare_s:13.0f}"
                        f" {hands / task_s:13.0f} {ratio:9.2f}"
                        f" {median(paired):5.2f} [{min(paired):.2f}, {max(paired):.2f}]"
                        f"  {micro['bare']:15.1f}"
                        f" {micro['timing']:6.1f} {micro['loop']:5.1f} {micro['keeping']:7.1f}"
                        f" {micro['tables']:6.1f} {by_parts:11.2f} {if_free:7.2f}"
                        f" {recording_room(micro):7.1f}")
                if old is not None:
                    line += (f"  {old['hands'] / old['bare']:12.0f}"
                             f" {old['hands'] / old['task']:7.0f}"
                             f" {old['bare'] / old['task']:9.2f}")
                print(line + ("" if ratio >= TARGET_RATIO else "  below 0.85"), flush=True)


if __name__ == "__main__":
    main()
