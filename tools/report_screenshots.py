"""Screenshots of the report of every shipped config, as a reader sees it in a browser.

    .venv/bin/python tools/report_screenshots.py [--out results/screenshots] [--deals N]
        [--width 1200] [--chromium chromium] [CONFIG ...]

For each config (default: every ``configs/*.toml``) this plays a small run in
process (a few deals: the page's shape, not its figures, is what is looked at),
builds its report, and takes a full-page screenshot of ``report.html`` in
headless Chromium at a window ``--width`` pixels wide. It prints, per config,
the PNG, the page's height, and whether the page is wider than the window (it
must not be: a wide table scrolls inside its own box). The screenshots are for
a person to look at before a change to the reports is closed;
docs/reading-a-report.md says what to look for.

Chromium is a system package (``apt-get install chromium`` on Debian and
Ubuntu); it runs headless, without a sandbox or GPU, with a fresh profile and
every background connection turned off. No other browser driver is needed: the
page's height is read first by loading a copy of the page that writes its own
size into the DOM (``--dump-dom``), then the screenshot is taken at that height.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from whist_sim.reports.build import build_report
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]

SMALL_DEALS = {"quickstart": 60, "search": 2, "solo_bidding": 6, "minnesota": 20,
               "knockout_survival": 30}
"""Deals per line-up for each shipped config: enough for every section to have rows, small
enough to play in seconds (search plays full-depth solvers, hence 2)."""
DEFAULT_DEALS = 10

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]

MEASURE = """<script>
window.addEventListener("load", () => {
  const e = document.documentElement;
  document.body.setAttribute("data-page-size", e.scrollWidth + "x" + e.scrollHeight);
  const scrolling = [...document.querySelectorAll(".table-box")]
    .filter((box) => box.scrollWidth > box.clientWidth + 1)
    .map((box) => box.getAttribute("aria-label"));
  document.body.setAttribute("data-scrolling", scrolling.join(" | "));
});
</script>"""


def chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180, check=False)


def page_size(binary: str, page: Path, width: int) -> tuple[int, int, list[str]]:
    """Width and height of ``page`` laid out in a window ``width`` wide, in CSS pixels, and
    the tables too wide for the column (they scroll inside their own box)."""
    probe = page.with_name(".measure.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"),
                     encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory() as profile:
            done = chromium(binary, Path(profile), f"--window-size={width},800",
                            "--virtual-time-budget=5000", "--dump-dom", probe.as_uri())
    finally:
        probe.unlink()
    found = re.search(r'data-page-size="(\d+)x(\d+)"', done.stdout)
    if found is None:
        raise SystemExit(f"chromium did not lay out {page}: {done.stderr.strip()[-400:]}")
    boxes = re.search(r'data-scrolling="([^"]*)"', done.stdout)
    scrolling = [label for label in html.unescape(boxes[1]).split(" | ") if label] if boxes else []
    return int(found[1]), int(found[2]), scrolling


def screenshot(binary: str, page: Path, png: Path, width: int) -> tuple[int, int, list[str]]:
    """A full-page PNG of ``page`` at ``width``; returns the page's width and height and the
    tables that scroll inside their box."""
    page_width, height, scrolling = page_size(binary, page, width)
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        done = chromium(binary, Path(profile), f"--window-size={width},{height}",
                        "--virtual-time-budget=5000", f"--screenshot={png}", page.as_uri())
    if not png.is_file():
        raise SystemExit(f"chromium wrote no screenshot of {page}: {done.stderr.strip()[-400:]}")
    return page_width, height, scrolling


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="*", type=Path,
                        help="configs to run (default: every configs/*.toml)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "screenshots",
                        help="folder for the runs and the PNGs")
    parser.add_argument("--reuse-runs", action="store_true",
                        help="rebuild the reports of runs already in OUT/runs instead of playing"
                             " them again (after a change to the reports only)")
    parser.add_argument("--deals", type=int, help="deals per line-up for every config")
    parser.add_argument("--width", type=int, default=1200, help="window width in pixels")
    parser.add_argument("--chromium", default="chromium", help="the Chromium binary")
    args = parser.parse_args(argv)
    binary = shutil.which(args.chromium)
    if binary is None:
        print(f"no {args.chromium!r} on PATH: install it (apt-get install chromium) or give"
              " --chromium", file=sys.stderr)
        return 2
    configs = args.configs or sorted((ROOT / "configs").glob("*.toml"))
    wide = []
    for config in configs:
        deals = args.deals or SMALL_DEALS.get(config.stem, DEFAULT_DEALS)
        run = args.out / "runs" / config.stem
        if not (args.reuse_runs and run.is_dir()):
            if run.exists():
                shutil.rmtree(run)
            run_tournament(load_config(config, {"deals": deals}), run, workers=0, progress=False)
        report = build_report(run)
        png = args.out / f"{config.stem}.png"
        page_width, height, scrolling = screenshot(binary, report.html, png, args.width)
        fits = "fits" if page_width <= args.width else f"WIDER than the window: {page_width} px"
        print(f"{config.stem}: {deals} deals per line-up -> {png} ({args.width} x {height} px,"
              f" {fits})")
        for label in scrolling:
            print(f"    scrolls inside its box: {label}")
        if page_width > args.width:
            wide.append(config.stem)
    if wide:
        print("pages wider than the window: " + ", ".join(wide), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
