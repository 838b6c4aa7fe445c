"""examples/train_german.py: the whole loop stays runnable.

Training for a few hands writes weights of the right shape; the shipped weights load
back as use = "policy" through examples/train_german.toml and play by the rules. (Its
strength against random is measured by the duel in docs/environment.md, not here:
a few deals cannot show it.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from examples import train_german
from whist_sim.store import RunFolder
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]


def test_training_writes_one_weight_per_feature(tmp_path, capsys):
    out = tmp_path / "w.npz"
    train_german.main(["--hands", "3", "--out", str(out)])
    saved = np.load(out)
    assert saved["w"].shape == (len(train_german.FEATURES),)
    assert list(saved["features"]) == list(train_german.FEATURES)
    assert "trained on 3 self-play hands" in capsys.readouterr().out


def test_the_same_seed_trains_the_same_weights():
    a, _ = train_german.train(0, 4, seed=3, lr=0.05)
    b, _ = train_german.train(0, 4, seed=3, lr=0.05)
    assert np.array_equal(a, b) and a.any()


def test_the_shipped_policy_plays_the_example_config(tmp_path):
    config = load_config(ROOT / "examples" / "train_german.toml", {"deals": 4})
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    seats = RunFolder.open(summary.path).scan("seats").collect()
    trained = seats.filter(pl.col("strategy") == "trained")
    assert trained.height == 8 and trained.filter(pl.col("result") == "forfeit").height == 0


def test_a_saved_checkpoint_loads_back_as_the_same_greedy_policy():
    """load_policy(weights) plays the file it is given as policy plays the shipped one."""
    from whist_sim.env import german_whist_v0

    loaded = train_german.load_policy(str(train_german.WEIGHTS))
    env = german_whist_v0()
    env.reset(seed=11)
    compared = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = loaded(observation)
        assert action == train_german.policy(observation)
        env.step(action)
        compared += 1
    assert compared == 52


@pytest.mark.parametrize(("argv", "reason"), [
    (["--hands", "3", "--out", "{tmp}/missing/w.npz"], "does not exist"),
    (["--hands", "3", "--out", "{tmp}/w"], "name a .npz file"),
    (["--minutes", "0"], "train for more than 0 minutes"),
    (["--minutes", "-1"], "train for more than 0 minutes"),
    (["--hands", "0"], "train on at least 1 hand"),
])
def test_a_bad_option_is_refused_before_any_training(tmp_path, capsys, argv, reason):
    """A missing folder ended three minutes of training in a traceback, and --minutes 0
    overwrote the shipped weights with zeros (an RL user's probe)."""
    shipped = train_german.WEIGHTS.read_bytes()
    with pytest.raises(SystemExit) as stopped:
        train_german.main([a.format(tmp=tmp_path) for a in argv])
    assert stopped.value.code == 2
    assert reason in capsys.readouterr().err
    assert train_german.WEIGHTS.read_bytes() == shipped
