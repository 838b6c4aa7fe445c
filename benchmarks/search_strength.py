"""How strong are the search strategies? The issue's strength targets, measured.

Each target is a line-up played on common deals with every seat rotation, the 95%
interval taken over deal seeds (the independent unit; a seed's rotations are
correlated), work spread over ``--workers`` processes (seeds are split in order, so
the figures do not depend on the number of workers):

    german-solver    solver vs heuristic, each seed played with both seatings: hands won
    german-pimc      pimc vs solver, likewise
    knockout         one search player and three heuristics, every seat: games won
                     (``--field SPEC`` seats three of another strategy instead)
    minnesota        a search partnership vs a heuristic one, games to 13, both seatings:
                     games won, points per deal
    minnesota-deals  single deals, the search partnership on each side in turn: points
                     per deal (a quicker screen than matches; playing each deal from
                     both sides cancels the luck of the cards)
    solo             one search player and three heuristics, every seat: units per deal,
                     contracts made as declarer
    solo-bidding     two simulation_bidder seats and two heuristic ones (S H S H and
                     H S H S): units per deal of each

    python benchmarks/search_strength.py german-solver --seeds 2000
    python benchmarks/search_strength.py solo --search pimc --param worlds=20 --seeds 500
    python benchmarks/search_strength.py knockout --search ismcts --param iterations=300
    python benchmarks/search_strength.py german-pimc --opponent-param stage1_tricks=0
    python benchmarks/search_strength.py knockout --field knockout_greedy:GreedyRules
    python benchmarks/search_strength.py knockout --search knockout_greedy:GreedyRules --seeds 2000

``--opponent-param`` sets a parameter of the opponents instead (``solver`` in
german-pimc, the ``heuristic`` everywhere else), e.g. to measure against the issue's
plain "heuristic stage 1, exact stage 2" solver.

Every figure printed is measured in the run; nothing is assumed.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from itertools import pairwise
from multiprocessing import get_context
from typing import Any

from strength_common import Timed, mean_interval, parse_setting, wilson

from whist_sim.games import make_game
from whist_sim.play import play_deal, play_match
from whist_sim.strategy import StrategyError, build_strategy

TARGETS: dict[str, Callable[..., dict[str, Any]]] = {}


def target(name: str):
    def register(fn):
        TARGETS[name] = fn
        return fn
    return register


def _timed(spec: str, params: dict[str, Any], game: str) -> Timed:
    return Timed(build_strategy(spec, params, game))


def _times(*players: Timed) -> dict[str, float]:
    seconds = sum(p.seconds for p in players)
    decisions = sum(p.decisions for p in players)
    return {"seconds": seconds, "decisions": decisions}


@target("german-solver")
def german_solver(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    return _german_pair(seeds, "solver", params if search == "solver" else {}, "heuristic",
                        opponent)


@target("german-pimc")
def german_pimc(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    return _german_pair(seeds, search, params, "solver", opponent)


def _german_pair(seeds: range, a: str, a_params: dict, b: str, b_params: dict) -> dict[str, Any]:
    game = make_game("german_whist")
    first, second = _timed(a, a_params, game.name), _timed(b, b_params, game.name)
    scores = []
    for seed in seeds:
        won = 0.0
        for seat in (0, 1):
            line_up = [second, second]
            line_up[seat] = first
            result = play_deal(game, line_up, seed, seed % 2, on_error="abort").outcome.result
            won += {"win": 1.0, "draw": 0.5}.get(result[seat], 0.0)
        scores.append(won / 2)
    return {"scores": scores, **_times(first)}


@target("knockout")
def knockout(seeds: range, search: str, params: dict, opponent: dict,
             field: str = "heuristic") -> dict[str, Any]:
    game = make_game("knockout_whist", {}, 4)
    player = _timed(search, params, game.name)
    others = build_strategy(field, opponent, game.name)
    scores = []
    for seed in seeds:
        wins = 0
        for seat in range(4):
            line_up = [others] * 4
            line_up[seat] = player
            result = play_deal(game, line_up, seed, seed % 4, on_error="abort").outcome.result
            wins += result[seat] == "win"
        scores.append(wins / 4)
    return {"scores": scores, **_times(player)}


def _partnership(heuristic: Any, a: Any, b: Any, side: int) -> list[Any]:
    """A Minnesota line-up: the search players ``a`` and ``b`` in seats ``side`` and
    ``side + 2``, the heuristic in the other two."""
    line_up = [heuristic] * 4
    line_up[side], line_up[side + 2] = a, b
    return line_up


@target("minnesota")
def minnesota(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    game = make_game("minnesota_whist")
    a, b = _timed(search, params, game.name), _timed(search, params, game.name)
    heuristic = build_strategy("heuristic", opponent, game.name)
    scores, points, deals = [], [], []
    for seed in seeds:
        won = net = hands = 0.0
        for side in (0, 1):  # the search partnership in seats 0 and 2, then 1 and 3
            played, result = play_match(game, _partnership(heuristic, a, b, side), seed,
                                        on_error="abort")
            won += result["match_result"][side] == "win"
            net += sum(deal.outcome.net[side] for deal in played)
            hands += len(played)
        scores.append(won / 2)
        points.append(net)
        deals.append(hands)
    return {"scores": scores, "points": points, "deals": deals, **_times(a, b)}


@target("minnesota-deals")
def minnesota_deals(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    game = make_game("minnesota_whist")
    a, b = _timed(search, params, game.name), _timed(search, params, game.name)
    heuristic = build_strategy("heuristic", opponent, game.name)
    scores = []
    for seed in seeds:
        net = 0.0
        for side in (0, 1):
            line_up = _partnership(heuristic, a, b, side)
            outcome = play_deal(game, line_up, seed, seed % 4, on_error="abort").outcome
            net += outcome.net[side]
        scores.append(net / 2)
    return {"scores": scores, **_times(a, b)}


@target("solo")
def solo(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    game = make_game("solo_whist")
    player = _timed(search, params, game.name)
    heuristic = build_strategy("heuristic", opponent, game.name)
    scores, declared, made, side_declared, side_made = [], 0, 0, 0, 0
    for seed in seeds:
        units = 0.0
        for seat in range(4):
            line_up = [heuristic] * 4
            line_up[seat] = player
            outcome = play_deal(game, line_up, seed, seed % 4, on_error="abort").outcome
            units += outcome.net[seat]
            facts = outcome.facts
            if seat in (facts["declarer"], facts["partner"]):
                side_declared += 1
                side_made += bool(facts["made"])
                if seat == facts["declarer"]:
                    declared += 1
                    made += bool(facts["made"])
        scores.append(units / 4)
    return {"scores": scores, "declared": declared, "made": made, "side_declared": side_declared,
            "side_made": side_made, **_times(player)}


@target("solo-bidding")
def solo_bidding(seeds: range, search: str, params: dict, opponent: dict) -> dict[str, Any]:
    game = make_game("solo_whist")
    bidder = _timed("simulation_bidder", params, game.name)
    heuristic = build_strategy("heuristic", opponent, game.name)
    scores = []
    for seed in seeds:
        gain = 0.0
        for first in (0, 1):  # simulation bidders in seats 0 and 2, then 1 and 3
            line_up = [heuristic] * 4
            line_up[first] = line_up[first + 2] = bidder
            outcome = play_deal(game, line_up, seed, seed % 4, on_error="abort").outcome
            gain += (outcome.net[first] + outcome.net[first + 2]) / 2
        scores.append(gain / 2)
    return {"scores": scores, **_times(bidder)}


def _chunk(args: tuple[str, range, str, dict, dict, str | None]) -> dict[str, Any]:
    name, seeds, search, params, opponent, field = args
    if field is None:
        return TARGETS[name](seeds, search, params, opponent)
    return TARGETS[name](seeds, search, params, opponent, field=field)


def measure(name: str, seeds: int, search: str, params: dict, workers: int,
            first_seed: int = 0, opponent: dict | None = None,
            field: str | None = None) -> dict[str, Any]:
    """Play ``seeds`` deal seeds of target ``name`` over ``workers`` processes; merged results.

    ``opponent``: parameters of the opponents (``solver`` in german-pimc, else the heuristic).
    ``field``: the opponents' strategy where the target lets it change (knockout).
    """
    if field is not None and name != "knockout":
        raise ValueError(f"field applies to the knockout target only, not {name!r}")
    bounds = [first_seed + seeds * i // workers for i in range(workers + 1)]
    chunks = [(name, range(lo, hi), search, params, opponent or {}, field)
              for lo, hi in pairwise(bounds)]
    started = time.perf_counter()
    if workers == 1:
        parts = [_chunk(chunks[0])]
    else:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_chunk, chunks)
    merged: dict[str, Any] = {"elapsed": time.perf_counter() - started}
    for part in parts:
        for key, value in part.items():
            merged[key] = merged.get(key, [] if isinstance(value, list) else 0) + value
    return merged


def _share_bounds(mean: float, half: float) -> str:
    """A share's t interval, cut at 0% and 100% (two seeds read 26% to 124%)."""
    return f"{max(mean - half, 0.0):.2%} .. {min(mean + half, 1.0):.2%}"


def report(name: str, search: str, params: dict, r: dict[str, Any],
           opponent: dict | None = None, field: str | None = None) -> None:
    scores = r["scores"]
    mean, half = mean_interval(scores)
    per_decision = 1000 * r["seconds"] / max(r["decisions"], 1)
    shown = f"{'solver' if name == 'german-solver' else search} {params or ''}".strip()
    if field:
        shown += f" against three {field}"
    if opponent:
        shown += f" against opponents with {opponent}"
    print(f"{name}: {shown}; {len(scores)} seeds in {r['elapsed']:.0f} s;"
          f" {per_decision:.1f} ms per decision (mean)")
    if name in ("german-solver", "german-pimc", "knockout"):
        unit = "hands" if name.startswith("german") else "games"
        print(f"  {unit} won: {mean:.2%} (95% CI {_share_bounds(mean, half)})")
    elif name == "minnesota":
        deals = sum(r["deals"])
        per_deal = [p / d for p, d in zip(r["points"], r["deals"], strict=True)]
        pmean, phalf = mean_interval(per_deal)
        print(f"  games to 13 won: {mean:.2%} (95% CI {_share_bounds(mean, half)})")
        print(f"  points per deal: {sum(r['points']) / deals:+.3f}"
              f" (per-seed mean {pmean:+.3f}, 95% CI {pmean - phalf:+.3f} .. {pmean + phalf:+.3f})"
              f" over {deals:.0f} deals")
    elif name == "minnesota-deals":
        print(f"  points per deal: {mean:+.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f})")
    elif name == "solo":
        low, high = wilson(r["made"], r["declared"])
        rate = r["made"] / max(r["declared"], 1)
        print(f"  units per deal: {mean:+.3f} (95% CI {mean - half:+.3f} .. {mean + half:+.3f})")
        print(f"  contracts made as declarer: {rate:.2%} (95% CI {low:.2%} .. {high:.2%})"
              f" of {r['declared']}")
        low, high = wilson(r["side_made"], r["side_declared"])
        rate = r["side_made"] / max(r["side_declared"], 1)
        print(f"  made on the declaring side (declarer or Cop partner): {rate:.2%}"
              f" (95% CI {low:.2%} .. {high:.2%}) of {r['side_declared']}")
    elif name == "solo-bidding":
        print(f"  simulation bidder units per deal: {mean:+.3f}"
              f" (95% CI {mean - half:+.3f} .. {mean + half:+.3f});"
              f" the heuristic bidders get {-mean:+.3f} (zero-sum)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--search", default="pimc",
                        help="the strategy measured: a registered name (pimc, ismcts, solver)"
                             " or module:Class, e.g. knockout_greedy:GreedyRules")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of the measured strategy (repeatable)")
    parser.add_argument("--opponent-param", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of the opponents: solver in german-pimc, else the"
                             " heuristic (repeatable)")
    parser.add_argument("--field", default=None, metavar="SPEC",
                        help="knockout only: the three opponents' strategy (default heuristic),"
                             " e.g. knockout_greedy:GreedyRules")
    parser.add_argument("--seeds", type=int, default=500, help="deal (match) seeds")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    params = dict(parse_setting(s) for s in args.param)
    opponent = dict(parse_setting(s) for s in args.opponent_param)
    if args.seeds < args.workers or args.workers < 1:
        raise SystemExit("--seeds must be at least --workers, and --workers at least 1")
    if args.field is not None and args.target != "knockout":
        raise SystemExit(f"search_strength.py {args.target}: --field applies to the knockout"
                         " target only")
    try:
        result = measure(args.target, args.seeds, args.search, params, args.workers,
                         args.first_seed, opponent, args.field)
    except StrategyError as error:  # a bad --param, --opponent-param or --field: say which
        raise SystemExit(f"search_strength.py {args.target}: {error}") from None
    report(args.target, args.search, params, result, opponent, args.field)


if __name__ == "__main__":
    main()
