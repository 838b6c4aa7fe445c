"""How often the Knock-out Whist ``heuristic`` wins at a table of ``random`` players.

One heuristic and ``players - 1`` random players, on common deals: every deal seed
(dealer = seed % players) is played once with the heuristic in each seat, so the
luck of the cards is shared by all seats. A game is one whole Knock-out game (all
its rounds). The fair share is 1 / players.

The rotations of one seed are correlated, so the 95% interval is computed over
deal seeds (the independent unit), each scored by the heuristic's mean win over its
rotations. ``--games N`` plays ``ceil(N / players)`` seeds, so about N games.

Measured on a 2-core machine (version 1 of the heuristic, default parameters):

    variant           players  games   heuristic wins (95% CI)      fair share
    default           4        10000   64.4% (63.5% .. 65.3%)       25.0%
    default           7        10003   48.0% (47.0% .. 48.9%)       14.3%
    first_knockout    4        10000   65.7% (64.8% .. 66.7%)       25.0%
    first_knockout    7        10003   47.7% (46.7% .. 48.7%)       14.3%
    default           4        40000   64.8% (64.4% .. 65.3%)
    default           7        70000   47.6% (47.2% .. 47.9%)

about 1,200-1,500 games/s (every seat and the engine) and 10-12 us per heuristic
decision (16-19 us counting only decisions with more than one legal action).

    python benchmarks/knockout_heuristic_strength.py --games 10000
    python benchmarks/knockout_heuristic_strength.py --players 4 --variant dogs_life=first_knockout
    python benchmarks/knockout_heuristic_strength.py --param dog_threshold=0.8
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from strength_common import Timed, mean_interval, parse_setting

from strategies.knockout_heuristic import KnockoutHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_deal


def measure(
    players: int,
    games: int,
    variant: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
    seed: int = 0,
) -> dict[str, float]:
    """Play about ``games`` games (whole seeds, every rotation); the heuristic's win rate."""
    if games < 1:
        raise ValueError(f"games = {games!r}: play at least 1 game")
    game = make_game("knockout_whist", variant or {}, players)
    heuristic, rand = Timed(KnockoutHeuristic(**(params or {}))), RandomStrategy()
    seeds = math.ceil(games / players)
    seed_scores = []
    started = time.perf_counter()
    for deal_seed in range(seed, seed + seeds):
        dealer = deal_seed % players
        wins = 0
        for seat in range(players):
            line_up = [rand] * players
            line_up[seat] = heuristic
            played = play_deal(game, line_up, deal_seed, dealer, on_error="abort")
            wins += played.outcome.result[seat] == "win"
        seed_scores.append(wins / players)
    elapsed = time.perf_counter() - started
    mean, half = mean_interval(seed_scores)
    return {
        "players": players,
        "games": seeds * players,
        "seeds": seeds,
        "win_rate": mean,
        "ci_low": mean - half,
        "ci_high": mean + half,
        "fair_share": 1 / players,
        "games_per_s": seeds * players / elapsed,
        "us_per_decision": 1e6 * heuristic.seconds / max(heuristic.decisions, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000,
                        help="games per table size (rounded up to whole seeds)")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 7],
                        help="table sizes to measure (2..7)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a Knock-out Whist variant setting, e.g. dogs_life=first_knockout")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a heuristic parameter, e.g. dog_threshold=0.8 (repeatable)")
    args = parser.parse_args()
    variant = dict(parse_setting(s) for s in args.variant)
    params = dict(parse_setting(s) for s in args.param)
    shown = ", ".join(f"{k}={v}" for k, v in variant.items()) or "default (dogs_life=off)"
    print(f"variant: {shown}; params: {params or 'defaults'}")
    for players in args.players:
        r = measure(players, args.games, variant, params, args.seed)
        print(
            f"{players} players (1 heuristic, {players - 1} random): win rate"
            f" {r['win_rate']:.2%} (95% CI {r['ci_low']:.2%} .. {r['ci_high']:.2%};"
            f" fair share {r['fair_share']:.1%}) over {r['games']} games"
            f" ({r['seeds']} seeds x {players} rotations);"
            f" {r['games_per_s']:.0f} games/s, {r['us_per_decision']:.1f} us per decision",
            flush=True,
        )


if __name__ == "__main__":
    main()
