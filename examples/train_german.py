"""Train a German Whist policy by self-play through the PettingZoo API, in NumPy only.

The whole loop, not a strong player:

1. ``whist_sim.env.german_whist_v0()`` is a PettingZoo AEC environment; both seats
   share one policy and play each other (self-play).
2. The policy is linear: each legal action gets a score ``w . features(obs, action)``
   over a few features read off the observation tensor (the card's rank and trump,
   whether it wins the trick, what the face-up stock card is worth, whether it is
   the highest card left in its suit, ...), and a softmax over the scores gives the
   action's probability. The features are computed from the observation dict only,
   by the layout's named slices (``layout.slice("hand")``): what any policy sees.
3. Learning is REINFORCE: after each hand, every decision of a seat is pushed
   towards (or away from) what it chose by the hand's reward (the deal's net score,
   given at the end). There is no baseline to subtract: the usual one, the mean
   return, is exactly 0 here, since the game is zero-sum and both seats share the
   policy (one seat's net is the other's loss).
4. The weights are saved to ``examples/german_policy.npz`` (``--out`` saves elsewhere);
   ``load_policy(weights)`` loads a saved file and plays it greedily (the best-scoring
   legal action), so a config plays it as ``use = "policy"`` with ``callable =
   "examples.train_german:load_policy"`` and ``params = { weights =
   "examples/german_policy.npz" }`` (``examples/train_german.toml``; its comment gives
   the same as a duel).

   The file is a parameter, not opened by the module itself, because a run records the
   SHA-256 of the files its parameters name and a resume refuses one that changed:
   training again writes over this very file by default, and a run resumed after it
   would have played its second half with other weights without a word.

Two checkpoints are two entrants of one duel::

    python -m whist_sim duel \\
        "policy(callable='examples.train_german:load_policy', weights='a.npz')" \\
        "policy(callable='examples.train_german:load_policy', weights='b.npz')" \\
        --game german_whist --max-deals 1000 --workers 0

Run it from the repository root (so ``examples`` imports): ``python
examples/train_german.py --minutes 3``. Same seed, same weights on one machine
(another CPU's matrix products may differ from the eleventh decimal on; the time budget
only decides how many hands are played: ``--hands N`` fixes that instead). The
shipped weights are ``--hands 6330``'s (27 s on the project's 2 shared cores; three
minutes play some 40,000 hands there: docs/environment.md).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

WEIGHTS = Path(__file__).with_name("german_policy.npz")

FEATURES = (
    "rank",                 # the card's rank, 2 = 0 .. A = 1
    "trump",                # the card is a trump
    "trump_rank",           # rank, for trumps only
    "lead_rank",            # leading: the card's rank
    "lead_trump",           # leading: a trump
    "lead_master",          # leading: the highest card left in its suit
    "wins",                 # following: the card wins the trick
    "wins_rank",            # following and winning: the rank spent
    "loses_rank",           # following and losing: the rank thrown away
    "wins_prize",           # stage 1, following: winning takes the face-up card, worth this
    "lead_prize_rank",      # stage 1, leading: rank x the face-up card's worth
    "stage2_wins",          # stage 2 (counted tricks), following: the card wins
    "stage2_lead_master",   # stage 2, leading: the highest card left in its suit
    "suit_length",          # cards held in the card's suit
    "take_rank",            # choosing a face-up card: its rank
    "take_trump",           # choosing a face-up card: a trump
)


class Features:
    """Per legal action, the feature vector, from the observation dict alone."""

    def __init__(self) -> None:
        from whist_sim.env.german_whist import german_whist_layout
        from whist_sim.games import make_game

        layout = german_whist_layout(make_game("german_whist"))
        self.s = {name: layout.slice(name) for name in layout.offsets}
        ranks = np.arange(52) % 13
        self.rank = ranks / 12.0
        self.suit = np.arange(52) // 13

    def __call__(self, observation: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        x = observation["observation"]
        actions = np.flatnonzero(observation["action_mask"])
        s = self.s
        hand = x[s["hand"]] > 0.5
        trick = np.flatnonzero(x[s["trick"]] > 0.5)
        played = (x[s["played"]] > 0.5).reshape(2, 52).any(axis=0)
        trump_onehot = x[s["trump"]]
        trump = int(np.argmax(trump_onehot)) if trump_onehot[:4].any() else -1
        take = x[s["phase"]][1] > 0.5
        stage2 = x[s["stage"]][1] > 0.5
        faceup = np.flatnonzero(x[s["faceup"]] > 0)
        prize = 0.0
        if len(faceup):
            card = faceup[0]
            prize = self.rank[card] + (1.0 if self.suit[card] == trump else 0.0)
        suits = self.suit[actions]
        rank = self.rank[actions]
        is_trump = (suits == trump).astype(float)
        f = np.zeros((len(actions), len(FEATURES)))
        if take:
            f[:, 14] = rank
            f[:, 15] = is_trump
            return actions, f
        gone = played | hand  # cards that are not out against this one
        master = np.array([not (~gone[c + 1:(s_ + 1) * 13]).any()
                           for c, s_ in zip(actions, suits, strict=True)], float)
        lengths = np.array([hand[s_ * 13:(s_ + 1) * 13].sum() for s_ in suits]) / 13.0
        f[:, 0] = rank
        f[:, 1] = is_trump
        f[:, 2] = is_trump * rank
        f[:, 13] = lengths
        if len(trick) == 0:
            f[:, 3] = rank
            f[:, 4] = is_trump
            f[:, 5] = master
            f[:, 10] = 0.0 if stage2 else rank * prize
            f[:, 12] = master if stage2 else 0.0
        else:
            lead = trick[0]
            lead_suit = self.suit[lead]
            wins = ((suits == lead_suit) & (actions > lead)) | (
                (suits == trump) & (lead_suit != trump))
            wins = wins.astype(float)
            f[:, 6] = wins
            f[:, 7] = wins * rank
            f[:, 8] = (1 - wins) * rank
            f[:, 9] = 0.0 if stage2 else wins * prize
            f[:, 11] = wins if stage2 else 0.0
        return actions, f


def load_policy(weights: str) -> Callable[[dict[str, np.ndarray]], int]:
    """The greedy policy of the weights saved in ``weights``: ``callable =
    "examples.train_german:load_policy"`` with ``params = { weights = "ckpt.npz" }`` (a
    path from the folder the run starts in). The path is a parameter so that the run
    hashes the file and a resume refuses it once retrained (module docstring, 4.)."""
    saved = np.load(weights)
    if "w" not in saved.files:  # NumPy said only "'w is not a file in the archive'"
        raise ValueError(f"{weights} holds no weights array 'w' (it holds:"
                         f" {', '.join(saved.files) or 'nothing'}); this policy reads the"
                         " 'w' and 'features' arrays train_german.py saves (--out FILE)")
    w = saved["w"]
    _check_features(weights, w, saved.get("features"))
    features = Features()

    def greedy(observation: dict[str, np.ndarray]) -> int:
        actions, f = features(observation)
        return int(actions[int(np.argmax(f @ w))])

    return greedy


def _check_features(weights: str, w: np.ndarray, names: np.ndarray | None) -> None:
    """Refuse, when loaded, weights saved for another feature list (a feature added while
    experimenting): they loaded without a word and then forfeited every hand with
    NumPy's matmul error (a probe's finding). A file without names is checked by size."""
    if w.shape != (len(FEATURES),):
        listed = f" ({', '.join(map(str, names))})" if names is not None else ""
        raise ValueError(f"{weights} holds {w.size} weights{listed}; this policy reads"
                         f" {len(FEATURES)} features: {', '.join(FEATURES)}")
    if names is not None:
        for number, (saved, read) in enumerate(zip(names, FEATURES, strict=False), 1):
            if str(saved) != read:
                raise ValueError(f"{weights} was trained on other features: its feature"
                                 f" {number} is {str(saved)!r}, this policy's is {read!r}")


def train(seconds: float, hands: int | None, seed: int, lr: float) -> tuple[np.ndarray, int]:
    """Self-play REINFORCE through the AEC API for ``seconds`` (or exactly ``hands``)."""
    from whist_sim.env import german_whist_v0

    env = german_whist_v0()
    features = Features()
    rng = np.random.default_rng(seed)
    w = np.zeros(len(FEATURES))
    started = time.perf_counter()
    played = 0
    env.reset(seed=seed)
    while (played < hands) if hands is not None else (time.perf_counter() - started < seconds):
        env.reset()
        trajectories: dict[str, list[np.ndarray]] = {a: [] for a in env.possible_agents}
        returns: dict[str, float] = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                returns[agent] = reward  # the deal's net, given at its end
                env.step(None)
                continue
            actions, f = features(observation)
            scores = f @ w
            p = np.exp(scores - scores.max())
            p /= p.sum()
            i = int(rng.choice(len(actions), p=p))
            # grad of log softmax: the chosen features minus their expectation
            trajectories[agent].append(f[i] - p @ f)
            env.step(int(actions[i]))
        for agent, grads in trajectories.items():
            if grads:
                w += lr * returns[agent] * np.sum(grads, axis=0) / len(grads)
        played += 1
    return w, played


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--hands", type=int, default=None, help="train on exactly N hands")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.05, help="learning rate")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    # checked before training, so no minutes of it are lost to a bad path at the end
    if args.hands is not None and args.hands < 1:
        parser.error(f"--hands {args.hands}: train on at least 1 hand")
    if args.hands is None and not args.minutes > 0:
        parser.error(f"--minutes {args.minutes:g}: train for more than 0 minutes (or give"
                     " --hands N); nothing trained would overwrite the weights with zeros")
    if args.seed < 0:  # NumPy's generator refuses it only with a traceback
        parser.error(f"--seed {args.seed}: give a whole number >= 0")
    if not (math.isfinite(args.lr) and args.lr > 0):  # nan or inf crashed mid-training on
        # NaN probabilities; 0 would overwrite the weights with zeros
        parser.error(f"--lr {args.lr:g}: give a finite learning rate > 0")
    if args.out.suffix != ".npz":
        parser.error(f"--out {args.out}: name a .npz file (NumPy would add .npz to the name,"
                     " and load_policy would not find the file it was given)")
    folder = args.out.resolve().parent
    if not folder.is_dir():
        parser.error(f"--out {args.out}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        parser.error(f"--out {args.out}: the folder {folder} is not writable")
    started = time.perf_counter()
    w, hands = train(args.minutes * 60, args.hands, args.seed, args.lr)
    np.savez(args.out, w=w, features=np.array(FEATURES))
    print(f"trained on {hands:,} self-play hands in {time.perf_counter() - started:.0f} s;"
          f" weights -> {args.out}")
    for name, value in sorted(zip(FEATURES, w, strict=True), key=lambda p: -abs(p[1])):
        print(f"  {name:20s} {value:+.3f}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
