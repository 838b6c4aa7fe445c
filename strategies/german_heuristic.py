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

Everything comes from the seat's view; the rng is not used, so the player is
deterministic.
"""

from __future__ import annotations

from random import Random
from typing import Any

from whist_sim.cards import FULL_DECK, SUIT_MASKS
from whist_sim.strategy import Strategy

# What a card is worth (in stage-2 tricks) by how many higher cards of its suit are
# still out. A side-suit top card can still be ruffed, so it is worth a bit less than
# one trick; a trump keeps some worth however low, because it can ruff.
SIDE_WORTH = (0.85, 0.5, 0.25, 0.12, 0.06, 0.03) + (0.02,) * 7
TRUMP_WORTH = (1.0, 0.85, 0.72, 0.62, 0.55, 0.5, 0.47) + (0.45,) * 6
NO_TRUMP_WORTH = (1.0, 0.5, 0.25, 0.12, 0.06, 0.03) + (0.02,) * 7

# How much a trick won in stage 1 is worth, in stage-2 tricks, under each ``count``.
STAGE1_TRICK_WORTH = {"stage2": 0.0, "all": 1.0, "weighted": 0.5}

# Cards of the same suit above each card: ``ABOVE[c] & mask`` are the cards that beat c.
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))


def played_cards(view: Any) -> int:
    """Every card played so far (tricks and the current trick): out of the game for good.

    Computed here rather than with ``view.played`` only to walk the tricks once per decision.
    """
    mask = 0
    for record in view.tricks:
        for card in record.cards:
            mask |= 1 << card
    for card in view.trick:
        mask |= 1 << card
    return mask


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def iter_cards(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_worth(card: int, out: int, trump: int) -> float:
    """Estimated stage-2 tricks ``card`` wins, given ``out``: cards that could still beat it.

    A tiny rank term breaks ties so the lower of two equal cards is the one given up.
    """
    higher = (out & ABOVE[card]).bit_count()
    if trump < 0:
        table = NO_TRUMP_WORTH
    else:
        table = TRUMP_WORTH if card // 13 == trump else SIDE_WORTH
    return table[higher] + (card % 13) * 1e-4


def mean_unknown_worth(unseen: int, out: int, trump: int) -> float:
    """Average worth of an unseen card: what drawing the face-down card is expected to bring."""
    count = unseen.bit_count()
    if not count:
        return 0.0
    total = 0.0
    for card in iter_cards(unseen):
        total += card_worth(card, out, trump)
    return total / count


class GermanHeuristic(Strategy):
    """Counts cards, contests face-up cards worth their price, plays stage 2 by rules and search.

    Parameters (all keyword):
    - ``contest_margin``: how much more (in stage-2 tricks) winning the face-up card must
      be worth than losing it before the player pays for it; raise it to duck more.
    - ``denial``: weight 0..1 of keeping a good face-up card away from the opponent
      (0: only what we gain counts; 1: the opponent's gain counts as much as ours).
    - ``trump_worth``: worth of the lowest trump (its ruffing power), 0..1.
    - ``endgame_cards``: in stage 2, solve the rest exactly once each hand holds at most
      this many cards (0..5; 0 turns the search off).
    """

    games = frozenset({"german_whist"})
    version = "1"

    def __init__(
        self,
        *,
        contest_margin: float = 0.0,
        denial: float = 1.0,
        trump_worth: float = 0.45,
        endgame_cards: int = 4,
    ) -> None:
        _check_number("contest_margin", contest_margin, -2.0, 2.0)
        _check_number("denial", denial, 0.0, 1.0)
        _check_number("trump_worth", trump_worth, 0.0, 1.0)
        if not isinstance(endgame_cards, int) or isinstance(endgame_cards, bool) or not (
            0 <= endgame_cards <= 5
        ):
            raise ValueError(
                f"endgame_cards = {endgame_cards!r} is not allowed; allowed values: whole"
                " numbers 0..5 (0 turns the endgame search off)"
            )
        self.contest_margin = float(contest_margin)
        self.denial = float(denial)
        self.endgame_cards = endgame_cards
        low = float(trump_worth)
        # Keep the trump ladder's top fixed and stretch its bottom to the chosen worth.
        self.trump_table = tuple(
            1.0 - (1.0 - w) * (1.0 - low) / (1.0 - TRUMP_WORTH[-1]) if low < 1.0 else 1.0
            for w in TRUMP_WORTH
        )

    # -- the decision --------------------------------------------------------------
    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        if not legal & (legal - 1):  # a single legal action: nothing to decide
            return legal.bit_length() - 1
        played = played_cards(view)
        if view.phase == "take":
            return self._take(view, played)
        if view.stage == 1:
            return self._stage1(view, played)
        return self._stage2(view, played)

    def _worth(self, card: int, out: int, trump: int) -> float:
        if trump >= 0 and card // 13 == trump:
            return self.trump_table[(out & ABOVE[card]).bit_count()] + (card % 13) * 1e-4
        return card_worth(card, out, trump)

    # -- stage 1 -------------------------------------------------------------------
    def _take(self, view: Any, played: int) -> int:
        """Open stock: take the face-up card worth most to our hand."""
        out = FULL_DECK & ~view.hand & ~played
        trump = view.trump
        return max(iter_cards(view.legal), key=lambda c: self._worth(c, out, trump))

    def _stake(self, view: Any, played: int, out: int) -> float:
        """How much winning this trick is worth over losing it, in stage-2 tricks.

        Winning brings the best face-up card (and the opponent an unknown card); losing
        brings an unknown card (and the opponent the face-up card). Under ``count`` all or
        weighted the trick itself also counts, more so in a race to few tricks.
        """
        trump = view.trump
        prize = max(self._worth(c, out, trump) for c in view.faceup)
        unknown = mean_unknown_worth(_unseen(view, played), out, trump)
        stake = (1.0 + self.denial) * (prize - unknown)
        variant = view.variant
        trick = STAGE1_TRICK_WORTH[variant.count]
        if variant.race_to is not None and variant.count != "stage2":
            trick *= 2.0  # a race can be over before stage 2: tricks now count double
        return stake + 2.0 * trick - self.contest_margin

    def _stage1(self, view: Any, played: int) -> int:
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
        if known & trump_mask:
            no_trump = 0.0
        else:
            no_trump = miss ** (unseen & trump_mask).bit_count()
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
        winners = [c for c in iter_cards(legal) if _beats(c, led, trump)]
        if winners:
            return min(winners, key=lambda c: self._worth(c, opp, trump))
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
            if theirs and top > highest(theirs) or not theirs and not opp_trumps:
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
        best, best_tricks = -1, -1
        for card in iter_cards(view.legal):
            if _beats(card, led, trump):
                tricks = 1 + _lead_value(hand & ~(1 << card), opp, trump, memo)
            else:
                tricks = remaining - _lead_value(opp, hand & ~(1 << card), trump, memo)
            if tricks > best_tricks:
                best, best_tricks = card, tricks
        return best
    n = hand.bit_count()
    best, best_tricks = -1, -1
    for card in iter_cards(hand):
        tricks = _after_lead(card, hand & ~(1 << card), opp, trump, n, memo)
        if tricks > best_tricks:
            best, best_tricks = card, tricks
    return best


def _after_lead(card: int, rest: int, opp: int, trump: int, n: int,
                memo: dict[tuple[int, int], int]) -> int:
    """Tricks the leader wins out of ``n`` after leading ``card``, the follower defending best."""
    follow = opp & SUIT_MASKS[card // 13] or opp
    worst = n
    for reply in iter_cards(follow):
        if _beats(reply, card, trump):
            tricks = n - 1 - _lead_value(opp & ~(1 << reply), rest, trump, memo)
        else:
            tricks = 1 + _lead_value(rest, opp & ~(1 << reply), trump, memo)
        if tricks < worst:
            worst = tricks
    return worst


def _lead_value(leader: int, other: int, trump: int, memo: dict[tuple[int, int], int]) -> int:
    """Most tricks the player to lead with ``leader`` wins against ``other``, both best."""
    if not leader:
        return 0
    key = (leader, other)
    if key in memo:
        return memo[key]
    n = leader.bit_count()
    best = 0
    for card in iter_cards(leader):
        tricks = _after_lead(card, leader & ~(1 << card), other, trump, n, memo)
        if tricks > best:
            best = tricks
            if best == n:
                break
    memo[key] = best
    return best


def _check_number(name: str, value: Any, low: float, high: float) -> None:
    """Reject a parameter outside its range with a message naming it and the allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(
            f"{name} = {value!r} is not allowed; allowed values: numbers from {low:g} to {high:g}"
        )
