"""A sequential test's maximum too short for its hypotheses is said before the pairs run out.

The verdict of a test that reached its maximum says the maximum was short, but only
after every pair was played. A maximum below twice the fixed-sample length of the
hypotheses ends inconclusive often (docs/statistics.md, "A maximum long enough"):
hypotheses in normalised Elo are weighed when the config is read, others once the
first pairs show their spread.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from whist_sim.cli import _as_options
from whist_sim.inference import (
    fixed_sample_pairs,
    needs_spread,
    sequential_verdict,
    short_maximum_warning,
)
from whist_sim.inference.sprt import ADVISED_MAXIMUM, FEW_PAIRS
from whist_sim.tournament.config import duel_model
from whist_sim.tournament.duel import duel_config, run_duel
from whist_sim.tournament.sequential import DuelTracker


def _solo(max_deals: int, **sprt):
    return duel_config("heuristic", "random", "solo_whist", max_deals=max_deals,
                       sprt={"elo0": 0, "elo1": 40, **sprt})


def _advised(config) -> int:
    model = duel_model(config)
    return ADVISED_MAXIMUM * fixed_sample_pairs(model, config.sprt.settings(), 1.0)


def test_a_maximum_below_twice_the_fixed_sample_length_is_warned_before_a_card():
    advised = _advised(_solo(10_000))
    config = _solo(advised - 1)
    [warning] = config.warnings
    assert warning.startswith(f"duel: tournament.deals = {advised - 1:,} is short")
    assert f"a fixed-sample test of them needs {advised // ADVISED_MAXIMUM:,} pairs" in warning
    assert f"set at least {advised:,}" in warning
    assert _solo(advised).warnings == []


def test_the_duel_command_names_its_option_in_the_warning():
    [warning] = _solo(100).warnings
    assert _as_options(warning).startswith("--max-deals 100 is short for these hypotheses")


@pytest.mark.parametrize(("game", "sprt"), [
    ("german_whist", {"elo0": 0, "elo1": 10}),       # pentanomial: a bounded grid
    ("knockout_whist", {"elo0": 0, "elo1": 10}),     # a share of games
    ("solo_whist", {"net0": 0, "net1": 0.5}),        # points per hand
])
def test_hypotheses_whose_length_depends_on_the_spread_wait_for_the_pairs(game, sprt):
    config = duel_config("heuristic", "random", game, max_deals=20, sprt=sprt)
    assert needs_spread(duel_model(config), config.sprt.settings())
    assert config.warnings == []


def _german_tracker(max_deals: int) -> DuelTracker:
    config = duel_config("heuristic", "random", "german_whist", max_deals=max_deals,
                         sprt={"elo0": 0, "elo1": 10, "batch": 10})
    return DuelTracker(config)


def _pentanomial_values(count: int) -> np.ndarray:
    """Pair values on the quarters' grid with a spread and a mean between the hypotheses."""
    return np.resize(np.array([0.0, 0.25, 0.5, 0.75, 1.0, 0.5, 0.5, 0.75]), count)


def test_the_tracker_says_once_after_enough_pairs_that_its_maximum_is_short():
    tracker = _german_tracker(max_deals=200)
    tracker.add_values(np.arange(200), _pentanomial_values(200))
    tracker.look(FEW_PAIRS - 10)
    assert tracker.take_note() is None  # too few pairs to read a spread from
    tracker.look(FEW_PAIRS)
    note = tracker.take_note()
    sd = tracker.verdict.estimate.sd
    fixed = fixed_sample_pairs(tracker.model, tracker.settings, sd)
    assert note is not None and note.startswith("the maximum (tournament.deals, a duel's"
                                                " --max-deals) = 200 is short")
    assert f"needs {fixed:,} pairs at the spread of the first {FEW_PAIRS} pairs" in note
    assert tracker.take_note() is None  # taken once
    tracker.look(FEW_PAIRS + 50)
    assert tracker.take_note() is None  # and weighed once


def test_the_tracker_is_silent_when_the_maximum_is_long_enough():
    tracker = _german_tracker(max_deals=200_000)
    tracker.add_values(np.arange(100), _pentanomial_values(100))
    tracker.look(100)
    assert tracker.take_note() is None


def test_a_duel_run_prints_the_note_while_it_plays(tmp_path, capsys):
    config = duel_config("heuristic", "random", "german_whist", max_deals=60, seed=4,
                         sprt={"elo0": 0, "elo1": 5, "batch": 30}, deals_per_task=10)
    run_duel(config, tmp_path / "duel", workers=0, progress=False)
    err = capsys.readouterr().err
    assert "note: the maximum (tournament.deals, a duel's --max-deals) = 60 is short" in err
    assert err.count("is short for these hypotheses") == 1


def test_pairs_without_spread_say_nothing_of_the_length_yet():
    """A spread of 0 (every pair alike so far) would make the fixed-sample length 2."""
    tracker = _german_tracker(max_deals=200)
    for sd in (None, 0.0, float("nan")):
        assert short_maximum_warning(tracker.model, tracker.settings, 200, "m", sd=sd) is None
    tracker.add_values(np.arange(60), np.full(60, 0.5))
    tracker.look(60)
    assert tracker.take_note() is None


@pytest.mark.parametrize("sprt", [{"elo0": 0, "elo1": 1e-300}, {"net0": 0, "net1": 1e-300}])
def test_hypotheses_too_close_to_count_pairs_for_are_warned_of_not_a_traceback(sprt):
    """elo1 = 1e-300 overflowed the fixed-sample length into an OverflowError while the
    config was read (a hostile reading of the new warning)."""
    from whist_sim.inference import SprtError

    config = duel_config("heuristic", "random", "solo_whist", sprt=sprt)
    model, settings = duel_model(config), config.sprt.settings()
    with pytest.raises(SprtError, match="need more than 1e\\+15 pairs"):
        fixed_sample_pairs(model, settings, 1.0)
    warning = short_maximum_warning(model, settings, 20_000, "m", sd=1.0, seen=30)
    assert warning is not None and "needs more than 1e+15 pairs" in warning


def _between_values(count: int) -> np.ndarray:
    """Pentanomial pair values whose estimate lies between elo0 = 0 and elo1 = 10 (about
    +4 Elo), with a spread: a duel of them cannot decide in a few hundred pairs."""
    return np.resize(np.array([0.25, 0.75] * 10 + [0.5] * 19 + [0.75]), count)


def _ran_out(maximum: int, **sprt):
    config = duel_config("heuristic", "random", "german_whist", max_deals=maximum,
                         sprt={"elo0": 0, "elo1": 10, **sprt})
    model, settings = duel_model(config), config.sprt.settings()
    verdict = sequential_verdict(model, settings, _between_values(maximum), finished=True,
                                 batch=20)
    return model, settings, verdict


def test_a_verdict_that_ran_out_below_the_advised_maximum_says_so_with_its_estimate_between():
    """A probe: the console said "300 is short (a fixed-sample test needs 2,013 pairs)", the
    verdict "which often means the true difference lies between the two"."""
    model, settings, verdict = _ran_out(300)
    low, high = settings.bounds
    assert verdict.decision == "inconclusive" and low <= verdict.estimate.elo <= high
    fixed = fixed_sample_pairs(model, settings, verdict.estimate.sd)
    assert ADVISED_MAXIMUM * fixed > 300  # the console's criterion: short
    assert short_maximum_warning(model, settings, 300, "m", sd=verdict.estimate.sd,
                                 seen=300) is not None
    text = verdict.text("a", "b")
    assert "the maximum is too short for hypotheses this close together" in text
    assert (f"a fixed-sample test of them needs {fixed:,} pairs, and a sequential test a"
            f" maximum of at least {ADVISED_MAXIMUM * fixed:,}") in text
    assert "lies between the two" not in text
    record = verdict.as_dict("a")
    assert record["maximum_too_short"] is True and record["fixed_sample_pairs"] == fixed


def test_a_verdict_that_ran_out_at_a_long_enough_maximum_says_the_difference_may_lie_between():
    """The same pairs and maximum, the hypotheses' length (as if) at most half of it: no
    word of a short maximum."""
    _model, _settings, verdict = _ran_out(300)
    enough = dataclasses.replace(verdict, fixed_pairs=300 / ADVISED_MAXIMUM)
    assert not enough.maximum_too_short and enough.as_dict()["maximum_too_short"] is False
    text = enough.text("a", "b")
    assert text.endswith("which often means the true difference lies between the two.")
    assert "too short" not in text


@pytest.mark.parametrize(("values", "where"), [
    ([1.0] * 5, ", though its whole 95% interval lies above H1 (elo1 = 10): the maximum of"
                " 5 pairs was too short"),
    ([0.0] * 5, ", though its whole 95% interval lies below H0 (elo0 = 0): the maximum of"
                " 5 pairs was too short"),
    ([1.0], "; the maximum of 1 pair was too short"),
    ([0.5] * 60, "; the maximum of 60 pairs was too short"),
], ids=["all won", "all lost", "one pair", "all even"])
def test_a_verdict_whose_pairs_show_no_spread_says_its_maximum_was_too_short(values, where):
    """Five pairs all won (+inf Elo, 95%: at least +46, against 0/10) read "which often
    means the true difference lies between the two", and run.json "maximum_too_short:
    false" (a statistician's probe): pairs without a spread cannot show how many pairs
    the hypotheses need, so the criterion of the console's note never fired."""
    config = duel_config("heuristic", "random", "german_whist", max_deals=len(values),
                         sprt={"elo0": 0, "elo1": 10})
    verdict = sequential_verdict(duel_model(config), config.sprt.settings(), values,
                                 finished=True, batch=20)
    assert verdict.decision == "inconclusive"
    text = verdict.text("a", "b")
    assert f"{where} for the test to decide (" in text
    assert "show how many pairs these hypotheses need); play more pairs" in text
    assert "lies between the two" not in text
    record = verdict.as_dict("a")
    assert record["maximum_too_short"] is True and record["fixed_sample_pairs"] is None


def test_a_verdict_whose_interval_lies_beyond_both_hypotheses_says_its_maximum_was_too_short():
    """Even at a maximum long enough by the console's criterion: the pairs place the
    difference outside both hypotheses, so it is not between them that the test ran out."""
    _model, _settings, verdict = _ran_out(300)
    beyond = dataclasses.replace(verdict, fixed_pairs=10, estimate=dataclasses.replace(
        verdict.estimate, elo=30.0, elo_lo=12.0, elo_hi=48.0))
    assert beyond.maximum_too_short and beyond.as_dict()["maximum_too_short"] is True
    assert beyond.text("a", "b").endswith(
        ", though its whole 95% interval lies above H1 (elo1 = 10): the maximum of 300 pairs"
        " was too short for the test to decide; play more pairs (--max-deals) or set them"
        " further apart.")
    straddles = dataclasses.replace(beyond, estimate=dataclasses.replace(
        beyond.estimate, elo_lo=5.0))
    assert not straddles.maximum_too_short
    assert straddles.text("a", "b").endswith(
        ", though the estimate lies above H1 (elo1 = 10); its 95% interval reaches between"
        " the two, where the true difference may lie.")


def test_only_a_test_that_ran_out_is_weighed_against_its_maximum():
    config = duel_config("heuristic", "random", "german_whist", max_deals=300,
                         sprt={"elo0": 0, "elo1": 10})
    model, settings = duel_model(config), config.sprt.settings()
    going = sequential_verdict(model, settings, _between_values(300), finished=False)
    assert going.decision == "continue" and not going.maximum_too_short
    assert going.as_dict()["fixed_sample_pairs"] is None


def test_a_duel_that_ran_out_records_the_short_maximum_in_run_json_and_the_report(tmp_path):
    """The console's note was nowhere in the verdict, the report or run.json (a probe)."""
    config = duel_config("heuristic", "heuristic(contest_margin=-0.5)", "german_whist",
                         max_deals=60, sprt={"elo0": 0, "elo1": 5, "batch": 30},
                         deals_per_task=10)
    summary = run_duel(config, tmp_path / "duel", workers=0, progress=False)
    assert summary.verdict.decision == "inconclusive"  # 60 pairs cannot tell 0 from 5
    recorded = json.loads((tmp_path / "duel" / "run.json").read_text())["verdict"]
    assert recorded["maximum_too_short"] is True
    assert recorded["maximum_note"].startswith("the maximum (tournament.deals, a duel's"
                                               " --max-deals) = 60 is short")
    assert "the maximum is too short" in recorded["text"]
    assert recorded["text"] == summary.verdict_text()
    from whist_sim.reports.build import build_report

    report = build_report(tmp_path / "duel").markdown.read_text()
    assert "the maximum is too short for hypotheses this close together" in report


def _solo_set(tmp_path, deals: int):
    """A hand-written Solo Whist deal set of ``deals`` seeded deals."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from whist_sim.games import make_game

    game = make_game("solo_whist")
    rows = [{"deal": deal, "hand": 0, "game": "solo_whist",
             **game.new_deal(1000 + deal, 0).deal_record()} for deal in range(deals)]
    path = tmp_path / "set.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_a_maximum_set_by_a_deal_set_says_a_larger_set_raises_it(tmp_path):
    """A duel from a 200-deal set was told "set at least 1,864", but tournament.deals may
    not exceed the set's deals: only a larger set (or hypotheses further apart) helps."""
    from whist_sim.tournament.config import load_config

    path = tmp_path / "duel.toml"
    path.write_text('[tournament]\ngame = "solo_whist"\ndeals_file = "set.parquet"\n'
                    '[sprt]\nelo0 = 0\nelo1 = 40\n[[strategies]]\nuse = "heuristic"\n'
                    '[[strategies]]\nuse = "random"\n')
    _solo_set(tmp_path, 5)
    [warning] = load_config(path).warnings
    assert warning.startswith(
        f"{path}: tournament.deals (at most the deals of tournament.deals_file: a larger deal"
        " set raises it) = 5 is short for these hypotheses")
    config = duel_config(
        "heuristic", "random", "german_whist", max_deals=200,
        sprt={"elo0": 0, "elo1": 10, "batch": 10})
    config.tournament.deals_file = str(tmp_path / "set.parquet")
    tracker = DuelTracker(config)
    tracker.add_values(np.arange(200), _pentanomial_values(200))
    tracker.look(FEW_PAIRS)
    assert tracker.take_note().startswith(
        "the maximum (tournament.deals, at most the deals of tournament.deals_file: a larger"
        " deal set raises it) = 200 is short")


def test_a_verdict_that_ran_out_names_what_raises_its_maximum(tmp_path):
    """A duel config played from a set of 6 deals ended "play more pairs (--max-deals)":
    a config run has no such option, and a deal set's deals are its maximum (a probe)."""
    config = duel_config("heuristic", "random", "german_whist", max_deals=40,
                         sprt={"elo0": 0, "elo1": 50, "batch": 40})
    values = _pentanomial_values(40)

    def advice(tracker):
        tracker.add_values(np.arange(40), values)
        tracker.look(40)
        assert tracker.verdict.decision == "inconclusive", tracker.verdict.text("a", "b")
        return tracker.verdict.text("a", "b")

    seeded = advice(DuelTracker(config))
    assert "play more pairs (tournament.deals, a duel's --max-deals) or set them" in seeded
    config.tournament.deals_file = str(tmp_path / "set.parquet")
    from_set = advice(DuelTracker(config))
    assert ("play more pairs (a larger tournament.deals_file: the set's deals are the"
            " maximum) or set them further apart.") in from_set
    assert "--max-deals" not in from_set


@pytest.mark.parametrize(("game", "sprt", "figures", "simulated"), [
    ("german_whist", {"elo0": 0, "elo1": 10}, "9-12% ", "German Whist-like pentanomial pairs"),
    ("solo_whist", {"elo0": 0, "elo1": 10}, "12-14% ", "normal pairs"),
    ("knockout_whist", {"elo0": 0, "elo1": 10}, "9-11% ",
     "Knock-out Whist-like share pairs (four seats, A B A B)"),
])
def test_the_short_maximum_note_quotes_what_was_simulated_for_its_model(
        game, sprt, figures, simulated):
    """The note quoted normal pairs' 12-14% for every game; German Whist's pentanomial
    duels were measured at 9-12% and Knock-out Whist's share duels at four seats at 9-11%
    (docs/statistics.md, "A maximum long enough"), and a figure quoted without what it
    was measured on reads as the game's own."""
    config = duel_config("heuristic", "random", game, sprt=sprt)
    model, settings = duel_model(config), config.sprt.settings()
    warning = short_maximum_warning(model, settings, 10, "m", sd=0.4, seen=30)
    assert warning is not None
    assert f"({figures}of simulated duels of {simulated}" in warning, warning
