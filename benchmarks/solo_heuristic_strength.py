"""How strong the Solo Whist ``heuristic`` is, on duplicate deals, with 95% intervals.

Two measurements, both over deal seeds 0..N-1 with dealer = seed % 4:

1. Against ``random``: the line-up heuristic, random, heuristic, random (seats 0..3)
   under its two distinct seat rotations (rotation 0, and rotation 1 which is random,
   heuristic, random, heuristic) on the same seed, so the luck of the cards cancels.
   A deal's score is the heuristic seats' average net units (four seats over the two
   rotations); the interval is over deals, the independent unit.
2. Heuristic in all four seats: how often each contract is bid and made by its
   declarer (Wilson 95% intervals).

    python benchmarks/solo_heuristic_strength.py --deals 20000
    python benchmarks/solo_heuristic_strength.py --param solo_tricks=5.5 --variant upcard=false
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from strength_common import Timed, mean_interval, parse_setting, wilson

from strategies.random_play import RandomStrategy
from strategies.solo_heuristic import SoloHeuristic
from whist_sim.games import make_game
from whist_sim.games.solo_whist import CONTRACTS
from whist_sim.play import play_deal

LINE_UP = ("heuristic", "random", "heuristic", "random")
ROTATIONS = (0, 1)
"""Rotating the line-up by 2 or 3 seats repeats rotation 0 or 1."""










def contract_of(deal: Any) -> tuple[str | None, int | None, bool | None]:
    """The contract, its declarer and whether it was made, from the deal's facts."""
    facts = deal.outcome.facts or {}
    return facts.get("contract"), facts.get("declarer"), facts.get("made")


def measure(deals: int, variant: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """Play both measurements on seeds 0..deals-1; return the figures."""
    game = make_game("solo_whist", variant)
    heuristic = Timed(SoloHeuristic(**params))
    rand = RandomStrategy()
    by_name = {"heuristic": heuristic, "random": rand}

    scores: list[float] = []
    versus = Counter()  # (contract, made) declared by a heuristic seat against random
    started = time.perf_counter()
    for seed in range(deals):
        total = 0.0
        seats_counted = 0
        for rotation in ROTATIONS:
            names = [LINE_UP[(seat - rotation) % 4] for seat in range(4)]
            deal = play_deal(game, [by_name[n] for n in names], seed, seed % 4,
                             on_error="abort")
            for seat, name in enumerate(names):
                if name == "heuristic":
                    total += deal.outcome.net[seat]
                    seats_counted += 1
            contract, declarer, made = contract_of(deal)
            if contract is not None and names[declarer] == "heuristic":
                versus[contract, made] += 1
        scores.append(total / seats_counted)
    versus_seconds = time.perf_counter() - started

    own = Counter()
    started = time.perf_counter()
    thrown_in = 0
    for seed in range(deals):
        deal = play_deal(game, [heuristic] * 4, seed, seed % 4, on_error="abort")
        contract, _, made = contract_of(deal)
        if contract is None:
            thrown_in += 1
        else:
            own[contract, made] += 1
    own_seconds = time.perf_counter() - started

    mean, half = mean_interval(scores)
    return {
        "deals": deals,
        "units": (mean, mean - half, mean + half),
        "versus": versus,
        "own": own,
        "thrown_in": thrown_in,
        "versus_deals_per_s": 2 * deals / versus_seconds,
        "own_deals_per_s": deals / own_seconds,
        "us_per_decision": 1e6 * heuristic.seconds / max(heuristic.decisions, 1),
        "decisions": heuristic.decisions,
    }


def contract_table(counts: Counter, deals: int) -> list[str]:
    lines = [f"  {'contract':<20}{'bids':>7}{'per deal':>10}{'made':>9}   95% interval"]
    for contract in CONTRACTS:
        made = counts[contract.name, True]
        n = made + counts[contract.name, False]
        if not n:
            lines.append(f"  {contract.name:<20}{0:>7}{0:>10.2%}{'-':>9}")
            continue
        low, high = wilson(made, n)
        lines.append(
            f"  {contract.name:<20}{n:>7}{n / deals:>10.2%}{made / n:>9.1%}"
            f"   {low:.1%} .. {high:.1%}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deal seeds to play")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a Solo Whist variant setting, e.g. upcard=false (repeatable)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a heuristic parameter, e.g. solo_tricks=5.5 (repeatable)")
    args = parser.parse_args()
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    variant = dict(parse_setting(s) for s in args.variant)
    params = dict(parse_setting(s) for s in args.param)
    result = measure(args.deals, variant, params)
    deals = result["deals"]
    print(f"variant: {', '.join(f'{k}={v}' for k, v in variant.items()) or 'default'}")
    print(f"parameters: {', '.join(f'{k}={v}' for k, v in params.items()) or 'default'}")
    mean, low, high = result["units"]
    print(
        f"(a) heuristic, random, heuristic, random, rotations 0 and 1: heuristic seats"
        f" {mean:+.3f} units per deal (95% CI {low:+.3f} .. {high:+.3f}) over {deals} deals"
    )
    print("    contracts declared by a heuristic seat (both rotations):")
    print("\n".join(contract_table(result["versus"], 2 * deals)))
    print(f"(b) heuristic in all four seats, {deals} deals,"
          f" {result['thrown_in'] / deals:.1%} thrown in:")
    print("\n".join(contract_table(result["own"], deals)))
    print(
        f"speed: {result['versus_deals_per_s']:.0f} deals/s against random,"
        f" {result['own_deals_per_s']:.0f} deals/s all heuristic (engine included);"
        f" heuristic {1e6 / result['us_per_decision']:.0f} decisions/s,"
        f" {result['us_per_decision']:.1f} us each on average ({result['decisions']} timed)"
    )


if __name__ == "__main__":
    main()
