"""How fast do the search strategies decide? Targets: ``pimc`` at its default budget
decides in a median of at most 50 ms; a whole German Whist hand of ``pimc`` against
``solver`` takes at most 2 s; a German Whist determinization (the state a search
builds from its view and a sampled world, ``MODEL.determinize``) takes at most 100 µs.

For each game, one search seat plays against heuristics (German Whist: ``pimc``
against ``solver``) and every decision with more than one legal action is timed.
The heuristic's own decisions are timed in the same run as the reference, so the
ratio stands even on a noisy machine. The one-off costs of a process are paid before
timing and printed: the compiled solver (compiled or loaded from numba's cache) and
Minnesota's match equity table (about a second of heuristic deals).

    python benchmarks/search_speed.py --deals 20
    python benchmarks/search_speed.py --search ismcts --deals 10
    python benchmarks/search_speed.py --games german_whist --param worlds=40

The determinization is timed at points every four actions through random German
Whist hands (two face-up stock cards, so views carry more), beside ``new_deal`` at
the same seeds, the reference measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from strength_common import parse_setting

from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.sampling import sample_world
from whist_sim.search.german_whist import MODEL
from whist_sim.search.match_equity import equity
from whist_sim.strategy import build_strategy

PLAYERS = {"german_whist": 2, "solo_whist": 4, "minnesota_whist": 4, "knockout_whist": 4}


class Clocked:
    """Records the time of every decision that had a choice to make."""

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy
        self.times: list[float] = []

    def choose(self, view: Any, rng: Any) -> int:
        started = time.perf_counter()
        action = self.strategy.choose(view, rng)
        if view.legal & (view.legal - 1):
            self.times.append(time.perf_counter() - started)
        return action


def measure(game_name: str, search: str, params: dict[str, Any], deals: int) -> dict[str, Any]:
    players = PLAYERS[game_name]
    game = make_game(game_name, {}, players)
    player = Clocked(build_strategy(search, params, game_name))
    other = "solver" if game_name == "german_whist" else "heuristic"
    opponent = Clocked(build_strategy(other, {}, game_name))
    hand_seconds = []
    for seed in range(deals):
        seat = seed % players
        line_up: list[Any] = [opponent] * players
        line_up[seat] = player
        started = time.perf_counter()
        play_deal(game, line_up, seed, seed % players, on_error="abort")
        hand_seconds.append(time.perf_counter() - started)
    return {"search": player.times, "reference": opponent.times, "hands": hand_seconds,
            "reference_name": other}


def determinize_speed(hands: int = 20, repeats: int = 50) -> tuple[float, float]:
    """Microseconds per German Whist determinization, and per ``new_deal`` at the same
    seeds (the reference), each the best of three passes over the points."""
    game = make_game("german_whist", {"open_stock": 2})
    rng = random.Random(1)
    points = []
    for seed in range(hands):
        state = game.new_deal(seed, seed % 2)
        step = 0
        while state.to_act >= 0:
            if step % 4 == 0:
                view = state.view(state.to_act)
                points.append((view, sample_world(view, rng)))
            legal = state.legal
            moves = [a for a in range(legal.bit_length()) if legal >> a & 1]
            state.apply(rng.choice(moves))
            step += 1

    def best(work) -> float:
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(repeats):
                work()
            runs.append(time.perf_counter() - started)
        return 1e6 * min(runs) / (repeats * len(points))

    determinize = best(lambda: [MODEL.determinize(v, w, rng) for v, w in points])
    new_deal = best(lambda: [game.new_deal(i, 0) for i in range(len(points))])
    return determinize, new_deal


def _ms(values: list[float]) -> str:
    if not values:
        return "no decisions"
    return (f"median {1000 * statistics.median(values):.2f} ms,"
            f" p90 {1000 * statistics.quantiles(values, n=10)[-1]:.2f} ms,"
            f" max {1000 * max(values):.2f} ms over {len(values)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", default="pimc")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--deals", type=int, default=20, help="deals (Knock-out: games) per game")
    parser.add_argument("--games", nargs="+", default=list(PLAYERS), choices=list(PLAYERS))
    args = parser.parse_args()
    params = dict(parse_setting(s) for s in args.param)
    warm = time.perf_counter()
    from whist_sim.solver import solve_fast

    solve_fast([0b11, 0b1100], 0, 0, [0, 1])
    print(f"compiled solver ready in {time.perf_counter() - warm:.1f} s (compile or cache load)")
    if "minnesota_whist" in args.games:
        warm = time.perf_counter()
        equity(make_game("minnesota_whist").variant)
        print(f"Minnesota match equity ready in {time.perf_counter() - warm:.1f} s"
              " (once per process)")
    if "german_whist" in args.games:
        determinize, new_deal = determinize_speed()
        print(f"German Whist determinize: {determinize:.1f} µs a call (target at most 100);"
              f" new_deal {new_deal:.1f} µs, ratio {determinize / new_deal:.1f}x")
    for game_name in args.games:
        r = measure(game_name, args.search, params, args.deals)
        ratio = statistics.median(r["search"]) / statistics.median(r["reference"])
        print(f"{game_name}: {args.search} {params or '(defaults)'}: {_ms(r['search'])}")
        print(f"  reference {r['reference_name']}: {_ms(r['reference'])};"
              f" median ratio {ratio:.0f}x")
        if game_name == "german_whist":
            print(f"  whole hands of {args.search} vs solver: median"
                  f" {statistics.median(r['hands']):.2f} s, max {max(r['hands']):.2f} s"
                  f" over {len(r['hands'])} hands")


if __name__ == "__main__":
    main()
