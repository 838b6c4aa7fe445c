"""The public state of a match before its next deal, for the ``deal`` message's ``match``.

A seat's view holds one deal; what came before in the match is often part of what a
player knows and plays to: German Whist's best-of-N hands won, a Solo Whist session's
balances and hand number, Minnesota Whist's game score (also in its view, as
``score``). Knock-out Whist plays its whole game as one deal, so it has none (who is
still in is in its view).

Everything here is public at the table: results of finished deals, never a card.
"""

from __future__ import annotations

from typing import Any

from whist_sim.games.base import MatchState
from whist_sim.games.german_whist import GermanWhistMatch
from whist_sim.games.minnesota_whist import MinnesotaWhistGame
from whist_sim.games.solo_whist import SoloWhistSession


def match_summary(match: MatchState) -> dict[str, Any] | None:
    """The match state a ``deal`` message carries, read before the deal is played; None
    for a game whose match is a single deal."""
    if isinstance(match, GermanWhistMatch):
        return {
            "hand": match.hands_played,
            "best_of": match.best_of,
            "hands_won": list(match.hands_won),
            "points": list(match.points),
        }
    if isinstance(match, SoloWhistSession):
        return {
            "hand": match.hands_played,
            "session_hands": match.variant.session_hands,
            "target": match.variant.target,
            "balances": list(match.balance),
            "contracts_made": list(match.contracts_made),
        }
    if isinstance(match, MinnesotaWhistGame):
        return {
            "hand": match.deals,
            "target": match.target,
            "score": list(match.score),
            "deals_won": list(match.deals_won),
        }
    return None
