"""Reading a run a range of deal indices at a time, so that a report's memory does not grow
with the run.

Every table of a run has the ``deal`` column, and everything played on one deal index
(every line-up and seating that used its cards: every hand, every duplicate pair) lies in
one range of deal indices. A report's analysis is therefore collected range by range, on
each table filtered to the range (Polars pushes the filter into the Parquet reader, which
skips the row groups outside the range by their statistics, and reads only the columns
the query names), each range reduced to a small partial result (rows per duplicate pair,
or counts and sums), and the partial results are then combined. The whole of a table is
never in memory, only one range's rows of the columns a query needs.

Combining is exact: a duplicate pair or a hand never straddles two ranges, so rows per
pair are the rows a whole-table query makes; counts add up; sums of whole numbers (net
points, tricks, wins) add up without rounding, so a mean taken as a sum over a count is
the mean of the whole table. The ranges are taken in ascending order of deal index, so
"first in play order" (deal, pairing, rotation, hand) is the first range's first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from whist_sim.store import RunFolder

CHUNK_HANDS = 25_000
"""About how many hands one range holds: what a report reads into memory at once."""

Scan = Callable[[str], pl.LazyFrame]
"""A table name -> that table's rows in one range of deal indices."""


@dataclass(frozen=True)
class DealRanges:
    """A run cut into ranges of deal indices of about :data:`CHUNK_HANDS` hands each."""

    folder: RunFolder
    bounds: tuple[tuple[int, int], ...]
    """Each range as (first deal index, last deal index + 1), ascending, not overlapping."""

    @classmethod
    def of(cls, folder: RunFolder, hands: int | None = None) -> DealRanges:
        """Ranges of equal width in deal index, as many as ``hands`` hands a range needs
        (default :data:`CHUNK_HANDS`; every line-up plays the same deal indices, so hands
        spread evenly over them)."""
        hands = CHUNK_HANDS if hands is None else hands
        if hands < 1:
            raise ValueError(f"DealRanges: hands per range must be at least 1, not {hands}")
        count, low, high = (
            folder.scan("deals")
            .select(pl.len(), pl.col("deal").min().alias("low"), pl.col("deal").max().alias("high"))
            .collect().row(0)
        )
        if not count:
            return cls(folder, ((0, 1),))
        parts = max(1, math.ceil(count / hands))
        width = max(1, math.ceil((high - low + 1) / parts))
        bounds = tuple((start, min(start + width, high + 1))
                       for start in range(low, high + 1, width))
        return cls(folder, bounds)

    def scan(self, table: str, bounds: tuple[int, int]) -> pl.LazyFrame:
        """``table``'s rows with a deal index in ``bounds``."""
        low, high = bounds
        return self.folder.scan(table).filter(pl.col("deal").is_between(low, high - 1))

    def scans(self) -> list[Scan]:
        """One table reader per range, in order."""
        return [lambda table, bounds=bounds: self.scan(table, bounds) for bounds in self.bounds]

    def collect(self, query: Callable[[Scan], pl.LazyFrame]) -> pl.DataFrame:
        """``query`` run on every range, the results one under the other in range order."""
        return self.collect_all(lambda scan: [query(scan)])[0]

    def collect_all(
        self, queries: Callable[[Scan], Sequence[pl.LazyFrame]]
    ) -> list[pl.DataFrame]:
        """Several queries run together on every range (one pass over its rows); per query,
        the results of the ranges one under the other in range order."""
        parts: list[list[pl.DataFrame]] = []
        for scan in self.scans():
            parts.append(pl.collect_all(list(queries(scan))))
        return [pl.concat([chunk[i] for chunk in parts], how="vertical")
                for i in range(len(parts[0]))]
