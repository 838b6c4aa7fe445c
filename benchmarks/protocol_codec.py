"""What a decision costs in JSON at each end of the bot protocol, per game.

Every decision behind the protocol is a ``decide`` message: the engine encodes the seat's
view and writes the line (``decide_message`` and ``encode_line``); the bot reads the line
and decodes the view (``read_message`` and ``decode_view``, what ``protocol.client``
does for a Python bot). Both are pure CPU work, measured here in microseconds a decision
over every view of 20 random deals per game (best of ``--repeats``), with no process or
pipe in the way (``protocol_overhead.py`` measures those, and hands/s).

``--before REV`` measures the same, in the same run, with the whist_sim of git revision
REV (exported to a temporary folder, run in a child process, game by game interleaved
with this checkout's), and prints the ratio before / now. Read the ratio: the machine is
noisy.

Measured on 7 December 2026 against ``7d72606`` (before views were encoded with a card
table per suit and a variant built once, and decoded by the fast decoders):
German Whist engine 86 -> 34 us, bot 112 -> 43 us.

Usage: python benchmarks/protocol_codec.py [--repeats 5] [--before REV]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline_throughput import export  # beside this script: benchmarks/ is on sys.path

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"german_whist": 2, "solo_whist": 4, "minnesota_whist": 4, "knockout_whist": 4}
"""Each game, and the seats it is measured at (Knock-out Whist at four)."""

DEALS = 20


def views_of(game_name: str, players: int) -> list:
    """Every view ``random`` seats are given in ``DEALS`` seeded deals of ``game_name``."""
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.strategy import build_strategy

    game = make_game(game_name, None, players if game_name == "knockout_whist" else None)
    inner = build_strategy("random", None, game.name)
    seen = []

    class Keep:
        def choose(self, view, rng):
            seen.append(view)
            return inner.choose(view, rng)

    for seed in range(DEALS):
        play_deal(game, [Keep()] * game.players, seed, seed % game.players)
    return seen


def measure(game_name: str, players: int, repeats: int) -> dict[str, float]:
    """Microseconds a decision: the engine's encoding and the bot's decoding."""
    from whist_sim.protocol.messages import decide_message, encode_line, read_message
    from whist_sim.protocol.views import decode_view

    views = views_of(game_name, players)
    lines = [encode_line(decide_message(view, k, None)) for k, view in enumerate(views)]

    def engine() -> None:
        for k, view in enumerate(views):
            encode_line(decide_message(view, k, None))

    def bot() -> None:
        for line in lines:
            decode_view(game_name, read_message(line, "engine"))

    best = {"engine": float("inf"), "bot": float("inf")}
    for _ in range(repeats):
        for side, work in (("engine", engine), ("bot", bot)):
            started = time.process_time()
            work()
            best[side] = min(best[side], time.process_time() - started)
    return {side: 1e6 * seconds / len(views) for side, seconds in best.items()}


def in_child(tree: Path, game_name: str, repeats: int) -> dict[str, float]:
    """``measure`` with the whist_sim of ``tree``, in a fresh process: each game, now and
    before alike, measured from a clean start (in one process, a game measured after
    another read up to twice as slow, from what the first left behind)."""
    command = [sys.executable, __file__, "--child", game_name, "--repeats", str(repeats)]
    out = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--child", metavar="GAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, GAMES[args.child], args.repeats)))
        return
    print(f"microseconds a decision (CPU time), every view of {DEALS} random deals,"
          f" best of {args.repeats}")
    head = f"{'game':16s} {'engine':>7s} {'bot':>7s}"
    if args.before:
        head += f"   {args.before[:10]:>10s}: {'engine':>7s} {'bot':>7s}   ratio before/now"
    print(head)
    with tempfile.TemporaryDirectory() as temporary:
        tree = export(args.before, Path(temporary)) if args.before else None
        for game_name in GAMES:
            old = in_child(tree, game_name, args.repeats) if tree else None
            now = in_child(ROOT, game_name, args.repeats)
            line = f"{game_name:16s} {now['engine']:7.1f} {now['bot']:7.1f}"
            if old is not None:
                line += (f"   {'':>10s}  {old['engine']:7.1f} {old['bot']:7.1f}"
                         f"   engine {old['engine'] / now['engine']:.2f}x,"
                         f" bot {old['bot'] / now['bot']:.2f}x")
            print(line)


if __name__ == "__main__":
    main()
