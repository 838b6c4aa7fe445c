"""The compiled way of writing observations gives exactly what the NumPy reference gives.

``RealValues.emit`` writes an encoder's packed int out either with one compiled call
(``whist_sim.env.unpack.kernel``, ``compiled=True``, as the environment's encoders do) or
with NumPy and ``RealValues.numbers`` (``compiled=False``, the default of
``encoder_for``). At every step of random hands of every game and variant the
checks play, for every seat, the two give equal arrays of the same dtype and shape; so
do encoders sharing one trick history (as an environment's seats do) and encoders
keeping their own. Returned arrays are new ones: an observation kept by a learner is
not changed by the next.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.test_env_observations import CASES, case_id, random_deals
from whist_sim.env import WhistEnv, encoder_for
from whist_sim.env.unpack import kernel, unpack_numpy
from whist_sim.games import make_game

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


def test_the_kernel_equals_numpy_on_random_ints():
    rng = random.Random(5)
    write = kernel()
    numbers = np.array([rng.choice((0.0, 1 / 13, 5 / 13)) for _ in range(52)], np.float32)
    for _ in range(300):
        binary = rng.randint(52, 900)
        actions = rng.randint(1, 70)
        o_trick = rng.randint(0, binary - 52)
        nbytes = (binary + actions + 7) // 8
        bits = rng.getrandbits(binary + actions)
        value = rng.randint(1, 26) / 26
        size = binary + 52 + rng.randint(0, 9)
        tail = np.array([rng.random() for _ in range(size - binary)], np.float32)
        fast = np.full(size, 7.0, np.float32)
        fast_mask = np.full(actions, 3, np.int8)
        slow, slow_mask = fast.copy(), fast_mask.copy()
        write(bits.to_bytes(nbytes, "little"), numbers, value,
              np.array([binary, actions, o_trick], np.int64), tail, fast, fast_mask)
        unpack_numpy(bits, nbytes, slow, slow_mask, binary, actions)
        slow[binary:] = tail
        trick = [c for c in range(52) if bits >> (o_trick + c) & 1]
        slow[binary:binary + 52] = numbers
        slow[[binary + c for c in trick]] = value
        assert np.array_equal(fast, slow) and np.array_equal(fast_mask, slow_mask)


@pytest.mark.parametrize("game_name", ["german_whist", "solo_whist"])
def test_an_observation_kept_is_not_changed_by_the_next(game_name):
    env = WhistEnv(game_name)
    kept = []
    for seed in range(3):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            kept.append((observation, {k: v.copy() for k, v in observation.items()}))
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert len(kept) > 20
    for observation, copied in kept:
        for key in ("observation", "action_mask"):
            assert np.array_equal(observation[key], copied[key])
    assert not np.shares_memory(kept[0][0]["observation"], kept[1][0]["observation"])


def test_compiled_must_be_true_or_false():
    with pytest.raises(TypeError, match="compiled = 1: True or False"):
        encoder_for(make_game("german_whist"), compiled=1)


def test_the_environment_uses_the_compiled_path():
    env = WhistEnv("minnesota_whist")
    assert all(encoder.reals._kernel is not None for encoder in env._encoders)
    assert len({id(encoder.history) for encoder in env._encoders}) == 1
