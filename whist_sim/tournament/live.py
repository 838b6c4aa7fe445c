"""Standings while a run plays: each entrant's score with its interval, forfeits, time used.

The driver feeds every committed task's rows to :class:`LiveStandings`, which
reduces them to one outcome per entrant and deal index (``analyses.standings_deals``
of ``analyses.pair_outcomes``, the very reduction the report's Standings table
makes) and keeps of them only sums and co-moments per entrant (``stats.RunningRatio``),
so the last lines printed equal the report's standings: shares of seat-hands, over
deal indices. A deal index's line-ups may be played in different tasks, committed in
any order: its partial totals wait in a buffer until every line-up is in (the buffer
holds the deal indices of the tasks in flight, so memory does not grow with the run),
and are counted as they stand in the lines printed meanwhile. A resumed run starts
from the rows it already holds. Forfeits are counted and shown from the
first one on: a strategy that fails is never silent.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import polars as pl
import pyarrow as pa

from whist_sim.reports.analyses import pair_outcomes, standings_deals
from whist_sim.reports.stats import RunningRatio
from whist_sim.rounding import fmt, fmt_time


def shown_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: two for a wide character (Chinese, most
    emoji), none for a combining mark; ``len`` misaligned such a label's row."""
    return sum(0 if unicodedata.combining(char) else
               2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


@dataclass
class _Entrant:
    hands: int = 0
    forfeits: int = 0
    draws: float = 0.0
    """Seat-hands drawn (a variant with draws: German Whist counting every trick)."""
    wins: RunningRatio = field(default_factory=RunningRatio)
    """Wins over seat-hands, pair by pair: sums and co-moments, not the values."""
    nets: RunningRatio = field(default_factory=RunningRatio)
    decisions: int = 0
    seconds: float = 0.0


class LiveStandings:
    """Running standings of one run, fed task by task."""

    def __init__(
        self, labels: Iterable[str], *, hands_word: str = "hands", fair_share: float | None = None,
        lineups: int | None = None,
    ) -> None:
        self._entrants = {label: _Entrant() for label in labels}
        self.lineups = lineups
        """Line-ups played at every deal index: a deal index is complete once they are all
        in (None: each batch of rows holds whole deal indices)."""
        self._open: dict[int, tuple[set[int], dict[str, list[float]]]] = {}
        """Deal indices not yet complete: the line-ups seen, and per entrant its totals
        (seat-hands, wins, net) so far."""
        self.hands_word = hands_word
        """What a row counts: "hands", or "seat-hands" at tables of more than two."""
        self.fair_share = fair_share
        """The win rate of an average seat where it is one number (Knock-out Whist: 1/players)."""
        self.pairs = 0

    def add_rows(self, seats: pa.Table | pl.LazyFrame) -> None:
        """Account for the seat rows of whole duplicate pairs (one task, or a run so far)."""
        frame = seats if isinstance(seats, pl.LazyFrame) else pl.from_arrow(seats).lazy()
        per_pair = pair_outcomes(frame).collect()
        if not per_pair.height:
            return
        self.pairs += per_pair.select("pairing", "deal").n_unique()
        for (label,), group in per_pair.group_by("strategy", maintain_order=True):
            entrant = self._entrants.setdefault(str(label), _Entrant())
            entrant.hands += int(group["hands"].sum())
            entrant.forfeits += int(group["forfeits"].sum())
            entrant.draws += float((group["draw"] * group["hands"]).sum())
        per_deal = standings_deals(per_pair).select("deal", "strategy", "hands", "win", "net")
        seen = per_pair.group_by("deal").agg(pl.col("pairing").unique())
        # deal indices whole in these rows (every line-up in, none buffered from earlier):
        # counted in one batch per entrant, in array operations. A Python step per deal
        # index had the driver spend a fifth of a core on a 2-worker run's standings.
        whole = seen.filter(pl.col("pairing").list.len() >= (self.lineups or 0))
        if self._open:
            whole = whole.filter(~pl.col("deal").is_in(list(self._open)))
        done = per_deal.join(whole.select("deal"), on="deal", how="semi")
        for (label,), group in done.group_by("strategy", maintain_order=True):
            entrant = self._entrants.setdefault(str(label), _Entrant())
            hands = group["hands"].to_numpy()
            entrant.wins.add(group["win"].to_numpy(), hands)
            entrant.nets.add(group["net"].to_numpy(), hands)
        if done.height == per_deal.height:
            return
        # the others wait in the buffer until their last line-up is in
        for deal, strategy, hands, win, net in per_deal.join(
                whole.select("deal"), on="deal", how="anti").iter_rows():
            totals = self._open.setdefault(deal, (set(), {}))[1]
            mine = totals.setdefault(strategy, [0.0, 0.0, 0.0])
            mine[0] += hands
            mine[1] += win
            mine[2] += net
        closed: dict[str, tuple[list[float], list[float], list[float]]] = {}
        for deal, pairings in _pairings_of(seen.join(whole.select("deal"), on="deal",
                                                     how="anti")):
            lineups = self._open[deal][0]
            lineups.update(pairings)
            if self.lineups is None or len(lineups) >= self.lineups:
                for label, (hands, win, net) in self._open.pop(deal)[1].items():
                    lists = closed.setdefault(label, ([], [], []))
                    lists[0].append(hands)
                    lists[1].append(win)
                    lists[2].append(net)
        for label, (hands_list, wins, nets) in closed.items():
            entrant = self._entrants.setdefault(label, _Entrant())
            entrant.wins.add(wins, hands_list)
            entrant.nets.add(nets, hands_list)

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
        """The standings as aligned console lines, best mean net first (and said so)."""
        rows = []
        waiting = self._waiting()
        # a draw counts for neither side's win rate: where hands were drawn, the two win
        # rates of a duel did not add up to 1 and nothing on screen said why (a probe)
        drawn = any(entrant.draws for entrant in self._entrants.values())
        for label, entrant in self._entrants.items():
            wins, nets = entrant.wins, entrant.nets
            if label in waiting:  # deal indices still open count as they stand
                hands, win, net = waiting[label]
                wins, nets = replace(wins), replace(nets)
                wins.add(win, hands)
                nets.add(net, hands)
            win, net = wins.interval().as_rate(), nets.interval()
            per_decision = (
                fmt_time(1000 * entrant.seconds / entrant.decisions) if entrant.decisions else "—"
            )
            draws = ([f"{entrant.draws / entrant.hands:.3f}" if entrant.hands else "—"]
                     if drawn else [])
            rows.append((net.estimate if net.n else -math.inf, [
                label, f"{entrant.hands:,}", _with_interval(win, 3), *draws,
                _with_interval(net, 2), f"{entrant.forfeits:,}", per_decision,
                f"{entrant.seconds:.1f}",
            ]))
        rows.sort(key=lambda row: (-row[0], row[1][0]))
        header = ["entrant", self.hands_word, "win rate [95% CI]",
                  *(["draw rate"] if drawn else []), "mean net [95% CI]",
                  "forfeits", "ms/decision", "decision s"]
        table = [header, *(cells for _, cells in rows)]
        widths = [max(shown_width(row[i]) for row in table) for i in range(len(header))]
        text = [
            "  ".join(cell + " " * (w - shown_width(cell)) if i == 0
                      else " " * (w - shown_width(cell)) + cell
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
            for row in table
        ]
        # a pair at two seats, a set at more, as the reports and the glossary say
        unit = "pair" if self.hands_word == "hands" else "set"
        note = f"after {self.pairs:,} duplicate {unit}{'' if self.pairs == 1 else 's'}"
        # the report's verdict ranks by its game's figure (German Whist: hands won), and
        # a probe read two entrants in one order here and the other there
        note += "; listed by mean net, not the report's ranking"
        if self.fair_share is not None:
            note += f"; fair share (1 / players) {self.fair_share:.3f}"
        return [note, *text]


    def _waiting(self) -> dict[str, tuple[list[float], list[float], list[float]]]:
        """Per entrant, the totals (seat-hands, wins, net) of each deal index still open."""
        waiting: dict[str, tuple[list[float], list[float], list[float]]] = {}
        for _, totals in self._open.values():
            for label, (hands, win, net) in totals.items():
                lists = waiting.setdefault(label, ([], [], []))
                lists[0].append(hands)
                lists[1].append(win)
                lists[2].append(net)
        return waiting


def _pairings_of(seen: pl.DataFrame) -> list[tuple[int, list[int]]]:
    """(deal index, the line-ups of it in ``seen``, a frame of deal and pairing lists)."""
    return [(int(deal), list(pairings)) for deal, pairings in seen.iter_rows()]


def _with_interval(interval, digits: int) -> str:
    if interval.n == 0:
        return "—"
    if math.isnan(interval.lo):
        return fmt(interval.estimate, digits)
    # every figure rounded as the report rounds it (half to even on the number as written):
    # Python's format printed 0.537 here for the 43 of 80 hands the report shows as 0.538
    estimate = fmt(interval.estimate, digits)
    if interval.hi - interval.lo <= 1e-12 * max(1.0, abs(interval.hi)):
        return f"{estimate} [no spread]"  # as the report says it
    return f"{estimate} [{fmt(interval.lo, digits)}, {fmt(interval.hi, digits)}]"
