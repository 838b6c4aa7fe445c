"""Seating orders: at a table of three or more, who sits on whose left is not left to the
config's order.

A Knock-out probe: with ``random, heuristic, reckless`` at three seats, heuristic always
sat on random's left, and the seat after a weak player was worth more than the gap
between the other two; listing them the other way round reversed the ranking. Each
deal is now played in one circular order of its line-up, cycling through every order
(a line-up that repeats entrants: it and its mirror), so orders balance over the deals.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import polars as pl
import pytest

from whist_sim.tournament.schedule import (
    SEATING_ORDERS,
    arranged,
    arrangements,
    rotate,
    seating_scheme,
    seatings,
)


def _circular(order):
    """The order up to rotation: its rotation that sorts first."""
    return min(rotate(tuple(order), r) for r in range(len(order)))


def test_two_seats_and_duel_patterns_keep_their_one_order():
    assert arrangements(("a", "b")) == [("a", "b")]
    assert arrangements(("a", "b", "a")) == [("a", "b", "a")]
    assert arrangements(("a", "b", "a", "b", "a")) == [("a", "b", "a", "b", "a")]
    assert arrangements(("a", "b", "a", "b")) == [("a", "b", "a", "b")]


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_distinct_entrants_cycle_through_every_circular_order_each_once(seats):
    lineup = tuple("abcdefg"[:seats])
    orders = arrangements(lineup)
    assert orders[0] == lineup  # deal 0 as the config lists them
    assert len(orders) == math.factorial(seats - 1)
    assert len({_circular(order) for order in orders}) == len(orders)


@pytest.mark.parametrize("seats", [3, 4, 5, 7])
def test_each_order_is_followed_by_its_mirror_so_two_deals_balance_left_and_right(seats):
    orders = arrangements(tuple("abcdefg"[:seats]))[:40]
    for first, second in zip(orders[::2], orders[1::2], strict=True):
        assert _circular(second) == _circular((first[0], *reversed(first[1:])))


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_over_a_cycle_each_entrant_sits_on_each_others_left_equally_often(seats):
    lineup = tuple("abcdefg"[:seats])
    left_of = Counter()
    for order in arrangements(lineup):
        for seat, label in enumerate(order):
            left_of[label, order[(seat + 1) % seats]] += 1
    assert len(set(left_of.values())) == 1
    assert len(left_of) == seats * (seats - 1)


def test_a_lineup_that_repeats_entrants_alternates_with_its_mirror():
    lineup = ("a", "b", "c", "a")
    assert arrangements(lineup) == [lineup, ("a", "a", "c", "b")]


def test_the_order_of_a_deal_depends_on_its_index_only():
    lineup = ("a", "b", "c")
    assert [arranged(lineup, deal) for deal in range(4)] == [
        ("a", "b", "c"), ("a", "c", "b"), ("a", "b", "c"), ("a", "c", "b")]


@pytest.mark.parametrize("lineup", [("a", "b", "c"), ("a", "b", "c", "d"), ("a", "b", "c", "a")])
def test_every_order_seats_as_many_rotations_as_the_lineup(lineup):
    for order in arrangements(lineup):
        assert len(seatings(order)) == len(seatings(lineup))
        assert sorted(order) == sorted(lineup)


KNOCKOUT_THREE = """
[tournament]
game = "knockout_whist"
players = 3
deals = 4
seed = 21
deals_per_task = 1

[[strategies]]
use = "random"
label = "{first}"

[[strategies]]
use = "random"
label = "{second}"

[[strategies]]
use = "random"
label = "{third}"
"""


def test_a_round_robin_seats_each_entrant_on_each_others_left_as_often(tmp_path):
    """Three entrants at three seats over 4 deals: every entrant has each of the other two
    on its left in half the seated games."""
    from tests.tournament_helpers import assert_same_rows, make_run_without_ray, run_rows
    from whist_sim.store import RunFolder

    body = KNOCKOUT_THREE.format(first="x", second="y", third="z")
    path = make_run_without_ray(tmp_path / "one", body, per_task=1)
    # a deal's order is its index's: the same rows whatever the task size
    assert_same_rows(run_rows(path), run_rows(make_run_without_ray(tmp_path / "three", body,
                                                                   per_task=3)))
    folder = RunFolder.open(path)
    seated = (folder.scan("seats").filter(pl.col("hand") == 0)
              .select("pairing", "deal", "rotation", "seat", "strategy")
              .sort("pairing", "deal", "rotation", "seat").collect())
    left_of = Counter()
    for _, game in seated.group_by(["pairing", "deal", "rotation"], maintain_order=True):
        names = game["strategy"].to_list()
        for seat, name in enumerate(names):
            left_of[name, names[(seat + 1) % len(names)]] += 1
    assert set(left_of) == set(itertools.permutations("xyz", 2))
    assert len(set(left_of.values())) == 1


def test_a_resumed_runs_decision_counts_follow_each_deals_order(tmp_path):
    """A resumed run counts each entrant's committed decisions from the actions rows by
    line-up, seating and seat; with an order per deal, by the deal's order too."""
    import tomllib

    from tests.tournament_helpers import make_run_without_ray
    from whist_sim.store import RunFolder
    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import _committed_decisions

    body = (KNOCKOUT_THREE.format(first="x", second="y", third="z")
            .replace('use = "random"\nlabel = "y"', 'use = "heuristic"\nlabel = "y"')
            .replace('use = "random"\nlabel = "z"',
                     'use = "heuristic"\nlabel = "z"\nparams = { survival_weight = 0.0 }'))
    assert "heuristic" in body and "survival_weight" in body
    folder = RunFolder.open(make_run_without_ray(tmp_path, body, per_task=1))
    keys = ["pairing", "deal", "rotation", "hand", "seat"]
    actions = folder.scan("actions").filter(pl.col("chosen") & pl.col("seconds").is_not_null())
    seats = folder.scan("seats").select(*keys, "strategy")
    expected = dict(actions.join(seats, on=keys).group_by("strategy").len().collect().iter_rows())
    counted = _committed_decisions(folder, validate_config(tomllib.loads(body)))
    assert {label: n for label, (n, _) in counted.items()} == expected


def test_a_run_started_before_seating_orders_resumes_in_the_configs_order(tmp_path,
                                                                          monkeypatch):
    """A run whose run.json records no ``seating_orders`` was started by a whist_sim that
    seated every deal in the config's order: its resumed deals are seated so too, so one
    run never mixes the two and its rows are those the old version would have written."""
    import json

    from tests.tournament_helpers import (
        assert_same_rows,
        interrupt_in_process_at,
        run_rows,
        write_config,
    )
    from whist_sim.tournament import runner
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.run_records import DIGESTS, record_digests
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    body = KNOCKOUT_THREE.format(first="x", second="y", third="z")
    config = write_config(tmp_path, body)
    monkeypatch.setattr(runner, "seating_scheme", lambda partnerships: 1)  # an older one's
    whole = run_tournament(load_config(config), tmp_path / "old", workers=0, progress=False)
    interrupt_in_process_at(monkeypatch, 2)
    cut = run_tournament(load_config(config), tmp_path / "cut", workers=0, progress=False)
    monkeypatch.undo()
    assert cut.status == "interrupted"
    meta_path = cut.path / "run.json"
    meta = json.loads(meta_path.read_text())
    del meta["seating_orders"]  # an older whist_sim wrote neither it nor its digest
    meta[DIGESTS] = record_digests(meta)
    meta_path.write_text(json.dumps(meta))
    resumed = resume_tournament(cut.path, workers=0, progress=False)
    assert resumed.status == "complete"
    assert_same_rows(run_rows(whole.path), run_rows(resumed.path))
    fresh = run_tournament(load_config(config), tmp_path / "new", workers=0, progress=False)
    assert json.loads((fresh.path / "run.json").read_text())["seating_orders"] == 2
    orders = (run_rows(fresh.path)["deals"].filter(pl.col("rotation") == 0)
              .get_column("strategies").to_list())
    assert {tuple(order) for order in orders} == {("x", "y", "z"), ("x", "z", "y")}


def test_partnerships_keep_their_seats_partners_opposite():
    """Minnesota Whist's P1 Q1 P2 Q2 and its swap are its seatings: another circular order
    would part partners, so its runs record the config's order (1)."""
    assert seating_scheme(partnerships=True) == 1
    assert seating_scheme(partnerships=False) == SEATING_ORDERS == 2
    lineup = ("p1", "q1", "p2", "q2")
    assert {arranged(lineup, deal, 1) for deal in range(6)} == {lineup}


def test_the_reports_decision_counts_follow_each_deals_order(tmp_path):
    """The report found who made a decision by line-up, seating and seat, which no longer
    name one entrant once deals seat a line-up in several orders: each decision was
    counted for every entrant that ever held that seat (5,504 decisions where a Solo run
    held 3,573). With the deal's order in the key, each counts once."""
    from tests.tournament_helpers import make_run_without_ray
    from whist_sim.reports import analyses
    from whist_sim.reports.run_facts import seating_period
    from whist_sim.store import RunFolder

    body = (KNOCKOUT_THREE.format(first="x", second="y", third="z")
            .replace('use = "random"\nlabel = "y"', 'use = "heuristic"\nlabel = "y"'))
    folder = RunFolder.open(make_run_without_ray(tmp_path, body, per_task=1))
    keys = ["pairing", "deal", "rotation", "hand", "seat"]
    actions = folder.scan("actions").filter(pl.col("chosen") & pl.col("seconds").is_not_null())
    seats = folder.scan("seats").select(*keys, "strategy")
    expected = dict(actions.join(seats, on=keys).group_by("strategy").len().collect().iter_rows())
    period = seating_period(folder.meta())
    assert period == 2
    got = analyses.decision_times(folder.scan("actions"), folder.scan("deals"),
                                  folder.scan("seats"), period).collect()
    assert dict(zip(got["strategy"], got["decisions"], strict=True)) == expected


def test_the_period_is_the_orders_count_of_every_lineup_together():
    from whist_sim.tournament.schedule import arrangement_period

    assert arrangement_period([("a", "b")]) == 1
    assert arrangement_period([("a", "b", "c"), ("a", "b", "a")]) == 2
    assert arrangement_period([("a", "b", "c", "d"), ("a", "b", "c", "a")]) == 6
    assert arrangement_period([("a", "b", "c", "d", "e"), ("a", "b", "c")]) == 24
    seven = tuple("abcdefg")
    assert arrangement_period([seven]) == len(arrangements(seven)) == 720
    assert [arranged(seven, d) for d in range(720)] == arrangements(seven)


def _seating_row(meta, deal_indices, last_deal=None):
    from whist_sim.reports.run_section import seating_rows

    rows = seating_rows(meta, deal_indices, last_deal)
    return rows[0][1] if rows else None


def test_the_reports_run_section_says_how_deals_were_seated_and_if_cycles_are_whole():
    """A probe: a report read the same whether every deal sat in the config's order (a run
    started before seating orders, where at three seats the seat after a weak player could
    reverse a ranking) or deals cycled through the orders, and nowhere said how long a
    cycle is: 24 deals at five distinct seats, so 10 deals leave neighbours unequal."""
    five = {"game": "knockout_whist", "seating_orders": 2, "lineups": [list("abcde")]}
    assert _seating_row(five, 48) == (
        "each deal in turn through its line-up's circular orders, each followed by its"
        " mirror: a cycle of 24 deals, neighbours even every 4; the 48 deal indices played"
        " are 2 whole cycles")
    assert _seating_row(five, 10).endswith(
        "the 10 deal indices played are not a whole number of cycles, so not every entrant"
        " sat beside every other equally often")
    assert _seating_row(five, 12).endswith(
        "the 12 deal indices played are not a whole number of cycles, but each entrant had"
        " each other on its left equally often")
    assert "not the first ones" in _seating_row(five, 12, last_deal=30)
    four = {"game": "solo_whist", "seating_orders": 2, "lineups": [list("abcd")]}
    assert _seating_row(four, 12) == (
        "each deal in turn through its line-up's circular orders, each followed by its"
        " mirror: a cycle of 6 deals; the 12 deal indices played are 2 whole cycles")
    old = {**five}
    del old["seating_orders"]
    assert _seating_row(old, 48) == ("the config's order in every deal (a run started before"
                                     " seating orders)")
    duel = {"game": "knockout_whist", "seating_orders": 2, "lineups": [list("ababa")]}
    assert _seating_row(duel, 7) == "one order per line-up (its pattern has no other)"
    assert _seating_row({"game": "german_whist", "seating_orders": 2,
                         "lineups": [["a", "b"]]}, 10) is None
    assert _seating_row({"game": "minnesota_whist", "seating_orders": 1,
                         "lineups": [["p1", "q1", "p2", "q2"]]}, 10) is None


@pytest.mark.parametrize("seats", [3, 5, 7, 9])
def test_at_an_odd_table_every_seats_minus_one_deals_balance_the_neighbours(seats):
    """A probe: at five seats a cycle is 24 deals and at seven 720, and 10 deals at five
    seats gave one entrant another on its left 4 times and the rest 2. Walecki's
    decomposition of the complete graph into Hamiltonian cycles, each followed by its
    mirror, gives every entrant each other on its left once in the first seats - 1
    deals; the config's order still comes first."""
    lineup = tuple("abcdefghi"[:seats])
    first = [arranged(lineup, deal) for deal in range(seats - 1)]
    assert first[0] == lineup
    left_of = Counter((order[s], order[(s + 1) % seats]) for order in first
                      for s in range(seats))
    assert set(left_of) == set(itertools.permutations(lineup, 2))
    assert set(left_of.values()) == {1}


@pytest.mark.parametrize("seats", [6, 8])
def test_at_an_even_table_every_twice_seats_minus_one_deals_balance_the_neighbours(seats):
    """An even table has no decomposition into Hamiltonian cycles (each seat has an odd
    number of others), so six seats waited a whole cycle, 120 deals, for neighbours to
    be even. Every pair of seats twice has one: seats - 1 cycles, each followed by its
    mirror, give each entrant each other on its left twice in 2 (seats - 1) deals."""
    lineup = tuple("abcdefgh"[:seats])
    first = [arranged(lineup, deal) for deal in range(2 * (seats - 1))]
    assert first[0] == lineup
    assert len(set(first)) == len(first)
    left_of = Counter((order[s], order[(s + 1) % seats]) for order in first
                      for s in range(seats))
    assert set(left_of) == set(itertools.permutations(lineup, 2))
    assert set(left_of.values()) == {2}


def test_the_neighbour_period_is_seats_minus_one_at_odd_tables_of_different_entrants():
    from whist_sim.tournament.schedule import neighbour_period

    assert neighbour_period([tuple("abcde")]) == 4
    assert neighbour_period([tuple("abcdefg")]) == 6
    assert neighbour_period([tuple("abcd")]) == 6  # four seats: the whole cycle
    assert neighbour_period([tuple("abcdef")]) == 10  # where a whole cycle is 120
    assert neighbour_period([tuple("abcde"), tuple("abc")]) == 4
    assert neighbour_period([("a", "b", "c", "a")]) == 2
    assert neighbour_period([("a", "b")]) == 1


@pytest.mark.parametrize("key", ["seating_orders", "seat_seeding"])
@pytest.mark.parametrize("value", ["abc", 7, None, 2.5])
def test_a_scheme_run_json_does_not_know_is_refused_naming_the_file_and_values(key, value):
    """A hostile reading: a run.json whose seating_orders (or seat_seeding) read "abc"
    ended a resume and a report in a ValueError traceback; a number no version wrote was
    played as if it were 2."""
    from pathlib import Path

    from whist_sim.store import RunFolderError
    from whist_sim.tournament.run_records import recorded_scheme

    with pytest.raises(RunFolderError) as raised:
        recorded_scheme({key: value}, key, Path("run/run.json"))
    message = str(raised.value)
    assert message.startswith(f"run/run.json: {key} = ") and "allowed values: 1, 2" in message
    assert recorded_scheme({}, key, Path("run/run.json")) == 1  # runs before it was kept
    assert recorded_scheme({key: 2}, key, Path("run/run.json")) == 2


def test_a_report_of_a_run_json_with_an_unknown_seating_scheme_is_one_clear_error(tmp_path):
    import json

    from tests.tournament_helpers import make_run_without_ray
    from whist_sim.reports.run_facts import seating_period
    from whist_sim.store import RunFolder, RunFolderError

    folder = RunFolder.open(make_run_without_ray(
        tmp_path, KNOCKOUT_THREE.format(first="x", second="y", third="z")))
    meta = {**folder.meta(), "seating_orders": "abc"}
    with pytest.raises(RunFolderError, match='seating_orders = "abc"'):
        seating_period(meta, folder.path / "run.json")
    assert json.loads((folder.path / "run.json").read_text())["seating_orders"] == 2
