"""Report queries made to scale to a million hands give the figures of the exact queries
they replace: decision-time quantiles off a histogram, the Bradley-Terry bootstrap over
blocks of deal indices, and one self-join of the seats shared by the verdict and the
ratings."""

from __future__ import annotations

from pathlib import Path

import choix
import numpy as np
import polars as pl
import pytest

from tests.test_reports import play_small_run
from whist_sim.reports import analyses, build
from whist_sim.reports.comparisons import pairwise_values
from whist_sim.reports.run_facts import RunFacts
from whist_sim.reports.stats import BOOTSTRAP_BLOCKS, CONFIDENCE, ELO_PER_LOGIT, bradley_terry
from whist_sim.reports.verdict_section import verdict_section

# -- decision times ---------------------------------------------------------------------------

BIN = 10 ** (1 / analyses.TIME_BINS_PER_DECADE)  # one bin's width, as a ratio


def timed_run(decisions: dict[str, int], seed: int = 0):
    """Actions, deals and seats of a small made-up run: each strategy sits in its own
    (pairing, rotation, seat) places and takes ``decisions[strategy]`` timed decisions."""
    rng = np.random.default_rng(seed)
    seats_rows, action_frames = [], []
    for i, (strategy, n) in enumerate(sorted(decisions.items())):
        places = [(i, rotation, (rotation + i) % 2) for rotation in (0, 1)]
        for pairing, rotation, seat in places:  # the other seat: an entrant never timed
            seats_rows += [{"pairing": pairing, "rotation": rotation, "seat": seat,
                            "strategy": strategy},
                           {"pairing": pairing, "rotation": rotation, "seat": 1 - seat,
                            "strategy": "untimed"}]
        which = rng.integers(0, len(places), n)
        seconds = np.exp(rng.normal(-6 + i, 1.5, n))
        seconds[: n // 10] = np.round(seconds[: n // 10], 4)  # ties, as a coarse clock gives
        action_frames.append(pl.DataFrame({
            "deal_key": [f"{places[w][0]}-0-{places[w][1]}-0" for w in which],
            "pairing": [places[w][0] for w in which],
            "rotation": [places[w][1] for w in which],
            "seat": [places[w][2] for w in which],
            "chosen": True,
            "seconds": seconds,
        }))
    actions = pl.concat(action_frames)
    unchosen = actions.head(5).with_columns(chosen=pl.lit(False), seconds=pl.lit(99.0))
    untimed = actions.head(3).with_columns(seconds=pl.lit(None, pl.Float64))
    actions = pl.concat([actions, unchosen, untimed])
    seats = pl.DataFrame(seats_rows)
    deals = (
        seats.group_by("pairing", "rotation")
        .agg(pl.col("strategy").sort_by("seat").alias("strategies"))
        .with_columns(deal_key=pl.format("{}-0-{}-0", "pairing", "rotation"),
                      status=pl.lit("ok"), forfeit_seat=pl.lit(None, pl.Int8),
                      error=pl.lit(None, pl.String))
    )
    first = (pl.col("pairing") == 0) & (pl.col("rotation") == 0)  # "a" at seat 0 loses on time
    deals = deals.with_columns(
        status=pl.when(first).then(pl.lit("forfeit")).otherwise("status"),
        forfeit_seat=pl.when(first).then(0).otherwise("forfeit_seat").cast(pl.Int8),
        error=pl.when(first).then(pl.lit("DecisionTimeout: 1 s")).otherwise("error"))
    return actions.lazy(), deals.lazy(), seats.lazy()


def exact_decision_times(actions: pl.LazyFrame, deals: pl.LazyFrame) -> pl.DataFrame:
    """The query ``decision_times`` replaced: every decision joined to its deal, exact
    median and p95."""
    return (
        actions.filter(pl.col("chosen") & pl.col("seconds").is_not_null())
        .join(deals.select("deal_key", "strategies"), on="deal_key")
        .select(pl.col("strategies").list.get(pl.col("seat").cast(pl.Int64)).alias("strategy"),
                "seconds")
        .group_by("strategy")
        .agg(pl.len().cast(pl.Int64).alias("decisions"),
             pl.col("seconds").median().alias("median"),
             pl.col("seconds").quantile(0.95, "nearest").alias("p95"),
             pl.col("seconds").max().alias("max"))
        .sort("strategy").collect()
    )


def test_decision_time_quantiles_are_within_one_bin_of_the_exact_ones():
    actions, deals, seats = timed_run({"a": 5000, "b": 777, "c": 2, "d": 1, "e": 30})
    got = analyses.decision_times(actions, deals, seats).collect()
    exact = exact_decision_times(actions, deals)
    assert got["strategy"].to_list() == exact["strategy"].to_list() == list("abcde")
    assert got["decisions"].to_list() == exact["decisions"].to_list() == [5000, 777, 2, 1, 30]
    assert got["max"].to_list() == exact["max"].to_list()  # exact
    for name in ("median", "p95"):
        ratio = (got[name] / exact[name]).to_numpy()
        assert np.all(ratio <= BIN) and np.all(ratio >= 1 / BIN), (name, ratio)
    one = got.filter(pl.col("strategy") == "d").row(0, named=True)
    assert one["median"] == one["p95"] == one["max"]  # a bin of one time gives that time
    assert got["time_forfeits"].to_list() == [1, 0, 0, 0, 0]


def test_decision_time_section_states_the_resolution(tmp_path: Path):
    folder = play_small_run(tmp_path / "run", deals=4)
    sections = build.decision_time_section(folder, tmp_path, RunFacts.of(folder))
    text = " ".join(sections[0].paragraphs)
    assert f"{analyses.TIME_BINS_PER_DECADE} logarithmic bins" in text and "1.2%" in text
    got = analyses.decision_times(folder.scan("actions"), folder.scan("deals"),
                                  folder.scan("seats")).collect()
    exact = exact_decision_times(folder.scan("actions"), folder.scan("deals"))
    assert got["decisions"].to_list() == exact["decisions"].to_list()
    ratio = (got["p95"] / exact["p95"]).to_numpy()
    assert np.all(ratio <= BIN) and np.all(ratio >= 1 / BIN)


# -- Bradley-Terry ----------------------------------------------------------------------------


def per_deal_bradley_terry(results: pl.DataFrame, bootstrap: int, seed: int) -> pl.DataFrame:
    """The fit and bootstrap ``bradley_terry`` made before blocks: resampling every deal
    index, one row of results at a time."""
    names = sorted(set(results["strategy"]) | set(results["opponent"]))
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    cell = np.array([index[s] * k + index[o]
                     for s, o in zip(results["strategy"], results["opponent"], strict=True)])
    wins = results["wins"].cast(pl.Float64).to_numpy()
    deals, deal_of_row = np.unique(results["deal"].to_numpy(), return_inverse=True)

    def fit(weights):
        counts = np.bincount(cell, weights=wins * weights, minlength=k * k).reshape(k, k)
        theta = choix.ilsr_pairwise_dense(counts + 0.5 * (1 - np.eye(k)), max_iter=10_000,
                                          tol=1e-10)
        return ELO_PER_LOGIT * theta - (ELO_PER_LOGIT * theta).mean()

    point = fit(np.ones_like(wins))
    lo = hi = np.full(k, np.nan)
    if bootstrap:
        rng = np.random.default_rng(seed)
        draws = np.empty((bootstrap, k))
        for b in range(bootstrap):
            multiplicity = np.bincount(rng.integers(0, deals.size, deals.size),
                                       minlength=deals.size)
            draws[b] = fit(multiplicity[deal_of_row].astype(float))
        lo, hi = np.percentile(draws, [50 * (1 - CONFIDENCE), 50 * (1 + CONFIDENCE)], axis=0)
    return pl.DataFrame({"strategy": names, "rating": point, "rating_lo": lo,
                         "rating_hi": hi}).sort("rating", descending=True)


def random_results(deals: int, seed: int = 3) -> pl.DataFrame:
    """Two-seat duplicate pairs of three entrants of different strength, draws included."""
    rng = np.random.default_rng(seed)
    rows = []
    strength = {"X": 0.65, "Y": 0.5, "Z": 0.4}
    for deal in range(deals):
        for s, o in (("X", "Y"), ("X", "Z"), ("Y", "Z")):
            p = strength[s] / (strength[s] + strength[o])
            won = float(rng.binomial(2, p)) - (0.5 if rng.random() < 0.1 else 0.0)
            won = max(won, 0.0)
            rows += [(deal, s, o, won), (deal, o, s, 2.0 - won)]
    return pl.DataFrame(rows, schema=["deal", "strategy", "opponent", "wins"], orient="row")


def test_bradley_terry_up_to_the_block_count_is_the_per_deal_bootstrap():
    results = random_results(300).sample(fraction=1.0, shuffle=True, seed=1)  # any row order
    got = bradley_terry(results, bootstrap=40, seed=4)
    want = per_deal_bradley_terry(results, bootstrap=40, seed=4)
    assert got["strategy"].to_list() == want["strategy"].to_list()
    for name in ("rating", "rating_lo", "rating_hi"):
        np.testing.assert_allclose(got[name].to_numpy(), want[name].to_numpy(), rtol=0,
                                   atol=1e-9)


def test_bradley_terry_past_the_block_count_keeps_the_rating_and_a_like_interval():
    results = random_results(3 * BOOTSTRAP_BLOCKS)
    got = bradley_terry(results, bootstrap=60, seed=0)
    want = per_deal_bradley_terry(results, bootstrap=60, seed=0)
    np.testing.assert_allclose(got["rating"].to_numpy(), want["rating"].to_numpy(), atol=1e-9)
    width = (got["rating_hi"] - got["rating_lo"]).to_numpy()
    exact_width = (want["rating_hi"] - want["rating_lo"]).to_numpy()
    assert np.all(width > 0.6 * exact_width) and np.all(width < 1.6 * exact_width)
    assert bradley_terry(results, bootstrap=60, seed=0).equals(got)  # seeded, same order


# -- one self-join per report ------------------------------------------------------------------


def test_pair_comparisons_give_the_per_pair_values_of_the_seat_pairs(tmp_path: Path):
    folder = play_small_run(tmp_path / "run", deals=6)
    seats = folder.scan("seats")
    comparisons = analyses.pair_comparisons(seats).collect().lazy()
    for game, column in (("german_whist", "share"), ("solo_whist", "margin")):
        want = (analyses.seat_pairs(seats).group_by("strategy", "opponent", *analyses.PAIR)
                .agg(pl.col(column).mean().alias("value"))
                .sort("strategy", "opponent", *analyses.PAIR).collect())
        got = pairwise_values(game, seats, seats, comparisons).collect()
        assert got.equals(want)
    results = analyses.pairwise_results(seats, comparisons=comparisons).collect()
    want = (analyses.seat_pairs(seats).group_by("deal", "strategy", "opponent")
            .agg(pl.col("share").sum().alias("wins"), pl.len().cast(pl.Int64).alias("hands")))
    key = ["deal", "strategy", "opponent"]
    assert results.sort(key).equals(want.sort(key).collect())


def test_a_report_joins_the_seats_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = play_small_run(tmp_path / "run", deals=4)
    calls = []
    real = analyses.pair_comparisons

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(analyses, "pair_comparisons", counted)
    monkeypatch.setattr("whist_sim.reports.comparisons.pair_comparisons", counted)
    facts = RunFacts.of(folder)
    sections = build.report_sections(folder, tmp_path / "out")
    assert len(calls) == 1
    # the verdict reads the same as one computing its own comparisons
    alone = verdict_section(folder, tmp_path / "out", None)
    shared = verdict_section(folder, tmp_path / "out", None, facts.pair_comparisons())
    assert alone[0].paragraphs == shared[0].paragraphs
    assert sections[0].paragraphs[: len(alone[0].paragraphs)] == alone[0].paragraphs
