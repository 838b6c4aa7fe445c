"""A plain rule player for Knock-out Whist, to calibrate the strength figures against.

The issue's Knock-out target (a search player winning 33% of games against three
``heuristic`` players) came from a prototype measured against a heuristic we do not
have. To tell how much the answer depends on which sensible opponents sit at the
table, ``search_strength.py knockout --field knockout_greedy:GreedyRules`` seats
three of these instead, and ``--search knockout_greedy:GreedyRules`` measures this
player against the project's ``heuristic``.

The rules are the ones a quick prototype starts from, with no card counting:
- name the longest suit trump (ties to the stronger, as ``heuristic`` does);
- lead the highest card (trump last among equal ranks);
- follow with the cheapest card that takes the trick so far (a side card before a
  trump), or else the lowest card (a side card before a trump);
- a dog plays its card on the first trick it takes so far, else knocks.

It lives in ``benchmarks/`` rather than ``strategies/`` because it is a measuring
stick, not a player anyone should pick; ``build_strategy`` loads it by its
``module:Class`` spec like any plug-in (run from this folder's scripts, which have
it on the import path).
"""

from __future__ import annotations

from random import Random
from typing import Any

from strategies.knockout_heuristic import KNOCK, NAME_TRUMP, longest_suit
from whist_sim.cards import cards_of
from whist_sim.strategy import Strategy
from whist_sim.tricks import winning_index


class GreedyRules(Strategy):
    """Takes a trick with the cheapest card that can, else plays its lowest card."""

    games = frozenset({"knockout_whist"})
    version = "1"

    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        if view.phase == "trump":
            return NAME_TRUMP + longest_suit(view.hand)
        trump = view.trump
        if view.is_dog:
            card = view.hand.bit_length() - 1
            return card if takes_trick(view.trick, card, trump) else KNOCK
        cards = [card for card in cards_of(legal) if card != KNOCK]
        if not view.trick:
            return max(cards, key=lambda card: (card % 13, card // 13 != trump))
        cheapest_first = sorted(cards, key=lambda card: (card // 13 == trump, card % 13))
        takers = [card for card in cheapest_first if takes_trick(view.trick, card, trump)]
        return (takers or cheapest_first)[0]


def takes_trick(trick: tuple[int, ...], card: int, trump: int) -> bool:
    """Whether ``card`` played now would be winning the trick (``trick`` so far, maybe empty)."""
    if not trick:
        return True
    cards = [*trick, card]
    return winning_index(cards, trump) == len(cards) - 1
