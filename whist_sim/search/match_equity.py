"""Match equity: a side's chance of winning a game to ``target`` from a given score.

A Minnesota Whist game is won by the first side to reach ``target`` points, so what
a deal's points are worth depends on the score: at 12-3 one point ends the game, at
3-12 keeping the other side from its seventh trick is all that counts. Search that
values a deal by its net points plays every deal as if it were the first. Valued by
the match equity it leaves instead (the standard tool of match play in backgammon),
the same search plays for the game.

The model, and why:
- Equal sides. Each deal changes one side's score; which side is a fair coin and the
  points follow the distribution that the ``heuristic`` playing all four seats
  produces (the strategy registered under that name, found through the strategy
  registry: ``whist_sim.search.policy.default_policy``; whist_sim imports no
  strategy). Backgammon's match equity tables are built the same way, for equal
  players: the table is a scale on which to compare outcomes, not a forecast of
  this pairing's result.
- The distribution is measured, not assumed: ``DISTRIBUTION_DEALS`` heuristic deals
  of the variant at hand (seeds from ``DISTRIBUTION_SEED``, dealer rotating), in
  about a second on first use, kept for the process. It follows any variant
  (``scoring``, ``bid``, ``target``) without a table to maintain.
- Scores can fall under the ``pagat`` scoring (a null hand's losers lose points).
  Scores below ``-target`` count as ``-target``: a side that far behind has
  practically no chance, and the floor keeps the table finite.

``equity(variant)`` returns a ``MatchEquity`` for the variant (cached), whose
``chance(ours, theirs)`` is the probability that the side with ``ours`` points wins.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from whist_sim.search.policy import RolloutPolicy, default_policy

DISTRIBUTION_DEALS = 2000
"""Heuristic deals measured for the points distribution (standard error of each
share under 1.2 percentage points)."""
DISTRIBUTION_SEED = 7_000_000
"""First seed of those deals: a block apart from the seeds benchmarks and tests use."""
TOLERANCE = 1e-12
"""Value iteration stops when no chance moved by more than this in a sweep."""


class MatchEquity:
    """Win chances of a game to ``target`` under a per-deal points distribution."""

    def __init__(self, target: int, points: dict[int, float]) -> None:
        if target < 1:
            raise ValueError(f"target must be at least 1, not {target}")
        if not points or abs(sum(points.values()) - 1) > 1e-9 or 0 in points:
            raise ValueError("points must be a distribution over non-zero scores")
        self.target = target
        self.floor = -target
        self.points = dict(points)
        self._table = self._solve()

    def chance(self, ours: int, theirs: int) -> float:
        """Chance that the side with ``ours`` points wins against ``theirs``."""
        return self._look(self._table, ours, theirs)

    def _solve(self) -> dict[tuple[int, int], float]:
        """Gauss-Seidel value iteration, highest scores first.

        Under the default scoring every deal adds points, so one sweep in that order is
        already exact; negative points (``pagat``) take a few more sweeps.
        """
        scores = range(self.target - 1, self.floor - 1, -1)
        states = sorted(((a, b) for a in scores for b in scores), key=lambda s: -(s[0] + s[1]))
        table = dict.fromkeys(states, 0.5)
        half = [(p, share / 2) for p, share in self.points.items()]
        for _ in range(10_000):
            moved = 0.0
            for a, b in states:
                value = 0.0
                for p, share in half:
                    value += share * (self._look(table, a + p, b) + self._look(table, a, b + p))
                moved = max(moved, abs(value - table[a, b]))
                table[a, b] = value
            if moved < TOLERANCE:
                return table
        raise RuntimeError("match equity did not converge")  # pragma: no cover

    def _look(self, table: dict[tuple[int, int], float], a: int, b: int) -> float:
        """``table``'s chance at ``a``-``b``: 1 or 0 once a side reached the target,
        scores under the floor read at the floor."""
        if a >= self.target:
            return 1.0
        if b >= self.target:
            return 0.0
        return table[max(a, self.floor), max(b, self.floor)]


def points_distribution(game: Any, deals: int = DISTRIBUTION_DEALS,
                        first_seed: int = DISTRIBUTION_SEED,
                        player: RolloutPolicy | None = None) -> dict[int, float]:
    """Share of deals in which the side whose score changed scored each number of
    points (negative: lost), with ``player`` in every seat: by default the
    ``heuristic`` (``default_policy``)."""
    from whist_sim.play import play_deal

    if player is None:
        player = default_policy(game.name)
    counts: Counter[int] = Counter()
    for seed in range(first_seed, first_seed + deals):
        outcome = play_deal(game, [player] * game.players, seed, seed % game.players,
                            on_error="abort").outcome
        scored = next((int(s) for s in outcome.score if s), 0)
        if scored:
            counts[scored] += 1
    total = sum(counts.values())
    return {p: n / total for p, n in sorted(counts.items())}


@lru_cache(maxsize=16)
def equity(variant: Any) -> MatchEquity:
    """The ``MatchEquity`` of a Minnesota Whist variant (measured once per process)."""
    from whist_sim.games.minnesota_whist import MinnesotaWhist

    game = MinnesotaWhist(variant, None)
    return MatchEquity(variant.target, points_distribution(game))
