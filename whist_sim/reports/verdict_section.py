"""The report's first section: who is best, by how much, how sure, in plain sentences.

A reader who reads nothing else should come away right. So the section says:

- which figure ranks this game's table, and why (``comparisons.RANKING``);
- for a run of two entrants, the verdict of its test: the sequential test of a
  duel (``[sprt]``), else a fixed-sample test at the default hypotheses
  (docs/statistics.md), recomputed from the rows;
- for more entrants, one sentence per comparison of neighbours in the ranking
  (and of every two when there are few; in a gauntlet, of each candidate with every
  other entrant): the difference with its 95% interval,
  "decided" when Holm's test over all the section's comparisons decides it
  (``multiplicity``: at most 5% chance that any comparison of truly equal entrants
  reads decided), otherwise how many more deals would separate a difference of the
  size seen, at the level Holm's test applies next given those decided;
- where the ratings rank two entrants in the opposite order to the ranking
  figure, which one to trust and why.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

from whist_sim.inference import (
    SprtSettings,
    fixed_verdict,
    model_for,
    pairs_to_separate,
    sequential_verdict,
)
from whist_sim.inference.duel_pairs import duel_pair_values, largest_net, pair_unit
from whist_sim.inference.estimate import decimals_or_digits, digits_apart
from whist_sim.inference.pair_models import FLAT_SPEND
from whist_sim.inference.sprt import FEW_PAIRS, Verdict, flat_net_bounds
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.comparisons import (
    RANKING,
    SEAT_COMPARED,
    Figure,
    PairSummaries,
    PairValues,
    knockout_shares,
    pairwise_values,
    ranking_figure,
)
from whist_sim.reports.document import NO_SPREAD, Section, Table, percent
from whist_sim.reports.multiplicity import (
    fewest_deals_to_decide,
    holm,
    holm_level_text,
    holm_next_level,
    p_value,
    score_p_value,
)
from whist_sim.reports.rating_notes import gauntlet_candidates
from whist_sim.reports.stats import CONFIDENCE, FLAT, ordered_sum, t_interval
from whist_sim.store import RunFolder
from whist_sim.store.folder import RUN_FILE
from whist_sim.store.lock import live_writer, shown_status
from whist_sim.tournament.schedule import Plan

TITLE = "Verdict"

MIXED_GAMES_NOTE = (
    " For a strategy, its `game win rate` in the Minnesota section differs from its figure"
    " here, and both are right: that rate counts every game the strategy sat in, once per"
    " seat, whoever sat beside it; this figure takes, for each other entrant, the games"
    " the two sat on opposite sides, and averages those shares over the entrants, so a"
    " game against a partnership of the strategy itself and another counts against the"
    " other alone, and each entrant met weighs the same however many games it was met in.")
"""Said under mixed Minnesota partnerships, where the two figures part (a probe read 64.2%
here beside 0.606 there); in a round robin of partnerships of one entrant each they agree."""

ALL_PAIRS_UP_TO = 4
"""With at most this many entrants every two are compared; with more, neighbours only."""


class Placed(NamedTuple):
    """An entrant of the ranking: its ``name``, its figure as the page prints it, and the
    ``value`` it is ranked by, for the ranking's CSV (a share, units per hand, or, in
    Knock-out Whist, games won over the games a fair share would win)."""

    name: str
    shown: str
    value: float


KNOCKOUT_RANKED_BY = "games_won_over_fair_share"
"""The ranking CSV's column of Knock-out Whist's ranking value (``_knockout``)."""


def verdict_section(
    folder: RunFolder, out: Path, ratings_order: Sequence[str] | Mapping[str, float] | None = None,
    comparisons: pl.LazyFrame | None = None, ranges: DealRanges | None = None,
    summaries: PairSummaries | None = None,
) -> list[Section]:
    """The verdict of a run: the ranking figure, the comparisons, the trust note.

    ``ratings_order``: the entrants best first by the report's ratings, to say
    where they and the ranking figure disagree (None: no such note); or each entrant's
    rating, so that entrants tied on it are not said to be ordered by it.
    ``comparisons``: ``analyses.pair_comparisons`` of the run's seats, if the
    report already holds it (None: computed here where the game needs it).
    ``ranges``: the run in ranges of deal indices, read one at a time (None: made here).
    ``summaries``: the comparisons as the report holds them (``RunFacts.pair_summaries``),
    in place of ``comparisons``.
    """
    meta = folder.meta()
    game = str(meta["game"])
    players = meta.get("players")
    figure = ranking_figure(
        game, meta.get("variant") if isinstance(meta.get("variant"), dict) else None,
        [int(n) for n in players] if isinstance(players, list) else None)
    ranges = ranges if ranges is not None else DealRanges.of(folder)
    paragraphs = [figure.why]
    unfinished = _unfinished(folder, meta)
    if unfinished:
        paragraphs.insert(0, unfinished)
    tables: list[Table] = []
    labels = sorted(set(ranges.collect(
        lambda scan: scan("seats").select("strategy").unique())["strategy"].to_list()))
    apart = _a_against_b(meta)
    duel: Verdict | None = None
    if len(labels) == 2 and apart:
        # errors in the recorded [sprt] (a hand-edited run.json) name the file they are in
        sentence, duel = _duel_sentence(ranges, meta, game, labels,
                                        f"{folder.path / RUN_FILE}: config.sprt")
        paragraphs.append(sentence)
    elif not apart:
        paragraphs.append(
            "Caution: the partnerships mix entrants (tournament.partnerships pairs two"
            " different strategies), so a strategy's figures below include the games it"
            " played beside another, for and against the same opponents: they describe"
            " partnerships as much as strategies, and no comparison between two entrants"
            " is tested." + (MIXED_GAMES_NOTE if game == "minnesota_whist" else ""))
    separated: set[tuple[str, str]] | None = None  # Knock-out: its figure is not pairwise
    unranked: list[str] = []
    apart_pairs: list[tuple[str, str]] = []
    candidates = gauntlet_candidates(meta)
    if game == "knockout_whist":
        ranked, lines = _knockout(ranges, duel=len(labels) == 2 and apart)
        unranked = [name for name in labels if name not in {n for n, _, _ in ranked}]
    else:
        ranked, lines, separated, apart_pairs = _pairwise(game, figure, ranges, labels,
                                                          comparisons, summaries, candidates)
    places = rank_labels([placed.shown for placed in ranked])
    paragraphs.append(f"Ranked by {figure.name}: " + ranking_line(places, ranked) + "."
                      + (_over_other_opponents(figure, [n for n, _, _ in ranked], apart_pairs,
                                               candidates)
                         if game != "knockout_whist" and len(ranked) > 2 else ""))
    if unranked:
        who = "it" if len(unranked) == 1 else "each"
        paragraphs.append(f"Not ranked: {', '.join(unranked)}. Another seat forfeited every"
                          f" game {who} sat in, so none of those games had a winner.")
    if apart:  # with mixed partnerships a "decided" between two entrants says nothing
        paragraphs += _so_far(lines) if unfinished else lines
    if duel is not None and separated is not None:
        paragraphs += _two_questions(duel, bool(separated))
    if candidates and _baselines_apart(meta, candidates, labels):
        paragraphs.append(
            f"A gauntlet: only the line-ups with a candidate ({', '.join(candidates)}) were"
            " played, so a baseline's figure was earned against the candidates alone, and"
            " the baselines' places relative to one another say nothing of how they would"
            " fare against each other.")
    if separated is None or not apart:  # Knock-out Whist: each entrant against the fair
        # share; mixed partnerships: no comparison between two entrants is tested
        rows = ([[place, name, text] for place, (name, text, _) in zip(places, ranked,
                                                                           strict=True)]
                + [["-", name, "no game finished"] for name in unranked])
        ahead = None
    else:
        ahead = _decided_ahead([name for name, _, _ in ranked], separated, apart_pairs,
                               candidates)
        rows = [[place, name, text, said] for place, (name, text, _), said
                in zip(places, ranked, ahead, strict=True)]
    header = ["rank", "entrant", figure.name, *([DECIDED_AHEAD] if ahead is not None else [])]
    tables.append(Table(header, rows, f"Ranked by {figure.name}", "verdict_ranking",
                        data=_ranking_data(game, figure.name, places, ranked, unranked, ahead)))
    note = _disagreement([name for name, _, _ in ranked], ratings_order, game, separated,
                         shown=[text for _, text, _ in ranked], name=figure.name)
    if note:
        paragraphs.append(note)
    return [Section(TITLE, paragraphs, tables)]


DECIDED_AHEAD = "decided ahead of the next"
"""The ranking table's column that says which places the data resolve: the table gave
strict places 1 to 5 where the prose said no two neighbours were separated, and a
reader publishing the CSV published that order (a ranking probe)."""


def _ranking_data(game: str, figure: str, places: list[str], ranked: list[Placed],
                  unranked: list[str], ahead: list[str] | None) -> pl.DataFrame:
    """The ranking table's CSV: the page's places and entrants, the value each is ranked
    by as a number (a column named after the figure, ``share_of_hands_won``; Knock-out
    Whist's is :data:`KNOCKOUT_RANKED_BY`, beside its shares at each size as printed),
    and whether each is decided ahead of the next. An unranked entrant's value is empty."""
    values = pl.Series([placed.value for placed in ranked] + [None] * len(unranked),
                       dtype=pl.Float64)
    columns: dict[str, Any] = {"rank": places + ["-"] * len(unranked),
                               "entrant": [placed.name for placed in ranked] + unranked}
    if game == "knockout_whist":
        columns[figure] = [placed.shown for placed in ranked] + ["no game finished"] * len(
            unranked)
        columns[KNOCKOUT_RANKED_BY] = values
    else:
        columns["_".join(figure.split())] = values
    if ahead is not None:
        columns[DECIDED_AHEAD] = ahead
    return pl.DataFrame(columns)


def _decided_ahead(order: list[str], separated: set[tuple[str, str]],
                   never_met: list[tuple[str, str]], candidates: Sequence[str]) -> list[str]:
    """Per ranked entrant, whether Holm's test decides it ahead of the next: "yes",
    "behind" (it decides the next one ahead of it, head to head: the ranking figure
    averages over different opponents), "no" (compared, not decided), "not compared"
    (they never met, or a gauntlet's two baselines, whose order the verdict does not
    test), and "-" for the last. ``separated``: the decided pairs as (ahead, behind)."""
    compared = set(_compared(order, candidates)) - set(never_met)
    said = []
    for a, b in itertools.pairwise(order):
        said.append("yes" if (a, b) in separated else "behind" if (b, a) in separated
                    else "no" if (a, b) in compared else "not compared")
    return [*said, "-"] if order else []


IF_THAT_SIZE = "if it is truly that size, at the spread seen so far"
"""The condition the "more deals would separate" figure rests on: it is the power
calculation's, at the difference and spread seen. A difference seen in a few deals is
often larger than the true one, and its spread smaller: a ranking probe that played the
suggested deals found such a figure held about 61% of the time, not 80%."""


def _share_of_items(plan: dict[str, Any], completed: Any) -> float | None:
    """The share of the plan's (line-up, deal) items in the ``completed`` tasks: tasks
    are not all one size (the last is cut short), and counted as tasks a run with 292
    of 600 deal indices read "about 40%"."""
    try:
        sizes = Plan(int(plan["pairings"]), int(plan["deals"]), int(plan["deals_per_task"]))
    except (KeyError, TypeError, ValueError):
        return None
    if sizes.items <= 0 or sizes.deals_per_task <= 0:
        return None
    return sum(sizes.task_item_count(task) for task in completed) / sizes.items


def _unfinished(folder: RunFolder, meta: dict[str, Any]) -> str | None:
    """A warning first thing in the section when the run has not reached its end (still
    running, interrupted, failed): a newcomer probe read "ends in a fixed-sample test ...
    accepted H1" and "decided" off a run stopped at 76 of 300 deals, with nothing but a
    status row to say it was partial. A sequential test's decision holds whenever it is
    read; a fixed-length test's, the intervals' and Holm's only at the planned end."""
    status = str(meta.get("status") or "complete")
    if status == "complete":
        return None
    plan = meta.get("plan") or {}
    tasks = plan.get("tasks")
    completed = folder.completed_tasks()
    done = len(completed)
    share = _share_of_items(plan, completed)
    played = (f"about {100 * share:.0f}% of the planned deals played, {done:,} of"
              f" {tasks:,} tasks" if isinstance(tasks, int) and tasks > 0 and share is not None
              else f"{done:,} tasks played")
    return (
        f"**This run is not finished** (status {shown_status(folder.path, status)}:"
        f" {played}). Every figure below is"
        " over the deal indices played so far. A fixed-sample test, the 95% intervals and"
        " the \"decided\" of Holm's test keep their error rates only at the run's planned"
        " end: read before it, and again as more is played, they find a difference that"
        " is not there more often than they say. Only a sequential test (`[sprt]`) is"
        " built to be read along the way. " + _how_to_finish(folder.path)
    )


def _how_to_finish(run: Path) -> str:
    """How the run will be finished: by the process writing it now (a report read during
    a live run told the reader to resume it, which the writer's lock refuses), or by a
    resume."""
    writer = live_writer(run)
    if writer is not None:
        return (f"It is being written now, by {writer}: build the report again when that"
                " ends.")
    return f"Finish the run: whist-sim run --resume {run}"


def _so_far(lines: list[str]) -> list[str]:
    """The comparisons of an unfinished run: each "decided" said to be as of the deals
    played so far (a probe: only the section's first paragraph said the run was partial,
    and every comparison still read "decided")."""
    return [line.replace(" decided.", " decided on the deals played so far, not final.")
            for line in lines]


def _baselines_apart(meta: dict[str, Any], candidates: list[str], labels: list[str]) -> bool:
    """Whether two baselines of a gauntlet never sat in one played line-up (at a table of
    three entrants and three seats every line-up holds them all, and they did meet)."""
    played = [set(lineup) for lineup in meta.get("lineups") or []]
    baselines = [name for name in labels if name not in candidates]
    return any(not any({a, b} <= lineup for lineup in played)
               for a, b in itertools.combinations(baselines, 2))


# -- a duel's test ------------------------------------------------------------------------


def _a_against_b(meta: dict[str, Any]) -> bool:
    """Whether the run's partnerships, if it names any, are each of one entrant (A A
    against B B), as ``TournamentConfig.a_against_b`` asks of a verdict between two."""
    tournament = (meta.get("config") or {}).get("tournament") or {}
    return all(len(set(pair)) == 1 for pair in tournament.get("partnerships") or [])


def _duel_sentence(ranges: DealRanges, meta: dict[str, Any], game: str,
                   labels: list[str], where: str = "sprt") -> tuple[str, Verdict]:
    """The test of a two-entrant run, recomputed from its rows and run.json (what the run
    printed and recorded), A being the first entrant of the config (a gauntlet's candidate
    first), and its verdict. ``where``: what errors in the recorded ``[sprt]`` name (its
    file and key)."""
    config = meta["config"] if isinstance(meta.get("config"), dict) else {}
    a, b = _entrants_in_order(meta, labels)
    # one value per deal index, each in one range: the ranges' values, in order, are sorted
    values = ranges.collect(lambda scan: duel_pair_values(scan("seats"), scan("matches"), a,
                                                          game))
    seatings = ranges.collect(lambda scan: scan("deals").group_by("pairing", "rotation").agg(
        pl.col("strategies").first()))
    per_pairing = (
        seatings.group_by("pairing")
        .agg(pl.col("strategies").filter(pl.col("rotation") == 0).first().alias("lineup"),
             pl.col("rotation").n_unique().alias("seatings"))
        .sort("pairing")
    )
    lineups = per_pairing["lineup"].to_list()
    seatings = per_pairing["seatings"].to_list()
    # each line-up at its own table size: a Knock-out run at several sizes is one test
    # over every size's games of a deal index, as the run's own (``config.duel_model``)
    model = model_for(game, [len(lineup) for lineup in lineups],
                      [lineup.count(a) for lineup in lineups], seatings,
                      per=pair_unit(game, meta.get("variant") or {}),
                      largest_net=largest_net(game, meta.get("variant") or {}))
    read = int((meta.get("verdict") or {}).get("deals_read") or values.height)
    whole = (pl.col("games") == sum(seatings) if game == "knockout_whist" else pl.lit(True))
    # a Knock-out pair is every game of a deal index: tasks run deal-major over the
    # line-ups, so a run stopped mid-task holds some deal index in some line-ups only
    pairs = values.filter((pl.col("deal") < read) & whole)["value"].to_list()
    sprt = config.get("sprt")
    if isinstance(sprt, dict):
        settings = SprtSettings.from_mapping(
            {k: v for k, v in sprt.items() if k != "batch" and v is not None}, where)
        settings.check_model(model, where)  # hypotheses the game allows, naming the file
        deals = (config.get("tournament") or {}).get("deals") or read
        batch = sprt.get("batch")
        verdict = sequential_verdict(model, settings, pairs, finished=read >= deals,
                                     batch=batch if isinstance(batch, int) else None)
        kind = "This run was a sequential test (an SPRT) of A against B"
    else:
        verdict = fixed_verdict(model, SprtSettings.from_mapping({}), pairs)
        kind = ("This run of two entrants ends in a fixed-sample test of A against B at the"
                " default hypotheses" if meta.get("status", "complete") == "complete" else
                "This run of two entrants, once finished, ends in a fixed-sample test of A"
                " against B at the default hypotheses; over the deals played so far, not a"
                " verdict yet")
    return (f"{kind} (A = {a}, B = {b}{_pair_is(lineups, seatings)}; docs/statistics.md"
            f" explains the model): {verdict.text(a, b)}"), verdict


def _two_questions(duel: Verdict, separated: bool) -> list[str]:
    """Why a two-entrant run's test and its comparison answer differently, said where they
    do: a statistician's probe read "accepted H1" beside "not separated", both right, with
    only the test's sentence saying which question it answered. An H0 beside "not
    separated", or beside a separated pair, needs no word: they agree."""
    low, high = duel.settings.bounds
    unit = (duel.estimate.mean_unit if duel.settings.on_net_scale else duel.estimate.unit)
    if duel.decision == "H1" and not separated:
        accepts = (
            f"once the likelihood ratio of H1 (at least {high:g}) against H0 (at most {low:g}"
            f" {unit}) crosses Wald's bound" if duel.sequential else
            f"once its one-sided lower bound on A's advantage clears H0's {low:g} {unit}")
        return [
            "The test accepted H1 where the comparison above did not separate the two: both"
            " hold, each at its own error rate. The test is one-sided, in the direction the"
            f" config set (A is its first entrant): it accepts H1 {accepts}, with a false"
            f" \"stronger\" at most {duel.settings.alpha:g}. The comparison is two-sided: it"
            " separates"
            f" the two only when its {CONFIDENCE:.0%} interval, with"
            f" {(1 - CONFIDENCE) / 2:.1%} at each end, leaves out equality, whichever is"
            " ahead, so it needs a wider margin. A test set before the run in one direction"
            " is the one to act on; the comparison says that the data, read both ways, do"
            " not yet rule out equality."
        ]
    if duel.decision == "inconclusive" and separated:
        return [
            "The comparison above separated the two where the test did not decide: the"
            " comparison asks only whether either is ahead, the test whether A is stronger"
            f" by at least {high:g} rather than at most {low:g} {unit}; a true difference"
            " between the two, or one in B's favour, can leave the test undecided at this"
            " length."
        ]
    return []


def _pair_is(lineups: list[Any], seatings: list[int]) -> str:
    """What one of the test's pairs is, where it is more than the standings' `pairs` count
    as one: a run of several line-ups (a Knock-out run at several table sizes) tests every
    line-up's games of a deal index as one pair, and its report read "after 200 pairs"
    beside standings of 1,000 pairs (a probe)."""
    if len(lineups) < 2:
        return ""
    return (f"; each pair is one deal index: the games of its {len(lineups)} line-ups, in"
            f" {sum(seatings)} seatings in all, taken together, where the standings count"
            " each line-up's apart")


def _entrants_in_order(meta: dict[str, Any], labels: list[str]) -> tuple[str, str]:
    """(A, B): the config's first and second entrant, as run.json's ``entrants`` lists
    them, or, for a run recorded before it did, as its config's ``strategies`` list names
    them (run.json's ``strategies`` table is written with its keys sorted: reading A and
    B from it swapped them whenever B's label sorted first, and the report's verdict
    contradicted the run's). The labels in alphabetical order if neither says."""
    recorded = meta.get("entrants")
    if not isinstance(recorded, list):
        recorded = _config_entrants(meta)
    if isinstance(recorded, list) and sorted(recorded) == sorted(labels):
        a, b = recorded
        return a, b
    return labels[0], labels[1]


def _config_entrants(meta: dict[str, Any]) -> list[str] | None:
    """The labels of run.json's config ``strategies``, in order, as the run named them."""
    from whist_sim.tournament.config import StrategyEntry

    entries = (meta.get("config") or {}).get("strategies")
    if not isinstance(entries, list):
        return None
    try:
        return [StrategyEntry(**entry).name for entry in entries]
    except (TypeError, ValueError):
        return None


# -- pairwise comparisons -------------------------------------------------------------------


def _pairwise(
    game: str, figure: Any, ranges: DealRanges, labels: list[str],
    comparisons: pl.LazyFrame | None = None, summaries: PairSummaries | None = None,
    candidates: Sequence[str] = (),
) -> tuple[list[Placed], list[str], set[tuple[str, str]], list[tuple[str, str]]]:
    """The entrants ranked by the figure, the comparisons in words, the pairs Holm's
    test decides, each as (ahead, behind) by its head-to-head values, and every two
    entrants that never met (ranked order).

    The direction is the comparison's, not the ranking's: the figure averages over each
    entrant's opponents, so a gauntlet ranked its candidate above a baseline that beat it
    head to head (a newcomer's probe), and a set of unordered pairs read "decided ahead"
    for it.

    ``candidates``: a gauntlet's; with more entrants than ``ALL_PAIRS_UP_TO`` each is
    compared with every other entrant (``_compared``)."""
    if summaries is not None and summaries.values is not None and game in SEAT_COMPARED:
        values = summaries.values
    elif comparisons is not None:
        values = PairValues.of(pairwise_values(
            game, ranges.folder.scan("seats"), ranges.folder.scan("matches"),
            comparisons).collect())
    else:
        values = PairValues.from_ranges(
            pairwise_values(game, ranges.scan("seats", bounds), ranges.scan("matches", bounds))
            .collect() for bounds in ranges.bounds)
    by_pair = values.values
    score = {name: values.overall(name) for name in labels}
    order = sorted(labels, key=lambda name: (-score[name], name))
    ranked = [Placed(name, _fmt(score[name], figure.unit), score[name]) for name in order]
    compared = _compared(order, candidates)
    made = [(a, b, by_pair[(a, b)]) for a, b in compared
            if by_pair.get((a, b)) is not None and by_pair[(a, b)].size]
    # the comparisons made, not those of entrants that never met, are the family
    decided = dict(zip(((a, b) for a, b, _ in made), holm(
        [p_value(x, figure.null, figure.unit == "share", getattr(figure, "largest", None))
         for _, _, x in made]), strict=True))
    lines = []
    done = sum(decided.values())
    for a, b in compared:
        if (a, b) not in decided:
            lines.append(f"{a} and {b} never met.")
            continue
        # the values are per deal index (the independent unit), a deal each
        lines.append(_comparison(a, b, by_pair[(a, b)], figure, 1.0, decided[(a, b)],
                                 len(made), done))
    if len(made) > 1:
        lines.append(_multiplicity(len(made), done, _sized(lines)))
    never = [(a, b) for a, b in itertools.combinations(order, 2)
             if by_pair.get((a, b)) is None or not by_pair[(a, b)].size]
    ahead = {_ahead_first(a, b, by_pair[(a, b)], figure)
             for (a, b), yes in decided.items() if yes}
    return ranked, lines, ahead, never


def _ahead_first(a: str, b: str, x: np.ndarray, figure: Any) -> tuple[str, str]:
    """(a, b) if ``x`` (a's values against b) puts a ahead, else (b, a): the leader as
    ``_comparison`` names it."""
    return (a, b) if t_interval(x).estimate >= figure.null else (b, a)


def _compared(order: list[str], candidates: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The pairs the verdict compares, in ranked order: every two of a few entrants; of
    more, neighbours in the ranking, but in a gauntlet each candidate with every other
    entrant. A gauntlet's neighbours are mostly two baselines that never met: a probe's
    gauntlet of seven read "never met" four times and tested its candidate against one
    baseline of five, leaving the question it was run for unanswered."""
    pairs = list(itertools.combinations(order, 2))
    if len(order) <= ALL_PAIRS_UP_TO:
        return pairs
    if candidates:
        return [(a, b) for a, b in pairs if a in candidates or b in candidates]
    return list(itertools.pairwise(order))


def _comparison(a: str, b: str, x: np.ndarray, figure: Any, per_deal: float,
                decided: bool | None = None, family: int = 1, done: int = 0) -> str:
    """One comparison in words. ``decided``: whether Holm's test over the ``family`` of
    comparisons the section makes decides it (None: the comparison alone, at 95%);
    ``done``: how many of them it decides, which sets the level at which an undecided
    one would be (``holm_next_level``)."""
    interval = t_interval(x)
    if figure.unit == "share":  # cut at 0 and 1, or Wilson's where the pairs show no spread
        interval = interval.as_rate()
    deals = round(interval.n / per_deal)
    leader, other = (a, b) if interval.estimate >= figure.null else (b, a)
    shown = _difference(interval, figure, leader == a, other)
    flat = _no_spread(interval, figure)
    if interval.n >= 2 and not flat and not (interval.lo <= figure.null <= interval.hi):
        if decided is False:
            return (f"{leader} {shown}, over {_deals(deals)}: its own 95% interval excludes"
                    f" equality, but it is {_not_with_the_others(family)}")
        caution = ""
        if figure.unit != "share" and interval.n < FEW_PAIRS:
            # as the SPRT's verdict on net margins says beside it (a statistician's probe:
            # the one sentence carried the caution, the next "decided" without it)
            caution = (f" Caution: over only {_deals(deals)}; an interval of net margins"
                       " estimates their spread from the deals, and below about"
                       f" {FEW_PAIRS} pairs it is loose enough to exclude equality more often"
                       " than 5% says.")
        return f"{leader} {shown}, over {_deals(deals)}: decided.{caution}"
    gap = abs(interval.estimate - figure.null)
    sd = float(np.std(x, ddof=1)) if x.size >= 2 else math.nan
    if gap == 0:
        return (f"{a} and {b} are not separated after {_deals(deals)} ({leader} {shown});"
                " no difference has been seen to size a longer run by.")
    largest = getattr(figure, "largest", None)
    if flat and largest:  # net margins that all agree, tested against the game's bound
        return _flat_comparison(a, b, interval, figure, leader, shown, deals, decided, family)
    if flat:  # net margins that all agree: no interval, no test (``p_value``)
        return (f"{a} and {b} are not separated after {_deals(deals)} ({leader} {shown}):"
                " every deal gave the same margin, so the difference has no interval to"
                " decide it by, nor a spread to say how many more deals would; play a longer"
                " run.")
    if not math.isfinite(sd) or sd == 0:  # a gap, on too few deals to spread: not "equal"
        return (f"{a} and {b} are not separated after {_deals(deals)} ({leader} {shown}):"
                " too few deals to tell, and too few to say how many more would; play a"
                " longer run.")
    more = max(0, math.ceil(
        (pairs_to_separate(sd, gap, alpha=holm_next_level(family, done)) - interval.n)
        / per_deal))
    return (f"{a} and {b} are not separated after {_deals(deals)} ({leader} {shown}); about"
            f" {more:,} more deals would separate a difference of that size"
            f" ({_fmt_gap(gap, figure.unit, figure.null)}) with 80% probability,"
            f" {IF_THAT_SIZE}.")


def _flat_comparison(a: str, b: str, interval: Any, figure: Any, leader: str, shown: str,
                     deals: int, decided: bool | None, family: int) -> str:
    """A comparison of deals that all gave the same margin, each within ``figure.largest``
    of 0: Student's t has no width to give, but the bound does (``flat_net_bounds``, at
    2.5% a side, and ``p_value``). A Solo entrant that forfeited every hand, 16 units
    behind in every deal, was "not separated" however long the run, with the advice to
    play a longer one."""
    sign = 1.0 if leader == a else -1.0
    lo, hi = flat_net_bounds(sign * interval.estimate, interval.n, figure.largest,
                             (1 - CONFIDENCE) / 2, (1 - CONFIDENCE) / 2)
    level = 1 - FLAT_SPEND * (1 - CONFIDENCE)  # the half of the 5% spent on such deals
    why = (f"every deal gave the same margin, so the interval is the one any margins within"
           f" {figure.largest:g} {figure.unit} either way allow ({level:.1%}, half the"
           f" {1 - CONFIDENCE:.0%} error spent on deals that all agree: {lo:.3f} to {hi:.3f})")
    if lo > 0 and decided is not False:
        return f"{leader} {shown}, over {_deals(deals)}: decided; {why}."
    if lo > 0:
        return (f"{leader} {shown}, over {_deals(deals)}: {why}, which excludes equality, but"
                f" it is {_not_with_the_others(family)}")
    return (f"{a} and {b} are not separated after {_deals(deals)} ({leader} {shown}): {why},"
            " which reaches 0; more deals at that margin would narrow it.")


def _difference(interval: Any, figure: Any, as_is: bool, other: str) -> str:
    """"wins 73.1% of hands against random (95%: 71.9 to 74.3%)", said of the leader."""
    flip = (lambda v: v) if as_is else (
        (lambda v: 1.0 - v) if figure.unit == "share" else (lambda v: -v))
    est = flip(interval.estimate)
    lo, hi = sorted((flip(interval.lo), flip(interval.hi)))
    if figure.unit == "share":
        words = getattr(figure, "share_text", Figure.share_text)  # any figure-like object
        head = words.format(share=percent(est), noun=figure.noun, other=other)
        if math.isnan(lo):
            return head
        lo, hi = share_bounds(lo, hi)
        return f"{head} (95%: {percent(lo, sign=False)} to {percent(hi)})"
    flat = _no_spread(interval, figure)
    extra = 0 if flat else digits_apart((lo, est, hi), _margin)
    head = (f"is level with {other} at {_margin(est, extra)} {figure.unit}" if est == 0
            else f"is ahead of {other} by {_margin(est, extra)} {figure.unit}")
    if math.isnan(lo):
        return head
    if flat:
        return f"{head} {NO_SPREAD}"
    return f"{head} (95%: {_margin(lo, extra)} to {_margin(hi, extra)})"


def _margin(value: float, extra: int = 0) -> str:
    """A mean margin to three decimals (and ``extra`` more: the interval's ends and the lead
    between them are each shown as a number of their own, not "0.001 (95%: 0.001 to
    0.001)"), or to two significant digits where those would show a lead as none: two
    entrants level on every deal read "ahead ... by 0.000" (a probe), and a lead of 0.0004
    read the same."""
    return decimals_or_digits(value, 3 + extra)


def _no_spread(interval: Any, figure: Any) -> bool:
    """Whether ``interval`` is of a mean (not a share) over deals that all gave the same
    value: it has no width, and is shown ``[no spread]`` rather than as bounds, and not
    decided (docs/reading-a-report.md). A strategy that forfeited every hand of three
    deals read "ahead of crash by 8.000 units per hand (95%: 8.000 to 8.000), over 3
    deals: decided" beside the fixed-sample test's "cannot decide" (a statistician's
    probe). A share's has Wilson's width instead (``Interval.as_rate``)."""
    return (figure.unit != "share" and interval.n >= 2
            and interval.hi - interval.lo <= FLAT)


def share_bounds(lo: float, hi: float) -> tuple[float, float]:
    """A share's interval shown within 0 and 1.

    The t interval of a mean of shares can reach past them on few deals ("89.3 to
    100.7%"); the share itself cannot, so cutting the interval there loses no coverage
    and spares the reader an impossible figure. The comparisons pass a rate's interval
    already (``Interval.as_rate``: cut there, or Wilson's where the pairs show no spread),
    which this leaves as it is; it guards the text against any other.
    """
    return max(0.0, lo), min(1.0, hi)


def _over_other_opponents(figure: Any, names: Sequence[str] = (),
                          never: Sequence[tuple[str, str]] = (),
                          candidates: Sequence[str] = ()) -> str:
    """Why two ranking figures do not subtract to the comparison of their entrants.

    With three entrants or more each figure is a mean over the entrants it met, the other
    ranked entrant among them and itself not: two figures average over different
    opponents. A reader took "1. heuristic_bold (+3.738), 2. heuristic (+3.718)" for a
    gap of 0.020 beside "ahead of heuristic by 0.013", the head-to-head margin (a probe).

    ``names``: the ranked entrants; ``never``: every two of them that never met (a
    gauntlet's baselines), of whom "each meets the other" was said beside "heuristic and
    random never met" (a probe); ``candidates``: a gauntlet's, to say who met whom when
    just the baselines kept apart.
    """
    who = "each meets the other, never itself"
    if never:
        baselines = [name for name in names if name not in candidates]
        if candidates and {frozenset(pair) for pair in never} == {
                frozenset(pair) for pair in itertools.combinations(baselines, 2)}:
            who = ("in a gauntlet a candidate meets every other entrant and a baseline only"
                   " the candidates; none meets itself")
        else:
            who = "; ".join(f"{a} and {b} never met" for a, b in never) + "; none meets itself"
    return (f" Each entrant's {figure.name} is its mean against the entrants it met, so"
            f" two entrants' figures are averages over different opponents ({who}): the"
            " comparisons below are of the two head to head, not the difference of their"
            " figures here.")


def _sized(lines: list[str]) -> bool:
    """Whether any comparison of ``lines`` says how many more deals would separate it."""
    return any(IF_THAT_SIZE in line for line in lines)


def _multiplicity(count: int, done: int = 0, sized: bool = True) -> str:
    """Why "decided" holds for the comparisons together, and, where some comparison
    ``sized`` a longer run (not every undecided one can: no gap, no spread), the level at
    which those deals are sized: the one Holm's test applies next, given the ``done``
    decided (``holm_next_level``). A probe read "the deals said to separate a difference"
    in a run whose comparisons quoted none."""
    text = (f"\"Decided\" holds for the {count} comparisons together: each is decided by"
            " Holm's step-down test over all of them, so if every difference compared were"
            " in truth zero, the chance that any of them reads decided would be at most 5%."
            " Each interval is 95% on its own, so one may exclude equality while its"
            " comparison is not decided")
    if done >= count or not sized:
        return text + "."
    return (f"{text}; the deals said to separate a difference are those that would decide"
            " it by Holm's test, at the level it applies to the next comparison given those"
            f" already decided ({holm_level_text(count, done)}).")


def rank_labels(shown: list[str]) -> list[str]:
    """Each ranked entrant's place: ``1``, ``2``, ...; entrants whose figures read the same
    (as printed) share a place, marked ``=`` ("1=, 1="): two equal figures ranked 1 and 2
    by their order in the config read as one ahead of the other."""
    places, place = [], 0
    for i, text in enumerate(shown):
        if i == 0 or text != shown[i - 1]:
            place = i + 1  # ranked in order, so equal figures are neighbours
        tied = shown.count(text) > 1
        places.append(f"{place}=" if tied else str(place))
    return places


def ranking_line(places: list[str], ranked: Sequence[tuple[str, str, float]]) -> str:
    """"1. a (60.0%), 2= b (50.0%), 2= c (50.0%)": a place and a point, or a shared place
    and its "=" alone (docs/reading-a-report.md; a tie read "1=. random (A)")."""
    return ", ".join(f"{place if place.endswith('=') else f'{place}.'} {name} ({text})"
                     for place, (name, text, _) in zip(places, ranked, strict=True))


def _deals(count: int) -> str:
    return "1 deal" if count == 1 else f"{count:,} deals"


def _not_with_the_others(family: int) -> str:
    """Why a comparison whose own 95% interval excludes equality is not decided."""
    return (f"not decided with the {family} comparisons taken together (Holm's test, 5%"
            " over all of them).")


# -- Knock-out Whist: each entrant against the fair share --------------------------------


def _shares_apart(interval: Any, fair: float) -> tuple[str, str, str, str]:
    """A Knock-out share, its interval's ends (the first without its %) and the fair
    share, to one decimal of a percent or as many more as tell any two different ones
    apart: over many games "wins 25.0% ... (95%: 25.0 to 25.1%) ..., against a fair share
    of 25.0%: above it, decided" would read as a contradiction."""
    extra = digits_apart((interval.estimate, interval.lo, interval.hi, fair),
                         lambda value, more: percent(value, 1 + more))
    return (percent(interval.estimate, 1 + extra), percent(interval.lo, 1 + extra, sign=False),
            percent(interval.hi, 1 + extra), percent(fair, 1 + extra))


def _knockout(ranges: DealRanges, duel: bool = False
              ) -> tuple[list[Placed], list[str]]:
    """Each entrant's share of games won at each table size against the fair share.

    ``duel``: the run is a test of two entrants, whose sentence comes first; an entrant
    not separated from the fair share is then not told how many more deals would
    separate it (a 5-seat duel's test had accepted H0, and these lines asked for 1,331
    more deals: a probe).

    The share is the pooled one, games won over games (player-games) played, with its
    interval over deal indices (a ratio's cluster interval, ``stats.ratio_interval``), as
    the Knock-out Whist sections and the model-fit table give it. It was the mean over
    deal indices of each index's share, worded "wins 70.0% of its games" where the
    sections, counting the same 4 wins in 6 games, said 0.667 (a probe): a deal index
    where an entrant finished one game weighed as much as one where it finished three.
    The pooled share is also the figure the ranking sorted by (games won over a fair
    share's), so the ranking and the figures it shows agree.

    A forfeited game counts as lost by its forfeiter (``knockout_shares``), which the
    Knock-out sections leave out; the sentence says so where it happened.
    """
    shares, forfeited = ranges.collect_all(lambda scan: [
        knockout_shares(scan("seats")),
        scan("seats").select("deal_key", "strategy", "result")
        .with_columns(players=pl.len().over("deal_key").cast(pl.Int64))
        .filter(pl.col("result") == "forfeit")
        .group_by("strategy", "players").agg(pl.len().alias("forfeits")),
    ])
    shares = shares.sort(["strategy", "players", "deal"]).with_columns(
        won=(pl.col("value") * pl.col("seat_games")).round(0))
    forfeits = {(row["strategy"], row["players"]): row["forfeits"] for row in forfeited.group_by(
        "strategy", "players").agg(pl.col("forfeits").sum()).iter_rows(named=True)}
    rows = []
    for (name, players), group in shares.group_by(["strategy", "players"], maintain_order=True):
        won, games = group["won"].to_numpy(), group["seat_games"].to_numpy()
        x = pooled_values(won, games)
        rows.append((name, players, t_interval(x).as_rate(), 1.0 / players, x,
                     (int(won.sum()), int(games.sum()))))
    rows.sort(key=lambda row: (row[1], -row[2].estimate, row[0]))
    decided = holm([score_p_value(x, fair) for _name, _players, _i, fair, x, _c in rows])
    done = sum(decided)
    lines = []
    for (name, players, interval, fair, x, (won, games)), holds in zip(rows, decided,
                                                                        strict=True):
        share, lo, hi, fair_shown = _shares_apart(interval, fair)
        bounds = ("no interval from one deal" if math.isnan(interval.lo) else
                  f"95%: {lo} to {hi}")
        count = f"{won:,} of {games:,} player-game{'' if games == 1 else 's'}"
        lost = forfeits.get((name, players), 0)
        if lost:  # the one way this share and the Knock-out sections' may differ
            count += (f", counting as lost the {lost:,} it forfeited, which the Knock-out"
                      " Whist sections leave out")
        text = (f"{name} wins {share} of its games at {players} seats"
                f" ({count}; {bounds}, over {_deals(interval.n)}), against a fair share of"
                f" {fair_shown}")
        if interval.n >= 2 and not (interval.lo <= fair <= interval.hi):
            side = "above" if interval.estimate > fair else "below"
            fewest = fewest_deals_to_decide(len(rows))
            lines.append(
                f"{text}: {side} it, decided." if holds else
                f"{text}: {side} it on its own interval, but over {_deals(interval.n)} the"
                f" test against the fair share cannot decide: with {len(rows)} comparisons"
                f" it needs at least {fewest} deals." if interval.n < fewest else
                f"{text}: {side} it on its own interval, but"
                f" {_not_with_the_others(len(rows))}")
        else:
            # 90 of 270 games against a fair 1/3 differ by rounding alone, and pooled values
            # of equal shares spread by as little: "about 0 more deals would separate" it
            gap = abs(interval.estimate - fair)
            sd = float(np.std(x, ddof=1)) if x.size >= 2 else math.nan
            if gap <= FLAT:
                lines.append(f"{text}: not separated from it; no difference has been seen to"
                             " size a longer run by.")
            elif duel:
                lines.append(f"{text}: not separated from it (the test of the two"
                             " entrants is the duel's, above).")
            elif math.isfinite(sd) and sd > FLAT:
                more = max(0, pairs_to_separate(
                    sd, gap, alpha=holm_next_level(len(rows), done)) - interval.n)
                lines.append(f"{text}: not separated from it; about {more:,} more deals would"
                             " separate a difference of that size with 80% probability,"
                             f" {IF_THAT_SIZE}.")
            else:
                lines.append(f"{text}: not separated from it.")
    if len(rows) > 1:
        lines.append(_multiplicity(len(rows), done, _sized(lines)))
    best = {}
    for name, players, interval, *_ in rows:
        best.setdefault(name, []).append((players, interval.estimate))
    # ranked by games won over the games a fair share would win, pooled over table sizes:
    # at one size that is the share's order; averaging the sizes' shares instead weighed a
    # size of 120 player-games as much as one of 1,000 and ignored their fair shares
    by_name = shares.with_columns(expected=shares["seat_games"] * shares["fair"]) \
        .group_by("strategy").agg(pl.col("won").sum(), ordered_sum(pl.col("expected")))
    of_fair = {row["strategy"]: row["won"] / row["expected"] for row in by_name.iter_rows(
        named=True) if row["expected"] > 0}
    ranked = sorted(best, key=lambda n: (-of_fair.get(n, 0.0), n))
    several = len({players for _, players, *_ in rows}) > 1
    lines += order_reversals({name: best[name] for name in ranked})

    def shown(name: str) -> str:
        text = ", ".join(f"{percent(e)} at {p}" for p, e in best[name])
        return f"{text}; {of_fair.get(name, math.nan):.2f}x a fair share" if several else text

    return [Placed(n, shown(n), of_fair.get(n, math.nan)) for n in ranked], lines


def order_reversals(shares: dict[str, list[tuple[int, float]]]) -> list[str]:
    """Where two entrants' order at one table size is the other way round at another: a
    sentence naming each such pair, or none. ``shares``: per entrant in ranked order, its
    (table size, share of games won). The ranking pools the sizes, so it follows the size
    with the most games and said nothing of a reversal (a Knock-out probe: heuristic ahead
    of reckless at five seats, behind at seven, ranked second)."""
    found = []
    names = list(shares)
    for first, one in enumerate(names):
        for two in names[first + 1:]:
            # said from the side ahead at the smallest size where they differ
            pair = sorted([(one, two), (two, one)], key=lambda p: _first_ahead(shares, *p))
            name, other = pair[0]
            mine, theirs = dict(shares[name]), dict(shares[other])
            common = sorted(set(mine) & set(theirs))
            ahead = [size for size in common if mine[size] > theirs[size]]
            behind = [size for size in common if mine[size] < theirs[size]]
            if ahead and behind:
                found.append(
                    f"{name} is ahead of {other} at {_sizes(ahead)} seats"
                    f" ({_against(ahead, mine, theirs)}) and behind at {_sizes(behind)}"
                    f" ({_against(behind, mine, theirs)})")
    if not found:
        return []
    return [f"The order is not the same at every table size: {'; '.join(found)} (the"
            " figures' order, which no test here compares). The ranking pools the sizes"
            " (games won over a fair share's), so it follows the sizes with the most games;"
            " for one size, read that size's figures."]


def _first_ahead(shares: dict[str, list[tuple[int, float]]], name: str, other: str) -> float:
    """The smallest table size at which ``name``'s share is above ``other``'s (inf: none)."""
    theirs = dict(shares[other])
    return min((size for size, share in shares[name] if size in theirs
                and share > theirs[size]), default=math.inf)


def _sizes(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))


def _against(sizes: list[int], mine: dict[int, float], theirs: dict[int, float]) -> str:
    return "; ".join(f"{percent(mine[size])} against {percent(theirs[size])}"
                     for size in sizes)


def pooled_values(won: npt.ArrayLike, games: npt.ArrayLike) -> np.ndarray:
    """One value per deal index whose mean is the pooled share ``sum(won) / sum(games)``
    and whose t-interval is that ratio's cluster interval over deal indices
    (``stats.ratio_interval``): ``R + (won_i - R * games_i) / mean(games)``.

    The residuals ``won_i - R * games_i`` add up to zero, so the mean is R, and their
    spread over mean(games) is the ratio's standard error times sqrt(k): the t-interval,
    the p-value of Holm's test and the deals said to separate a difference all read the
    pooled share the text shows, by the machinery of a mean over deal indices. Where
    every deal index gave the same share the values do not spread, and a rate's
    interval is Wilson's over the deal indices, as for a mean (``Interval.as_rate``).
    """
    y = np.asarray(won, dtype=float)
    n = np.asarray(games, dtype=float)
    if not n.size or n.sum() <= 0:
        return np.array([], dtype=float)
    ratio = y.sum() / n.sum()
    return ratio + (y - ratio * n) / n.mean()


# -- ratings against the ranking figure -----------------------------------------------------

TRUST = {
    # none says the two differ by noise: that was printed of rating intervals that did
    # not overlap (a reader's probe); each says why the two can differ, and which to read
    "german_whist": (
        "Both count hands won, but the ratings fit one strength per entrant to every"
        " opponent at once while the ranking figure averages each entrant's own results"
        " against the others: where entrants met different opponents the two can order"
        " them differently. The comparisons above say which differences are decided."
    ),
    "solo_whist": (
        "Trust the net units: they are what the game pays. The finishing-order ratings count"
        " how often an entrant ends a hand ahead, whatever the stake, so an entrant that wins"
        " many small hands and loses a few large ones rates higher than it earns."
    ),
    "minnesota_whist": (
        "Trust the games won: a game to the target is the result. The ratings fit one"
        " strength per strategy to the games with every opponent and partner pooled, a model"
        " that can order them differently when they played with and against different ones."
    ),
    "knockout_whist": (
        "Trust the games won: a game's winner is the result. The `who wins` ratings fit one"
        " strength per entrant to the first places of every table at once, a model that can"
        " order them differently when they met different tables."
    ),
}


def _disagreement(ranked: list[str], ratings: Sequence[str] | Mapping[str, float] | None,
                  game: str, separated: set[tuple[str, str]] | None = None,
                  shown: Sequence[str] | None = None, name: str | None = None) -> str | None:
    """Where the ratings order two entrants the other way from the ranking figure. The
    game's reason for trusting the figure (``TRUST``) is given only for a pair the
    figure separates (``separated``: Holm's decided pairs, as (ahead, behind); None: not
    known): a Solo run explained a one-point ratings gap against a net gap inside its
    noise as a style of play ("wins many small hands and loses a few large ones"). A pair
    whose head-to-head test decides the ratings' order is said to be so: the figure,
    an average over different opponents, is the one the data contradict there.

    No order is claimed between entrants tied on the ranking figure (``shown``: each
    ranked entrant's figure as printed, equal texts tied, as ``rank_labels`` places
    them) or on the rating (``ratings`` as a mapping: equal in whole points, as the
    ratings table prints them; a list gives an order only): three Knock-out entrants
    ranked "2=" at 0.0% each were said to be "above" one another "by share of games
    won" (a probe). ``name``: the ranking figure's, as ``ranking_figure`` words it for
    the run's variant (None: ``RANKING``'s for the game)."""
    if not ratings:
        return None
    name = name or RANKING[game].name
    figure = dict(zip(ranked, shown, strict=True)) if shown is not None else {}
    if isinstance(ratings, Mapping):
        values = {e: float(v) for e, v in ratings.items() if math.isfinite(float(v))}
        order = sorted(values, key=lambda entrant: -values[entrant])
        rating = {entrant: round(value) for entrant, value in values.items()}
    else:
        order, rating = list(ratings), {}
    position = {entrant: i for i, entrant in enumerate(order)}

    def tied(a: str, b: str) -> bool:
        return ((a in figure and figure.get(a) == figure.get(b))
                or (a in rating and rating.get(a) == rating.get(b)))

    met = [(a, b) for a, b in itertools.combinations(ranked, 2)
           if a in position and b in position]
    swapped = [(a, b) for a, b in met if position[a] > position[b] and not tied(a, b)]
    if not swapped:
        ties = _tie_groups([a for a in ranked if a in position], figure)
        if not ties:
            return f"The ratings rank the entrants in the same order as {name}."
        return (f"The ratings rank the entrants in the same order as {name} wherever it"
                f" orders them (it ties {'; '.join(_and(group) for group in ties)}).")
    real = swapped if separated is None else [pair for pair in swapped if pair in separated]
    against = [] if separated is None else [(a, b) for a, b in swapped if (b, a) in separated]
    if not real and not against:
        text = "; ".join(f"{b} above {a}" for a, b in swapped)
        return (f"The ratings order some entrants the other way from {name} ({text} by"
                f" rating), but {name} does not separate them: within the noise, neither"
                " order is a finding.")
    notes = []
    if real:
        text = "; ".join(f"{a} above {b}" for a, b in real)
        notes.append(f"The ratings and {name} disagree ({text} by {name}, the other way by"
                     f" rating). {TRUST[game]}")
    if against:  # one sentence of several pairs read "a above b; c above b by rating, as
        # their head-to-head comparison decides" (a statistician's probe)
        text = " and ".join(f"{b} above {a}" for a, b in against)
        many = len(against) > 1
        notes.append(
            f"The ratings put {text}, as their head-to-head"
            f" {'comparisons decide' if many else 'comparison decides'}: {name} orders"
            f" {'each pair' if many else 'them'} the other way only as an average over"
            " different opponents.")
    return " ".join(notes)


def _tie_groups(ranked: list[str], figure: Mapping[str, str]) -> list[list[str]]:
    """The runs of two or more ranked entrants whose figures read the same."""
    groups: list[list[str]] = []
    for entrant in ranked:
        if groups and entrant in figure and figure[entrant] == figure.get(groups[-1][-1]):
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    return [group for group in groups if len(group) > 1]


def _and(names: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _fmt(value: float, unit: str) -> str:
    if value != value:
        return "—"
    return percent(value) if unit == "share" else f"{value:+.3f} {unit}"


def _fmt_gap(value: float, unit: str, null: float = 0.5) -> str:
    """A gap from ``null`` in words. A share's is the difference of the two percentages as
    shown (the leader's and the null's), so the sentence agrees with them: rounded on its
    own, 51.75% - 50% read "1.7 percentage points" beside "51.8%" (a probe)."""
    if unit == "share":
        shown = (Decimal(percent(null + value, sign=False))
                 - Decimal(percent(null, sign=False)))
        return f"{shown} percentage points"
    return f"{value:.3f} {unit}"
