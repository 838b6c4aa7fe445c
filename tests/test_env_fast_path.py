"""The compiled encoders give exactly what the reference encoders give.

``encoder_for(game, compiled=True)`` (as the environment's encoders are) hands a view's
fields to one numba kernel per game (``whist_sim.env.compiled``); ``compiled=False``
(the default) is the reference: a packed int unpacked with NumPy and
``RealValues``. At every step of random hands of every game and variant the checks
play, for every seat, the two give equal arrays of the same dtype and shape; so do
encoders sharing one trick history (as an environment's seats do) and encoders keeping
their own. An observation kept by a learner, or any part of it, is not changed by
the next; arrays no one holds are written again.
"""

from __future__ import annotations

import random
import weakref

import numpy as np
import pytest

from tests.test_env_observations import CASES, audit_findings, case_id, random_deals, tensor_kind
from tests.view_audit import FieldAudit
from whist_sim.env import WhistEnv, encoder_for, layout_for
from whist_sim.env.compiled import CompiledEncoder, CompiledHistory
from whist_sim.env.history import PlayHistory
from whist_sim.games import make_game
from whist_sim.games.base import TrickRecord

FAST_CASES = [*CASES, ("knockout_whist", {}, 7)]


@pytest.mark.parametrize("case", FAST_CASES, ids=case_id)
def test_the_compiled_path_equals_the_reference_at_every_step(case):
    game_name, variant, players = case
    game = make_game(game_name, variant, players)
    first = encoder_for(game, compiled=True)
    shared = [first] + [encoder_for(game, True, first.history)
                        for _ in range(1, game.players)]
    reference = [encoder_for(game, compiled=False) for _ in range(game.players)]
    deal = None
    steps = 0
    for _, state in random_deals(game_name, variant, players, deals=4):
        if state is not deal:  # a new deal: reset, as the environment does
            deal = state
            for encoder in shared + reference:
                encoder.reset()
        for seat in range(game.players):
            view = state.view(seat)
            obs, mask = shared[seat].encode(view)
            ref_obs, ref_mask = reference[seat].encode(view)
            assert obs.dtype == ref_obs.dtype == np.float32
            assert mask.dtype == ref_mask.dtype == np.int8
            assert obs.shape == ref_obs.shape and mask.shape == ref_mask.shape
            assert np.array_equal(obs, ref_obs), (
                f"seat {seat}: entries {np.flatnonzero(obs != ref_obs).tolist()} differ")
            assert np.array_equal(mask, ref_mask), f"seat {seat}: the masks differ"
            steps += 1
    assert steps > 100


@pytest.mark.parametrize("case", FAST_CASES, ids=case_id)
def test_a_compiled_encoder_with_its_own_history_equals_the_reference(case):
    """Views of every seat, one encoder each way for the whole table: the kept history
    and caches follow views in any seat order."""
    game_name, variant, players = case
    game = make_game(game_name, variant, players)
    compiled, reference = encoder_for(game, compiled=True), encoder_for(game)
    deal = None
    for _, state in random_deals(game_name, variant, players, deals=2):
        if state is not deal:
            deal = state
            compiled.reset()
            reference.reset()
        for seat in reversed(range(game.players)):
            view = state.view(seat)
            obs, mask = compiled.encode(view)
            ref_obs, ref_mask = reference.encode(view)
            assert np.array_equal(obs, ref_obs) and np.array_equal(mask, ref_mask), (
                f"seat {seat}: entries {np.flatnonzero(obs != ref_obs).tolist()} differ")


KEEPS = {
    "the whole observation": lambda observation: observation,
    "only its mask": lambda observation: {"action_mask": observation["action_mask"]},
    "a slice of its tensor": lambda observation: {"observation": observation["observation"][3:40]},
}


@pytest.mark.parametrize("game_name", ["german_whist", "solo_whist", "minnesota_whist",
                                       "knockout_whist"])
def test_an_observation_kept_is_not_changed_by_the_next(game_name):
    """Whatever a learner keeps of an observation (the dict, one of its arrays, a view
    of one) is never written again, although arrays no one holds are."""
    env = WhistEnv(game_name)
    kept = []
    for seed in range(3):
        env.reset(seed=seed)
        for step, _ in enumerate(env.agent_iter()):
            observation, _, terminated, truncated, _ = env.last()
            if step % 2 == 0:  # every other one is dropped, free to be written again
                keep = list(KEEPS.values())[step // 2 % len(KEEPS)]
                part = keep(observation)
                kept.append((part, {key: value.copy() for key, value in part.items()}))
            if terminated or truncated:
                env.step(None)
                continue
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            del observation
            env.step(action)
    assert len(kept) > 20
    for part, copied in kept:
        for key, value in part.items():
            assert np.array_equal(value, copied[key])


def test_an_observation_no_one_holds_is_written_again_rather_than_made_anew():
    """Making and freeing two arrays was a tenth of a German Whist step in a learner's
    loop; an observation dropped is written over by a later one instead."""
    env = WhistEnv("german_whist")
    env.reset(seed=0)
    first = env.observe("player_0")
    array, mask = weakref.ref(first["observation"]), weakref.ref(first["action_mask"])
    kept = env.observe("player_0")  # held: the next is another pair
    assert kept["observation"] is not array() and not np.shares_memory(kept["observation"],
                                                                       array())
    del first
    again = env.observe("player_0")
    assert again["observation"] is array() and again["action_mask"] is mask()
    assert np.array_equal(again["observation"], kept["observation"])


def test_compiled_must_be_true_or_false():
    with pytest.raises(TypeError, match="compiled = 1: True or False"):
        encoder_for(make_game("german_whist"), compiled=1)


def test_the_environment_uses_the_compiled_path():
    env = WhistEnv("minnesota_whist")
    assert all(isinstance(encoder, CompiledEncoder) for encoder in env._encoders)
    assert len({id(encoder.history) for encoder in env._encoders}) == 1


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_compiled_tensor_shows_no_hidden_card(case):
    """The seat-view audit of tests/test_env_observations.py over the compiled
    encoders' tensors, as the environment builds them (one history for the table)."""
    game_name, variant, players = case
    game = make_game(game_name, variant, players)
    audit = FieldAudit(tensor_kind(layout_for(game)))
    deal = None
    for _, state in random_deals(game_name, variant, players, deals=2):
        if state is not deal:
            deal = state
            first = encoder_for(game, compiled=True)
            encoders = {0: first} | {seat: encoder_for(game, True, first.history)
                                     for seat in range(1, game.players)}
        findings = audit_findings(game, state, audit, encoders)
        assert not findings, findings[:3]
    assert audit.views_checked > 50 and audit.ints_checked > 1000


def _summary(history: CompiledHistory) -> tuple[list[int], list[float]]:
    """A ``CompiledHistory``'s bytes read back as the reference keeps them: cards per
    seat, and per card its trick number over the scale."""
    played, numbers = [0] * history.players, [0.0] * 52
    data, i, number = history.played, 0, 0
    while i < len(data):
        count, number = data[i], number + 1
        for seat, card in zip(data[i + 1:i + 1 + count], data[i + 1 + count:i + 1 + 2 * count],
                              strict=True):
            played[seat] |= 1 << card
            numbers[card] = float(np.float32(number / history.scale))
        i += 1 + 2 * count
    return played, numbers


@pytest.mark.parametrize("listed", [False, True], ids=["from_the_leader", "trick_players"])
def test_the_compiled_history_follows_tricks_as_the_reference_does(listed):
    """Whole and short tricks, seats listed or from the leader, views that extend the
    summary, repeat it in a new tuple, go back or start another deal."""
    rng = random.Random(7)
    players = 4
    compiled, reference = CompiledHistory(players, 13), PlayHistory(players, 13)
    for _ in range(40):
        deck = rng.sample(range(52), 52)
        records, seats = [], []
        for number in range(1, 11):
            size = rng.choice((players, players, players - 1, 2))
            leader = rng.randrange(players)
            cards = tuple(deck[:size])
            del deck[:size]
            records.append(TrickRecord(number, leader, cards, leader))
            seats.append(tuple(rng.sample(range(players), size)) if listed
                         else tuple((leader + i) % players for i in range(size)))
        for end in [*sorted(rng.sample(range(11), 6)), rng.randrange(11), 10]:
            tricks = tuple(records[:end])
            compiled.sync(tricks, seats if listed else None)
            reference.sync(tricks, seats if listed else None)
            played, numbers = _summary(compiled)
            assert played == reference.played
            assert numbers == reference.numbers.tolist()


OBSERVATIONS_DIGEST = """
import hashlib, sys
import whist_sim.env as wenv
digest = hashlib.sha256()
for name, players in (("german_whist", None), ("solo_whist", None), ("minnesota_whist", None),
                      ("knockout_whist", 3)):
    env = wenv.WhistEnv(name, None, players)
    env.reset(seed=7)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        digest.update(observation["observation"].tobytes())
        digest.update(observation["action_mask"].tobytes())
        env.step(int(observation["action_mask"].nonzero()[0][-1]))
print(digest.hexdigest())
"""


def test_the_environment_works_and_agrees_under_numbas_debugging_switch():
    """NUMBA_DISABLE_JIT=1 runs compiled code as Python, where numba's bit intrinsics
    cannot run: no environment could be built (an RL user's probe). The bit helpers
    have Python twins there, and every observation is the compiled run's to the byte."""
    import os
    import subprocess
    import sys

    runs = {}
    for switch in ("0", "1"):
        done = subprocess.run([sys.executable, "-c", OBSERVATIONS_DIGEST], capture_output=True,
                              text=True, timeout=600,
                              env={**os.environ, "NUMBA_DISABLE_JIT": switch})
        assert done.returncode == 0, done.stderr[-2000:]
        runs[switch] = done.stdout.strip()
    assert runs["0"] == runs["1"]
