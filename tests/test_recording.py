"""The columnar recording writes exactly the rows of the dict-by-dict recording it replaced.

Every game, several variants, with forfeits and a crash replay: the same task is played
twice, once recorded each way, and every table must be equal (``actions.seconds`` is a
measurement: only where it is null must agree).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.recording_reference import ReferenceRecorder
from whist_sim.games import make_game
from whist_sim.tournament import worker
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import TaskSpec, play_task

CASES = [
    ("german_whist", {}, None, ("random", "heuristic")),
    ("german_whist", {"open_stock": 3, "match": "best_of_3"}, None, ("heuristic", "random")),
    ("solo_whist", {"session_hands": 3}, None, ("heuristic", "random")),
    ("minnesota_whist", {"target": 5}, None, ("heuristic", "random")),
    ("knockout_whist", {"dogs_life": "first_knockout"}, 5, ("heuristic", "random")),
    ("german_whist", {}, None, ("tests.plugins.faulty:RaisesOnTrick5", "random")),
]


def _spec(game: str, variant: dict, players: int | None, uses: tuple[str, str]) -> TaskSpec:
    table = make_game(game, variant, players)
    lineup = tuple("a" if seat % 2 == 0 else "b" for seat in range(table.players))
    return TaskSpec(
        task=0, game=game, variant=variant, players=players, root_seed=3,
        plan=Plan(1, 6, 6, table.duplicate_rotations), lineups=[lineup],
        strategies={"a": (uses[0], {}), "b": (uses[1], {})}, time_limit=None,
        on_error="forfeit",
    )


@pytest.mark.parametrize(("game", "variant", "players", "uses"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3][0]}" for c in CASES])
def test_columns_equal_the_row_by_row_recording(monkeypatch, game, variant, players, uses):
    spec = _spec(game, variant, players, uses)
    new = play_task(spec).tables
    monkeypatch.setattr(worker, "TaskRecorder", ReferenceRecorder)
    old = play_task(spec).tables
    assert set(new) == set(old)
    for table in new:
        assert new[table].schema == old[table].schema, table
        a, b = pl.from_arrow(new[table]), pl.from_arrow(old[table])
        if table == "actions":
            assert a["seconds"].is_null().equals(b["seconds"].is_null())
            a, b = a.drop("seconds"), b.drop("seconds")
        assert a.equals(b), table


VARIANTS = [{}, {"open_stock": 3}, {"open_stock": 26}, {"trumps": "none"},
            {"race_to": 7}, {"count": "all"}, {"open_stock": 2, "trumps": "none"}]


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_german_trick_facts_read_off_the_log_equal_a_replay(variant):
    from strategies.random_play import RandomStrategy
    from whist_sim.play import play_deal

    game = make_game("german_whist", variant)
    for seed in range(40):
        state = play_deal(game, [RandomStrategy(), RandomStrategy()], seed, seed % 2).state
        assert state.trick_facts() == state.trick_facts_by_replay(), seed
