"""``TrickMemo`` returns exactly the fold of every record from the start, whatever
sequence of tricks tuples it is given: growing by one, by several, shrinking, replaced
by another deal's, a list, and with seats (Knock-out Whist's ``trick_players``)."""

from __future__ import annotations

from random import Random

import pytest

from strategies.heuristic_memo import TrickMemo


def _step(summary: tuple, record: int) -> tuple:
    return (*summary, record)


def _step_seats(summary: tuple, record: int, seats: tuple[int, ...]) -> tuple:
    return (*summary, (record, seats))


def _calls(rng: Random) -> list[tuple]:
    """Tricks tuples as play, search and tests present them to one memo."""
    deals = [tuple(rng.randrange(100) for _ in range(13)) for _ in range(3)]
    calls = []
    for _ in range(300):
        deal = rng.choice(deals)
        n = rng.randrange(14)
        calls.append(deal[:n])
        for m in range(n, min(13, n + rng.randrange(4)) + 1):  # then grows by one
            calls.append(deal[:m])
    return calls


def test_memo_is_the_fold_from_the_start() -> None:
    memo = TrickMemo(_step, ())
    for tricks in _calls(Random(1)):
        assert memo(tricks) == tricks
        assert memo(list(tricks)) == tricks  # a list is folded afresh, not kept


def test_memo_with_seats_is_the_fold_from_the_start() -> None:
    memo = TrickMemo(_step_seats, ())
    rng = Random(2)
    for tricks in _calls(rng):
        seats = tuple((i % 3, (i + 1) % 3) for i in range(len(tricks)))
        if rng.random() < 0.2:  # the same tricks with other seats
            seats = tuple((i % 2,) for i in range(len(tricks)))
        assert memo(tricks, seats) == tuple(zip(tricks, seats, strict=True))


def test_memo_rejects_seats_that_do_not_match_the_tricks() -> None:
    memo = TrickMemo(_step_seats, ())
    memo((1, 2), ((0,), (1,)))
    with pytest.raises(ValueError):
        memo((1, 2, 3), ((0,), (1,), (2,), (3,)))
