"""What knowing the other hands is worth in Knock-out Whist: a ceiling, not a player.

One search player (``--search``, default ``ismcts``) against three ``heuristic``
players, every seat rotation of each deal seed, as ``search_strength.py knockout``.
For each setting of ``--know`` the same games are played, but at some of the search
player's decisions every world it draws is the true deal instead of a sample:

    none    never (the honest player: the same games as search_strength.py knockout)
    trump   when it names trump
    play    when it plays a card
    all     at every decision

This is a deliberate cheat, confined to this script: it replaces the world sampler
the search strategies call (``sample_world`` in ``whist_sim.search.pimc`` and
``whist_sim.search.ismcts``) while the cheating player decides, and plays the deals
with its own loop so it can hand over the true hands. Nothing in ``whist_sim`` or
``strategies`` can reach the true deal. ``none`` plays the real sampler, so its
figure must equal ``search_strength.py knockout`` on the same seeds, which checks
the loop.

What the figures say: how much of a player's strength could come from information it
cannot have, against how much it shows with what it may know. The paired difference
per seed (same deals, same seats) is printed for each cheat against ``none``.

    python benchmarks/knockout_information.py --seeds 100
    python benchmarks/knockout_information.py --search pimc --know none trump play --seeds 100
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from multiprocessing import get_context
from typing import Any

from strength_common import mean_interval, parse_setting

from whist_sim.cards import FULL_DECK
from whist_sim.games import make_game
from whist_sim.play import seat_seed
from whist_sim.rng import strategy_rng
from whist_sim.sampling import World
from whist_sim.search import ismcts as ismcts_search
from whist_sim.search import pimc as pimc_search
from whist_sim.strategy import StrategyError, build_strategy

KNOW = ("none", "trump", "play", "all")
"""At which of the search player's decisions its worlds are the true deal."""
PLAYERS = 4


class _TrueDeal:
    """The deal being played, while the cheating player decides (else None)."""

    state: Any = None


def _true_or_sampled(sampler: Any) -> Any:
    def sample(view: Any, rng: Any) -> World:
        state = _TrueDeal.state
        if state is None:
            return sampler(view, rng)
        dealt = 0
        for hand in state.round_start_hands:
            dealt |= hand
        return World(tuple(state.hands), undealt=FULL_DECK & ~dealt)

    return sample


@contextmanager
def _cheating_samplers() -> Iterator[None]:
    """Let the search modules draw the true deal whenever ``_TrueDeal.state`` is set."""
    modules = (pimc_search, ismcts_search)
    saved = [module.sample_world for module in modules]
    for module, sampler in zip(modules, saved, strict=True):
        module.sample_world = _true_or_sampled(sampler)
    try:
        yield
    finally:
        for module, sampler in zip(modules, saved, strict=True):
            module.sample_world = sampler


def play_game(game: Any, line_up: list[Any], seed: int, cheat_seat: int, know: str) -> Any:
    """One game as ``whist_sim.play.play_deal`` plays it (same seat generators), the
    seat ``cheat_seat`` seeing the true deal where ``know`` says."""
    state = game.new_deal(seed, seed % PLAYERS)
    rngs = [strategy_rng(seat_seed(seed, seat)) for seat in range(PLAYERS)]
    seat = state.to_act
    while seat >= 0:
        view = state.view(seat)
        if seat == cheat_seat and know in ("all", view.phase):
            _TrueDeal.state = state
        try:
            action = line_up[seat].choose(view, rngs[seat])
        finally:
            _TrueDeal.state = None
        state.apply(action)
        seat = state.to_act
    return state.outcome()


def _chunk(args: tuple[range, str, dict, tuple[str, ...]]) -> dict[str, list[float]]:
    seeds, search, params, knows = args
    game = make_game("knockout_whist", {}, PLAYERS)
    player = build_strategy(search, params, game.name)
    heuristic = build_strategy("heuristic", {}, game.name)
    scores: dict[str, list[float]] = {know: [] for know in knows}
    with _cheating_samplers():
        for know in knows:
            for seed in seeds:
                wins = 0
                for seat in range(PLAYERS):
                    line_up = [heuristic] * PLAYERS
                    line_up[seat] = player
                    outcome = play_game(game, line_up, seed, seat, know)
                    wins += outcome.result[seat] == "win"
                scores[know].append(wins / PLAYERS)
    return scores


def measure(seeds: int, search: str, params: dict, knows: tuple[str, ...], workers: int = 2,
            first_seed: int = 0) -> dict[str, list[float]]:
    """Per-seed win rates of the search player for each ``know`` setting."""
    unknown = [know for know in knows if know not in KNOW]
    if unknown:
        raise ValueError(f"know = {unknown[0]!r} is not allowed; allowed values: {', '.join(KNOW)}")
    bounds = [first_seed + seeds * i // workers for i in range(workers + 1)]
    chunks = [(range(lo, hi), search, params, knows) for lo, hi in pairwise(bounds)]
    if workers == 1:
        parts = [_chunk(chunks[0])]
    else:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_chunk, chunks)
    return {know: [score for part in parts for score in part[know]] for know in knows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", default="ismcts", help="the search strategy (pimc, ismcts)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of the search strategy (repeatable)")
    parser.add_argument("--know", nargs="+", default=["none", "all"], choices=KNOW,
                        help="settings to measure (default: none all)")
    parser.add_argument("--seeds", type=int, default=100, help="deal seeds (4 games each)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.seeds < args.workers or args.workers < 1:
        raise SystemExit("--seeds must be at least --workers, and --workers at least 1")
    if args.search not in ("pimc", "ismcts"):
        raise SystemExit(f"knockout_information.py: --search {args.search!r}: only pimc and"
                         " ismcts draw worlds; allowed values: pimc, ismcts")
    params = dict(parse_setting(s) for s in args.param)
    knows = tuple(dict.fromkeys(args.know))
    started = time.perf_counter()
    try:
        scores = measure(args.seeds, args.search, params, knows, args.workers, args.first_seed)
    except StrategyError as error:
        raise SystemExit(f"knockout_information.py: {error}") from None
    print(f"{args.search} {params or ''} against three heuristic, seeds {args.first_seed}-"
          f"{args.first_seed + args.seeds - 1} ({PLAYERS * args.seeds} games a setting)"
          f" in {time.perf_counter() - started:.0f} s")
    for know in knows:
        mean, half = mean_interval(scores[know])
        line = f"  knows the true deal: {know:5s}  games won {mean:.2%} (95% CI {mean - half:.2%}" \
               f" .. {mean + half:.2%})"
        if know != "none" and "none" in scores:
            gains = [a - b for a, b in zip(scores[know], scores["none"], strict=True)]
            gain, gain_half = mean_interval(gains)
            line += f"; seed by seed {100 * gain:+.2f} points ({100 * (gain - gain_half):+.2f}" \
                    f" .. {100 * (gain + gain_half):+.2f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
