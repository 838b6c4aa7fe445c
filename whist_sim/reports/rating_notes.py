"""What a ratings section says of its intervals, and of a gauntlet's baselines.

Both sections of ratings (Bradley-Terry for two seats, Plackett-Luce for more) show one
interval per entrant, and a reader choosing between two entrants compared their
intervals; and in a gauntlet they ordered baselines that never met, through the model
alone (a ranking probe). The words are here once, for both sections and the verdict.
"""

from __future__ import annotations

from typing import Any

INTERVALS = (
    "Each interval is one entrant's rating against the average of all of them, the others'"
    " uncertainty included: two intervals that overlap do not say two entrants are level,"
    " nor do two apart say by how much they differ. Whether one entrant is ahead of another"
    " is the verdict's comparison of the two."
)

KNOCKOUT_INTERVALS = INTERVALS.replace(
    " Whether one entrant is ahead of another is the verdict's comparison of the two.",
    " The verdict tests each entrant against the fair share, not one entrant against"
    " another; Head to head gives each pair's share of the games they met.")
"""``INTERVALS`` for Knock-out Whist, whose verdict compares no two entrants (a probe was
sent to a comparison the report did not have)."""

GAUNTLET = (
    "A gauntlet: the baselines ({baselines}) played the candidates ({candidates}) only,"
    " never one another, so their ratings relative to each other come from the model"
    " alone (one strength per strategy, each rated against the candidates), not from play"
    " between them; the verdict leaves their order untested."
)


def gauntlet_candidates(meta: dict[str, Any]) -> list[str]:
    """A gauntlet's candidates as run.json's config names them; empty for a round robin."""
    config = meta.get("config") if isinstance(meta.get("config"), dict) else {}
    tournament = config.get("tournament") if isinstance(config.get("tournament"), dict) else {}
    if tournament.get("format") != "gauntlet":
        return []
    return [str(c) for c in tournament.get("candidates") or []]


def rating_notes(meta: dict[str, Any], entrants: list[str]) -> list[str]:
    """The paragraphs a ratings section adds: what its intervals are, and for a gauntlet
    with two baselines or more, that their order is the model's."""
    intervals = KNOCKOUT_INTERVALS if meta.get("game") == "knockout_whist" else INTERVALS
    candidates = gauntlet_candidates(meta)
    baselines = [name for name in entrants if name not in candidates]
    if not candidates or len(baselines) < 2:
        return [intervals]
    return [intervals, GAUNTLET.format(baselines=", ".join(baselines),
                                       candidates=", ".join(candidates))]
