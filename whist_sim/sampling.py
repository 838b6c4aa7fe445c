"""World sampling: deal the cards a seat has not seen, uniformly among the deals its view allows.

``sample_world(view, rng)`` is the one door through which a search strategy gets
hidden cards (OpenSpiel's ``ResampleFromInfostate``): it reads the view only, never
the deal state, and returns a ``World`` holding every seat's current hand (plus the
face-down stock of German Whist and the undealt rest of a Knock-out pack).
``check_world(view, world)`` raises ``SamplingError`` when a world breaks one of the
constraints below; the sampler's worlds and the true deal both pass it.

What "uniform" means. The pack is shuffled uniformly, so every complete deal (every
order of the pack) that produces what the seat saw is equally likely. We sample
exactly that distribution and return the deal's present: a world is weighted by the
number of consistent deals behind it. In Solo, Minnesota and Knock-out Whist nobody
draws, so each world has exactly one deal behind it and the worlds themselves are
uniform. In German Whist stage 1 they are not: a hidden card of a suit the opponent
once failed to follow must have been drawn after that trick, and a world needing
such draws has fewer histories behind it (weighting worlds equally would, for
example, make the opponent's one face-down draw after showing out of hearts far more
likely to be a heart than the stock's share of hearts).

Constraints used, per game (the seat's own hand is always exact):
- every card seen (played, shown, held) is where the view puts it and nowhere else;
- hand sizes follow from the deal and the cards each seat has played;
- a player who did not follow the suit led held no card of that suit then.
  Solo / Minnesota / Knock-out: then means for the rest of the deal (round); a
  Knock-out dog's card never shows a void (a dog need not follow suit), and a knock
  shows nothing. German Whist: the opponent's face-up takes are public with their
  trick, its face-down draws are hidden cards arriving after a known trick, so a
  void binds only cards that were in its hand at that trick.
- Solo: the dealer holds the upcard until it is played; a Spread Misère declarer's
  exposed hand is known. Minnesota: turned cards stay with their owners until played.
  Knock-out: the undealt rest of the pack (and round 1's upcard) can hold any card.

Algorithms.
- Solo, Minnesota, Knock-out: seats with the same set of possible suits are pooled
  into one bin (a seat with no void shares the bin of the undealt pack). Counts per
  suit are drawn suit by suit with exact weights (multinomial ways times the number of
  completions of the later suits, an exact integer count by dynamic programming),
  then each suit's cards are shuffled into the drawn counts and each bin is split
  uniformly among its seats. Every world has probability 1/(number of worlds): the
  count table is chosen with probability ways(table)/total and each of its ways
  equally. No rejection, so it always terminates; no consistent world is an error.
- German Whist: the opponent's 13 dealt cards, each of its hidden face-down draws and
  each remaining stock position are slots with an arrival time; a card fits a slot if
  it arrived before it was played (or is still held / in the stock) and not before the
  last trick where its suit was shown out. Filling the slots from the latest to the
  earliest, cards with the same "last shown out" time are alike for every later slot,
  so the number of consistent deals behind each make-up of the stock is an exact
  integer count over a handful of states (``_GermanCounter``). The stock's make-up is
  drawn with probability count/total, its cards uniformly within that make-up, its
  order uniformly; the opponent holds the rest of the unseen cards. That is the deal
  distribution exactly, with no rejection: it always terminates, and a total of zero
  (no consistent deal) is an error naming the opponent's voids and draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from whist_sim.cards import FULL_DECK, SUIT_MASKS, SUIT_NAMES, card_str, cards_of, cards_str
from whist_sim.games.base import TrickRecord, WhistSimError
from whist_sim.games.german_whist import GermanWhistView
from whist_sim.games.knockout_whist import DOG, IN, KnockoutWhistView
from whist_sim.games.minnesota_whist import MinnesotaWhistView
from whist_sim.games.solo_whist import CONTRACTS, SoloWhistView

ALL_SUITS = 0b1111
_HELD = 101  # "played at" time of a card still held or still in the stock


class SamplingError(WhistSimError, ValueError):
    """A view (or a world) breaks a constraint; the message names the seat and the constraint."""


@dataclass(frozen=True)
class World:
    """One complete present consistent with a seat's view."""

    hands: tuple[int, ...]
    """Every seat's current hand as a card mask (0 for a seat holding nothing)."""
    stock: tuple[int, ...] = ()
    """German Whist: the face-down stock cards, next to be drawn first."""
    undealt: int = 0
    """Knock-out Whist: cards not dealt this round, round 1's upcard included."""


_RNG_METHODS = ("randrange", "shuffle", "sample", "getrandbits")


def check_rng(caller: str, rng: Any) -> None:
    """``rng`` must be a ``random.Random`` (or act like one): an int seed or None failed deep
    inside the sampler as "'int' object has no attribute 'randrange'"."""
    if isinstance(rng, random.Random) or all(hasattr(rng, m) for m in _RNG_METHODS):
        return
    raise TypeError(f"{caller}: rng = {rng!r} is not allowed; allowed values: a random.Random"
                    " (e.g. random.Random(1)), not a seed")


def sample_world(view: Any, rng: random.Random) -> World:
    """A world drawn uniformly among the deals consistent with ``view`` (see the module doc)."""
    check_rng("sample_world", rng)
    if isinstance(view, GermanWhistView):
        return sample_german(view, rng)
    if isinstance(view, SoloWhistView):
        return sample_solo(view, rng)
    if isinstance(view, MinnesotaWhistView):
        return sample_minnesota(view, rng)
    if isinstance(view, KnockoutWhistView):
        return sample_knockout(view, rng)
    raise TypeError(f"sample_world does not know views of type {type(view).__name__}; give a"
                    " seat's view, state.view(seat)")


def check_world(view: Any, world: World) -> None:
    """Raise SamplingError naming the first constraint of ``view`` that ``world`` breaks."""
    if isinstance(view, GermanWhistView):
        _check_german(view, world)
        return
    if isinstance(view, KnockoutWhistView):
        spec = _knockout_spec(view)
    elif isinstance(view, SoloWhistView):
        spec = _solo_spec(view)
    elif isinstance(view, MinnesotaWhistView):
        spec = _minnesota_spec(view)
    else:
        raise TypeError(f"check_world does not know views of type {type(view).__name__}")
    spec.check(world)


# -- games without draws: a table of counts per suit --------------------------------------


@dataclass
class _Spec:
    """Hidden-card constraints of a game without draws: sizes, known cards, voids."""

    seat: int
    hand: int
    sizes: list[int]
    """Cards each seat holds now."""
    known: list[int]
    """Cards each seat is known to hold (its own hand for the viewing seat)."""
    voids: list[int]
    """Per seat, a 4-bit mask of the suits it is known not to hold."""
    void_tricks: list[dict[int, int]]
    """Per seat, suit -> trick number where it first showed out (for messages)."""
    placed: int
    """Cards known to be outside every hand: played, and round 1's upcard in Knock-out."""
    undealt_size: int = 0
    """Cards in the undealt pack (Knock-out), known ones included."""
    undealt_known: int = 0
    """Undealt cards the seat has seen (round 1's upcard)."""

    def check_view(self) -> None:
        for seat, cards in enumerate(self.known):
            if seat == self.seat:
                continue
            if cards.bit_count() > self.sizes[seat]:
                raise SamplingError(
                    f"seat {seat} is known to hold {cards_str(cards)} but holds only"
                    f" {self.sizes[seat]} cards"
                )
            for suit in range(4):
                if self.voids[seat] >> suit & 1 and cards & SUIT_MASKS[suit]:
                    raise SamplingError(
                        f"seat {seat} is known to hold {cards_str(cards & SUIT_MASKS[suit])}"
                        f" but showed out of {SUIT_NAMES[suit]} at trick"
                        f" {self.void_tricks[seat][suit]}"
                    )
        if self.hand.bit_count() != self.sizes[self.seat]:
            raise SamplingError(
                f"seat {self.seat} holds {self.hand.bit_count()} cards but should hold"
                f" {self.sizes[self.seat]}"
            )

    def unseen(self) -> int:
        seen = self.placed | self.undealt_known
        for cards in self.known:
            seen |= cards
        return FULL_DECK & ~seen

    def check(self, world: World) -> None:
        hands = world.hands
        if len(hands) != len(self.sizes):
            raise SamplingError(f"the world has {len(hands)} hands, not {len(self.sizes)}")
        if hands[self.seat] != self.hand:
            raise SamplingError(f"seat {self.seat}'s own hand differs from its view")
        total = self.placed | world.undealt
        for seat, hand in enumerate(hands):
            if hand.bit_count() != self.sizes[seat]:
                raise SamplingError(
                    f"seat {seat} holds {hand.bit_count()} cards, not {self.sizes[seat]}"
                )
            if self.known[seat] & ~hand:
                raise SamplingError(
                    f"seat {seat} lacks {cards_str(self.known[seat] & ~hand)}, known to be held"
                )
            for suit in range(4):
                if self.voids[seat] >> suit & 1 and hand & SUIT_MASKS[suit]:
                    raise SamplingError(
                        f"seat {seat} holds {cards_str(hand & SUIT_MASKS[suit])} but showed"
                        f" out of {SUIT_NAMES[suit]} at trick {self.void_tricks[seat][suit]}"
                    )
            if total & hand:
                raise SamplingError(f"seat {seat} holds {cards_str(total & hand)}, placed twice")
            total |= hand
        if self.undealt_known & ~world.undealt:
            raise SamplingError(f"{cards_str(self.undealt_known)} must be in the undealt pack")
        if world.undealt.bit_count() != self.undealt_size:
            raise SamplingError(
                f"the undealt pack has {world.undealt.bit_count()} cards, not {self.undealt_size}"
            )
        if total != FULL_DECK:
            raise SamplingError(f"{cards_str(FULL_DECK & ~total)} are nowhere in the world")

    def prepare(self) -> _Prepared:
        """Check the view and build what every draw from it shares: bins and count table."""
        self.check_view()
        players = len(self.sizes)
        # Bins: one per distinct set of possible suits; the undealt pack has no constraint.
        bin_of: dict[int, int] = {}
        bin_allowed: list[int] = []
        bin_members: list[list[tuple[int, int]]] = []  # (seat or -1 for undealt, free slots)
        needs = [(s, self.sizes[s] - self.known[s].bit_count()) for s in range(players)]
        needs.append((-1, self.undealt_size - self.undealt_known.bit_count()))
        for seat, need in needs:
            if seat == self.seat or need == 0:
                continue
            allowed = ALL_SUITS if seat < 0 else ALL_SUITS & ~self.voids[seat]
            if allowed not in bin_of:
                bin_of[allowed] = len(bin_allowed)
                bin_allowed.append(allowed)
                bin_members.append([])
            bin_members[bin_of[allowed]].append((seat, need))
        caps = tuple(sum(need for _, need in members) for members in bin_members)
        unseen = self.unseen()
        suit_cards = [cards_of(unseen & SUIT_MASKS[s]) for s in range(4)]
        if sum(caps) != unseen.bit_count():
            raise SamplingError(
                f"seat {self.seat}'s view leaves {unseen.bit_count()} unseen cards for"
                f" {sum(caps)} hidden places"
            )
        table = _TableCounter([len(c) for c in suit_cards], bin_allowed)
        if table.count(0, caps) == 0:
            raise SamplingError(self._diagnose(unseen))
        hands = list(self.known)
        hands[self.seat] = self.hand
        return _Prepared(hands, self.undealt_known, bin_members, caps, suit_cards, table)

    def _diagnose(self, unseen: int) -> str:
        for seat in range(len(self.sizes)):
            if seat == self.seat or not self.voids[seat]:
                continue
            need = self.sizes[seat] - self.known[seat].bit_count()
            room = unseen & ~sum(SUIT_MASKS[s] for s in range(4) if self.voids[seat] >> s & 1)
            if room.bit_count() < need:
                shown = ", ".join(
                    f"{SUIT_NAMES[s]} at trick {t}"
                    for s, t in sorted(self.void_tricks[seat].items())
                )
                return (
                    f"seat {seat} must hold {need} more cards but only {room.bit_count()} unseen"
                    f" cards are outside the suits it showed out of ({shown})"
                )
        return (
            f"seat {self.seat}'s view has no consistent world: the known voids"
            f" {self.void_tricks} leave too few cards for some group of seats"
        )


@dataclass
class _Prepared:
    """Everything a draw from one view needs but the random choices (``_Spec.prepare``)."""

    known_hands: list[int]
    undealt_known: int
    bin_members: list[list[tuple[int, int]]]
    caps: tuple[int, ...]
    suit_cards: list[list[int]]
    table: _TableCounter

    def draw(self, rng: random.Random) -> World:
        """A uniform world: each suit's split over the bins by its exact weight, the
        suit's cards shuffled into it, each bin's cards shuffled among its seats."""
        caps = self.caps
        bin_cards = [0] * len(caps)
        for suit in range(4):
            x = self.table.draw(suit, caps, rng)
            cards = self.suit_cards[suit][:]
            rng.shuffle(cards)
            start = 0
            for b, n in enumerate(x):
                for card in cards[start:start + n]:
                    bin_cards[b] |= 1 << card
                start += n
            caps = _minus(caps, x)
        hands = self.known_hands[:]
        undealt = self.undealt_known
        for b, members in enumerate(self.bin_members):
            cards = cards_of(bin_cards[b])
            rng.shuffle(cards)
            start = 0
            for seat, need in members:
                part = 0
                for card in cards[start:start + need]:
                    part |= 1 << card
                start += need
                if seat < 0:
                    undealt |= part
                else:
                    hands[seat] |= part
        return World(tuple(hands), (), undealt)


class _TableCounter:
    """Exact number of ways to deal suits ``s..3`` into bins with the remaining capacities."""

    def __init__(self, suit_sizes: list[int], bin_allowed: list[int]) -> None:
        self.suit_sizes = suit_sizes
        self.bins_for = [
            [b for b, allowed in enumerate(bin_allowed) if allowed >> s & 1] for s in range(4)
        ]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.weights: dict[tuple[int, tuple[int, ...]], tuple[list, int]] = {}

    def splits(self, suit: int, caps: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each way to split this suit's count over its bins, with its multinomial weight."""
        bins = self.bins_for[suit]
        out: list[tuple[tuple[int, ...], int]] = []

        def rec(i: int, left: int, x: list[int], ways: int) -> None:
            if i == len(bins):
                if left == 0:
                    out.append((tuple(x), ways))
                return
            b = bins[i]
            for n in range(min(left, caps[b]) + 1):
                x[b] = n
                rec(i + 1, left - n, x, ways * comb(left, n))
            x[b] = 0

        rec(0, self.suit_sizes[suit], [0] * len(caps), 1)
        return out

    def count(self, suit: int, caps: tuple[int, ...]) -> int:
        if suit == 4:
            return int(not any(caps))
        key = (suit, caps)
        if key not in self.memo:
            self.memo[key] = sum(
                ways * self.count(suit + 1, _minus(caps, x))
                for x, ways in self.splits(suit, caps)
            )
        return self.memo[key]

    def draw(self, suit: int, caps: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
        """A split of ``suit`` drawn with probability proportional to its completions
        (the weights are kept: draws from one view repeat the same few states)."""
        key = (suit, caps)
        known = self.weights.get(key)
        if known is None:
            weighted = [
                (x, ways * self.count(suit + 1, _minus(caps, x)))
                for x, ways in self.splits(suit, caps)
            ]
            known = self.weights[key] = (weighted, sum(w for _, w in weighted))
        return _pick(known[0], known[1], rng)


def _pick(
    weighted: list[tuple[tuple[int, ...], int]], total: int, rng: random.Random
) -> tuple[int, ...]:
    """An item drawn with probability weight/total (exact: integer weights, randrange)."""
    pick = rng.randrange(total)
    for item, weight in weighted:
        if pick < weight:
            return item
        pick -= weight
    raise AssertionError("unreachable: pick is below the total weight")


def _minus(caps: tuple[int, ...], x: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c - n for c, n in zip(caps, x, strict=True))


def _trick_cards(
    tricks: Sequence[TrickRecord], trick: tuple[int, ...], leader: int, players: int
) -> list[tuple[int, list[tuple[int, int]]]]:
    """(trick number, [(seat, card), ...]) for completed tricks and the current one."""
    out = [
        (r.number, [((r.leader + i) % players, c) for i, c in enumerate(r.cards)]) for r in tricks
    ]
    if trick:
        out.append((len(tricks) + 1, [((leader + i) % players, c) for i, c in enumerate(trick)]))
    return out


def _fixed_order_spec(
    seat: int, hand: int, players: int, per_trick: list[tuple[int, list[tuple[int, int]]]],
    dealt: int,
) -> _Spec:
    sizes = [dealt] * players
    voids = [0] * players
    void_tricks: list[dict[int, int]] = [{} for _ in range(players)]
    placed = 0
    for number, plays in per_trick:
        led = plays[0][1] // 13
        for i, (who, card) in enumerate(plays):
            sizes[who] -= 1
            placed |= 1 << card
            if i and card // 13 != led and not voids[who] >> led & 1:
                voids[who] |= 1 << led
                void_tricks[who][led] = number
    known = [0] * players
    known[seat] = hand
    return _Spec(seat, hand, sizes, known, voids, void_tricks, placed)


def _solo_spec(view: SoloWhistView) -> _Spec:
    per_trick = _trick_cards(view.tricks, view.trick, view.leader, 4)
    spec = _fixed_order_spec(view.seat, view.hand, 4, per_trick, 13)
    if view.upcard >= 0 and view.upcard_held and view.dealer != view.seat:
        spec.known[view.dealer] |= 1 << view.upcard
    exposed = (
        view.contract >= 0 and CONTRACTS[view.contract].name == "spread_misere"
        and len(view.tricks) >= 1 and view.declarer != view.seat
    )
    if exposed:
        spec.known[view.declarer] |= view.exposed
    return spec


def _minnesota_spec(view: MinnesotaWhistView) -> _Spec:
    per_trick = _trick_cards(view.tricks, view.trick, view.leader, 4)
    spec = _fixed_order_spec(view.seat, view.hand, 4, per_trick, 13)
    for owner, card in view.turned:
        if owner != view.seat and not spec.placed >> card & 1:
            spec.known[owner] |= 1 << card
    return spec


def _knockout_spec(view: KnockoutWhistView) -> _Spec:
    players = view.players
    sizes = [0] * players
    for seat, status in enumerate(view.status):
        sizes[seat] = view.cards_dealt if status == IN else 1 if status == DOG else 0
    dealt = sum(sizes)
    voids = [0] * players
    void_tricks: list[dict[int, int]] = [{} for _ in range(players)]
    placed = 0
    rounds = list(zip(view.tricks, view.trick_players, strict=True))
    numbered = [(r.number, list(zip(who, r.cards, strict=True))) for r, who in rounds]
    if view.trick:
        current = list(zip(view.trick_seats, view.trick, strict=True))
        numbered.append((len(view.tricks) + 1, current))
    for number, plays in numbered:
        led = plays[0][1] // 13
        for i, (who, card) in enumerate(plays):
            sizes[who] -= 1
            placed |= 1 << card
            # A dog need not follow suit, so its card shows nothing.
            if i and card // 13 != led and view.status[who] == IN and not voids[who] >> led & 1:
                voids[who] |= 1 << led
                void_tricks[who][led] = number
    known = [0] * players
    known[view.seat] = view.hand
    upcard = 1 << view.upcard if view.upcard >= 0 else 0
    return _Spec(
        view.seat, view.hand, sizes, known, voids, void_tricks, placed, 52 - dealt, upcard
    )


def sample_solo(view: SoloWhistView, rng: random.Random) -> World:
    """Solo Whist: upcard with the dealer until played, a Spread Misère hand once exposed."""
    return _prepared(view, _solo_spec).draw(rng)


def sample_minnesota(view: MinnesotaWhistView, rng: random.Random) -> World:
    """Minnesota Whist: turned bidding cards stay with their owners until played."""
    return _prepared(view, _minnesota_spec).draw(rng)


def sample_knockout(view: KnockoutWhistView, rng: random.Random) -> World:
    """Knock-out Whist (this round): hands of players dealt in, and the undealt pack."""
    return _prepared(view, _knockout_spec).draw(rng)


_last_prepared: tuple[Any, _Prepared | _GermanDraws | None] = (None, None)
"""The last view sampled and what its draws share, as one (view, prepared) pair. A
search draws dozens of worlds per decision from one view object; building the spec
and its count table is most of a draw's cost (measured: about 4/5 in Solo card play),
so it is done once per view. Views are immutable and the view is kept, so identity
cannot be reused by another. The pair is replaced in one store, so a decision cut
short by its time limit (an alarm raised between two statements) never leaves one
view's table under another view."""


def _prepared(view: Any, spec_of: Any) -> Any:
    global _last_prepared
    last_view, prepared = _last_prepared
    if last_view is not view or prepared is None:
        prepared = spec_of(view).prepare()
        _last_prepared = (view, prepared)
    return prepared


# -- German Whist: hidden draws ------------------------------------------------------------


@dataclass
class _GermanSpec:
    seat: int
    opp: int
    opp_size: int
    opp_known: int
    """Face-up cards the opponent took and still holds."""
    opp_played: list[tuple[int, int]]
    """(card, trick) the opponent played that did not come from a public face-up take."""
    draw_times: list[int]
    """Tricks after which the opponent drew a hidden face-down card."""
    shown_out: list[list[int]]
    """Per suit, the tricks (in order) where the opponent showed out of it."""
    unseen: int
    stock_size: int
    hand: int
    """The seat's own hand."""

    def prepare(self) -> _GermanDraws:
        """What every draw from this view shares (``_GermanDraws``)."""
        return _GermanDraws(self)

    def lo(self, card: int, played_at: int) -> int:
        """Earliest arrival of ``card``: the last trick before ``played_at`` where the
        opponent showed out of its suit (0: it may have been dealt)."""
        lo = 0
        for t in self.shown_out[card // 13]:
            if t < played_at:
                lo = t
        return lo

    def cards_and_slots(self, held: int) -> tuple[list[tuple[int, int, int]], list[int]]:
        """Cards (card, lo, hi) to place into the opponent's slots (arrival times)."""
        cards = [(c, self.lo(c, p), p) for c, p in self.opp_played]
        cards += [(c, self.lo(c, _HELD), _HELD) for c in cards_of(held)]
        slots = [0] * 13 + self.draw_times
        return cards, slots


def _german_spec(view: GermanWhistView) -> _GermanSpec:
    seat, opp = view.seat, 1 - view.seat
    taken = view.taken_faceup[opp]
    voids: list[list[int]] = [[], [], [], []]
    opp_played: list[tuple[int, int]] = []
    played_count = [0, 0]
    for number, plays in _trick_cards(view.tricks, view.trick, view.leader, 2):
        led = plays[0][1] // 13
        for i, (who, card) in enumerate(plays):
            played_count[who] += 1
            if who == opp:
                if not taken >> card & 1:
                    opp_played.append((card, number))
                if i and card // 13 != led:
                    voids[led].append(number)
    draws_done = min(len(view.tricks), 13) - (1 if view.phase == "take" else 0)
    k = view.variant.open_stock
    draw_times = [
        r.number for r in view.tricks[:draws_done]
        if r.winner == seat and k + 2 * (r.number - 1) < 26
    ]
    # Each seat got 13 cards and one more after every stage-1 trick (face up or down).
    opp_size = 13 + draws_done - played_count[opp]
    own_size = 13 + draws_done - played_count[seat]
    if view.hand.bit_count() != own_size:
        raise SamplingError(
            f"seat {seat} holds {view.hand.bit_count()} cards but should hold {own_size}"
        )
    return _GermanSpec(
        seat, opp, opp_size, view.opponent_known, opp_played, draw_times, voids,
        view.unseen, view.facedown_left, view.hand,
    )


def sample_german(view: GermanWhistView, rng: random.Random) -> World:
    """German Whist: the opponent's hand and the face-down stock order (see the module doc)."""
    return _prepared(view, _german_spec).draw(rng)


class _GermanDraws:
    """What every draw from one German view shares: the stock's make-ups and their weights.

    Counting them is most of a draw's cost (a German ``pimc`` decision draws 100 worlds
    or more from one view by default), so ``_prepared`` keeps it for the last view, as it
    does for the other games.
    """

    def __init__(self, spec: _GermanSpec) -> None:
        unseen_cards = cards_of(spec.unseen)
        hidden = spec.opp_size - spec.opp_known.bit_count()
        if hidden < 0 or hidden + spec.stock_size != len(unseen_cards):
            raise SamplingError(
                f"seat {spec.opp} must hold {spec.opp_size} cards"
                f" ({cards_str(spec.opp_known)} known) and the stock {spec.stock_size},"
                f" but {len(unseen_cards)} cards are unseen"
            )
        self.spec = spec
        self.counter = _GermanCounter(spec, unseen_cards)
        self.splits = self.counter.stock_splits()
        self.total = sum(w for _, w in self.splits)
        if self.total == 0:
            raise SamplingError(_german_diagnosis(spec))

    def draw(self, rng: random.Random) -> World:
        """A uniform world: the stock's make-up by its weight, then its cards and order."""
        spec = self.spec
        x = _pick(self.splits, self.total, rng)
        stock: list[int] = []
        for cls, n in enumerate(x):
            stock += rng.sample(self.counter.unseen_by_class[cls], n)
        rng.shuffle(stock)
        hands = [0, 0]
        hands[spec.seat] = spec.hand
        hands[spec.opp] = spec.opp_known | spec.unseen & ~sum(1 << c for c in stock)
        return World(tuple(hands), tuple(stock))


class _GermanCounter:
    """Counts the opponent's consistent histories for each make-up of the stock.

    Slots are filled latest first: the stock, then each hidden draw (latest first), then
    the 13 dealt cards. A card becomes a candidate once the slot is before the trick it
    was played at (``hi``) and must be placed before the slots fall below the last trick
    its suit was shown out (``lo``). Cards with the same ``lo`` are alike for every later
    slot, so the count needs only how many unplaced candidates each ``lo`` class holds:
    an exact count with a handful of states, and no rejection.
    """

    def __init__(self, spec: _GermanSpec, unseen_cards: list[int]) -> None:
        played = [(c, spec.lo(c, p), p) for c, p in spec.opp_played]
        unseen = [(c, spec.lo(c, _HELD)) for c in unseen_cards]
        self.los = sorted({lo for _, lo, _ in played} | {lo for _, lo in unseen} | {0})
        index = {lo: i for i, lo in enumerate(self.los)}
        self.unseen_by_class: list[list[int]] = [[] for _ in self.los]
        for card, lo in unseen:
            self.unseen_by_class[index[lo]].append(card)
        self.stock_size = spec.stock_size
        self.draws = sorted(spec.draw_times, reverse=True)
        # Played cards join as candidates at the first (latest) slot before their trick.
        self.arrivals = [[0] * len(self.los) for _ in range(len(self.draws) + 1)]
        for _, lo, hi in played:
            j = next((j for j, t in enumerate(self.draws) if t < hi), len(self.draws))
            self.arrivals[j][index[lo]] += 1
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def stock_splits(self) -> list[tuple[tuple[int, ...], int]]:
        """Each make-up of the stock by class, weighted by its orders times completions."""
        sizes = [len(cards) for cards in self.unseen_by_class]
        out: list[tuple[tuple[int, ...], int]] = []

        def rec(cls: int, left: int, x: list[int], ways: int) -> None:
            if cls == len(sizes):
                if left == 0:
                    rest = tuple(n - k for n, k in zip(sizes, x, strict=True))
                    out.append((tuple(x), ways * self.completions(0, rest)))
                return
            for k in range(min(left, sizes[cls]) + 1):
                x.append(k)
                rec(cls + 1, left - k, x, ways * comb(sizes[cls], k))
                x.pop()

        rec(0, self.stock_size, [], 1)
        return out

    def completions(self, j: int, counts: tuple[int, ...]) -> int:
        """Fillings of draw slots ``j..`` and the dealt hand, ``counts`` candidates per class
        left unplaced before slot ``j``'s arrivals (the dealt hand's 13! orders dropped)."""
        key = (j, counts)
        if key in self.memo:
            return self.memo[key]
        now = [n + a for n, a in zip(counts, self.arrivals[j], strict=True)]
        time = self.draws[j] if j < len(self.draws) else 0
        if any(n and lo > time for n, lo in zip(now, self.los, strict=True)):
            result = 0  # a card left unplaced whose suit was shown out after this slot
        elif j == len(self.draws):
            result = 1
        else:
            result = 0
            for cls, n in enumerate(now):
                if n:
                    now[cls] -= 1
                    result += n * self.completions(j + 1, tuple(now))
                    now[cls] += 1
        self.memo[key] = result
        return result


def _has_matching(cards: list[tuple[int, int, int]], slots: list[int]) -> bool:
    """Can every slot get its own card with lo <= slot < hi, every card used? (Kuhn's
    augmenting paths; at most 52 cards.)"""
    if len(cards) != len(slots):
        return False
    match_of_slot = [-1] * len(slots)

    def augment(ci: int, seen: list[bool]) -> bool:
        _, lo, hi = cards[ci]
        for si, t in enumerate(slots):
            if lo <= t < hi and not seen[si]:
                seen[si] = True
                if match_of_slot[si] < 0 or augment(match_of_slot[si], seen):
                    match_of_slot[si] = ci
                    return True
        return False

    return all(augment(ci, [False] * len(slots)) for ci in range(len(cards)))


def _void_text(spec: _GermanSpec) -> str:
    shown = [
        f"{SUIT_NAMES[s]} at trick{'s' if len(ts) > 1 else ''} {', '.join(map(str, ts))}"
        for s, ts in enumerate(spec.shown_out) if ts
    ]
    return "; ".join(shown) or "none"


def _german_diagnosis(spec: _GermanSpec) -> str:
    return (
        f"seat {spec.opp} cannot have been dealt and drawn its cards consistently with the"
        f" view of seat {spec.seat}: voids {_void_text(spec)}; hidden draws after tricks"
        f" {spec.draw_times or 'none'}"
    )


def _check_german(view: GermanWhistView, world: World) -> None:
    spec = _german_spec(view)
    hands, stock = world.hands, world.stock
    if len(hands) != 2:
        raise SamplingError(f"the world has {len(hands)} hands, not 2")
    if hands[spec.seat] != view.hand:
        raise SamplingError(f"seat {spec.seat}'s own hand differs from its view")
    opp_hand = hands[spec.opp]
    if opp_hand.bit_count() != spec.opp_size:
        raise SamplingError(f"seat {spec.opp} holds {opp_hand.bit_count()}, not {spec.opp_size}")
    if spec.opp_known & ~opp_hand:
        raise SamplingError(f"seat {spec.opp} lacks face-up cards it took")
    if len(stock) != spec.stock_size:
        raise SamplingError(f"the stock has {len(stock)} cards, not {spec.stock_size}")
    if len(set(stock)) != len(stock):
        twice = sorted({card for card in stock if stock.count(card) > 1})
        raise SamplingError(f"the stock holds {', '.join(map(card_str, twice))} more than once")
    stock_mask = sum(1 << c for c in stock)
    held = opp_hand & ~spec.opp_known
    if held & stock_mask or (held | stock_mask) != spec.unseen:
        raise SamplingError(
            f"seat {spec.opp}'s hidden cards and the stock are not the unseen cards"
        )
    cards, slots = spec.cards_and_slots(held)
    if not _has_matching(cards, slots):
        raise SamplingError(
            f"seat {spec.opp} cannot hold {cards_str(held)}: no order of its deal and hidden"
            f" draws fits its voids ({_void_text(spec)})"
        )
