"""Who plays whom, on which deals, in which seats: the tournament plan as pure data.

- Line-ups (``pairings``): for a game of n seats, every combination of n entrants
  from the pool (a round robin for two-player games); with a pool smaller than
  the table, entrants repeat in turn (A B A B).
- Deal seeds are common to all line-ups: deal ``d`` of every line-up uses
  ``derive_seed(root, "deal", d)``, so strategies are compared on the same cards.
- At a table of three or more, each deal seats its line-up in one circular order
  (``arranged``), deal by deal through every order of its entrants, each followed by
  its mirror (``arrangements``): the config's order alone had put the same entrant on
  the same neighbour's left in every game, and at three seats that was worth more than
  the gap between two strategies (a probe reversed a ranking by listing them the other
  way round).
- Every deal is played under each cyclic rotation of the seats (duplicate play:
  for two players the same cards with seats swapped), so the luck of the cards
  cancels within a duplicate set.
- Work is cut into tasks of consecutive (deal, line-up) items with all their
  rotations; a row depends only on (line-up, deal, rotation), so results are
  identical for any task size, worker count or order.
- Nothing here is a list over the plan: a task's items, the seated games of a
  set of tasks (``SeatedGames``) and the tasks still to play (``TaskQueue``) are
  computed from the plan's numbers as they are needed, so a plan of a billion
  deals costs the driver no more memory than one of a thousand.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

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


def arrangements(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The circular orders a line-up is seated in, one a deal, in the order dealt.

    The line-up's own order first, then its mirror (the first entrant in place, the
    others the other way round: who was on one's left is now on one's right), then the
    next order and its mirror, and so on. Entrants all different: every circular order,
    (n - 1)! of them, so over a whole cycle each entrant sits on each other's left
    equally often, and any two deals balance left against right. Entrants repeated (a
    pool smaller than the table): the line-up and its mirror. Orders that are rotations
    of one already listed are left out, as every rotation is played anyway: a duel's
    ``A B A B A`` keeps its one order. Two seats have one.

    Kept in a fixed order, not drawn from the seed: which order a deal gets depends on
    its index alone (``arranged``), so rows stay the same whatever the task size, the
    workers or a resume.
    """
    if len(lineup) < 3:
        return [lineup]
    if len(set(lineup)) == len(lineup):
        return [tuple(lineup[i] for i in order) for order in _distinct_orders(len(lineup))]
    return _repeated_orders(lineup)


@functools.cache
def _distinct_orders(seats: int) -> tuple[tuple[int, ...], ...]:
    """The orders of ``arrangements`` for ``seats`` different entrants, as positions in the
    line-up: the same for every such line-up, so made once per table size (made per
    line-up, a pool of thousands of seven-seat line-ups had made them per deal)."""
    positions = tuple(range(seats))
    first, rest = positions[0], positions[1:]
    every = ((first, *order) for order in _mirrored(_shuffled(itertools.permutations(rest),
                                                               seats)))
    first_orders = _walecki(seats) if seats % 2 else _double_cover(seats)
    return tuple(_circularly_distinct(itertools.chain(first_orders, every)))


def _walecki(seats: int) -> list[tuple[int, ...]]:
    """At an odd table of five seats or more, the orders to deal first: Walecki's
    decomposition of the complete graph on the seats into (seats - 1) / 2 Hamiltonian
    cycles, each followed by its mirror, relabelled so that the first is the line-up's
    own order. Every two positions are neighbours in exactly one cycle, so over these
    seats - 1 deals each entrant has each other on its left once: the whole cycle of
    orders, 24 deals at five seats and 720 at seven, had left shorter runs uneven (a
    probe: 10 deals at five seats, one neighbour 4 times and the others 2). An even table
    has no such decomposition (each seat has an odd number of others): ``_double_cover``."""
    if seats < 5 or seats % 2 == 0:
        return []
    half, hub = (seats - 1) // 2, seats - 1  # the ring 0 .. seats - 2 and its centre
    cycles = []
    for start in range(half):
        ring = [start]
        for step in range(1, half + 1):
            ring.append((start + step) % hub)
            if len(ring) < hub:
                ring.append((start - step) % hub)
        cycles.append((hub, *ring))
    relabel = {vertex: position for position, vertex in enumerate(cycles[0])}
    orders = []
    for cycle in cycles:
        order = tuple(relabel[vertex] for vertex in cycle)
        at = order.index(0)
        order = order[at:] + order[:at]  # the first position first, as every order
        orders += [order, (order[0], *reversed(order[1:]))]
    return orders


def _double_cover(seats: int) -> list[tuple[int, ...]]:
    """At an even table of six seats or more, the orders to deal first: seats - 1
    Hamiltonian cycles on the seats in which every two positions are neighbours exactly
    twice, each followed by its mirror, the line-up's own order first. Over these
    2 (seats - 1) deals each entrant has each other on its left twice: six seats had
    waited a whole cycle, 120 deals. A complete graph on an even number of seats has no
    decomposition into Hamiltonian cycles, but twice it has (a multigraph ``l K_n``
    has one when ``l (n - 1)`` is even); the cycles are found by a search in a fixed
    order, a few milliseconds at six seats (tables seat at most seven)."""
    if seats < 6 or seats % 2:
        return []
    identity = tuple(range(seats))
    cycles = [order for order in ((0, *rest) for rest in itertools.permutations(range(1, seats)))
              if order[1] < order[-1] and order != identity]  # each other undirected cycle once

    def edges(order: tuple[int, ...]) -> list[tuple[int, int]]:
        return [tuple(sorted((order[i], order[(i + 1) % seats]))) for i in range(seats)]

    used = Counter(edges(identity))
    chosen = [identity]

    def extend(start: int) -> bool:
        if len(chosen) == seats - 1:
            return True
        for index in range(start, len(cycles)):
            cycle = edges(cycles[index])
            if all(used[edge] < 2 for edge in cycle):
                used.update(cycle)
                chosen.append(cycles[index])
                if extend(index + 1):
                    return True
                chosen.pop()
                used.subtract(cycle)
        return False

    if not extend(0):  # pragma: no cover - such cycles exist for every even table size
        return []
    return [order for cycle in chosen for order in (cycle, (cycle[0], *reversed(cycle[1:])))]


@functools.lru_cache(maxsize=4096)
def _repeated_orders(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """``arrangements`` of a line-up that repeats entrants: it and its mirror, unless the
    mirror is one of its rotations."""
    return _circularly_distinct([lineup, (lineup[0], *reversed(lineup[1:]))])


def _circularly_distinct(orders: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """``orders`` without any that is a rotation of one before it."""
    found: list[tuple[Any, ...]] = []
    seen: set[tuple[Any, ...]] = set()
    for order in orders:
        circular = min(rotate(order, r) for r in range(len(order)))
        if circular not in seen:
            seen.add(circular)
            found.append(order)
    return found


def _shuffled(orders: Iterable[tuple[int, ...]], seats: int) -> list[tuple[int, ...]]:
    """The orders with the first in place and the rest in a fixed shuffle (seeded by the
    table size alone): in the permutations' own order the first 120 of 720 orders at
    seven seats all put the same entrant beside the first, so a run of fewer deals than
    a cycle was as lopsided as one order."""
    orders = list(orders)
    rest = orders[1:]
    random.Random(seats).shuffle(rest)
    return orders[:1] + rest


def _mirrored(orders: Iterable[tuple[int, ...]]) -> Iterator[tuple[int, ...]]:
    """Each order, then its reverse, skipping an order met already as a reverse."""
    met: set[tuple[int, ...]] = set()
    for order in orders:
        if order not in met:
            mirror = tuple(reversed(order))
            met.update((order, mirror))
            yield order
            yield mirror


SEATING_ORDERS = 2
"""How a deal's seating order is chosen, as run.json records it (``seating_orders``).

2 (runs started by this version on): each deal in turn through the line-up's
``arrangements``. 1: every deal in the line-up's own order, the config's; runs started
before 2 resume with it, so their rows stay what they were and one run never mixes
the two."""


def seating_scheme(partnerships: bool) -> int:
    """The ``seating_orders`` a new run records: ``SEATING_ORDERS``, or 1 for a game of
    partnerships, whose line-up (``P1 Q1 P2 Q2``, partners opposite) and its swap of
    pairs of seats are its seatings: another circular order would part partners."""
    return 1 if partnerships else SEATING_ORDERS


def arranged(lineup: tuple[str, ...], deal: int, scheme: int = SEATING_ORDERS
             ) -> tuple[str, ...]:
    """The order deal index ``deal`` seats ``lineup`` in: its ``arrangements`` in turn
    (``scheme`` 1, a run started before ``SEATING_ORDERS`` 2: the line-up as it is)."""
    if scheme < 2 or len(lineup) < 3:
        return lineup
    if len(set(lineup)) == len(lineup):
        orders = _distinct_orders(len(lineup))
        return tuple(lineup[i] for i in orders[deal % len(orders)])
    repeated = _repeated_orders(lineup)
    return repeated[deal % len(repeated)]


def arrangement_period(lineups: Iterable[tuple[str, ...]]) -> int:
    """Deal indices after which every line-up's orders repeat: ``arranged(l, d)`` depends
    on ``d`` modulo this for every ``l`` given."""
    return math.lcm(1, *{_order_count(lineup) for lineup in lineups})


def neighbour_period(lineups: Iterable[tuple[str, ...]]) -> int:
    """Deal indices after which, in every line-up, each entrant has had each other on its
    left equally often: at a table of five or more different entrants, seats - 1 when
    odd (``_walecki``), 2 (seats - 1) when even (``_double_cover``); otherwise a whole
    cycle of orders."""
    def of(lineup: tuple[str, ...]) -> int:
        seats = len(lineup)
        if seats >= 5 and len(set(lineup)) == seats:
            return seats - 1 if seats % 2 else 2 * (seats - 1)  # _walecki, _double_cover
        return _order_count(lineup)

    return math.lcm(1, *{of(lineup) for lineup in lineups})


def _order_count(lineup: tuple[str, ...]) -> int:
    """``len(arrangements(lineup))``, without making the orders of each line-up."""
    if len(lineup) < 3:
        return 1
    if len(set(lineup)) == len(lineup):
        return len(_distinct_orders(len(lineup)))
    return len(_repeated_orders(lineup))


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
        return SeatedGames(self, lineups)[task]

    def task_item_count(self, task: int) -> int:
        """How many items task ``task`` holds: ``deals_per_task``, the last one fewer."""
        return max(0, min(self.deals_per_task, self.items - task * self.deals_per_task))

    def task_items(self, task: int) -> list[tuple[int, int]]:
        """(pairing, deal) items of ``task``, deal-major so early tasks cover every line-up."""
        start = task * self.deals_per_task
        stop = min(start + self.deals_per_task, self.items)
        return [(i % self.pairings, i // self.pairings) for i in range(start, stop)]


class SeatedGames:
    """Seated games (item x seating) of a plan's tasks, by arithmetic, not by a table.

    Items run deal-major (``Plan.task_items``), so the items before item ``i`` are
    ``i // pairings`` whole rounds of every line-up plus the first ``i % pairings``
    line-ups: a prefix sum over the line-ups' seating counts gives the games of any
    run of items, and of any task, in constant time.
    """

    def __init__(self, plan: Plan, lineups: list[tuple[str, ...]]) -> None:
        self.plan = plan
        counts = [len(seatings(lineup, plan.rotations)) for lineup in lineups[:plan.pairings]]
        self._before = list(itertools.accumulate(counts, initial=0))
        """Seated games of line-ups 0..p-1 of one deal, for each p."""

    def _games_before(self, item: int) -> int:
        rounds, extra = divmod(item, self.plan.pairings)
        return rounds * self._before[-1] + self._before[extra]

    def __getitem__(self, task: int) -> int:
        start = task * self.plan.deals_per_task
        stop = min(start + self.plan.deals_per_task, self.plan.items)
        return self._games_before(stop) - self._games_before(start) if start < stop else 0

    def total(self) -> int:
        """Every seated game of the plan."""
        return self._games_before(self.plan.items)

    def of_tasks(self, tasks: Iterable[int]) -> int:
        """The seated games of ``tasks`` (those of the plan; others count nothing)."""
        return sum(self[t] for t in tasks if 0 <= t < self.plan.tasks)


class TaskQueue:
    """The tasks still to play, in plan order, made one at a time as they are taken.

    A list of every pending task was the driver's largest object: 10**8 ints for a
    plan of 10**9 deals. ``done`` is asked about each task as the queue reaches it.
    """

    def __init__(self, tasks: int, done: Container[int] = (), start: int = 0) -> None:
        self._pending: Iterator[int] = (t for t in range(start, tasks) if t not in done)
        self._next: int | None = next(self._pending, None)

    def __bool__(self) -> bool:
        return self._next is not None

    def first(self) -> int | None:
        """The task ``take`` would return, without taking it (None when empty)."""
        return self._next

    def take(self) -> int:
        """The next task to play; IndexError if none is left."""
        if self._next is None:
            raise IndexError("no task left to play")
        task, self._next = self._next, next(self._pending, None)
        return task

    def clear(self) -> None:
        """Drop every task not taken yet (a sequential test has decided)."""
        self._pending, self._next = iter(()), None
