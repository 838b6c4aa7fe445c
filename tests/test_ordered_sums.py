"""The reports' sums in one order (``stats.ordered_sum`` and the helpers on it): the same
bits whatever order the rows come in, and the values ``sum()``, ``mean()`` and ``std()``
give, to rounding."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.reports.stats import (
    gathered_in_value_order,
    ordered_mean,
    ordered_squares,
    ordered_std,
    ordered_sum,
    ordered_sums,
)

FRACTIONS = st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
                     .map(lambda x: x / 7), min_size=1, max_size=40)


def aggregated(values: list[float | None], order: list[int]) -> dict[str, float | None]:
    """The helpers on ``values`` (one group of a lazy group-by) with the rows in ``order``."""
    frame = pl.LazyFrame({"group": [0] * len(values), "x": [values[i] for i in order]},
                         schema={"group": pl.Int64, "x": pl.Float64})
    x = pl.col("x")
    return frame.group_by("group").agg(
        ordered_sum(x).alias("sum"), ordered_mean(x).alias("mean"),
        ordered_squares(x).alias("squares"), ordered_std(x).alias("std"),
    ).collect().row(0, named=True)


@settings(max_examples=150, deadline=None)
@given(values=FRACTIONS, data=st.data())
def test_an_ordered_sum_is_the_same_bits_in_any_order_of_rows(values, data):
    order = data.draw(st.permutations(range(len(values))))
    assert aggregated(values, order) == aggregated(values, list(range(len(values))))


@settings(max_examples=150, deadline=None)
@given(values=FRACTIONS)
def test_ordered_sums_and_moments_are_the_usual_ones_to_rounding(values):
    got = aggregated(values, list(range(len(values))))
    scale = max(1.0, max(abs(v) for v in values))
    assert got["sum"] == pytest.approx(math.fsum(values), rel=1e-12,
                                       abs=1e-12 * scale * len(values))
    assert got["mean"] == pytest.approx(float(np.mean(values)), rel=1e-12, abs=1e-12 * scale)
    if len(values) > 1:
        assert got["std"] == pytest.approx(float(np.std(values, ddof=1)), rel=1e-9,
                                           abs=1e-9 * scale)
    else:
        assert got["std"] is None
    assert got["squares"] >= 0.0


def test_ordered_sums_skip_nulls_as_sum_does():
    got = aggregated([None, 0.5, None, 0.25], [0, 1, 2, 3])
    assert got == {"group": 0, "sum": 0.75, "mean": 0.375, "squares": 0.03125,
                   "std": math.sqrt(0.03125)}
    nothing = aggregated([None, None], [0, 1])
    assert nothing["sum"] == 0.0 and nothing["mean"] is None and nothing["std"] is None


def test_ordered_sums_keep_whole_numbers_whole_and_every_column_named():
    frame = pl.LazyFrame({"group": [0, 0, 1], "wins": [1, 2, 3], "share": [0.5, 0.25, None]})
    got = (frame.group_by("group").agg(*ordered_sums(["wins", "share"]))
           .select("group", "wins", "share").sort("group").collect())
    assert got.schema["wins"] == pl.Int64 and got.schema["share"] == pl.Float64
    assert got.rows() == [(0, 3, 0.75), (1, 3, 0.0)]


def test_the_optimiser_keeps_the_order_of_a_sum_under_another_group_by():
    """Polars drops a sort before a group-by whose aggregations it takes for order-free
    (a plain sum): two stages of group-by, the first's groups in whatever order its
    threads made them, give the same bits with the second stage's rows shuffled."""
    rng = np.random.default_rng(5)
    rows = pl.DataFrame({"deal": rng.integers(0, 400, 6000),
                         "strategy": rng.integers(0, 3, 6000),
                         "x": rng.random(6000) / 3})

    def two_stages(frame: pl.DataFrame) -> pl.DataFrame:
        per_deal = frame.lazy().group_by("deal", "strategy").agg(ordered_mean(pl.col("x")))
        return (per_deal.group_by("strategy")
                .agg(ordered_sum(pl.col("x")).alias("total"),
                     ordered_std(pl.col("x")).alias("spread"))
                .sort("strategy").collect())

    first = two_stages(rows)
    for seed in range(3):
        assert two_stages(rows.sample(fraction=1.0, shuffle=True, seed=seed)).equals(first)


def test_lists_gathered_in_value_order_sum_to_the_same_bits_under_another_sort():
    """Many small groups of fractions (a deal index's pairs, several line-ups each), their
    lists summed and averaged, then aggregated again under a sort of the outer frame (which
    let Polars drop an inner sort before a plain sum): the same bits for any order of the
    rows, and the sums and means of the values."""
    rng = np.random.default_rng(11)
    rows = pl.DataFrame({"deal": rng.integers(0, 300, 3000),
                         "strategy": rng.integers(0, 2, 3000),
                         "x": rng.random(3000) / 3, "hands": rng.integers(1, 4, 3000)})

    def per_deal(frame: pl.DataFrame) -> pl.LazyFrame:
        return gathered_in_value_order(
            frame.lazy(), ["deal", "strategy"], ["x"], pl.col("hands").sum(),
            pl.len().alias("pairs"),
        ).with_columns(total=pl.col("x").list.sum(), mean=pl.col("x").list.mean())

    def outer(frame: pl.DataFrame) -> pl.DataFrame:
        return (per_deal(frame).sort("deal", "strategy").group_by("strategy")
                .agg(ordered_sum(pl.col("mean")).alias("means"),
                     ordered_sum(pl.col("total")).alias("totals"))
                .sort("strategy").collect())

    inner = per_deal(rows).drop("x").sort("deal", "strategy").collect()
    assert inner["pairs"].max() >= 3  # groups whose sum depends on the order
    expected = rows.group_by("deal", "strategy").agg(
        pl.col("x").sum().alias("total"), pl.col("x").mean().alias("mean")
    ).sort("deal", "strategy")
    assert np.allclose(inner["total"], expected["total"], rtol=1e-14, atol=0)
    assert np.allclose(inner["mean"], expected["mean"], rtol=1e-14, atol=0)
    first = outer(rows)
    for seed in range(3):
        shuffled = rows.sample(fraction=1.0, shuffle=True, seed=seed)
        assert per_deal(shuffled).drop("x").sort("deal", "strategy").collect().equals(inner)
        assert outer(shuffled).equals(first)
