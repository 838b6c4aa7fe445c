"""The double-dummy solver agrees with a plain minimax on thousands of small endings.

The reference below tries every legal card at every turn, with no pruning, no card
equivalence and no bounds; it only remembers positions it has already valued (the
same full minimax, just not repeated), so thousands of endings run in seconds.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from whist_sim.cards import SUIT_MASKS, parse_cards
from whist_sim.solver import (
    SolverInputError,
    best_move,
    solve,
    solve_fast,
    takes_at_least,
    takes_at_least_fast,
)

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores


def minimax(hands, leader, trump, sides, objective, trick=()):
    """Side 0's tricks with best play: every legal card tried, the plain definition."""
    players = len(hands)
    max_side = 0 if objective == "most" else 1
    memo = {}

    def winner(cards, first):
        best = 0
        for i in range(1, len(cards)):
            card, top = cards[i], cards[best]
            if (card // 13 == top // 13 and card > top) or (
                card // 13 == trump and top // 13 != trump
            ):
                best = i
        return (first + best) % players

    def value(hands, first, cards):
        key = (hands, first, cards)
        if key in memo:
            return memo[key]
        if len(cards) == players:
            win = winner(cards, first)
            result = (sides[win] == 0) + value(hands, win, ())
        elif not any(hands):
            result = 0
        else:
            seat = (first + len(cards)) % players
            hand = hands[seat]
            legal = hand & SUIT_MASKS[cards[0] // 13] if cards else hand
            legal = legal or hand
            results = []
            for card in range(52):
                if legal >> card & 1:
                    rest = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
                    results.append(value(rest, first, (*cards, card)))
            result = max(results) if sides[seat] == max_side else min(results)
        memo[key] = result
        return result

    return value(tuple(hands), leader, tuple(trick))


def random_position(rng, players, size, played=0):
    """Random hands of ``size`` cards, ``played`` of which already went to a trick."""
    deck = rng.sample(range(52), players * size)
    hands = [sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(players)]
    leader = rng.randrange(players)
    trick = []
    for i in range(played):
        seat = (leader + i) % players
        hand = hands[seat]
        legal = hand & SUIT_MASKS[trick[0] // 13] if trick else hand
        choices = [c for c in range(52) if (legal or hand) >> c & 1]
        card = rng.choice(choices)
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, leader, trick


SETTINGS = [
    # (name, sides, largest hand size, number of endings)
    ("two players", [0, 1], 5, 1000),
    ("two against two, opposite", [0, 1, 0, 1], 3, 500),
    ("one against three", [0, 1, 1, 1], 3, 500),
    ("partners adjacent", [0, 0, 1, 1], 3, 400),
    ("three players, one against two", [0, 1, 1], 4, 300),
]


@pytest.mark.parametrize("objective", ["most", "none"])
@pytest.mark.parametrize(("name", "sides", "largest", "count"), SETTINGS,
                         ids=[s[0] for s in SETTINGS])
def test_solve_agrees_with_plain_minimax(name, sides, largest, count, objective):
    rng = random.Random(f"{name}/{objective}")
    players = len(sides)
    for _ in range(count):
        size = rng.randint(1, largest)
        played = rng.randrange(players) if rng.random() < 0.4 else 0
        trump = rng.randrange(-1, 4)
        hands, leader, trick = random_position(rng, players, size, played)
        expected = minimax(hands, leader, trump, sides, objective, trick)
        got = solve(hands, leader, trump, sides, objective, trick)
        assert got == expected, (hands, leader, trump, sides, objective, trick)


def test_compiled_search_agrees_with_minimax_and_the_reference():
    """The numba copy of the search against the plain minimax on small endings of every
    kind, and against the pure-Python search on full German Whist positions."""
    rng = random.Random("compiled")
    for name, sides, largest, _ in SETTINGS:
        for objective in ("most", "none"):
            players = len(sides)
            for _ in range(100):
                size = rng.randint(1, largest)
                played = rng.randrange(players) if rng.random() < 0.4 else 0
                trump = rng.randrange(-1, 4)
                hands, leader, trick = random_position(rng, players, size, played)
                expected = minimax(hands, leader, trump, sides, objective, trick)
                got = solve_fast(hands, leader, trump, sides, objective, trick)
                assert got == expected, (name, hands, leader, trump, objective, trick)
    for _ in range(20):
        hands, leader, _ = random_position(rng, 2, 13)
        trump = rng.randrange(-1, 4)
        objective = rng.choice(["most", "none"])
        assert solve_fast(hands, leader, trump, [0, 1], objective) == solve(
            hands, leader, trump, [0, 1], objective
        )


@pytest.mark.parametrize("sides", [[0, 1], [0, 1, 0, 1], [1, 0, 0, 1]])
def test_any_first_guess_gives_the_exact_value(sides, monkeypatch):
    """The guess only decides where the zero-window tests start: a wrong one, however
    far off, costs time, never the value."""
    from whist_sim.solver.search import Search

    rng = random.Random(f"guess/{sides}")
    players = len(sides)
    for _ in range(15):
        size = 7 if players == 2 else 3
        hands, leader, trick = random_position(rng, players, size, rng.randrange(players))
        trump = rng.randrange(-1, 4)
        expected = minimax(hands, leader, trump, sides, "most", trick)
        for guess in range(-1, size + 2):
            monkeypatch.setattr(Search, "first_guess", lambda self, state, g=guess: g)
            assert solve(hands, leader, trump, sides, "most", trick) == expected, guess


LARGER = [
    # (sides, largest hand size): too big for the plain minimax, fine for both searches
    ([0, 1], 13),
    ([1, 0], 9),
    ([0, 1, 1], 7),
    ([1, 0, 1], 6),
    ([0, 1, 0, 1], 6),
    ([0, 0, 1, 1], 5),
    ([1, 1, 0, 1], 5),
]


@pytest.mark.parametrize("objective", ["most", "none"])
@pytest.mark.parametrize(("sides", "largest"), LARGER, ids=[str(s) for s, _ in LARGER])
def test_compiled_and_pure_searches_agree_on_larger_positions(sides, largest, objective):
    """Every table size, sides split and objective, trick starts and mid-trick."""
    rng = random.Random(f"larger/{sides}/{objective}")
    players = len(sides)
    for _ in range(40):
        size = rng.randint(max(1, largest - 4), largest)
        played = rng.randrange(players) if rng.random() < 0.4 else 0
        trump = rng.randrange(-1, 4)
        hands, leader, trick = random_position(rng, players, size, played)
        assert solve_fast(hands, leader, trump, sides, objective, trick) == solve(
            hands, leader, trump, sides, objective, trick
        ), (hands, leader, trump, sides, objective, trick)


@pytest.mark.parametrize("objective", ["most", "none"])
@pytest.mark.parametrize(("sides", "largest"), LARGER[:5], ids=[str(s) for s, _ in LARGER[:5]])
def test_takes_at_least_is_the_count_reaching_the_target(sides, largest, objective):
    """One zero-window test, pure and compiled, says whether ``solve``'s count reaches
    each target from below zero to above the tricks left (trick starts and mid-trick)."""
    rng = random.Random(f"at least/{sides}/{objective}")
    players = len(sides)
    for _ in range(12):
        size = rng.randint(max(1, largest - 4), min(largest, 9))
        played = rng.randrange(players) if rng.random() < 0.4 else 0
        trump = rng.randrange(-1, 4)
        hands, leader, trick = random_position(rng, players, size, played)
        count = solve(hands, leader, trump, sides, objective, trick)
        for target in range(-1, size + 2):
            position = (hands, leader, trump, sides, objective, trick, target)
            assert takes_at_least(*position) == (count >= target), position
            assert takes_at_least_fast(*position) == (count >= target), position


def test_takes_at_least_on_german_whist_stage2_starts():
    rng = random.Random("at least/german")
    for _ in range(30):
        hands, leader, _ = random_position(rng, 2, 13)
        trump = rng.randrange(-1, 4)
        count = solve_fast(hands, leader, trump, [0, 1], "most")
        for target in (count, count + 1, 7):
            assert takes_at_least_fast(hands, leader, trump, [0, 1], "most", (), target) == (
                count >= target)


def test_takes_at_least_checks_its_position():
    with pytest.raises(SolverInputError):
        takes_at_least([0b11, 0b11], 0, 0, [0, 1], "most", (), 1)
    with pytest.raises(SolverInputError):
        takes_at_least_fast([0b11, 0b11], 0, 0, [0, 1], "most", (), 1)


@pytest.mark.parametrize("target", ["1", 1.5, None, True])
def test_takes_at_least_refuses_a_target_that_is_not_a_whole_number(target):
    """A text target failed inside the search: "'<=' not supported between instances of
    'str' and 'int'"."""
    hands = [parse_cards("AS 2H"), parse_cards("KS AH")]
    message = f"target = {target!r} is not allowed; allowed: a whole number of tricks"
    for check in (takes_at_least, takes_at_least_fast):
        with pytest.raises(SolverInputError, match=re.escape(message)):
            check(hands, 0, 0, [0, 1], "most", (), target)


@pytest.mark.parametrize(("players", "size", "sidings"), [
    (2, 9, ([0, 1], [1, 0])),
    (4, 5, ([0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 1, 1])),
])
def test_compiled_table_keeps_settings_apart(players, size, sidings):
    """The table outlives a solve: one deal solved under every setting in turn (trump,
    sides, objective), without clearing, gives each setting its own value, not a
    stale one."""
    rng = random.Random(f"settings/{players}")
    for _ in range(10):
        hands, leader, _ = random_position(rng, players, size)
        for trump in (-1, 0, 3):
            for sides in sidings:
                for objective in ("most", "none"):
                    assert solve_fast(hands, leader, trump, sides, objective) == solve(
                        hands, leader, trump, sides, objective
                    )


def test_a_cleared_table_gives_the_same_value_with_more_work():
    """What an earlier solve stored is reused (fewer positions searched), never needed."""
    from whist_sim.solver import fast

    rng = random.Random("cleared")
    hands, leader, _ = random_position(rng, 2, 13)
    fast.clear_table()
    cold = solve_fast(hands, leader, 2, [0, 1])
    cold_nodes = fast._Table.nodes
    warm = solve_fast(hands, leader, 2, [0, 1])
    assert warm == cold == solve(hands, leader, 2, [0, 1])
    assert fast._Table.nodes < cold_nodes


def test_compiled_quick_tricks_bound_the_value():
    """The compiled bounds (quick tricks counted against ruffers too) hold the exact value."""
    from whist_sim.solver import fast

    rng = random.Random("bounds")
    for sides in ([0, 1], [1, 0], [0, 1, 1], [0, 1, 0, 1], [1, 0, 0, 1]):
        players = len(sides)
        side_array = np.zeros(4, dtype=np.int64)
        side_array[:players] = sides
        for objective in ("most", "none"):
            for _ in range(60):
                size = rng.randint(1, 8 if players == 2 else 4)
                hands, leader, _ = random_position(rng, players, size)
                trump = rng.randrange(-1, 4)
                hand_array = np.zeros(4, dtype=np.int64)
                hand_array[:players] = hands
                lo, hi = fast._bounds(hand_array, players, leader, size, trump, side_array,
                                      objective == "most")
                value = solve(hands, leader, trump, sides, objective)
                assert lo <= value <= hi, (hands, leader, trump, sides, objective, lo, hi)


def test_compiled_functions_are_cached_on_disk_or_compiled_without_a_cache(monkeypatch):
    """Each process loads the search from numba's disk cache; where numba finds no
    writable cache folder (a read-only install) it refuses ``cache=True`` and the
    search is compiled in the process instead."""
    import numba.core.caching
    from numba.core.caching import NullCache

    from whist_sim.solver import fast

    solve_fast([1, 2], 0, -1, [0, 1])
    assert not isinstance(fast._value._cache, NullCache)

    def no_folder(self, py_func):
        raise RuntimeError("cannot cache function: no locator available")

    monkeypatch.setattr(numba.core.caching.FunctionCache, "__init__", no_folder)

    def double(x):
        return 2 * x

    compiled = fast._jit()(double)
    assert isinstance(compiled._cache, NullCache)
    assert compiled(21) == 42


def test_hot_loops_compile_without_numba_runtime_and_work_in_place():
    """The solver's search loop and the German roll-out loop keep no reference counts
    (``cached_njit(allocates=False)``, see whist_sim/jit.py), and such a function still
    fills the arrays it is given."""
    import numpy as np

    from whist_sim.jit import cached_njit
    from whist_sim.search import german_rollout
    from whist_sim.solver import fast

    assert fast._test.targetoptions["_nrt"] is False
    assert german_rollout._play_stage1.targetoptions["_nrt"] is False

    def fill(out):
        for i in range(out.shape[0]):
            out[i] = i * i

    compiled = cached_njit(allocates=False)(fill)
    out = np.zeros(4, dtype=np.int64)
    compiled(out)
    assert out.tolist() == [0, 1, 4, 9]
    assert compiled.targetoptions["_nrt"] is False


@pytest.mark.parametrize("objective", ["most", "none"])
@pytest.mark.parametrize("sides", [[0, 1], [1, 0], [0, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 0]])
def test_best_move_keeps_the_value(sides, objective):
    """The card best_move names, once played, leaves the position worth its value."""
    rng = random.Random(f"best/{sides}/{objective}")
    players = len(sides)
    for _ in range(150):
        size = rng.randint(1, 5 if players == 2 else 3)
        played = rng.randrange(players) if rng.random() < 0.4 else 0
        trump = rng.randrange(-1, 4)
        hands, leader, trick = random_position(rng, players, size, played)
        card, value = best_move(hands, leader, trump, sides, objective, trick)
        assert value == minimax(hands, leader, trump, sides, objective, trick)
        seat = (leader + len(trick)) % players
        assert hands[seat] >> card & 1
        if trick and hands[seat] & SUIT_MASKS[trick[0] // 13]:
            assert card // 13 == trick[0] // 13, "best_move must follow suit"
        after = list(hands)
        after[seat] &= ~(1 << card)
        assert minimax(after, leader, trump, sides, objective, (*trick, card)) == value


def test_german_whist_stage2_ending_by_hand():
    """Trumps spades. A holds AS 2H, B holds KS AH, A leads: A cashes AS and loses 2H."""
    hands = [parse_cards("AS 2H"), parse_cards("KS AH")]
    assert solve(hands, 0, 0, [0, 1]) == 1
    assert best_move(hands, 0, 0, [0, 1]) == (parse_cards("AS").bit_length() - 1, 1)


def test_partly_played_trick():
    """Seat 0 led 2H; seat 1 wins it with AH, then leads KS into AS: one trick each."""
    hands = [parse_cards("AS"), parse_cards("KS AH")]
    assert solve(hands, 0, -1, [0, 1], trick=[parse_cards("2H").bit_length() - 1]) == 1


def test_none_objective_ducks():
    """No trumps, side 0 wants no trick: holding 2S against AS it takes none."""
    hands = [parse_cards("2S 3H"), parse_cards("AS AH")]
    assert solve(hands, 0, -1, [0, 1], "none") == 0
    assert solve(hands, 0, -1, [0, 1], "most") == 0
    assert solve([parse_cards("AS AH"), parse_cards("2S 3H")], 0, -1, [0, 1], "none") == 2


def test_full_german_whist_position_is_solved_quickly():
    rng = random.Random(13)
    deck = rng.sample(range(52), 26)
    hands = [sum(1 << c for c in deck[:13]), sum(1 << c for c in deck[13:])]
    value = solve(hands, 0, 2, [0, 1])
    assert 0 <= value <= 13
    card, best = best_move(hands, 0, 2, [0, 1])
    assert best == value and hands[0] >> card & 1


# -- input validation ---------------------------------------------------------------
GOOD = {
    "hands": [parse_cards("AS 2H"), parse_cards("KS AH")],
    "leader": 0,
    "trump": 0,
    "sides": [0, 1],
    "objective": "most",
    "trick": (),
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [parse_cards("AS")]}, "hands has 1 hands"),
        ({"hands": [1, 2, 4, 8, 16]}, "hands has 5 hands"),
        ({"hands": [parse_cards("AS 2H"), parse_cards("AS AH")]}, "hands overlap"),
        ({"hands": [parse_cards("AS 2H"), parse_cards("AH")]}, "hands[1] holds 1 cards"),
        ({"hands": [parse_cards("AS 2H"), -1]}, "hands[1] = -1"),
        ({"hands": [parse_cards("AS 2H"), 1 << 52]}, "is not a card mask"),
        ({"leader": 2}, "leader = 2"),
        ({"leader": -1}, "leader = -1"),
        ({"trump": 4}, "trump = 4"),
        ({"trump": -2}, "trump = -2"),
        ({"trump": True}, "trump = True"),
        ({"sides": [0, 2]}, "sides = [0, 2]"),
        ({"sides": [0, 1, 0]}, "sides = [0, 1, 0]"),
        ({"objective": "least"}, "objective = 'least'"),
        ({"trick": [1, 2]}, "trick has 2 cards"),
        ({"trick": [parse_cards("AS").bit_length() - 1]}, "also in a hand"),
        ({"trick": [60]}, "card numbers 0..51"),
        ({"trick": [parse_cards("3S").bit_length() - 1]}, "hands[0] holds 2 cards"),
    ],
)
def test_bad_input_names_the_parameter(change, message):
    args = {**GOOD, **change}
    for function in (solve, best_move, solve_fast):
        with pytest.raises(SolverInputError, match=message.replace("[", r"\[")):
            function(**args)


def test_revoke_on_the_trick_is_refused():
    """Seat 1 played 2H to a spade lead while it still holds KS."""
    hands = [parse_cards("AS"), parse_cards("KS")]
    trick = [parse_cards("2S").bit_length() - 1, parse_cards("2H").bit_length() - 1]
    with pytest.raises(SolverInputError, match="must follow spades"):
        solve([*hands, parse_cards("5D 6D")], 0, -1, [0, 1, 0], trick=trick)


def test_solver_input_error_is_a_value_error():
    assert issubclass(SolverInputError, ValueError)


def test_empty_hands_are_worth_nothing():
    assert solve([0, 0], 1, -1, [0, 1]) == 0
