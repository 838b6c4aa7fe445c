"""What a hand a forfeit stopped tells the seat-by-seat comparisons: only that the forfeiting
seat lost to each other seat.

The forfeit pays the other seats alike (Solo Whist) or scores them drawn (Knock-out
Whist), so paired with one another they had equal nets and read as level play, which
pulled every two entrants towards a share of one half (a probe: heuristic against random
read 0.672 in a Knock-out run where a third entrant forfeited 133 of 300 games, 0.774
with those pairs left out). Hands are written by hand: strategies, nets and results per seat.
"""

from __future__ import annotations

import polars as pl
import pytest

from whist_sim.reports import analyses


def hand(deal_key: str, seats: list[tuple[str, float, str]]) -> list[dict]:
    """One hand's seat rows from (strategy, net, result) per seat."""
    pairing, deal, rotation, _ = (int(x) for x in deal_key.split("-"))
    return [{"deal_key": deal_key, "pairing": pairing, "deal": deal, "rotation": rotation,
             "seat": seat, "strategy": strategy, "net": net, "result": result}
            for seat, (strategy, net, result) in enumerate(seats)]


def compared(rows: list[dict], sides: bool = False) -> list[tuple[int, str, str, float]]:
    """(deal, strategy, opponent, share) of every seat pair compared, sorted."""
    pairs = analyses.seat_pairs(pl.LazyFrame(rows), sides).collect()
    return sorted(pairs.select("deal", "strategy", "opponent", "share").iter_rows())


def test_a_knockout_game_a_forfeit_stopped_compares_only_the_forfeiter():
    stopped = hand("0-1-0-0", [("heuristic", 1.0, "draw"), ("random", 1.0, "draw"),
                               ("flaky", -2.0, "forfeit")])
    assert compared(stopped) == [
        (1, "flaky", "heuristic", 0.0), (1, "flaky", "random", 0.0),
        (1, "heuristic", "flaky", 1.0), (1, "random", "flaky", 1.0)]


def test_the_forfeiters_other_seat_is_compared_with_nobody():
    """B forfeits at A B A B: the forfeit pays B's other seat as it pays A's; that seat did
    not beat or tie anyone by it."""
    stopped = hand("0-2-0-0", [("A", 9.0, "win"), ("B", -27.0, "forfeit"), ("A", 9.0, "win"),
                               ("B", 9.0, "win")])
    assert compared(stopped) == [(2, "A", "B", 1.0), (2, "A", "B", 1.0),
                                 (2, "B", "A", 0.0), (2, "B", "A", 0.0)]


def test_the_share_between_two_others_is_that_of_the_hands_played_out():
    played = hand("0-3-0-0", [("heuristic", 2.0, "win"), ("random", -1.0, "loss"),
                              ("flaky", -1.0, "loss")])
    stopped = hand("0-3-1-0", [("heuristic", 1.0, "draw"), ("random", 1.0, "draw"),
                               ("flaky", -2.0, "forfeit")])
    table = analyses.head_to_head(pl.LazyFrame(played + stopped)).collect()
    row = table.filter((pl.col("strategy") == "heuristic") & (pl.col("opponent") == "random"))
    assert (row["share"].item(), row["hands"].item()) == (pytest.approx(1.0), 1)
    flaky = table.filter((pl.col("strategy") == "flaky") & (pl.col("opponent") == "random"))
    assert (flaky["share"].item(), flaky["hands"].item()) == (pytest.approx(0.25), 2)


def test_a_two_seat_forfeit_is_the_ordinary_loss_it_was():
    stopped = hand("0-4-0-0", [("A", 3.0, "win"), ("B", -3.0, "forfeit")])
    assert compared(stopped) == [(4, "A", "B", 1.0), (4, "B", "A", 0.0)]


def test_a_table_of_benched_entrants_compares_nobody():
    """Every seat forfeits, nets 0, where every entrant at the table was benched: no seat
    played, so no two are level."""
    benched = hand("0-5-0-0", [("A", 0.0, "forfeit"), ("B", 0.0, "forfeit"),
                               ("C", 0.0, "forfeit")])
    assert compared(benched) == []
    partnerships = hand("0-5-1-0", [(name, 0.0, "forfeit") for name in "ABCD"])
    assert compared(partnerships, sides=True) == []  # Minnesota's level nets read as ties


def test_with_sides_a_forfeit_loses_the_forfeiters_partnership_the_hand():
    """Minnesota Whist: the forfeiting seat's side loses the hand, partner included, as the
    game scores it; partners are never compared."""
    stopped = hand("0-6-0-0", [("A", -13.0, "forfeit"), ("B", 13.0, "win"),
                               ("C", -13.0, "loss"), ("D", 13.0, "win")])
    assert compared(stopped, sides=True) == [
        (6, "A", "B", 0.0), (6, "A", "D", 0.0), (6, "B", "A", 1.0), (6, "B", "C", 1.0),
        (6, "C", "B", 0.0), (6, "C", "D", 0.0), (6, "D", "A", 1.0), (6, "D", "C", 1.0)]
