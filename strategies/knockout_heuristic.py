"""``heuristic`` for Knock-out Whist: survive each round, then take the tricks that come cheap.

A round is survived with a single trick, and the player with most tricks names the
next trump (worth a lot: in the last rounds the trump chooser survives far more
often). So each card is judged by two chances, both worked out from the seat's view:

- ``win``: the chance the card wins the current trick, if played now. Every player
  still to play is assumed to beat it when able with chance ``opponent_skill``, or
  else to play a random legal card; what each may hold comes from card counting
  (cards played this round, the turned-up card of round 1, and the suits each full
  player has shown out of, read from ``tricks`` and ``trick_players``).
- ``worth``: the chance the card wins a trick later if kept. A trump is good while no
  higher trump is out; a side card also has to escape being ruffed, which gets
  less likely with every opponent (``side_worth`` per opponent still in the round).

A card's value is ``win - worth`` (tricks gained now less tricks given up later) plus,
until the round's first trick is won, ``survival_weight`` times the chance of taking
at least one trick (this one, or a later one with the cards kept). That one rule
gives the behaviour the game asks for: win a trick when it is cheap (a low trump
ruffing, a king when the ace is gone), duck with the least useful card when the
trick is lost anyway, cash side aces before anyone can ruff them, and keep a sure
trick (the top trump left) rather than spend it when something else does as well.

Trump is the longest suit, ties going to the stronger one. A dog (one card, may pass)
plays its card once its chance of winning this trick is at least its chance later
(``dog_patience``): in practice at the first trick where the card beats everything
played so far and may hold off what is still to come (a trump, or the top card left
of the suit led); on the round's last trick the engine leaves it no choice.

The defaults won most often against ``random`` (benchmarks/knockout_heuristic_strength.py,
one heuristic and random players, every seat rotation of each deal, 10,000 games):
about 64% of four-player games (fair share 25%) and 48% of seven-player games
(fair share 14%). What the tuning showed: side cards are worth far less later than
a "no higher card out" count says (they get ruffed), and random opponents seldom use
their higher cards on ours, hence ``side_worth`` per opponent and the low
``higher_card_weight``. Keeping the top trump strongly (a large ``keep_sure_margin``)
lost about 1% of games, so it only breaks near-ties; naming trump by strength instead
of length, a bonus for denying a trick to a player without one, and an exact search
of sampled heads-up endgames made no measurable difference and were left out.

Everything comes from the view; the rng is not used, so the player is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

from strategies.heuristic_memo import TrickMemo
from strategies.lazy_module import LazyModule, playing
from whist_sim.cards import FULL_DECK, SUIT_MASKS
from whist_sim.strategy import Strategy

KNOCK = 52
"""A dog passes this trick (``whist_sim.games.knockout_whist.KNOCK``)."""
NAME_TRUMP = 53
"""``NAME_TRUMP + suit`` names trump (``whist_sim.games.knockout_whist.NAME_TRUMP``)."""

ABOVE = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""``ABOVE[c]``: the cards of c's suit that beat c."""

SURE = 0.999
"""A card worth this much wins a trick whenever it is played: the top trump left."""
RANK_TIE_BREAK = 1e-4
"""Per rank, so of two otherwise equal cards the lower is the one played."""


class KnockoutHeuristic(Strategy):
    """Plays the card that best trades this trick against later ones, survival first.

    Parameters (all keyword; see ``__init__`` for the allowed values):
    - ``survival_weight``: how much the chance of taking the round's first trick
      counts, against one trick more or less, while no trick is won yet.
    - ``side_worth``: per opponent in the round, the chance a side card's later win
      escapes a ruff (0.75 with three opponents: 0.42).
    - ``higher_card_weight``: how much each higher card still out counts against a
      card's later chance (1: as if an opponent always plays it on ours; lower: real
      opponents often do not).
    - ``opponent_skill``: chance a player still to play beats our card when able
      (otherwise it plays a random legal card).
    - ``dog_patience``: a dog plays once its chance of winning now is at least this
      times its chance of winning later (0: at the first trick it can win at all).
    - ``keep_sure_margin``: keep the top trump (a sure trick) rather than spend it unless
      spending it is better by this much (in tricks); 0 turns the preference off.
    - ``compiled``: True (default) plays the cards (the ``Table`` and the scoring of
      the legal cards) compiled with numba (strategies/knockout_heuristic_compiled.py),
      False in the Python below; the decisions are the same. A dog's decision and the
      trump are Python either way.
    """

    games = frozenset({"knockout_whist"})
    version = "1"

    def __init__(
        self,
        *,
        survival_weight: float = 3.0,
        side_worth: float = 0.75,
        higher_card_weight: float = 0.2,
        opponent_skill: float = 0.5,
        dog_patience: float = 1.0,
        keep_sure_margin: float = 0.01,
        compiled: bool = True,
    ) -> None:
        _check_number("survival_weight", survival_weight, 0.0, 100.0)
        _check_number("side_worth", side_worth, 0.0, 1.0)
        _check_number("higher_card_weight", higher_card_weight, 0.0, 5.0)
        _check_number("opponent_skill", opponent_skill, 0.0, 1.0)
        _check_number("dog_patience", dog_patience, 0.0, 10.0)
        _check_number("keep_sure_margin", keep_sure_margin, 0.0, 1.0)
        self.survival_weight = float(survival_weight)
        self.side_worth = float(side_worth)
        self.higher_card_weight = float(higher_card_weight)
        self.opponent_skill = float(opponent_skill)
        self.dog_patience = float(dog_patience)
        self.keep_sure_margin = float(keep_sure_margin)
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
        if view.phase == "trump":
            return NAME_TRUMP + longest_suit(view.hand)
        if view.is_dog:
            return self._dog(view, Table(view, self.opponent_skill, self._tricks))
        if self.compiled:  # the table and the scoring, all compiled
            return (_compiled.module or _compiled.load()).decide(self, view)
        return self._play(view, Table(view, self.opponent_skill, self._tricks))

    def worth(self, table: Table, card: int) -> float:
        """Chance ``card`` wins a trick later: no higher card used on it, and not ruffed."""
        higher = (table.unknown & ABOVE[card]).bit_count()
        chance = (1.0 - table.held_share) ** (higher * self.higher_card_weight)
        if card // 13 != table.trump:
            chance *= self.side_worth ** table.opponents
        return chance

    def _dog(self, view: Any, table: Table) -> int:
        """Play the single card on a trick it can win about as surely as any later one."""
        card = view.hand.bit_length() - 1
        chance = table.win_chance(card)
        if chance > 0.0 and chance >= self.dog_patience * self.worth(table, card):
            return card
        return KNOCK

    def _play(self, view: Any, table: Table) -> int:
        """The legal card with the best value (see the module docstring)."""
        # ``worth`` of each card held, with its two powers' constant parts taken once
        base, weight = 1.0 - table.held_share, self.higher_card_weight
        ruff_escape = self.side_worth ** table.opponents
        unknown, trump = table.unknown, table.trump
        worths = {}
        for card in _iter_cards(view.hand):
            chance = base ** ((unknown & ABOVE[card]).bit_count() * weight)
            worths[card] = chance if card // 13 == trump else chance * ruff_escape
        need = view.round_tricks[view.seat] == 0
        misses = [(card, 1.0 - worth) for card, worth in worths.items()] if need else []
        best, best_value = -1, float("-inf")
        for card in _iter_cards(view.legal):
            win = table.win_chance(card)
            worth = worths[card]
            value = win - worth - (card % 13) * RANK_TIE_BREAK
            if need:
                miss_later = 1.0
                for other, miss in misses:
                    if other != card:
                        miss_later *= miss
                value += self.survival_weight * (1.0 - (1.0 - win) * miss_later)
            if worth >= SURE and win > 0.0:
                value -= self.keep_sure_margin
            if value > best_value:
                best, best_value = card, value
        return best


_compiled = LazyModule("strategies.knockout_heuristic_compiled",
                       warm_up=playing("knockout_whist", KnockoutHeuristic, deals=2, players=4))
"""The numba path: imported, and its kernels compiled by playing 2 deals, when the
first heuristic that plays compiled is built (``strategies.lazy_module``)."""


def longest_suit(hand: int) -> int:
    """The suit with most cards in ``hand``; ties go to the stronger (ranks summed)."""
    best, best_key = 0, (-1, -1)
    for suit in range(4):
        cards = (hand >> (13 * suit)) & 0x1FFF
        key = (cards.bit_count(), _STRENGTH[cards])
        if key > best_key:
            best, best_key = suit, key
    return best


_STRENGTH = tuple(sum(rank + 1 for rank in range(13) if cards >> rank & 1)
                  for cards in range(1 << 13))
"""A suit's strength by its 13 bits: its ranks summed, two = 1 .. ace = 13."""


class Table:
    """What the seat can work out this round: unknown cards, who holds how many, voids.

    Built once per decision from the view alone. ``later`` describes each player still
    to play to the current trick as ``(share, voids, is_dog)``: ``share`` is the chance
    that a given unknown card of a suit it may hold is in its hand.
    """

    __slots__ = ("best", "held_share", "later", "led", "opponents", "skill", "trump", "unknown")

    def __init__(self, view: Any, skill: float, memo: TrickMemo | None = None) -> None:
        status = view.status
        dealt = view.cards_dealt
        held = [dealt if s == "in" else 1 if s == "dog" else 0 for s in status]
        played, shown_out, plays = (memo or TrickMemo(_fold_trick, _NO_TRICKS))(
            view.tricks, view.trick_players)
        voids = [0] * view.players
        for seat in range(view.players):
            held[seat] -= plays[seat]
            if status[seat] == "in":  # a dog need not follow
                voids[seat] = shown_out[seat]
        if view.trick:
            cards = view.trick
            led = cards[0] // 13
            for card, seat in zip(cards, view.trick_seats, strict=True):
                held[seat] -= 1
                played |= 1 << card
                if card // 13 != led and status[seat] == "in":
                    voids[seat] |= 1 << led
        unknown = FULL_DECK & ~view.hand & ~played
        if view.upcard >= 0:
            unknown &= ~(1 << view.upcard)
        self.unknown = unknown
        self.trump = view.trump
        self.skill = skill
        self.led, self.best = -1, -1
        if view.trick:
            self.led = view.trick[0] // 13
            self.best = _trick_winner(view.trick, view.trump)
        total = unknown.bit_count()
        me, n, leader = view.seat, view.players, view.leader
        position = (me - leader) % n
        later: list[tuple[float, int, bool]] = []
        opponents = others_held = 0
        for seat in range(n):
            cards_held = held[seat]
            if seat == me or cards_held <= 0:
                continue
            opponents += 1
            others_held += cards_held
            if (seat - leader) % n <= position:
                continue  # played (or knocked) before us
            void = voids[seat]
            pool = total  # the unknown cards of the suits it may still hold
            if void:
                for suit in range(4):
                    if void >> suit & 1:
                        pool -= (unknown & SUIT_MASKS[suit]).bit_count()
            share = cards_held / pool if pool > 0 else 0.0
            later.append((share, void, status[seat] == "dog"))
        self.later = later
        self.opponents = opponents
        self.held_share = others_held / total if total else 0.0

    def win_chance(self, card: int) -> float:
        """Chance ``card`` played now wins the trick, given what may still come."""
        trump = self.trump
        suit = card // 13
        led = self.led
        if led < 0:
            led = suit
        elif suit == self.best // 13:
            if card < self.best:
                return 0.0
        elif suit != trump:
            return 0.0  # neither following above the best card nor ruffing
        unknown = self.unknown
        higher = (unknown & ABOVE[card]).bit_count()
        led_cards = (unknown & SUIT_MASKS[led]).bit_count()
        trumps = higher if suit == trump else (unknown & SUIT_MASKS[trump]).bit_count()
        total = unknown.bit_count() or 1
        off_suit = total - led_cards
        skill = self.skill
        chance = 1.0
        for share, void, dog in self.later:
            if dog:  # one card, played anywhere: beats us if it is a beater
                chance *= 1.0 - (higher + (trumps if suit != trump else 0)) / total
                continue
            miss = 1.0 - share
            void_led = 1.0 if void >> led & 1 else miss ** led_cards
            if void >> trump & 1:
                can_ruff = ruff_pick = 0.0
            else:
                can_ruff = 1.0 - miss ** trumps
                ruff_pick = trumps / off_suit if off_suit else 0.0
            if suit == led:
                able = 0.0 if void >> led & 1 else 1.0 - miss ** higher
                pick = (1.0 - void_led) * higher / led_cards if led_cards else 0.0
                if led != trump:
                    able += void_led * can_ruff
                    pick += void_led * ruff_pick
            else:  # we ruff: only a player out of the led suit can over-ruff
                able = void_led * can_ruff
                pick = void_led * ruff_pick
            chance *= 1.0 - (skill * able + (1.0 - skill) * pick)
        return chance


_NO_TRICKS = (0, (0,) * 7, (0,) * 7)
"""``Table``'s summary of no trick (seven seats at most): nothing played, nobody shown out
of a suit, no card played by anyone."""


def _fold_trick(summary: tuple, record: Any, seats: tuple[int, ...]) -> tuple:
    """``summary`` (cards played; per seat the suits it did not follow, as 4-bit sets,
    and the cards it played) with the completed trick ``record``, played by ``seats``."""
    played, shown_out, plays = summary
    cards = record.cards
    led = cards[0] // 13
    out, count = list(shown_out), list(plays)
    for card, seat in zip(cards, seats, strict=True):
        count[seat] += 1
        played |= 1 << card
        if card // 13 != led:
            out[seat] |= 1 << led
    return played, tuple(out), tuple(count)


def _trick_winner(cards: tuple[int, ...], trump: int) -> int:
    """The card winning the trick so far."""
    best = cards[0]
    for card in cards[1:]:
        if (card // 13 == best // 13 and card > best) or (card // 13 == trump != best // 13):
            best = card
    return best


def _iter_cards(mask: int) -> Iterator[int]:
    """Set bits of ``mask``, lowest first (cards, and KNOCK if it is legal)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _check_number(name: str, value: Any, low: float, high: float) -> None:
    """Reject a parameter outside its range with a message naming it and the allowed values."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(
            f"{name} = {value!r} is not allowed; allowed values: numbers from {low:g} to {high:g}"
        )


_TRICKS = TrickMemo(_fold_trick, _NO_TRICKS)
"""The completed tricks' summary, shared by this heuristic's players (``TrickMemo``)."""
