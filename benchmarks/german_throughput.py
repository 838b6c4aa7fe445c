"""German Whist throughput: random against random, framework beside a bare reference loop.

The framework side is what every tournament runs: ``whist_sim.play.play_deal`` with
two ``RandomStrategy`` seats under the default variant (state, views, log, outcome).
The reference side is the least Python can do to play the same hand: plain-int
bitmask hands dealt from the same ``shuffled_deck``, follow suit, trick winner,
stage-1 draws, one ``random.Random`` per hand choosing uniformly among legal cards;
no objects, no views, no log. Both are timed in the same process, interleaved,
best of ``--repeats`` runs of ``--hands`` hands each, on one core (one process).

The ratio framework/reference says how much of the bare speed the framework keeps;
the target is 7,000 framework hands per second.

    python benchmarks/german_throughput.py
    python benchmarks/german_throughput.py --hands 20000 --repeats 3
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_deal
from whist_sim.rng import derive_seed, shuffled_deck

TARGET_HANDS_PER_S = 7000
SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))


def hand_seeds(hands: int, root: int) -> list[int]:
    """Deal seeds, derived once outside the timed loops."""
    return [derive_seed(root, "throughput", i) for i in range(hands)]


def framework_run(seeds: list[int]) -> tuple[float, int]:
    """Seconds to play every seed through ``play_deal``, and the tricks played in all."""
    game = make_game("german_whist")
    strategies = [RandomStrategy(), RandomStrategy()]
    tricks = 0
    started = time.perf_counter()
    for i, seed in enumerate(seeds):
        played = play_deal(game, strategies, seed, i & 1)
        tricks += len(played.state.tricks)
    return time.perf_counter() - started, tricks


def _pick(mask: int, rng: random.Random) -> int:
    """A uniformly chosen set bit of ``mask``."""
    for _ in range(int(rng.random() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def reference_hand(seed: int, dealer: int) -> int:
    """One default-rules hand, random against random, in plain ints; returns tricks played."""
    rng = random.Random(seed)
    deck = shuffled_deck(seed)
    non_dealer = 1 - dealer
    hands = [0, 0]
    for i in range(26):
        hands[non_dealer if i % 2 == 0 else dealer] |= 1 << deck[i]
    stock = deck[26:]
    trump = stock[0] // 13
    leader = non_dealer
    tricks = 0
    for trick in range(26):
        hand = hands[leader]
        lead = _pick(hand, rng)
        hands[leader] = hand & ~(1 << lead)
        follower = 1 - leader
        hand = hands[follower]
        follow = _pick(hand & SUIT_MASKS[lead // 13] or hand, rng)
        hands[follower] = hand & ~(1 << follow)
        if follow // 13 == lead // 13:
            winner = follower if follow > lead else leader
        elif follow // 13 == trump:
            winner = follower
        else:
            winner = leader
        if trick < 13:  # winner takes the face-up card, loser the next; the next is turned
            hands[winner] |= 1 << stock[2 * trick]
            hands[1 - winner] |= 1 << stock[2 * trick + 1]
        leader = winner
        tricks += 1
    assert hands == [0, 0]
    return tricks


def reference_run(seeds: list[int]) -> tuple[float, int]:
    tricks = 0
    started = time.perf_counter()
    for i, seed in enumerate(seeds):
        tricks += reference_hand(seed, i & 1)
    return time.perf_counter() - started, tricks


def measure(hands: int = 5000, repeats: int = 5, root: int = 0) -> dict[str, float]:
    """Best-of-``repeats`` hands per second of both loops, and their ratio."""
    seeds = hand_seeds(hands, root)
    best = {"framework": float("inf"), "reference": float("inf")}
    runs = {"framework": framework_run, "reference": reference_run}
    for _ in range(repeats):
        for name, run in runs.items():  # interleaved, so drift hits both alike
            seconds, tricks = run(seeds)
            if tricks != 26 * hands:
                raise AssertionError(
                    f"{name} loop played {tricks} tricks in {hands} hands, not 26 each"
                )
            best[name] = min(best[name], seconds)
    framework = hands / best["framework"]
    reference = hands / best["reference"]
    return {
        "hands": hands,
        "repeats": repeats,
        "framework_hands_per_s": framework,
        "reference_hands_per_s": reference,
        "ratio": framework / reference,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per run (default 5000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per loop, best kept")
    parser.add_argument("--seed", type=int, default=0, help="root seed of the deals")
    args = parser.parse_args()
    result = measure(args.hands, args.repeats, args.seed)
    framework = result["framework_hands_per_s"]
    print(f"German Whist, random vs random, default variant; Python {platform.python_version()}")
    print(f"best of {args.repeats} runs of {args.hands} hands, every hand 26 tricks (checked)")
    print(f"framework (play_deal):   {framework:10,.0f} hands/s")
    print(f"reference (bare ints):   {result['reference_hands_per_s']:10,.0f} hands/s")
    print(f"ratio framework/reference: {result['ratio']:.2f}")
    met = "met" if framework >= TARGET_HANDS_PER_S else "NOT met"
    print(f"target {TARGET_HANDS_PER_S:,} hands/s: {met}")


if __name__ == "__main__":
    main()
