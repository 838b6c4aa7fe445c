"""Standings while a run plays: each entrant's score with its interval, forfeits, time used.

The driver feeds every committed task's rows to :class:`LiveStandings`, which
reduces each to one outcome per entrant and duplicate pair
(``analyses.pair_outcomes``, the very reduction the report's Standings table
starts from) and keeps of them only sums and co-moments per entrant
(``stats.RunningRatio``: memory does not grow with the run), so the last lines
printed equal the report's standings: shares of seat-hands, over pairs. A resumed
run starts from the rows it already holds. Forfeits are counted and shown from the
first one on: a strategy that fails is never silent.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import polars as pl
import pyarrow as pa

from whist_sim.reports.analyses import pair_outcomes
from whist_sim.reports.stats import RunningRatio


def shown_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: two for a wide character (Chinese, most
    emoji), none for a combining mark; ``len`` misaligned such a label's row."""
    return sum(0 if unicodedata.combining(char) else
               2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


@dataclass
class _Entrant:
    hands: int = 0
    forfeits: int = 0
    wins: RunningRatio = field(default_factory=RunningRatio)
    """Wins over seat-hands, pair by pair: sums and co-moments, not the values."""
    nets: RunningRatio = field(default_factory=RunningRatio)
    decisions: int = 0
    seconds: float = 0.0


class LiveStandings:
    """Running standings of one run, fed task by task."""

    def __init__(
        self, labels: Iterable[str], *, hands_word: str = "hands", fair_share: float | None = None
    ) -> None:
        self._entrants = {label: _Entrant() for label in labels}
        self.hands_word = hands_word
        """What a row counts: "hands", or "seat-hands" at tables of more than two."""
        self.fair_share = fair_share
        """The win rate of an average seat where it is one number (Knock-out Whist: 1/players)."""
        self.pairs = 0

    def add_rows(self, seats: pa.Table | pl.LazyFrame) -> None:
        """Account for the seat rows of whole duplicate pairs (one task, or a run so far)."""
        frame = seats if isinstance(seats, pl.LazyFrame) else pl.from_arrow(seats).lazy()
        per_pair = pair_outcomes(frame).collect()
        self.pairs += per_pair.select("pairing", "deal").n_unique() if per_pair.height else 0
        for (label,), group in per_pair.group_by("strategy", maintain_order=True):
            entrant = self._entrants.setdefault(str(label), _Entrant())
            entrant.hands += int(group["hands"].sum())
            entrant.forfeits += int(group["forfeits"].sum())
            hands = group["hands"].to_numpy()
            entrant.wins.add(group["win"].to_numpy() * hands, hands)
            entrant.nets.add(group["net"].to_numpy() * hands, hands)

    def add_decisions(self, decisions: Mapping[str, tuple[int, float]]) -> None:
        """Decisions taken and seconds spent per entrant (from ``TaskResult.decisions``)."""
        for label, (count, seconds) in decisions.items():
            entrant = self._entrants.setdefault(label, _Entrant())
            entrant.decisions += count
            entrant.seconds += seconds

    def decision_totals(self) -> dict[str, list[float]]:
        """Per entrant ``[decisions, seconds]``: what run.json keeps across sessions."""
        return {label: [e.decisions, e.seconds] for label, e in self._entrants.items()}

    def lines(self) -> list[str]:
        """The standings as aligned console lines, best mean net first."""
        rows = []
        for label, entrant in self._entrants.items():
            win, net = entrant.wins.interval().as_rate(), entrant.nets.interval()
            per_decision = (
                f"{1000 * entrant.seconds / entrant.decisions:.3f}" if entrant.decisions else "—"
            )
            rows.append((net.estimate if net.n else -math.inf, [
                label, f"{entrant.hands:,}", _with_interval(win, 3), _with_interval(net, 2),
                f"{entrant.forfeits:,}", per_decision, f"{entrant.seconds:.1f}",
            ]))
        rows.sort(key=lambda row: (-row[0], row[1][0]))
        header = ["entrant", self.hands_word, "win rate [95% CI]", "mean net [95% CI]",
                  "forfeits", "ms/decision", "decision s"]
        table = [header, *(cells for _, cells in rows)]
        widths = [max(shown_width(row[i]) for row in table) for i in range(len(header))]
        text = [
            "  ".join(cell + " " * (w - shown_width(cell)) if i == 0
                      else " " * (w - shown_width(cell)) + cell
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
            for row in table
        ]
        note = f"after {self.pairs:,} duplicate pairs"
        if self.fair_share is not None:
            note += f"; fair share (1 / players) {self.fair_share:.3f}"
        return [note, *text]


def _with_interval(interval, digits: int) -> str:
    if interval.n == 0:
        return "—"
    if math.isnan(interval.lo):
        return f"{interval.estimate:.{digits}f}"
    return (f"{interval.estimate:.{digits}f} [{interval.lo:.{digits}f},"
            f" {interval.hi:.{digits}f}]")
