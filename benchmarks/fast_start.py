"""How long a small run takes from the command line: in process against on Ray.

Runs ``whist-sim run configs/quickstart.toml --deals 20`` as a user would,
start to finished standings (the process exits after printing them), once
with the default choice of where to play (a run this small of built-in
strategies plays in process) and once on an embedded Ray of two workers, and
prints both wall times and their ratio. Target: the default under 3 s. Each is
run ``--repeat`` times (default 3) and the median is reported; the first Ray
start of a machine can be slower still.

Usage: python benchmarks/fast_start.py [--deals 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 3.0


def timed_run(deals: int, out: Path, extra: list[str]) -> tuple[float, str]:
    """Wall seconds of one CLI run and its first output line (where it played)."""
    command = [sys.executable, "-m", "whist_sim", "run", "configs/quickstart.toml",
               "--deals", str(deals), "--out", str(out), "--no-progress", *extra]
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return seconds, result.stdout.splitlines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    timings: dict[str, list[float]] = {"default": [], "ray": []}
    lines: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            for name, extra in (("default", []), ("ray", ["--workers", "2"])):
                seconds, line = timed_run(args.deals, Path(tmp) / f"{name}-{i}", extra)
                timings[name].append(seconds)
                lines[name] = line
    default, ray = (statistics.median(timings[k]) for k in ("default", "ray"))
    print(f"run of {args.deals} deals (configs/quickstart.toml), start to final standings,"
          f" median of {args.repeat}")
    for name, label, median in (("default", "default (auto)", default),
                                ("ray", "on Ray, 2 workers", ray)):
        runs = ", ".join(f"{t:.2f}" for t in timings[name])
        print(f"  {label:18s} {median:6.2f} s   [{runs}]   {lines[name]}")
    print(f"  ratio Ray / default {ray / default:.1f}x")
    verdict = "met" if default < TARGET_SECONDS else "NOT met"
    print(f"  target: default under {TARGET_SECONDS:g} s: {verdict}")


if __name__ == "__main__":
    main()
