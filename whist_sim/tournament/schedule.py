"""Who plays whom, on which deals, in which seats: the tournament plan as pure data.

- Line-ups (``pairings``): for a game of n seats, every combination of n entrants
  from the pool (a round robin for two-player games); with a pool smaller than
  the table, entrants repeat in turn (A B A B).
- Deal seeds are common to all line-ups: deal ``d`` of every line-up uses
  ``derive_seed(root, "deal", d)``, so strategies are compared on the same cards.
- Every deal is played under each cyclic rotation of the seats (duplicate play:
  for two players the same cards with seats swapped), so the luck of the cards
  cancels within a duplicate set.
- Work is cut into tasks of consecutive (deal, line-up) items with all their
  rotations; a row depends only on (line-up, deal, rotation), so results are
  identical for any task size, worker count or order.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from whist_sim.rng import derive_seed


def lineups(labels: list[str], seats: int) -> list[tuple[str, ...]]:
    """Line-ups of ``seats`` entrants from the pool, in a stable order.

    With at least as many entrants as seats: every combination. With fewer,
    entrants repeat in turn (two for four seats: A B A B; three: A B C A,
    B C A B, C A B C, so each entrant is doubled once), leaving out any line-up
    that is a rotation of an earlier one, since every rotation is played anyway.
    """
    if len(labels) >= seats:
        return list(itertools.combinations(labels, seats))
    found: list[tuple[str, ...]] = []
    for start in range(len(labels)):
        lineup = tuple(labels[(start + i) % len(labels)] for i in range(seats))
        if not any(rotate(lineup, r) in found for r in range(seats)):
            found.append(lineup)
    return found


def rotate(lineup: tuple[str, ...], rotation: int) -> tuple[str, ...]:
    """Entrant in each seat under ``rotation``: seat s gets ``lineup[(s - rotation) % n]``."""
    n = len(lineup)
    return tuple(lineup[(seat - rotation) % n] for seat in range(n))


def partnership_lineups(partnerships: list[tuple[str, str]]) -> list[tuple[str, ...]]:
    """Round robin between partnerships: P against Q sits P1 Q1 P2 Q2 (partners opposite)."""
    return [(p[0], q[0], p[1], q[1]) for p, q in itertools.combinations(partnerships, 2)]


def seatings(lineup: tuple[str, ...], rotations: tuple[int, ...] | None = None) -> list[int]:
    """Rotations that seat the line-up differently (A B A B has two: 0 and 1).

    ``rotations`` limits the candidates (Minnesota Whist plays each deal twice,
    the partnerships swapping pairs of seats: rotations 0 and 1). A rotation
    that repeats an earlier seating would replay the very same game, so it is
    skipped; every distinct seating is played once.
    """
    seen: list[tuple[str, ...]] = []
    kept = []
    for rotation in rotations if rotations is not None else range(len(lineup)):
        seated = rotate(lineup, rotation)
        if seated not in seen:
            seen.append(seated)
            kept.append(rotation)
    return kept


def match_seed(root_seed: int, deal: int) -> int:
    """Seed of deal index ``deal``: the same for every line-up and rotation."""
    return derive_seed(root_seed, "deal", deal)


@dataclass(frozen=True)
class Plan:
    """The whole tournament as numbers: what task ``t`` plays is a pure function of them."""

    pairings: int
    deals: int
    deals_per_task: int
    rotations: tuple[int, ...] | None = None
    """The game's duplicate rotations (None: every rotation)."""

    @property
    def items(self) -> int:
        """(deal, line-up) items; each is played under every rotation."""
        return self.pairings * self.deals

    @property
    def tasks(self) -> int:
        return -(-self.items // self.deals_per_task)

    def task_games(self, task: int, lineups: list[tuple[str, ...]]) -> int:
        """How many seated games (item x seating) the task plays: the progress unit."""
        return sum(len(seatings(lineups[p], self.rotations)) for p, _ in self.task_items(task))

    def task_items(self, task: int) -> list[tuple[int, int]]:
        """(pairing, deal) items of ``task``, deal-major so early tasks cover every line-up."""
        start = task * self.deals_per_task
        stop = min(start + self.deals_per_task, self.items)
        return [(i % self.pairings, i // self.pairings) for i in range(start, stop)]
