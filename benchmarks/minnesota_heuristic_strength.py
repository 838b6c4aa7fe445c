"""How strong the Minnesota Whist ``heuristic`` is against ``random``, with 95% intervals.

Games to ``target`` (13) on duplicate deals: the line-up heuristic, random, heuristic,
random (seats 0..3) plays game seed ``match_seed(root, i)`` under rotation 0 and again
under rotation 1 (random, heuristic, random, heuristic), so each partnership holds the
other's cards in the twin game. ``--games N`` plays N games (N / 2 seeds, two
rotations each).

Figures:
1. games won by the heuristic partnership (target: 99.5%), Wilson interval over games
   (the twins of a pair share the cards with the sides swapped, so their results are
   if anything negatively correlated and the interval errs on the wide side);
2. points per deal the heuristic side scores more than the random side (target +4.5):
   total net points over total deals, with a delta-method interval over duplicate
   pairs (the independent unit);
3. grands made when a heuristic seat grands (its side takes 7+ tricks; target 94%),
   Wilson interval over those deals; also the share of each hand type, and speed.

    python benchmarks/minnesota_heuristic_strength.py --games 2000
    python benchmarks/minnesota_heuristic_strength.py --param grand_threshold=17 \\
        --variant bid=spoken
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from strength_common import Timed, parse_setting, ratio_interval, wilson

from strategies.minnesota_heuristic import MinnesotaHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_match
from whist_sim.tournament.schedule import match_seed

LINE_UP = ("heuristic", "random", "heuristic", "random")
ROTATIONS = (0, 1)
"""Rotating the line-up by 2 or 3 seats repeats rotation 0 or 1."""










def measure(
    games: int, variant: dict[str, Any], params: dict[str, Any], root: int = 0
) -> dict[str, Any]:
    """Play ``games`` games (``games // 2`` duplicate pairs) and return the figures."""
    if games < 2:
        raise ValueError(f"games = {games!r}: play at least 2 games (one duplicate pair)")
    game = make_game("minnesota_whist", variant)
    heuristic = Timed(MinnesotaHeuristic(**params))
    by_name = {"heuristic": heuristic, "random": RandomStrategy()}
    won = 0
    pair_net: list[float] = []
    pair_deals: list[float] = []
    deals_total = grands = made = random_grands = nulls = 0
    started = time.perf_counter()
    for index in range(games // 2):
        seed = match_seed(root, index)
        net = deals = 0
        for rotation in ROTATIONS:
            names = [LINE_UP[(seat - rotation) % 4] for seat in range(4)]
            side = rotation % 2  # the heuristic partnership: seats 0+2 or 1+3
            played, result = play_match(game, [by_name[n] for n in names], seed,
                                        on_error="abort")
            won += result["match_result"][side] == "win"
            for deal in played:
                outcome = deal.outcome
                net += outcome.net[side]
                deals += 1
                facts = outcome.facts
                grander = facts["grander"]
                if grander is None:
                    nulls += 1
                elif grander % 2 == side:
                    grands += 1
                    made += facts["side_tricks"][side] >= 7
                else:
                    random_grands += 1
        pair_net.append(net)
        pair_deals.append(deals)
        deals_total += deals
    elapsed = time.perf_counter() - started
    games_played = 2 * len(pair_net)
    return {
        "games": games_played,
        "deals": deals_total,
        "won": won,
        "net_per_deal": ratio_interval(pair_net, pair_deals),
        "grands": grands,
        "made": made,
        "random_grands": random_grands,
        "nulls": nulls,
        "games_per_s": games_played / elapsed,
        "us_per_decision": 1e6 * heuristic.seconds / max(heuristic.decisions, 1),
    }


def report(result: dict[str, Any]) -> list[str]:
    games, deals = result["games"], result["deals"]
    won = result["won"]
    won_low, won_high = wilson(won, games)
    net, net_half = result["net_per_deal"]
    grands, made = result["grands"], result["made"]
    low, high = wilson(made, grands)
    made_rate = made / grands if grands else float("nan")
    return [
        f"games won by heuristic: {won / games:.2%} ({won}/{games}; 95% CI {won_low:.2%} .."
        f" {won_high:.2%}), {deals} deals  [target 99.5%]",
        f"points per deal, heuristic side minus random side: {net:+.3f}"
        f" (95% CI {net - net_half:+.3f} .. {net + net_half:+.3f})  [target +4.5]",
        f"grands made by heuristic granders: {made_rate:.2%} ({made}/{grands};"
        f" 95% CI {low:.2%} .. {high:.2%})  [target 94%]",
        f"hand types: heuristic grands {grands / deals:.1%}, random grands"
        f" {result['random_grands'] / deals:.1%}, null {result['nulls'] / deals:.1%}",
        f"speed: {result['games_per_s']:.1f} games/s (all four seats and the engine),"
        f" {result['us_per_decision']:.1f} us per heuristic decision",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000,
                        help="games to play: N // 2 seeds, each under both rotations")
    parser.add_argument("--seed", type=int, default=0, help="root seed of the game seeds")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a Minnesota Whist variant setting, e.g. bid=spoken (repeatable)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a heuristic parameter, e.g. grand_threshold=18 (repeatable)")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games must be at least 2")
    variant = dict(parse_setting(s) for s in args.variant)
    params = dict(parse_setting(s) for s in args.param)
    result = measure(args.games, variant, params, args.seed)
    print(f"variant: {', '.join(f'{k}={v}' for k, v in variant.items()) or 'default'}")
    print(f"parameters: {', '.join(f'{k}={v}' for k, v in params.items()) or 'default'}")
    print("\n".join(report(result)))


if __name__ == "__main__":
    main()
