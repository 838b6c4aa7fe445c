"""The verdict of a two-entrant run: a sequential test that can stop it, or a fixed-sample one.

Every run of exactly two entrants, A (the first) and B (the second), ends in a
verdict. With a ``[sprt]`` section the run is a sequential test: after each batch
of ``sprt.batch`` deal indices the log-likelihood ratio is updated from every
duplicate pair so far, and the run stops as soon as it crosses a bound (or at
``tournament.deals``). Without one, every deal is played and the verdict is that
of a fixed-sample test at the default hypotheses.

Where the test looks is fixed by the config alone: batch k is deal indices
``[k * batch, (k + 1) * batch)``, the runner commits tasks in plan order in a
sequential run (so the rows on disk are always a prefix of the plan), and it
cuts tasks so that none straddles a batch. The test therefore stops after the
same batch, with the same rows, whatever the number of workers, the task size
or a resume in the middle.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from whist_sim.inference import (
    SprtSettings,
    fixed_verdict,
    needs_spread,
    sequential_verdict,
    short_maximum_warning,
)
from whist_sim.inference.duel_pairs import duel_pair_values
from whist_sim.inference.sprt import FEW_PAIRS
from whist_sim.tournament.config import TournamentConfig, duel_model

DECIDED = ("H1", "H0")
"""Decisions that stop a sequential run."""

INITIAL_ROOM = 1 << 16
"""Deal indices a tracker has room for at first (512 KiB); it doubles as deals come."""

MAXIMUM_KEY = "the maximum (tournament.deals, a duel's --max-deals)"
"""How a note on a maximum too short names it: the tracker does not know which was given."""
DEAL_SET_MAXIMUM_KEY = ("the maximum (tournament.deals, at most the deals of"
                        " tournament.deals_file: a larger deal set raises it)")
"""What sets the maximum of a duel played from a deal set: "set at least 1,864" alone
asked a user with a set of 200 deals for a number ``tournament.deals`` may not reach."""
RAISE_MAXIMUM = "tournament.deals, a duel's --max-deals"
"""What a verdict that ran out of pairs advises raising: a run from a config has no
--max-deals option."""
DEAL_SET_RAISE_MAXIMUM = "a larger tournament.deals_file: the set's deals are the maximum"
"""The same for a duel played from a deal set."""


class DuelTracker:
    """The pair values of a two-entrant run so far, and the test that reads them.

    The values are kept, one float per deal index in a NumPy array: the SPRT reads
    them in deal order at every look and the verdict's estimate takes their
    skewness as well as their mean and spread, so both are computed from the very
    values, in the same order, as they always were.
    """

    def __init__(self, config: TournamentConfig) -> None:
        self.a, self.b = config.duel_order()
        self.game = config.tournament.game
        self.model = duel_model(config)
        self.sequential = config.sprt is not None
        self.settings = config.sprt.settings() if config.sprt else SprtSettings.from_mapping({})
        self.batch = config.sprt.batch if config.sprt else config.tournament.deals
        self.deals = config.tournament.deals
        from_set = config.tournament.deals_file is not None
        self.maximum_key = DEAL_SET_MAXIMUM_KEY if from_set else MAXIMUM_KEY
        self.raise_maximum = DEAL_SET_RAISE_MAXIMUM if from_set else RAISE_MAXIMUM
        self._values = np.full(min(self.deals, INITIAL_ROOM), np.nan)
        """A's value in each deal index's duplicate pairs, by deal index (NaN: not yet
        played): 8 bytes a deal played, where a dict of Python floats took over 100. It
        grows as deals are played, not to the plan's size at the start: a plan of 10**9
        deals took 8 GB before its first hand."""
        self.looked = 0
        """Deal indices the test has read: whole batches, in order."""
        self.verdict: Any = None
        self._maximum_checked = not (self.sequential
                                     and needs_spread(self.model, self.settings))
        """Whether the maximum was weighed against the pairs' spread (hypotheses in
        normalised Elo need no spread: the config's warnings weigh them before a card)."""
        self.note: str | None = None
        """A note for the console, once: the maximum is short at the spread seen."""
        self.maximum_note: str | None = None
        """That note, kept after the console took it, for run.json: said only on the
        console, it was nowhere in the run's record (a probe)."""

    def add_rows(self, seats: pl.LazyFrame, matches: pl.LazyFrame) -> None:
        """Record the pair values of whole deal indices (one task's rows, or a run's).

        Every line-up and seating of a deal must be in the rows given: a sequential
        run's tasks hold whole deals (``runner._within_batches``), and a fixed-sample
        verdict reads the finished run at once.
        """
        values = duel_pair_values(seats, matches, self.a, self.game).collect()
        self.add_values(values["deal"].to_numpy(), values["value"].cast(pl.Float64).to_numpy())

    def add_values(self, deals: np.ndarray, values: np.ndarray) -> None:
        """Record A's pair value of each deal index in ``deals`` (``add_rows`` reads them
        from a task's rows)."""
        if deals.size and deals.max() >= self._values.size:  # room doubles, as a list's
            grown = np.full(max(int(deals.max()) + 1, 2 * self._values.size), np.nan)
            grown[: self._values.size] = self._values
            self._values = grown
        self._values[deals] = values

    def look(self, complete_deals: int) -> bool:
        """Read every whole batch within the first ``complete_deals`` deal indices; True once
        the test has decided (a sequential run stops there)."""
        while not self.decided:
            end = min(self.looked + self.batch, self.deals)
            if end <= self.looked or end > complete_deals:
                break
            values = self._values[:end].copy()
            missing = np.flatnonzero(np.isnan(values))
            if missing.size or values.size < end:  # past the room kept: not played either
                first = int(missing[0]) if missing.size else values.size
                raise KeyError(f"deal {first} has no pair value: the test reads whole deal"
                               " indices only")
            finished = end >= self.deals
            if self.sequential:
                verdict = sequential_verdict(self.model, self.settings, values,
                                             finished=finished, batch=self.batch,
                                             raise_maximum=self.raise_maximum)
            elif finished:
                verdict = fixed_verdict(self.model, self.settings, values)
            else:
                verdict = self.verdict
            # the verdict and the deals it read change together: a Ctrl-C between the two
            # recorded "1,280 deals read" beside a verdict on 1,260 pairs
            self.verdict, self.looked = verdict, end
            self._weigh_maximum()
        return self.decided

    def _weigh_maximum(self) -> None:
        """Once ``FEW_PAIRS`` pairs show a spread, say if the maximum is short for the
        hypotheses at that spread (``short_maximum_warning``): said at the end only, it
        came after every pair of a duel that could not decide had been played."""
        estimate = self.verdict.estimate
        if (self._maximum_checked or self.decided or self.looked >= self.deals
                or estimate.pairs < FEW_PAIRS or not estimate.sd > 0):
            return
        self._maximum_checked = True
        self.note = self.maximum_note = short_maximum_warning(
            self.model, self.settings, self.deals, self.maximum_key, sd=estimate.sd,
            seen=estimate.pairs)

    def take_note(self) -> str | None:
        """The note for the console, if there is one not yet taken."""
        note, self.note = self.note, None
        return note

    @property
    def decided(self) -> bool:
        """A sequential test crossed a bound: no more deals are needed."""
        return self.sequential and self.verdict is not None and self.verdict.decision in DECIDED

    @property
    def finished(self) -> bool:
        """Nothing more will change the verdict: a bound was crossed or every deal was read."""
        return self.decided or self.looked >= self.deals

    def progress_line(self) -> str | None:
        """One console line on the test so far (None before the first look)."""
        if self.verdict is None:
            return None
        estimate = self.verdict.estimate
        line = (f"{self.a} vs {self.b}: {estimate.pairs:,} pairs, Elo-like"
                f" {_signed(estimate.elo)} {_bracket(estimate.elo_lo, estimate.elo_hi)}"
                f" ({self.model.scale}), LOS "
                + (f"{100 * estimate.los:.1f}%" if math.isfinite(estimate.los) else "n/a"))
        if self.sequential:
            line += (f", LLR {self.verdict.llr:z.2f} (bounds {self.verdict.lower:.2f},"
                     f" {self.verdict.upper:.2f})")
        return line

    def record(self) -> dict[str, Any]:
        """The verdict for run.json: its decision and evidence, its text (A and B named),
        and the console's note on a short maximum if one was made."""
        verdict = self.verdict
        return {
            "a": self.a,
            "b": self.b,
            "sequential": self.sequential,
            "batch": self.batch,
            "deals_read": self.looked,
            **(verdict.as_dict(self.a) if verdict is not None else {}),
            **({"text": verdict.text(self.a, self.b)} if verdict is not None else {}),
            "maximum_note": self.maximum_note,
        }


def _bracket(lo: float, hi: float) -> str:
    """A 95% interval for the progress line; an infinite end (a share interval reaching 0
    or 1) said as a one-sided bound rather than "-inf"."""
    if math.isinf(lo) and not math.isinf(hi):
        return f"[at most {_signed(hi)}]"
    if math.isinf(hi) and not math.isinf(lo):
        return f"[at least {_signed(lo)}]"
    return f"[{_signed(lo)}, {_signed(hi)}]"


def _signed(value: float) -> str:
    if value != value:
        return "—"
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"
