"""``heuristic`` for Minnesota Whist: a hand-valuing bidder and a card-counting partner.

Bidding. The hand is valued in high-card points (A 4, K 3, Q 2, J 1) plus
``length_points`` for every card beyond the fourth of a suit; the player grands (lays
a black card, or says grand) when the value reaches ``grand_threshold`` and passes
(lays a red card) otherwise. The threshold moves by ``bid_adjust`` for every player
known to have passed before us, up for a partner (his hand is weaker than a grand),
down for an opponent: under spoken bidding those are the calls so far; with laid
cards our card is turned only if every card turned before it is red, so it is chosen
as if the players before us in turning order had passed. With no black card the
player cannot grand, with no red card it must.

The laid card gives away as little as it can: to grand, the lowest black card (from
the longer black suit on a tie: one card says less about a long suit); to pass, the
lowest red card of the longest red suit, which shows neither an honour nor the short
suit the player hopes to void in a null hand.

Play. Everything comes from the view: the cards played, the suits each seat has
shown out of, and the turned cards, whose owners hold them until they play them. An
opponent "may hold" a card that is out, not known to be elsewhere and of a suit he
has not shown out of; a card is safe when no opponent still to play may hold a higher
card of its suit.

- Grand hand (both sides play high: defenders score double for seven tricks): lead a
  safe card, else partner's last suit, else low from the longest suit (the top of an
  honour sequence); follow with the cheapest safe card that wins, else (second hand)
  the cheapest card that wins, else (third hand) the highest; go over a partner's card
  only when that takes away some of the cards the last opponent may beat it with,
  never over a partner's safe card; discard the lowest card that is not safe, from a
  short suit.
- Null hand (both sides play low): lead the card surest to lose from the shortest
  suit, to void it for later discards (of a run of cards with no outstanding card
  between them, the highest); follow with the highest card that still loses; when
  every card of ours beats the trick, play the lowest if an opponent still to play may
  beat it, else the highest; when the side takes the trick anyway (partner winning and
  we play last) shed the highest card; let a partner's winning card stand by ducking
  under it, so that the last opponent can still take it; when void, discard the most
  dangerous card (most outstanding cards below it, fewest above), from short suits
  first. Under the default scoring a side that has taken seven tricks of a null hand
  has lost it and plays high from then on, keeping the other side's score down.

The defaults were chosen on benchmarks/minnesota_heuristic_strength.py and on
heuristic-against-heuristic duplicate play: ``grand_threshold`` 15 is where granding
starts to pay against a side that plays like this one (14 and 15 tie, 13 and 16 lose
about 0.1 point a deal). Against ``random`` a higher threshold scores more (17: about
+0.2 a deal), because a random side grands half its hands and defending those pays
double; the default does not chase that. Returning partner's suit was worth about
+0.2 a deal against ``random``; second hand winning when it can (rather than second
hand low) about +0.1 against ``random``, at a cost of about 0.04 against itself.

The rng is not used, so the player is deterministic.
"""

from __future__ import annotations

from random import Random
from typing import Any

from strategies.heuristic_memo import TrickMemo
from strategies.lazy_module import LazyModule, playing
from whist_sim.cards import FULL_DECK, SUIT_MASKS, highest, lowest
from whist_sim.games.minnesota_whist import BLACK, GRAND, PASS
from whist_sim.strategy import Strategy

# Cards of the same suit above / below each card.
ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
BELOW = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
SUIT_OF_MASK = tuple(sum(SUIT_MASKS[s] for s in range(4) if m >> s & 1) for m in range(16))
"""Cards of the suits in a 4-bit set of suits (a seat's voids)."""
RED = FULL_DECK & ~BLACK
HCP = (0,) * 9 + (1, 2, 3, 4)
"""High-card points by rank: J 1, Q 2, K 3, A 4."""
HCP_BY_SUIT_MASK = tuple(
    sum(HCP[r] for r in range(9, 13) if m >> (r - 9) & 1) for m in range(16)
)
"""Points of the honours J Q K A present in the top four bits of a suit."""


def _check_number(name: str, value: Any, low: float, high: float) -> None:
    """Reject a parameter outside its range with a message naming it and the allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(
            f"{name} = {value!r} is not allowed; allowed values: numbers from {low:g} to {high:g}"
        )


def hand_value(hand: int, length_points: float) -> float:
    """High-card points plus ``length_points`` per card beyond the fourth of each suit."""
    value = 0.0
    for mask in SUIT_MASKS:
        cards = hand & mask
        if cards:
            shift = (mask & -mask).bit_length() - 1
            value += HCP_BY_SUIT_MASK[cards >> (shift + 9) & 0xF]
            extra = cards.bit_count() - 4
            if extra > 0:
                value += length_points * extra
    return value


def _lowest_of_longest(cards: int) -> int:
    """The lowest card of the suit holding most of ``cards`` (the lower suit on a tie)."""
    best = 0
    for mask in SUIT_MASKS:
        if (cards & mask).bit_count() > best.bit_count():
            best = cards & mask
    return lowest(best)


class _Table:
    """What the seat knows about the other hands at one decision, from the view alone.

    ``out``: cards neither ours nor played. ``may_hold[s]``: the out cards seat ``s``
    may hold (its turned card if unplayed, else cards not known elsewhere and not of a
    suit it has shown out of). ``last_led[s]``: the suit seat ``s`` last led, or -1.
    """

    __slots__ = ("last_led", "may_hold", "out")

    def __init__(self, view: Any, memo: TrickMemo | None = None) -> None:
        played, voids, last_led = (memo or TrickMemo(_fold_trick, _NO_TRICKS))(view.tricks)
        trick = view.trick
        if trick:
            lead = trick[0]
            played |= 1 << lead
            lead_suit = lead // 13
            seat = view.leader
            for card in trick[1:]:
                played |= 1 << card
                seat = (seat + 1) % 4
                if card // 13 != lead_suit:
                    if voids.__class__ is tuple:
                        voids = list(voids)
                    voids[seat] |= 1 << lead_suit
        out = FULL_DECK & ~view.hand & ~played
        known = [0, 0, 0, 0]
        all_known = 0
        for seat, card in view.turned:
            if out >> card & 1:
                known[seat] |= 1 << card
                all_known |= 1 << card
        self.last_led = last_led
        self.out = out
        free = out & ~all_known
        self.may_hold = [known[0] | (free & ~SUIT_OF_MASK[voids[0]]),
                         known[1] | (free & ~SUIT_OF_MASK[voids[1]]),
                         known[2] | (free & ~SUIT_OF_MASK[voids[2]]),
                         known[3] | (free & ~SUIT_OF_MASK[voids[3]])]


_NO_TRICKS = (0, (0, 0, 0, 0), (-1, -1, -1, -1))
"""The summary of no trick: nothing played, no void, no suit led."""


def _fold_trick(summary: tuple, record: Any) -> tuple:
    """``summary`` (cards played, each seat's voids as a 4-bit set of suits, the suit each
    seat last led) with the completed trick ``record`` added (``_Table`` reads it)."""
    played, voids, last_led = summary
    cards = record.cards
    lead = cards[0] // 13
    leader = record.leader
    last = list(last_led)
    last[leader] = lead
    void = list(voids)
    for i, card in enumerate(cards):
        played |= 1 << card
        if card // 13 != lead:
            void[(leader + i) % 4] |= 1 << lead
    return played, tuple(void), tuple(last)


class MinnesotaHeuristic(Strategy):
    """Grands on strong hands, passes otherwise; plays high in a grand, low in a null hand.

    Parameters (all keyword; see ``__init__`` for the allowed values):
    - ``grand_threshold``: hand value (high-card points plus length points) needed to
      grand. Raise it to grand less often (and make more of the grands played).
    - ``length_points``: points per card beyond the fourth of a suit.
    - ``bid_adjust``: how much each player known to have passed before us moves the
      threshold (up for a partner, down for an opponent).
    - ``compiled``: True (default) plays the cards compiled with numba
      (strategies/minnesota_heuristic_compiled.py: the same decisions, tested decision
      by decision), False in the Python below. Bidding is Python either way.
    """

    games = frozenset({"minnesota_whist"})
    version = "1"

    def __init__(
        self,
        *,
        grand_threshold: float = 15.0,
        length_points: float = 1.0,
        bid_adjust: float = 1.0,
        compiled: bool = True,
    ) -> None:
        _check_number("grand_threshold", grand_threshold, 0.0, 40.0)
        _check_number("length_points", length_points, 0.0, 10.0)
        _check_number("bid_adjust", bid_adjust, 0.0, 10.0)
        self.grand_threshold = float(grand_threshold)
        self.length_points = float(length_points)
        self.bid_adjust = float(bid_adjust)
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
        phase = view.phase
        if phase == "play":
            high = view.grand or self._null_lost(view)
            if self.compiled:
                return (_compiled.module or _compiled.load()).play_choice(view, high)
            table = _Table(view, self._tricks)
            if high:
                return self._play_high(view, table)
            return self._play_low(view, table)
        if phase == "lay":
            return self._lay(view)
        return GRAND if self._wants_grand(view) else PASS

    # -- bidding -------------------------------------------------------------------
    def _wants_grand(self, view: Any) -> bool:
        """Whether the hand's value reaches the threshold, moved by the passes before us.

        Spoken: the calls so far are all passes (a grand ends the bidding). Cards: our
        card is turned only if every card turned before it is red, so it is chosen as if
        the players before us (from the dealer's left) had passed.
        """
        seat = view.seat
        if view.phase == "bid":
            passed = [s for s, _ in view.calls]
        else:
            before = (seat - view.dealer - 1) % 4  # cards turned before ours
            passed = [(view.dealer + k) % 4 for k in range(1, before + 1)]
        threshold = self.grand_threshold
        for s in passed:
            threshold += self.bid_adjust if s == view.partner else -self.bid_adjust
        return hand_value(view.hand, self.length_points) >= threshold

    def _lay(self, view: Any) -> int:
        hand = view.hand
        black, red = hand & BLACK, hand & RED
        if black and (not red or self._wants_grand(view)):
            return self._grand_card(black)
        return _lowest_of_longest(red)

    @staticmethod
    def _grand_card(black: int) -> int:
        """The lowest black card; on equal ranks the one from the longer black suit."""
        spades, clubs = black & SUIT_MASKS[0], black & SUIT_MASKS[3]
        if not spades or not clubs:
            return lowest(black)
        low_spade, low_club = lowest(spades), lowest(clubs)
        if low_spade % 13 != low_club % 13:
            return low_spade if low_spade % 13 < low_club % 13 else low_club
        return low_spade if spades.bit_count() >= clubs.bit_count() else low_club

    # -- play: shared --------------------------------------------------------------
    @staticmethod
    def _null_lost(view: Any) -> bool:
        """A null hand our side has already lost (7+ tricks) under the default scoring.

        The other side then scores 7 minus its tricks, so every trick we still take
        keeps its score down; under ``pagat`` our own loss grows instead, so play stays low.
        """
        return (
            not view.grand
            and view.side_tricks[view.seat % 2] >= 7
            and view.variant.scoring == "default"
        )

    @staticmethod
    def _threatened(card: int, seats: tuple[int, ...], table: _Table) -> bool:
        """Whether one of ``seats`` may hold a higher card of ``card``'s suit."""
        above = ABOVE[card]
        may_hold = table.may_hold
        for s in seats:  # noqa: SIM110 (any() over a generator: a frame per call, hot)
            if above & may_hold[s]:
                return True
        return False

    # -- play: grand hand (high) ---------------------------------------------------
    def _play_high(self, view: Any, table: _Table) -> int:
        seat = view.seat
        opponents = ((seat + 1) % 4, (seat + 3) % 4)
        legal = view.legal
        trick = view.trick
        if not trick:
            return self._lead_high(view, table, opponents)
        lead_suit = trick[0] // 13
        if not legal & SUIT_MASKS[lead_suit]:
            return self._discard_high(legal, table, opponents)
        win_index = _winning_index(trick)
        win_card = trick[win_index]
        win_seat = (view.leader + win_index) % 4
        still_to_play = STILL_TO_PLAY[seat][len(trick)]
        above = legal & ABOVE[win_card]
        if win_seat == view.partner:
            if not self._threatened(win_card, still_to_play, table):
                return lowest(legal)  # partner's card holds: do not overtake it
            return self._help_partner(legal, win_card, still_to_play, table)
        if not above:
            return lowest(legal)
        safe = [c for c in _cards_low_first(above) if not self._threatened(c, still_to_play, table)]
        if safe:
            return safe[0]
        if len(trick) == 1:
            # second hand: win as cheaply as we can rather than leave the trick to
            # partner (measured against second hand low: see the module docstring)
            return lowest(above)
        return self._bottom_of_sequence(highest(above), legal, still_to_play, table)

    def _help_partner(
        self, legal: int, win_card: int, still_to_play: tuple[int, ...], table: _Table
    ) -> int:
        """Third hand high over a partner's card an opponent may still beat.

        Overtake only with a card that removes some of the cards the opponent may beat
        the trick with: the cheapest safe card, else our highest (played as the lowest
        card equal to it), if it is above cards the opponent may hold.
        """
        above = legal & ABOVE[win_card]
        for card in _cards_low_first(above):
            if not self._threatened(card, still_to_play, table):
                return card
        if above:
            top = highest(above)
            beaten = BELOW[top] & ABOVE[win_card]
            if any(beaten & table.may_hold[s] for s in still_to_play):
                return self._bottom_of_sequence(top, legal, still_to_play, table)
        return lowest(legal)

    @staticmethod
    def _bottom_of_sequence(
        card: int, cards: int, seats: tuple[int, ...], table: _Table
    ) -> int:
        """The lowest of our cards that is worth as much as ``card`` against ``seats``.

        Two cards are equal when no card that ``seats`` may hold lies between them.
        """
        threats = 0
        for s in seats:
            threats |= table.may_hold[s]
        while True:
            lower = BELOW[card] & (cards | threats)
            if not lower:
                return card
            below = highest(lower)
            if not cards >> below & 1:
                return card
            card = below

    def _lead_high(self, view: Any, table: _Table, opponents: tuple[int, ...]) -> int:
        """Cash a safe card; else return partner's suit; else lead from our longest suit."""
        hand = view.hand
        best_safe, best_length = -1, -1
        for mask in SUIT_MASKS:
            cards = hand & mask
            if not cards or self._threatened(highest(cards), opponents, table):
                continue
            length = cards.bit_count()
            if length > best_length:
                best_safe = self._bottom_of_sequence(highest(cards), hand, opponents, table)
                best_length = length
        if best_safe >= 0:
            return best_safe
        partner_suit = table.last_led[view.partner]
        if partner_suit >= 0 and hand & SUIT_MASKS[partner_suit]:
            return lowest(hand & SUIT_MASKS[partner_suit])
        longest = 0
        for mask in SUIT_MASKS:
            cards = hand & mask
            if cards.bit_count() > longest.bit_count():
                longest = cards
        top = highest(longest)
        second = BELOW[top] & longest
        if second and top % 13 >= 9 and not BELOW[top] & ABOVE[highest(second)] & table.out:
            return top  # top of an honour sequence: it forces out a higher card
        return lowest(longest)

    @staticmethod
    def _discard_high(legal: int, table: _Table, opponents: tuple[int, ...]) -> int:
        """The card least likely to take a trick: not safe, low, from a short suit."""
        threats = table.may_hold[opponents[0]] | table.may_hold[opponents[1]]
        best, best_keep = -1, 1e9
        for mask in SUIT_MASKS:
            cards = legal & mask
            if not cards:
                continue
            card = lowest(cards)
            keep = card % 13 + 0.5 * cards.bit_count()
            if not ABOVE[card] & threats:
                keep += 100.0
            if keep < best_keep:
                best, best_keep = card, keep
        return best

    # -- play: null hand (low) -----------------------------------------------------
    def _play_low(self, view: Any, table: _Table) -> int:
        legal = view.legal
        trick = view.trick
        if not trick:
            return self._lead_low(view, table)
        lead_suit = trick[0] // 13
        if not legal & SUIT_MASKS[lead_suit]:
            return self._discard_low(legal, table)
        win_index = _winning_index(trick)
        win_card = trick[win_index]
        win_seat = (view.leader + win_index) % 4
        last = len(trick) == 3
        under = legal & BELOW[win_card]
        if win_seat == view.partner and last:
            return highest(legal)  # the trick is ours anyway: shed the highest card
        if under:
            return highest(under)  # duck as high as we can
        if last:
            return highest(legal)
        # every card of ours beats the trick: if an opponent still to play may beat
        # our lowest, give him the best chance to; else take it with the highest card
        seat = view.seat
        still = STILL_TO_PLAY[seat][len(trick)]
        low = lowest(legal)
        return low if self._threatened(low, still, table) else highest(legal)

    def _lead_low(self, view: Any, table: _Table) -> int:
        """The card surest to lose, preferring short suits to void them."""
        hand = view.hand
        seat = view.seat
        opponents = ((seat + 1) % 4, (seat + 3) % 4)
        opp_may = table.may_hold[opponents[0]] | table.may_hold[opponents[1]]
        out = table.out
        best, best_risk = -1, 1e9
        for mask in SUIT_MASKS:
            cards = hand & mask
            if not cards:
                continue
            card = lowest(cards)
            # shed the highest card that no outstanding card lies under
            outside = out & mask
            while True:
                nxt = ABOVE[card] & cards
                if not nxt:
                    break
                higher = lowest(nxt)
                if ABOVE[card] & BELOW[higher] & outside:
                    break
                card = higher
            lower_out = (BELOW[card] & outside).bit_count()
            higher_opp = (ABOVE[card] & opp_may).bit_count()
            if not higher_opp:
                risk = 50.0 + lower_out  # no opponent may take it: our side wins it
            else:
                risk = lower_out / (lower_out + higher_opp) + cards.bit_count()
            risk -= 0.001 * (card % 13)
            if risk < best_risk:
                best, best_risk = card, risk
        return best

    @staticmethod
    def _discard_low(legal: int, table: _Table) -> int:
        """The most dangerous card: most outstanding cards below it, fewest above it.

        Each suit offers its highest card; a short suit's card goes first, to void it,
        unless it is a card that can never win a trick.
        """
        out = table.out
        best, best_danger = -1, -1e9
        for mask in SUIT_MASKS:
            cards = legal & mask
            if not cards:
                continue
            card = highest(cards)
            above = (ABOVE[card] & out).bit_count()
            below = (BELOW[card] & out).bit_count()
            if below:
                danger = below / (below + above + 1) - 0.3 * cards.bit_count()
            else:
                danger = -10.0 - above  # nothing out lies under it: it can never win
            if danger > best_danger:
                best, best_danger = card, danger
        return best


_compiled = LazyModule("strategies.minnesota_heuristic_compiled",
                       warm_up=playing("minnesota_whist", MinnesotaHeuristic, deals=3))
"""The numba path: imported, and its kernels compiled by playing 3 deals, when the
first heuristic that plays compiled is built (``strategies.lazy_module``)."""


STILL_TO_PLAY = tuple(
    tuple(
        tuple((seat + k) % 4 for k in range(1, 4 - played) if (seat + k) % 4 != (seat + 2) % 4)
        for played in range(4)
    )
    for seat in range(4)
)
"""``STILL_TO_PLAY[seat][n]``: the opponents of ``seat`` still to play after it, ``n``
cards being on the trick before its own (its partner left out)."""


def _winning_index(trick: tuple[int, ...]) -> int:
    """Index of the card winning a (partial) trick: the highest of the suit led."""
    best, best_i = trick[0], 0
    lead_suit = best // 13
    for i in range(1, len(trick)):
        card = trick[i]
        if card > best and card // 13 == lead_suit:
            best, best_i = card, i
    return best_i


def _cards_low_first(cards: int) -> list[int]:
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


_TRICKS = TrickMemo(_fold_trick, _NO_TRICKS)
"""The completed tricks' summary, shared by this heuristic's players (``TrickMemo``)."""
