"""Every two entrants compared on the figure that ranks the game, one value per duplicate pair.

The report's verdict (``verdict_section``) turns these into sentences: who is
ahead, by how much, how sure, and how many more deals would settle a comparison
that is still open. The unit is the duplicate pair, a (pairing, deal) played
under every seating, as in the standings.

The figure, game by game (``RANKING``):

- German Whist: the share of hands won head to head, or, under a variant whose hands
  can be drawn (``count = "all"``), the score share, a draw counting half
  (``ranking_figure``);
- Solo Whist: the mean net margin in units per hand (Solo is played for money,
  and a hand's result says nothing of its stake);
- Minnesota Whist: the share of games to the target won against the other
  partnership (a game, not a hand, is what a partnership plays for);
- Knock-out Whist: the share of games won, against the fair share 1/players:
  only the winner wins, so each entrant is measured against an average seat
  (``knockout_shares``) rather than against each opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import polars as pl

from whist_sim.inference.duel_pairs import largest_net
from whist_sim.reports.analyses import PAIR, pair_comparisons
from whist_sim.reports.finishing import counted_seats
from whist_sim.reports.stats import BOOTSTRAP_BLOCKS


@dataclass(frozen=True)
class Figure:
    """How a game ranks its entrants."""

    name: str
    """What ranks the table, as a heading says it: "share of hands won"."""
    noun: str
    """What a share counts, in a sentence: "hands" ("wins 73% of hands against ...")."""
    unit: str
    """The unit of the value: "share" or "units per hand"."""
    null: float
    """The value of two equal entrants."""
    why: str
    """Why this figure ranks the game, for the report."""
    share_text: str = "wins {share} of {noun} against {other}"
    """How a comparison says a share, of the leader against ``other``."""
    largest: float | None = None
    """For a figure in points: the most a deal's value can be from 0 either way (Solo's
    half the gap between two nets, within the variant's ``largest_net``), which deals
    that all gave the same margin are tested against (``multiplicity.p_value``)."""


RANKING = {
    "german_whist": Figure(
        "share of hands won", "hands", "share", 0.5,
        "A German Whist hand of this variant is won or lost (the score only says by how"
        " much), so entrants are ranked by the share of hands they win head to head; the"
        " Bradley-Terry ratings are fitted to the same hands.",
    ),
    "solo_whist": Figure(
        "net units per hand", "hands", "units per hand", 0.0,
        "Solo Whist is played for stakes: a made abundance pays more than a made proposal,"
        " so entrants are ranked by the net units they win per hand head to head: in each"
        " hand two entrants shared, half the gap between their nets, averaged over the"
        " entrants each met (the standings' `mean net` is against the whole table, so its"
        " figures differ), not by how often they finish ahead; the finishing-order ratings"
        " count the second and ignore the stakes.",
    ),
    "minnesota_whist": Figure(
        "share of games to the target won", "games to the target", "share", 0.5,
        "A Minnesota Whist partnership plays to win games to the target, so entrants are"
        " ranked by the share of games they win against the other partnership; points per"
        " hand (the standings) say how they got there.",
    ),
    "knockout_whist": Figure(
        "share of games won", "games", "share", 0.0,
        "Only the last player in wins a Knock-out Whist game, so entrants are ranked by the"
        " share of games they win, against the fair share 1/players of an average seat; the"
        " `who wins` ratings are fitted to the same first places.",
    ),
}
"""The figure that ranks each game's entrants (``ranking_figure`` for a run's variant)."""

GERMAN_DRAWN = Figure(
    "score share of hands (a draw half)", "hands", "share", 0.5,
    "A German Whist hand of this variant is won, lost or drawn (the score only says by how"
    " much), so entrants are ranked by their score share of the hands they played head to"
    " head, a won hand counting 1 and a drawn one half: not a win rate (the standings give"
    " the win and draw rates apart); the Bradley-Terry ratings are fitted to the same"
    " hands.",
    "scores {share} of hands against {other}, a won hand counting 1 and a drawn one half",
)
"""German Whist's figure under a variant whose hands can be drawn: "wins 59.3% of hands"
was said of a score share beside a win rate of 0.538 and a draw rate of 0.110 (a probe)."""

GERMAN_UNITS = {"stage2": 13, "all": 26, "weighted": 39}
"""The units a German Whist hand shares out under each ``count`` (``MAX_UNITS`` of
``whist_sim.games.german_whist``, which reports do not import)."""


def german_hands_can_draw(variant: Mapping[str, Any]) -> bool:
    """Whether a German Whist hand of ``variant`` (run.json's, defaults filled in) can
    end level: only when its units are even in number (``count = "all"``, 13 each) and
    no race to at most half of them ends the hand first. 13 and 39 units cannot split
    evenly; a forfeit is a loss."""
    units = GERMAN_UNITS.get(str(variant.get("count", "stage2")))
    if units is None:
        return True  # a count this reader does not know: claim no "won or lost"
    race_to = variant.get("race_to")
    return units % 2 == 0 and (race_to is None or race_to > units // 2)


def ranking_figure(game: str, variant: Mapping[str, Any] | None = None,
                   players: Sequence[int] | None = None) -> Figure:
    """The figure that ranks a run of ``game`` under ``variant`` at table sizes
    ``players`` (None: not known): ``RANKING``'s, or, for German Whist whose hands can be
    drawn, the score share worded as one (``GERMAN_DRAWN``); Knock-out Whist at two seats
    only names the ratings its report has there, Bradley-Terry's (it named `who wins`,
    the finishing-order section's, which two-seat runs do not have: a probe)."""
    if game == "knockout_whist" and players and set(players) == {2}:
        figure = RANKING[game]
        return replace(figure, why=figure.why.replace(
            "the `who wins` ratings are fitted to the same first places",
            "the Bradley-Terry ratings are fitted to the same games"))
    if game == "solo_whist":
        return replace(RANKING[game], largest=largest_net(game, variant or {}))
    if game != "german_whist":
        return RANKING[game]
    figure = GERMAN_DRAWN if german_hands_can_draw(variant or {}) else RANKING[game]
    if (variant or {}).get("race_to") is not None:
        # every hand of a race scores exactly 1: "the score only says by how much" was
        # printed of such runs (a probe)
        figure = replace(figure, why=figure.why.replace(
            "(the score only says by how much)",
            "(under `race_to` every hand scores exactly 1, won by racing or not)"))
    return figure


SEAT_COMPARED = {"german_whist": "wins", "solo_whist": "margin"}
"""Games whose figure compares two seats of a hand, and the column of
``analyses.pair_comparisons`` it sums: the share won, or the net margin."""


def pairwise_values(
    game: str, seats: pl.LazyFrame, matches: pl.LazyFrame,
    comparisons: pl.LazyFrame | None = None,
) -> pl.LazyFrame:
    """Per ordered pair of entrants and duplicate pair in which they met: the row entrant's
    value against the column entrant (``RANKING``).

    Columns: strategy, opponent, pairing, deal, value. Antisymmetric: value(A, B) =
    1 - value(B, A) for shares and -value(B, A) for margins. Not defined for
    Knock-out Whist (see :func:`knockout_shares`). ``comparisons``:
    ``analyses.pair_comparisons(seats)`` if already at hand (German and Solo Whist).
    """
    if game in SEAT_COMPARED:
        per_pair = pair_comparisons(seats) if comparisons is None else comparisons
        return (
            per_pair.select("strategy", "opponent", *PAIR,
                            (pl.col(SEAT_COMPARED[game]) / pl.col("comparisons")).alias("value"))
            .sort(["strategy", "opponent", *PAIR])
        )
    if game == "minnesota_whist":
        return _per_pair(_game_pairs(matches), "share")
    raise ValueError(f"no pairwise comparison for {game}")


def _per_pair(pairs: pl.LazyFrame, column: str) -> pl.LazyFrame:
    return (
        pairs.group_by(["strategy", "opponent", *PAIR])
        .agg(pl.col(column).mean().alias("value"))
        .sort(["strategy", "opponent", *PAIR])
    )


def _game_pairs(matches: pl.LazyFrame) -> pl.LazyFrame:
    """Every two seats of opposite partnerships in one game to the target, with the row
    seat's share: 1 for a won game, 1/2 for a drawn one."""
    game = ["pairing", "deal", "rotation"]
    score = (pl.when(pl.col("result") == "win").then(1.0)
             .when(pl.col("result") == "draw").then(0.5).otherwise(0.0))
    own = matches.select(*game, "seat", "strategy", score.alias("share"))
    other = matches.select(*game, pl.col("seat").alias("opponent_seat"),
                           pl.col("strategy").alias("opponent"))
    return (
        own.join(other, on=game)
        .filter((pl.col("seat") % 2 != pl.col("opponent_seat") % 2)
                & (pl.col("strategy") != pl.col("opponent")))
        .select(*PAIR, "strategy", "opponent", "share")
    )


def knockout_shares(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Per entrant, table size and deal index: its share of the games it sat in that it won
    (a seat-game counts once), and the fair share 1/players.

    Columns: strategy, players, deal, value (won / seat-games), seat_games, fair.
    A forfeited game counts as lost by the seat that forfeited it and is left out for
    the others, whom the forfeit stopped before the game had a winner (the rules record
    them as drawn). Counted as lost by every seat, as it was, a run with many forfeits
    put every entrant "below the fair share, decided", at one table, where the shares
    must average the fair one (a report reader's probe: 16.4% and 11.3% against 33.3%).
    """
    won = (pl.col("result") == "win").cast(pl.Float64)
    return (
        counted_seats(seats)
        .group_by(["strategy", "players", "deal"])
        .agg(won.mean().alias("value"), pl.len().cast(pl.Int64).alias("seat_games"))
        .with_columns(fair=1.0 / pl.col("players"))
        .sort(["strategy", "players", "deal"])
    )


@dataclass
class PairValues:
    """Per ordered pair of entrants, its value per deal index at which the two met: the
    mean of its duplicate pairs' values there (:func:`pairwise_values`), as NumPy arrays in
    deal order. The deal index is the independent unit: the line-ups of one deal index
    play the same cards, so two entrants that meet in several of them (Solo Whist with
    three or more entrants, say) meet on correlated pairs, whose spread counted one by
    one understated the interval (a probe: 1.2-1.3 times) and let the verdict's Holm test
    decide what it should not. With one meeting per deal index nothing changes. What the
    verdict reads, in 8 bytes a value."""

    values: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    deals: dict[tuple[str, str], int] = field(default_factory=dict)
    """Distinct deal indices per ordered pair of entrants (the size of its values)."""
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    """Duplicate pairs per ordered pair of entrants (several per deal index where several
    line-ups seat both)."""

    @classmethod
    def of(cls, frame: pl.DataFrame) -> PairValues:
        """From a :func:`pairwise_values` frame (sorted)."""
        return cls.from_ranges([frame])

    @classmethod
    def from_ranges(cls, frames: Iterable[pl.DataFrame]) -> PairValues:
        """From :func:`pairwise_values` of a run's ranges of deal indices, in ascending
        order (each taken in and let go in turn)."""
        gathered = _Gathered()
        for frame in frames:
            gathered.add(frame)
        return gathered.values()

    def overall(self, name: str) -> float:
        """``name``'s mean value over every deal index with every opponent (NaN if none):
        where every opponent meets it as often at every deal index, the mean over its
        duplicate pairs. NumPy's mean, as the comparisons' ``stats.t_interval`` takes it:
        Polars summed the same 100 deal values of a duel to 0.9574999999999997 where
        NumPy gave 0.9575, and the ranking read 95.7% beside a comparison of 95.8% (a
        probe)."""
        mine = [x for (a, _b), x in sorted(self.values.items()) if a == name]
        return float(np.concatenate(mine).mean()) if mine else float("nan")

    def per_deal(self, a: str, b: str) -> float:
        """Duplicate pairs of ``a`` and ``b`` per deal index (several line-ups may seat both)."""
        return self.pairs[(a, b)] / self.deals[(a, b)]


@dataclass
class _Gathered:
    """:class:`PairValues` gathered range by range."""

    parts: dict[tuple[str, str], list[np.ndarray]] = field(default_factory=dict)
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)

    def add(self, frame: pl.DataFrame) -> None:
        """Take in one range's :func:`pairwise_values` (a deal index's line-ups are never
        split between ranges): each ordered pair's mean value per deal index."""
        per_deal = (frame.group_by(["strategy", "opponent", "deal"])
                    .agg(pl.col("value").mean(), pl.len().alias("pairs"))
                    .sort(["strategy", "opponent", "deal"]))
        for (a, b), group in per_deal.group_by(["strategy", "opponent"], maintain_order=True):
            self.parts.setdefault((a, b), []).append(group["value"].to_numpy().copy())
            self.pairs[(a, b)] = self.pairs.get((a, b), 0) + int(group["pairs"].sum())

    def values(self) -> PairValues:
        values = {key: np.concatenate(arrays) for key, arrays in sorted(self.parts.items())}
        return PairValues(values, {key: int(x.size) for key, x in values.items()},
                          dict(sorted(self.pairs.items())))


@dataclass
class PairSummaries:
    """The seat comparisons of a run (:func:`analyses.pair_comparisons`) reduced, range by
    range of deal indices, to what the report reads of them, so the comparisons are never
    whole in memory:

    - ``blocks``: the Bradley-Terry input (``analyses.pairwise_results``) summed per block
      of deal indices (``deal`` holds the block, deal index modulo
      ``stats.BOOTSTRAP_BLOCKS``, which ``stats.bradley_terry`` groups by): the same fit
      and the same bootstrap;
    - ``values``: the verdict's values per duplicate pair (:class:`PairValues`), for the
      games whose figure compares two seats of a hand (:data:`SEAT_COMPARED`).
    """

    blocks: pl.DataFrame
    values: PairValues | None

    @classmethod
    def of(cls, game: str, ranges: Iterable[pl.DataFrame]) -> PairSummaries:
        """From ``analyses.pair_comparisons`` of each range, collected one at a time."""
        blocks = []
        gathered = _Gathered() if game in SEAT_COMPARED else None
        for comparisons in ranges:
            blocks.append(
                comparisons.group_by((pl.col("deal") % BOOTSTRAP_BLOCKS).alias("deal"),
                                     "strategy", "opponent")
                .agg(pl.col("wins").sum(), pl.col("comparisons").sum().alias("hands")))
            if gathered is not None:
                gathered.add(pairwise_values(game, comparisons.lazy(), comparisons.lazy(),
                                             comparisons.lazy()).collect())
        summed = (pl.concat(blocks).group_by("deal", "strategy", "opponent")
                  .agg(pl.col("wins").sum(), pl.col("hands").sum()))
        return cls(summed, gathered.values() if gathered is not None else None)
