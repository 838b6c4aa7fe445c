"""The report opens with a verdict a non-statistician reads correctly."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from tests.tournament_helpers import make_run_without_ray, quick_config
from whist_sim.reports.build import build_report
from whist_sim.reports.verdict_section import KNOCKOUT_RANKED_BY, TITLE, _disagreement
from whist_sim.tournament.duel import duel_config, run_duel

GERMAN = """
[tournament]
game = "german_whist"
deals = 40
seed = 5

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"

[[strategies]]
use = "heuristic"
label = "heuristic_bold"
params = { contest_margin = -0.5 }
"""


def _verdict(run: Path) -> str:
    text = build_report(run).markdown.read_text()
    first = text.index("\n## ")
    assert text[first:].startswith(f"\n## {TITLE}\n"), "the verdict is the first section"
    return text[first:text.index("\n## ", first + 1)]


@pytest.mark.slow
def test_german_verdict_ranks_by_hands_won_and_decides_only_what_is_clear(tmp_path):
    verdict = _verdict(make_run_without_ray(tmp_path, GERMAN))
    assert "ranked by the share of hands they win" in verdict
    assert "heuristic wins" in verdict and "of hands against random" in verdict
    assert "decided." in verdict
    # two near-equal heuristics are not separated after 40 deals, and the text says how
    # many more deals a difference of the size seen would need
    assert re.search(r"heuristic(_bold)? and heuristic(_bold)? are not separated after 40 deals",
                     verdict)
    assert "more deals would separate a difference of that size" in verdict
    assert "\"Decided\" holds for the 3 comparisons together" in verdict


@pytest.mark.parametrize(("a", "b"), [("heuristic", "random"), ("random", "heuristic")])
def test_a_duel_report_repeats_the_duels_verdict(tmp_path, a, b):
    """Whichever label sorts first: A and B were read from run.json's strategies table,
    whose keys are written sorted, and random against heuristic was reported the other way
    round (H1 where the run accepted H0)."""
    config = duel_config(a, b, "german_whist", max_deals=200, seed=3,
                         sprt={"elo0": 0, "elo1": 150, "batch": 10})
    summary = run_duel(config, tmp_path / "duel", workers=0, progress=False)
    verdict = _verdict(summary.path)
    assert "This run was a sequential test (an SPRT) of A against B" in verdict
    assert f"(A = {a}, B = {b};" in verdict
    assert summary.verdict_text() in verdict
    recorded = json.loads((summary.path / "run.json").read_text())["verdict"]
    assert f"LLR {recorded['llr']:.2f}" in verdict


def test_a_hand_edited_sprt_in_run_json_is_refused_naming_the_file_and_key(tmp_path):
    """A report of a run.json whose sprt.alpha was edited to 0.7 said only "sprt.alpha =
    0.7 is not allowed", leaving the reader to guess which file (a statistician's probe)."""
    config = duel_config("heuristic", "random", "german_whist", max_deals=20, seed=3,
                         sprt={"elo0": 0, "elo1": 150, "batch": 10})
    run = run_duel(config, tmp_path / "duel", workers=0, progress=False).path
    meta = json.loads((run / "run.json").read_text())
    meta["config"]["sprt"]["alpha"] = 0.7
    (run / "run.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError) as refused:
        build_report(run)
    assert str(refused.value).startswith(f"{run / 'run.json'}: config.sprt.alpha = 0.7 is not"
                                         " allowed; allowed values: numbers in the open"
                                         " interval (0, 0.5)")


def test_hand_edited_hypotheses_beyond_the_largest_net_are_refused_naming_the_file(tmp_path):
    """net1 = 40 units in Solo Whist, where no seat wins more than 24 in a hand: refused
    by the run's config, so only an edited run.json holds them; its report named "sprt"
    alone, not the file the reader must mend."""
    config = duel_config("heuristic", "random", "solo_whist", max_deals=4, seed=3,
                         sprt={"net0": 0, "net1": 2, "batch": 4})
    run = run_duel(config, tmp_path / "duel", workers=0, progress=False).path
    meta = json.loads((run / "run.json").read_text())
    meta["config"]["sprt"].update(net0=30, net1=40)
    (run / "run.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError) as refused:
        build_report(run)
    assert str(refused.value).startswith(f"{run / 'run.json'}: config.sprt: net0 = 30 and"
                                         " net1 = 40 units per hand")


def test_two_entrants_without_a_test_get_a_fixed_sample_verdict(tmp_path):
    verdict = _verdict(make_run_without_ray(tmp_path, quick_config(deals=30).replace(
        '[[strategies]]\nuse = "random"\nlabel = "random_b"\n', "")))
    assert "fixed-sample test" in verdict


def test_the_ranking_says_its_figures_average_over_different_opponents(tmp_path):
    """A probe subtracted "1. heuristic_bold (+3.738), 2. heuristic (+3.718)" to 0.020 beside
    "ahead of heuristic by 0.013": each figure is a mean over the entrants it met."""
    three = _verdict(make_run_without_ray(tmp_path / "three", quick_config(deals=10)))
    ranking = next(p for p in three.split("\n\n") if p.startswith("Ranked by"))
    assert "averages over different opponents" in ranking
    assert "not the difference of their figures here" in ranking
    two = _verdict(make_run_without_ray(tmp_path / "two", quick_config(deals=10).replace(
        '[[strategies]]\nuse = "random"\nlabel = "random_b"\n', "")))
    assert "averages over different opponents" not in two


def test_a_run_not_yet_finished_says_so_before_its_verdict(tmp_path):
    """A newcomer probe read "ends in a fixed-sample test ... accepted H1" and "decided" off
    a run stopped at 76 of 300 deals: a fixed-length test read before its end is optional
    stopping, and only a status row said the run was partial."""
    run = make_run_without_ray(tmp_path, quick_config(deals=30).replace(
        '[[strategies]]\nuse = "random"\nlabel = "random_b"\n', ""))
    meta_path = run / "run.json"
    meta = json.loads(meta_path.read_text())
    meta["status"] = "interrupted"  # as a Ctrl-C leaves it
    meta_path.write_text(json.dumps(meta))
    verdict = _verdict(run)
    tasks = meta["plan"]["tasks"]
    first = verdict.split("\n\n")[1]
    assert first.startswith("**This run is not finished** (status interrupted: about 100% of"
                            f" the planned deals played, {tasks} of {tasks} tasks)")
    # random against heuristic over 30 deals: decided, but only so far
    assert "decided on the deals played so far, not final." in verdict
    assert ": decided." not in verdict and ", decided." not in verdict
    assert f"whist-sim run --resume {run}" in first
    assert "once finished, ends in a fixed-sample test" in verdict
    assert "not a verdict yet" in verdict
    meta["status"] = "complete"
    meta_path.write_text(json.dumps(meta))
    assert "not finished" not in _verdict(run)


def test_a_run_being_written_now_is_not_said_to_need_a_resume(tmp_path):
    """An operator's probe: a report built during a live run said "Finish the run:
    whist-sim run --resume RUN", which the live writer's lock refuses."""
    import os
    import socket

    from whist_sim.store.lock import LOCK_FILE

    run = make_run_without_ray(tmp_path, quick_config(deals=30).replace(
        '[[strategies]]\nuse = "random"\nlabel = "random_b"\n', ""))
    meta = json.loads((run / "run.json").read_text())
    meta["status"] = "running"
    (run / "run.json").write_text(json.dumps(meta))
    (run / LOCK_FILE).write_text(json.dumps({  # as a writer alive on this host leaves it
        "pid": os.getpid(), "host": socket.gethostname(), "started": "now",
        "command": "whist-sim run --resume"}))
    first = _verdict(run).split("\n\n")[1]
    assert f"It is being written now, by process {os.getpid()}" in first
    assert "--resume" not in first.replace("(whist-sim run --resume)", "")


@pytest.mark.slow
def test_solo_verdict_ranks_by_net_units(tmp_path):
    body = """
[tournament]
game = "solo_whist"
deals = 30
seed = 2

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
label = "bold"
params = { aggression = 1 }
"""
    verdict = _verdict(make_run_without_ray(tmp_path, body))
    assert "Solo Whist is played for stakes" in verdict
    assert "units per hand" in verdict
    assert "is ahead of random by" in verdict


@pytest.mark.slow
def test_knockout_verdict_measures_each_entrant_against_the_fair_share(tmp_path):
    body = """
[tournament]
game = "knockout_whist"
deals = 40
seed = 4
players = 4

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
label = "h2"
"""
    verdict = _verdict(make_run_without_ray(tmp_path, body))
    assert "against a fair share of 25.0%" in verdict
    assert "random wins" in verdict and "below it, decided." in verdict


@pytest.mark.parametrize(
    ("ratings", "expected"),
    [
        (["a", "b", "c"], "same order"),
        (["b", "a", "c"], "a above b by net units per hand, the other way by rating"),
    ],
)
def test_where_ratings_and_the_ranking_disagree_the_report_says_which_to_trust(
    ratings, expected
):
    note = _disagreement(["a", "b", "c"], ratings, "solo_whist")
    assert expected in note
    if "other way" in expected:
        assert "Trust the net units" in note


def test_a_share_interval_is_shown_within_0_and_100_percent():
    """On few deals the t interval of a share reaches past 0 or 1 ("89.3 to 100.7%"); the
    page shows it cut at the bounds a share cannot leave, and leaves inner bounds alone."""
    from whist_sim.reports.stats import t_interval
    from whist_sim.reports.verdict_section import _difference, share_bounds

    assert share_bounds(-0.119, 0.140) == (0.0, 0.140)
    assert share_bounds(0.893, 1.007) == (0.893, 1.0)
    assert share_bounds(0.2, 0.7) == (0.2, 0.7)
    interval = t_interval([1.0, 1.0, 0.5, 1.0])  # 87.5%, t interval past 100%
    assert interval.hi > 1
    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    bounds = r"\(95%: (-?[\d.]+) to (-?[\d.]+)%\)"
    line = _difference(interval, figure, True, "random")
    assert "wins 87.5% of hands" in line
    lo, hi = map(float, re.search(bounds, line).groups())
    assert 0 < lo < 87.5 and hi == 100.0, line
    against = _difference(interval, figure, False, "heuristic")
    assert "wins 12.5% of hands" in against
    lo, hi = map(float, re.search(bounds, against).groups())
    assert lo == 0.0 and 12.5 < hi < 100, against


def test_a_share_won_in_every_pair_is_shown_with_wilsons_interval_not_no_width():
    """30 pairs all won (the other side forfeited every hand, say): the t interval has no
    width ("100.0 to 100.0%"), which would read as certainty; the verdict shows Wilson's
    interval over the 30 pairs, and still calls it decided."""
    from whist_sim.reports.verdict_section import _comparison

    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    line = _comparison("heuristic", "broken", np.ones(30), figure, 1.0)
    assert line == ("heuristic wins 100.0% of hands against broken (95%: 88.4 to 100.0%),"
                    " over 30 deals: decided.")


def test_a_share_won_in_a_handful_of_pairs_is_not_decided():
    """4 deals all won read "(95%: 51.0 to 100.0%), over 4 deals: decided" beside the
    run's own fixed test's "cannot decide after 4 pairs" (a statistician's probe): a
    share of 1/2 gives 4 deals won in 4 one time in 16."""
    from whist_sim.reports.verdict_section import _comparison

    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    line = _comparison("heuristic", "random", np.ones(4), figure, 1.0)
    assert line.startswith("heuristic and random are not separated after 4 deals"
                           " (heuristic wins 100.0% of hands against random (95%: 39.8 to"
                           " 100.0%))"), line


def test_a_comparison_decided_on_its_own_but_not_among_several_says_so():
    """A difference whose own 95% interval just excludes equality (p about 0.03) is not
    decided among six comparisons (Holm asks p <= 0.05 / 6 of the smallest)."""
    from whist_sim.reports.verdict_section import _comparison

    figure = SimpleNamespace(unit="points per hand", noun="hands", null=0.0)
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 1.0, 400)
    x = x - x.mean() + 2.2 * x.std(ddof=1) / math.sqrt(x.size)  # t = 2.2
    alone = _comparison("a", "b", x, figure, 1.0)
    among = _comparison("a", "b", x, figure, 1.0, decided=False, family=6)
    assert alone.endswith("decided.")
    assert among.endswith("its own 95% interval excludes equality, but it is not decided"
                          " with the 6 comparisons taken together (Holm's test, 5% over all"
                          " of them).")


@pytest.mark.parametrize("game", ["german_whist", "solo_whist", "minnesota_whist",
                                  "knockout_whist"])
def test_a_disagreement_with_the_ratings_claims_no_noise_it_did_not_measure(game):
    """"a difference is within their noise" was printed beside rating intervals that did
    not overlap (a reader's probe): the note says why the two orders can differ instead."""
    note = _disagreement(["a", "b"], ["b", "a"], game)
    assert "disagree (a above b" in note
    assert "noise" not in note


def test_knockout_at_several_table_sizes_ranks_by_games_won_over_a_fair_share(tmp_path):
    """The ranking averaged each size's share with equal weight, a size of 120
    player-games as much as one of 1,000, and put an entrant first whom the pooled share
    and the larger table placed second (a reader's probe). It is now the games won over
    the games a fair share (1/players) would win, pooled over sizes."""
    import polars as pl

    from whist_sim.store import RunFolder

    body = """
[tournament]
game = "knockout_whist"
players = [3, 5]
deals = 10
seed = 21
deals_per_task = 5

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
label = "heuristic_b"
params = { survival_weight = 1.0 }
"""
    run = make_run_without_ray(tmp_path, body, per_task=5)
    seats = RunFolder.open(run).scan("seats").collect().with_columns(
        players=pl.len().over("deal_key"))
    of_fair = {row["strategy"]: row["won"] / row["fair"] for row in seats.group_by(
        "strategy").agg((pl.col("result") == "win").sum().alias("won"),
                        (1.0 / pl.col("players")).sum().alias("fair")).iter_rows(named=True)}
    expected = sorted(of_fair, key=lambda name: (-of_fair[name], name))
    build_report(run, tmp_path / "report")
    ranking = pl.read_csv(tmp_path / "report" / "tables" / "verdict_ranking.csv")
    assert ranking["entrant"].to_list() == expected
    assert all("x a fair share" in text for text in ranking[ranking.columns[2]])
    for name, ratio in zip(ranking["entrant"], ranking[KNOCKOUT_RANKED_BY], strict=True):
        assert ratio == pytest.approx(of_fair[name])  # the number it is ranked by, whole


def test_the_verdict_compares_two_entrants_over_deal_indices_not_over_their_pairs():
    """Two line-ups of one deal index play the same cards: A and B meeting in both give
    two correlated pairs, averaged into one value of that deal index (a probe found the
    pairs counted one by one understated the interval 1.2-1.3 times in Solo Whist)."""
    import polars as pl

    from whist_sim.reports.comparisons import PairValues

    frame = pl.DataFrame({
        "strategy": ["A"] * 6, "opponent": ["B"] * 6,
        "pairing": [0, 0, 0, 1, 1, 1], "deal": [0, 1, 2, 0, 1, 2],
        "value": [1.0, -2.0, 3.0, 3.0, 0.0, 1.0]})
    values = PairValues.of(frame)
    assert values.values[("A", "B")].tolist() == [2.0, -1.0, 2.0]
    assert values.deals[("A", "B")] == 3 and values.per_deal("A", "B") == 2.0


def test_a_comparison_over_one_deal_says_one_deal():
    from whist_sim.reports.verdict_section import _comparison

    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    line = _comparison("heuristic", "random", np.array([1.0]), figure, 1.0)
    assert "after 1 deal " in line and "1 deals" not in line


def test_a_disagreement_inside_the_noise_is_not_explained_as_a_style_of_play():
    """A Solo run's ratings, 63 [61, 64] and 62 [61, 63], ordered two entrants the other
    way from net units per hand, +0.013 (95%: -0.021 to 0.048) apart: the note explained
    it as "an entrant that wins many small hands ... rates higher than it earns"."""
    unseparated = _disagreement(["a", "b"], ["b", "a"], "solo_whist", separated=set())
    assert "does not separate them: within the noise, neither order is a finding" in unseparated
    assert "Trust" not in unseparated
    separated = _disagreement(["a", "b"], ["b", "a"], "solo_whist", separated={("a", "b")})
    assert "disagree (a above b" in separated and "Trust the net units" in separated


def test_a_disagreement_the_head_to_head_decides_for_the_ratings_is_not_trusted_to_the_figure():
    """Ranked a above b by the figure (an average over different opponents), b above a by
    rating, and Holm's test decides b ahead of a head to head: the figure's order is
    the one the data contradict, so the note must not tell the reader to trust it."""
    note = _disagreement(["a", "b"], ["b", "a"], "solo_whist", separated={("b", "a")})
    assert "Trust" not in note and "neither order is a finding" not in note
    assert note == ("The ratings put b above a, as their head-to-head comparison decides: net"
                    " units per hand orders them the other way only as an average over"
                    " different opponents.")
    two = _disagreement(["a", "b", "c"], ["b", "c", "a"], "solo_whist",
                        separated={("b", "a"), ("c", "a")})
    assert two.startswith("The ratings put b above a and c above a, as their head-to-head"
                          " comparisons decide: net units per hand orders each pair the other"
                          " way"), two


def test_the_ranking_table_says_behind_where_the_head_to_head_decides_the_other_way():
    """A gauntlet ranked its candidate first by share of hands won (65.75%, an average
    over random and heuristic) above heuristic (61.0%, against the candidate only), and
    its ranking CSV read "yes" in "decided ahead of the next" beside the sentence
    "heuristic wins 61.0% of hands against mybot ...: decided" (a newcomer's probe)."""
    from whist_sim.reports.verdict_section import _decided_ahead

    said = _decided_ahead(["mybot", "heuristic", "random"],
                          {("heuristic", "mybot"), ("mybot", "random")},
                          [("heuristic", "random")], ["mybot"])
    assert said == ["behind", "not compared", "-"]
    assert _decided_ahead(["a", "b"], {("a", "b")}, [], []) == ["yes", "-"]
    assert _decided_ahead(["a", "b"], set(), [], []) == ["no", "-"]


def test_the_pairs_decided_say_which_entrant_the_test_puts_ahead():
    """``_pairwise`` hands on each decided pair as (ahead, behind) by its head-to-head
    values, whatever order the ranking figure puts the two in."""
    from whist_sim.reports.comparisons import PairValues
    from whist_sim.reports.verdict_section import _pairwise

    rng = np.random.default_rng(3)
    beats_random = (rng.random(200) < 0.93).astype(float)
    loses_to_heuristic = (rng.random(200) < 0.39).astype(float)
    values = PairValues(values={
        ("mybot", "random"): beats_random, ("random", "mybot"): 1 - beats_random,
        ("mybot", "heuristic"): loses_to_heuristic,
        ("heuristic", "mybot"): 1 - loses_to_heuristic})
    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    ranked, _, decided, never = _pairwise("german_whist", figure, None,
                                          ["heuristic", "mybot", "random"],
                                          summaries=SimpleNamespace(values=values),
                                          candidates=["mybot"])
    assert [placed.name for placed in ranked][:2] == ["mybot", "heuristic"]
    assert decided == {("heuristic", "mybot"), ("mybot", "random")}
    assert never == [("heuristic", "random")]


def test_an_unfinished_run_counts_its_share_of_deals_not_of_tasks():
    """Tasks are not one size: 2 of 5 tasks held 292 of 600 deal indices (48.6%), and the
    banner read "about 40%"."""
    from whist_sim.reports.verdict_section import _share_of_items

    plan = {"pairings": 3, "deals": 600, "deals_per_task": 437, "tasks": 5}
    assert _share_of_items(plan, [0, 4]) == pytest.approx((437 + (1800 - 4 * 437)) / 1800)
    assert _share_of_items({"tasks": 5}, [0]) is None  # an old run.json without the sizes


def test_a_gap_on_deals_with_no_spread_is_not_called_no_difference():
    """Two deals, every pair won: "no difference has been seen to size a longer run by"
    was said of 100% against 0%."""
    from whist_sim.reports.verdict_section import _comparison

    figure = SimpleNamespace(unit="share", null=0.5, noun="hands")
    text = _comparison("h2", "random", np.array([1.0, 1.0]), figure, 1.0)
    assert "no difference has been seen" not in text
    assert text.startswith("h2 and random are not separated after 2 deals (h2 wins 100.0%")
    assert "too few deals to tell" in text


def test_a_forfeited_knockout_game_is_lost_by_its_forfeiter_and_left_out_for_the_others():
    """Counted as lost by every seat, as it was, a run with many forfeits put both entrants
    of one table "below the fair share, decided" (a report reader's probe: 16.4% and 11.3%
    against 33.3%)."""
    import polars as pl

    from whist_sim.reports.comparisons import knockout_shares

    seats = pl.LazyFrame({
        "deal_key": ["0-0-0-0"] * 3 + ["0-0-1-0"] * 3,
        "deal": [0] * 6,
        "strategy": ["flaky", "random", "random", "flaky", "random", "random"],
        "result": ["forfeit", "draw", "draw", "loss", "win", "loss"],
    })
    shares = {row["strategy"]: row for row in knockout_shares(seats).collect().iter_rows(
        named=True)}
    assert (shares["flaky"]["value"], shares["flaky"]["seat_games"]) == (0.0, 2)
    assert (shares["random"]["value"], shares["random"]["seat_games"]) == (0.5, 2)
    assert shares["random"]["fair"] == pytest.approx(1 / 3)


def test_equal_figures_share_a_place():
    from whist_sim.reports.verdict_section import rank_labels

    assert rank_labels(["60.0%", "50.0%", "50.0%", "40.0%"]) == ["1", "2=", "2=", "4"]
    assert rank_labels(["50.0%", "50.0%"]) == ["1=", "1="]
    assert rank_labels(["a", "b"]) == ["1", "2"]


FORFEITING = '''
from whist_sim.strategy import Strategy


class Forfeits(Strategy):
    """Raises at every decision: forfeits every game it sits in."""

    games = frozenset({"knockout_whist"})

    def choose(self, view, rng):
        raise RuntimeError("broken on purpose")
'''


def test_an_entrant_whose_every_game_was_forfeited_by_another_is_not_ranked(
        tmp_path, monkeypatch):
    """The forfeiter was ranked first of two at 0.0% each, and random read "below the fair
    share, decided" though it lost no game it finished (a report reader's probe)."""
    (tmp_path / "verdict_forfeits.py").write_text(FORFEITING)
    monkeypatch.syspath_prepend(str(tmp_path))
    body = """
[tournament]
game = "knockout_whist"
deals = 6
seed = 1

[[strategies]]
use = "verdict_forfeits:Forfeits"
label = "bad"

[[strategies]]
use = "random"
"""
    verdict = _verdict(make_run_without_ray(tmp_path, body))
    assert "Ranked by share of games won: 1. bad (0.0% at 2)." in verdict
    assert "Not ranked: random. Another seat forfeited every game it sat in" in verdict
    assert "random wins" not in verdict
    assert "| - | random | no game finished |" in verdict


def test_a_disagreement_claims_no_order_between_entrants_tied_on_the_ranking_figure():
    """Three Knock-out entrants ranked "2=" at 0.0% each were said to be "above" one
    another "by share of games won, the other way by rating" (a probe): tied on the
    figure, they are not ordered by it, so the ratings cannot contradict it there."""
    ranked = ["random", "illegal", "raises", "raises2"]
    shown = ["100.0% at 3", "0.0% at 3", "0.0% at 3", "0.0% at 3"]
    ratings = ["random", "raises2", "raises", "illegal"]
    note = _disagreement(ranked, ratings, "knockout_whist", shown=shown)
    assert "disagree" not in note and "above" not in note
    assert note == ("The ratings rank the entrants in the same order as share of games won"
                    " wherever it orders them (it ties illegal, raises and raises2).")
    # a pair the figure does order is still reported, and only that pair
    shown = ["100.0% at 3", "50.0% at 3", "0.0% at 3", "0.0% at 3"]
    note = _disagreement(ranked, ratings, "knockout_whist", shown=shown)
    assert "disagree (illegal above raises; illegal above raises2 by share" in note
    assert "raises above raises2" not in note


def test_a_disagreement_claims_no_order_between_entrants_tied_on_the_rating():
    """Ratings given as figures: two that read the same (in whole points, as the ratings
    table prints them) do not order their entrants the other way from the ranking."""
    ratings = {"a": 10.2, "b": 9.8, "c": -20.0}
    assert _disagreement(["b", "a", "c"], ratings, "solo_whist") == (
        "The ratings rank the entrants in the same order as net units per hand.")
    note = _disagreement(["c", "a", "b"], ratings, "solo_whist")
    assert "c above a; c above b by net units per hand" in note
    assert "a above b" not in note and "b above a" not in note


def test_the_knockout_verdict_values_average_to_the_pooled_share_with_its_ratio_interval():
    """The values the verdict reads per deal index have the pooled share (games won over
    games) for mean, and its t-interval is the ratio's cluster interval over deal indices,
    the one the Knock-out sections print."""
    from whist_sim.reports.stats import ratio_interval, t_interval
    from whist_sim.reports.verdict_section import pooled_values

    won, games = np.array([1.0, 0.0, 1.0, 2.0, 0.0]), np.array([1.0, 1.0, 1.0, 3.0, 1.0])
    x = pooled_values(won, games)
    pooled, ratio = t_interval(x), ratio_interval(won, games)
    assert pooled.estimate == pytest.approx(4 / 7) == pytest.approx(ratio.estimate)
    assert np.mean(won / games) == pytest.approx(8 / 15)  # the mean of shares: not it
    assert (pooled.lo, pooled.hi) == pytest.approx((ratio.lo, ratio.hi))
    assert pooled.n == ratio.n == 5


def test_a_net_comparison_decided_over_few_deals_carries_the_caution_the_sprt_gives():
    """A statistician's probe: a Solo duel's SPRT sentence carried the few-pairs caution,
    and the comparison right after it read "over 5 deals: decided" without one."""
    import numpy as np

    from whist_sim.reports import verdict_section

    figure = verdict_section.RANKING["solo_whist"]
    few = verdict_section._comparison("a", "b", np.array([5.0, 6, 7, 5, 6]), figure, 1.0)
    assert few.startswith("a is ahead of b by 5.800 units per hand")
    assert "over 5 deals: decided. Caution: over only 5 deals" in few
    many = verdict_section._comparison("a", "b", np.array([5.0, 6, 7, 5, 6] * 8), figure, 1.0)
    assert many.endswith("over 40 deals: decided.")


def test_two_entrants_level_on_every_deal_are_level_not_one_ahead_by_nothing():
    """A probe's Solo duel of the heuristic against itself, every pair at 0: the verdict's
    comparison read "heuristic (A) is ahead of heuristic (B) by 0.000 units per hand"."""
    from whist_sim.reports import verdict_section

    figure = verdict_section.RANKING["solo_whist"]
    level = verdict_section._comparison("a", "b", np.zeros(40), figure, 1.0)
    assert "ahead" not in level
    assert level.startswith("a and b are not separated after 40 deals (a is level with b at"
                            " 0.000 units per hand [no spread])")
    spread = verdict_section._comparison("a", "b", np.array([1.0, -1.0] * 20), figure, 1.0)
    assert "(a is level with b at 0.000 units per hand (95%: -0.3" in spread


def test_a_lead_too_small_for_three_decimals_is_shown_not_rounded_to_nothing():
    from whist_sim.reports import verdict_section

    figure = verdict_section.RANKING["solo_whist"]
    x = np.array([0.0004, 0.0003] * 10)
    line = verdict_section._comparison("a", "b", x, figure, 1.0)
    assert "a is ahead of b by 0.00035 units per hand" in line, line
    behind = verdict_section._comparison("a", "b", -x, figure, 1.0)
    assert "b is ahead of a by 0.00035 units per hand" in behind, behind
    tiny = verdict_section._comparison("a", "b", np.array([1e-7, 2e-7] * 10), figure, 1.0)
    assert "a is ahead of b by 0.00000015 units per hand" in tiny, tiny  # never 1.5e-07


def test_an_intervals_two_ends_are_never_shown_alike():
    """A fuzz of the comparisons: Solo margins near -0.001 read "b is ahead of a by 0.001
    units per hand (95%: 0.001 to 0.001), over 14 deals: decided"."""
    from whist_sim.reports import verdict_section

    figure = verdict_section.RANKING["solo_whist"]
    line = verdict_section._comparison("a", "b", np.array([0.0010, 0.0011] * 10), figure, 1.0)
    found = re.search(r"a is ahead of b by ([0-9.]+) units per hand \(95%: ([0-9.]+) to"
                      r" ([0-9.]+)\)", line)
    assert found, line
    shown = found.groups()
    assert len(set(shown)) == 3, line  # the lead and both ends, each its own number
    assert [float(x) for x in shown] == pytest.approx([0.00105, 0.00103, 0.00107], abs=1e-5)


def test_a_knockout_share_its_interval_and_the_fair_share_are_never_shown_alike():
    """Over many games a share whose interval lies above the fair one would read "wins
    25.0% ... (95%: 25.0 to 25.1%) ..., against a fair share of 25.0%: above it"."""
    from whist_sim.reports.verdict_section import _shares_apart

    close = SimpleNamespace(estimate=0.2504, lo=0.2501, hi=0.2507)
    assert _shares_apart(close, 0.25) == ("25.04%", "25.01", "25.07%", "25.00%")
    apart = SimpleNamespace(estimate=0.3, lo=0.2, hi=0.4)
    assert _shares_apart(apart, 0.25) == ("30.0%", "20.0", "40.0%", "25.0%")


def test_deals_to_separate_are_sized_at_holms_next_level_given_the_decided_comparisons():
    """A probe: two of three comparisons decided, the third read "about 1,980 more deals
    ... (at the level 5% / 3)", where Holm's test tests it at 5% / 1."""
    from whist_sim.inference import pairs_to_separate
    from whist_sim.reports.multiplicity import holm, holm_next_level
    from whist_sim.reports.verdict_section import _comparison, _multiplicity

    figure = SimpleNamespace(unit="points per hand", noun="hands", null=0.0)
    rng = np.random.default_rng(7)
    x = rng.normal(0.0, 1.0, 200)
    x = x - x.mean() + 0.05  # a small gap, its interval taking in equality
    sd, gap = float(np.std(x, ddof=1)), 0.05
    # Holm, two comparisons decided: the third is tested at 5% / (3 - 2), and a p-value
    # there is decided, while at 5% / 3 (Bonferroni's level) it would not be
    assert holm([1e-9, 1e-9, 0.04]) == [True, True, True]
    assert holm_next_level(3, 2) == pytest.approx(0.05)
    line = _comparison("a", "b", x, figure, 1.0, decided=None, family=3, done=2)
    more = pairs_to_separate(sd, gap, alpha=0.05) - x.size
    assert f"about {more:,} more deals would separate" in line
    bonferroni = pairs_to_separate(sd, gap, alpha=0.05 / 3) - x.size
    assert bonferroni > more
    assert f"about {bonferroni:,} more" in _comparison("a", "b", x, figure, 1.0, family=3)
    said = _multiplicity(3, 2)
    assert "(5% / 1, 2 of the 3 being decided)" in said and "5% / 3" not in said
    assert "(5% / 3)" in _multiplicity(3, 0)
    assert "would decide" not in _multiplicity(3, 3)  # nothing left to size
    with pytest.raises(ValueError, match="decided = 3"):
        holm_next_level(3, 3)


def test_the_holm_paragraph_names_deals_to_separate_only_where_a_comparison_quoted_them():
    """A statistician's probe: "the deals said to separate a difference are those that would
    decide it ..." stood under comparisons that all read "no difference has been seen to
    size a longer run by"."""
    from whist_sim.reports.verdict_section import _multiplicity, _pairwise

    assert "said to separate" not in _multiplicity(3, 1, sized=False)
    assert "said to separate" in _multiplicity(3, 1, sized=True)
    level = SimpleNamespace(name="share of hands won", unit="share", noun="hands", null=0.5)
    flat = {(a, b): np.full(6, 0.5) for a, b in itertools.permutations("xyz", 2)}
    values = SimpleNamespace(values=flat, overall=lambda name: 0.5)
    _, lines, _, _ = _pairwise("german_whist", level, None, ["x", "y", "z"], None,
                               SimpleNamespace(values=values), ())
    assert all("no difference has been seen" in line for line in lines[:3]), lines
    assert lines[3].startswith("\"Decided\" holds for the 3 comparisons together")
    assert "said to separate" not in lines[3]


def test_a_german_variant_with_draws_is_ranked_by_score_share_not_said_won_or_lost(tmp_path):
    """A probe: under count = "all" the report said "heuristic wins 59.3% of hands" beside
    a win rate of 0.538 and a draw rate of 0.110, and "A German Whist hand is won or
    lost"."""
    from whist_sim.games.german_whist import MAX_UNITS
    from whist_sim.reports.comparisons import GERMAN_UNITS, german_hands_can_draw

    assert GERMAN_UNITS == MAX_UNITS  # the report's copy of the game's units
    assert german_hands_can_draw({"count": "all", "race_to": None})
    assert german_hands_can_draw({"count": "all", "race_to": 14})  # 13-13 reaches neither
    assert not german_hands_can_draw({"count": "all", "race_to": 13})
    assert not german_hands_can_draw({"count": "stage2"})
    assert not german_hands_can_draw({"count": "weighted", "race_to": None})
    config = duel_config("heuristic(contest_margin=1)", "heuristic", "german_whist",
                         variant={"count": "all"}, max_deals=40, seed=2)
    run_duel(config, tmp_path / "drawn", workers=0, progress=False)
    verdict = _verdict(tmp_path / "drawn")
    assert "won or lost" not in verdict and "won, lost or drawn" in verdict
    assert "Ranked by score share of hands (a draw half):" in verdict
    import polars as pl

    seats = pl.read_parquet(tmp_path / "drawn" / "data" / "seats")
    mine = seats.filter(pl.col("strategy") == "heuristic")
    assert (mine["result"] == "draw").sum() > 0  # the run has draws to count
    won, drawn = (mine["result"] == "win").sum(), (mine["result"] == "draw").sum()
    found = re.search(r"heuristic scores ([0-9.]+)% of hands against heuristic\(contest_margin=1\),"
                      r" a won hand counting 1 and a drawn one half", verdict)
    assert found is not None, verdict
    assert float(found[1]) == pytest.approx(100 * (won + 0.5 * drawn) / mine.height, abs=0.051)
    assert float(found[1]) != pytest.approx(100 * won / mine.height, abs=0.051)  # not a win rate
    assert "heuristic wins" not in verdict


def test_a_german_variant_without_draws_is_said_won_or_lost(tmp_path):
    from whist_sim.reports.comparisons import RANKING, ranking_figure

    assert ranking_figure("german_whist", {"count": "stage2"}) is RANKING["german_whist"]
    assert "is won or lost" in RANKING["german_whist"].why
    assert "draw" not in RANKING["german_whist"].why


def test_tied_entrants_read_a_shared_place_without_a_point():
    """A probe: "1=. random (A) (50.0%), 1=. random (B) (50.0%)"."""
    from whist_sim.reports.verdict_section import rank_labels, ranking_line

    tied = [("random (A)", "50.0%", 0.5), ("random (B)", "50.0%", 0.5)]
    assert ranking_line(rank_labels(["50.0%", "50.0%"]), tied) == (
        "1= random (A) (50.0%), 1= random (B) (50.0%)")
    three = [("a", "60.0%", 0.6), ("b", "50.0%", 0.5), ("c", "50.0%", 0.5)]
    assert ranking_line(rank_labels([t for _, t, _ in three]), three) == (
        "1. a (60.0%), 2= b (50.0%), 2= c (50.0%)")


def test_a_gap_in_percentage_points_is_the_difference_of_the_percentages_shown():
    """51.75% read 51.8% and its gap from 50% "1.7 percentage points" (a probe)."""
    from whist_sim.reports.document import percent
    from whist_sim.reports.verdict_section import _fmt_gap

    share = 207 / 400
    assert percent(share) == "51.8%"
    assert _fmt_gap(share - 0.5, "share", 0.5) == "1.8 percentage points"


def _knockout_seats(wins_per_deal: list[int]) -> pl.LazyFrame:
    """Nine games of three seats per deal index, r1 in one seat and r2 in two: r1 wins
    ``wins_per_deal[d]`` of deal index d's games and r2 the others."""
    rows = []
    for deal, wins in enumerate(wins_per_deal):
        for game in range(9):
            winner = 0 if game < wins else 1 + game % 2
            for seat, name in enumerate(["r1", "r2", "r2"]):
                rows.append({"deal_key": f"0-{deal}-{game}-0", "deal": deal, "strategy": name,
                             "result": "win" if seat == winner else "loss"})
    return pl.LazyFrame(rows)


@pytest.mark.parametrize("wins", [[3] * 30, [2, 4, 2, 4, 3, 3, 1, 5]])
def test_a_knockout_share_at_the_fair_share_is_no_difference_to_size_a_run_by(wins):
    """r1 won 33.3% against a fair 33.3%, and the sentence went on "about 0 more deals
    would separate a difference of that size" (a statistician's probe): the pooled share
    and 1/3 differ by floating-point noise alone (5.6e-17), as, where every deal index
    gave the same share, does their spread. The general comparisons say it as here."""
    from whist_sim.reports.verdict_section import _knockout

    seats = _knockout_seats(wins)
    ranges = SimpleNamespace(collect_all=lambda queries: pl.collect_all(
        list(queries(lambda _table: seats))))
    _ranked, lines = _knockout(ranges)
    for name in ("r1", "r2"):
        [line] = [line for line in lines if line.startswith(f"{name} wins 33.3%")]
        assert line.endswith("against a fair share of 33.3%: not separated from it; no"
                             " difference has been seen to size a longer run by."), line
        assert "more deals" not in line


CRASHING = '''
from whist_sim.strategy import Strategy


class Crash(Strategy):
    """Raises at every decision: forfeits every hand it sits in."""

    games = frozenset({"german_whist", "solo_whist", "minnesota_whist", "knockout_whist"})

    def choose(self, view, rng):
        raise ValueError("broken on purpose")
'''


def test_net_margins_with_no_spread_and_no_bound_are_shown_without_an_interval():
    """Three Solo deals of a strategy that forfeits every hand: the duel's test said
    "cannot decide ... the pairs all agree (no spread)" and the next sentence "random is
    ahead of crash by 8.000 units per hand (95%: 8.000 to 8.000), over 3 deals: decided."
    (a statistician's probe): the p-value of net margins with no spread was 0. Without
    the game's largest margin they have no interval to test by, as the head-to-head
    table's `8.00 [no spread]` says."""
    from whist_sim.reports.multiplicity import holm, p_value
    from whist_sim.reports.verdict_section import _comparison

    flat = np.full(3, 8.0)
    assert math.isnan(p_value(flat, 0.0, rate=False))
    figure = SimpleNamespace(unit="units per hand", noun="hands", null=0.0)
    line = _comparison("random", "crash", flat, figure, 1.0, holm([p_value(flat, 0.0, False)])[0])
    assert line == ("random and crash are not separated after 3 deals (random is ahead of crash"
                    " by 8.000 units per hand [no spread]): every deal gave the same margin, so"
                    " the difference has no interval to decide it by, nor a spread to say how"
                    " many more deals would; play a longer run.")


def _crash_solo_verdict(tmp_path, monkeypatch, deals: int) -> str:
    tmp_path.mkdir()
    (tmp_path / "verdict_crash.py").write_text(CRASHING)
    monkeypatch.syspath_prepend(str(tmp_path))
    body = f"""
[tournament]
game = "solo_whist"
deals = {deals}
seed = 1
bench_after = 1000

[[strategies]]
use = "verdict_crash:Crash"
label = "crash"

[[strategies]]
use = "random"
"""
    run = make_run_without_ray(tmp_path, body)
    text = build_report(run).markdown.read_text()
    # 16 = half the gap between a payee's +8 and the forfeiter's -24: crash's other seat,
    # paid by its own forfeit, is compared with nobody (it read 8.000 when it was)
    assert "| random | 16.00 [no spread] | — |" in text  # the head-to-head margin
    return text[text.index("\n## Verdict"):text.index("\n## ", text.index("\n## Verdict") + 1)]


def test_solo_deals_that_all_gave_one_margin_are_read_against_the_largest_net(
        tmp_path, monkeypatch):
    """A strategy that forfeits every Solo hand: every deal 16 units behind, the duel's
    pairs all at -8.00. With no spread, the duel never decided and the comparison said
    "play a longer run", which could never help. Read against the largest net of a
    Solo hand (24 units: a forfeit), at half of the error rates (the normal model's is
    the other), 3 deals are still too few, and say how many would do; 13 decide both."""
    verdict = _crash_solo_verdict(tmp_path / "three", monkeypatch, 3)
    assert ("random and crash are not separated after 3 deals (random is ahead of crash by"
            " 16.000 units per hand [no spread]): every deal gave the same margin, so the"
            " interval is the one any margins within 24 units per hand either way allow (97.5%,"
            " half the 5% error spent on deals that all agree: -14.717 to 22.143), which"
            " reaches 0") in verdict
    assert "needs 13 pairs in all, if they go on agreeing at the margin seen so far" in verdict
    assert ": decided" not in verdict and "| random | +16.000 units per hand | no |" in verdict
    verdict = _crash_solo_verdict(tmp_path / "thirteen", monkeypatch, 13)
    assert ("random is ahead of crash by 16.000 units per hand [no spread], over 13 deals:"
            " decided; every deal gave the same margin, so the interval is the one any margins"
            " within 24 units per hand either way allow (97.5%, half the 5% error spent on"
            " deals that all agree: 4.554 to 18.289).") in verdict
    assert "the one-sided 97.5% upper bound of the mean, -0.09 units per hand" in verdict
    assert "a fixed-sample test accepted H0 (crash stronger by less than 10" in verdict
    assert "they were read against the most a pair can be from 0 under this variant, 24" in (
        verdict)
    assert "Caution: decided after only" not in verdict  # no spread was estimated


def test_the_ranking_says_who_met_whom_where_some_entrants_never_met():
    """A gauntlet's ranking said its figures were means over opponents where "each meets
    the other, never itself", and the same section "heuristic and random never met" (a
    statistician's probe)."""
    from whist_sim.reports.verdict_section import _over_other_opponents

    figure = SimpleNamespace(name="share of hands won")
    names = ["bold", "heuristic", "random"]
    assert "(each meets the other, never itself)" in _over_other_opponents(figure, names)
    gauntlet = _over_other_opponents(figure, names, [("heuristic", "random")], ["bold"])
    assert ("(in a gauntlet a candidate meets every other entrant and a baseline only the"
            " candidates; none meets itself)") in gauntlet
    assert "each meets the other" not in gauntlet
    # two baselines of three that met: who never met is named instead
    partly = _over_other_opponents(figure, ["bold", "a", "b", "c"], [("b", "c")], ["bold"])
    assert "(b and c never met; none meets itself)" in partly


def test_a_knockout_report_at_several_table_sizes_repeats_the_runs_verdict(tmp_path):
    """A run of two entrants at tables of 3 and 4 recorded no verdict, and its report gave
    none: the report's test is the run's, over every size's games of a deal index."""
    from tests.tournament_helpers import knockout_sizes_config

    run = make_run_without_ray(tmp_path, knockout_sizes_config(per_task=3), per_task=3)
    recorded = json.loads((run / "run.json").read_text())["verdict"]
    verdict = _verdict(run)
    assert "fixed-sample test of A against B" in verdict
    assert recorded["text"] in verdict
    # its pairs are deal indices of both sizes' line-ups, where the standings count each
    # line-up's apart: the report says which (it read "after 200 pairs" beside 1,000)
    assert "each pair is one deal index: the games of its 3 line-ups, in 8 seatings" in verdict


def test_an_unfinished_knockout_run_at_several_sizes_is_tested_on_whole_deal_indices(
    tmp_path, monkeypatch
):
    """Tasks run deal-major over the line-ups, so a run stopped after its first task of
    four items holds deal index 0 at both sizes (3 + 3 + 2 games) and deal index 1 in the
    line-up A B A only: that deal's share of its 3 games is no pair value of the test,
    which reads every game of a deal index (it stopped the report: 1/3 is not on the
    grid of eighths)."""
    from tests.tournament_helpers import (
        interrupt_in_process_at,
        knockout_sizes_config,
        write_config,
    )
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import run_tournament

    body = knockout_sizes_config(per_task=4)
    interrupt_in_process_at(monkeypatch, 2)
    summary = run_tournament(load_config(write_config(tmp_path, body)), tmp_path / "run",
                             workers=0, progress=False)
    monkeypatch.undo()
    assert summary.status == "interrupted"
    verdict = _verdict(summary.path)
    assert "over the deals played so far, not a verdict yet" in verdict
    assert "after 1 pair" in verdict


BO3_DEAL_VALUES = [
    0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.9, 0.8, 0.8, 1.0, 1.0, 1.0, 1.0, 0.8, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 1.0, 0.9, 1.0, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 0.8, 1.0, 0.9, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 1.0, 1.0, 1.0, 0.8,
    1.0, 1.0, 0.8, 1.0, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 0.8, 1.0, 1.0, 1.0, 1.0, 0.8, 1.0, 1.0, 1.0, 0.5, 1.0, 0.9, 1.0, 1.0, 1.0, 0.75,
    1.0, 1.0, 0.8, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
"""heuristic's score share against random per deal index in a best-of-3 duel (a probe's
run): 0.9575 on average, which Polars summed to 0.9574999999999997."""


def test_a_duels_ranking_and_its_comparison_show_the_same_share():
    """The ranking read 95.7% and the comparison beside it 95.8%, of the same deals."""
    from whist_sim.reports.comparisons import PairValues
    from whist_sim.reports.document import percent
    from whist_sim.reports.verdict_section import _comparison

    x = np.array(BO3_DEAL_VALUES)
    values = PairValues(values={("heuristic", "random"): x, ("random", "heuristic"): 1 - x})
    figure = SimpleNamespace(unit="share", noun="hands", null=0.5)
    line = _comparison("heuristic", "random", x, figure, 1.0)
    shown = percent(values.overall("heuristic"))
    assert shown == "95.8%" and f"wins {shown} of hands against random" in line
    assert percent(values.overall("random")) == "4.2%"


def test_a_race_is_not_said_to_score_by_how_much():
    """Under race_to every hand scores 1: the verdict said "the score only says by how
    much" of such runs."""
    from whist_sim.reports.comparisons import ranking_figure

    base = {"count": "stage2", "match": "single", "open_stock": 1, "trumps": "upcard"}
    race = ranking_figure("german_whist", {**base, "race_to": 5}).why
    assert "by how much" not in race and "every hand scores exactly 1" in race
    drawn_race = ranking_figure("german_whist", {**base, "count": "all", "race_to": 20}).why
    assert "by how much" not in drawn_race and "drawn" in drawn_race
    assert "by how much" in ranking_figure("german_whist", {**base, "race_to": None}).why


def test_the_ranking_table_says_which_places_are_resolved(tmp_path):
    """The ranking table (and verdict_ranking.csv) gave strict places 1 to 3 where the
    prose said the two heuristics were not separated: a reader publishing the CSV
    published an order the data did not give (a ranking probe). Each row now says
    whether it is decided ahead of the next."""
    build_report(make_run_without_ray(tmp_path, GERMAN), tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    verdict = text[text.index(f"## {TITLE}"):text.index("\n## ", text.index(f"## {TITLE}"))]
    ranking = pl.read_csv(tmp_path / "report" / "tables" / "verdict_ranking.csv")
    said = ranking["decided ahead of the next"].to_list()
    names = ranking["entrant"].to_list()
    assert said[-1] == "-"  # the last has no next
    assert set(said[:-1]) == {"yes", "no"}  # heuristics apart from random, not each other
    for (a, b), cell in zip(itertools.pairwise(names), said, strict=False):
        [line] = [line for line in verdict.splitlines()
                  if re.search(rf"\b{a}\b", line) and re.search(rf"\b{b}\b", line)
                  and not line.startswith(("Ranked", "|"))]
        assert cell == ("yes" if line.rstrip().endswith(" decided.") else "no"), (line, cell)


def test_more_deals_to_separate_says_what_its_probability_rests_on(tmp_path):
    """"about 121 more deals would separate a difference of that size with 80%
    probability" held about 61% of the time when a probe played them: the figure is the
    power calculation's, at the difference and spread seen, and says so."""
    verdict = _verdict(make_run_without_ray(tmp_path, GERMAN))
    [line] = [line for line in verdict.splitlines() if "more deals would separate" in line]
    assert line.endswith("with 80% probability, if it is truly that size, at the spread"
                         " seen so far."), line


def test_a_two_seat_knockout_ranking_names_the_ratings_its_report_has():
    """A Knock-out probe: at two seats the verdict said "the `who wins` ratings are fitted
    to the same first places", but the Ratings section there is Bradley-Terry's."""
    from whist_sim.reports.comparisons import ranking_figure

    two = ranking_figure("knockout_whist", {}, players=[2]).why
    assert "who wins" not in two and "Bradley-Terry ratings" in two
    several = ranking_figure("knockout_whist", {}, players=[2, 4]).why
    assert "`who wins` ratings" in several
    assert "`who wins` ratings" in ranking_figure("knockout_whist", {}).why


def test_a_knockout_order_that_reverses_between_table_sizes_is_said():
    """A Knock-out probe: "1. reckless (25.5% at 5, 22.2% at 7; 1.44x a fair share), 2.
    heuristic (29.0% at 5, 19.1% at 7; 1.39x)" hid that heuristic was ahead at five seats
    and behind at seven, the pooled figure following the size with more games."""
    from whist_sim.reports.verdict_section import order_reversals

    best = {"reckless": [(5, 0.255), (7, 0.222)], "heuristic": [(5, 0.290), (7, 0.191)],
            "random": [(5, 0.10), (7, 0.08)]}
    (text,) = order_reversals(best)
    assert ("heuristic is ahead of reckless at 5 seats (29.0% against 25.5%) and behind"
            " at 7 (19.1% against 22.2%)") in text
    assert "random" not in text
    assert order_reversals({"a": [(5, 0.3), (7, 0.3)], "b": [(5, 0.2), (7, 0.1)]}) == []
    assert order_reversals({"a": [(5, 0.3)], "b": [(5, 0.2)]}) == []


def test_knockout_ratings_do_not_send_the_reader_to_a_comparison_it_lacks():
    """A Knock-out probe: the Ratings section said whether one entrant is ahead of another
    "is the verdict's comparison of the two", but a Knock-out verdict tests each entrant
    against the fair share only."""
    from whist_sim.reports.rating_notes import rating_notes

    (knockout,) = rating_notes({"game": "knockout_whist"}, ["a", "b", "c"])
    assert "verdict's comparison of the two" not in knockout
    assert "against the fair share" in knockout and "Head to head" in knockout
    (solo,) = rating_notes({"game": "solo_whist"}, ["a", "b", "c"])
    assert "verdict's comparison of the two" in solo


def test_a_knockout_duels_fair_share_lines_do_not_ask_for_more_deals(tmp_path):
    """A Knock-out probe: a 5-seat duel's SPRT accepted H0 after 100 pairs, and the
    fair-share sentences below it said "about 1,331 more deals would separate a difference
    of that size": the duel is the test of the two, and it had ended."""
    from tests.tournament_helpers import make_run_without_ray
    from whist_sim.reports.verdict_section import verdict_section
    from whist_sim.store import RunFolder

    body = """
[tournament]
game = "knockout_whist"
players = 5
deals = 30
seed = 5
deals_per_task = 10

[[strategies]]
use = "heuristic"
label = "a"

[[strategies]]
use = "heuristic"
label = "b"
params = { survival_weight = 0.0 }

[variant]
dogs_life = "first_knockout"
"""
    folder = RunFolder.open(make_run_without_ray(tmp_path, body))
    text = "\n".join(verdict_section(folder, folder.path / "report")[0].paragraphs)
    assert "more deals would separate" not in text
    assert "the test of the two entrants is the duel's, above" in text


TILTED = '''
from strategies.random_play import RandomStrategy


class Tilted(RandomStrategy):
    """Random play, but now and then the highest legal card: a little weaker than random."""

    def choose(self, view, rng):
        if rng.random() < 0.15 and view.legal:
            return view.legal.bit_length() - 1
        return super().choose(view, rng)
'''


def test_a_test_that_decides_where_the_comparison_does_not_says_they_ask_different_things(
        tmp_path, monkeypatch):
    """A statistician's probe read the fixed test's "accepted H1" beside the comparison's
    "not separated", both right, with only the test's sentence saying which question it
    answered. Seed 22 gives such a run: one-sided p below 0.05, two-sided above."""
    from whist_sim.reports.verdict_section import verdict_section
    from whist_sim.store import RunFolder

    (tmp_path / "verdict_tilted.py").write_text(TILTED)
    monkeypatch.syspath_prepend(str(tmp_path))
    body = """
[tournament]
game = "german_whist"
deals = 30
seed = 22

[[strategies]]
use = "random"

[[strategies]]
use = "verdict_tilted:Tilted"
label = "tilted"
"""
    run = make_run_without_ray(tmp_path, body)
    [section] = verdict_section(RunFolder.open(run), tmp_path / "out")
    verdict = "\n\n".join(section.paragraphs)
    assert "a fixed-sample test accepted H1" in verdict
    assert "random and tilted are not separated after 30 deals" in verdict
    note = section.paragraphs[-1]
    assert note.startswith("The test accepted H1 where the comparison above did not separate"
                           " the two: both hold, each at its own error rate.")
    assert "in the direction the config set (A is its first entrant)" in note
    assert "clears H0's 0 Elo per hand, with a false \"stronger\" at most 0.05" in note
    assert "95% interval, with 2.5% at each end, leaves out equality" in note


@pytest.mark.parametrize(("decision", "separated", "opening"), [
    ("H1", False, "The test accepted H1 where the comparison above did not separate the two"),
    ("inconclusive", True, "The comparison above separated the two where the test did not"
                           " decide"),
    ("H0", False, None),  # "not stronger by 10" beside "not separated": they agree
    ("H0", True, None),
    ("H1", True, None),
    ("inconclusive", False, None),
    ("continue", True, None),  # an interim look of a sequential test is no answer yet
])
def test_the_two_questions_are_told_apart_only_where_the_answers_differ(
        decision, separated, opening):
    from whist_sim.inference import SprtSettings
    from whist_sim.reports.verdict_section import _two_questions

    duel = SimpleNamespace(decision=decision, settings=SprtSettings.from_mapping({}),
                           estimate=SimpleNamespace(unit="Elo per hand", mean_unit="share"),
                           sequential=False)
    note = _two_questions(duel, separated)
    assert (note[0].split(":")[0] if note else None) == opening
    if decision == "inconclusive" and note:
        assert "whether A is stronger by at least 10 rather than at most 0 Elo per hand" \
            in note[0]
    if decision == "H1" and note:  # a sequential test accepts by its likelihood ratio
        sequential = _two_questions(SimpleNamespace(**{**vars(duel), "sequential": True}),
                                    separated)[0]
        assert ("it accepts H1 once the likelihood ratio of H1 (at least 10) against H0 (at"
                " most 0 Elo per hand) crosses Wald's bound") in sequential
        assert "lower bound" not in sequential
