"""How often ``heuristic`` beats ``random`` at German Whist, on duplicate deals.

Each deal seed is played twice with the seats swapped ([heuristic, random] then
[random, heuristic], same seed, same dealer), so the luck of the cards cancels
within a pair. The win rate counts a draw as half a win; its 95% confidence
interval is computed over pairs (the unit that is independent).

    python benchmarks/german_heuristic_strength.py --hands 10000
    python benchmarks/german_heuristic_strength.py --variant count=all --variant open_stock=3
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from strength_common import Timed, parse_setting

from strategies.german_heuristic import GermanHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_deal

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0, "forfeit": 0.0}






def measure(hands: int, variant: dict[str, Any], params: dict[str, Any], seed: int = 0) -> dict:
    """Play ``hands`` hands (``hands // 2`` duplicate pairs); return the win rate and speed."""
    if hands < 2:
        raise ValueError(f"hands = {hands!r}: play at least 2 hands (one duplicate pair)")
    game = make_game("german_whist", variant)
    heuristic, rand = Timed(GermanHeuristic(**params)), RandomStrategy()
    pair_scores = []
    started = time.perf_counter()
    for deal_seed in range(seed, seed + hands // 2):
        dealer = deal_seed % 2
        first = play_deal(game, [heuristic, rand], deal_seed, dealer, on_error="abort")
        second = play_deal(game, [rand, heuristic], deal_seed, dealer, on_error="abort")
        pair_scores.append(
            (POINTS[first.outcome.result[0]] + POINTS[second.outcome.result[1]]) / 2
        )
    elapsed = time.perf_counter() - started
    pairs = len(pair_scores)
    mean = sum(pair_scores) / pairs
    spread = math.sqrt(sum((x - mean) ** 2 for x in pair_scores) / (pairs - 1)) if pairs > 1 else 0
    half = 1.96 * spread / math.sqrt(pairs)
    return {
        "hands": 2 * pairs,
        "win_rate": mean,
        "ci_low": mean - half,
        "ci_high": mean + half,
        "hands_per_s": 2 * pairs / elapsed,
        "us_per_decision": 1e6 * heuristic.seconds / max(heuristic.decisions, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play (even)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a German Whist variant setting, e.g. count=all (repeatable)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a heuristic parameter, e.g. contest_margin=0.2 (repeatable)")
    args = parser.parse_args()
    variant = dict(parse_setting(s) for s in args.variant)
    params = {k: float(v) if isinstance(v, str) else v for k, v in map(parse_setting, args.param)}
    result = measure(args.hands, variant, params, args.seed)
    shown = ", ".join(f"{k}={v}" for k, v in variant.items()) or "default (count=stage2)"
    print(f"variant: {shown}")
    print(
        f"heuristic vs random: win rate {result['win_rate']:.2%}"
        f" (95% CI {result['ci_low']:.2%} .. {result['ci_high']:.2%})"
        f" over {result['hands']} hands"
    )
    print(
        f"speed: {result['hands_per_s']:.0f} hands/s (both seats and the engine),"
        f" {result['us_per_decision']:.1f} us per heuristic decision"
    )


if __name__ == "__main__":
    main()
