"""The report section "Standings": one row per strategy, best mean net first."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.reports import analyses, plots
from whist_sim.reports.comparisons import GERMAN_UNITS, german_hands_can_draw
from whist_sim.reports.document import Section, column, interval, table_of
from whist_sim.reports.run_facts import RunFacts
from whist_sim.reports.solo_whist_section import forfeit_units
from whist_sim.store import RunFolder

WHAT_WINS = {
    "solo_whist": "In Solo Whist a hand is won by the declarer side when the contract is"
    " made and by each defender when it fails; a throw-in is a draw for all.",
    "minnesota_whist": "In Minnesota Whist a hand is one deal of a game to `target`: both"
    " seats of the side whose points in it exceed the other side's win it (under `scoring ="
    " \"pagat\"` a null hand costs the side with more tricks points, and the side that"
    " scored nothing wins it), and `net` is the side's points minus the other side's (the"
    " game results are in the Minnesota section).",
    "knockout_whist": "In Knock-out Whist a hand is a whole game: only its winner wins,"
    " `net` is +(players − 1) for the winner and −1 for every other seat, so an even"
    " win rate is 1/players. A game a seat forfeited has no winner: the other seats"
    " record it as a draw (the draw rate), so where games were forfeited the win rates"
    " add up to less than one a game and the figure's line is the average seat's.",
}
"""Per game, what winning a hand means, for the prose of multi-seat games."""

FORFEIT_COSTS = {
    "german_whist": "by the largest score the variant allows",
    "solo_whist": "in which the forfeiting seat pays each other seat the Abundance Declared"
    " amount at the hand's stake ({amount}); the seats it pays record the hand as won, and"
    " their win rates count it (but for the forfeiter's own other seat: a strategy does not"
    " win a hand by forfeiting it)",
    "minnesota_whist": "in which the other side scores `target` points, which ends the game",
    "knockout_whist": "of the game: the forfeiting seat's net is −(players − 1), every other"
    " seat's +1",
}
"""Per game, what a forfeit costs (docs/rules): "the largest score the variant allows" is
German Whist's rule, and was once said of every game (a probe). Solo Whist's names its
``amount`` in the run (``forfeit_cost``)."""

NO_DRAWS = {"minnesota_whist": "Minnesota Whist has no draw rate: one side always ends a hand"
            " with more points than the other, so no hand is drawn."}
"""Games whose hands cannot be drawn: their standings leave out the draw rate, which read
``0.000 [0.000, 0.088]`` in every row, as if a draw could happen (a probe)."""

GERMAN_UNIT_NOUNS = {"stage2": "stage-2 tricks", "all": "tricks", "weighted": "weighted points"}
"""What a German Whist hand's units are under each ``count`` (``comparisons.GERMAN_UNITS``
says how many)."""


def no_draws_note(game: str, variant: dict) -> str | None:
    """The sentence that replaces the draw rate where no hand of the run's variant can be
    drawn, or None where one can: German Whist under ``count = "stage2"`` read a draw rate
    of ``0.000 [0.000, 0.004]`` in every row of the quickstart's standings (a probe). Why
    not is read off the same units :func:`german_hands_can_draw` decides by: an odd number
    of them, or a race that ends every hand before an even split."""
    if game in NO_DRAWS:
        return NO_DRAWS[game]
    if game != "german_whist" or german_hands_can_draw(variant):
        return None
    count = str(variant.get("count", "stage2"))  # a known count: others can draw
    units, noun = GERMAN_UNITS[count], GERMAN_UNIT_NOUNS[count]
    if units % 2:
        said, why = f'`count = "{count}"`', f"the {units} {noun} cannot split evenly"
    else:
        race = variant.get("race_to")
        said = f'`count = "{count}"`, `race_to = {race}`'
        why = (f"the race to {race} ends every hand before its {units} {noun} can split"
               f" {units // 2}-{units // 2}")
    return f"German Whist has no draw rate under this variant ({said}): {why}, so no hand is drawn."


def standings_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    parts = facts.chunks.collect(lambda scan: analyses.standings_parts(scan("seats")))
    standings = analyses.standings_of(parts.lazy()).collect()
    hands = facts.hands
    variant = folder.meta().get("variant")
    no_draws = no_draws_note(facts.game, variant if isinstance(variant, dict) else {})
    paragraphs = [
        f"One row per strategy, best mean net first. {_hands_is(hands)};"
        " `pairs` the duplicate pairs (a line-up and deal index played in every seat"
        " rotation, so both sides held the same cards) and `deals` the deal indices. Each"
        " deal index is first reduced to the strategy's totals over its hands there (wins,"
        f"{'' if no_draws else ' draws,'} net) and their count; a figure is the total over"
        " deal indices by the"
        " count (the share of its hands won, the net per hand: every hand weighs the"
        " same), and the brackets are 95% intervals of that ratio over deal indices, the"
        " independent units: the line-ups of one deal index play the same cards (a rate's"
        " cut at 0 and 1, and Wilson's where every deal index gave the same rate).",
        "A win is a hand won; "
        + ("" if no_draws else "a draw counts only in the draw rate; ")
        + "a forfeit (the"
        " strategy raised, played illegally or ran out of time) is a loss"
        f" {forfeit_cost(facts.game, folder)}. `net` is points"
        " won minus points lost per hand, zero-sum across the table.",
    ]
    if not facts.two:
        paragraphs.append(
            f"With {facts.sizes_text()} a duplicate pair is the line-up and deal"
            " index under every distinct seating (a duplicate set), and `seat-hands`"
            " counts one per seat the strategy held in a hand: a strategy holding two"
            " seats of a line-up (A B A B) counts each hand twice. "
            + WHAT_WINS.get(facts.game, "A hand is won by every seat on the side that won it."))
    table = table_of(standings, [
        ("strategy", column("strategy")),
        (hands, column("hands")),
        ("pairs", column("pairs")),
        ("deals", column("deals")),
        ("win rate [95% CI]", interval("win_rate")),
        *([] if no_draws else [("draw rate [95% CI]", interval("draw_rate"))]),
        ("mean net [95% CI]", interval("net")),
        ("forfeits", column("forfeits")),
    ], name="standings")
    if no_draws:
        paragraphs.append(no_draws)
    figure = plots.plot_standings(standings, out / "standings.png",
                                  fair_win_rate(facts, standings))
    return [Section("Standings", paragraphs, [table], [figure])]


def forfeit_cost(game: str, folder: RunFolder) -> str:
    """What a forfeit costs in this run (``FORFEIT_COSTS``), with Solo Whist's amount at the
    run's ladder and stake: "(8 units at the default ladder)" was said of a run whose
    forfeits cost 15 (classic ladder, stake 2.5: a probe)."""
    cost = FORFEIT_COSTS.get(game, "for the seat that forfeited")
    if "{amount}" not in cost:
        return cost
    return cost.format(amount=forfeit_units(folder.meta().get("variant") or {}))


def _hands_is(hands: str) -> str:
    """What the standings' count column holds, by the heading it has: "`hands` is every
    hand it played" was said of a column headed `seat-hands` (a probe)."""
    if hands == "hands":
        return "`hands` is every hand it played"
    return "`seat-hands` is every hand it played, once per seat it held in it"


def fair_win_rate(facts: RunFacts, standings: pl.DataFrame) -> tuple[float, str] | None:
    """The win rate of an average seat, for the standings figure's reference line."""
    sizes = list(facts.sizes)
    hands = standings["hands"].cast(pl.Float64)
    average = float((standings["win_rate"] * hands).sum() / hands.sum())
    drawn = "draw_rate" in standings.columns and bool((standings["draw_rate"] > 0).any())
    if facts.game == "knockout_whist":
        if len(sizes) != 1:
            return None  # one fair share per table size: the Knock-out section draws them
        if drawn:
            # a forfeited game has no winner, the others' draw: with an entrant that
            # forfeited a game in ten every other entrant sat below 1/players, an even
            # field read as a weak one (a probe)
            return average, "average seat (a forfeited game: no winner)"
        return 1.0 / sizes[0], f"fair share 1/{sizes[0]}"
    if sizes == [2] or facts.sides:
        if not drawn:
            return 0.5, "fair share 1/2"
        # a drawn hand is won by neither seat: two equal entrants of a German Whist run
        # under count = "all" won 0.453 [0.438, 0.467] each, wholly left of a line at 1/2
        # (a probe). Every hand not drawn has one winner, so the average is (1 - draws) / 2.
        return average, "average seat (a draw: no winner)"
    return average, "average seat"
