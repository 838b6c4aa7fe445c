"""``heuristic`` for Solo Whist: a hand-evaluating bidder and a card-counting card player.

The bidder follows the rules' advice (docs/rules/solo-whist.md and the usual published
guides): it estimates the tricks its hand takes with each suit as trumps
(``estimate_tricks``), the tricks it takes whatever the split (``sure_tricks``) and
the chance that a misère costs it a trick (``misere_risk``); the first and the last
are fitted to deals this strategy played. It bids the highest contract whose
threshold the hand meets: Abundance Declared (all thirteen sure) and Spread Misère
only with overwhelming hands, Abundance in its long strong suit (Royal Abundance when
that is the upcard's suit), Misère with short suits and low cards, Solo with more
than five expected tricks in the upcard trump, Cop with support, Prop with three or
four. Every threshold is a parameter, and one ``aggression`` offset moves them all,
so a config can compare bidding policies.

The card player knows which side it is on and plays each side differently:

- declarer side: draw trumps while the defenders may hold some, cash masters, run long
  suits, and when following win as cheaply as is safe, never overtaking a partner who
  is winning anyway;
- defenders: cash masters the declarer must follow, lead trumps against Abundance,
  lead short suits (and a partner's void suits) for ruffs, and let a partner's winning
  card stand;
- misère declarer: lead the card surest to lose, follow with the highest card that
  still loses, and discard the most dangerous high card when void;
- misère defenders: lead low in suits the declarer still holds (never his voids),
  play under his card when he has played and low when he is still to play, so that he
  is left winning the trick.

Everything comes from the view: the cards played, the suits each seat has shown out
of (computed from the tricks), the exposed Spread Misère hand and the upcard while the
dealer holds it. Unknown cards are taken to be spread evenly over the seats that may
still hold them (``_Seen``), which is enough to judge whether a card will hold up.
The rng is not used, so the player is deterministic.
"""

from __future__ import annotations

import math
from random import Random
from typing import Any

from strategies.heuristic_memo import TrickMemo
from strategies.lazy_module import LazyModule, playing
from whist_sim.cards import FULL_DECK, SUIT_MASKS, highest, iter_cards, lowest
from whist_sim.games.solo_whist import (
    ABUNDANCE,
    ABUNDANCE_DECLARED,
    CONTRACTS,
    COP,
    MISERE,
    NAME_TRUMP,
    PASS,
    PROP,
    ROYAL_ABUNDANCE,
    SOLO,
    SPREAD_MISERE,
    top_sequence,
)
from whist_sim.strategy import Strategy

# Cards of the same suit above / below each card.
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
BELOW = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
SUIT_OF_MASK = tuple(sum(SUIT_MASKS[s] for s in range(4) if m >> s & 1) for m in range(16))
"""Cards of the suits in a 4-bit set of suits (a seat's voids)."""

# What a card is worth for later tricks (in tricks) by how many higher cards of its
# suit are still out: a side master can still be ruffed; every trump can ruff. Set by
# hand, like German Whist's tables; the card player weighs them against the trick now.
SIDE_WORTH = (0.85, 0.45, 0.2, 0.08, 0.04) + (0.02,) * 8
TRUMP_WORTH = (1.0, 0.8, 0.65, 0.55, 0.5) + (0.45,) * 8
NO_TRUMP_WORTH = (1.0, 0.5, 0.25, 0.1, 0.05) + (0.02,) * 8
KEEP_WEIGHT = 0.6
"""What a card's later worth counts against the trick it could win now: less than one,
because the trick now is sure and later ones are not (0.6 made the most tricks for
declarers and defenders alike in forced-contract play-outs)."""
LAST_PARTNER = 0.5
"""How far to count on a partner who plays last, after the opponents, to win a trick."""
DRAW_WITH = 3
"""A declarer with this many trumps draws trumps even when the defenders hold more:
in forced-contract play-outs drawing early made more contracts than ruffing (5 or 6)."""
RUFFED_WORTH = 0.3
"""Share of its worth a side card keeps when an opponent can ruff its suit."""
MISERE_LEAD_DANGER = 0.1
"""How much chance of winning a misère lead is worth taking to lead a dangerous card."""
RANK_TIE_BREAK = 1e-3
"""Added per rank, so of two otherwise equal cards the lower is the one given up."""

HALF = tuple(0.5 ** n for n in range(53))
TWO_THIRDS = tuple((2 / 3) ** n for n in range(53))

# -- hand evaluation --------------------------------------------------------------------

# The tables below were fitted (least squares) to the tricks a lone declarer took in
# 123,000 forced Solos played out by this strategy in all four seats (a revision of its
# card play slightly weaker than this one), trumps the declarer's best suit or a random
# one: expected tricks = trump length + trump honours + per side suit (honours +
# length) + ruffs. They are what the bidder thinks a hand is worth; the thresholds in
# ``SoloHeuristic`` were then tuned on benchmarks/solo_heuristic_strength.py.
TRUMP_LENGTH = (-4.31, -3.21, -2.33, -1.66, -0.78, 0.29, 1.31, 2.09, 2.61, 2.85, 3.15)
"""By the number of trumps (10 or more: the last): long trumps win at the end."""
TRUMP_HONOURS = (
    0.0, 0.14, 0.26, 0.52, 0.45, 0.68, 1.23, 2.05,  # none, J, Q, QJ, K, KJ, KQ, KQJ
    1.09, 1.33, 1.53, 2.14, 2.07, 2.5, 2.96, 3.3,  # A, AJ, AQ, AQJ, AK, AKJ, AKQ, AKQJ
)
"""By the trump honours held, indexed by bits J=1, Q=2, K=4, A=8."""
SIDE_HONOURS = (0.0, 0.35, 0.74, 1.23, 1.05, 1.54, 1.88, 2.3)
"""A side suit's honours: none, Q, K, KQ, A, AQ, AK, AKQ (bits Q=1, K=2, A=4)."""
SIDE_LENGTH = (0.0, 0.01, 0.14, 0.4, 0.63, 1.03, 1.36)
"""A side suit's length 0..6 (or more): once trumps are drawn a long suit runs."""
SHORT_RUFFS = (0.26, 0.17, 0.08)
"""A side void, singleton or doubleton, per trump beyond the second: ruffing tricks."""


def estimate_tricks(hand: int, trump: int) -> float:
    """Tricks the hand should take as a lone declarer with ``trump`` as trumps."""
    bits = hand >> (13 * trump) & 0x1FFF
    trump_len = bits.bit_count()
    total = TRUMP_LENGTH[min(trump_len, 10)] + TRUMP_HONOURS[bits >> 9]
    spare = max(0, trump_len - 2)
    for suit in range(4):
        if suit == trump:
            continue
        bits = hand >> (13 * suit) & 0x1FFF
        n = bits.bit_count()
        total += SIDE_HONOURS[bits >> 10] + SIDE_LENGTH[min(n, 6)]
        if n <= 2:
            total += SHORT_RUFFS[n] * spare
    return total


def sure_tricks(hand: int, trump: int) -> int:
    """Tricks the hand takes whatever the defenders hold, leading every trick itself.

    The test for Abundance Declared: a suit runs in full when its unbroken top sequence
    is at least as long as the most cards the defenders could hold in it
    (``min(length, 13 - length)``), otherwise only that sequence wins. Side suits run
    only once trumps run (else they may be ruffed).
    """
    suits = _sure_by_suit(hand)
    return _sure_total(suits, trumps_run=suits[trump][2])


def best_sure_tricks(hand: int) -> int:
    """``sure_tricks`` in the best trump suit: ``max(sure_tricks(hand, s) for s in 0..3)``.

    A suit's sure tricks do not depend on the trump, only whether side suits count in
    full does (when trumps run), so one pass over the suits serves all four trumps: the
    full count if any suit runs, else the top sequences. The auction asks this of every
    hand it sees, sampled worlds included.
    """
    suits = _sure_by_suit(hand)
    return _sure_total(suits, trumps_run=any(runs for _, _, runs in suits))


def _sure_by_suit(hand: int) -> list[tuple[int, int, bool]]:
    """Per suit: its sure tricks once trumps run, its top sequence, whether it runs."""
    suits = []
    for suit in range(4):
        bits = hand >> (13 * suit) & 0x1FFF
        n = bits.bit_count()
        top = top_sequence(bits)
        runs = top >= min(n, 13 - n)
        suits.append((n if runs else top, top, runs))
    return suits


def _sure_total(suits: list[tuple[int, int, bool]], trumps_run: bool) -> int:
    """Every suit in full once trumps run, else only the top sequences."""
    if trumps_run:
        return sum(full for full, _, _ in suits)
    return sum(top for _, top, _ in suits)


# Misère: the hazard of each card (how likely it is to cost the declarer a trick) by
# its place in its suit (the k-th lowest held, k = 0, 1, 2, 3 or more) and its rank
# (two first), fitted (maximum likelihood, P(made) = exp(-total hazard)) to 34,000
# forced misères played out by this strategy in all four seats. Defenders lead low in the
# declarer's suits, so the lowest card of each suit must be low, the second not far
# above it, and so on; a fourth card and beyond is safe (the defenders run out of the
# suit first). A lone high card is less of a danger than a middling one: it goes on
# the first trick of a suit the declarer is void in.
MISERE_HAZARD = (
    (0.0, 0.0, 0.01, 0.28, 0.63, 1.04, 1.24, 1.26, 0.75, 0.83, 0.57, 0.55, 0.69),
    (0.0, 0.0, 0.0, 0.0, 0.05, 0.15, 0.31, 0.59, 0.93, 1.26, 1.35, 1.24, 1.3),
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.06, 0.17, 0.27, 0.46, 0.7, 0.82, 0.85),
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.07, 0.15, 0.18),
)
DISCARD_HAZARD = tuple(tuple(max(row[: r + 1]) for r in range(13)) for row in MISERE_HAZARD)
"""The same, never lower for a higher card: what a void declarer throws first. (In a
fresh hand a lone ace is less of a danger than a lone nine because it goes on the
first void; once we are throwing, the ace goes first.)"""
MISERE_ELDEST = 0.18
"""Extra hazard for the eldest hand, who must lead to the first trick."""
RISK_PER_AGGRESSION = 0.1
"""How much one unit of ``aggression`` takes off a misère's risk (one trick for the rest)."""


def misere_risk(hand: int, eldest: bool = False) -> float:
    """The chance (0..1) that the hand takes a trick if it plays a misère."""
    hazard = MISERE_ELDEST if eldest else 0.0
    for suit in range(4):
        bits = hand >> (13 * suit) & 0x1FFF
        k = 0
        while bits:
            low = bits & -bits
            hazard += MISERE_HAZARD[k if k < 3 else 3][low.bit_length() - 1]
            bits ^= low
            k += 1
    return 1.0 - math.exp(-hazard)


# -- what the seat knows about the other hands ------------------------------------------

class _Seen:
    """Cards played, who may hold each unseen card, and the chance they hold them.

    An unseen card is held by one of the seats that may hold it (not void in its suit;
    the exposed hand and the upcard are known exactly), each equally likely.
    """

    __slots__ = ("only", "poss", "three", "two", "unseen", "voids")

    def __init__(self, view: Any, memo: TrickMemo | None = None) -> None:
        me = view.seat
        played, voids = (memo or TrickMemo(_fold_trick, _NO_TRICKS))(view.tricks)
        trick = view.trick
        if trick:
            voids = list(voids)
            led = trick[0] // 13
            for i, card in enumerate(trick):
                played |= 1 << card
                if card // 13 != led:
                    voids[(view.leader + i) & 3] |= 1 << led
        hand = view.hand
        unseen = FULL_DECK & ~hand & ~played
        known = [0, 0, 0, 0]
        if view.exposed:
            known[view.declarer] = view.exposed
        if view.upcard_held and view.dealer != me:
            known[view.dealer] |= 1 << view.upcard
        free = unseen & ~(known[0] | known[1] | known[2] | known[3])
        poss = [0, 0, 0, 0]
        for seat in range(4):
            if seat == me:
                continue
            if view.exposed and seat == view.declarer:
                poss[seat] = view.exposed
            else:
                poss[seat] = known[seat] | (free & ~SUIT_OF_MASK[voids[seat]])
        a, b, c = poss[(me + 1) & 3], poss[(me + 2) & 3], poss[(me + 3) & 3]
        three = a & b & c
        two = ((a & b) | (a & c) | (b & c)) & ~three
        self.unseen = unseen
        self.voids = voids
        self.poss = poss
        self.only = (a | b | c) & ~two & ~three
        self.two = two
        self.three = three

    def p_none(self, seat: int, cards: int) -> float:
        """Chance ``seat`` holds none of ``cards``."""
        cards &= self.poss[seat]
        if not cards:
            return 1.0
        if cards & self.only:
            return 0.0
        return HALF[(cards & self.two).bit_count()] * TWO_THIRDS[(cards & self.three).bit_count()]

    def p_beat(self, seat: int, card: int, led: int, trump: int) -> float:
        """Chance ``seat``, playing after ``card`` (winning a trick led in ``led``), beats it."""
        suit = card // 13
        led_cards = SUIT_MASKS[led]
        if suit == led:
            has_higher = 1.0 - self.p_none(seat, ABOVE[card])
            if trump < 0 or trump == led:
                return has_higher
            void = self.p_none(seat, led_cards)
            return has_higher + void * (1.0 - self.p_none(seat, SUIT_MASKS[trump]))
        # a trump on a side-suit lead: only a void seat with a higher trump beats it
        return self.p_none(seat, led_cards) * (1.0 - self.p_none(seat, ABOVE[card]))

    def holds(self, card: int, led: int, trump: int, opponents: list[int]) -> float:
        """Chance no opponent still to play beats ``card``."""
        chance = 1.0
        for seat in opponents:
            chance *= 1.0 - self.p_beat(seat, card, led, trump)
        return chance


_NO_TRICKS = (0, (0, 0, 0, 0))
"""``_Seen``'s summary of no trick: nothing played, no void."""


def _fold_trick(summary: tuple, record: Any) -> tuple:
    """``summary`` (cards played, each seat's voids as a 4-bit set of suits) with the
    completed trick ``record`` added."""
    played, voids = summary
    cards = record.cards
    led = cards[0] // 13
    leader = record.leader
    played |= 1 << cards[0]
    void = list(voids)
    for i in (1, 2, 3):
        card = cards[i]
        played |= 1 << card
        if card // 13 != led:
            void[(leader + i) & 3] |= 1 << led
    return played, tuple(void)


def _winner(trick: tuple[int, ...], trump: int) -> int:
    """Index of the card winning a (partial) trick."""
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if (card // 13 == top // 13 and card > top) or (card // 13 == trump != top // 13):
            best = i
    return best


def _beats(card: int, best: int, trump: int) -> bool:
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _worth(card: int, out: int, trump: int, ruffed: int = 0) -> float:
    """What ``card`` may win later, ``out`` being the cards that could beat it.

    ``ruffed`` is the set of suits (4 bits) an opponent has shown out of while he may
    still hold trumps: a side card there will most likely be ruffed, so it is worth
    little kept back.
    """
    higher = (out & ABOVE[card]).bit_count()
    suit = card // 13
    if trump < 0:
        worth = NO_TRUMP_WORTH[higher]
    elif suit == trump:
        worth = TRUMP_WORTH[higher]
    else:
        worth = SIDE_WORTH[higher]
        if ruffed >> suit & 1:
            worth *= RUFFED_WORTH
    return worth + (card % 13) * RANK_TIE_BREAK


def _ruffed_suits(seen: _Seen, side: tuple[int, ...], trump: int) -> int:
    """Side suits (4 bits) some opponent is void in while he may still hold trumps."""
    if trump < 0:
        return 0
    trumps = SUIT_MASKS[trump]
    suits = 0
    for seat in range(4):
        if seat not in side and seen.poss[seat] & trumps:
            suits |= seen.voids[seat]
    return suits & ~(1 << trump)


def _suits(mask: int) -> list[int]:
    """The suits ``mask`` has cards in."""
    return [s for s in range(4) if mask & SUIT_MASKS[s]]


# -- the strategy -----------------------------------------------------------------------

class SoloHeuristic(Strategy):
    """Bids by hand evaluation with tunable thresholds; plays by side, counting cards.

    Parameters (all keyword; see ``__init__`` for the allowed values). Trick thresholds
    compare with ``estimate_tricks`` (the tricks a lone declarer is expected to take),
    risks with ``misere_risk`` (the chance a misère is lost):
    - ``solo_tricks``: estimated tricks in the upcard trump to bid Solo (5 needed).
    - ``prop_tricks``: estimated tricks in the upcard trump to propose (Prop).
    - ``cop_tricks``: estimated tricks in the upcard trump to accept a Prop (Cop); the
      two hands together take about a trick and a half more than their two estimates.
    - ``misere_risk``: the highest risk of a hand bid as a Misère.
    - ``abundance_tricks``: estimated tricks in the best suit to bid Abundance (Royal
      Abundance when that suit is the upcard's; 9 needed).
    - ``declared_tricks``: sure tricks (``sure_tricks``) to bid Abundance Declared.
    - ``spread_risk``: the highest risk of a hand bid as a Spread Misère.
    - ``aggression``: added to every trick estimate, and a tenth of it taken off every
      misère risk: above 0 bids more, below 0 bids less.
    - ``compiled``: True (default) plays the cards compiled with numba
      (strategies/solo_heuristic_compiled.py: the same decisions, tested decision by
      decision), False in the Python below. Bidding is Python either way.

    The defaults make about 90% of Solo and 91% of Prop and Cop contracts in self-play
    (benchmarks/solo_heuristic_strength.py); raise the trick thresholds for safer bids.
    """

    games = frozenset({"solo_whist"})
    version = "1"

    def __init__(
        self,
        *,
        solo_tricks: float = 5.25,
        prop_tricks: float = 3.25,
        cop_tricks: float = 3.0,
        misere_risk: float = 0.4,
        abundance_tricks: float = 9.0,
        declared_tricks: float = 13.0,
        spread_risk: float = 0.15,
        aggression: float = 0.0,
        compiled: bool = True,
    ) -> None:
        for name, value in (
            ("solo_tricks", solo_tricks), ("prop_tricks", prop_tricks),
            ("cop_tricks", cop_tricks), ("abundance_tricks", abundance_tricks),
            ("declared_tricks", declared_tricks),
        ):
            _check_number(name, value, 0.0, 20.0, "(estimated tricks; above 13 never bids it)")
        _check_number("misere_risk", misere_risk, 0.0, 1.0, "(a chance of losing)")
        _check_number("spread_risk", spread_risk, 0.0, 1.0, "(a chance of losing)")
        _check_number("aggression", aggression, -5.0, 5.0)
        self.solo_tricks = float(solo_tricks)
        self.prop_tricks = float(prop_tricks)
        self.cop_tricks = float(cop_tricks)
        self.misere_risk = float(misere_risk)
        self.abundance_tricks = float(abundance_tricks)
        self.declared_tricks = float(declared_tricks)
        self.spread_risk = float(spread_risk)
        self.aggression = float(aggression)
        if compiled is not True and compiled is not False:  # 1 == True, yet not a bool
            raise ValueError(f"compiled = {compiled!r} is not allowed; allowed values: true, false")
        self.compiled = compiled
        if compiled:  # built outside any decision: numba compiles here, not in one
            _compiled.load()
        self._tricks = _TRICKS  # one memo for every player: the seats see the same tricks

    # -- the decision --------------------------------------------------------------------
    def choose(self, view: Any, rng: Random) -> int:
        legal = view.legal
        if not legal & (legal - 1):  # a single legal action: nothing to decide
            return legal.bit_length() - 1
        if view.phase == "bid":
            return self._bid(view)
        if view.phase == "trump":
            return self._name_trump(view)
        if self.compiled:
            fast = _compiled.module or _compiled.load()
            return fast.play_choice(view, *self._tricks(view.tricks))
        seen = _Seen(view, self._tricks)
        if CONTRACTS[view.contract].misere:
            if view.seat == view.declarer:
                return _misere_declarer(view, seen)
            return _misere_defender(view, seen)
        if view.trick:
            return _follow(view, seen)
        return _lead(view, seen)

    # -- the auction ---------------------------------------------------------------------
    def wanted_calls(
        self, hand: int, upcard: int, can_cop: bool, eldest: bool = False
    ) -> list[int]:
        """Every call this hand is good enough for, highest first."""
        boost = self.aggression
        if self.compiled:
            raw, risk, sure = (_compiled.module or _compiled.load()).hand_numbers(hand, eldest)
        else:
            raw = [estimate_tricks(hand, suit) for suit in range(4)]
            risk, sure = misere_risk(hand, eldest), best_sure_tricks(hand)
        estimates = [estimate + boost for estimate in raw]
        up_suit = upcard // 13 if upcard >= 0 else -1
        best = max(estimates)
        risk -= RISK_PER_AGGRESSION * boost
        calls = []
        if sure + boost >= self.declared_tricks:
            calls.append(ABUNDANCE_DECLARED)
        if risk <= self.spread_risk:
            calls.append(SPREAD_MISERE)
        if up_suit >= 0:
            if estimates[up_suit] >= self.abundance_tricks:
                calls.append(ROYAL_ABUNDANCE)
            if max(e for s, e in enumerate(estimates) if s != up_suit) >= self.abundance_tricks:
                calls.append(ABUNDANCE)
        elif best >= self.abundance_tricks:
            calls.append(ABUNDANCE)
        if risk <= self.misere_risk:
            calls.append(MISERE)
        trump_estimate = estimates[up_suit] if up_suit >= 0 else best
        if trump_estimate >= self.solo_tricks:
            calls.append(SOLO)
        if can_cop and self._support(hand, up_suit, raw) + boost >= self.cop_tricks:
            calls.append(COP)
        if trump_estimate >= self.prop_tricks:
            calls.append(PROP)
        return calls

    @staticmethod
    def _support(hand: int, trump: int, estimates: list[float]) -> float:
        """Tricks the hand brings a proposer, in the upcard trump. Without an upcard the
        proposer names trumps, most likely his own long suit rather than ours, so the
        hand counts for the average of its three weaker suits. (``estimates``: the
        hand's ``estimate_tricks`` in each suit.)"""
        if trump >= 0:
            return estimates[trump]
        return sum(sorted(estimates)[:3]) / 3

    def _bid(self, view: Any) -> int:
        eldest = view.seat == (view.dealer + 1) % 4
        return self.call_for(view.hand, view.upcard, view.legal, eldest)

    def call_for(self, hand: int, upcard: int, legal: int, eldest: bool) -> int:
        """The call this bidder makes with ``hand`` when ``legal`` calls are open: the
        first it wants that is legal, else a pass. (Search uses it to ask whether a
        sampled hand explains a seat's call.)"""
        for call in self.wanted_calls(hand, upcard, bool(legal >> COP & 1), eldest):
            if legal >> call & 1:
                return call
        return PASS

    def _name_trump(self, view: Any) -> int:
        """The suit in which the hand takes most tricks, among those allowed (for
        Abundance Declared, most sure tricks first)."""
        declared = CONTRACTS[view.contract].bid == ABUNDANCE_DECLARED
        best, best_value = -1, (-1, -99.0)
        for suit in range(4):
            if view.legal >> (NAME_TRUMP + suit) & 1:
                sure = sure_tricks(view.hand, suit) if declared else 0
                value = (sure, estimate_tricks(view.hand, suit))
                if value > best_value:
                    best, best_value = NAME_TRUMP + suit, value
        return best


_compiled = LazyModule("strategies.solo_heuristic_compiled",
                       warm_up=playing("solo_whist", SoloHeuristic, deals=8))
"""The numba path: imported, and its kernels compiled by playing 8 deals, when the
first heuristic that plays compiled is built (``strategies.lazy_module``)."""


# -- trick contracts: following ---------------------------------------------------------

def _side_of(view: Any) -> tuple[int, ...]:
    """The seats playing with this one (itself included)."""
    return _SIDES[view.seat, view.declarer, view.partner]


def _side(seat: int, declarer: int, partner: int) -> tuple[int, ...]:
    declarers = (declarer, partner) if partner >= 0 else (declarer,)
    if seat in declarers:
        return declarers
    return tuple(s for s in range(4) if s not in declarers)


_SIDES = {
    (seat, declarer, partner): _side(seat, declarer, partner)
    for seat in range(4) for declarer in range(4) for partner in range(-1, 4)
}
"""``_side_of`` for every seat, declarer and partner (-1: none), worked out once."""


_LATER = tuple(tuple(tuple((me + k) & 3 for k in range(1, 4 - n)) for n in range(4))
               for me in range(4))
"""``_LATER[me][n]``: the seats to play after ``me`` when ``n`` cards are on the trick."""


def _follow(view: Any, seen: _Seen) -> int:
    """Win the trick as cheaply as is safe, unless the side is winning it already.

    Each legal card scores the chance the side wins the trick with it, less what the
    card could win later (``_worth``, weighted by ``KEEP_WEIGHT``): so a partner's safe
    winner is left alone, a sure winner is played when the trick is worth it, and a
    card likely to be overtaken by an opponent still to play is kept.
    """
    trick = view.trick
    trump = view.trump
    led = trick[0] // 13
    me = view.seat
    side = _side_of(view)
    best_i = _winner(trick, trump)
    best = trick[best_i]
    later = _LATER[me][len(trick)]
    opponents = [s for s in later if s not in side]
    ours_now = (view.leader + best_i) & 3 in side
    if ours_now:
        keep_chance = seen.holds(best, led, trump, opponents)
    elif later and not opponents:
        # only partners still to play: one of them may well win it more cheaply
        keep_chance = 1.0 - seen.holds(best, led, trump, later)
    elif later and later[-1] in side:
        # a partner plays last, after the opponents: he may still win it
        keep_chance = LAST_PARTNER * (1.0 - seen.holds(best, led, trump, later[-1:]))
    else:
        keep_chance = 0.0
    out = seen.unseen
    ruffed = _ruffed_suits(seen, side, trump)
    choice, choice_score = -1, -9.0
    losers = 0
    loser_worth = 9.0
    for card in iter_cards(view.legal):
        worth = KEEP_WEIGHT * _worth(card, out, trump, ruffed)
        if _beats(card, best, trump):
            chance = max(seen.holds(card, led, trump, opponents), keep_chance)
            if chance - worth > choice_score:
                choice, choice_score = card, chance - worth
        else:
            losers |= 1 << card
            loser_worth = min(loser_worth, worth)
    if choice >= 0 and (not losers or choice_score > keep_chance - loser_worth):
        return choice
    return _discard(view.hand, losers, seen, ruffed, trump)


def _discard(hand: int, cards: int, seen: _Seen, ruffed: int, trump: int) -> int:
    """Of ``cards`` (none of which wins), the one worth least; from a short suit when we
    hold trumps.

    A void in a side suit lets us ruff it later, so between cards of similar worth the
    one from the shortest suit goes; an unguarded king is not worth keeping.
    """
    out = seen.unseen
    has_trumps = trump >= 0 and hand & SUIT_MASKS[trump]
    best, best_key = -1, 9.0
    for card in iter_cards(cards):
        suit = card // 13
        key = _worth(card, out, trump, ruffed)
        if has_trumps and suit != trump:
            key += 0.01 * (hand & SUIT_MASKS[suit]).bit_count()
        if key < best_key:
            best, best_key = card, key
    return best


# -- trick contracts: leading -----------------------------------------------------------

def _lead(view: Any, seen: _Seen) -> int:
    """The declarer side and the defenders lead by different rules."""
    if view.seat == view.declarer or view.seat == view.partner:
        return _declarer_lead(view, seen)
    return _defender_lead(view, seen)


def _opponent_trumps(view: Any, seen: _Seen, side: tuple[int, ...]) -> int:
    """Trumps the other side may still hold."""
    if view.trump < 0:
        return 0
    mask = 0
    for seat in range(4):
        if seat not in side:
            mask |= seen.poss[seat]
    return mask & SUIT_MASKS[view.trump]


def _safe_master(view: Any, seen: _Seen, side: tuple[int, ...], opp_trumps: int) -> int:
    """A side-suit master card no opponent can ruff (all may follow), or -1.

    Of several, the one from the suit where the opponents hold most cards (they must
    follow, and the master keeps the lead)."""
    hand = view.hand
    trump = view.trump
    out = seen.unseen
    best, best_key = -1, -1
    for suit in range(4):
        if suit == trump:
            continue
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        top = highest(mine)
        if out & ABOVE[top]:
            continue
        if opp_trumps and any(
            seen.voids[s] >> suit & 1 for s in range(4) if s not in side
        ):
            continue
        theirs = (out & SUIT_MASKS[suit]).bit_count()
        if opp_trumps and not theirs:
            continue
        key = theirs * 16 + (mine.bit_count())
        if key > best_key:
            best, best_key = top, key
    return best


def _declarer_lead(view: Any, seen: _Seen) -> int:
    """Draw trumps, cash masters, then establish the longest side suit.

    Trumps are drawn (the master first) while the defenders may hold some, if we hold
    as many as they may or at least ``DRAW_WITH``: the defenders' ruffs cost more than
    the tricks our low trumps could make by ruffing.
    """
    hand = view.hand
    trump = view.trump
    side = _side_of(view)
    out = seen.unseen
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    mine = hand & trump_mask
    opp_trumps = _opponent_trumps(view, seen, side)
    if mine and opp_trumps:
        top = highest(mine)
        n, m = mine.bit_count(), opp_trumps.bit_count()
        if not out & ABOVE[top]:
            return top
        if n >= m or n >= DRAW_WITH:
            return _establishing_card(mine, out)
    master = _safe_master(view, seen, side, opp_trumps)
    if master >= 0:
        return master
    side_cards = hand & ~trump_mask
    if side_cards:
        # ruff later in a short suit; run the longest one (drawn trumps make it good)
        suit = max(_suits(side_cards), key=lambda s: (
            (side_cards & SUIT_MASKS[s]).bit_count(), highest(side_cards & SUIT_MASKS[s])
        ))
        return _establishing_card(side_cards & SUIT_MASKS[suit], out)
    return highest(mine)


def _establishing_card(mine: int, out: int) -> int:
    """From one suit: the top of a touching pair that forces out one higher card, else
    the lowest.

    Leading the king from K-Q knocks the ace out and leaves the queen master; from
    K-x-x the low card loses no more and keeps the king behind.
    """
    top = highest(mine)
    rest = mine & ~(1 << top)
    if rest and (out & ABOVE[top]).bit_count() == 1:
        second = highest(rest)
        if not out & ABOVE[second] & BELOW[top]:
            return top
    return lowest(mine)


def _defender_lead(view: Any, seen: _Seen) -> int:
    """Cash masters the declarer must follow, lead trumps against Abundance, go for ruffs.

    Against a long-trump contract (Abundance, Royal Abundance, Abundance Declared) the
    declarer's trumps are his tricks, so leading trumps takes them two at a time. Otherwise
    a suit a partner has shown out of (he may ruff) or our own short suit (to ruff later;
    it also tells partners where we are short) comes before a long suit.
    """
    hand = view.hand
    trump = view.trump
    side = _side_of(view)
    out = seen.unseen
    trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
    declarer = view.declarer
    opp_trumps = _opponent_trumps(view, seen, side)
    contract = CONTRACTS[view.contract]
    mine = hand & trump_mask
    if contract.target >= 9 and mine and opp_trumps:
        top = highest(mine)
        return top if not out & ABOVE[top] else lowest(mine)
    master = _safe_master(view, seen, side, opp_trumps)
    if master >= 0:
        return master
    side_cards = hand & ~trump_mask
    if not side_cards:
        top = highest(mine)
        return top if not out & ABOVE[top] else lowest(mine)
    declarer_voids = seen.voids[declarer] | (
        seen.voids[view.partner] if view.partner >= 0 else 0
    )
    partners = [s for s in side if s != view.seat]
    best, best_key = -1, -9.0
    for suit in _suits(side_cards):
        cards = side_cards & SUIT_MASKS[suit]
        n = cards.bit_count()
        key = 0.0
        if opp_trumps and declarer_voids >> suit & 1:
            key -= 3.0  # he ruffs it, or throws a loser
        if trump >= 0 and any(
            seen.voids[p] >> suit & 1 and seen.poss[p] & trump_mask for p in partners
        ):
            key += 2.0  # a partner ruffs it
        if mine and n <= 2:
            key += 1.0 - 0.3 * n  # a short suit: ruff it ourselves next time
        key -= 0.05 * n
        if key > best_key:
            best_key = key
            best = _establishing_card(cards, out) if n >= 3 else highest(cards)
    return best


# -- misère -------------------------------------------------------------------------------

def _misere_declarer(view: Any, seen: _Seen) -> int:
    """Lose every trick: the highest card that still loses, the most dangerous when void."""
    trick = view.trick
    legal = view.legal
    out = seen.unseen
    if not trick:
        return _misere_safe_lead(view, seen)
    led = trick[0] // 13
    best = trick[_winner(trick, -1)]
    if legal & SUIT_MASKS[led]:
        under = legal & BELOW[best]
        if under:
            return highest(under)
        # every card we hold beats the trick: hope a later player overtakes the lowest,
        # or, as the last to play, the trick is lost whatever we play
        return lowest(legal) if len(trick) < 3 else highest(legal)
    return _most_dangerous(view.hand, out, legal)


def _misere_safe_lead(view: Any, seen: _Seen) -> int:
    """A card that surely loses, and among those the one most dangerous to keep.

    A led card wins only if every defender holding its suit can play under it, so the
    two of a suit nearly always loses; but leading a lone low card (a void to come) or
    the top of a suit is better if it is almost as safe.
    """
    hand = view.hand
    out = seen.unseen
    others = [s for s in range(4) if s != view.seat]
    best, best_key = -1, 9.0
    for card in iter_cards(view.legal):
        suit_cards = SUIT_MASKS[card // 13]
        below = out & BELOW[card]
        wins = 1.0
        for seat in others:
            wins *= 1.0 - (seen.p_none(seat, below) - seen.p_none(seat, suit_cards))
        own = hand & suit_cards
        danger = (card % 13) / 12.0 + (0.5 if own.bit_count() == 1 else 0.0)
        key = wins - MISERE_LEAD_DANGER * danger
        if key < best_key:
            best, best_key = card, key
    return best


def _most_dangerous(hand: int, out: int, legal: int) -> int:
    """The card most likely to win a trick later, by the misère hazard table.

    Cards already played drop out of the ranking: once the two and three of a suit are
    gone, its four is as safe as a two was. A card's hazard is read at its place among
    our cards of its suit and its rank among the cards of the suit still in play.
    """
    live = hand | out
    best, best_hazard = -1, -1.0
    for card in iter_cards(legal):
        place = (hand & BELOW[card]).bit_count()
        rank = (live & BELOW[card]).bit_count()
        hazard = DISCARD_HAZARD[place if place < 3 else 3][rank] + (card % 13) * 1e-3
        if hazard > best_hazard:
            best, best_hazard = card, hazard
    return best


def _misere_defender(view: Any, seen: _Seen) -> int:
    """Make the misère declarer win a trick.

    Lead low in a suit he still holds (never one he is void in: he would throw a
    dangerous card). Following, if he has played and is winning, play under him; if he
    is still to play, play low so that his card is left on top; once he is safe in
    this trick, throw our highest cards and keep low ones for later leads.
    """
    trick = view.trick
    legal = view.legal
    declarer = view.declarer
    if not trick:
        return _misere_attack_lead(view, seen)
    led = trick[0] // 13
    best_i = _winner(trick, -1)
    best = trick[best_i]
    played_by = [(view.leader + i) & 3 for i in range(len(trick))]
    following = legal & SUIT_MASKS[led]
    if declarer in played_by:
        if (view.leader + best_i) & 3 == declarer and following:
            under = following & BELOW[best]
            return highest(under) if under else highest(following)
        return _throw_high(view.hand, seen.unseen, legal)
    if not following:
        return _throw_high(view.hand, seen.unseen, legal)
    # the declarer is still to play: keep the bar low for him
    his = seen.poss[declarer] & SUIT_MASKS[led]
    if not his & ABOVE[best]:
        return highest(following)  # he ducks or throws whatever we play: unload our highest
    if view.exposed and his:
        under_his = following & BELOW[lowest(his)]
        if under_his:
            return highest(under_his)  # he must win unless someone goes over him
    return lowest(following)


def _throw_high(hand: int, out: int, legal: int) -> int:
    """The card worth least to the defence: a high one (low cards make the declarer win)."""
    best, best_key = -1, None
    for card in iter_cards(legal):
        below = (out & BELOW[card]).bit_count()
        key = (-below, -(hand & SUIT_MASKS[card // 13]).bit_count())
        if best_key is None or key < best_key:
            best, best_key = card, key
    return best


def _misere_attack_lead(view: Any, seen: _Seen) -> int:
    """Lead where the declarer is most likely to be forced to win.

    Only suits he may still hold; our lowest card in each, preferring a card below all
    the cards he may hold there, then the fewest of his possible cards below ours. Once
    his hand is exposed, ``_spread_attack_lead`` knows exactly.
    """
    if view.exposed:
        return _spread_attack_lead(view, seen)
    hand = view.hand
    theirs = seen.poss[view.declarer]
    best, best_key = -1, None
    for suit in _suits(hand):
        mine = hand & SUIT_MASKS[suit]
        card = lowest(mine)
        his = theirs & SUIT_MASKS[suit]
        if his:
            his_low_beats = not his & BELOW[card]
            key = (0, 0 if his_low_beats else 1, (his & BELOW[card]).bit_count(), card % 13)
        else:
            key = (1, 0, 0, -(card % 13))
        if best_key is None or key < best_key:
            best, best_key = card, key
    return best


def _spread_attack_lead(view: Any, seen: _Seen) -> int:
    """Against an exposed hand: lead the suit where he is most surely forced to win.

    He wins a trick of a suit he holds when every defender plays below his lowest card
    of it; a defender holding the suit but nothing below spoils it. Our own lead is the
    highest card still below his lowest (we keep the low ones for later).
    """
    hand = view.hand
    declarer = view.declarer
    others = [s for s in range(4) if s not in (view.seat, declarer)]
    out = seen.unseen & ~view.exposed
    best, best_chance = -1, -1.0
    for suit in _suits(hand):
        his = view.exposed & SUIT_MASKS[suit]
        if not his:
            continue
        his_low = lowest(his)
        mine = hand & BELOW[his_low]
        if not mine:
            continue
        chance = 1.0
        below = out & BELOW[his_low]
        for seat in others:
            chance *= 1.0 - (seen.p_none(seat, below) - seen.p_none(seat, SUIT_MASKS[suit]))
        if chance > best_chance:
            best, best_chance = highest(mine), chance
    if best >= 0:
        return best
    # no suit forces him now: lead low where he still has cards, to wear his suits down
    for card in iter_cards(hand):
        if view.exposed & SUIT_MASKS[card // 13]:
            return card
    return _throw_high(hand, seen.unseen, hand)


def _check_number(name: str, value: Any, low: float, high: float, extra: str = "") -> None:
    """Reject a parameter outside its range with a message naming it and the allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(
            f"{name} = {value!r} is not allowed; allowed values: numbers from {low:g}"
            f" to {high:g}{' ' + extra if extra else ''}"
        )


_TRICKS = TrickMemo(_fold_trick, _NO_TRICKS)
"""The completed tricks' summary, shared by this heuristic's players (``TrickMemo``)."""
