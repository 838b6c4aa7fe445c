"""Double-dummy solver speed on full German Whist stage-2 positions, beside plain alpha-beta.

Two samples of full stage-2 positions (13 cards a hand), ``--positions`` each
(default 200):

- random: 26 random cards split 13/13 (every stage-2 start is such a split), a
  random trump suit or none (one position in five), a random leader;
- from games: the hands, trump and leader at the start of stage 2 of German Whist
  deals played by the built-in heuristic in both seats (``GermanHeuristic``), so the
  hands are shaped by stage-1 play (trumps and high cards collected, suits kept).

``solve_fast`` (numba) and ``solve`` (pure Python) are timed on both, one call per
position with a fresh table (``solve_fast``'s table outlives a solve, so it is cleared
before each); median and max milliseconds are printed, and both must
agree on every position. The first ``solve_fast`` call of the process is timed apart:
it loads the compiled search from numba's disk cache, or compiles it (about 10 s)
when there is no cache yet (a fresh clone, or fast.py just edited).

The reference is alpha-beta written straightforwardly: every legal card in card
order, a window carried down, no transposition table, no card equivalence, no
bounds. It is far too slow for full positions (one 13-card position ran more than
ten minutes without finishing), so it is timed on a smaller sample: 20 random
8-card endings (``--reference-positions``, ``--reference-cards``), with ``solve``
and ``solve_fast`` timed on the same endings for the ratios. All must agree.

Targets from the issue: median <= 0.5 ms, max <= 5 ms per 13-card position. Timings
are wall-clock on whatever else the machine is running: run it on a quiet machine.

    python benchmarks/solver_speed.py
    python benchmarks/solver_speed.py --positions 50 --reference-positions 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import numba

from whist_sim.games.german_whist import GermanWhist
from whist_sim.play import seat_seed
from whist_sim.rng import strategy_rng
from whist_sim.solver import fast as compiled
from whist_sim.solver import solve, solve_fast

TARGET_MEDIAN_MS = 0.5
TARGET_MAX_MS = 5.0
SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))
Position = tuple[list[int], int, int]
"""(hands, leader, trump) of a two-player position."""


def positions(count: int, seed: int, cards: int = 13) -> list[Position]:
    """Random stage-2 positions, ``cards`` cards a hand."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = rng.sample(range(52), 2 * cards)
        hands = [sum(1 << c for c in deck[:cards]), sum(1 << c for c in deck[cards:])]
        trump = rng.choice([-1, 0, 1, 2, 3])
        out.append((hands, rng.randrange(2), trump))
    return out


def game_positions(count: int, seed: int) -> list[Position]:
    """Stage-2 starts of German Whist deals played by the heuristic in both seats."""
    from strategies.german_heuristic import GermanHeuristic

    game = GermanWhist()
    players = [GermanHeuristic(), GermanHeuristic()]
    out = []
    deal = 0
    while len(out) < count:
        deal_seed = seed * 1_000_003 + deal
        state = game.new_deal(deal_seed, deal % 2)
        rngs = [strategy_rng(seat_seed(deal_seed, seat)) for seat in range(2)]
        deal += 1
        while state.to_act >= 0 and not (state.stage == 2 and state.trick_no == 13):
            seat = state.to_act
            state.apply(players[seat].choose(state.view(seat), rngs[seat]))
        if state.to_act >= 0 and not state.trick:
            out.append((list(state.hands), state.to_act, state.trump))
    return out


def reference(hands: list[int], leader: int, trump: int) -> int:
    """Tricks of player 0 with best play by plain alpha-beta (no table, no tricks)."""

    def beats(card: int, led: int) -> bool:
        if card // 13 == led // 13:
            return card > led
        return card // 13 == trump

    def lead(hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """Player 0's tricks from here, within the window (alpha, beta)."""
        if not hands[leader]:
            return 0
        follower = 1 - leader
        best = -1 if leader == 0 else 99
        for card in range(52):
            if not hands[leader] >> card & 1:
                continue
            hands[leader] ^= 1 << card
            value = follow(hands, leader, follower, card, alpha, beta)
            hands[leader] ^= 1 << card
            if leader == 0:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def follow(hands: list[int], leader: int, follower: int, led: int,
               alpha: int, beta: int) -> int:
        hand = hands[follower]
        legal = hand & SUIT_MASKS[led // 13] or hand
        best = -1 if follower == 0 else 99
        for card in range(52):
            if not legal >> card & 1:
                continue
            hands[follower] ^= 1 << card
            winner = follower if beats(card, led) else leader
            won = 1 if winner == 0 else 0
            value = won + lead(hands, winner, alpha - won, beta - won)
            hands[follower] ^= 1 << card
            if follower == 0:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    return lead(list(hands), leader, -1, 14)


def timed(function, *args) -> tuple[float, int]:
    started = time.perf_counter()
    value = function(*args)
    return (time.perf_counter() - started) * 1e3, value


def summary(ms: list[float]) -> str:
    return f"median {statistics.median(ms):.2f} ms, max {max(ms):.2f} ms"


def compare(name: str, sample: list[Position]) -> None:
    """Time both solvers on ``sample`` (they must agree) and print one paragraph."""
    fast_ms, nodes, values, pure_ms = [], [], [], []
    for hands, leader, trump in sample:  # apart from solve, whose dicts would evict the table
        compiled.clear_table()
        ms, value = timed(solve_fast, hands, leader, trump, [0, 1])
        fast_ms.append(ms)
        nodes.append(compiled._Table.nodes)
        values.append(value)
    for (hands, leader, trump), fast in zip(sample, values, strict=True):
        ms, value = timed(solve, hands, leader, trump, [0, 1])
        pure_ms.append(ms)
        if fast != value:
            raise SystemExit(f"solve_fast says {fast}, solve {value}: {hands} {leader} {trump}")
    met = (statistics.median(fast_ms) <= TARGET_MEDIAN_MS and max(fast_ms) <= TARGET_MAX_MS)
    print(f"{len(sample)} {name} positions (13 cards a hand):")
    print(f"  solve_fast {summary(fast_ms)} (targets {TARGET_MEDIAN_MS} ms, {TARGET_MAX_MS} ms:"
          f" {'met' if met else 'NOT met'}); {statistics.median(nodes):.0f} positions searched"
          f" (median)")
    print(f"  solve (pure Python) {summary(pure_ms)}; ratio of medians"
          f" {statistics.median(pure_ms) / statistics.median(fast_ms):.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--reference-positions", type=int, default=20)
    parser.add_argument("--reference-cards", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    print(f"python {platform.python_version()}, numba {numba.__version__} on"
          f" {platform.machine()}")
    started = time.perf_counter()
    solve_fast([1, 2], 0, -1, [0, 1])
    print(f"solve_fast start-up (first call: cache load, or compilation when there is no"
          f" cache): {time.perf_counter() - started:.1f} s")
    compare("random", positions(args.positions, args.seed))
    compare("game (heuristic v heuristic, stage-2 start)",
            game_positions(args.positions, args.seed))

    small = positions(args.reference_positions, args.seed + 1, args.reference_cards)
    reference_ms, small_ms, small_fast_ms = [], [], []
    for hands, leader, trump in small:
        ms, value = timed(solve, hands, leader, trump, [0, 1])
        small_ms.append(ms)
        compiled.clear_table()
        ms, fast = timed(solve_fast, hands, leader, trump, [0, 1])
        small_fast_ms.append(ms)
        ms, expected = timed(reference, hands, leader, trump)
        if not expected == value == fast:
            raise SystemExit(f"solve says {value}, solve_fast {fast}, reference {expected}:"
                             f" {hands} {leader} {trump}")
        reference_ms.append(ms)
    if reference_ms:
        median = statistics.median(reference_ms)
        print(f"{len(small)} random endings of {args.reference_cards} cards a hand (plain"
              f" alpha-beta is too slow for 13):")
        print(f"  plain alpha-beta {summary(reference_ms)}")
        print(f"  solve {summary(small_ms)}; reference/solve"
              f" {median / statistics.median(small_ms):.0f}x")
        print(f"  solve_fast {summary(small_fast_ms)}; reference/solve_fast"
              f" {median / statistics.median(small_fast_ms):.0f}x")


if __name__ == "__main__":
    main()
