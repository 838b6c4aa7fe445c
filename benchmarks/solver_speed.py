"""Double-dummy solver speed on full German Whist stage-2 positions, beside plain alpha-beta.

A position is 26 random cards split 13/13 between the two players (every stage-2
start is such a split), a random trump suit or none (one position in five), and a
random leader. ``solve`` (pure Python) and ``solve_fast`` (the same search compiled
with numba; its compilation, done once per process, is timed apart) are timed on
``--positions`` of them (default 200), one call each with a fresh table; median and
max milliseconds are printed, and both must agree on every position.

The reference is alpha-beta written straightforwardly: every legal card in card
order, a window carried down, no transposition table, no card equivalence, no
bounds. It is far too slow for full positions (one 13-card position ran more than
ten minutes without finishing), so it is timed on a smaller sample: 20 random
8-card endings (``--reference-positions``, ``--reference-cards``), with ``solve``
timed on the same endings for the ratio. Both must agree on every ending timed.

Targets from the issue: median <= 0.5 ms, max <= 5 ms per 13-card position.

    python benchmarks/solver_speed.py
    python benchmarks/solver_speed.py --positions 50 --reference-positions 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from whist_sim.solver import solve, solve_fast

TARGET_MEDIAN_MS = 0.5
TARGET_MAX_MS = 5.0
SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))


def positions(count: int, seed: int, cards: int = 13) -> list[tuple[list[int], int, int]]:
    """(hands, leader, trump) of random stage-2 positions, ``cards`` cards a hand."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = rng.sample(range(52), 2 * cards)
        hands = [sum(1 << c for c in deck[:cards]), sum(1 << c for c in deck[cards:])]
        trump = rng.choice([-1, 0, 1, 2, 3])
        out.append((hands, rng.randrange(2), trump))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--reference-positions", type=int, default=20)
    parser.add_argument("--reference-cards", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    sample = positions(args.positions, args.seed)
    solver_ms, values = [], []
    for hands, leader, trump in sample:
        ms, value = timed(solve, hands, leader, trump, [0, 1])
        solver_ms.append(ms)
        values.append(value)

    started = time.perf_counter()
    solve_fast([1, 2], 0, -1, [0, 1])
    compile_s = time.perf_counter() - started
    fast_ms = []
    for (hands, leader, trump), value in zip(sample, values, strict=True):
        ms, fast = timed(solve_fast, hands, leader, trump, [0, 1])
        if fast != value:
            raise SystemExit(f"solve_fast says {fast}, solve {value}: {hands} {leader} {trump}")
        fast_ms.append(ms)

    small = positions(args.reference_positions, args.seed + 1, args.reference_cards)
    reference_ms, small_ms = [], []
    for hands, leader, trump in small:
        ms, value = timed(solve, hands, leader, trump, [0, 1])
        small_ms.append(ms)
        ms, expected = timed(reference, hands, leader, trump)
        if expected != value:
            raise SystemExit(f"solve says {value}, reference {expected}: {hands} {leader} {trump}")
        reference_ms.append(ms)

    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"solve, {len(solver_ms)} full stage-2 positions (13 cards each):"
          f" median {statistics.median(solver_ms):.2f} ms, max {max(solver_ms):.2f} ms"
          f" (targets {TARGET_MEDIAN_MS} ms, {TARGET_MAX_MS} ms)")
    print(f"solve_fast, same positions: median {statistics.median(fast_ms):.2f} ms,"
          f" max {max(fast_ms):.2f} ms (compiled once first: {compile_s:.0f} s)")
    if reference_ms:
        ratio = statistics.median(reference_ms) / statistics.median(small_ms)
        print(f"{len(small)} endings of {args.reference_cards} cards each (plain alpha-beta is"
              f" too slow for 13): plain alpha-beta median {statistics.median(reference_ms):.1f}"
              f" ms, max {max(reference_ms):.1f} ms; solve median"
              f" {statistics.median(small_ms):.2f} ms, max {max(small_ms):.2f} ms;"
              f" ratio of medians reference/solve {ratio:.0f}x")


if __name__ == "__main__":
    main()
