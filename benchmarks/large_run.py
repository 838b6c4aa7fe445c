"""A million hands: a German Whist round robin at growing sizes, its speed, memory, disk and report.

For each size (hands) a German Whist round robin (``random`` against ``heuristic`` by
default; every line-up played in both seatings) is played on an embedded Ray (bound
to 127.0.0.2 by the loopback shim, never 127.0.0.1), each in a fresh driver process,
and then reported on by ``whist_sim.reports.build.build_report`` (what
``whist-sim report`` runs) in another fresh process. It prints, per size:

- wall time and hands/s of the run on ``--workers`` workers (default 2) and, at
  ``--speedup-hands``, on 1 worker too: the speed-up (target at least 1.85x on 2),
  and the driver's CPU time as a share of a core: on 2 cores and 2 workers the
  driver's commits compete with the workers (docs/cluster.md, the commit rate);
- the driver's peak RSS (``getrusage(RUSAGE_SELF)`` of the driver process alone;
  Ray's workers, raylet and GCS are other processes and not counted): target at
  most 1 GB and flat in the run's size;
- bytes on disk per hand (every file of the run folder, a hard-linked file counted once);
- the report's time and peak RSS (target at most 30 s for 1,000,000 hands, growing
  at most linearly);

then the growth curve (each figure against the smallest size) and, for every size
above the largest one measured up to 1,000,000, an extrapolation: a least-squares
line through the measured points (time = a + b x hands), with the growth exponent
between the two largest sizes (1.0 is linear) so a super-linear trend is not hidden.

The full run, for a quiet machine (nothing else on its 2 cores), is one command::

    .venv/bin/python benchmarks/large_run.py

sizes 10,000, 100,000, 300,000 and 1,000,000 hands on 2 workers, and 100,000 hands
on 1 worker for the speed-up: 1.51 million hands. At the rates measured on
2 December 2026 (``benchmarks/pipeline_throughput.py`` through a worker's task:
random 2,590 and heuristic 1,137 hands/s a core, so about 1,600 hands/s for random
against heuristic) that is about 9 minutes of play on a quiet machine, plus the
reports (seconds to a minute each) and Ray's start-up per run (seconds): plan on
15 minutes (less once the heuristics are faster), and 1 GB of free disk (about
330 bytes a hand). ``--quick`` (10,000 and 30,000 hands; the speed-up at 30,000)
takes about two minutes on a quiet machine and checks that everything works.
``--sizes`` and ``--speedup-hands`` choose other sizes; ``--keep DIR`` keeps the
run folders there (default: a temporary folder, removed at the end);
``--profile-report RUN`` prints where ``build_report`` spends its time on an
existing run folder (each Polars query by the report function asking for it, then
cProfile's top functions by own and by cumulative time) and exits;
``--report RUN [RUN ...]`` times the report of existing run folders (kept with
``--keep``), each in a fresh process, and prints its time and peak RSS with the growth
between them: the report alone, measured again without playing the runs again.

Before each run the free disk is checked against the size that run will need
(bytes per hand as measured on the previous size, or ``DEFAULT_BYTES_PER_HAND``):
too little room stops the benchmark before the run, saying how much it needs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FULL_SIZES = (10_000, 100_000, 300_000, 1_000_000)
FULL_SPEEDUP = 100_000
QUICK_SIZES = (10_000, 30_000)
QUICK_SPEEDUP = 30_000
TARGET_SPEEDUP = 1.85
TARGET_RSS_BYTES = 1 << 30
TARGET_REPORT_SECONDS = 30.0
TARGET_HANDS = 1_000_000
DEFAULT_BYTES_PER_HAND = 2_000
"""A generous guess of a German Whist hand's bytes on disk, before any size is measured."""
WARM_UP_DEALS = 20
"""Deals of a throw-away run on the same Ray before the measured one: the workers' start
(imports, the supervised child) is not the run's throughput."""
SEED = 20_261_202


def tournament_config(hands: int, strategies: list[str], seed: int = SEED) -> dict[str, Any]:
    """The config of a German Whist round robin of about ``hands`` hands (at least that many).

    ``deals`` is per line-up, and each deal is played in every seating of its line-up,
    so the deal count is the hands divided by the hands one deal index makes.
    """
    return deals_config(max(1, math.ceil(hands / hands_per_deal(strategies))), strategies, seed)


def deals_config(deals: int, strategies: list[str], seed: int = SEED) -> dict[str, Any]:
    """The config of a German Whist round robin of ``deals`` deal indices per line-up."""
    return {"tournament": {"game": "german_whist", "deals": deals, "seed": seed},
            "strategies": entrants(strategies)}


def entrants(strategies: list[str]) -> list[dict[str, str]]:
    """Config entries of ``strategies``; a strategy named again gets a label of its own
    (``random``, ``random_2``)."""
    seen: dict[str, int] = {}
    out = []
    for use in strategies:
        seen[use] = seen.get(use, 0) + 1
        out.append({"use": use} if seen[use] == 1 else {"use": use, "label": f"{use}_{seen[use]}"})
    return out


def hands_per_deal(strategies: list[str]) -> int:
    """Hands one deal index makes: every line-up in every seating, one hand a match (German
    Whist's default single-hand match)."""
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.schedule import seatings

    config = validate_config(deals_config(1, strategies))
    game = config.game()
    if game.variant.as_dict().get("match") not in (None, "single"):
        raise ValueError("large_run counts one hand per match (German Whist match = single)")
    lineups = config.lineups()
    return sum(len(seatings(lineups[p], game.duplicate_rotations))
               for p in config.played_pairings())


def peak_rss_bytes() -> int:
    """This process's peak resident set (Linux reports kilobytes, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def bytes_on_disk(folder: Path, skip: tuple[str, ...] = ("report",)) -> int:
    """Bytes of every file under ``folder`` (a hard-linked file once), ``skip`` left out."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root, dirs, files in os.walk(folder):
        if Path(root) == folder:
            dirs[:] = [d for d in dirs if d not in skip]
        for name in files:
            info = os.lstat(os.path.join(root, name))
            if (info.st_dev, info.st_ino) in seen:
                continue
            seen.add((info.st_dev, info.st_ino))
            total += info.st_size
    return total


# -- the child processes: one run, or one report, in a fresh interpreter ---------------------


def child_play(hands: int, workers: int, out: Path, strategies: list[str]) -> dict[str, Any]:
    """Play the round robin of ``hands`` hands into ``out`` on ``workers`` embedded Ray workers."""
    from whist_sim.tournament.cluster import ray_session
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    started = time.perf_counter()
    warm = validate_config(deals_config(WARM_UP_DEALS, strategies))
    config = validate_config(tournament_config(hands, strategies))
    with ray_session(None, workers) as slots:
        run_tournament(warm, out.with_name(out.name + "-warm-up"), workers=workers,
                       progress=False)
        cpu = time.process_time()
        summary = run_tournament(config, out, workers=workers, progress=False)
        cpu = time.process_time() - cpu
    shutil.rmtree(out.with_name(out.name + "-warm-up"), ignore_errors=True)
    meta = json.loads((out / "run.json").read_text())
    return {
        "hands": summary.deals, "workers": slots, "wall": summary.wall_seconds,
        "task_seconds": summary.task_seconds, "tasks": summary.tasks_run,
        "deals_per_task": meta["plan"]["deals_per_task"], "status": summary.status,
        "process_seconds": time.perf_counter() - started, "peak_rss": peak_rss_bytes(),
        "driver_cpu": cpu,
    }


def child_report(run: Path, out: Path | None = None) -> dict[str, Any]:
    """Build the run's report (what ``whist-sim report RUN`` does; into ``out`` if given),
    timed."""
    started = time.perf_counter()
    from whist_sim.reports.build import build_report

    imported = time.perf_counter()
    build_report(run, out)
    done = time.perf_counter()
    return {"seconds": done - imported, "import_seconds": imported - started,
            "peak_rss": peak_rss_bytes()}


def profile_report(run: Path, top: int = 25) -> None:
    """Where ``build_report`` spends its time on ``run``: the Polars queries it collects,
    by the report function that asks (time and peak RSS growth), then cProfile's top
    functions by own time and by cumulative time."""
    import cProfile
    import pstats

    import polars as pl

    from whist_sim.reports.build import build_report

    queries: dict[str, list[float]] = {}

    def asker() -> str:
        """The innermost whist_sim frame that asked for a collect."""
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if "whist_sim" in name and "polars" not in name:
                where = name[name.rindex("whist_sim"):]
                return f"{where}:{frame.f_lineno} {frame.f_code.co_name}"
            frame = frame.f_back
        return "(outside whist_sim)"

    def timed(original: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            before_rss = peak_rss_bytes()
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                seen = queries.setdefault(asker(), [0, 0.0, 0])
                seen[0] += 1
                seen[1] += time.perf_counter() - started
                seen[2] = max(seen[2], peak_rss_bytes() - before_rss)
        return wrapper

    saved = pl.LazyFrame.collect, pl.collect_all
    pl.LazyFrame.collect, pl.collect_all = timed(saved[0]), timed(saved[1])
    profiler = cProfile.Profile()
    started = time.perf_counter()
    try:
        profiler.runcall(build_report, run, Path(tempfile.mkdtemp(prefix="large-run-report-")))
    finally:
        pl.LazyFrame.collect, pl.collect_all = saved
    print(f"build_report({run}): {time.perf_counter() - started:.2f} s (profiled),"
          f" peak RSS {peak_rss_bytes() / 2**20:,.0f} MiB")
    print(f"\nPolars collects by the report function asking (slowest first; peak RSS growth"
          f" while it ran):\n{'calls':>5s} {'seconds':>8s} {'RSS +':>9s}  where")
    for where, (calls, seconds, grown) in sorted(queries.items(), key=lambda kv: -kv[1][1]):
        print(f"{calls:5d} {seconds:8.2f} {grown / 2**20:7,.0f} M  {where}")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def _in_child(args: list[str]) -> dict[str, Any]:
    """Run this file's ``--child`` mode in a fresh interpreter, loopback-bound, and read
    the JSON line it prints last."""
    from whist_sim.tournament.cluster import EMBEDDED_HOST
    from whist_sim.tournament.loopback import loopback_environment

    # the driver itself opens Ray ports too: preload the bind shim into it, as the
    # whist-sim command does, so every port of the run listens on 127.0.0.2 only
    env = {**os.environ, **loopback_environment(EMBEDDED_HOST)}
    done = subprocess.run([sys.executable, __file__, "--child", *args], env=env,
                          capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise SystemExit(f"large_run: child {' '.join(args)} failed"
                         f" (exit {done.returncode}):\n{tail}")
    return json.loads(lines[-1])


# -- the driver of the benchmark ---------------------------------------------------------------


@dataclass
class Measured:
    hands: int
    play: dict[str, Any]
    report: dict[str, Any]
    disk: int

    @property
    def rate(self) -> float:
        return self.hands / self.play["wall"]


def check_room(where: Path, hands: int, per_hand: float) -> None:
    """Stop before a run the disk cannot hold, saying how much room it needs."""
    need = int(hands * per_hand * 1.5)  # compaction holds a batch and its task units at once
    free = shutil.disk_usage(where).free
    if free < need:
        raise SystemExit(
            f"large_run: {hands:,} hands need about {need / 1e9:.2f} GB at {per_hand:,.0f}"
            f" bytes per hand; {where} has {free / 1e9:.2f} GB free. Free some room, choose"
            " another --keep folder, or give smaller --sizes")


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares intercept and slope of ``ys`` against ``xs`` (two points at least)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    return my - slope * mx, slope


def growth_exponent(x1: float, y1: float, x2: float, y2: float) -> float:
    """k in y ~ x**k between two points (1.0: linear; 0: flat)."""
    if min(x1, y1, x2, y2) <= 0 or x1 == x2:
        return float("nan")
    return math.log(y2 / y1) / math.log(x2 / x1)


def extrapolate(points: list[tuple[int, float]], target: int) -> tuple[float, float]:
    """(value at ``target`` on the least-squares line, growth exponent of the last two)."""
    xs = [float(x) for x, _ in points]
    ys = [y for _, y in points]
    intercept, slope = fit_line(xs, ys)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    return intercept + slope * target, growth_exponent(x1, y1, x2, y2)


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", help="hands per run (default: "
                        + ", ".join(f"{s:,}" for s in FULL_SIZES) + ")")
    parser.add_argument("--speedup-hands", type=int,
                        help=f"hands of the 1-worker reference run (default {FULL_SPEEDUP:,})")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strategies", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--quick", action="store_true",
                        help=f"sizes {', '.join(f'{s:,}' for s in QUICK_SIZES)}, speed-up at"
                        f" {QUICK_SPEEDUP:,}: a minute, to check it works")
    parser.add_argument("--keep", type=Path, help="keep the run folders in this folder")
    parser.add_argument("--profile-report", type=Path, metavar="RUN",
                        help="profile build_report on an existing run folder and exit")
    parser.add_argument("--report", type=Path, nargs="+", metavar="RUN",
                        help="time the report of existing run folders (smallest first) and exit")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        mode, *rest = args.child
        if mode == "play":
            result = child_play(int(rest[0]), int(rest[1]), Path(rest[2]), rest[3:])
        elif mode == "hands":
            result = child_hands(Path(rest[0]))
        else:
            result = child_report(Path(rest[0]), Path(rest[1]) if len(rest) > 1 else None)
        print(json.dumps(result))
        return
    if args.profile_report:
        profile_report(args.profile_report)
        return
    if args.report:
        report_only(args.report)
        return

    sizes = sorted(set(args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)))
    speedup = args.speedup_hands or (QUICK_SPEEDUP if args.quick else FULL_SPEEDUP)
    per_deal = hands_per_deal(args.strategies)
    print(f"German Whist round robin of {', '.join(args.strategies)}: {per_deal} hands per"
          f" deal index; sizes {', '.join(f'{s:,}' for s in sizes)} hands on"
          f" {args.workers} workers, speed-up against 1 worker at {speedup:,} hands")
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
          " (the figures are only as quiet as the machine)")
    base = args.keep or Path(tempfile.mkdtemp(prefix="large-run-"))
    base.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    per_hand = float(DEFAULT_BYTES_PER_HAND)
    results: list[Measured] = []
    one_worker: dict[str, Any] | None = None
    try:
        for hands in sizes:
            check_room(base, hands, per_hand)
            run = base / f"german-{hands}-{stamp}"
            play = _in_child(["play", str(hands), str(args.workers), str(run),
                              *args.strategies])
            disk = bytes_on_disk(run)
            report = _in_child(["report", str(run)])
            per_hand = disk / play["hands"]
            results.append(Measured(play["hands"], play, report, disk))
            print(f"  {play['hands']:>9,} hands: {play['wall']:7.1f} s,"
                  f" {play['hands'] / play['wall']:7,.0f} hands/s, driver {mib(play['peak_rss'])},"
                  f" {per_hand:,.1f} B/hand, report {report['seconds']:.1f} s"
                  f" {mib(report['peak_rss'])}", flush=True)
            if not args.keep:
                shutil.rmtree(run, ignore_errors=True)
        check_room(base, speedup, per_hand)
        run = base / f"german-{speedup}-1-worker-{stamp}"
        one_worker = _in_child(["play", str(speedup), "1", str(run), *args.strategies])
        print(f"  {one_worker['hands']:>9,} hands on 1 worker: {one_worker['wall']:7.1f} s",
              flush=True)
        if not args.keep:
            shutil.rmtree(run, ignore_errors=True)
        reference = next((m for m in results if m.hands == one_worker["hands"]), None)
        if reference is None:
            run = base / f"german-{speedup}-{args.workers}-workers-{stamp}"
            play = _in_child(["play", str(speedup), str(args.workers), str(run),
                              *args.strategies])
            reference = Measured(play["hands"], play, {}, 0)
            if not args.keep:
                shutil.rmtree(run, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print_results(results, one_worker, reference, args.workers)


def report_only(runs: list[Path]) -> None:
    """The report's time and peak RSS on each of ``runs``, each built in a fresh process
    into a temporary folder (the run's own ``report/`` is left as it is)."""
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
          " (the figures are only as quiet as the machine)")
    measured = []
    for run in runs:
        hands = _in_child(["hands", str(run)])["hands"]
        out = Path(tempfile.mkdtemp(prefix="large-run-report-"))
        try:
            report = _in_child(["report", str(run), str(out)])
        finally:
            shutil.rmtree(out, ignore_errors=True)
        measured.append((hands, report))
        print(f"  {hands:>9,} hands: report {report['seconds']:.2f} s"
              f" (imports {report['import_seconds']:.2f} s), peak RSS"
              f" {mib(report['peak_rss'])}  {run}", flush=True)
    measured.sort(key=lambda m: m[0])
    small_hands, small = measured[0]
    for hands, report in measured[1:]:
        print(f"  {hands / small_hands:6.1f}x hands: report time"
              f" {report['seconds'] / small['seconds']:.2f}x, report RSS"
              f" {report['peak_rss'] / small['peak_rss']:.2f}x (exponent"
              f" {growth_exponent(small_hands, small['peak_rss'], hands, report['peak_rss']):.2f})")


def child_hands(run: Path) -> dict[str, Any]:
    """The hands of a run folder (rows of its deals table)."""
    import polars as pl

    from whist_sim.store import RunFolder

    return {"hands": RunFolder.open(run).scan("deals").select(pl.len()).collect().item()}


def print_results(results: list[Measured], one_worker: dict[str, Any], reference: Measured,
                  workers: int) -> None:
    print()
    print(f"{'hands':>10s} {'tasks':>6s} {'wall s':>8s} {'hands/s':>8s} {'driver CPU':>10s}"
          f" {'driver RSS':>11s} {'B/hand':>7s} {'report s':>9s} {'report RSS':>11s}")
    for m in results:
        print(f"{m.hands:>10,} {m.play['tasks']:>6,} {m.play['wall']:>8.1f} {m.rate:>8,.0f}"
              f" {m.play['driver_cpu'] / m.play['wall']:>10.0%}"
              f" {mib(m.play['peak_rss']):>11s} {m.disk / m.hands:>7.1f}"
              f" {m.report['seconds']:>9.2f} {mib(m.report['peak_rss']):>11s}")
    print("(driver CPU: the driver process's CPU time over the run's wall time, as a share of"
          " one core; on a machine with as many cores as workers it is taken from them)")
    one_rate = one_worker["hands"] / one_worker["wall"]
    ratio = reference.rate / one_rate
    print()
    print(f"speed-up at {reference.hands:,} hands: {workers} workers {reference.rate:,.0f}"
          f" hands/s against 1 worker {one_rate:,.0f} hands/s = {ratio:.2f}x"
          f" (target {TARGET_SPEEDUP}x: {'met' if ratio >= TARGET_SPEEDUP else 'not met'});"
          f" share of the run's wall x workers spent playing:"
          f" {reference.play['task_seconds'] / (reference.play['wall'] * workers):.1%}"
          f" on {workers}, {one_worker['task_seconds'] / one_worker['wall']:.1%} on 1;"
          f" driver CPU {reference.play['driver_cpu'] / reference.play['wall']:.0%} of a core"
          f" on {workers}, {one_worker['driver_cpu'] / one_worker['wall']:.0%} on 1")
    small = results[0]
    print()
    print(f"growth against {small.hands:,} hands (x hands: x driver RSS, x report time,"
          " x report RSS; 1.0 is flat)")
    for m in results[1:]:
        print(f"  {m.hands / small.hands:6.1f}x hands: driver RSS"
              f" {m.play['peak_rss'] / small.play['peak_rss']:.2f}x, report time"
              f" {m.report['seconds'] / small.report['seconds']:.2f}x, report RSS"
              f" {m.report['peak_rss'] / small.report['peak_rss']:.2f}x")
    largest = results[-1]
    verdicts = [
        ("driver peak RSS", largest.play["peak_rss"], TARGET_RSS_BYTES, mib),
    ]
    if largest.hands >= TARGET_HANDS:
        verdicts.append(("report time", largest.report["seconds"], TARGET_REPORT_SECONDS,
                         lambda s: f"{s:.1f} s"))
    print()
    for name, value, target, shown in verdicts:
        print(f"{name} at {largest.hands:,} hands: {shown(value)}"
              f" (target at most {shown(target)}: {'met' if value <= target else 'not met'})")
    if largest.hands < TARGET_HANDS and len(results) >= 2:
        print(f"extrapolated to {TARGET_HANDS:,} hands (least-squares line through"
              f" {len(results)} sizes; exponent between the two largest sizes, 1.0 = linear):")
        for name, key, unit in (("report time", "seconds", "s"),
                                ("report peak RSS", "peak_rss", "B"),
                                ("driver peak RSS", "peak_rss", "B")):
            points = [(m.hands, float((m.play if name.startswith("driver") else m.report)[key]))
                      for m in results]
            value, exponent = extrapolate(points, TARGET_HANDS)
            shown = f"{value:.1f} s" if unit == "s" else mib(value)
            print(f"  {name:16s} {shown:>10s}  (exponent {exponent:.2f})")
        print("  (a line is the worst case for the driver: its peak is one compaction batch,"
              " capped in rows; docs/cluster.md)")
        if results[-1].hands < 10 * results[0].hands:
            print(f"  (the sizes span only {results[-1].hands / results[0].hands:.1f}x: the"
                  " slopes are mostly noise; measure 10,000 to 300,000 hands or more)")
        wall = TARGET_HANDS / largest.rate
        print(f"  play on {workers} workers {wall:,.0f} s at {largest.rate:,.0f} hands/s;"
              f" disk {largest.disk / largest.hands * TARGET_HANDS / 1e9:.2f} GB")


if __name__ == "__main__":
    main()
