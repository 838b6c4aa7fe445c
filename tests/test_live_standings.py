"""Live standings: every few seconds each entrant's score with its interval, forfeits and
time used; the last lines equal the report's standings."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from tests.tournament_helpers import quick_config, write_config
from whist_sim.inference import pentanomial_model
from whist_sim.reports.analyses import (
    head_to_head,
    pair_outcomes,
    standings,
    standings_deals,
)
from whist_sim.reports.document import fmt
from whist_sim.reports.stats import ratio_interval, t_interval
from whist_sim.store import RunFolder
from whist_sim.tournament import runner
from whist_sim.tournament.config import load_config
from whist_sim.tournament.live import LiveStandings
from whist_sim.tournament.runner import run_tournament


def test_standings_are_printed_while_the_run_plays_with_forfeits_and_time(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(runner, "LIVE_SECONDS", 0.0)  # print after every task
    body = quick_config(deals=6, per_task=2).replace(
        'use = "heuristic"', 'use = "tests.plugins.faulty:RaisesOnTrick5"\nlabel = "raiser"')
    config = load_config(write_config(tmp_path, body))
    run_tournament(config, tmp_path / "live", workers=0, progress=True)
    err = capsys.readouterr().err
    blocks = err.count("entrant ")
    assert blocks >= 9  # one per task (9 tasks) and the final one
    assert "win rate [95% CI]" in err and "ms/decision" in err
    last = err[err.rindex("entrant "):].splitlines()
    raiser = next(line for line in last if line.startswith("raiser"))
    assert raiser.split()[-3] == "24"  # every hand it played was forfeited, and it shows


def test_progress_into_a_log_is_plain_lines_with_the_standings_under_each(
    tmp_path, capsys, monkeypatch
):
    """stderr a file or a pipe (capsys's is neither a terminal): no bar redrawn in place,
    whose carriage returns a log keeps and on whose last line the standings began."""
    monkeypatch.setattr(runner, "LIVE_SECONDS", 0.0)
    config = load_config(write_config(tmp_path, quick_config(deals=6, per_task=2)))
    run_tournament(config, tmp_path / "log", workers=0, progress=True)
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    progress = [n for n, line in enumerate(lines) if line.startswith("log: ")]
    assert len(progress) == 9  # one a task
    assert lines[progress[-1]].startswith("log: 36/36 matches (100%) after ")
    assert all(lines[n + 1].startswith("after ") and lines[n + 2].startswith("entrant ")
               for n in progress)
    # the first line has no rate yet (it is measured from the first results), the last
    # nothing left
    assert " left" not in lines[progress[0]] and " left" in lines[progress[1]]
    assert " left" not in lines[progress[-1]]


def test_the_time_left_is_measured_from_the_first_results_not_from_the_start(
        tmp_path, monkeypatch):
    """An operator's probe: Ray's and the workers' start read as slow play, "about 5 min
    55 s left" on a resume that took 11 s."""
    clock = iter([0.0, 60.0, 61.0, 62.0])  # started; first results a minute later
    monkeypatch.setattr(runner.time, "perf_counter", lambda: next(clock))
    folder = SimpleNamespace(path=tmp_path / "eta")
    console = runner._Console(folder, total=100, done=0, enabled=False, terminal=False)
    live = LiveStandings(["a", "b"])
    console.update(10, live, None)  # at 60 s
    console.update(10, live, None)  # at 61 s: 10 matches a second since the first results
    assert console.progress_line(62.0) == ("eta: 20/100 matches (20%) after 1 min 2 s,"
                                           " 5 matches/s, about 16 s left")


def test_progress_on_a_terminal_is_a_bar_redrawn_in_place(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "LIVE_SECONDS", 0.0)
    folder = SimpleNamespace(path=tmp_path / "bar")  # the console reads its name only
    console = runner._Console(folder, total=10, done=0, enabled=True, terminal=True)
    live = LiveStandings(["a", "b"])
    console.update(4, live, None)
    console.close()
    err = capsys.readouterr().err
    assert "\r" in err and "bar:  40%|" in err and "entrant " in err
    assert "bar: 4/10 matches (40%)" not in err  # the log's line is not printed


def test_a_log_line_says_how_long_in_seconds_minutes_and_hours():
    assert runner._duration(41.6) == "42 s"
    assert runner._duration(185) == "3 min 5 s"
    assert runner._duration(7_800) == "2 h 10 min"


def test_final_live_standings_equal_the_reports_standings(tmp_path):
    config = load_config(write_config(tmp_path, quick_config(deals=8, per_task=3)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    table = standings(RunFolder.open(summary.path).scan("seats")).collect()
    for row in table.iter_rows(named=True):
        line = next(x for x in summary.standings if x.startswith(row["strategy"] + " "))
        assert interval(row, "win_rate", 3) in line
        assert interval(row, "net", 2) in line


def interval(row, name, digits):
    """``estimate [lo, hi]`` as the report writes a row's figure."""
    return (f"{fmt(row[name], digits)} [{fmt(row[name + '_lo'], digits)},"
            f" {fmt(row[name + '_hi'], digits)}]")


def test_the_console_and_the_verdict_round_a_share_as_the_report_does():
    """37 of 80 hands (0.4625) read 0.463 in the console's standings and in the verdict's
    sentence, 0.462 in the report's standings and 46.2% in its ranking, all in one run (a
    probe): Python's format rounds the binary value, the report the number as written."""
    rows, values = [], [0.0] * 8 + [0.5] * 27 + [1.0] * 5
    for deal, value in enumerate(values):
        for rotation in (0, 1):
            a_wins = value == 1.0 or (value == 0.5 and rotation == 0)
            key = {"deal_key": f"0-{deal}-{rotation}-0", "pairing": 0, "deal": deal,
                   "rotation": rotation, "hand": 0}
            rows += [{**key, "seat": rotation, "strategy": "A", "net": 1.0 if a_wins else -1.0,
                      "result": "win" if a_wins else "loss"},
                     {**key, "seat": 1 - rotation, "strategy": "B",
                      "net": -1.0 if a_wins else 1.0, "result": "loss" if a_wins else "win"}]
    seats = pl.DataFrame(rows).with_columns(pl.col("seat").cast(pl.Int8))
    table = {row["strategy"]: row
             for row in standings(seats.lazy()).collect().iter_rows(named=True)}
    assert table["A"]["win_rate"] == pytest.approx(0.4625)
    live = LiveStandings(["A", "B"])
    live.add_rows(seats.to_arrow())
    lines = {x.split()[0]: x for x in live.lines() if x.startswith(("A ", "B "))}
    assert interval(table["A"], "win_rate", 3) in lines["A"] and "0.462 [" in lines["A"]
    assert "0.538 [" in lines["B"]
    assert "two hands 0.462 against a fair 0.500" in pentanomial_model().estimate(
        values).describe()


def test_a_deal_index_split_between_tasks_is_one_unit_of_the_live_standings(tmp_path):
    """Three line-ups, two items a task: deal indices straddle tasks. Each waits until its
    third line-up is in, and the last lines equal the report's, over deal indices."""
    config = load_config(write_config(tmp_path, quick_config(deals=8, per_task=2)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    table = standings(RunFolder.open(summary.path).scan("seats")).collect()
    assert set(table["deals"].to_list()) == {8}
    for row in table.iter_rows(named=True):
        line = next(x for x in summary.standings if x.startswith(row["strategy"] + " "))
        assert interval(row, "win_rate", 3) in line
        assert interval(row, "net", 2) in line
    live = LiveStandings(config.labels(), lineups=3)
    seats = pl.from_arrow(RunFolder.open(summary.path).scan("seats").collect().to_arrow())
    live.add_rows(seats.filter(pl.col("pairing") < 2).to_arrow())  # every deal still open
    assert len(live._open) == 8 and live._entrants["random"].nets.k == 0
    live.add_rows(seats.filter(pl.col("pairing") == 2).to_arrow())
    assert not live._open
    assert [line.split()[:-2] for line in live.lines()[1:]] == [
        line.split()[:-2] for line in summary.standings[1:]]


def test_live_standings_resume_from_the_rows_already_committed(tmp_path):
    config = load_config(write_config(tmp_path, quick_config(deals=4, per_task=2)))
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    live = LiveStandings(config.labels())
    live.add_rows(RunFolder.open(summary.path).scan("seats"))
    assert live.pairs == 12  # 3 line-ups x 4 deals
    def without_time(lines: list[str]) -> list[list[str]]:
        return [line.split()[:-2] for line in lines[1:]]

    assert without_time(live.lines()) == without_time(summary.standings)
    assert pl.Series(summary.standings).str.contains(r"after [0-9,]+ duplicate pairs").any()


def test_live_standings_keep_moments_and_print_what_every_value_would_give():
    """Fed in uneven tasks, the running sums and co-moments print the same intervals as
    ``ratio_interval`` over every deal index's totals kept in a list, which with as many
    hands at every deal index is ``t_interval`` of the per-deal means."""
    rng = np.random.default_rng(11)
    live = LiveStandings(["A", "B", "C"])
    outcomes: list[pl.DataFrame] = []
    deal = 0
    for size in (1, 2, 7, 40, 3, 250, 1):
        rows = []
        for _ in range(size):
            for pairing, (x, y) in enumerate((("A", "B"), ("A", "C"), ("B", "C"))):
                for rotation in (0, 1):
                    net = float(rng.integers(-12, 13)) + 100.0 * (x == "A")
                    result = "win" if net > 0 else "loss" if net < 0 else "draw"
                    other = {"win": "loss", "loss": "win", "draw": "draw"}[result]
                    key = {"deal_key": f"{pairing}-{deal}-{rotation}-0", "pairing": pairing,
                           "deal": deal, "rotation": rotation, "hand": 0}
                    rows += [{**key, "seat": rotation, "strategy": x, "net": net,
                              "result": result},
                             {**key, "seat": 1 - rotation, "strategy": y, "net": -net,
                              "result": "forfeit" if y == "C" and net > 11 else other}]
            deal += 1
        seats = pl.DataFrame(rows).with_columns(pl.col("seat").cast(pl.Int8))
        live.add_rows(seats.to_arrow())
        outcomes.append(pair_outcomes(seats.lazy()).collect())
    every = standings_deals(pl.concat(outcomes))  # the unit: a deal index's line-ups
    lines = live.lines()
    for label in "ABC":
        mine = every.filter(pl.col("strategy") == label)
        hands = mine["hands"].to_numpy()
        win = ratio_interval(mine["win"].to_numpy(), hands).as_rate()
        net = ratio_interval(mine["net"].to_numpy(), hands)
        per_deal = (mine["net"] / mine["hands"]).to_list()
        assert net.hi - net.lo == pytest.approx(  # equal hands a deal: the t-interval
            t_interval(per_deal).hi - t_interval(per_deal).lo)
        line = next(x for x in lines if x.startswith(label + " "))
        assert f"{win.estimate:.3f} [{win.lo:.3f}, {win.hi:.3f}]" in line
        assert f"{net.estimate:.2f} [{net.lo:.2f}, {net.hi:.2f}]" in line
        entrant = live._entrants[label]
        assert entrant.nets.k == mine.height
        got = entrant.nets.interval()
        assert got.estimate == pytest.approx(net.estimate, rel=1e-12, abs=1e-12)
        assert got.hi - got.lo == pytest.approx(net.hi - net.lo, rel=1e-10)
        assert entrant.forfeits == int(mine["forfeits"].sum())
    assert live._entrants["C"].forfeits > 0


def test_a_win_rate_near_one_has_its_interval_cut_at_zero_and_one():
    """A rate cannot leave [0, 1], so neither may its interval: A wins 59 of 60 duplicate
    pairs, whose t-interval reaches past 1 (and B's below 0). The report's standings, its
    head-to-head shares and the live standings all cut it there, the estimate unchanged."""
    rows = []
    for deal in range(60):
        for rotation in (0, 1):
            a_wins = deal != 0 or rotation == 0
            key = {"deal_key": f"0-{deal}-{rotation}-0", "pairing": 0, "deal": deal,
                   "rotation": rotation, "hand": 0}
            net = 3.0 if a_wins else -3.0
            rows += [{**key, "seat": rotation, "strategy": "A", "net": net,
                      "result": "win" if a_wins else "loss"},
                     {**key, "seat": 1 - rotation, "strategy": "B", "net": -net,
                      "result": "loss" if a_wins else "win"}]
    seats = pl.DataFrame(rows).with_columns(pl.col("seat").cast(pl.Int8))
    wins = pair_outcomes(seats.lazy()).collect()
    uncut = t_interval(wins.filter(pl.col("strategy") == "A")["win"].to_list())
    assert uncut.hi > 1.0  # what the cut is for

    table = {row["strategy"]: row
             for row in standings(seats.lazy()).collect().iter_rows(named=True)}
    assert table["A"]["win_rate"] == pytest.approx(uncut.estimate)
    assert table["A"]["win_rate_hi"] == 1.0 and 0.0 < table["A"]["win_rate_lo"] < 1.0
    assert table["B"]["win_rate_lo"] == 0.0
    assert table["A"]["net_hi"] > 3.0 - 1e-9  # a mean net has no bounds to cut at
    shares = head_to_head(seats.lazy()).collect()
    assert shares["share_lo"].min() >= 0.0 and shares["share_hi"].max() <= 1.0

    live = LiveStandings(["A", "B"])
    live.add_rows(seats.to_arrow())
    line = next(x for x in live.lines() if x.startswith("A "))
    assert f"{uncut.estimate:.3f} [{uncut.lo:.3f}, 1.000]" in line


def test_a_rate_with_no_spread_between_pairs_gets_wilsons_interval_not_no_width():
    """A wins all 30 duplicate pairs (B forfeits every hand, say): the t-interval has no
    width, "100% to 100%", which would read as certainty. The standings, the
    head-to-head shares and the live standings give Wilson's interval over the 30 pairs
    instead, widened at a handful of pairs to the bound any values in [0, 1] keep (at 30,
    0.025 ** (1 / 30) = 0.884, below Wilson's 30 / (30 + z^2) = 0.886): 0.884 to 1 for
    A, 0 to 0.116 for B."""
    rows = []
    for deal in range(30):
        for rotation in (0, 1):
            key = {"deal_key": f"0-{deal}-{rotation}-0", "pairing": 0, "deal": deal,
                   "rotation": rotation, "hand": 0}
            rows += [{**key, "seat": rotation, "strategy": "A", "net": 7.0, "result": "win"},
                     {**key, "seat": 1 - rotation, "strategy": "B", "net": -7.0,
                      "result": "loss"}]
    seats = pl.DataFrame(rows).with_columns(pl.col("seat").cast(pl.Int8))
    flat = t_interval(pair_outcomes(seats.lazy()).collect().filter(
        pl.col("strategy") == "A")["win"].to_list())
    assert (flat.lo, flat.hi) == (1.0, 1.0)  # what the fallback is for
    z2 = sps.norm.ppf(0.975) ** 2
    low = min(30 / (30 + z2), 0.025 ** (1 / 30))

    table = {row["strategy"]: row
             for row in standings(seats.lazy()).collect().iter_rows(named=True)}
    assert (table["A"]["win_rate_lo"], table["A"]["win_rate_hi"]) == pytest.approx((low, 1.0))
    assert (table["B"]["win_rate_lo"], table["B"]["win_rate_hi"]) == pytest.approx(
        (0.0, 1 - low))
    assert table["A"]["net_lo"] == table["A"]["net_hi"] == 7.0  # a net is not a rate
    shares = {row["strategy"]: row for row in head_to_head(seats.lazy()).collect().iter_rows(
        named=True)}
    assert (shares["A"]["share_lo"], shares["A"]["share_hi"]) == pytest.approx((low, 1.0))

    live = LiveStandings(["A", "B"])
    live.add_rows(seats.to_arrow())
    line = next(x for x in live.lines() if x.startswith("A "))
    assert f"1.000 [{low:.3f}, 1.000]" in line


def test_wide_characters_in_a_label_keep_the_console_table_aligned():
    """A Chinese or emoji label took two columns a character on screen, counted as one."""
    from whist_sim.tournament.live import shown_width

    assert shown_width("随机🎲") == 6 and shown_width("héuristique") == 11
    assert shown_width("e\u0301") == 1  # a combining accent takes no column


def test_standings_weigh_every_seat_hand_alike_at_a_table_of_three(tmp_path):
    """Knock-out Whist at three seats, two entrants: line-ups A B A and B A B. The
    standings averaged per-pair means, weighing a pair of A's two seats as much as one of
    its one: A's win rate read 0.635 where it won 0.580 of its seat-games, and the mean
    nets of the table did not add up to zero (a statistician's probe). Now each figure is
    the share of seat-hands, equal to the plain count, and the nets cancel; the live
    standings print the same."""
    body = """
[tournament]
game = "knockout_whist"
players = 3
deals = 30
seed = 4
deals_per_task = 10

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
"""
    config = load_config(write_config(tmp_path, body))
    summary = run_tournament(config, tmp_path / "ko3", workers=0, progress=False)
    seats = RunFolder.open(summary.path).scan("seats").collect()
    table = {row["strategy"]: row for row in standings(seats.lazy()).collect()
             .iter_rows(named=True)}
    for label, row in table.items():
        mine = seats.filter(pl.col("strategy") == label)
        assert row["hands"] == mine.height
        assert row["win_rate"] == pytest.approx((mine["result"] == "win").mean())
        assert row["net"] == pytest.approx(mine["net"].mean())
    assert table["heuristic"]["net"] * table["heuristic"]["hands"] == pytest.approx(
        -table["random"]["net"] * table["random"]["hands"])
    per_pair = pair_outcomes(seats.lazy()).collect()
    assert per_pair["hands"].n_unique() > 1  # the case: pairs of one and of two seats
    live = LiveStandings(["heuristic", "random"])
    live.add_rows(seats.to_arrow())
    for label, row in table.items():
        line = next(x for x in live.lines() if x.startswith(label + " "))
        assert interval(row, "win_rate", 3) in line
        assert interval(row, "net", 2) in line


def test_the_console_counts_pairs_at_two_seats_and_sets_at_more():
    """Solo's console said "after 18 duplicate pairs" where its report says sets."""
    from whist_sim.tournament.live import LiveStandings

    assert LiveStandings(["a", "b"]).lines()[0].startswith("after 0 duplicate pairs;")
    assert LiveStandings(["a", "b"], hands_word="seat-hands").lines()[0].startswith(
        "after 0 duplicate sets;")


def test_the_console_says_it_lists_by_mean_net_not_by_the_reports_ranking():
    """The console lists entrants by mean net, the report's verdict ranks German Whist by
    the share of hands won: a probe read timid above ismcts on the console and below it
    in the report, and neither said which order it was."""
    from whist_sim.tournament.live import LiveStandings

    assert "listed by mean net, not the report's ranking" in LiveStandings(["a", "b"]).lines()[0]


def _duel_rows(results: list[str]) -> pl.DataFrame:
    """Seat rows of one duplicate pair a deal index, A's result in each hand as given."""
    other = {"win": "loss", "loss": "win", "draw": "draw"}
    rows = []
    for number, result in enumerate(results):
        deal, rotation = divmod(number, 2)
        net = {"win": 1.0, "loss": -1.0, "draw": 0.0}[result]
        key = {"deal_key": f"0-{deal}-{rotation}-0", "pairing": 0, "deal": deal,
               "rotation": rotation, "hand": 0}
        rows += [{**key, "seat": rotation, "strategy": "A", "net": net, "result": result},
                 {**key, "seat": 1 - rotation, "strategy": "B", "net": -net,
                  "result": other[result]}]
    return pl.DataFrame(rows).with_columns(pl.col("seat").cast(pl.Int8))


def test_the_console_shows_the_draw_rate_where_hands_were_drawn():
    """A duel's two win rates read 0.538 and 0.352 and nothing on screen said that the
    other 11% of hands were drawn (a probe): where any hand is drawn, a draw rate column
    shows it, as the report's standings do; where none is, no column of zeros."""
    seats = _duel_rows(["win", "draw", "loss", "win", "draw", "draw", "win", "loss"])
    live = LiveStandings(["A", "B"])
    live.add_rows(seats.to_arrow())
    header, *rows = live.lines()[1:]
    assert "draw rate" in header.split("  ")
    report = standings(seats.lazy()).collect()
    for label in "AB":
        [rate] = report.filter(pl.col("strategy") == label)["draw_rate"].to_list()
        line = next(row for row in rows if row.startswith(label + " "))
        assert f" {rate:.3f} " in line
    decisive = LiveStandings(["A", "B"])
    decisive.add_rows(_duel_rows(["win", "loss", "win", "win"]).to_arrow())
    assert "draw" not in decisive.lines()[1]


def test_the_console_says_seat_hands_when_any_table_of_the_run_seats_more_than_two(
        tmp_path, capsys, monkeypatch):
    """Knock-out Whist at `players = [2, 3]`: the console took the first size's words and
    printed "hands" and "duplicate pairs", where the report's standings count seat-hands
    (an entrant holds two seats of a three-seat table) and duplicate sets."""
    body = """
[tournament]
game = "knockout_whist"
players = [2, 3]
deals = 2
seed = 5

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
"""
    monkeypatch.setattr(runner, "LIVE_SECONDS", 0.0)  # print after every task
    config = load_config(write_config(tmp_path, body))
    run_tournament(config, tmp_path / "ko23", workers=0, progress=True)
    err = capsys.readouterr().err
    last = err[err.rindex("duplicate "):]
    assert last.startswith("duplicate sets")
    assert "seat-hands" in last.splitlines()[1]


def test_time_per_decision_counts_the_decisions_stopped_on_time(tmp_path):
    """A probe: an entrant stopped at its 0.1 s limit in four hands, with two quick
    decisions besides, read "200 ms/decision": the stopped decisions' seconds were added
    to its time but not to its count of decisions."""
    body = quick_config(deals=2, per_task=2, extra="time_limit = 0.05").replace(
        'use = "heuristic"', 'use = "tests.plugins.faulty:Slow"\nlabel = "slow"\n'
        "params = { seconds = 0.3 }")
    config = load_config(write_config(tmp_path, body))
    run_tournament(config, tmp_path / "slow", workers=0, progress=False)
    count, seconds = RunFolder.open(tmp_path / "slow").meta()["decisions"]["slow"]
    stopped = pl.read_parquet(tmp_path / "slow" / "data" / "deals").filter(
        pl.col("error").str.contains("DecisionTimeout")).height
    assert stopped > 0
    # Slow sleeps through its first decision of every hand and is stopped there, so each
    # of its decisions was a stopped one: with the bug the count was zero
    assert count == stopped
    # each is timed to its stop, not to the end of the 0.3 s sleep; not to 0.05 s and a
    # margin either: under two test processes on two cores the stops averaged 81 ms
    assert seconds / count < 0.3 / 2
