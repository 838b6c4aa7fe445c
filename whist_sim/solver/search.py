"""Exact open-card ("double-dummy") search: tricks side 0 takes with best play by all.

The search answers yes/no questions, "does side 0 take at least ``target`` of the
tricks left?" (a zero-window alpha-beta test), and ``solve`` narrows the answer
between its bounds with such tests (MTD(f) style: the first asks for a quick first
guess, each later one a trick up or down; the table keeps what every test learnt, so
later tests are cheap). What makes it fast enough in plain Python:

- a transposition table at each trick start, keyed on the hands in *relative* ranks
  (in each suit only the order of the cards still out matters: once the two and the
  four are gone, the three and the five play alike) and the seat on lead; it stores
  a lower and an upper bound of the value, so every test refines it;
- one move per group of equivalent cards: cards of one hand with no live card (in
  any hand or on the current trick) between them give the same result;
- sure tricks bound the value before any move is tried: top trumps, and between
  two players a trump length beyond the other's (a trump loses only to a higher
  trump on the same trick); quick tricks, the top cards the side on lead can cash
  at once (objective ``most`` only: under ``none`` nobody wants them);
- move ordering: leads the fewest other cards outrank first (winners, then the
  strongest tries), follows the cheapest winner first, else the lowest card (under
  ``none``: the lowest leads, the highest card that does not win first).

Values are tricks of side 0 among the tricks still to play, the current one
included. Who wants what: under ``most`` side 0 maximises its tricks and side 1
minimises them; under ``none`` side 0 minimises them and side 1 maximises them. So
under ``most`` every player wants its side to win tricks, under ``none`` to lose them.

State is plain ints and one list of hands changed in place and restored: no
objects on the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

from whist_sim.cards import SUIT_BITS, SUIT_MASKS
from whist_sim.solver.inputs import SolverInputError, check_position, check_target

BELOW = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
"""Cards of the same suit below each card."""
RANK = tuple(c % 13 for c in range(52))
"""Rank of each card, as a tuple so ``sorted(key=RANK.__getitem__)`` stays in C."""


def representatives(cards: int, live: int) -> list[int]:
    """The lowest card of each run of ``cards`` that no other ``live`` card splits.

    Holding 8 and 6 of a suit once the 7 is gone, playing either comes to the same,
    so only the 6 is tried. Lowest card number first.
    """
    out = []
    rest = cards
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        below = live & BELOW[card]
        if not below or not cards >> (below.bit_length() - 1) & 1:
            out.append(card)
    return out


class Search:
    """A search with its table, for one table setting: players, trump, sides, objective.

    Reuse it for several positions of the same deal (``best_move`` does); build a new
    one when any setting changes, since the stored values depend on all of them.
    """

    def __init__(self, players: int, trump: int, sides: Sequence[int], objective: str) -> None:
        self.players = players
        self.trump = trump
        self.trump_mask = SUIT_MASKS[trump] if trump >= 0 else 0
        self.sides = tuple(sides)
        self.max_side = 0 if objective == "most" else 1
        self.want_win = objective == "most"
        self.table: dict[int, tuple[int, int]] = {}
        self._norm: dict[int, int] = {}
        self._keys: dict[int, int] = {}
        self.nodes = 0
        """Moves tried so far (for benchmarks)."""

    # -- the value of a position ----------------------------------------------------
    def value(self, hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> int:
        """Exact tricks of side 0 from this position (checked beforehand by the caller)."""
        state = self.root(hands, leader, trick)
        return self.exact(state, 0, state[0][(leader + len(trick)) % self.players].bit_count())

    def root(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> tuple:
        """The arguments of ``move`` (less the target) for a position inside a trick."""
        live = 0
        for hand in hands:
            live |= hand
        led, best_card, best_seat = -1, -1, -1
        for i, card in enumerate(trick):
            live |= 1 << card
            if i == 0 or self.beats(card, best_card):
                best_card, best_seat = card, (leader + i) % self.players
            led = trick[0] // 13
        return (list(hands), leader, len(trick), live, led, best_card, best_seat)

    def exact(self, state: tuple, lo: int, hi: int) -> int:
        """The value of ``state``, known to lie in ``lo..hi``, by zero-window tests.

        The first test asks for the tricks of the first guess (``first_guess``), each
        later one a trick up or down from the last until two straddle the value. This
        searched 15% fewer positions than halving the interval on German Whist stage-2
        starts: the guess is often right or one off, and tests near the value cost most.
        """
        if lo == hi:
            return lo
        target = min(max(self.first_guess(state), lo + 1), hi)
        while lo < hi:
            if self.move(*state, target):
                lo = target
                target += 1
            else:
                hi = target - 1
                target -= 1
        return lo

    def first_guess(self, state: tuple) -> int:
        """Side 0's tricks when every seat plays the move it would try first."""
        hands, leader, pos, live, led, best_card, best_seat = state
        hands = list(hands)
        players = self.players
        won = 0
        while hands[(leader + pos) % players]:
            seat = (leader + pos) % players
            card = self.ordered_moves(hands[seat], seat, pos, live, led, best_card,
                                      best_seat)[0]
            hands[seat] ^= 1 << card
            if pos == 0:
                led, best_card, best_seat = card // 13, card, seat
            elif self.beats(card, best_card):
                best_card, best_seat = card, seat
            pos += 1
            if pos == players:
                won += 1 if self.sides[best_seat] == 0 else 0
                leader, pos, led = best_seat, 0, -1
                live = 0
                for hand in hands:
                    live |= hand
        return won

    def beats(self, card: int, best: int) -> bool:
        suit, best_suit = card // 13, best // 13
        if suit == best_suit:
            return card > best
        return suit == self.trump

    def last_trick_winner(self, hands: list[int], leader: int) -> int:
        """The seat that wins the trick when every hand holds one card."""
        players = self.players
        best_seat = leader
        best = hands[leader].bit_length() - 1
        for pos in range(1, players):
            seat = (leader + pos) % players
            card = hands[seat].bit_length() - 1
            if self.beats(card, best):
                best, best_seat = card, seat
        return best_seat

    # -- the zero-window tests ------------------------------------------------------
    def at_least(self, hands: list[int], leader: int, target: int) -> bool:
        """At a trick start: does side 0 take ``target`` or more of the tricks left?"""
        if target <= 0:
            return True
        n = hands[leader].bit_count()
        if target > n:
            return False
        if n == 1:  # every play is forced: target is 1, is the last trick side 0's?
            return self.sides[self.last_trick_winner(hands, leader)] == 0
        key = self.key(hands, leader)
        bounds = self.table.get(key)
        if bounds is None:
            lo, hi = self.quick_bounds(hands, leader, n)
        else:
            lo, hi = bounds
        if lo >= target:
            result = True
        elif hi < target:
            result = False
        else:
            live = 0
            for hand in hands:
                live |= hand
            result = self.move(hands, leader, 0, live, -1, -1, -1, target)
            if result:
                lo = target
            else:
                hi = target - 1
        self.table[key] = (lo, hi)
        return result

    def move(self, hands: list[int], leader: int, pos: int, live: int, led: int,
             best_card: int, best_seat: int, target: int) -> bool:
        """Inside a trick: the seat ``pos`` places after ``leader`` is to move.

        ``live`` holds every card in hand at the trick start (so the cards on the trick
        too), ``led`` the suit led (-1 before the lead), ``best_card`` and ``best_seat``
        who wins the trick so far.
        """
        players = self.players
        if pos == players:
            won = 1 if self.sides[best_seat] == 0 else 0
            return self.at_least(hands, best_seat, target - won)
        self.nodes += 1
        seat = leader + pos
        if seat >= players:
            seat -= players
        hand = hands[seat]
        maximise = self.sides[seat] == self.max_side
        for card in self.ordered_moves(hand, seat, pos, live, led, best_card, best_seat):
            hands[seat] = hand ^ (1 << card)
            if pos == 0:
                result = self.move(hands, leader, 1, live, card // 13, card, seat, target)
            elif self.beats(card, best_card):
                result = self.move(hands, leader, pos + 1, live, led, card, seat, target)
            else:
                result = self.move(hands, leader, pos + 1, live, led, best_card, best_seat,
                                   target)
            hands[seat] = hand
            if result == maximise:
                return result
        return not maximise

    # -- moves and their order ------------------------------------------------------
    def ordered_moves(self, hand: int, seat: int, pos: int, live: int, led: int,
                      best_card: int, best_seat: int) -> list[int]:
        """The cards ``seat`` tries, one per group, best guesses first.

        Leading: ``leads``. Following, wanting tricks: the cheapest winner first, then
        the lowest cards, or the lowest first when a partner is winning the trick.
        Wanting none: the highest card that does not win first, then the winners from
        the highest.
        """
        if pos == 0:
            return self.leads(hand, live)
        winners, losers = self.split(hand & SUIT_MASKS[led] or hand, live, best_card)
        if not self.want_win:
            return losers[::-1] + winners[::-1]
        if self.sides[best_seat] == self.sides[seat]:  # partner wins: play low
            return sorted(winners + losers, key=RANK.__getitem__)
        return winners + losers

    def leads(self, hand: int, live: int) -> list[int]:
        """Leads to try, best guesses first.

        Wanting tricks: the cards fewest other cards outrank first (so winners come
        first and then the strongest tries), side suits before trumps, then the suits
        the others hold fewest cards of. This ordering roughly halved the nodes of
        full German Whist positions against "winners first, then low cards". Wanting
        to lose: the lowest cards first.
        """
        cards = representatives(hand, live)
        if not self.want_win:
            return sorted(cards, key=RANK.__getitem__)
        others = live & ~hand
        trump = self.trump

        def order(card: int) -> tuple[int, bool, int]:
            suit = SUIT_MASKS[card // 13]
            return ((others & suit & ~BELOW[card]).bit_count(), card // 13 == trump,
                    (others & suit).bit_count())

        return sorted(cards, key=order)

    def split(self, legal: int, live: int, best: int) -> tuple[list[int], list[int]]:
        """The cards of ``legal`` (one per group) that beat ``best``, and the others.

        Both lowest first. The winners are all of one suit (the suit led when it is
        held, else trumps), so the first is the cheapest winner.
        """
        winners = []
        losers = []
        for card in representatives(legal, live):
            if self.beats(card, best):
                winners.append(card)
            else:
                losers.append(card)
        losers.sort(key=RANK.__getitem__)
        return winners, losers

    # -- table keys and bounds ------------------------------------------------------
    def key(self, hands: list[int], leader: int) -> int:
        """The position in relative ranks, with the seat on lead, as one int.

        The relative form of each exact set of hands is remembered: the tests of
        ``exact`` revisit the same positions many times.
        """
        exact = 0
        for hand in hands:
            exact = (exact << 52) | hand
        rel = self._keys.get(exact)
        if rel is None:
            rel = self._keys[exact] = self._relative(hands)
        return (rel << 2) | leader

    def _relative(self, hands: list[int]) -> int:
        players = self.players
        norm = self._norm
        key = 0
        for shift in (0, 13, 26, 39):
            packed = 0
            for i in range(players):
                packed |= ((hands[i] >> shift) & SUIT_BITS) << (13 * i)
            rel = norm.get(packed)
            if rel is None:
                rel = norm[packed] = self._normalise(packed)
            key = (key << 52) | rel
        return key

    def _normalise(self, packed: int) -> int:
        """Each hand's cards of one suit renumbered by rank among the live cards of it."""
        players = self.players
        parts = [(packed >> (13 * i)) & SUIT_BITS for i in range(players)]
        out = 0
        rank = 0
        for bit in range(13):
            for i in range(players):
                if parts[i] >> bit & 1:
                    out |= 1 << (13 * i + rank)
                    rank += 1
                    break
        return out

    def quick_bounds(self, hands: list[int], leader: int, n: int) -> tuple[int, int]:
        """Bounds on the value from tricks one side is sure to take.

        Top trumps: the seat holding the highest trump left wins a trick with it and
        with each trump below it that it also holds, down to the first held by another
        seat, whenever it plays them and whatever anybody wants (true under ``none``
        too). Between two players lower trumps are sure tricks too: a trump loses only
        to a higher trump played on the same trick, and each player plays at most as
        many trumps as it holds. So the holder of the top trumps also wins ``length -
        tops - their length`` of its lower trumps (when positive), and the other player
        ``their length - length`` of its own. Quick tricks, only when tricks are wanted
        (``most``): the leader cashes, suit by suit, its cards above every card the
        other seats hold there (all of them if they are void), while no other seat holds
        a trump or the suit is trumps.
        Partners count as others: a partner who overtakes takes the lead away, and the
        leader's next winner may then never be led.
        """
        lo, hi = 0, n
        trump_mask = self.trump_mask
        if trump_mask:
            trumps = 0
            for hand in hands:
                trumps |= hand & trump_mask
            if trumps:
                top = trumps.bit_length() - 1
                seat = next(i for i in range(self.players) if hands[i] >> top & 1)
                hand = hands[seat]
                count = 0
                while trumps and hand >> (trumps.bit_length() - 1) & 1:
                    count += 1
                    trumps ^= 1 << (trumps.bit_length() - 1)
                theirs = 0
                if self.players == 2:
                    mine = (hand & trump_mask).bit_count()
                    theirs = (hands[1 - seat] & trump_mask).bit_count()
                    count += max(0, mine - count - theirs)
                    theirs = max(0, theirs - mine)
                if self.sides[seat] == 0:
                    lo, hi = count, n - theirs
                else:
                    lo, hi = theirs, n - count
        if not self.want_win:
            return lo, hi
        others = 0
        for seat in range(self.players):
            if seat != leader:
                others |= hands[seat]
        hand = hands[leader]
        ruffs = others & trump_mask
        quick = 0
        for suit in range(4):
            mine = hand & SUIT_MASKS[suit]
            if not mine or (ruffs and suit != self.trump):
                continue
            theirs = others & SUIT_MASKS[suit]
            if theirs:
                mine &= ~((1 << theirs.bit_length()) - 1)
            quick += mine.bit_count()
        if self.sides[leader] == 0:
            return max(lo, quick), hi
        return lo, min(hi, n - quick)


def solve(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
          objective: str = "most", trick: Sequence[int] = ()) -> int:
    """Tricks (of those left, the current one included) side 0 takes with best play.

    ``hands``: card masks of 2..4 seats in seat order; ``leader``: the seat that led
    ``trick`` (or leads next when it is empty); ``trump``: a suit 0..3 or -1;
    ``sides[seat]``: 0 or 1; ``objective``: ``"most"`` (side 0 maximises its tricks,
    side 1 minimises them) or ``"none"`` (side 0 minimises, side 1 maximises).
    Raises ``SolverInputError`` for a position that cannot arise.
    """
    check_position(hands, leader, trump, sides, objective, trick)
    return Search(len(hands), trump, sides, objective).value(hands, leader, trick)


def takes_at_least(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
                   objective: str, trick: Sequence[int], target: int) -> bool:
    """Does side 0 take ``target`` or more of the tricks left with best play (as ``solve``)?

    One zero-window test instead of the several that pin down the exact count: on
    German Whist stage-2 starts, about a third of the time. For a caller whose payoff
    only changes at a few trick counts (a hand won or lost).
    """
    check_position(hands, leader, trump, sides, objective, trick)
    check_target(target)
    players = len(hands)
    search = Search(players, trump, sides, objective)
    state = search.root(hands, leader, trick)
    left = state[0][(leader + len(trick)) % players].bit_count()
    if target <= 0:
        return True
    if target > left:
        return False
    return search.move(*state, target)


def best_move(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
              objective: str = "most", trick: Sequence[int] = ()) -> tuple[int, int]:
    """The best card for the seat to move and the value it keeps (as ``solve``).

    Of several equally good cards the first tried is returned; of cards that play
    alike (no live card between them) the lowest.
    """
    check_position(hands, leader, trump, sides, objective, trick)
    players = len(hands)
    search = Search(players, trump, sides, objective)
    state = search.root(hands, leader, trick)
    hand_list, _, pos, live, led, best_card, best_seat = state
    seat = (leader + pos) % players
    hand = hand_list[seat]
    if not hand:
        raise SolverInputError(f"hands[{seat}] is empty: seat {seat} (to move) has no card to play")
    n = hand.bit_count()
    maximise = search.sides[seat] == search.max_side
    if pos == 0:
        moves = search.leads(hand, live)
    else:
        winners, losers = search.split(hand & SUIT_MASKS[led] or hand, live, best_card)
        moves = winners + losers
    best, best_value = -1, -1
    for card in moves:
        hand_list[seat] = hand ^ (1 << card)
        if pos == 0:
            child = (hand_list, leader, 1, live, card // 13, card, seat)
        elif search.beats(card, best_card):
            child = (hand_list, leader, pos + 1, live, led, card, seat)
        else:
            child = (hand_list, leader, pos + 1, live, led, best_card, best_seat)
        if best < 0:
            best, best_value = card, search.exact(child, 0, n)
        elif maximise and best_value < n and search.move(*child, best_value + 1):
            best, best_value = card, search.exact(child, best_value + 1, n)
        elif not maximise and best_value > 0 and not search.move(*child, best_value):
            best, best_value = card, search.exact(child, 0, best_value - 1)
        hand_list[seat] = hand
    return best, best_value
