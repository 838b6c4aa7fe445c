"""A seat's generator is seeded at its first use and draws what ``random.Random`` draws.

``play_deal`` gives each seat of each deal a ``rng.LazyRandom``: most strategies never draw,
and seeding a Mersenne Twister costs more than a random decision. Whatever a strategy
does with it (draw, shuffle, read or set its state, copy or pickle it), it must see the
very stream ``random.Random(seat_seed(deal seed, seat))`` gives.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from strategies.random_play import RandomStrategy
from whist_sim.games import make_game
from whist_sim.play import play_deal, seat_seed
from whist_sim.rng import LazyRandom


def _same(seed: int) -> int:
    return seed


USES = {
    "random": lambda r: [r.random() for _ in range(5)],
    "getrandbits": lambda r: [r.getrandbits(k) for k in (1, 32, 63, 100)],
    "randrange": lambda r: [r.randrange(1000) for _ in range(5)],
    "choice": lambda r: [r.choice("abcdefg") for _ in range(5)],
    "shuffle": lambda r: (lambda cards: (r.shuffle(cards), cards)[1])(list(range(20))),
    "sample": lambda r: r.sample(range(100), 10),
    "gauss": lambda r: [r.gauss(0, 1) for _ in range(5)],
    "uniform": lambda r: r.uniform(2, 3),
    "getstate": lambda r: r.getstate(),
    "randbytes": lambda r: r.randbytes(9),
    "pickle": lambda r: [pickle.loads(pickle.dumps(r)).random() for _ in range(2)],
    "deepcopy": lambda r: copy.deepcopy(r).random(),
    "copy": lambda r: copy.copy(r).random(),
    "seed": lambda r: (r.seed(5), r.random())[1],
    "setstate": lambda r: (r.setstate(random.Random(9).getstate()), r.random())[1],
}


@pytest.mark.parametrize("use", list(USES))
@pytest.mark.parametrize("seed", [0, 1, 12345678901234567, (1 << 63) - 1])
def test_a_lazy_generator_draws_what_random_random_draws(use, seed):
    lazy = LazyRandom(_same, seed)
    assert isinstance(lazy, random.Random)
    assert USES[use](lazy) == USES[use](random.Random(seed))
    assert type(lazy) is random.Random  # seeded once used: later calls are the C generator's
    assert USES[use](lazy) == USES[use](_used(seed, use))


def _used(seed: int, use: str) -> random.Random:
    plain = random.Random(seed)
    USES[use](plain)
    return plain


def test_an_unused_generator_is_never_seeded():
    calls = []

    def seed_of(seed: int) -> int:
        calls.append(seed)
        return seed

    lazy = LazyRandom(seed_of, 7)
    assert calls == [] and type(lazy) is LazyRandom
    lazy.random()
    lazy.random()
    assert calls == [7]


class Recorder(RandomStrategy):
    """Random play that keeps every number it drew, by seat."""

    def __init__(self) -> None:
        self.drawn: dict[int, list[float]] = {}

    def choose(self, view, rng):
        self.drawn.setdefault(view.seat, []).append(rng.random())
        rng.random()  # a second draw, so the stream is read past the choice's own
        return super().choose(view, rng)


@pytest.mark.parametrize("game_name", ["german_whist", "solo_whist", "minnesota_whist"])
def test_play_deal_gives_each_seat_the_stream_of_its_seat_seed(game_name):
    game = make_game(game_name)
    for deal_seed in (3, 99):
        recorder = Recorder()
        play_deal(game, [recorder] * game.players, deal_seed)
        for seat, drawn in recorder.drawn.items():
            plain = random.Random(seat_seed(deal_seed, seat))
            expected = []
            for _ in drawn:
                expected.append(plain.random())
                plain.random()  # the second draw
                plain.random()  # RandomStrategy's own
            assert drawn == expected, (game_name, deal_seed, seat)


@pytest.mark.parametrize("deal_seed", [0, 7, -5, 2**63 - 1, 123_456_789_012_345])
def test_a_seats_unfinished_hash_gives_its_seat_seed(deal_seed):
    """``seat_seed_hash`` writes ``derive_seed``'s text directly, for speed: the two agree."""
    from whist_sim.rng import seat_seed_hash, seed_of_hash

    for seat in range(7):
        assert seed_of_hash(seat_seed_hash(deal_seed, seat)) == seat_seed(deal_seed, seat)
