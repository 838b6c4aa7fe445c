"""Reports: each analysis on a tiny hand-built run folder, numbers worked out by hand here.

The fixture (``hand_built_run``) is three entrants A, B, C in a two-player
round robin: line-ups (A, B), (A, C), (B, C), deal indices 0 and 1, each played
in both seat rotations, one hand each: 12 hands, 6 duplicate pairs. Seat 0
always deals. ``FIRST_NET`` gives the net points of the line-up's first entrant
in each hand; its opponent has the opposite.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from random import Random
from typing import Any

import polars as pl
import pytest
from scipy import stats as sps

from whist_sim.reports import analyses, build, plots
from whist_sim.reports import german_whist as gw
from whist_sim.reports.build import build_report
from whist_sim.reports.document import Section, Table, fmt_ci
from whist_sim.reports.render import render_markdown
from whist_sim.reports.stats import (
    ELO_PER_LOGIT,
    bradley_terry,
    no_spread_bounds,
    ratio_interval,
    t_interval,
    wilson_interval,
)
from whist_sim.store import TABLES, RunFolder, RunFolderError, to_arrow
from whist_sim.tournament.schedule import Plan, lineups, rotate
from whist_sim.tournament.worker import TaskSpec, play_task

GAME = "german_whist"
LINEUPS = [("A", "B"), ("A", "C"), ("B", "C")]
FIRST_NET = {
    # (pairing, deal, rotation): net of the line-up's first entrant
    (0, 0, 0): 3.0, (0, 0, 1): 1.0, (0, 1, 0): -2.0, (0, 1, 1): 4.0,
    (1, 0, 0): 2.0, (1, 0, 1): 0.0, (1, 1, 0): -1.0, (1, 1, 1): 5.0,
    (2, 0, 0): -3.0, (2, 0, 1): -1.0, (2, 1, 0): 1.0, (2, 1, 1): -3.0,
}
FORFEITS = {(2, 1, 1): "second boom", (2, 0, 1): "first boom"}  # B forfeits these hands
TRUMP = {(1, 0, 0): "none"}  # otherwise spades
STAGE2 = {(0, 0, 0): [9, 4], (0, 0, 1): [6, 7], (1, 0, 0): [7, 6]}  # otherwise [7, 6]


def trick(key: tuple[int, int, int], number: int, leader: int, winner: int, faceup: str | None,
          taken: str | None, could_win: bool, stage: int = 1) -> dict[str, Any]:
    return {
        **key_columns(key), "trick": number, "stage": stage, "leader": leader,
        "cards": ["2C", "3C"], "winner": winner, "faceup": faceup, "taken": taken,
        "follower_could_win": could_win,
    }


def key_columns(key: tuple[int, int, int]) -> dict[str, Any]:
    pairing, deal, rotation = key
    return {"deal_key": f"{pairing}-{deal}-{rotation}-0", "pairing": pairing, "deal": deal,
            "rotation": rotation, "hand": 0}


TRICKS = [
    # (0, 0, 0): A in seat 0, B in seat 1
    trick((0, 0, 0), 1, leader=0, winner=1, faceup="AS", taken="AS", could_win=True),  # B wins AS
    trick((0, 0, 0), 2, leader=1, winner=1, faceup="KH", taken="KH", could_win=True),  # A ducks KH
    trick((0, 0, 0), 3, leader=1, winner=1, faceup="2S", taken="2S", could_win=False),  # no choice
    trick((0, 0, 0), 14, leader=0, winner=1, faceup=None, taken=None, could_win=True, stage=2),
    # (0, 0, 1): B in seat 0, A in seat 1
    trick((0, 0, 1), 1, leader=0, winner=1, faceup="AS", taken="AS", could_win=True),  # A wins AS
    trick((0, 0, 1), 2, leader=1, winner=0, faceup="KH", taken="KH", could_win=True),  # B wins KH
    trick((0, 0, 1), 3, leader=0, winner=0, faceup="KC", taken="KC", could_win=True),  # A ducks KC
    # (1, 0, 0): A in seat 0, C in seat 1, no trumps, open stock and race_to leftovers
    trick((1, 0, 0), 1, leader=1, winner=0, faceup="QH 3C", taken="3C", could_win=True),  # A: 3C
    trick((1, 0, 0), 2, leader=0, winner=0, faceup="7S", taken=None, could_win=True),  # C ducks 7S
    trick((1, 0, 0), 3, leader=0, winner=1, faceup="QH 9C", taken=None, could_win=True),  # unknown
    # (2, 0, 1): C in seat 0, B in seat 1; B forfeits this hand later
    trick((2, 0, 1), 1, leader=0, winner=1, faceup="AH", taken="AH", could_win=True),
]


def hand_built_rows() -> dict[str, list[dict[str, Any]]]:
    rows: dict[str, list[dict[str, Any]]] = {table: [] for table in TABLES}
    for key, first_net in FIRST_NET.items():
        pairing, deal, rotation = key
        seated = rotate(LINEUPS[pairing], rotation)
        forfeit_seat = seated.index("B") if key in FORFEITS else None
        for seat, label in enumerate(seated):
            net = first_net if label == LINEUPS[pairing][0] else -first_net
            result = "win" if net > 0 else "loss" if net < 0 else "draw"
            if seat == forfeit_seat:
                result = "forfeit"
            rows["seats"].append({
                **key_columns(key), "seat": seat, "strategy": label, "is_dealer": seat == 0,
                "tricks": 13, "score": max(net, 0.0), "net": net, "result": result,
            })
        rows["deals"].append({
            **key_columns(key), "task": 0, "game": GAME, "game_version": 1,
            "variant": json.dumps({"count": "all"}), "seed": deal, "dealer": 0,
            "trump": TRUMP.get(key, "S"), "upcard": "AS", "hands": ["", ""], "stock": "",
            "strategies": list(seated), "status": "forfeit" if key in FORFEITS else "ok",
            "forfeit_seat": forfeit_seat, "error": FORFEITS.get(key),
            "stage1_tricks": [6, 7], "stage2_tricks": STAGE2.get(key, [7, 6]),
            "tricks_played": 26, "race_winner": None,
        })
    rows["tricks"] = TRICKS
    return rows


META = {
    "config": {"tournament": {"game": GAME, "deals": 2, "seed": 5}, "variant": {"count": "all"},
               "strategies": [{"use": "random", "label": x, "params": {}} for x in "ABC"]},
    "root_seed": 5, "status": "complete", "game": GAME,
}


@pytest.fixture
def hand_built_run(tmp_path: Path) -> RunFolder:
    folder = RunFolder.create(tmp_path / "hand-built", META)
    rows = hand_built_rows()
    folder.commit_task(0, {table: to_arrow(table, GAME, rows[table]) for table in TABLES})
    return RunFolder.open(folder.path)


def by_strategy(df: pl.DataFrame, *keys: str) -> dict[Any, dict[str, Any]]:
    return {
        (row[keys[0]] if len(keys) == 1 else tuple(row[k] for k in keys)): row
        for row in df.iter_rows(named=True)
    }


def t_half(values: list[float]) -> float:
    """Half-width of the 95% t-interval, by the textbook formula."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)


# -- statistics helpers ---------------------------------------------------------------------


def test_t_interval_is_mean_plus_minus_t_times_standard_error():
    got = t_interval([2.0, 1.0, 1.0, 2.0])
    assert got.estimate == 1.5
    assert got.lo == pytest.approx(1.5 - t_half([2, 1, 1, 2]))
    assert got.hi == pytest.approx(1.5 + 3.182446 * math.sqrt(1 / 3) / 2, rel=1e-6)
    assert math.isnan(t_interval([1.0]).lo)


def test_wilson_interval_matches_the_score_formula():
    got = wilson_interval(5, 10)
    z = 1.959964
    half = z / (1 + z * z / 10) * math.sqrt(0.25 / 10 + z * z / 400)
    assert (got.estimate, got.n) == (0.5, 10)
    assert got.lo == pytest.approx(0.5 - half, rel=1e-5)
    assert got.hi == pytest.approx(0.5 + half, rel=1e-5)
    assert got.lo == pytest.approx(0.2366, abs=1e-4)


def test_bradley_terry_two_entrants_rating_gap_is_elo_of_the_odds():
    # 3 wins to 1: the MLE odds are 3, a gap of 400 * log10(3) Elo, centred on 0.
    results = pl.DataFrame({"deal": [0, 0], "strategy": ["X", "Y"], "opponent": ["Y", "X"],
                            "wins": [3.0, 1.0]})
    ratings = by_strategy(bradley_terry(results, prior_draws=0, bootstrap=0), "strategy")
    assert ratings["X"]["rating"] - ratings["Y"]["rating"] == pytest.approx(400 * math.log10(3))
    assert ratings["X"]["rating"] + ratings["Y"]["rating"] == pytest.approx(0, abs=1e-9)
    assert ratings["X"]["hands"] == 4
    assert ELO_PER_LOGIT * math.log(3) == pytest.approx(400 * math.log10(3))


def test_bradley_terry_orders_a_clearly_dominant_strategy_first():
    # D beats everyone every hand; M beats W 3 hands in 4; 20 deal indices.
    rows = []
    for deal in range(20):
        rows += [
            (deal, "D", "M", 2.0), (deal, "M", "D", 0.0),
            (deal, "D", "W", 2.0), (deal, "W", "D", 0.0),
            (deal, "M", "W", 1.5 if deal % 2 else 1.0), (deal, "W", "M", 0.5 if deal % 2 else 1.0),
        ]
    results = pl.DataFrame(rows, schema=["deal", "strategy", "opponent", "wins"], orient="row")
    ratings = bradley_terry(results, bootstrap=50, seed=1)
    assert ratings["strategy"].to_list() == ["D", "M", "W"]
    assert ratings["rating"].sum() == pytest.approx(0, abs=1e-6)
    for row in ratings.iter_rows(named=True):
        assert row["rating_lo"] <= row["rating"] <= row["rating_hi"]
    top = by_strategy(ratings, "strategy")
    assert top["D"]["rating_lo"] > top["M"]["rating_hi"]
    again = bradley_terry(results, bootstrap=50, seed=1)
    assert again.equals(ratings)  # the bootstrap is seeded


# -- generic analyses -----------------------------------------------------------------------


def test_an_interval_of_no_width_is_shown_as_no_spread_not_as_certainty():
    """A probe: Solo units per contract read `9.00 [9.00, 9.00]` from two contracts of 9."""
    assert fmt_ci({"units": 9.0, "units_lo": 9.0, "units_hi": 9.0}, "units", 2) == (
        "9.00 [no spread]")
    assert fmt_ci({"net": 1.5, "net_lo": 1.0, "net_hi": 2.0}, "net", 2) == "1.50 [1.00, 2.00]"
    assert fmt_ci({"net": 1.5, "net_lo": None, "net_hi": None}, "net", 2) == "1.50"


def test_a_rate_cut_at_zero_shows_an_estimate_that_is_not_zero():
    """A probe: 2 Solo bids in 4,000 seat-hands read `2 · 0.000 [0.000, 0.001]`, a rate of
    nothing beside a count of two; the lower bound is cut at 0, so no digit showed it."""
    row = {"rate": 0.0005, "rate_lo": 0.0, "rate_hi": 0.0012}
    assert fmt_ci(row, "rate") == "0.0005 [0.0000, 0.0012]"
    assert fmt_ci({"rate": 0.0, "rate_lo": 0.0, "rate_hi": 0.017}, "rate") == (
        "0.000 [0.000, 0.017]")
    # an estimate inside an interval across zero may still round to 0
    assert fmt_ci({"net": 0.0004, "net_lo": -0.5, "net_hi": 0.5}, "net", 2) == (
        "0.00 [-0.50, 0.50]")


def test_standings_are_ratios_over_deal_indices(hand_built_run: RunFolder):
    """A strategy's line-ups of one deal index play the same cards: the deal index, not
    the duplicate pair, is the unit of the standings' intervals."""
    table = by_strategy(analyses.standings(hand_built_run.scan("seats")).collect(), "strategy")
    # A's nets: deal 0 3, 1 (against B) and 2, 0 (against C), 6 over 4 hands; deal 1
    # -2, 4 and -1, 5, also 6 over 4: the two deal indices agree, an interval of no width
    a = table["A"]
    assert (a["hands"], a["pairs"], a["deals"]) == (8, 4, 2)
    assert a["net"] == pytest.approx(1.5)
    assert (a["net_lo"], a["net_hi"]) == (pytest.approx(1.5), pytest.approx(1.5))
    # wins: deal 0 three of four hands (one draw), deal 1 two of four
    assert a["win_rate"] == pytest.approx(0.625)
    assert a["win_rate_lo"] == pytest.approx(max(0.0, 0.625 - t_half([0.75, 0.5])))
    assert a["draw_rate"] == pytest.approx(0.125)
    # B: -2, -1 against A; -2, -1 against C; its two forfeits count as losses
    assert table["B"]["net"] == pytest.approx(-1.5)
    assert table["B"]["win_rate"] == pytest.approx(0.25)
    assert table["B"]["forfeits"] == 2
    # C: deal 0 -2, 0 (against A) and 3, 1 (against B), +0.5 a hand; deal 1 1, -5 and
    # -1, 3, -0.5 a hand
    assert table["C"]["net"] == pytest.approx(0.0)
    assert table["C"]["net_hi"] == pytest.approx(t_half([0.5, -0.5]))
    assert list(table) == ["A", "C", "B"]  # best mean net first


def test_a_rate_with_no_spread_gets_wilsons_interval_over_deal_indices_as_documented(
        hand_built_run: RunFolder):
    """C won half its hands at both deal indices (4 pairs, 2 deal indices): its win rate
    gets Wilson's interval over the 2 deal indices, the units of its interval. The docs
    said "over its pairs or sets", which would be over 4 and narrower (a statistician's
    probe); they say what the code does."""
    c = by_strategy(analyses.standings(hand_built_run.scan("seats")).collect(), "strategy")["C"]
    assert (c["win_rate"], c["pairs"], c["deals"]) == (0.5, 4, 2)
    over_pairs = no_spread_bounds(0.5, 4)
    assert (c["win_rate_lo"], c["win_rate_hi"]) == pytest.approx(no_spread_bounds(0.5, 2))
    assert c["win_rate_lo"] < over_pairs[0]
    docs = " ".join((Path(__file__).parents[1] / "docs" / "reading-a-report.md").read_text()
                    .split())
    assert "Wilson's score interval over its deal indices" in docs
    assert "over its pairs or sets instead" not in docs
    assert "gets Wilson's interval over the pairs" not in docs


def test_head_to_head_counts_a_draw_as_half_a_win(hand_built_run: RunFolder):
    table = by_strategy(
        analyses.head_to_head(hand_built_run.scan("seats")).collect(), "strategy", "opponent"
    )
    ab = table[("A", "B")]
    # A v B: deal 0 won both (1), deal 1 lost one (0.5)
    assert (ab["hands"], ab["pairs"]) == (4, 2)
    assert ab["share"] == pytest.approx(0.75)
    assert 0.75 + t_half([1, 0.5]) > 1.0 and 0.75 - t_half([1, 0.5]) < 0.0
    assert (ab["share_lo"], ab["share_hi"]) == (0.0, 1.0)  # a share's interval is cut there
    assert ab["net"] == pytest.approx(1.5)
    # A v C: deal 0 a win and a draw (0.75), deal 1 a loss and a win (0.5)
    assert table[("A", "C")]["share"] == pytest.approx(0.625)
    assert table[("C", "A")]["share"] == pytest.approx(0.375)
    assert table[("B", "A")]["net"] == pytest.approx(-1.5)
    assert ("A", "A") not in table


def test_pairwise_results_split_draws_half_each_way(hand_built_run: RunFolder):
    results = analyses.pairwise_results(hand_built_run.scan("seats")).collect()
    cell = by_strategy(results, "deal", "strategy", "opponent")
    assert cell[(0, "A", "C")]["wins"] == 1.5 and cell[(0, "C", "A")]["wins"] == 0.5
    assert cell[(1, "C", "B")]["wins"] == 1.0  # B's forfeit is C's win
    assert results["wins"].sum() == results["hands"].sum() / 2 == 12


def test_dealer_effect_splits_wins_by_role(hand_built_run: RunFolder):
    table = by_strategy(
        analyses.dealer_effect(hand_built_run.scan("seats")).collect(), "strategy", "role"
    )
    # A deals in rotation 0 (seat 0): won 3 and 2 of pairing 0/1's deal 0, lost both deal 1
    assert (table[("A", "dealer")]["hands"], table[("A", "dealer")]["wins"]) == (4, 2)
    # A as non-dealer: wins, wins, a draw, wins
    assert table[("A", "non-dealer")]["wins"] == 3
    # its interval is over deal indices (they share their cards), not over hands
    seats = analyses.seat_positions(hand_built_run.scan("seats")).collect()
    mine = (seats.filter((pl.col("strategy") == "A") & (pl.col("role") == "non-dealer"))
            .group_by("deal").agg((pl.col("result") == "win").sum().alias("wins"),
                                  pl.len().alias("hands")))
    expected = ratio_interval(mine["wins"], mine["hands"]).as_rate()
    assert table[("A", "non-dealer")]["win_rate_lo"] == pytest.approx(expected.lo)
    assert table[("A", "non-dealer")]["win_rate_hi"] == pytest.approx(expected.hi)


def test_points_distribution_shares_sum_to_one(hand_built_run: RunFolder):
    points = analyses.points_distribution(hand_built_run.scan("seats")).collect()
    a = points.filter(pl.col("strategy") == "A")
    assert a["net"].to_list() == [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert a["share"].to_list() == [0.125] * 8


def test_forfeits_report_the_first_error_in_play_order(hand_built_run: RunFolder):
    table = by_strategy(
        analyses.forfeits(hand_built_run.scan("seats"), hand_built_run.scan("deals")).collect(),
        "strategy",
    )
    assert table["B"]["forfeits"] == 2
    assert table["B"]["first_error"] == "first boom"
    assert table["B"]["first_deal_key"] == "2-0-1-0"
    assert table["A"]["forfeits"] == 0 and table["A"]["first_error"] is None


def test_the_forfeits_table_shows_an_errors_first_line_not_a_bots_stderr():
    from whist_sim.reports.forfeits_section import first_line

    error = ("seat 0 (bot) reported an error in reply to decide: strategy raised KeyError: 3"
             " [bot command: ./bot]\nlast lines of the bot's stderr:\n  Traceback ...")
    assert first_line(error) == ("seat 0 (bot) reported an error in reply to decide:"
                                 " strategy raised KeyError: 3 [bot command: ./bot]")
    assert first_line("one line") == "one line" and first_line(None) is None
    # a strategy's escape sequences, printed on the console at the end of a run, drove
    # the terminal: they are shown as escapes
    assert first_line("boom\x1b[2J\x1b]0;title\x07\nmore") == "boom\\x1b[2J\\x1b]0;title\\x07"


# -- German Whist -----------------------------------------------------------------------------


def decisions(run: RunFolder) -> pl.LazyFrame:
    return gw.contest_decisions(run.scan("tricks"), run.scan("deals"), run.scan("seats"))


def test_contest_decisions_are_stage1_tricks_the_follower_could_win(hand_built_run: RunFolder):
    rows = decisions(hand_built_run).sort("deal_key", "trick").collect()
    # 11 tricks: minus the stage-2 one, the one it could not win, the open-stock trick
    # with no card taken, and the one in a forfeited hand.
    assert rows.height == 7
    assert rows.filter(pl.col("strategy") == "A")["prize"].to_list() == ["KH", "AS", "KC", "3C"]
    c = rows.filter(pl.col("strategy") == "C").row(0, named=True)
    assert (c["prize"], c["trump_prize"], c["contested"]) == ("7S", False, False)  # no trumps


def test_a_trick_the_follower_could_not_legally_win_is_no_decision(hand_built_run: RunFolder):
    """A follower holding a trump but bound to follow suit lost without a choice: it was
    counted as a duck. Runs that record follower_could_win_legally are read by it (the
    hand-built run above has only the older column, read as before)."""
    tricks = hand_built_run.scan("tricks")
    forced = (pl.col("deal_key") == "0-0-1-0") & (pl.col("trick") == 3)  # "A ducks KC"
    legal = tricks.with_columns(
        follower_could_win_legally=pl.col("follower_could_win") & ~forced)
    rows = gw.contest_decisions(legal, hand_built_run.scan("deals"),
                                hand_built_run.scan("seats")).collect()
    assert rows.height == 6
    assert rows.filter(pl.col("strategy") == "A")["prize"].sort().to_list() == ["3C", "AS", "KH"]


def test_contest_by_suit_type_and_gain(hand_built_run: RunFolder):
    table = by_strategy(gw.contest_by_suit_type(decisions(hand_built_run)).collect(),
                        "strategy", "trump_prize")
    plain = table[("A", False)]
    # A, non-trump prizes: ducked KH (net 3, stage 2 = 9), won 3C (net 2, 7), ducked KC (1, 7)
    assert (plain["decisions"], plain["contested"], plain["ducked"]) == (3, 1, 2)
    assert plain["contest_rate"] == pytest.approx(1 / 3)
    assert plain["net_contested"] == 2 and plain["net_ducked"] == 2 and plain["net_gain"] == 0
    assert plain["stage2_contested"] == 7 and plain["stage2_ducked"] == 8
    assert plain["stage2_gain"] == -1
    trump = table[("A", True)]
    assert (trump["decisions"], trump["contest_rate"], trump["net_ducked"]) == (1, 1.0, None)
    assert table[("B", True)]["net_contested"] == -3


def test_contest_by_rank_orders_two_to_ace(hand_built_run: RunFolder):
    table = gw.contest_by_rank(decisions(hand_built_run)).collect()
    a_plain = table.filter((pl.col("strategy") == "A") & ~pl.col("trump_prize"))
    assert a_plain["rank"].to_list() == ["3", "K"]
    assert a_plain["contest_rate"].to_list() == [1.0, 0.0]
    assert a_plain["decisions"].to_list() == [1, 2]


def test_tricks_by_stage_reads_the_seat_of_each_list(hand_built_run: RunFolder):
    table = by_strategy(
        gw.tricks_by_stage(hand_built_run.scan("seats"), hand_built_run.scan("deals")).collect(),
        "strategy",
    )
    assert table["A"]["stage1"] == pytest.approx(6.5)  # seat 0 had 6, seat 1 had 7, each once
    # A's stage 2: pair (0, 0) 9 and 7, others 7 and 6 each
    assert table["A"]["stage2"] == pytest.approx((8 + 6.5 + 6.5 + 6.5) / 4)


# -- plots and the whole report -----------------------------------------------------------------


def test_every_plot_writes_a_png(hand_built_run: RunFolder, tmp_path: Path):
    seats = hand_built_run.scan("seats")
    made = [
        plots.plot_standings(analyses.standings(seats).collect(), tmp_path / "s.png"),
        plots.plot_head_to_head(analyses.head_to_head(seats).collect(), tmp_path / "h.png"),
        plots.plot_ratings(bradley_terry(analyses.pairwise_results(seats).collect(),
                                         bootstrap=5), tmp_path / "r.png"),
        plots.plot_points_distribution(analyses.points_distribution(seats).collect(),
                                       tmp_path / "p.png"),
        plots.plot_dealer(analyses.dealer_effect(seats).collect(), tmp_path / "d.png"),
        plots.plot_contest_by_rank(gw.contest_by_rank(decisions(hand_built_run)).collect(),
                                   tmp_path / "c.png"),
    ]
    for path in made:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class LowCard:
    """Test entrant: always plays its lowest legal card (and takes the lowest face-up card)."""

    games = frozenset({GAME})
    version = "1"

    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        return min((c for c in range(52) if legal >> c & 1), key=lambda c: (c % 13, c))


def play_small_run(path: Path, deals: int = 20) -> RunFolder:
    labels = ["random", "random2", "low"]
    strategies = {"random": ("random", {}), "random2": ("random", {}),
                  "low": (f"{__name__}:LowCard", {})}
    meta = {
        "config": {"tournament": {"game": GAME, "deals": deals, "seed": 7}, "variant": {},
                   "strategies": [{"use": use, "label": label, "params": params}
                                  for label, (use, params) in strategies.items()]},
        "root_seed": 7, "status": "complete", "game": GAME,
    }
    folder = RunFolder.create(path, meta)
    ls = lineups(labels, 2)
    plan = Plan(pairings=len(ls), deals=deals, deals_per_task=10)
    for task in range(plan.tasks):
        spec = TaskSpec(task=task, game=GAME, variant={}, players=None, root_seed=7, plan=plan,
                        lineups=ls, strategies=strategies, time_limit=None, on_error="forfeit")
        folder.commit_task(task, play_task(spec).tables)
    return folder


def markdown_rows(text: str, heading: str) -> dict[str, list[str]]:
    """The first table under ``## heading``: first cell -> cells."""
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return {cells[0]: cells for cells in ([c.strip() for c in r.strip("|").split(" | ")]
                                          for r in rows[1:])}


def test_build_report_end_to_end(tmp_path: Path):
    folder = play_small_run(tmp_path / "run")
    paths = build_report(folder.path)
    assert paths.folder == folder.path / "report"
    assert paths.markdown.is_file() and paths.html.is_file()
    assert set(paths.images) >= {"standings", "head_to_head", "ratings", "dealer", "points",
                                 "contest_by_rank"}
    for image in paths.images.values():
        assert image.parent == paths.folder and image.stat().st_size > 1000
    text = paths.markdown.read_text()
    page = paths.html.read_text()
    for name in paths.images.values():
        assert f"({name.name})" in text and f'src="{name.name}"' in page
    assert "<table>" in page and "ASSOCIATION" in page and "duplicate pairs" in page

    # Standings recomputed directly: mean net per deal index (its line-ups play the same
    # cards; every deal index holds as many of a strategy's hands here), then over them.
    seats = pl.read_parquet([str(p) for p in folder.parquet_files("seats")])
    rows = markdown_rows(text, "Standings")
    assert set(rows) == {"random", "random2", "low"}
    for label in ("random", "random2", "low"):
        mine = seats.filter(pl.col("strategy") == label)
        pairs = {(row["pairing"], row["deal"]) for row in mine.iter_rows(named=True)}
        deals: dict[int, list[float]] = {}
        wins: dict[int, list[float]] = {}
        for row in mine.iter_rows(named=True):
            deals.setdefault(row["deal"], []).append(row["net"])
            wins.setdefault(row["deal"], []).append(row["result"] == "win")
        net = [sum(v) / len(v) for v in deals.values()]
        won = [sum(v) / len(v) for v in wins.values()]
        mean, half = sum(net) / len(net), t_half(net)
        cells = rows[label]
        assert cells[1] == str(mine.height) and cells[2] == str(len(pairs))
        assert cells[3] == str(len(deals))
        # mean net, before forfeits: the column after it (stage2 hands have no draw rate)
        assert cells[-2] == f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]".replace(
            "-0.000", "0.000")
        assert cells[4].startswith(f"{sum(won) / len(won):.3f} [")
    settings = markdown_rows(text, "Run")
    assert settings["game"][1].startswith(GAME)
    assert settings["root seed"][1] == "7" and settings["status"][1] == "complete"
    assert "count = stage2" in settings["variant"][1]


def test_build_report_writes_where_asked_and_without_a_game_section(
    hand_built_run: RunFolder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.delitem(build.GAME_SECTIONS, "german_whist")
    paths = build_report(hand_built_run.path, tmp_path / "elsewhere")
    assert paths.folder == tmp_path / "elsewhere"
    assert "No game-specific analyses for german_whist yet." in paths.markdown.read_text()

    def section(folder: RunFolder, out: Path) -> list[Section]:
        return [Section("A plugged-in section", ["Plugged in."])]

    monkeypatch.setitem(build.GAME_SECTIONS, "german_whist", section)
    text = build_report(hand_built_run.path).markdown.read_text()
    assert "## A plugged-in section" in text and "Plugged in." in text


def test_two_seat_standings_say_hands_as_their_column_is_headed(hand_built_run: RunFolder):
    text = build_report(hand_built_run.path).markdown.read_text()
    assert "`hands` is every hand it played;" in text and "| strategy | hands |" in text


def test_build_report_on_a_missing_folder_raises_run_folder_error(tmp_path: Path):
    with pytest.raises(RunFolderError, match="no such run folder"):
        build_report(tmp_path / "nowhere")


def test_markdown_cells_escape_pipes_and_newlines():
    table = Table(["a"], [["x | y\nz"]])
    text = render_markdown("T", [Section("S", [], [table])], Path("."))
    assert re.search(r"\| x \\\| y z \|", text)


def test_a_german_entrant_that_never_wins_a_hand_has_its_rating_read_as_at_most(tmp_path):
    """It forfeits every hand it plays: its Bradley-Terry rating is minus infinity by the
    data, held by the virtual drawn hand; a probe read "-441 [no spread]" as if certain."""
    from tests.tournament_helpers import make_run_without_ray, quick_config

    body = quick_config(deals=6).replace(
        'use = "heuristic"', 'use = "tests.plugins.faulty:RaisesOnTrick5"\nlabel = "failer"')
    run = make_run_without_ray(tmp_path, body)
    paths = build_report(run)
    report = paths.markdown.read_text()
    # the CSV says so too, beside the numbers: a script must not take -441 as a rating
    bounds = pl.read_csv(paths.folder / "tables" / "ratings.csv").select("strategy",
                                                                         "rating_bound")
    assert dict(bounds.iter_rows()) == {"failer": "at most", "random": None, "random_b": None}
    ratings = report[report.index("## Ratings"):]
    ratings = ratings[:ratings.index("\n## ", 5)]
    assert ("failer never won or drew a hand against any other entrant: by the data alone its"
            " rating is minus infinity") in ratings
    assert ('Read the rating as "at most this much", and every gap to it as "at least this'
            ' much"') in ratings  # it may be lower still: the gaps to it only wider
    row = next(line for line in ratings.splitlines() if line.startswith("| failer "))
    assert "(at most: never won or drew a hand)" in row
    assert "random never" not in ratings and "random_b never" not in ratings


def test_a_german_run_with_no_contest_to_count_says_why_its_tables_are_empty(tmp_path):
    """Every hand forfeited by one of the two entrants: the contest tables had a header
    and no rows, with nothing to say why (a statistician's probe)."""
    from tests.tournament_helpers import make_run_without_ray

    body = """
[tournament]
game = "german_whist"
deals = 3
seed = 2

[[strategies]]
use = "random"

[[strategies]]
use = "tests.plugins.faulty:RaisesOnTrick5"
label = "failer"
"""
    report = build_report(make_run_without_ray(tmp_path, body)).markdown.read_text()
    section = report[report.index("## German Whist: contesting the face-up card"):]
    assert "No such choice was made in this run (every hand was forfeited" in section


def test_a_forfeit_counts_no_win_in_the_forfeiters_other_seats():
    """Solo Whist's A B A B: the forfeit pays every other seat, the forfeiter's twin too,
    and a strategy that forfeited every hand read a win rate of 0.500 (a report reader's
    probe). Its net keeps the payment; its win is not counted."""
    from whist_sim.reports.analyses import pair_outcomes

    seats = pl.LazyFrame({
        "deal_key": ["0-0-0-0"] * 4 + ["0-0-1-0"] * 4,
        "pairing": [0] * 8, "deal": [0] * 8,
        "strategy": ["bad", "random", "bad", "random"] * 2,
        "result": ["forfeit", "win", "win", "win", "loss", "win", "loss", "loss"],
        "net": [-24, 8, 8, 8, -4, 12, -4, -4],
    })
    outcomes = {row["strategy"]: row for row in pair_outcomes(seats).collect().iter_rows(
        named=True)}
    assert outcomes["bad"]["win"] == 0.0 and outcomes["bad"]["forfeits"] == 1
    assert outcomes["bad"]["net"] == (-24 + 8 - 4 - 4) / 4  # the payment stays in its net
    assert outcomes["random"]["win"] == 3 / 4


def test_a_report_build_interrupted_halfway_leaves_the_earlier_report_whole(
        hand_built_run: RunFolder, monkeypatch: pytest.MonkeyPatch):
    """An operator's probe: Ctrl-C while the report was written left the finished run's
    plots beside the partial run's text, which said "this run is not finished"."""
    earlier = build_report(hand_built_run.path)
    for path in earlier.folder.rglob("*"):  # an earlier build's, of other rows
        if path.is_file():
            path.write_bytes(b"earlier build " + path.name.encode())
    before = {path: path.read_bytes() for path in earlier.folder.rglob("*") if path.is_file()}
    real = build.GAME_SECTIONS["german_whist"]

    def interrupted(folder: RunFolder, out: Path) -> list[Section]:
        real(folder, out)  # its figures written, then the Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setitem(build.GAME_SECTIONS, "german_whist", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_report(hand_built_run.path)
    after = {path: path.read_bytes() for path in earlier.folder.rglob("*") if path.is_file()}
    assert after == before  # nothing replaced, nothing left of the build


def test_the_report_command_says_so_when_interrupted_and_names_the_folder_when_the_disk_is_full(
        hand_built_run: RunFolder, monkeypatch: pytest.MonkeyPatch):
    import errno

    from typer.testing import CliRunner

    from whist_sim.cli import app

    def stopped(run, out):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "build_report", stopped)
    result = CliRunner().invoke(app, ["report", str(hand_built_run.path)])
    assert result.exit_code == 130
    assert ("interrupted: the report was not written" in result.output
            and f"whist-sim report {hand_built_run.path}" in result.output)

    def full(run, out):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(build, "build_report", full)
    result = CliRunner().invoke(app, ["report", str(hand_built_run.path)])
    assert result.exit_code == 2
    assert f"{hand_built_run.path / 'report'}: no space left on the device" in result.output


def test_a_bradley_terry_fit_that_does_not_converge_is_said_and_the_rest_of_the_report_stands(
        hand_built_run: RunFolder, monkeypatch: pytest.MonkeyPatch):
    """``choix`` raised its own RuntimeError out of ``build_report`` (a traceback, no
    report) when its fit ran out of iterations. The ratings section says so instead, and the
    verdict makes no claim from the ratings."""
    from whist_sim.reports import stats

    monkeypatch.setattr(stats, "BRADLEY_TERRY_MAX_ITERATIONS", 1)
    text = build_report(hand_built_run.path).markdown.read_text()
    ratings = text[text.index("## Ratings"):]
    ratings = ratings[:ratings.index("\n## ", 5)]
    assert ("The ratings could not be fitted: Bradley-Terry (choix's ILSR) did not converge"
            " in 1 iterations") in ratings
    assert "| strategy |" not in ratings
    assert "## Standings" in text and "## Head to head" in text
    assert "The ratings rank" not in text and "The ratings order" not in text
