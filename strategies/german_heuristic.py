"""``heuristic``: a card-counting German Whist player built from simple, explainable rules.

Stage 1 (the stock lasts) is about collecting a good hand for stage 2, so each play
is judged by what it does to the two hands: the card we give up, and whether we
take the face-up card (and the opponent an unknown card) or the reverse. A card's
worth is an estimate, in stage-2 tricks, of what it will win: it depends on how
many higher cards of its suit are still out (not ours, not played) and on whether
it is a trump. The face-up card is contested only when winning it is worth more
than the card winning costs; otherwise the cheapest card is thrown under.

Stage 2 is a game of perfect information for a card counter (the opponent holds
exactly the 13 cards neither in our hand nor played), so the player cashes safe
winners, draws trumps only when it controls them, leads its long suits otherwise
and keeps its high trumps for the end; the last few tricks are solved exactly.

Variants: under ``count`` all or weighted a stage-1 trick is worth something in
itself, much more in a race that may end before stage 2; with an open stock the
winner takes the face-up card worth most, and ``trumps = "none"`` uses a worth table
without ruffs. The values below were tuned on benchmarks/german_heuristic_strength.py
(about 95.7% of hands won against ``random`` under the default rules).

Everything comes from the seat's view; the rng is not used, so the player is
deterministic.
"""

from __future__ import annotations

from random import Random
from typing import Any

from strategies.heuristic_memo import TrickMemo
from strategies.lazy_module import LazyModule, playing
from whist_sim.cards import FULL_DECK, SUIT_MASKS, highest, iter_cards, lowest
from whist_sim.strategy import Strategy

# What a card is worth (in stage-2 tricks) by how many higher cards of its suit are
# still out. A side-suit top card can still be ruffed, so it is worth a bit less than
# one trick. Every trump is worth more than any side card (``trump_worth``): whoever
# holds more trumps in stage 2 usually wins it, and even the two of trumps ruffs.
SIDE_WORTH = (0.85, 0.5, 0.25, 0.12, 0.06, 0.03) + (0.02,) * 7
NO_TRUMP_WORTH = (1.0, 0.5, 0.25, 0.12, 0.06, 0.03) + (0.02,) * 7
RANK_TIE_BREAK = 1e-4
"""Added per rank, so of two otherwise equal cards the lower is the one given up."""

# How much a trick won in stage 1 is worth, in stage-2 tricks, under each ``count``.
# Less than a whole trick because card worths run high (a trump is 1.5): these are
# the values that won most often against ``random`` (benchmarks/german_heuristic_strength.py).
STAGE1_TRICK_WORTH = {"stage2": 0.0, "all": 0.6, "weighted": 0.3}
RACE_TRICK_WORTH = 2.4
"""A stage-1 trick when the race could end before stage 2."""

# Cards of the same suit above each card: ``ABOVE[c] & mask`` are the cards that beat c.
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))


def _fold_played(played: int, record: Any) -> int:
    """``played`` with the cards of the completed trick ``record`` added."""
    for card in record.cards:
        played |= 1 << card
    return played


def played_cards(view: Any) -> int:
    """Every card played so far (tricks and the current trick): out of the game for good.

    The same as ``view.played``, computed once per decision here because it is needed
    several times.
    """
    mask = 0
    for record in view.tricks:
        for card in record.cards:
            mask |= 1 << card
    for card in view.trick:
        mask |= 1 << card
    return mask


class GermanHeuristic(Strategy):
    """Counts cards, contests face-up cards worth their price, plays stage 2 by rules and search.

    Parameters (all keyword; see ``__init__`` for the allowed values):
    - ``trump_worth``: what any trump is worth, in stage-2 tricks (a side ace is 0.85).
    - ``contest_margin``: how much more (in stage-2 tricks) winning the face-up card must
      be worth than losing it before the player pays for it; raise it to duck more.
    - ``denial``: weight of keeping a good face-up card away from the opponent
      (0: only what we gain counts; 1: the opponent's gain counts as much as ours).
    - ``trick_worth``: what a stage-1 trick is worth in stage-2 tricks; None (default)
      derives it from the variant (``STAGE1_TRICK_WORTH``, ``RACE_TRICK_WORTH``).
    - ``endgame_cards``: in stage 2, solve the rest exactly once each hand holds at most
      this many cards (0 turns the search off).
    - ``compiled``: True (default) plays the cards (the classic stage-1 scoring, the
      stage-2 rules and the endgame search) compiled with numba
      (strategies/german_heuristic_compiled.py), False all in the Python below; the
      decisions are the same.
    """

    games = frozenset({"german_whist"})
    version = "1"

    def __init__(
        self,
        *,
        trump_worth: float = 1.5,
        contest_margin: float = 0.0,
        denial: float = 1.0,
        trick_worth: float | None = None,
        endgame_cards: int = 4,
        compiled: bool = True,
    ) -> None:
        _check_number("trump_worth", trump_worth, 0.0, 5.0)
        _check_number("contest_margin", contest_margin, -5.0, 5.0)
        _check_number("denial", denial, 0.0, 1.0)
        if trick_worth is not None:
            _check_number("trick_worth", trick_worth, 0.0, 5.0, "or None (from count)")
        if isinstance(endgame_cards, bool) or endgame_cards not in range(6):
            raise ValueError(
                f"endgame_cards = {endgame_cards!r} is not allowed; allowed values: whole"
                " numbers 0..5 (0 turns the endgame search off)"
            )
        self.trump_worth = float(trump_worth)
        self.contest_margin = float(contest_margin)
        self.denial = float(denial)
        self.trick_worth = None if trick_worth is None else float(trick_worth)
        self.endgame_cards = endgame_cards
        if compiled is not True and compiled is not False:  # 1 == True, yet not a bool
            raise ValueError(f"compiled = {compiled!r} is not allowed; allowed values: true, false")
        self.compiled = compiled
        if compiled:  # built outside any decision: numba compiles here, not in one
            _compiled.load()
        self._tricks = _TRICKS  # one memo for every player: the seats see the same tricks

    # -- the decision --------------------------------------------------------------
    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        if not legal & (legal - 1):  # a single legal action: nothing to decide
            return legal.bit_length() - 1
        if self.compiled:
            fast = _compiled.module or _compiled.load()
            card = fast.decide(self, view, self._tricks(view.tricks))
            if card >= 0:
                return card
        played = self._tricks(view.tricks)
        for card in view.trick:
            played |= 1 << card
        if view.phase == "take":
            return self._take(view, played)
        if view.stage == 1:
            return self._stage1(view, played)
        return self._stage2(view, played)

    def _worth(self, card: int, out: int, trump: int) -> float:
        """Estimated stage-2 tricks ``card`` wins, ``out`` being the cards that may beat it."""
        suit = card // 13
        if suit == trump:
            return self.trump_worth + (card % 13) * RANK_TIE_BREAK
        table = SIDE_WORTH if trump >= 0 else NO_TRUMP_WORTH
        return table[(out & ABOVE[card]).bit_count()] + (card % 13) * RANK_TIE_BREAK

    def _mean_unseen_worth(self, unseen: int, out: int, trump: int) -> float:
        """Average worth of an unseen card: what drawing the face-down card should bring.

        Walks each suit's outstanding cards from the top, so the i-th of them has i
        higher cards out, without calling ``_worth`` per card (this runs every stage-1 turn).
        """
        count = unseen.bit_count()
        if not count:
            return 0.0
        table = SIDE_WORTH if trump >= 0 else NO_TRUMP_WORTH
        total = 0.0
        for suit in range(4):
            mask = SUIT_MASKS[suit]
            hidden = unseen & mask
            if not hidden:
                continue
            if suit == trump:
                total += self.trump_worth * hidden.bit_count()
                continue
            others = out & mask
            higher = 0
            while others:
                card = others.bit_length() - 1
                if hidden >> card & 1:
                    total += table[higher]
                others ^= 1 << card
                higher += 1
        return total / count

    # -- stage 1 -------------------------------------------------------------------
    def _take(self, view: Any, played: int) -> int:
        """Open stock: take the face-up card worth most to our hand."""
        out = FULL_DECK & ~view.hand & ~played
        trump = view.trump
        return max(iter_cards(view.legal), key=lambda c: self._worth(c, out, trump))

    def _stake(self, view: Any, played: int, out: int) -> float:
        """How much winning this trick is worth over losing it, in stage-2 tricks.

        Winning brings the best face-up card (and the opponent an unknown card); losing
        brings an unknown card (and the opponent the face-up card): the difference counts
        once for us and, weighted by ``denial``, once for the opponent. Under ``count``
        all or weighted the trick itself also counts, for us or for the opponent.
        """
        trump = view.trump
        worths = [self._worth(c, out, trump) for c in view.faceup]
        prize = max(worths, default=0.0)
        if view.facedown_left:
            unknown = self._mean_unseen_worth(_unseen(view, played), out, trump)
        else:  # open stock run dry: the loser gets the earliest face-up card the winner leaves
            worths.remove(prize)
            unknown = worths[0] if worths else 0.0
        swing = (1.0 + self.denial) * (prize - unknown)
        return swing + 2.0 * self._trick(view) - self.contest_margin

    def _trick(self, view: Any) -> float:
        """What one stage-1 trick is worth in stage-2 tricks under the variant.

        Under a race that either player can still finish in stage 1 (stage-1 tricks count
        for ``all`` and ``weighted``), the tricks are what matters, not the cards.
        """
        if self.trick_worth is not None:
            return self.trick_worth
        variant = view.variant
        if variant.race_to is not None and variant.count != "stage2":
            left = 13 - len(view.tricks)
            if variant.race_to - max(view.stage1_tricks) <= left:
                return RACE_TRICK_WORTH
        return STAGE1_TRICK_WORTH[variant.count]

    def _stage1(self, view: Any, played: int) -> int:
        """Play the card with the best expected result: its chance of winning the trick
        times the stake, less what the card itself was worth.

        With a stake below zero (a worthless face-up card) that throws the cheapest card
        least likely to win; with a high stake, the cheapest card likely to win.
        """
        hand = view.hand
        out = FULL_DECK & ~hand & ~played
        trump = view.trump
        stake = self._stake(view, played, out)
        if view.trick:
            led = view.trick[0]
            chances = {c: 1.0 if _beats(c, led, trump) else 0.0 for c in iter_cards(view.legal)}
        else:
            chances = self._lead_chances(view, played)
        best, best_value = -1, float("-inf")
        for card, chance in chances.items():
            value = chance * stake - self._worth(card, out, trump)
            if value > best_value:
                best, best_value = card, value
        return best

    def _lead_chances(self, view: Any, played: int) -> dict[int, float]:
        """Chance each lead wins the trick, if the opponent overtakes whenever it can.

        The opponent holds the face-up cards it took (known) and the rest of its 13 cards
        among the unseen ones, each unseen card being in its hand with the same chance.
        """
        trump = view.trump
        known = view.taken_faceup[1 - view.seat] & ~played
        unseen = _unseen(view, played)
        hidden = 13 - known.bit_count()
        share = hidden / unseen.bit_count() if unseen else 0.0
        miss = 1.0 - share
        trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
        no_trump = 0.0 if known & trump_mask else miss ** (unseen & trump_mask).bit_count()
        chances: dict[int, float] = {}
        for card in iter_cards(view.legal):
            if known & ABOVE[card]:
                chances[card] = 0.0
                continue
            chance = miss ** (unseen & ABOVE[card]).bit_count()
            suit_mask = SUIT_MASKS[card // 13]
            if trump >= 0 and card // 13 != trump and not known & suit_mask:
                void = miss ** (unseen & suit_mask).bit_count()
                chance *= 1.0 - void * (1.0 - no_trump)
            chances[card] = chance
        return chances

    # -- stage 2 -------------------------------------------------------------------
    def _stage2(self, view: Any, played: int) -> int:
        hand = view.hand
        opp = FULL_DECK & ~hand & ~played
        trump = view.trump
        if hand.bit_count() <= self.endgame_cards:
            return _solve_choice(view, hand, opp, trump)
        if view.trick:
            return self._follow2(hand, view.legal, opp, view.trick[0], trump)
        return self._lead2(hand, opp, trump)

    def _follow2(self, hand: int, legal: int, opp: int, led: int, trump: int) -> int:
        """Win as cheaply as possible; ruff with the lowest trump; else throw the least worth."""
        best, best_worth = -1, 0.0
        for card in iter_cards(legal):  # the first winner worth least (as ``min`` picks)
            if _beats(card, led, trump):
                worth = self._worth(card, opp, trump)
                if best < 0 or worth < best_worth:
                    best, best_worth = card, worth
        if best >= 0:
            return best
        return min(iter_cards(legal), key=lambda c: self._discard_key(c, hand, opp, trump))

    def _discard_key(self, card: int, hand: int, opp: int, trump: int) -> tuple[float, int]:
        """Throw the card worth least; between equals, from the shorter suit (a void ruffs)."""
        return (self._worth(card, opp, trump), (hand & SUIT_MASKS[card // 13]).bit_count())

    def _lead2(self, hand: int, opp: int, trump: int) -> int:
        """Cash safe winners, draw trumps when in control, else lead from a long suit.

        High trumps are kept for the end while other winners remain: they win their
        tricks at any time, and meanwhile they stop the opponent's long suits.
        """
        trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
        my_trumps, opp_trumps = hand & trump_mask, opp & trump_mask
        best, best_key = -1, None
        for suit in range(4):
            if suit == trump:
                continue
            mine = hand & SUIT_MASKS[suit]
            if not mine:
                continue
            theirs = opp & SUIT_MASKS[suit]
            top = highest(mine)
            if (theirs and top > highest(theirs)) or (not theirs and not opp_trumps):
                key = (theirs.bit_count(), mine.bit_count())
                if best_key is None or key > best_key:
                    best, best_key = top, key
        if best >= 0:
            return best
        if my_trumps:
            top = highest(my_trumps)
            if opp_trumps and top > highest(opp_trumps):
                if my_trumps.bit_count() >= opp_trumps.bit_count():
                    return top
            elif not opp_trumps and hand == my_trumps:
                return top
        side = hand & ~trump_mask
        if side:
            suit = max(
                (s for s in range(4) if side & SUIT_MASKS[s]),
                key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), -highest(side & SUIT_MASKS[s])),
            )
            return lowest(side & SUIT_MASKS[suit])
        if opp_trumps and highest(my_trumps) > highest(opp_trumps):
            return highest(my_trumps)
        return lowest(my_trumps)


_compiled = LazyModule("strategies.german_heuristic_compiled",
                       warm_up=playing("german_whist", GermanHeuristic, deals=3))
"""The numba path: imported, and its kernels compiled by playing 3 deals, when the
first heuristic that plays compiled is built (``strategies.lazy_module``)."""


def _unseen(view: Any, played: int) -> int:
    """Cards never seen by this seat: the opponent's hidden cards and the face-down stock."""
    seen = view.hand | played | view.taken_faceup[1 - view.seat]
    for card in view.faceup:
        seen |= 1 << card
    return FULL_DECK & ~seen


def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` played second beat ``best``, the card led?"""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _solve_choice(view: Any, hand: int, opp: int, trump: int) -> int:
    """The play that wins most of the remaining tricks against best defence (exact search)."""
    memo: dict[tuple[int, int], int] = {}
    if view.trick:
        led = view.trick[0]
        remaining = hand.bit_count() - 1
        best, best_tricks = -1, -99
        for card in _distinct(view.legal, hand | opp | 1 << led):
            if _beats(card, led, trump):
                tricks = 1 + _lead_value(hand & ~(1 << card), opp, trump, memo)
            else:
                tricks = remaining - _lead_value(opp, hand & ~(1 << card), trump, memo)
            if tricks > best_tricks:
                best, best_tricks = card, tricks
        return best
    n = hand.bit_count()
    best, best_tricks = -1, -99
    for card in _distinct(hand, hand | opp):
        tricks = _after_lead(card, hand & ~(1 << card), opp, trump, n, best_tricks, memo)
        if tricks > best_tricks:
            best, best_tricks = card, tricks
    return best


def _distinct(cards: int, remaining: int) -> list[int]:
    """One card of each run of ``cards`` that no remaining card separates: they play alike.

    Holding 8 and 6 of a suit once the 7 is gone, playing either comes to the same, so
    the search tries only one of them.
    """
    out = []
    for card in iter_cards(cards):
        below = remaining & SUIT_MASKS[card // 13] & ((1 << card) - 1)
        if not below or not cards >> (below.bit_length() - 1) & 1:
            out.append(card)
    return out


def _after_lead(card: int, rest: int, opp: int, trump: int, n: int, enough: int,
                memo: dict[tuple[int, int], int]) -> int:
    """Tricks the leader wins out of ``n`` after leading ``card``, the follower defending best.

    Stops as soon as the follower holds the leader to ``enough`` (a better lead is known):
    the result is then only an upper bound, which is all the caller needs.
    """
    follow = opp & SUIT_MASKS[card // 13] or opp
    worst = n
    for reply in _distinct(follow, rest | opp | 1 << card):  # the led card splits runs
        if _beats(reply, card, trump):
            tricks = n - 1 - _lead_value(opp & ~(1 << reply), rest, trump, memo)
        else:
            tricks = 1 + _lead_value(rest, opp & ~(1 << reply), trump, memo)
        if tricks < worst:
            worst = tricks
            if worst <= enough:
                break
    return worst


def _lead_value(leader: int, other: int, trump: int, memo: dict[tuple[int, int], int]) -> int:
    """Most tricks the player to lead with ``leader`` wins against ``other``, both best."""
    if not leader:
        return 0
    key = (leader, other)
    if key in memo:
        return memo[key]
    n = leader.bit_count()
    best = -1
    for card in _distinct(leader, leader | other):
        tricks = _after_lead(card, leader & ~(1 << card), other, trump, n, best, memo)
        if tricks > best:
            best = tricks
            if best == n:
                break
    memo[key] = best
    return best


def _check_number(name: str, value: Any, low: float, high: float, extra: str = "") -> None:
    """Reject a parameter outside its range with a message naming it and the allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(
            f"{name} = {value!r} is not allowed; allowed values: numbers from {low:g}"
            f" to {high:g}{' ' + extra if extra else ''}"
        )


_TRICKS = TrickMemo(_fold_played, 0)
"""The completed tricks' summary, shared by this heuristic's players (``TrickMemo``)."""
