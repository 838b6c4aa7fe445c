"""The columnar recording writes exactly the rows of the dict-by-dict recording it replaced.

Every game, several variants, with forfeits, a time limit and a crash replay: the same task
is played twice, once recorded each way, and every table must be equal (``actions.seconds``
is a measurement: only where it is null must agree). Also: what a strategy prints goes to
its entrant, and a hand replayed from a crash script is the hand it replays, forfeited.
"""

from __future__ import annotations

import dataclasses
import random

import polars as pl
import pytest

from strategies.random_play import RandomStrategy
from tests.recording_reference import ReferenceRecorder
from whist_sim.cards import cards_str
from whist_sim.games import make_game
from whist_sim.tournament import worker
from whist_sim.tournament.entrants import CrashScript
from whist_sim.tournament.recording import hands_text
from whist_sim.tournament.schedule import Plan
from whist_sim.tournament.worker import OUTSIDE_DECISIONS, TaskSpec, play_task

CASES = [
    ("german_whist", {}, None, ("random", "heuristic")),
    ("german_whist", {"open_stock": 3, "match": "best_of_3"}, None, ("heuristic", "random")),
    ("solo_whist", {"session_hands": 3}, None, ("heuristic", "random")),
    ("minnesota_whist", {"target": 5}, None, ("heuristic", "random")),
    ("knockout_whist", {"dogs_life": "first_knockout"}, 5, ("heuristic", "random")),
    ("german_whist", {}, None, ("tests.plugins.faulty:RaisesOnTrick5", "random")),
    ("german_whist", {"race_to": 7, "trumps": "none"}, None, ("heuristic", "random")),
    ("knockout_whist", {}, [3, 4], ("random", "heuristic")),
    ("solo_whist", {}, None, ("tests.test_recording:RaisesSometimes", "heuristic")),
]


def _spec(game: str, variant: dict, players: int | list[int] | None, uses: tuple[str, str],
          time_limit: float | None = None, **extra) -> TaskSpec:
    sizes = players if isinstance(players, list) else [players]
    tables = [make_game(game, variant, n) for n in sizes]
    lineups = [tuple("a" if seat % 2 == 0 else "b" for seat in range(t.players)) for t in tables]
    return TaskSpec(
        task=0, game=game, variant=variant, players=players, root_seed=3,
        plan=Plan(len(lineups), 6, 6 * len(lineups), tables[0].duplicate_rotations),
        lineups=lineups, strategies={"a": (uses[0], {}), "b": (uses[1], {})},
        time_limit=time_limit, on_error="forfeit", **extra,
    )


@pytest.mark.parametrize(("game", "variant", "players", "uses"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3][0]}" for c in CASES])
@pytest.mark.parametrize("time_limit", [None, 10.0], ids=["no-limit", "limit"])
def test_columns_equal_the_row_by_row_recording(monkeypatch, game, variant, players, uses,
                                                time_limit):
    spec = _spec(game, variant, players, uses, time_limit)
    _assert_same_tables(monkeypatch, spec)


def _assert_same_tables(monkeypatch, spec: TaskSpec) -> None:
    new_result = play_task(spec)
    new = new_result.tables
    monkeypatch.setattr(worker, "TaskRecorder", ReferenceRecorder)
    old_result = play_task(spec)
    old = old_result.tables
    # the live standings' decisions per entrant: the same counts (their seconds are measured)
    assert {k: v[0] for k, v in new_result.decisions.items()} == {
        k: v[0] for k, v in old_result.decisions.items()}
    assert all(v[1] > 0 for v in new_result.decisions.values())
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


def test_a_crash_script_replays_its_hand_and_forfeits_it(monkeypatch):
    plain = _spec("german_whist", {}, None, ("random", "heuristic"))
    first = pl.from_arrow(play_task(plain).tables["actions"]).filter(
        pl.col("deal_key") == "0-0-1-0")
    chosen = first.filter(pl.col("chosen"))
    replayed = [make_game("german_whist").parse_action(a) for a in chosen["action"][:7]]
    script = CrashScript(tuple(replayed), "(b) process died: SIGKILL")
    spec = _spec("german_whist", {}, None, ("random", "heuristic"),
                 scripts={(0, 0, 1, 0): script})
    tables = {t: pl.from_arrow(v) for t, v in play_task(spec).tables.items()}
    deal = tables["deals"].filter(pl.col("deal_key") == "0-0-1-0").row(0, named=True)
    seat = chosen["seat"][7]  # the seat to decide after the replayed actions died
    assert deal["status"] == "forfeit" and deal["forfeit_seat"] == seat
    assert "(b) process died: SIGKILL" in deal["error"]
    actions = tables["actions"].filter(pl.col("deal_key") == "0-0-1-0")
    assert actions.drop("seconds").equals(first.drop("seconds").head(actions.height))
    assert actions["seconds"].null_count() == actions.height  # replayed: nothing measured
    others = tables["actions"].filter(pl.col("deal_key") != "0-0-1-0")
    assert others.filter(pl.col("chosen"))["seconds"].null_count() == 0
    _assert_same_tables(monkeypatch, spec)


class RaisesSometimes(RandomStrategy):
    """Random play that raises at about one decision in 40 (a forfeit in the auction or in
    the play, wherever its seeded draw falls)."""

    def choose(self, view, rng):
        if rng.random() < 0.025:
            raise RuntimeError("unlucky")
        return super().choose(view, rng)


class Chatty(RandomStrategy):
    """Says which seat it is at every decision, and "hand" before each hand."""

    def begin_deal(self, hand, match) -> None:
        print("hand")

    def choose(self, view, rng):
        print(f"seat {view.seat}")
        return super().choose(view, rng)


def test_what_a_strategy_prints_goes_to_its_entrant():
    spec = _spec("german_whist", {}, None, ("tests.test_recording:Chatty", "random"), 10.0)
    result = play_task(spec)
    decisions = result.decisions["a"][0]
    lines = result.output["a"].splitlines()
    assert len(lines) == decisions > 0
    assert set(lines) == {"seat 0", "seat 1"}  # it sat in both seats, both rotations
    assert "b" not in result.output
    hands = result.deals  # heard before every hand: outside any decision
    assert result.output[OUTSIDE_DECISIONS] == "hand\n" * hands


def test_solo_tables_over_many_auctions_equal_the_states_rows(monkeypatch):
    """Solo's contracts and bids, built from arrays, over enough random auctions to meet
    throw-ins, cops, misere and abundance bids, and trumps named by the declarer."""
    spec = _spec("solo_whist", {}, None, ("heuristic", "random"))
    spec = dataclasses.replace(spec, plan=Plan(1, 60, 60, spec.plan.rotations))
    contracts = pl.from_arrow(play_task(spec).tables["contracts"])
    assert contracts["contract"].null_count() > 0 and contracts["contract"].n_unique() >= 4
    _assert_same_tables(monkeypatch, spec)


@pytest.mark.parametrize(("players", "variant", "uses"), [
    (7, {}, ("random", "heuristic")),
    (5, {"dogs_life": "first_knockout"}, ("tests.test_recording:RaisesSometimes", "random")),
])
def test_knockout_rounds_over_many_games_equal_the_states_rows(monkeypatch, players, variant,
                                                               uses):
    """Knock-out's rounds, dealers and cards dealt, built for every game at once, over games
    of every length, dogs, and games forfeited in any round."""
    spec = _spec("knockout_whist", variant, players, uses)
    spec = dataclasses.replace(spec, plan=Plan(1, 12, 12, spec.plan.rotations))
    rounds = pl.from_arrow(play_task(spec).tables["rounds"])
    assert rounds["round"].max() >= 4
    assert rounds["dog"].any() == ("dogs_life" in variant)
    _assert_same_tables(monkeypatch, spec)


def test_sure_tricks_of_many_hands_equal_sure_tricks():
    from whist_sim.games.solo_whist import high_cards, sure_tricks
    from whist_sim.tournament.recording import _suit_strength, sure_tricks_of

    pick = random.Random(11)
    masks = [0, (1 << 52) - 1] + [pick.getrandbits(52) for _ in range(400)]
    trumps = [pick.randrange(-1, 4) for _ in masks]
    import numpy as np

    got = sure_tricks_of(np.array(masks, np.uint64), np.array(trumps, np.int64))
    assert got.tolist() == [sure_tricks(m, t) for m, t in zip(masks, trumps, strict=True)]
    high = _suit_strength()[2]
    assert [sum(int(high[m >> (13 * s) & 0x1FFF]) for s in range(4)) for m in masks] == [
        high_cards(m) for m in masks]


def test_hands_text_fans_each_mask_as_cards_str_does():
    pick = random.Random(5)
    masks = [0, (1 << 52) - 1, 1, 1 << 51] + [pick.getrandbits(52) for _ in range(300)]
    import numpy as np

    assert hands_text(np.array(masks, np.uint64)).to_pylist() == [cards_str(m) for m in masks]


@pytest.mark.slow
def test_a_task_puts_the_garbage_collector_back_as_it_found_it(monkeypatch):
    """During a task the objects from before it are frozen and no full pass runs (see
    ``worker._old_objects_aside``); after it the collector is as it was."""
    import gc

    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    thirds, aside = [], []

    class Watching(RandomStrategy):
        """Notes the collector's third threshold at every decision, and whether the old
        objects are frozen at every 200th: ``gc.get_freeze_count`` walks every frozen
        object, and asked at each of the task's 624 decisions it took 38 s of the suite."""

        def choose(self, view, rng):
            if len(thirds) % 200 == 0:
                aside.append(gc.get_freeze_count() > frozen)
            thirds.append(gc.get_threshold()[2])
            return super().choose(view, rng)

    monkeypatch.setattr(worker, "build_strategy", lambda use, params, game: Watching())
    play_task(_spec("german_whist", {}, None, ("random", "random")))
    assert len(thirds) > 400 and all(third > thresholds[2] for third in thirds)
    assert len(aside) > 2 and all(aside)
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == frozen


def test_decision_seconds_keep_a_forfeits_failed_decision_apart_and_pad_the_unmeasured():
    """The task keeps every hand's times in one array: a forfeited hand's last measured
    decision (the one that failed, no action of it logged) goes to its entrant's total, not
    to the next hand's first action; a hand measured in part reads null after its last."""
    from types import SimpleNamespace

    import numpy as np

    from whist_sim.tournament.recording import _decision_seconds

    chosen = np.array([True, False, True, True, True, True])  # 3 chosen, then 2
    counts = np.array([4, 2])
    times = np.array([0.1, 0.2, 0.3, 9.0, 0.5])  # hand 0: 3 + the failed one; hand 1: 1 of 2
    outcomes = [SimpleNamespace(forfeit_seat=1), SimpleNamespace(forfeit_seat=None)]
    seconds, failed = _decision_seconds(chosen, counts, times, np.array([4, 1]),
                                        [("a", "b"), ("a", "b")], outcomes)
    assert np.allclose(seconds, [0.1, np.nan, 0.2, 0.3, 0.5, np.nan], equal_nan=True)
    assert failed == [("b", 9.0)]


def test_decision_totals_are_each_entrants_measured_actions():
    """``decision_totals`` reads only the log rows with a measured time: its decisions and
    seconds per entrant are the ``actions`` rows with seconds, entrant by entrant."""
    import pyarrow as pa

    result = play_task(_spec("german_whist", {}, None, ("random", "heuristic")))
    seats = pl.from_arrow(result.tables["seats"]).select("deal_key", "seat", "strategy")
    actions = pl.from_arrow(result.tables["actions"]).join(seats, on=["deal_key", "seat"])
    assert result.tables["actions"].schema.field("seconds").type == pa.float64()
    for label in ("a", "b"):
        timed = actions.filter((pl.col("strategy") == label) & pl.col("seconds").is_not_null())
        assert result.decisions[label][0] == timed.height > 0
        assert result.decisions[label][1] == pytest.approx(timed["seconds"].sum(), rel=1e-9)


@pytest.mark.parametrize("codes", [[0, 1, 1, 0], [2, 3], [0, 4], [5, 5], [6, 6, 6], [], [1],
                                   [0, 2], [7, 7], [3, 3, 3]])
def test_names_at_equals_arrows_take(codes):
    """The fixed-width gather (names as wide as each other, in 1, 2, 4 or 8 bytes) writes
    the strings ``take`` writes; other names (mixed widths, 3 bytes, a null) go to ``take``."""
    import numpy as np
    import pyarrow as pa

    from whist_sim.tournament.recording import names_at

    names = pa.array(["play", "take", "bid", "trump", None, "é1", "ab", "eightchr"])
    picked = np.array(codes, np.int64)
    made = names_at(names, picked)
    made.validate(full=True)
    assert made.type == pa.string() and made.equals(names.take(pa.array(picked)))


def test_deal_keys_are_formatted_as_deal_key_formats_them():
    import numpy as np

    from whist_sim.tournament.recording import DEAL_KEY, _deal_keys

    keys = [(0, 0, 0, 0), (12, 123456789012, 3, 1), (7, -1, 0, 2)]
    made = _deal_keys(np.array(keys, np.int64).reshape(-1, 4)).to_pylist()
    assert made == [DEAL_KEY % key for key in keys]
    assert _deal_keys(np.zeros((0, 4), np.int64)).to_pylist() == []


@pytest.mark.parametrize("game, players", [("german_whist", None), ("solo_whist", None),
                                           ("minnesota_whist", None), ("knockout_whist", 4)])
def test_a_recorder_of_no_hand_gives_every_table_empty(game, players):
    """A recorder no hand was added to (a notebook's, say; no task plays none) gives each
    of the game's tables with its schema and no row, and no decision to total, where
    the seats' offsets broke on the empty task."""
    from whist_sim.store import table_schema, tables_for
    from whist_sim.tournament.recording import TaskRecorder

    recorder = TaskRecorder(make_game(game, {}, players), "{}")
    tables = recorder.tables()
    assert set(tables) == set(tables_for(game))
    for name, table in tables.items():
        assert table.num_rows == 0
        assert table.schema == table_schema(name, game)
    assert recorder.decision_totals(["a", "b"]) == {"a": (0, 0.0), "b": (0, 0.0)}


def test_a_recorder_keeps_no_forfeits_whole_error_text_past_its_hand():
    """A task kept every forfeited hand's whole error text until its tables were built,
    in the outcome it kept: a strategy raising 50 MB texts took a supervised child past
    its 600 MiB limit (a clean clone's suite). The whole text is the task's to keep,
    once (``TaskResult.errors``); the recorder keeps the cut one."""
    from whist_sim.play import play_deal
    from whist_sim.tournament.recording import TaskRecorder

    class Raises(RandomStrategy):
        def choose(self, view, rng):
            raise ValueError("z" * 100_000)

    game = make_game("german_whist")
    recorder = TaskRecorder(game, "{}")
    errors: dict[str, str] = {}
    for deal in range(3):
        played = play_deal(game, [Raises(), RandomStrategy()], deal, on_error="forfeit")
        assert len(played.outcome.error) > 100_000
        cut = worker._cut_error(played.outcome.error, errors)
        recorder.add_hand((0, deal, 0, 0), ("raises", "random"), played, cut, [])
        del played
    kept = [entry[4].error for entry in recorder.entries]  # each hand's outcome, as kept
    assert all(len(text) < worker.ERROR_TEXT_LIMIT + 200 for text in kept), list(map(len, kept))
    assert len(errors) == 1  # the whole text, once
    deals = pl.from_arrow(recorder.tables()["deals"])
    assert deals["error"].to_list() == kept and (deals["status"] == "forfeit").all()
