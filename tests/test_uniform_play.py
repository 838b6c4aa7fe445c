"""Random play in compiled code: the same draws, actions and final state as the play loop.

``play.play_deal`` plays a German Whist deal whose seats all hold ``random`` (a ``choose``
marked ``strategy.chooses_uniformly``) in one compiled loop
(``games.german_whist_uniform``), each seat drawing from a compiled copy of its
``random.Random`` (``whist_sim.twister``). The play loop is the reference: every deal here
is played both ways and must leave the same state, attribute by attribute.
"""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies.random_play import RandomStrategy
from whist_sim import play
from whist_sim.games import make_game
from whist_sim.games.german_whist import GermanWhistDeal
from whist_sim.play import play_deal, play_match, seat_seed
from whist_sim.strategy import UNIFORM_CHOOSERS, build_strategy
from whist_sim.twister import new_twister, next_double, next_word

GERMAN_VARIANTS = [
    {},
    {"count": "all"},
    {"count": "weighted"},
    {"trumps": "none"},
    {"open_stock": 2},
    {"open_stock": 5},
    {"open_stock": 26},
    {"race_to": 7},
    {"race_to": 13, "count": "stage2"},
    {"race_to": 20, "count": "all"},
    {"race_to": 39, "count": "weighted"},
    {"open_stock": 5, "count": "weighted", "trumps": "none", "race_to": 20},
    {"open_stock": 3, "count": "all", "race_to": 10},
]


@pytest.fixture(autouse=True)
def compiled_play(monkeypatch):
    """Every deal of random seats here is played compiled from the first (a process
    otherwise waits for numba, or for ``COMPILED_AFTER_DEALS`` such deals)."""
    monkeypatch.setattr(play, "use_compiled_play", True)


class LoopRandom(RandomStrategy):
    """``random``'s choices through the play loop: its own ``choose`` carries no mark."""

    def choose(self, view, rng):
        return RandomStrategy.choose(self, view, rng)


def played_both_ways(game, seed, dealer, **options):
    compiled = play_deal(game, [RandomStrategy(), RandomStrategy()], seed, dealer, **options)
    looped = play_deal(game, [LoopRandom(), LoopRandom()], seed, dealer, **options)
    return compiled, looped


# -- the twister ----------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_the_compiled_twister_draws_what_random_Random_draws_from_the_same_seed(seed):
    python, compiled = random.Random(seed), new_twister(seed)
    assert [next_double(compiled) for _ in range(400)] == [python.random() for _ in range(400)]
    assert [next_word(compiled) for _ in range(700)] == [python.getrandbits(32)
                                                         for _ in range(700)]


def test_the_twister_refuses_a_seed_wider_than_its_key():
    with pytest.raises(ValueError, match="more than 64 bits"):
        new_twister(2**64)


# -- the deal -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", GERMAN_VARIANTS, ids=lambda v: repr(v) if v else "default")
def test_a_compiled_random_deal_leaves_the_state_the_play_loop_leaves(variant):
    game = make_game("german_whist", variant, 2)
    for seed in range(60):
        for dealer in (0, 1):
            compiled, looped = played_both_ways(game, 7_919 * seed + 3, dealer)
            assert vars(compiled.state) == vars(looped.state), (variant, seed, dealer)
            assert compiled.outcome == looped.outcome


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**63 - 1), st.sampled_from(GERMAN_VARIANTS), st.sampled_from([1, 2]))
def test_any_seed_and_seat_seeding_plays_the_same_deal_both_ways(seed, variant, seeding):
    game = make_game("german_whist", variant, 2)
    compiled, looped = played_both_ways(game, seed, seed % 2, seat_seeding=seeding)
    assert vars(compiled.state) == vars(looped.state)


def test_a_deal_given_as_a_record_is_played_compiled_from_its_cards():
    game = make_game("german_whist", {}, 2)
    record = game.new_deal(99, 1).deal_record()
    compiled = play_deal(game, [RandomStrategy()] * 2, 5, 1,
                         dealt=game.deal_from_record(record, 1, 5))
    looped = play_deal(game, [LoopRandom()] * 2, 5, 1, dealt=game.deal_from_record(record, 1, 5))
    assert vars(compiled.state) == vars(looped.state)


def test_random_seats_only_are_played_without_a_view_or_a_call_to_choose(monkeypatch):
    def no_view(self, seat):
        raise AssertionError("the compiled loop asked for a view")

    monkeypatch.setattr(GermanWhistDeal, "view", no_view)
    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [RandomStrategy(), RandomStrategy()], 11, timed=True)
    assert played.state.to_act == -1 and played.outcome.error is None
    assert played.seconds == []  # decisions played compiled are not timed


def test_a_seat_of_another_strategy_keeps_the_whole_deal_in_the_play_loop():
    game = make_game("german_whist", {}, 2)
    heuristic = build_strategy("heuristic", {}, game)
    played = play_deal(game, [RandomStrategy(), heuristic], 11, timed=True)
    assert len(played.seconds) == sum(entry[3] for entry in played.state.log)


def test_a_subclass_that_overrides_choose_is_played_by_its_own_choose():
    class Highest(RandomStrategy):
        def choose(self, view, rng):
            return view.legal.bit_length() - 1

    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [Highest(), Highest()], 4)
    chosen = [action for _, _, action, by_player in played.state.log if by_player]
    replay = game.new_deal(4, 0)
    for action in chosen:
        assert action == replay.legal.bit_length() - 1
        replay.apply(action)


def test_a_chess_clock_keeps_random_seats_in_the_play_loop():
    from whist_sim.budget import TimeControl

    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [RandomStrategy()] * 2, 8,
                       time_control=TimeControl(base=60.0, increment=0.0, per="deal"))
    assert played.seconds, "a clock charges each decision its time, so each is measured"
    looped = play_deal(game, [LoopRandom()] * 2, 8)
    assert vars(played.state) == vars(looped.state)


def test_a_match_of_random_seats_plays_every_hand_as_the_loop_would():
    game = make_game("german_whist", {"match": "best_of_5"}, 2)
    compiled, _ = play_match(game, [RandomStrategy(), RandomStrategy()], 17)
    looped, _ = play_match(game, [LoopRandom(), LoopRandom()], 17)
    assert [vars(p.state) for p in compiled] == [vars(p.state) for p in looped]


def test_only_random_is_marked_as_choosing_uniformly():
    assert {RandomStrategy.choose} == UNIFORM_CHOOSERS


def test_seat_seeds_are_what_the_play_loop_seeds_its_generators_with():
    """The compiled loop is handed ``seat_seed``; the loop's lazy generators derive the
    same seed at their first draw."""
    from whist_sim.play import seat_generators

    for seeding in (1, 2):
        generators = seat_generators(123, 2, seeding)
        for seat in (0, 1):
            assert generators[seat].random() == random.Random(seat_seed(123, seat, seeding)
                                                              ).random()


def test_a_run_leaves_seconds_null_exactly_for_hands_of_random_seats_only(tmp_path):
    """In a run of ``random``, ``heuristic`` and a second ``random`` entrant, the hands of
    the two random entrants are played compiled: their decisions have no seconds; every
    decision of a hand with the heuristic seated is timed."""
    import tomllib

    import polars as pl

    from tests.tournament_helpers import quick_config
    from whist_sim.store import RunFolder
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    config = validate_config(tomllib.loads(quick_config(deals=6, per_task=6)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    folder = RunFolder.open(summary.path)
    random_only = (folder.scan("deals").select(
        "deal_key", pl.col("strategies").list.eval(pl.element().str.starts_with("random"))
        .list.all().alias("random_only")))
    chosen = (folder.scan("actions").filter(pl.col("chosen"))
              .join(random_only, on="deal_key").collect())
    assert chosen.filter(pl.col("random_only")).height > 0
    assert chosen.filter(pl.col("random_only"))["seconds"].null_count() == chosen.filter(
        pl.col("random_only")).height
    assert chosen.filter(~pl.col("random_only"))["seconds"].null_count() == 0
    # run.json's decisions, behind the live time per decision, count the timed ones only
    seats = folder.scan("seats").select("deal_key", "seat", "strategy")
    timed = (chosen.filter(pl.col("seconds").is_not_null()).join(
        seats.collect(), on=["deal_key", "seat"]).group_by("strategy").len())
    recorded = folder.meta()["decisions"]
    assert {label: n for label, (n, _) in recorded.items()} == dict(timed.iter_rows())


def test_a_process_without_numba_plays_its_first_random_deals_through_the_loop(monkeypatch):
    """Loading numba costs a process 0.4 s or more: a few deals of random seats are played
    through the loop; past ``COMPILED_AFTER_DEALS`` of them, or once numba is loaded
    (the compiled heuristics load it), compiled."""
    numba = sys.modules["numba"]
    monkeypatch.setattr(play, "use_compiled_play", None)
    monkeypatch.setattr(play, "_uniform_deals", [0])
    monkeypatch.delitem(sys.modules, "numba")
    assert not any(play.compiled_play_ready() for _ in range(play.COMPILED_AFTER_DEALS))
    assert play.compiled_play_ready()
    monkeypatch.setattr(play, "_uniform_deals", [0])
    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [RandomStrategy()] * 2, 3, timed=True)
    assert played.seconds, "a deal played through the loop is timed"
    monkeypatch.setitem(sys.modules, "numba", numba)
    assert play_deal(game, [RandomStrategy()] * 2, 3, timed=True).seconds == []


def test_the_switch_turns_compiled_play_off(monkeypatch):
    monkeypatch.setattr(play, "use_compiled_play", False)
    game = make_game("german_whist", {}, 2)
    assert play_deal(game, [RandomStrategy()] * 2, 3, timed=True).seconds


def test_a_choose_whose_attributes_raise_fails_its_own_seat_not_the_run():
    class Hostile:
        games = frozenset({"german_whist"})

        class _Choose:
            def __getattr__(self, name):
                raise RuntimeError("no attributes here")

            def __call__(self, view, rng):
                raise RuntimeError("and no choice either")

        choose = _Choose()

    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [Hostile(), RandomStrategy()], 5)
    assert played.outcome.forfeit_seat == 0
    assert "no choice either" in played.outcome.error


def test_a_search_copy_rebuilt_mid_hand_is_played_through_the_loop():
    """A determinized copy has an empty log but is not as dealt: it was played from
    scratch, from a deck it does not have."""
    from whist_sim.sampling import sample_world
    from whist_sim.search.german_whist import MODEL

    game = make_game("german_whist", {}, 2)
    real, rng = game.new_deal(21, 0), random.Random(1)
    for _ in range(9):
        real.apply(RandomStrategy().choose(real.view(real.to_act), rng))
    view = real.view(real.to_act)

    def copy():
        return MODEL.determinize(view, sample_world(view, random.Random(5)), random.Random(5))

    compiled = play_deal(game, [RandomStrategy()] * 2, 7, dealt=copy())
    looped = play_deal(game, [LoopRandom()] * 2, 7, dealt=copy())
    assert compiled.outcome == looped.outcome
    assert vars(compiled.state) == vars(looped.state)


def test_a_deal_forfeited_before_its_first_action_stays_forfeited():
    game = make_game("german_whist", {}, 2)
    forfeited = game.new_deal(5, 0)
    forfeited.forfeit(0, "gave up")
    played = play_deal(game, [RandomStrategy()] * 2, 5, dealt=forfeited)
    assert played.outcome.result == ("forfeit", "win")


def test_a_wrapper_that_forwards_func_is_called_not_taken_for_random():
    class Traced:
        def __init__(self, inner):
            self.inner = inner

        def __call__(self, view, rng):
            raise RuntimeError("injected fault")

        def __getattr__(self, name):
            return getattr(self.inner, name)

    class Wrapped(RandomStrategy):
        def __init__(self):
            self.choose = Traced(super().choose)

    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [Wrapped(), RandomStrategy()], 3)
    assert played.outcome.forfeit_seat == 0 and "injected fault" in played.outcome.error


@pytest.mark.parametrize("raised", [SystemExit, GeneratorExit])
def test_no_attribute_of_a_strategys_chooser_is_read_outside_a_decision(raised):
    """Reading ``__func__`` of any object a strategy gave would run its code outside the
    play loop, where what it raises is not its seat's forfeit."""
    class Choose:
        def __getattr__(self, name):
            raise raised("read outside a decision")

        def __call__(self, view, rng):
            raise RuntimeError("its own failure")

    class Odd(RandomStrategy):
        def __init__(self):
            self.choose = Choose()

    game = make_game("german_whist", {}, 2)
    played = play_deal(game, [Odd(), RandomStrategy()], 3)
    assert played.outcome.forfeit_seat == 0 and "its own failure" in played.outcome.error


def test_without_numba_random_deals_are_played_through_the_loop(monkeypatch):
    from whist_sim.games import german_whist

    monkeypatch.setattr(german_whist, "_play_uniformly", None)
    monkeypatch.setitem(sys.modules, "whist_sim.games.german_whist_uniform", None)
    game = make_game("german_whist", {}, 2)
    for seed in range(3):
        played = play_deal(game, [RandomStrategy()] * 2, seed, timed=True)
        assert played.seconds, "played through the loop, its decisions timed"
        assert vars(played.state) == vars(play_deal(game, [LoopRandom()] * 2, seed).state)
