"""examples/train_german.py: the whole loop stays runnable.

Training for a few hands writes weights of the right shape; the shipped weights load
back as use = "policy" through examples/train_german.toml and play by the rules; the
config names the weights file as a parameter, so a resume refuses it once retrained. (Its
strength against random is measured by the duel in docs/environment.md, not here:
a few deals cannot show it.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from examples import train_german
from whist_sim.store import RunFolder, RunFolderError
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import resume_tournament, run_tournament

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


def test_the_shipped_policy_plays_the_example_config(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the config names the weights from the repository root
    config = load_config(ROOT / "examples" / "train_german.toml", {"deals": 4})
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    seats = RunFolder.open(summary.path).scan("seats").collect()
    trained = seats.filter(pl.col("strategy") == "trained")
    assert trained.height == 8 and trained.filter(pl.col("result") == "forfeit").height == 0


def test_the_example_config_names_its_weights_file_so_the_run_hashes_it(tmp_path, monkeypatch):
    """The example's policy opened examples/german_policy.npz by itself, a file no run
    hashed, and training writes over exactly that file by default."""
    monkeypatch.chdir(ROOT)
    config = load_config(ROOT / "examples" / "train_german.toml", {"deals": 2})
    entry = config.strategies[0]
    assert entry.params == {"callable": "examples.train_german:load_policy",
                            "weights": "examples/german_policy.npz"}
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    recorded = json.loads((summary.path / "run.json").read_text())["strategies"]["trained"]
    assert recorded["source"]["parameter_files"]["weights"]["file"] == str(
        train_german.WEIGHTS.resolve())


def test_retraining_the_example_weights_stops_a_resume_of_the_example_config(
        tmp_path, monkeypatch):
    """The example as a user runs it, in a copy of its folder: a run, then training again
    with the default --out (the file the config names), then a resume. The resume played
    on with the new weights without a word; now it is refused, naming the file."""
    (tmp_path / "examples").mkdir()
    weights = tmp_path / "examples" / "german_policy.npz"
    weights.write_bytes(train_german.WEIGHTS.read_bytes())
    monkeypatch.chdir(tmp_path)
    config = load_config(ROOT / "examples" / "train_german.toml",
                         {"deals": 4, "deals_per_task": 2})
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    monkeypatch.setattr(train_german, "WEIGHTS", weights)  # where --out points by default
    train_german.main(["--hands", "2"])
    with pytest.raises(RunFolderError, match=r"strategy 'trained' changed since the run"
                       r" started: the file of its parameter weights"
                       rf" \({re.escape(str(weights.resolve()))}\) is not the file"):
        resume_tournament(summary.path, workers=0, progress=False)


def test_load_policy_plays_the_weights_file_greedily():
    """At every decision of a hand, the legal action of the highest score under the
    file's weights."""
    from whist_sim.env import german_whist_v0

    loaded = train_german.load_policy(str(train_german.WEIGHTS))
    features, w = train_german.Features(), np.load(train_german.WEIGHTS)["w"]
    env = german_whist_v0()
    env.reset(seed=11)
    compared = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = loaded(observation)
        actions, f = features(observation)
        assert action == actions[int(np.argmax(f @ w))]
        env.step(action)
        compared += 1
    assert compared == 52


@pytest.mark.parametrize(("argv", "reason"), [
    (["--hands", "3", "--out", "{tmp}/missing/w.npz"], "does not exist"),
    (["--hands", "3", "--out", "{tmp}/w"], "name a .npz file"),
    (["--minutes", "0"], "train for more than 0 minutes"),
    (["--minutes", "-1"], "train for more than 0 minutes"),
    (["--hands", "0"], "train on at least 1 hand"),
    # NumPy's traceback before the first hand, then a NaN crash mid-training (a probe)
    (["--hands", "3", "--out", "{tmp}/w.npz", "--seed", "-1"],
     "--seed -1: give a whole number >= 0"),
    (["--hands", "3", "--out", "{tmp}/w.npz", "--lr", "nan"],
     "--lr nan: give a finite learning rate > 0"),
    (["--hands", "3", "--out", "{tmp}/w.npz", "--lr", "inf"],
     "--lr inf: give a finite learning rate > 0"),
    (["--hands", "3", "--out", "{tmp}/w.npz", "--lr", "0"],
     "--lr 0: give a finite learning rate > 0"),
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


def test_weights_of_other_features_are_refused_when_loaded_not_at_every_decision(tmp_path):
    """A weights file saved by another feature list (one feature added while
    experimenting) loaded without a word, then forfeited every hand with NumPy's
    "matmul: ... mismatch in its core dimension" (a probe's finding)."""
    short = tmp_path / "short.npz"
    np.savez(short, w=np.zeros(3), features=np.array(train_german.FEATURES[:3]))
    with pytest.raises(ValueError, match=r"holds 3 weights \(rank, trump, trump_rank\);"
                       r" this policy reads 16 features"):
        train_german.load_policy(str(short))
    renamed = tmp_path / "renamed.npz"
    names = ("spare", *train_german.FEATURES[1:])
    np.savez(renamed, w=np.zeros(len(names)), features=np.array(names))
    with pytest.raises(ValueError, match=r"its feature 1 is 'spare', this policy's is 'rank'"):
        train_german.load_policy(str(renamed))


def test_a_weights_file_without_w_is_refused_naming_the_arrays_it_holds(tmp_path):
    """A weights file saved by another trainer (its matrix named W) raised NumPy's
    "'w is not a file in the archive'", naming neither the file nor what it holds."""
    other = tmp_path / "other.npz"
    np.savez(other, W=np.zeros((2, 3)), game=np.array("german_whist"))
    with pytest.raises(ValueError, match=r"other\.npz holds no weights array 'w' \(it holds:"
                       r" W, game\); this policy reads the 'w' and 'features' arrays"):
        train_german.load_policy(str(other))
