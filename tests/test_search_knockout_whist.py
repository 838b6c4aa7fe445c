"""Knock-out Whist's SearchModel: a determinized game is the real game, seen from a view.

The spec of ``determinize``: at every decision point of real games (naming trump, every
lead and follow, a dog's knock, first and last tricks, in every round, every variant),
the state built from the acting seat's view and the TRUE world (this round's hands and
undealt cards) has the same seat to act, phase and legal actions and gives every seat
the view the real game gives it. Applying the rest of the real game's actions:

- with the copy's seed replaced by the real one (only the test knows it), the copy
  replays the real game to its end: every later view and the outcome are the real ones,
  except what a view of one round cannot tell (the tricks of earlier rounds, the round
  a seat already out went out in), which the outcome comparison leaves out;
- with the copy's own rng-drawn seed, the current round ends exactly as the real one
  (who is knocked out, who gets a dog's life, whether and by whom the game is won);
  later rounds are dealt from that seed, so from there the copy is checked for a valid
  game played to its end.

``exact_values`` is checked against an exhaustive minimax over the real engine, every
seat but ``seat`` minimising its payoff, with the value of playing on into a new round
(unknowable: it is dealt at random) set once to its lowest and once to its highest
possible value. Where the model gives a dict, both minimaxes equal it; where the
position is a two-player contest (or a forced last trick) and the model says None, the
two minimaxes differ: the model misses no exact position of the kinds it handles.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from strategies.knockout_heuristic import KnockoutHeuristic
from strategies.random_play import RandomStrategy
from whist_sim.cards import FULL_DECK, iter_cards
from whist_sim.games import make_game
from whist_sim.games.knockout_whist import DOG, IN, KNOCK, OUT, KnockoutWhistDeal
from whist_sim.sampling import World, check_world, sample_world
from whist_sim.search.knockout_whist import MODEL, SURVIVAL, out_payoff
from whist_sim.search.model import model_for, play_out
from whist_sim.solver import solve
from whist_sim.tricks import winning_index

pytestmark = pytest.mark.slow  # the whole module: seconds to minutes on 2 cores

VARIANTS = [
    {"tie_break": tie_break, "dogs_life": dogs_life}
    for tie_break in ("cut", "nearest_left")
    for dogs_life in ("off", "first_round", "first_knockout")
]
HEURISTIC = KnockoutHeuristic()
RANDOM = RandomStrategy()


def variant_id(variant: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in variant.items())


def record_game(variant: dict, players: int, seed: int) -> tuple[Any, int, list[int]]:
    """A game played by a mix of heuristic and random seats: (game, dealer, actions)."""
    game = make_game("knockout_whist", variant, players)
    dealer = seed % players
    state = game.new_deal(seed, dealer)
    rng = random.Random(seed)
    players_ = [HEURISTIC if rng.random() < 0.6 else RANDOM for _ in range(players)]
    actions = []
    while not state.over:
        action = players_[state.to_act].choose(state.view(state.to_act), rng)
        actions.append(action)
        state.apply(action)
    return game, dealer, actions


def true_world(state: KnockoutWhistDeal) -> World:
    dealt = 0
    for hand in state.round_start_hands:
        dealt |= hand
    return World(tuple(state.hands), (), FULL_DECK & ~dealt)


def clone(state: KnockoutWhistDeal) -> KnockoutWhistDeal:
    """An independent copy of an engine state (the engine mutates only its lists)."""
    twin = copy.copy(state)
    for name, value in vars(twin).items():
        if isinstance(value, list):
            setattr(twin, name, list(value))
    return twin


def decision_kinds(state: KnockoutWhistDeal) -> set[str]:
    view = state.view(state.to_act)
    if view.phase == "trump":
        return {"trump"}
    kinds = {"follow" if view.trick else "lead"}
    if not view.tricks:
        kinds.add("first trick")
    if view.last_trick:
        kinds.add("last trick")
    if view.is_dog:
        kinds.add("dog may knock" if view.legal >> KNOCK & 1 else "dog must play")
    if view.round == 7:
        kinds.add("final round")
    return kinds


def earlier_tricks(state: KnockoutWhistDeal, round_: int) -> list[int]:
    """Tricks each seat took in the rounds before ``round_``."""
    counts = [0] * state.players
    for record, r in zip(state.all_tricks, state.all_trick_rounds, strict=True):
        if r < round_:
            counts[record.winner] += 1
    return counts


def round_end_facts(state: KnockoutWhistDeal) -> dict[str, Any]:
    return {
        "over": state.over,
        "winner": state.winner,
        "status": list(state.status),
        "dog_used": list(state.dog_used),
        "round": state.round,
        "dealer": state.dealer,
    }


def check_replay(game: Any, dealer: int, actions: list[int], seed: int, every: int,
                 kinds: Counter) -> None:
    """The spec of determinize (module docstring) at every ``every``-th decision and every
    decision of a kind that is rarer (naming trump, a dog's)."""
    variant = game.variant
    real = game.new_deal(seed, dealer)
    for i, action in enumerate(actions):
        if i % every == 0 or real.phase == "trump" or real.status[real.to_act] == DOG:
            kinds.update(decision_kinds(real))
            check_decision(real, actions[i:], variant.tie_break, random.Random(i))
        real.apply(action)


def check_decision(real: KnockoutWhistDeal, rest: list[int], tie_break: str,
                   rng: random.Random) -> None:
    seat = real.to_act
    view = real.view(seat)
    world = true_world(real)
    check_world(view, world)
    mine = MODEL.determinize(view, world, rng)
    exact = MODEL.determinize(view, world, rng)
    assert isinstance(mine, KnockoutWhistDeal)
    assert mine.seed != real.seed and exact.seed != real.seed
    assert (mine.to_act, mine.phase, mine.legal) == (real.to_act, real.phase, real.legal)
    for other in range(real.players):
        assert mine.view(other) == real.view(other), f"seat {other}'s view differs"

    # With the real seed (known to the test alone) the copy IS the rest of the game.
    exact.seed = real.seed
    twin = clone(real)
    round_, out_before = real.round, [s for s in range(real.players) if real.status[s] == OUT]
    round_end: dict[str, Any] | None = None
    for action in rest:
        if round_end is None:
            mine.apply(action)
        twin.apply(action)
        exact.apply(action)
        assert exact.to_act == twin.to_act
        if twin.to_act >= 0:
            assert exact.view(twin.to_act) == twin.view(twin.to_act)
        if round_end is None and (twin.over or twin.round != round_):
            round_end = round_end_facts(twin)
            mine_end = round_end_facts(mine)
            assert {k: v for k, v in mine_end.items() if k != "winner"} == {
                k: v for k, v in round_end.items() if k != "winner"}
            assert mine.winner == twin.winner
            tied = sorted(twin.round_tricks).count(max(twin.round_tricks)) > 1
            if not twin.over and (tie_break == "nearest_left" or not tied):
                assert mine.to_act == twin.to_act  # the trump chooser: no cut needed
    assert twin.over and exact.over
    real_out, exact_out = twin.outcome(), exact.outcome()
    assert (exact_out.score, exact_out.net, exact_out.result) == (
        real_out.score, real_out.net, real_out.result)
    before = earlier_tricks(twin, round_)
    assert exact_out.tricks == tuple(t - b for t, b in zip(real_out.tricks, before, strict=True))
    assert exact.round_rows == [row for row in twin.round_rows if row["round"] >= round_]
    real_pay, exact_pay = MODEL.payoffs(twin), MODEL.payoffs(exact)
    for s in range(real.players):
        if s not in out_before:
            assert exact_pay[s] == real_pay[s]
            assert exact_out.seat_facts[s] == real_out.seat_facts[s]

    # With its own seed the copy deals later rounds afresh: a valid game to its end.
    if not mine.over:
        payoffs = play_out(MODEL, mine, random.Random(0))
        assert payoffs.count(1.0) == 1
    assert mine.over and mine.outcome().result.count("win") == 1


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_determinize_with_the_true_world_is_the_real_game(variant, players):
    games = {2: 6, 3: 4, 4: 3, 7: 1}[players]
    every = {2: 1, 3: 1, 4: 2, 7: 5}[players]
    kinds: Counter = Counter()
    for g in range(games):
        seed = 1000 * players + g
        game, dealer, actions = record_game(variant, players, seed)
        check_replay(game, dealer, actions, seed, every, kinds)
    expected = {"trump", "lead", "follow", "first trick", "last trick"}
    if variant["dogs_life"] != "off" and players > 2:
        expected.add("dog may knock")
    assert expected <= set(kinds), f"decision kinds met: {dict(kinds)}"


def test_every_round_table_size_and_dog_decision_is_met():
    """Bigger tables reach the one-card round, two-player rounds and a dog's forced play."""
    reached: set[tuple[int, int]] = set()
    kinds: Counter = Counter()
    for variant in VARIANTS[1:3]:
        for players in (3, 4, 7):
            for g in range(4):
                seed = 50 + g
                game, dealer, actions = record_game(variant, players, seed)
                real = game.new_deal(seed, dealer)
                for i, action in enumerate(actions):
                    if i % 3 == 0 or real.phase == "trump" or real.status[real.to_act] == DOG:
                        kinds.update(decision_kinds(real))
                        reached.add((real.round, sum(s != OUT for s in real.status)))
                        check_decision(real, actions[i:], "cut", random.Random(i))
                    real.apply(action)
    assert {r for r, _ in reached} == set(range(1, 8))
    assert {left for _, left in reached} >= {2, 3, 4, 7}
    assert {"dog may knock", "dog must play", "final round"} <= set(kinds), kinds


def test_later_rounds_come_from_the_rng_not_the_real_seed():
    game, dealer, actions = record_game(VARIANTS[0], 4, 7)
    real = game.new_deal(7, dealer)
    view = real.view(real.to_act)
    world = true_world(real)
    one = MODEL.determinize(view, world, random.Random(5))
    same = MODEL.determinize(view, world, random.Random(5))
    other = MODEL.determinize(view, world, random.Random(6))
    assert one.seed == same.seed != other.seed != real.seed
    hands = []
    for state in (real, one, same, other):
        for action in actions:
            if state.round > 1 or state.over:
                break
            state.apply(action)
        hands.append(state.round_start_hands if state.round == 2 else None)
    assert hands[0] is not None, "the recorded game ends in round 1"
    assert hands[1] == hands[2]  # the same rng deals the same later rounds
    assert hands[1] != hands[0] and hands[3] != hands[0]


def conserved(state: KnockoutWhistDeal) -> bool:
    """This round's cards: held or played, each once, as many as were dealt."""
    seen = 0
    count = 0
    for hand in state.hands:
        seen |= hand
        count += hand.bit_count()
    for record in state.tricks:
        for card in record.cards:
            seen |= 1 << card
            count += 1
    for card in state.trick:
        seen |= 1 << card
        count += 1
    dealt = sum(h.bit_count() for h in state.round_start_hands)
    return count == dealt == seen.bit_count()


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_determinize_with_sampled_worlds_plays_to_a_valid_end(variant):
    rng = random.Random(3)
    checked = 0
    for players in (2, 3, 5, 7):
        game, dealer, actions = record_game(variant, players, 77 + players)
        real = game.new_deal(77 + players, dealer)
        for i, action in enumerate(actions):
            if i % 3 == 0:
                view = real.view(real.to_act)
                world = sample_world(view, rng)
                state = MODEL.determinize(view, world, rng)
                assert state.view(view.seat) == view
                assert (state.to_act, state.phase, state.legal) == (
                    real.to_act, real.phase, real.legal)
                policies = MODEL.rollout_policies(state)
                while not state.over:
                    assert conserved(state)
                    state.apply(policies[state.to_act].choose(
                        state.view(state.to_act), rng))
                payoffs = MODEL.payoffs(state)
                assert payoffs.count(1.0) == 1
                assert all(0.0 <= p < SURVIVAL for p in payoffs if p != 1.0)
                checked += 1
            real.apply(action)
    assert checked > 100


def test_payoffs_are_one_for_the_winner_and_grow_with_survival():
    for players in (2, 4, 7):
        game, dealer, actions = record_game(VARIANTS[0], players, players)
        state = game.new_deal(players, dealer)
        for action in actions:
            state.apply(action)
        outcome = state.outcome()
        payoffs = MODEL.payoffs(state)
        assert model_for(state.view(0)) is MODEL
        for seat, value in enumerate(payoffs):
            out_round = outcome.seat_facts[seat]["out_round"]
            if seat == state.winner:
                assert value == 1.0
            else:
                assert value == pytest.approx(SURVIVAL * (out_round - 1) / 7)
                assert value < SURVIVAL
    assert [out_payoff(r) for r in range(1, 8)] == sorted({out_payoff(r) for r in range(1, 8)})
    assert out_payoff(1) == 0.0


def test_rollout_policies_are_the_stateless_heuristic():
    game, dealer, actions = record_game(VARIANTS[0], 4, 11)
    state = game.new_deal(11, dealer)
    policies = MODEL.rollout_policies(state)
    assert len(policies) == 4 and all(isinstance(p, KnockoutHeuristic) for p in policies)
    assert MODEL.rollout_policies(state) is policies  # built once, reused
    before = [dict(vars(p)) for p in policies]
    rng = random.Random(0)
    for action in actions[:30]:
        view = state.view(state.to_act)
        first = policies[view.seat].choose(view, rng)
        assert policies[view.seat].choose(view, random.Random(99)) == first
        state.apply(action)
    assert [dict(vars(p)) for p in policies] == before


# -- exact values ----------------------------------------------------------------------


def engine_minimax(state: KnockoutWhistDeal, seat: int, round_: int) -> tuple[float, float]:
    """The seat's payoff with best play by all (the others minimising it), by the engine.

    At the round's end: the game's payoff if it is over; the seat's own payoff if it is
    out (the rest is played by the roll-outs: the seat never acts again); else playing
    on, valued at its lowest (going out next round) and highest (1) possible values.
    """
    if state.over:
        value = MODEL.payoffs(state)[seat]
        return value, value
    if state.round != round_:
        if state.status[seat] == OUT:
            value = play_out(MODEL, state, random.Random(0))[seat]
            return value, value
        return out_payoff(round_ + 1), 1.0
    children = []
    for action in iter_cards(state.legal):
        child = clone(state)
        child.apply(action)
        children.append(engine_minimax(child, seat, round_))
    pick = max if state.to_act == seat else min
    return pick(lo for lo, _ in children), pick(hi for _, hi in children)


def two_sided(state: KnockoutWhistDeal) -> bool:
    """The kinds of position ``exact_values`` handles: a forced last trick, or two full
    players holding cards and no dog holding one."""
    if state.view(state.to_act).last_trick:
        return True
    holders = [s for s in range(state.players) if state.hands[s]]
    return len(holders) == 2 and all(state.status[s] == IN for s in holders)


def test_exact_values_match_an_engine_minimax_on_small_endings():
    counts: Counter = Counter()
    for players, variant, games in ((2, VARIANTS[0], 40), (3, VARIANTS[2], 40),
                                    (3, VARIANTS[4], 30), (4, VARIANTS[5], 15)):
        for g in range(games):
            seed = 500 + 100 * players + g
            game, dealer, actions = record_game(variant, players, seed)
            state = game.new_deal(seed, dealer)
            for action in actions:
                cards = max(h.bit_count() for h in state.hands)
                if state.phase == "play" and cards <= 4 and two_sided(state):
                    check_exact(state, counts)
                state.apply(action)
    assert counts["dict"] > 100 and counts["dict, several cards"] > 20, counts
    assert counts["none"] > 20, counts


def test_exact_values_with_a_dogs_card_on_the_trick():
    """Two full players and a dog that has played: the seat completes the trick by hand,
    a dog that wins it is revived and passes the lead to the next full player on its left."""
    counts: Counter = Counter()
    for variant in (VARIANTS[1], VARIANTS[2], VARIANTS[4], VARIANTS[5]):
        for players in (3, 4):
            for g in range(60):
                seed = 9000 + g
                game, dealer, actions = record_game(variant, players, seed)
                state = game.new_deal(seed, dealer)
                for action in actions:
                    if (state.phase == "play" and two_sided(state)
                            and any(state.status[s] == DOG for s in state.trick_seats)
                            and max(h.bit_count() for h in state.hands) <= 5):
                        check_exact(state, counts, 5)
                    state.apply(action)
    assert counts["dict, dog's card on the trick"] > 5 and counts["none"] > 5, counts
    assert counts["dict, the dog can win the trick"] > 2, counts


def check_exact(state: KnockoutWhistDeal, counts: Counter, max_cards: int = 4) -> None:
    seat = state.to_act
    values = MODEL.exact_values(state, seat, max_cards, solve)
    engine = {}
    for card in iter_cards(state.legal):
        child = clone(state)
        child.apply(card)
        engine[card] = engine_minimax(child, seat, state.round)
    if values is None:
        counts["none"] += 1
        assert any(lo != hi for lo, hi in engine.values()), (engine, state.view(seat))
        return
    counts["dict"] += 1
    if len(values) > 1:
        counts["dict, several cards"] += 1
    dogs = [i for i, s in enumerate(state.trick_seats) if state.status[s] == DOG]
    if dogs:
        counts["dict, dog's card on the trick"] += 1
        if not state.view(seat).last_trick and any(
            winning_index((*state.trick, card), state.trump) in dogs for card in values
        ):
            counts["dict, the dog can win the trick"] += 1
    assert set(values) == set(engine)
    for card, value in values.items():
        assert engine[card] == (value, value), (card, value, engine, state.view(seat))


def test_exact_values_is_none_where_the_solver_does_not_apply():
    game, dealer, actions = record_game(VARIANTS[2], 4, 21)
    state = game.new_deal(21, dealer)
    reasons: Counter = Counter()
    for action in actions:
        seat = state.to_act
        values = MODEL.exact_values(state, seat, 13, solve)
        holders = [s for s in range(state.players) if state.hands[s]]
        last = state.phase == "play" and state.view(seat).last_trick
        if state.phase == "trump":
            reasons["trump"] += 1
            assert values is None
        elif not last and len(holders) > 2:
            reasons["three or more players"] += 1
            assert values is None
        elif not last and any(state.status[s] == DOG for s in holders):
            reasons["a dog holds its card"] += 1
            assert values is None
        if state.phase == "play" and state.hands[seat].bit_count() > 1:
            assert MODEL.exact_values(state, seat, 1, solve) is None  # too many cards
            reasons["too many cards"] += 1
        state.apply(action)
    assert reasons["trump"] and reasons["three or more players"] and reasons["too many cards"]
    assert sum(s == IN for s in state.status) <= 1
