"""What several sections must know about a run before they describe it: its game and
table sizes, and the words that follow from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.reports import analyses
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.comparisons import PairSummaries
from whist_sim.store import RunFolder

PARTNERSHIP_GAMES = frozenset({"minnesota_whist"})
"""Games of two fixed partnerships (seats 0 and 2 against 1 and 3): head to head and the
ratings compare only seats of opposite sides, since partners always share a net."""


def seating_period(meta: dict[str, Any], path: Path | str = "run.json") -> int:
    """Deal indices after which the run's seating orders repeat (run.json's ``lineups``
    and ``seating_orders``; 1 for a run whose deals all seat a line-up alike): a seat of a
    line-up and seating is one entrant's in every deal of the same index modulo this.
    ``path``: run.json's, which an unknown scheme's error names."""
    from whist_sim.tournament.run_records import recorded_scheme
    from whist_sim.tournament.schedule import arrangement_period

    lineups = meta.get("lineups")
    if recorded_scheme(meta, "seating_orders", Path(path)) < 2 or not isinstance(lineups,
                                                                                  list):
        return 1
    return arrangement_period(tuple(str(label) for label in lineup) for lineup in lineups)


@dataclass(frozen=True)
class RunFacts:
    game: str
    sizes: tuple[int, ...]
    """The table sizes played, smallest first."""
    seats: pl.LazyFrame | None = field(default=None, repr=False, compare=False)
    """The run's seats table, for :meth:`pair_comparisons` when there are no ``ranges``."""
    ranges: DealRanges | None = field(default=None, repr=False, compare=False)
    """The run in ranges of deal indices, which the sections read one at a time."""
    _collected: dict[bool, pl.DataFrame] = field(default_factory=dict, repr=False,
                                                 compare=False)
    _summaries: dict[bool, PairSummaries] = field(default_factory=dict, repr=False,
                                                  compare=False)

    @classmethod
    def of(cls, folder: RunFolder) -> RunFacts:
        ranges = DealRanges.of(folder)
        counts = ranges.collect(lambda scan: analyses.table_size_counts(scan("seats")))
        sizes = analyses.table_sizes_of(counts.lazy()).collect()
        return cls(str(folder.meta()["game"]), tuple(sizes["players"].to_list()),
                   folder.scan("seats"), ranges)

    def pair_comparisons(self, sides: bool = False) -> pl.LazyFrame:
        """``analyses.pair_comparisons`` of the run's seats, collected once per report (the
        self-join of the seats is the dearest query of a report), then shared by the
        verdict and the ratings."""
        if self.seats is None and self.ranges is None:
            raise ValueError("RunFacts made without the run's seats: use RunFacts.of(folder)")
        if sides not in self._collected:
            if self.ranges is not None:
                self._collected[sides] = self.ranges.collect(
                    lambda scan: analyses.pair_comparisons(scan("seats"), sides))
            else:
                self._collected[sides] = analyses.pair_comparisons(self.seats, sides).collect()
        return self._collected[sides].lazy()

    def pair_summaries(self, sides: bool = False) -> PairSummaries:
        """The seat comparisons reduced to what the verdict and the Bradley-Terry ratings
        read (:class:`~whist_sim.reports.comparisons.PairSummaries`), computed once per
        report, range by range: the seats' self-join is the dearest query of a report, and
        its rows are never whole in memory."""
        if sides not in self._summaries:
            ranges = self.chunks
            self._summaries[sides] = PairSummaries.of(self.game, (
                analyses.pair_comparisons(ranges.scan("seats", bounds), sides).collect()
                for bounds in ranges.bounds))
        return self._summaries[sides]

    @property
    def chunks(self) -> DealRanges:
        """The run in ranges of deal indices (made by :meth:`of`)."""
        if self.ranges is None:
            raise ValueError("RunFacts made without the run: use RunFacts.of(folder)")
        return self.ranges

    @property
    def two(self) -> bool:
        """Two seats at every table: every hand is one duel."""
        return max(self.sizes, default=2) == 2

    @property
    def sides(self) -> bool:
        """A partnership game."""
        return self.game in PARTNERSHIP_GAMES

    @property
    def hands(self) -> str:
        """What a strategy's rows count: hands at two seats, seat-hands at more."""
        return "hands" if self.two else "seat-hands"

    def sizes_text(self) -> str:
        if len(self.sizes) == 1:
            return f"{self.sizes[0]} seats"
        return ("tables of " + ", ".join(str(n) for n in self.sizes[:-1])
                + f" and {self.sizes[-1]} seats")
