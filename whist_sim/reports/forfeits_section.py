"""The report section "Forfeits": hands lost to an error, an illegal move or the clock."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.raised import one_line
from whist_sim.reports import analyses
from whist_sim.reports.document import Section, column, fmt, table_of
from whist_sim.reports.run_facts import RunFacts
from whist_sim.store import RunFolder
from whist_sim.tournament.bench import benched_after


def first_line(error: str | None) -> str | None:
    """An error's first line: what failed. A bot's error goes on with the last lines of its
    stderr (a Python bot's whole traceback), which in a table cell buried the reason that
    a strategy failing in process gives in one line. Control characters a strategy put in
    its message are shown as escapes (``raised.one_line``): printed on the console at the
    end of a run, an escape sequence in an exception's text drove the terminal."""
    return None if error is None else one_line(error.split("\n", 1)[0])


def forfeits_section(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    counts = facts.chunks.collect(
        lambda scan: analyses.forfeit_counts(scan("seats"), scan("deals")))
    failed = analyses.forfeits_of(counts.lazy()).collect()
    none = " No strategy forfeited." if failed["forfeits"].sum() == 0 else ""
    where = WHERE_FORFEITS_COUNT.get(facts.game, " everywhere else in this report")
    benched = failed.filter(pl.col("benched") > 0)
    columns = [
        ("strategy", column("strategy")),
        (facts.hands, column("hands")),
        ("forfeits", column("forfeits")),
        ("rate", column("forfeit_rate", 4)),
        ("first error", lambda r: fmt(first_line(r["first_error"]))),
        ("first hand (deal_key)", lambda r: fmt(r["first_deal_key"])),
    ]
    if benched.height:
        columns.insert(3, ("unplayed (benched)", column("benched")))
    doubled = bool((failed["sat_in"] != failed["hands"]).any())
    if doubled:  # a strategy at two seats of a hand: its forfeits read half of them
        at = [title for title, _ in columns].index("rate") + 1
        columns[at:at] = [("hands sat in", column("sat_in")),
                          ("hands forfeited", column("hands_forfeited")),
                          ("rate (hands)", lambda r: fmt(r["hands_forfeited"] / r["sat_in"]
                                                         if r["sat_in"] else None, 4))]
    return [Section(
        "Forfeits",
        ["Hands a strategy forfeited because it raised an error, made an illegal move"
         " or exceeded its time budget, with the first error in play order (its first"
         " line; a bot's last lines of stderr follow it in the deal's `error` column)."
         f" Forfeits count as losses{where}." + none
         + (DOUBLED_SEATS.format(other=OTHER_SEAT.get(facts.game, OTHER_SEAT[None]))
            if doubled else "")
         + _benched_text(benched, folder.meta().get("benched") or {})],
        [table_of(failed, columns, name="forfeits")],
    )]


_STOPPED = (" Head to head and the finishing-order ratings count a hand a forfeit stopped"
            " against the seat that forfeited alone: they do not compare the other seats with"
            " one another, nor count the forfeiter's own other seat (A B A B). The seat"
            " position and points per hand sections take every seat's result and net as the"
            " game recorded them, a forfeit paying each other seat {paid}.")
WHERE_FORFEITS_COUNT = {
    "solo_whist": " of the seat that forfeited in the standings, head to head, the ratings and"
                  " the verdict; the Solo Whist sections leave forfeited hands out (but the"
                  " sessions' balances, which keep the penalties)."
                  + _STOPPED.format(paid="the Abundance Declared amount")[:-1],
    "knockout_whist": " of the seat that forfeited in the standings, head to head, the ratings"
                      " and the verdict; the Knock-out Whist sections leave forfeited games"
                      " out for every seat."
                      + _STOPPED.format(paid="1 point, recorded as a draw")[:-1],
    "minnesota_whist": " of the forfeiter's partnership, partner included, everywhere in this"
                       " report but the Minnesota Whist hand columns, which leave forfeited"
                       " hands out (its games keep them)",
}
"""Where a forfeit counts as a loss, game by game: "everywhere else in this report" stood
beside Knock-out, Solo and Minnesota sections that leave forfeited hands out, and beside
head to head and ratings that count a stopped hand against its forfeiter alone (probes).
The texts are joined into one sentence that ends with a full stop."""

OTHER_SEAT = {
    "minnesota_whist": "its other seat, its partner, loses it with their side",
    None: "the game scores its other seat as it scores the other players (paid, or drawn),"
          " which the report counts as neither a win nor a draw",
}
"""What becomes of a forfeiter's other seat: a Minnesota partner loses with the side;
elsewhere it is paid or drawn as the others are (the Minnesota report read "paid, or
drawn" for a partner who lost: a probe)."""

DOUBLED_SEATS = (
    " Where a strategy holds two seats of a hand (line-up A B A B), the first of its seats"
    " to act forfeits the hand and {other}; so its forfeits are at most half its"
    " seat-hands: `hands sat in`, `hands forfeited` and `rate (hands)` count the hands (a"
    " strategy that failed every hand it sat in reads 0.5000 by seat-hands and 1.0000 by"
    " hands).")
"""Why the Forfeits table counts hands too where a strategy holds two seats of one (a
newcomer's probe read a plug-in that raised at every decision as forfeiting half)."""


def _benched_text(benched: pl.DataFrame, record: dict) -> str:
    """Who sat out, and after how many forfeits: a benched entrant's hands read as
    failures, each with the first error beside them, and the report never said that most
    were never played (a probe)."""
    if not benched.height:
        return ""
    who = [f"{row['strategy']} was {benched_after(record.get(row['strategy']))}"
           f" (`tournament.bench_after`): its {row['benched']:,} later hands were forfeited"
           " unplayed" for row in benched.iter_rows(named=True)]
    return " " + "; ".join(who) + " (`unplayed (benched)`)."
