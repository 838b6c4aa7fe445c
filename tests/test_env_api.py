"""The PettingZoo AEC environments: conformance, spaces, rewards, episode end, bad input.

``pettingzoo.test.api_test`` and ``seed_test`` run over every game under every variant
setting ``whist-sim check`` plays (each key's non-default values beside the defaults),
and Knock-out Whist at every table size.
"""

from __future__ import annotations

import random
import re
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test

import whist_sim.env as wenv
from whist_sim.checking import CHECK_VARIANTS
from whist_sim.env import EnvError, IllegalActionError, UnknownAgentError
from whist_sim.games import make_game

CASES = [(game, variant, None) for game, variants in CHECK_VARIANTS.items()
         for variant in variants]
CASES += [("knockout_whist", {}, n) for n in (2, 3, 5, 6, 7)]

FACTORIES = {
    "german_whist": wenv.german_whist_v0,
    "solo_whist": wenv.solo_whist_v0,
    "minnesota_whist": wenv.minnesota_whist_v0,
    "knockout_whist": wenv.knockout_whist_v0,
}


def case_id(case) -> str:
    game, variant, players = case
    shown = ",".join(f"{k}={v}" for k, v in variant.items()) or "default"
    return f"{game}-{shown}" + (f"-{players}p" if players else "")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_test_and_seed_test(case):
    game, variant, players = case

    def make():
        return wenv.env(game, variant, players)

    api_test(make(), num_cycles=120)
    seed_test(make, num_cycles=120)


@pytest.mark.parametrize("game", sorted(FACTORIES))
def test_each_game_has_its_factory_and_the_one_by_name_gives_the_same(game):
    one, other = FACTORIES[game](), wenv.env(game)
    assert one.metadata["name"] == f"{game}_v0"
    for e in (one, other):
        e.reset(seed=3)
    assert one.state_.deal_record() == other.state_.deal_record()


def test_action_spaces_are_discrete_of_the_stated_size():
    assert wenv.ACTIONS == {"german_whist": 52, "solo_whist": 65, "minnesota_whist": 54,
                            "knockout_whist": 57}
    for game, size in wenv.ACTIONS.items():
        e = wenv.env(game)
        for agent in e.possible_agents:
            space = e.action_space(agent)
            assert isinstance(space, spaces.Discrete) and space.n == size
            obs_space = e.observation_space(agent)
            assert set(obs_space.spaces) == {"observation", "action_mask"}
            assert obs_space["action_mask"].shape == (size,)
            assert obs_space["observation"].shape == (e.layout.size,)


def play_out(e, rng: random.Random) -> dict[str, float]:
    """Random legal play to the end; per-step rewards must be zero until the last step."""
    finals = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert not truncated
        if terminated:
            finals[agent] = reward
            assert info["result"] in ("win", "loss", "draw")
            e.step(None)
            continue
        assert reward == 0.0
        assert all(r == 0.0 for r in e.rewards.values())
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(list(legal))))
    return finals


@pytest.mark.parametrize("game", sorted(FACTORIES))
@pytest.mark.parametrize("reward", ["net", "score"])
def test_the_reward_is_the_deals_result_at_its_end(game, reward):
    e = wenv.env(game, reward=reward)
    rng = random.Random(5)
    for seed in range(4):
        e.reset(seed=seed)
        state = e.state_
        finals = play_out(e, rng)
        outcome = state.outcome()
        expected = outcome.net if reward == "net" else outcome.score
        assert finals == {f"player_{s}": float(v) for s, v in enumerate(expected)}
        if reward == "net":
            assert abs(sum(finals.values())) < 1e-9  # zero-sum
        assert e.agents == []


def test_terminations_all_true_at_the_end_and_truncations_never():
    e = wenv.solo_whist_v0()
    e.reset(seed=1)
    rng = random.Random(1)
    while not any(e.terminations.values()):
        assert not any(e.truncations.values())
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    assert all(e.terminations.values()) and not any(e.truncations.values())
    for agent in e.possible_agents:
        assert not e.observe(agent)["action_mask"].any()


def test_reset_options_fix_the_deal_as_play_deal_would_deal_it():
    e = wenv.german_whist_v0()
    e.reset(options={"deal_seed": 12345, "dealer": 1})
    assert e.state_.deal_record() == make_game("german_whist").new_deal(12345, 1).deal_record()


@pytest.mark.parametrize("seed", [1.5, "3", True, np.True_, -1, None.__class__])
def test_reset_refuses_a_seed_that_is_not_a_whole_number_from_zero(seed):
    """gymnasium's own error escaped ``except EnvError``, and True was taken as seed 1
    (an RL researcher's probe); NumPy integers are seeds as Python's are."""
    e = wenv.german_whist_v0()
    with pytest.raises(EnvError, match=r"reset\(seed = .*\) is not allowed; allowed values:"
                                       r" whole numbers >= 0"):
        e.reset(seed=seed)
    e.reset(seed=np.int64(7))
    first = e.state_.deal_record()
    e.reset(seed=7)
    assert e.state_.deal_record() == first


@pytest.mark.parametrize("seed", [-1, 2**63, 2**70])
def test_reset_refuses_a_deal_seed_no_tournament_deals_from(seed):
    """The engine reads a seed modulo 2**64: -1 dealt the cards of 2**64 - 1 and was
    recorded as -1, and seeds 2**64 apart dealt the same cards (an RL researcher's probe)."""
    e = wenv.german_whist_v0()
    with pytest.raises(EnvError, match=rf"options deal_seed = {seed} is out of range; allowed"
                                       r" values: whole numbers 0\.\.2\*\*63 - 1"):
        e.reset(options={"deal_seed": seed})
    e.reset(options={"deal_seed": 2**63 - 1})  # the largest a tournament deals from
    assert e.deal_seed == 2**63 - 1


def test_reset_refuses_options_that_are_not_a_mapping_naming_the_keys():
    """A list raised "'list' object has no attribute 'get'"."""
    e = wenv.german_whist_v0()
    with pytest.raises(EnvError, match=r"options = \[1\] is not a mapping; give a dict of the"
                                       r" keys deal_seed, dealer"):
        e.reset(options=[1])


def test_reset_warns_of_an_unknown_option_but_for_pettingzoos_own():
    """A misspelt deal_seed was dropped without a word; PettingZoo's api_test passes
    {"options": 1} to see that reset takes options, and gets no warning for it."""
    e = wenv.german_whist_v0()
    with pytest.warns(UserWarning, match="unknown key 'deal-seed' ignored; known keys:"
                                         " deal_seed, dealer"):
        e.reset(options={"deal-seed": 3})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e.reset(seed=0, options={"options": 1})


def test_render_prints_the_trick():
    e = wenv.german_whist_v0(render_mode="ansi")
    e.reset(seed=2)
    lead = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    seat = e.state_.to_act
    e.step(lead)
    text = e.render()
    assert "German Whist" in text and "trump" in text
    from whist_sim.cards import card_str
    assert f"seat {seat}: {card_str(lead)}" in text


def test_render_of_a_hand_that_is_over_shows_no_trick_in_progress():
    e = wenv.solo_whist_v0(render_mode="ansi")
    e.reset(seed=2)
    play_out(e, random.Random(1))
    text = e.render()
    assert "over:" in text and "(no card yet)" not in text and "trick 14" not in text


def test_render_of_a_solo_throw_in_says_it_was_thrown_in_not_played_without_trumps():
    """Every seat passed, or a Prop stood uncopped: no hand was played, yet the first line
    read "no trumps", as if a no-trump contract had been (a probe's finding)."""
    for calls in ((52, 52, 52, 52), (53, 52, 52, 52)):  # all pass; a Prop uncopped
        e = wenv.solo_whist_v0(render_mode="ansi")
        e.reset(seed=2)
        for call in calls:
            e.step(call)
        lines = e.render().splitlines()
        assert lines[0] == "Solo Whist, over; thrown in (no contract, no play)"
        assert lines[-1].startswith("over: seat 0 draw +0")


def _rendered_until(e, phase: str, steps: int = 0) -> str:
    """The rendering once ``steps`` actions of ``phase`` were taken (the highest legal
    action each, whatever comes between: Solo Whist's highest call has trumps named)."""
    taken = 0
    while e.state_.to_act >= 0:
        if e.state_.phase == phase:
            if taken == steps:
                return e.render()
            taken += 1
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    raise AssertionError(f"the hand ended before {steps + 1} actions of phase {phase!r}")


def test_render_during_the_solo_auction_shows_the_calls_and_who_calls_not_a_trick():
    """It said "trick 1: (no card yet)" and "trump none" while no trick could be played."""
    e = wenv.solo_whist_v0(render_mode="ansi")
    e.reset(seed=4)
    text = _rendered_until(e, "bid")
    upcard = e.state_.view(0).upcard
    from whist_sim.cards import card_str
    assert text.splitlines() == [
        f"Solo Whist, bid; trump not yet known (upcard {card_str(upcard)})",
        "calls: none yet", f"seat {e.state_.to_act} to call"]
    text = _rendered_until(e, "bid", 2)
    assert "trick" not in text and "trump none" not in text
    calls = e.state_.view(0).bids
    assert f"calls: {', '.join(f'seat {s} {e.unwrapped.game.action_str(c)}' for s, c in calls)}" \
        in text
    assert text.endswith(f"seat {e.state_.to_act} to call")


def test_render_while_trumps_are_named_shows_who_names_them_not_a_trick():
    for e, reset in ((wenv.solo_whist_v0(render_mode="ansi"), 4),
                     (wenv.knockout_whist_v0(players=3, render_mode="ansi"), 4)):
        e.reset(seed=reset)
        text = _rendered_until(e, "trump")
        assert "trick" not in text.replace("last trick", "") and "trump not yet known" in text
        assert text.endswith(f"seat {e.state_.to_act} to name trumps")


def test_render_during_minnesota_bidding_shows_the_laid_cards_or_the_calls_not_a_trick():
    e = wenv.minnesota_whist_v0(render_mode="ansi")
    e.reset(seed=4)
    text = _rendered_until(e, "lay", 2)
    assert text.splitlines() == ["Minnesota Whist, lay; no trumps",
                                 "laid face down: 2 of 4 cards",
                                 f"seat {e.state_.to_act} to lay a card face down"]
    text = _rendered_until(e, "play")
    assert "turned up: seat" in text and ("granded by seat" in text or "null" in text)
    assert f"trick 1: (no card yet)\nseat {e.state_.to_act} to play" in text
    spoken = wenv.minnesota_whist_v0({"bid": "spoken"}, render_mode="ansi")
    spoken.reset(seed=4)
    assert spoken.render().splitlines() == ["Minnesota Whist, bid; no trumps", "calls: none yet",
                                            f"seat {spoken.state_.to_act} to call"]


def _lowest_or_knock(e) -> int:
    """The lowest legal action, or a dog's knock (52) whenever it may knock."""
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    return 52 if e.unwrapped.game.name == "knockout_whist" and 52 in legal else int(legal[0])


def _rendered_when(e, reached) -> str:
    """The rendering at the first moment ``reached(state)`` holds, stepping
    ``_lowest_or_knock`` until then."""
    while not reached(e.state_):
        assert e.state_.to_act >= 0, "the hand ended first"
        e.step(_lowest_or_knock(e))
    return e.render()


def test_render_shows_the_german_whist_card_the_trick_is_played_for_and_the_face_down_stock():
    """The face-up stock card each stage-1 trick is played for never appeared, nor did
    how many cards lie face down; in stage 2 the stock is said to be used up."""
    e = wenv.german_whist_v0(render_mode="ansi")
    e.reset(options={"deal_seed": 5, "dealer": 0})
    assert e.render().splitlines() == [
        "German Whist, play; trump S",
        "stock: QS face up (the trick's prize), 25 face down",
        "trick 1: (no card yet)",
        "seat 1 to play"]
    text = _rendered_when(e, lambda state: len(state.tricks) == 1)
    assert text.splitlines()[1] == "stock: JD face up (the trick's prize), 23 face down"
    text = _rendered_when(e, lambda state: state.stage == 2)
    assert text.splitlines()[1] == "stock: used up (stage 2: no more drawing)"


def test_render_shows_the_open_stock_row_and_the_cards_the_winner_may_take():
    """``open_stock`` > 1: the face-up row never appeared, and "seat 0 to take a face-up
    card" did not say which (a user's probe)."""
    e = wenv.german_whist_v0({"open_stock": 3}, render_mode="ansi")
    e.reset(options={"deal_seed": 5, "dealer": 0})
    assert e.render().splitlines()[1] == (
        "stock: QS 2C JD face up (the trick's winner takes one), 23 face down")
    assert _rendered_when(e, lambda state: state.phase == "take").splitlines() == [
        "German Whist, take; trump S",
        "stock: QS 2C JD face up (the trick's winner takes one), 23 face down",
        "last trick: seat 1: 3S, seat 0: 4S; won by seat 0",
        "seat 0 to take a face-up card: QS 2C JD"]


def test_render_shows_the_knockout_round_the_cards_dealt_and_who_is_in_on_a_dogs_life_or_out():
    """The round, the cards each seat holds in it, and who is out or on a dog's life
    never appeared (a user's probe)."""
    e = wenv.knockout_whist_v0({"dogs_life": "first_round"}, players=3, render_mode="ansi")
    e.reset(options={"deal_seed": 14, "dealer": 0})
    assert e.render().splitlines()[1:3] == ["round 1 of 7: 7 cards each", "in: seats 0, 1, 2"]
    text = _rendered_when(e, lambda state: state.round == 2)
    assert text.splitlines() == [
        "Knock-out Whist, trump; trump not yet known",
        "round 2 of 7: 6 cards each, 1 for a dog",
        "in: seats 1, 2; on a dog's life: seat 0",
        "seat 2 to name trumps"]
    text = _rendered_when(e, lambda state: state.round == 3)
    assert text.splitlines()[1:3] == ["round 3 of 7: 5 cards each", "in: seats 1, 2; out: seat 0"]


def test_render_shows_a_dogs_knock_in_the_trick_and_in_the_last_trick():
    """A dog's knock (action 52) left no trace: the trick read as if the dog had not
    been asked (a user's probe)."""
    e = wenv.knockout_whist_v0({"dogs_life": "first_round"}, players=3, render_mode="ansi")
    e.reset(options={"deal_seed": 14, "dealer": 0})
    knocked = _rendered_when(e, lambda state: state.round == 2 and len(state.trick_seats) == 1
                             and state.to_act == 1)
    assert knocked.splitlines()[3:] == ["trick 1: seat 2: 5S, seat 0: knock", "seat 1 to play"]
    text = _rendered_when(e, lambda state: state.round == 2 and len(state.tricks) == 1)
    assert text.splitlines()[3:] == [
        "trick 2: (no card yet)",
        "last trick: seat 2: 5S, seat 0: knock, seat 1: 6S; won by seat 1",
        "seat 1 to play"]


LAST_TRICKS = {
    "german_whist": (3, "last trick: seat 1: KC, seat 0: AC; won by seat 0"),
    "solo_whist": (8, "last trick: seat 1: AC, seat 2: QC, seat 3: KC, seat 0: JC;"
                      " won by seat 1"),
    "minnesota_whist": (3, "last trick: seat 0: QC, seat 1: JC, seat 2: AC, seat 3: KC;"
                           " won by seat 2"),
    "knockout_whist": (3, "last trick: seat 1: 5C, seat 2: AC, seat 0: 3C; won by seat 2"),
}
"""Each game's first trick on a fixed deal (seed, dealer 0; the highest legal actions)."""


@pytest.mark.parametrize("game", list(FACTORIES))
def test_render_names_the_seat_that_played_each_card_of_the_last_trick(game):
    """It gave the cards alone ("last trick: KC AC, won by seat 0"): who played which was
    left to the reader, unlike the trick in progress's "seat 1: KC"."""
    seed, line = LAST_TRICKS[game]
    e = FACTORIES[game](render_mode="ansi", **({"players": 3} if game == "knockout_whist"
                                               else {}))
    e.reset(options={"deal_seed": seed, "dealer": 0})
    text = _rendered_until(e, "play", e.unwrapped.game.players)
    assert line in text.splitlines()


@pytest.mark.parametrize("game", list(FACTORIES))
def test_an_environment_pickles_mid_hand_and_plays_on_as_the_original(game):
    """For subprocess vector environments and saved snapshots: the compiled encoders are
    made again on load and catch up from the hand's completed tricks."""
    import pickle

    e = FACTORIES[game]()
    e.reset(seed=11)
    rng = random.Random(3)
    for _ in range(9):
        e.step(int(rng.choice(list(np.flatnonzero(e.last()[0]["action_mask"])))))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.observation_spaces == e.observation_spaces
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        mine = copy.last()
        assert copy.agent_selection == agent and mine[1:4] == (reward, terminated, truncated)
        if terminated or truncated:
            e.step(None)
            copy.step(None)
            continue
        assert np.array_equal(observation["observation"], mine[0]["observation"])
        action = int(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
        e.step(action)
        copy.step(action)
    decoded = e.layout.decode(observation["observation"])
    assert pickle.loads(pickle.dumps(decoded)) == decoded


@pytest.mark.parametrize("game", list(FACTORIES))
def test_copy_copy_gives_an_environment_of_its_own_that_plays_on_as_the_original(game):
    """A shallow copy shared the hand with the original: stepping both refused the second
    step as outside the mask (an RL user's probe)."""
    import copy

    e = FACTORIES[game]()
    e.reset(seed=11)
    rng = random.Random(3)
    for _ in range(5):
        e.step(int(rng.choice(list(np.flatnonzero(e.last()[0]["action_mask"])))))
    twin = copy.copy(e)
    assert twin.state_ is not e.state_ and twin.rewards is not e.rewards
    for agent in e.agent_iter():
        observation, reward, terminated, _, _ = e.last()
        assert twin.agent_selection == agent and twin.last()[1:3] == (reward, terminated)
        action = None if terminated else int(
            rng.choice(list(np.flatnonzero(observation["action_mask"]))))
        e.step(action)
        twin.step(action)
    e.reset()
    twin.reset()  # the generator was copied too: the next hand is the same
    assert e.state_.deal_record() == twin.state_.deal_record()


# -- bad input ---------------------------------------------------------------------------


def test_an_action_outside_the_mask_names_the_seat_the_action_and_the_allowed_ones():
    e = wenv.german_whist_v0()
    e.reset(seed=4)
    agent = e.agent_selection
    seat = e.state_.to_act
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.state_.deal_record(), list(e.state_.log)
    with pytest.raises(IllegalActionError) as caught:
        e.step(illegal)
    message = str(caught.value)
    assert f"{agent} (seat {seat})" in message and f"action {illegal} (" in message
    assert "[rule: card not held]" in message  # the rules' own reason ends it
    allowed = [int(a) for a in np.flatnonzero(mask)]
    assert all(f"{a} (" in message for a in allowed)
    assert caught.value.agent == agent and len(caught.value.allowed) == len(allowed)
    assert (e.state_.deal_record(), list(e.state_.log)) == before  # nothing applied
    for bad in (52, -1, 10**6):  # a number of none of the game's actions: said so
        with pytest.raises(IllegalActionError,
                           match=r"is not one of this environment's actions \(0\.\.51,"
                                 r" action_space\(agent\) is Discrete\(52\)\); allowed now:"):
            e.step(bad)
    second = int(np.flatnonzero(mask == 0)[1])
    with pytest.raises(IllegalActionError, match="outside the action mask"):
        e.step(second)  # an action of the game the mask does not allow: said so
    for bad in ("AS", 1.5, 3.0, np.float32(3), None, True):  # not read as the card 3
        with pytest.raises(IllegalActionError, match=r"is not an action: this environment's"
                                                     r" actions are whole numbers 0\.\.51") as no:
            e.step(bad)
        assert all(f"{a} (" in str(no.value) for a in allowed)  # and which ones it may take
    e.step(np.int64(allowed[0]))  # NumPy integers are actions


def test_a_step_after_the_end_is_refused():
    e = wenv.german_whist_v0()
    e.reset(seed=6)
    play_out(e, random.Random(0))
    with pytest.raises(EnvError, match=r"no agent left.*reset\(\)"):
        e.step(0)
    e.reset(seed=6)
    rng = random.Random(0)
    while not any(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    with pytest.raises(EnvError, match="only valid action is None"):
        e.step(0)


def test_last_after_every_agent_stepped_out_says_to_call_reset():
    """It raised a bare KeyError('player_0')."""
    e = wenv.german_whist_v0()
    e.reset(seed=6)
    play_out(e, random.Random(0))
    with pytest.raises(EnvError, match=r"no agent left.*call reset\(\)"):
        e.last()


def test_the_hand_asked_for_before_reset_says_to_call_reset():
    """last() once raised AttributeError ('agent_selection') before the first reset()."""
    e = wenv.german_whist_v0()
    for call in (e.last, lambda: e.last(observe=False), lambda: e.observe("player_0")):
        with pytest.raises(EnvError, match=r"before reset\(\): call reset\(\) first"):
            call()
    with pytest.raises(EnvError, match=r"reset\(\) was never called"):
        e.step(0)


def test_an_agent_not_at_the_table_is_refused_naming_the_agents():
    e = wenv.minnesota_whist_v0()
    e.reset(seed=0)
    for call in (e.observe, e.action_space, e.observation_space):
        with pytest.raises(UnknownAgentError) as caught:
            call("player_4")
        assert isinstance(caught.value, KeyError)
        assert "player_4" in str(caught.value) and "player_0, player_1, player_2, player_3" in str(
            caught.value)


def test_the_global_state_is_refused_saying_why_and_what_to_use():
    """``state()`` is PettingZoo's global state for centralised training; here it would
    hold every hidden card, so it is not given. PettingZoo's own message ("has not been
    implemented") read as work left undone."""
    e = wenv.solo_whist_v0()
    e.reset(seed=0)
    with pytest.raises(NotImplementedError) as caught:
        e.state()
    said = str(caught.value)
    assert said.startswith("solo_whist_v0: state() is not given: ")
    assert "every seat's hidden cards" in said and "observe(agent)" in said


def test_bad_settings_are_refused_naming_the_allowed_values():
    with pytest.raises(EnvError, match="allowed values: net, score"):
        wenv.env("german_whist", reward="points")
    with pytest.raises(EnvError, match="allowed values: human, ansi"):
        wenv.env("german_whist", render_mode="rgb_array")
    with pytest.raises(Exception, match="allowed values: german_whist"):
        wenv.env("bridge")
    with pytest.raises(Exception, match="count"):
        wenv.german_whist_v0({"count": "most"})
    e = wenv.german_whist_v0()
    with pytest.raises(EnvError, match=r"options dealer = 2 is not a seat of this german_whist"
                                       r" table; allowed values: 0, 1"):
        e.reset(options={"dealer": 2})


@pytest.mark.parametrize("dealer", [9, -1, "0", True, 1.0])
def test_reset_refuses_a_dealer_not_at_the_table_as_an_env_error_naming_the_option(dealer):
    """``reset(options={"dealer": 9})`` raised the game's VariantError, which ``except
    EnvError`` missed and whose message named no option (an RL user's probe)."""
    e = wenv.german_whist_v0()
    with pytest.raises(EnvError, match=rf"options dealer = {re.escape(repr(dealer))} is not a"
                                       r" seat of this german_whist table; allowed values: 0, 1"):
        e.reset(options={"dealer": dealer})
    e.reset(options={"dealer": np.int64(1)})
    assert e.state_.dealer == 1


@pytest.mark.parametrize("options", [{"dealer": 9}, {"deal_seed": -1}, {"deal_seed": 1.5},
                                     {"deal_seed": 3, "dealer": 4}, [1]])
def test_a_refused_reset_leaves_the_generator_where_it_was(options):
    """A bad dealer was checked after a deal seed was drawn: reset(seed=1), a failed
    reset, then reset() dealt another hand than reset(seed=1) followed by reset()."""
    def hands(fail: bool) -> list[tuple]:
        e = wenv.german_whist_v0()
        e.reset(seed=1)
        first = e.state_.deal_record()
        if fail:
            with pytest.raises(EnvError):
                e.reset(options=options)
            assert e.state_.deal_record() == first  # the hand in play is left alone
        e.reset()
        return [first, e.state_.deal_record()]

    assert hands(fail=True) == hands(fail=False)


def test_a_refused_reset_with_a_seed_does_not_reseed_the_generator():
    e = wenv.german_whist_v0()
    e.reset(seed=1)
    with pytest.raises(EnvError):
        e.reset(seed=2, options={"dealer": 9})
    e.reset()
    reference = wenv.german_whist_v0()
    reference.reset(seed=1)
    reference.reset()
    assert e.state_.deal_record() == reference.state_.deal_record()


def test_last_reads_what_a_wrapper_wrote_into_the_dicts_while_the_hand_is_live():
    """TerminateIllegalWrapper charges an illegal move by writing a penalty and a
    termination into the dicts while the hand stays live; last() returned the reset's
    0.0, False, False regardless (an RL user's probe)."""
    from pettingzoo.utils import TerminateIllegalWrapper

    wrapped = TerminateIllegalWrapper(wenv.german_whist_v0(), illegal_reward=-1)
    wrapped.reset(seed=3)
    raw = wrapped.unwrapped
    agent = raw.agent_selection
    illegal = next(a for a in range(52) if not raw.state_.legal >> a & 1)
    wrapped.step(illegal)
    for name in raw.agents:
        raw.agent_selection = name
        _, reward, terminated, truncated, info = raw.last()
        assert (reward, terminated, truncated, info) == (
            raw._cumulative_rewards[name], raw.terminations[name], raw.truncations[name],
            raw.infos[name])
        assert raw.last(observe=False)[1:] == (reward, terminated, truncated, info)
    assert raw.terminations[agent]


def test_a_hand_a_wrapper_ended_takes_no_more_actions():
    """TerminateIllegalWrapper ends the hand on an illegal move and steps every agent out;
    the environment underneath went on taking actions afterwards (an RL user's probe: the
    log grew after the hand was over)."""
    from pettingzoo.utils import TerminateIllegalWrapper

    raw = wenv.german_whist_v0()
    wrapped = TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's own warning of the illegal move
        wrapped.step(next(a for a in range(52) if not raw.state_.legal >> a & 1))
    for _ in wrapped.agent_iter():
        wrapped.last()
        wrapped.step(None)
    codes = list(raw.state_.codes)
    legal = next(a for a in range(52) if raw.state_.legal >> a & 1)
    with pytest.raises(EnvError, match=r"no agent left.*reset\(\)"):
        raw.step(legal)
    assert list(raw.state_.codes) == codes


def test_a_numpy_integer_seeds_reset_as_a_python_one_does():
    """Gymnasium's seeding takes Python ints only; seeds drawn with NumPy are common."""
    ours, theirs = wenv.german_whist_v0(), wenv.german_whist_v0()
    ours.reset(seed=np.int64(3))
    theirs.reset(seed=3)
    assert ours.state_.deal_record() == theirs.state_.deal_record()


@pytest.mark.parametrize(("max_iter", "steps"), [(0, 0), (1, 1), (2.0, 2), (3.5, 4), (-1, 0)])
def test_agent_iter_counts_as_pettingzoo_does_and_iterates_again(max_iter, steps):
    """A float was refused ("cannot be interpreted as an integer"), and the iterable,
    a bare generator, gave nothing on a second pass (an RL user's probe)."""
    from pettingzoo.utils.env import AECIterable

    env = wenv.german_whist_v0()
    env.reset(seed=1)
    ours = env.agent_iter(max_iter)
    assert len(list(ours)) == len(list(AECIterable(env, max_iter))) == steps
    assert len(list(ours)) == steps  # again, as PettingZoo's


def test_numpy_scalars_are_taken_as_the_numbers_they_stand_for():
    """np.int64(3) as open_stock was "not allowed; allowed values: whole numbers 1..26",
    a stake of np.float64(2.0) was kept as NumPy, and information_state_tensor refused
    seat np.int64(1) as "not at this table; allowed values: 0..3" (an RL user's probe)."""
    german = make_game("german_whist", {"open_stock": np.int64(3), "race_to": np.int64(7)})
    assert (german.variant.open_stock, german.variant.race_to) == (3, 7)
    assert type(german.variant.open_stock) is int
    solo = make_game("solo_whist", {"stake": np.float64(2.0), "prop_and_cop": np.bool_(False)})
    assert type(solo.variant.stake) is float and solo.variant.prop_and_cop is False
    state = solo.new_deal(1, 0)
    for seat in np.arange(4):
        assert state.information_state_tensor(seat).shape == state.information_state_tensor(
            int(seat)).shape
    with pytest.raises(ValueError, match="seat = True is not at this table"):
        state.information_state_tensor(True)
    env = wenv.german_whist_v0({"open_stock": np.int64(2)})
    env.reset(seed=1)
    assert env.game.variant.open_stock == 2


@pytest.mark.parametrize(("game", "variant", "keys"), [
    ("german_whist", {"match": "best_of_3"}, "match"),
    ("solo_whist", {"session_hands": 5, "target": 20}, "session_hands, target"),
    ("minnesota_whist", {"target": 5}, "target"),
])
def test_a_match_key_is_warned_of_an_episode_being_one_hand(game, variant, keys):
    """`env("solo_whist", {"session_hands": 5})` built without a word and played one hand
    an episode (an RL probe): keys that set a match's length do nothing here, and the
    environment says so, naming them; the rules' other keys are quiet."""
    with pytest.warns(UserWarning, match=f"{keys}: .*an episode is one hand"):
        wenv.env(game, variant)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wenv.env(game, {})
