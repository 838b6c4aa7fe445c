"""Duels: A against B in batches of duplicate pairs until a sequential test decides.

The stop must not depend on how the work was cut: the same rows and the same
verdict for any number of workers, any task size, and a resume in the middle.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from tests.tournament_helpers import (
    assert_same_rows,
    interrupt_in_process_at,
    knockout_sizes_config,
    run_rows,
    write_config,
)
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.duel import duel_config, parse_entrant, parse_settings, run_duel
from whist_sim.tournament.runner import resume_tournament, run_tournament

ROOT = Path(__file__).resolve().parents[1]

SPRT_FAST = {"elo0": 0, "elo1": 150, "alpha": 0.05, "beta": 0.05, "batch": 10}
"""Hypotheses far apart, so heuristic against random decides within a few batches."""


def _duel(tmp_path, name: str, *, per_task=4, workers=0, **kwargs):
    options = {"sprt": SPRT_FAST, "max_deals": 400, "seed": 7, **kwargs}
    config = duel_config("heuristic", "random", "german_whist", deals_per_task=per_task,
                         **options)
    return run_duel(config, tmp_path / name, workers=workers, progress=False)


def test_sequential_duel_stops_at_a_batch_with_a_recorded_verdict(tmp_path):
    summary = _duel(tmp_path, "duel")
    assert summary.verdict.decision == "H1"
    rows = run_rows(summary.path)
    deals = rows["deals"]["deal"].unique().sort().to_list()
    assert deals == list(range(len(deals)))  # a prefix of the plan...
    assert len(deals) % SPRT_FAST["batch"] == 0 and len(deals) < 400  # ...ending at a batch
    assert summary.verdict.estimate.pairs == len(deals)
    meta = json.loads((summary.path / "run.json").read_text())
    assert meta["status"] == "complete"
    assert meta["verdict"]["decision"] == "H1"
    assert meta["verdict"]["deals_read"] == len(deals)
    assert "heuristic is stronger than random" in summary.verdict_text()
    assert "SPRT accepted H1" in summary.verdict_text()


def test_sequential_duel_same_rows_for_any_task_size_and_workers(tmp_path, ray_cluster):
    one = _duel(tmp_path, "one", per_task=1)
    five = _duel(tmp_path, "five", per_task=5)
    on_ray = _duel(tmp_path, "ray", per_task="auto", workers=2)
    rows = run_rows(one.path)
    assert_same_rows(rows, run_rows(five.path))
    assert_same_rows(rows, run_rows(on_ray.path))
    assert one.verdict.llr == five.verdict.llr == on_ray.verdict.llr


def test_resumed_duel_equals_the_uninterrupted_one(tmp_path, monkeypatch):
    reference = _duel(tmp_path, "reference", per_task=2)
    interrupt_in_process_at(monkeypatch, 4)
    stopped = _duel(tmp_path, "stopped", per_task=2)
    assert stopped.status == "interrupted"
    monkeypatch.undo()
    resumed = resume_tournament(stopped.path, workers=0, progress=False)
    assert resumed.status == "complete"
    assert_same_rows(run_rows(resumed.path), run_rows(reference.path))
    assert resumed.verdict.llr == reference.verdict.llr
    decisions = {name: json.loads((run / "run.json").read_text())["decisions"]
                 for name, run in (("resumed", resumed.path), ("reference", reference.path))}
    for label in ("heuristic", "random"):  # the interrupted session's decisions are kept
        assert decisions["resumed"][label][0] == decisions["reference"][label][0]
    # resuming a decided duel plays nothing more
    again = resume_tournament(stopped.path, workers=0, progress=False)
    assert again.tasks_run == 0 and again.verdict.decision == "H1"


def test_duel_without_sprt_plays_every_deal_and_gives_a_fixed_sample_verdict(tmp_path):
    config = duel_config("heuristic", "heuristic", "german_whist", max_deals=30, seed=1)
    summary = run_duel(config, tmp_path / "self", workers=0, progress=False)
    assert config.labels() == ["heuristic (A)", "heuristic (B)"]
    assert summary.verdict.sequential is False
    assert summary.verdict.estimate.pairs == 30
    assert summary.verdict.decision in ("H0", "inconclusive")
    assert "fixed-sample" in summary.verdict_text()


def test_config_with_sprt_section_is_the_duel(tmp_path):
    body = """
[tournament]
game = "german_whist"
deals = 400
seed = 7
deals_per_task = 4

[sprt]
elo0 = 0
elo1 = 150
batch = 10

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
"""
    config = load_config(write_config(tmp_path, body))
    from_file = run_tournament(config, tmp_path / "file", workers=0, progress=False)
    duel = _duel(tmp_path, "duel")
    assert_same_rows(run_rows(from_file.path), run_rows(duel.path))
    assert from_file.verdict.decision == duel.verdict.decision


@pytest.mark.parametrize(
    ("game", "players", "variant"),
    [
        ("solo_whist", None, {}),
        ("minnesota_whist", None, {"target": 5}),
        ("knockout_whist", 3, {}),
        ("knockout_whist", 4, {}),
    ],
)
def test_every_game_duels(tmp_path, game, players, variant):
    config = duel_config("heuristic", "random", game, variant=variant, players=players,
                         max_deals=20, seed=2, sprt={"elo0": 0, "elo1": 200, "batch": 10})
    summary = run_duel(config, tmp_path / game, workers=0, progress=False)
    assert summary.verdict.decision in ("H1", "H0", "inconclusive")
    assert summary.verdict.estimate.pairs in (10, 20)
    rows = run_rows(summary.path)
    assert rows["deals"]["deal"].max() < summary.verdict.estimate.pairs
    # Solo Whist scores in units, as its report does; it read "points per hand" (a probe)
    assert summary.verdict.estimate.mean_unit == {"solo_whist": "units per hand",
                                                  "minnesota_whist": "points per hand"}.get(
        game, "share")


def test_entrants_and_settings_parse_like_config_values():
    assert parse_entrant("pimc(worlds=40, exact=true)") == {
        "use": "pimc", "params": {"worlds": 40, "exact": True}}
    assert parse_entrant("pkg.mod:Bot") == {"use": "pkg.mod:Bot", "params": {}}
    assert parse_settings(["count=all", "open_stock=3"]) == {"count": "all", "open_stock": 3}
    with pytest.raises(ConfigError, match="not key=value"):
        parse_entrant("pimc(40)")
    with pytest.raises(ConfigError, match="key=value"):
        parse_settings(["count"])


def test_a_parameter_or_setting_given_twice_is_refused_not_overwritten():
    with pytest.raises(ConfigError, match="parameter 'worlds' is given twice"):
        parse_entrant("pimc(worlds=2, worlds=3)")
    with pytest.raises(ConfigError, match="'count' is given twice"):
        parse_settings(["count=all", "count=none"])


@pytest.mark.parametrize(
    ("sprt", "fragments"),
    [
        ("elo0=10 elo1=5", ["elo0", "elo1"]),
        ("elo0=0 elo1=10 alpha=0.7", ["alpha", "0.5"]),
        ("elo0=0 elo1=10 beta=0", ["beta", "0.5"]),
        ("elo0=0 elo1=10 gamma=1", ["gamma", "elo0", "alpha"]),
        ("net0=0 net1=1", ["net0", "solo_whist"]),
    ],
)
@pytest.mark.slow
def test_bad_sprt_is_one_line_before_any_work(tmp_path, sprt, fragments):
    out = tmp_path / "never"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "duel", "heuristic", "random", "--game",
         "german_whist", "--sprt", sprt, "--workers", "0", "--out", str(out), "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    assert not out.exists()


@pytest.mark.parametrize("max_deals", [0, -3])
def test_a_cap_of_no_deals_is_refused_not_taken_for_the_default(max_deals):
    """--max-deals 0 once played the default 1,000 deals. The error names the argument
    given, not the config key it becomes (``tournament.deals``, which no duel's user wrote)."""
    with pytest.raises(ConfigError) as refused:
        duel_config("random", "random", "german_whist", max_deals=max_deals)
    assert str(refused.value) == (f"duel: max_deals = {max_deals}: out of range;"
                                  " allowed values: whole numbers 1..1,000,000,000")


def test_a_cap_that_is_not_a_whole_number_is_refused_naming_its_kind():
    with pytest.raises(ConfigError, match="duel: max_deals = '10': not a whole number"):
        duel_config("random", "random", "german_whist", max_deals="10")


def test_sprt_needs_exactly_two_entrants(tmp_path):
    body = """
[tournament]
game = "german_whist"
deals = 10

[sprt]
elo1 = 10
elo0 = 0

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"

[[strategies]]
use = "solver"
"""
    with pytest.raises(ConfigError, match="two entrants"):
        load_config(write_config(tmp_path, body))


@pytest.mark.slow
def test_cli_duel_prints_standings_and_verdict(tmp_path):
    out = tmp_path / "cli"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "duel", "heuristic", "random", "--game",
         "german_whist", "--sprt", "elo0=0 elo1=150 batch=10", "--max-deals", "400",
         "--workers", "0", "--out", str(out), "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "verdict: heuristic is stronger than random" in result.stdout
    assert "win rate [95% CI]" in result.stdout
    assert pl.read_parquet(next((out / "data" / "deals").glob("*.parquet"))).height > 0


@pytest.mark.slow
def test_a_duel_of_two_line_ups_reads_whole_deals_whatever_the_task_size(tmp_path):
    """At three seats a duel plays A B A and B A B on every deal; a task never splits them."""
    def play(name: str, per_task: int):
        config = duel_config("heuristic", "random", "knockout_whist", players=3,
                             max_deals=40, seed=5, deals_per_task=per_task,
                             sprt={"elo0": 0, "elo1": 100, "batch": 10})
        return run_duel(config, tmp_path / name, workers=0, progress=False)

    one, five = play("one", 1), play("five", 5)
    assert json.loads((five.path / "run.json").read_text())["plan"]["deals_per_task"] == 4
    assert_same_rows(run_rows(one.path), run_rows(five.path))
    assert one.verdict.llr == five.verdict.llr
    assert one.verdict.estimate.pairs == five.verdict.estimate.pairs


def test_tracker_keeps_a_float_per_deal_and_reads_them_in_deal_order(tmp_path):
    from whist_sim.inference import fixed_verdict
    from whist_sim.inference.duel_pairs import duel_pair_values
    from whist_sim.store import RunFolder
    from whist_sim.tournament.sequential import DuelTracker

    config = duel_config("heuristic", "random", "german_whist", max_deals=24, seed=3)
    summary = run_duel(config, tmp_path / "fixed", workers=0, progress=False)
    folder = RunFolder.open(summary.path)
    seats, matches = folder.scan("seats"), folder.scan("matches")
    tracker = DuelTracker(config)
    for low in (20, 0, 10, 5, 15):  # whole deals, out of order, as a resume may add them
        chosen = (pl.col("deal") >= low) & (pl.col("deal") < low + 5)
        tracker.add_rows(seats.filter(chosen), matches.filter(chosen))
    assert tracker._values.dtype == float and tracker._values.shape == (24,)
    assert tracker.look(24) is False and tracker.finished
    values = duel_pair_values(seats, matches, tracker.a, "german_whist").collect().sort("deal")
    want = fixed_verdict(tracker.model, tracker.settings, values["value"].to_list())
    assert tracker.verdict == want == summary.verdict
    short = DuelTracker(config)
    short.add_rows(seats.filter(pl.col("deal") != 3), matches.filter(pl.col("deal") != 3))
    with pytest.raises(KeyError, match="deal 3 has no pair value"):
        short.look(24)


@pytest.mark.parametrize(("keyword", "fragment"), [
    ({"sprt": {"elo0": "0", "elo1": 10}}, 'sprt.elo0 = "0": not a finite number (a string)'),
    ({"sprt": {"elo0": True, "elo1": 10}}, "sprt.elo0 = true: not a finite number (true)"),
    ({"sprt": "elo0=0 elo1=10"}, "sprt = 'elo0=0 elo1=10' is not a table"),
    ({"variant": "count=all"}, "variant = 'count=all' is not a table"),
])
def test_duel_config_from_python_refuses_what_is_not_a_number_or_a_table(keyword, fragment):
    """A text read as its number and true as 1; a text variant gave Python's own error."""
    with pytest.raises(ConfigError) as refused:
        duel_config("random", "heuristic", "german_whist", **keyword)
    assert fragment in str(refused.value)


def test_duel_config_refuses_both_strategies_given_as_one_list():
    """re raised "expected string or bytes-like object, got 'list'" from parse_entrant."""
    with pytest.raises(ConfigError, match=r"duel: a = \['heuristic', 'random'\] is a list and"
                                          r" b = None; give the two strategies as two texts:"
                                          r" duel_config\('heuristic', 'random', 'german_whist'\)"):
        duel_config(["heuristic", "random"], None, "german_whist")
    with pytest.raises(ConfigError, match=r"B: 3 \(int, not a text\) is not a strategy"):
        duel_config("heuristic", 3, "german_whist")


def test_run_duel_refuses_a_config_that_is_not_two_entrants(tmp_path):
    """The quickstart's round robin of three was played whole, as if it were a duel."""
    with pytest.raises(ConfigError, match=r"run_duel: .*quickstart\.toml has 3 entrants"
                                          r" \(random, heuristic, heuristic_bold\); a duel is"
                                          r" of two"):
        run_duel(ROOT / "configs" / "quickstart.toml", tmp_path / "run", workers=0,
                 progress=False)
    assert not (tmp_path / "run").exists()


def test_a_best_of_n_duel_is_measured_per_match_and_says_so():
    """Its pair values are shares of matches; the verdict read "Elo per hand"."""
    from whist_sim.tournament.config import duel_model

    single = duel_model(duel_config("random", "heuristic", "german_whist"))
    matches = duel_model(duel_config("random", "heuristic", "german_whist",
                                     variant={"match": "best_of_3"}))
    assert single.scale == "logistic Elo per hand"
    assert matches.scale == "logistic Elo per match" and matches.unit == "Elo per match"


def test_a_decimal_comma_in_sprt_is_named_with_a_sprt_example():
    """--sprt reads commas as separators: "elo1=1,5" gave "'5': write key=value, e.g.
    --sprt count=all", a --variant example (a probe)."""
    from whist_sim.tournament.config import ConfigError
    from whist_sim.tournament.entrant_text import parse_settings

    with pytest.raises(ConfigError) as caught:
        parse_settings("elo0=0 elo1=1,5".replace(",", " ").split(), "--sprt")
    assert str(caught.value) == ("--sprt '5': write key=value, e.g. --sprt 'elo0=0 elo1=10'"
                                 " (decimals with a point: 1.5, not 1,5)")


def test_a_duel_interrupted_between_a_commit_and_its_look_records_every_committed_batch(
        tmp_path, monkeypatch):
    """An operator's probe: a Ctrl-C landing after a task was committed and before the
    test looked at it left run.json's verdict a batch behind the committed pairs (580
    read of 590), so a batch that crossed a bound would read "not decided"."""
    from whist_sim.tournament.sequential import DuelTracker

    look = DuelTracker.look
    calls = {"n": 0}

    def interrupted_before_the_third(self, complete_deals):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return look(self, complete_deals)

    monkeypatch.setattr(DuelTracker, "look", interrupted_before_the_third)
    # bounds close to its true strength (about +490 Elo a hand): many batches to decide
    stopped = _duel(tmp_path, "stopped", per_task=10,
                    sprt={**SPRT_FAST, "elo0": 450, "elo1": 550})
    assert stopped.status == "interrupted"
    meta = json.loads((stopped.path / "run.json").read_text())
    committed = run_rows(stopped.path)["deals"]["deal"].n_unique()
    assert committed == 30  # three tasks of one batch each
    assert meta["verdict"]["deals_read"] == committed
    assert stopped.verdict.estimate.pairs == committed


def test_a_duel_stopped_by_its_maximum_beyond_both_hypotheses_says_the_maximum_was_short(
        tmp_path):
    """A statistician's probe: +636 Elo against bounds 0/5 after 40 pairs read "which
    often means the true difference lies between the two", where no 40 pairs could
    have reached the bound."""
    config = duel_config("heuristic", "random", "german_whist", max_deals=40, seed=3,
                         sprt={"elo0": 0, "elo1": 5})
    summary = run_duel(config, tmp_path / "short", workers=0, progress=False)
    text = summary.verdict_text()
    assert summary.verdict.decision == "inconclusive"
    assert ("though its whole 95% interval lies above H1 (elo1 = 5): the maximum is too short"
            " for hypotheses this close together") in text
    assert "lies between the two" not in text


def _settings_rows(run: Path) -> dict[str, str]:
    from whist_sim.reports.build import build_report

    report = build_report(run)
    table = pl.read_csv(report.markdown.parent / "tables" / "run_settings.csv")
    return dict(zip(table["setting"], table["value"].cast(pl.String), strict=True))


def test_a_duels_verdict_and_run_section_state_its_error_rates_batch_and_maximum(tmp_path):
    """A probe: the verdict never said alpha or beta, and the report's Run section called a
    duel a "round robin" and its maximum "deals per line-up (config)"."""
    summary = _duel(tmp_path, "rates", sprt={**SPRT_FAST, "alpha": 0.01, "beta": 0.2},
                    max_deals=40)
    text = summary.verdict_text()
    assert "(alpha 0.01, beta 0.2, a look every 10 pairs)" in text
    recorded = json.loads((summary.path / "run.json").read_text())["verdict"]
    assert recorded["text"] == text
    rows = _settings_rows(summary.path)
    assert rows["format"].startswith("duel (A = heuristic against B = random): a sequential"
                                     " test (SPRT)")
    assert rows["deals per line-up, at most (the SPRT's maximum; config)"] == "40"
    assert "deals per line-up (config)" not in rows
    assert (rows["test"], rows["test: elo0"], rows["test: elo1"]) == ("sequential (SPRT)", "0",
                                                                     "150")
    assert (rows["test: alpha"], rows["test: beta"]) == ("0.01", "0.2")
    assert rows["test: batch (pairs between two looks)"] == "10"


def test_a_fixed_duels_run_section_names_its_test_and_a_round_robin_stays_one(tmp_path):
    from whist_sim.reports.run_section import _format_text

    config = duel_config("heuristic", "random", "german_whist", max_deals=12)
    summary = run_duel(config, tmp_path / "fixed", workers=0, progress=False)
    assert "(alpha 0.05, beta 0.05)" in summary.verdict_text()
    rows = _settings_rows(summary.path)
    assert rows["format"] == ("duel (A = heuristic against B = random): every deal played,"
                              " then a fixed-sample test")
    assert rows["deals per line-up (config)"] == "12"
    assert rows["test"] == "fixed-sample, at the default hypotheses"
    assert (rows["test: elo0"], rows["test: elo1"], rows["test: alpha"]) == ("0", "10", "0.05")
    assert not any(key.startswith("test: batch") for key in rows)
    assert _format_text({"format": "round_robin"}, {}) == "round robin"


def test_run_json_names_the_entrant_in_what_a_share_is_of(tmp_path):
    """A probe: a Knock-out duel recorded "the deal's games won by one of {a}'s seats"."""
    config = duel_config("heuristic", "random", "knockout_whist", players=3, max_deals=6)
    summary = run_duel(config, tmp_path / "ko", workers=0, progress=False)
    text = (summary.path / "run.json").read_text()
    estimate = json.loads(text)["verdict"]["estimate"]
    assert estimate["share_of"] == ("the deal's games won by one of heuristic's seats"
                                    " (a game the other entrant forfeited counting as won)")
    assert "{a}" not in text
    assert summary.verdict.estimate.share_of_text("x") == (
        "the deal's games won by one of x's seats (a game the other entrant forfeited"
        " counting as won)")


def test_a_knockout_game_every_seat_forfeited_counts_half_to_each_side():
    """Two benched entrants' game, every seat forfeited (tournament.bench_after), read as
    B's win: a game nobody played decided a duel's pair value."""
    from whist_sim.inference.duel_pairs import duel_pair_values

    seats = pl.LazyFrame({
        "deal_key": ["0-0-0-0"] * 2 + ["0-1-0-0"] * 2 + ["0-2-0-0"] * 2,
        "deal": [0, 0, 1, 1, 2, 2],
        "strategy": ["a", "b"] * 3,
        "result": ["forfeit", "forfeit", "forfeit", "draw", "draw", "forfeit"],
    })
    values = duel_pair_values(seats, pl.LazyFrame(), "a", "knockout_whist").collect()
    assert values.sort("deal")["value"].to_list() == [0.5, 0.0, 1.0]


def test_a_knockout_run_at_several_table_sizes_ends_in_one_verdict_over_every_size(tmp_path):
    """Two entrants at tables of 3 and 4 ended with no verdict at all: the tracker was made
    for one table size only. The pair is a deal index's games at every size (one line-up
    of four, A B A B, and two of three, A B A and B A B), fair at 1/2 whatever A's seats."""
    body = knockout_sizes_config(per_task=3)
    summary = run_tournament(load_config(write_config(tmp_path, body)), tmp_path / "run",
                             workers=0, progress=False)
    verdict = summary.verdict
    assert verdict is not None and verdict.sequential is False
    assert verdict.decision in ("H1", "H0", "inconclusive")
    assert verdict.estimate.pairs == 6 and verdict.estimate.fair_mean == pytest.approx(0.5)
    seats = run_rows(summary.path)["seats"]
    games = seats.group_by("deal_key").agg(
        (pl.col("result") == "win").and_(pl.col("strategy") == "random").any().alias("a_won"))
    assert verdict.estimate.mean == pytest.approx(games["a_won"].mean())  # 3 + 3 + 2 a deal
    assert "every table size" in summary.verdict_text()
    recorded = json.loads((summary.path / "run.json").read_text())["verdict"]
    assert recorded["text"] == summary.verdict_text() and recorded["deals_read"] == 6
