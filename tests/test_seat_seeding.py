"""Seat generators are seeded one-way from the deal, and old runs resume with their own rule."""

from __future__ import annotations

import json

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.play import SEAT_SEEDING, seat_seed
from whist_sim.rng import derive_seed, splitmix64
from whist_sim.tournament import executors, runner
from whist_sim.tournament.config import load_config
from whist_sim.tournament.runner import resume_tournament, run_tournament


def test_a_seat_seed_is_a_one_way_hash_of_the_deal_seed():
    assert SEAT_SEEDING == 2
    assert seat_seed(123, 1) == derive_seed(123, "seat", 1)
    assert seat_seed(123, 1, seeding=1) == splitmix64(123 ^ (0xA5A5_0000 + 1))
    assert len({seat_seed(123, seat) for seat in range(7)}) == 7


def _reachable(root: object, depth: int = 6) -> list[object]:
    """Everything reachable from ``root`` through what a strategy can read without walking
    the interpreter: attributes (``vars``, slots), containers, closures, bound methods."""
    seen: dict[int, object] = {}
    frontier = [root]
    for _ in range(depth):
        found = []
        for item in frontier:
            if id(item) in seen or isinstance(item, type):
                continue
            seen[id(item)] = item
            if isinstance(item, dict):
                found += [*item.keys(), *item.values()]
            elif isinstance(item, (list, tuple, set, frozenset)):
                found += list(item)
            found += [getattr(item, name, None) for name in
                      ("__self__", "__closure__", "__wrapped__", "args", "keywords", "func")]
            found += [cell.cell_contents for cell in getattr(item, "__closure__", None) or ()]
            if hasattr(item, "__dict__"):
                found.append(vars(item))
        frontier = found
    return list(seen.values())


def test_the_generator_a_strategy_is_handed_holds_nothing_of_the_deal_seed():
    """Before its first draw the generator is not yet seeded: what it keeps must not be the
    deal's seed (``vars(rng)`` gave it, and with it every hidden card)."""
    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    deal_seed = 987_654_321_123
    handed = []

    class LooksOnce(RandomStrategy):
        def choose(self, view, rng):
            if not handed:  # the generator as the strategy first sees it, before a draw
                handed.append(_reachable(rng))
            return super().choose(view, rng)

    play_deal(make_game("german_whist"), [LooksOnce(), RandomStrategy()], deal_seed)
    texts = {str(deal_seed), hex(deal_seed)}
    for item in handed[0]:
        assert item != deal_seed and not (isinstance(item, (str, bytes))
                                          and any(t in str(item) for t in texts)), item


def test_a_run_started_with_the_old_seeding_resumes_with_it(tmp_path, monkeypatch):
    config = load_config(write_config(tmp_path, quick_config(deals=6, per_task=2)))
    monkeypatch.setattr(runner, "SEAT_SEEDING", 1)  # a run as an older version started it
    reference = run_tournament(config, tmp_path / "old", workers=0, progress=False)
    assert json.loads((reference.path / "run.json").read_text())["seat_seeding"] == 1
    real = executors.InProcessExecutor.next_result
    calls = {"n": 0}

    def interrupted(self):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(executors.InProcessExecutor, "next_result", interrupted)
    stopped = run_tournament(config, tmp_path / "stopped", workers=0, progress=False)
    monkeypatch.setattr(executors.InProcessExecutor, "next_result", real)
    monkeypatch.setattr(runner, "SEAT_SEEDING", 2)  # the new version resumes it
    meta = json.loads((stopped.path / "run.json").read_text())
    del meta["seat_seeding"]  # and runs from before the key was recorded mean rule 1
    del meta["records_sha256"]  # (written by later versions still: such a run has none)
    (stopped.path / "run.json").write_text(json.dumps(meta))
    resumed = resume_tournament(stopped.path, workers=0, progress=False)
    assert_same_rows(run_rows(resumed.path), run_rows(reference.path))
