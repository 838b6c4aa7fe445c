"""What every game provides: rules as data, a deal state the loop drives, errors.

The split follows OpenSpiel: a ``Game`` is an immutable factory described by data
(name, version, player counts, variant); a ``DealState`` knows whose turn it is,
the legal actions, and what each seat may see (``view(seat)``). The loop in
``whist_sim.play`` asks strategies and applies their choices; it never shows a
strategy the state itself.

Actions are ints so that legal actions are a bitmask: 0..51 are cards (play a
card, take a face-up card, lay a card), and each game numbers its other actions
(bids, trump choices, a knock) from 52 up. ``action_str``/``parse_action`` give
the notation used in logs and Parquet.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import operator
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from whist_sim.cards import NUM_CARDS, CardError, card_str, parse_card, parse_card_list


class WhistSimError(Exception):
    """Base of the errors whist_sim reports to a user as one clear line."""


class VariantError(WhistSimError, ValueError):
    """A variant key or value the game does not have."""


class DealError(VariantError):
    """Cards that are not a legal deal of the game: a card twice, a wrong count, bad notation.

    A kind of VariantError, which hand-built layouts (``deal_from_layout``) have always
    raised, so code that catches that keeps working. The message names the problem and
    what is allowed but not where the cards came from: the caller (a deal set, a layout)
    knows the file and row, and adds them.
    """


class RuleError(WhistSimError, ValueError):
    """An action the rules forbid. The message names the seat, the action and the rule."""

    def __init__(self, seat: int, action: str, rule: str, message: str,
                 legal: str | None = None) -> None:
        super().__init__(f"{message}{'' if legal is None else f'; legal now: {legal}'}"
                         f" [rule: {rule}]")
        self.seat = seat
        self.action = action
        self.rule = rule
        self.message = message
        """Why the action is refused."""
        self.legal = legal
        """The actions the seat may take instead, as notation (None: not listed)."""

    def __reduce__(self):  # picklable, so the error survives a trip through Ray
        return (type(self), (self.seat, self.action, self.rule, self.message, self.legal))


LISTS_THE_LEGAL = frozenset({"follow suit"})
"""Rules whose refusal already names what is legal ("must follow hearts (holds 7H 6H)"):
``DealState._refuse`` adds no list of legal actions to theirs."""


class LoggedAction(NamedTuple):
    """One entry of a deal's action log: enough to replay the deal exactly.

    ``chosen`` is False for moves the rules make on a player's behalf (drawing the
    face-down card, taking the only face-up card), logged so a reader can follow the
    deal without the engine.
    """

    seat: int
    phase: str
    action: int
    chosen: bool = True


class TrickRecord(NamedTuple):
    """A completed trick, public to every seat: leader, cards in play order, winner."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True)
class DealOutcome:
    """How a deal ended, per seat: tricks, score (as the rules award it), net, result.

    ``net`` is the zero-sum form of the score that standings add up (each game's
    module says how it is formed: German Whist +-score, Solo Whist the units paid
    and received, Minnesota Whist side points minus the other side's); ``result``
    is "win", "loss", "draw" or "forfeit".
    """

    tricks: tuple[int, ...]
    score: tuple[float, ...]
    net: tuple[float, ...]
    result: tuple[str, ...]
    forfeit_seat: int | None = None
    error: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    """Per-deal facts: extra columns of the ``deals`` table."""
    seat_facts: tuple[Mapping[str, Any], ...] = ()
    """Per-seat facts: extra columns of the ``seats`` table (empty if the game has none)."""


class DealState(ABC):
    """A deal in progress. ``to_act`` is -1 once the deal is over."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickled, with its texts interned again: an engine may test its phase by
        identity (``phase is not PLAY``, the cheapest test on the hot path), and pickle
        makes new string objects, which German Whist read as its "take" phase."""
        self.__dict__.update({key: sys.intern(value) if value.__class__ is str else value
                              for key, value in state.items()})

    to_act: int
    phase: str
    legal: int
    compiled_uniform_play: ClassVar[bool] = False
    """Whether ``play_uniformly`` can play this game's deals (German Whist)."""
    unit_name: str = "deal"
    """What one state plays, in error messages ("deal"; a Knock-out "game")."""
    log: list[tuple[int, str, int, bool]]
    """Every action so far as plain ``LoggedAction`` field tuples (the four games keep them
    as ints and decode them when asked: ``action_log.CodedLog``)."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Apply the action of the seat to act; raise RuleError if it is illegal."""

    @abstractmethod
    def view(self, seat: int) -> Any:
        """Everything ``seat`` may know now, as an immutable object holding no hidden card."""

    @abstractmethod
    def outcome(self) -> DealOutcome:
        """The result of a finished deal."""

    @abstractmethod
    def forfeit(self, seat: int, error: str) -> DealOutcome:
        """End the deal as forfeited by ``seat`` (its strategy failed)."""

    def forfeit_by_every_seat(self, seat: int, error: str) -> DealOutcome:
        """End the deal as forfeited by every seat: no one plays it (every entrant at the
        table benched, ``tournament.bench_after``), so no seat wins or scores; the deal's
        ``forfeit_seat`` is ``seat``, whose turn it was.

        Charged to the seat to act alone, as an ordinary forfeit is, such a deal paid the
        other benched entrant a win it never played for: a bot that never finished a hand
        read a win rate of 0.30 (a probe)."""
        one = self.forfeit(seat, error)
        seats = len(one.result)
        self._outcome = dataclasses.replace(
            one, score=(0.0,) * seats, net=(0.0,) * seats, result=("forfeit",) * seats,
            facts=self._facts_of_no_score(one.facts))
        return self._outcome

    def _facts_of_no_score(self, facts: Mapping[str, Any]) -> Mapping[str, Any]:
        """``forfeit_by_every_seat``'s deal facts from an ordinary forfeit's: the same,
        where no fact tells the score (a game whose facts do says otherwise)."""
        return facts

    @abstractmethod
    def deal_record(self) -> dict[str, Any]:
        """Facts fixed at the deal: hands and stock in notation, trump, dealer."""

    def play_uniformly(self, seat_seeds: Sequence[int]) -> bool:
        """Play this deal, not yet begun, to its end in compiled code with every seat
        choosing as ``strategy.chooses_uniformly`` states, seat s drawing from
        ``random.Random(seat_seeds[s])``; False (and nothing done) where the game has no
        such code or the deal has begun. The state is then what the play loop leaves."""
        return False

    def checked_action(self, action: Any) -> tuple[int, int]:
        """The seat to act and ``action`` as an int, once the rules allow it.

        Otherwise raises RuleError naming the seat, the action and the rule (the
        game's ``_raise_illegal`` says which rule a refused action breaks).
        """
        seat = self.to_act
        if action.__class__ is not int:
            action = as_action(seat, action, named_action(self.game, action))
        if seat < 0:
            shown = describe_action(self.game.action_str, action)  # type: ignore[attr-defined]
            unit = self.unit_name
            message = f"the {unit} is over; {shown} is not legal"
            raise RuleError(seat, shown, f"{unit} over", message)
        if action < 0 or not self.legal >> action & 1:
            self._refuse(seat, action)
        return seat, action

    def _refuse(self, seat: int, action: int) -> None:
        """Raise the game's RuleError for an illegal ``action`` (``_raise_illegal``), its
        message ending with the actions the seat may take instead: a plug-in's author
        read why a call was refused and still had to look up what was allowed (a probe)."""
        try:
            self._raise_illegal(seat, action)
        except RuleError as exc:
            if exc.rule in LISTS_THE_LEGAL:
                raise
            legal, name = self.legal, self.game.action_str  # type: ignore[attr-defined]
            allowed = ", ".join(name(a) for a in range(legal.bit_length()) if legal >> a & 1)
            raise RuleError(exc.seat, exc.action, exc.rule, exc.message, allowed) from None

    def _raise_illegal(self, seat: int, action: int) -> None:
        """Raise the RuleError that explains why ``action`` is not legal for ``seat``."""
        raise RuleError(seat, repr(action), "legal action", f"seat {seat} may not play {action}")

    def completed_tricks(self) -> tuple[TrickRecord, ...]:
        """Every completed trick of the deal (a game of rounds overrides this)."""
        return self.tricks  # type: ignore[attr-defined]

    @property
    def over(self) -> bool:
        return self.to_act < 0

    # -- OpenSpiel-style tensors, delegated to whist_sim.env (imported late: the games do
    # not depend on the environment package, which depends on them) --------------------
    def information_state_tensor(self, seat: int) -> Any:
        """``seat``'s observation vector (float32), built from ``view(seat)`` only; its
        layout is ``whist_sim.env.layout_for(game)`` (docs/environment.md)."""
        from whist_sim.env.encoders import encoder_for

        players = self.game.players  # type: ignore[attr-defined]
        shown = seat
        try:  # a NumPy integer is a seat (``for seat in np.arange(4)``); a bool is not
            seat = None if isinstance(seat, bool) else operator.index(seat)
        except TypeError:
            seat = None
        if seat is None or not 0 <= seat < players:
            raise ValueError(f"seat = {shown!r} is not at this table; allowed values:"
                             f" 0..{players - 1}")
        return encoder_for(self.game).encode(self.view(seat))[0]  # type: ignore[attr-defined]

    def legal_actions_mask(self) -> Any:
        """The legal actions of the seat to act as a 0/1 int8 array over the game's
        action space (all zeros once the deal is over)."""
        from whist_sim.env.encoders import legal_mask

        return legal_mask(self.game, self.legal)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Variant:
    """Base of each game's variant: a frozen dataclass whose fields are the docs/rules/ keys."""

    match_keys: ClassVar[tuple[str, ...]] = ()
    """The keys that set how long a match (a session, a game to a target) lasts, not how a
    hand is played: a learning environment, whose episode is one hand, names them when
    they are set (``whist_sim.env``)."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], where: str = "variant") -> Variant:
        """Build and validate from a config table, naming any unknown key and the allowed ones."""
        allowed = {f.name for f in dataclasses.fields(cls)}
        if not isinstance(values, Mapping):
            raise VariantError(
                f"{where} = {values!r} is not a table of settings; give a mapping of keys to"
                f" values, e.g. {{'{min(allowed)}': ...}}; allowed keys:"
                f" {', '.join(sorted(allowed))}"
            )
        problems = [f"{where}: unknown key {key!r}{did_you_mean(key, allowed)}; allowed keys:"
                    f" {', '.join(sorted(allowed))}" for key in values if key not in allowed]
        # NumPy scalars as the Python values they stand for (np.int64(3) is 3): refused as
        # "not allowed; allowed values: whole numbers 1..26" before, or kept as NumPy
        known = {key: _plain(value) for key, value in values.items() if key in allowed}
        dropped: list[str] = []
        while True:  # every refused value named, not one run each: each is left out in turn
            variant = cls(**known)
            try:
                variant.validate(where)
                break
            except VariantError as exc:
                key = _refused_key(str(exc), where)
                if not any(other in str(exc) for other in dropped):  # not a consequence of
                    problems.append(str(exc))  # the default that replaced a refused value
                if key not in known:
                    break
                del known[key]
                dropped.append(key)
        if problems:
            raise VariantError("\n".join(problems))
        return variant._as_floats()

    def _as_floats(self) -> Variant:
        """The variant with a whole number given for a number field (``stake = 1``) held as
        the float its default is: recorded as given, ``"stake": 1`` and the default's
        ``"stake": 1.0`` were the same rules spelled two ways in the ``variant`` column,
        and a grouping or join across runs on it split them (a probe)."""
        whole = {field.name: float(value) for field in dataclasses.fields(self)
                 if field.type in ("float", "float | None")
                 and type(value := getattr(self, field.name)) is int}
        return dataclasses.replace(self, **whole) if whole else self

    def validate(self, where: str = "variant") -> None:
        """Raise VariantError naming the key and allowed values of a bad setting."""

    def largest_net(self) -> float | None:
        """The most a seat can win or lose by in one hand (its ``net``), for the games whose
        duels are tested on net points; None for the others."""
        return None

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def did_you_mean(key: Any, allowed: Iterable[str]) -> str:
    """``" (did you mean 'trumps'?)"`` for a key one slip away from an allowed one; "" for
    none. The one helper every "unknown key" of a config and of ``--sprt`` uses, so that
    a typo gets the same suggestion wherever it is made (``[tournamnet]`` and ``bacth``
    got none while variant keys did)."""
    return suggestion(closest(key, allowed))


def closest(key: Any, allowed: Iterable[str]) -> str | None:
    """The allowed key one slip away from ``key`` (``did_you_mean``'s), or None. The same
    word in other capitals is one slip, however long: difflib's ratio, which counts each
    letter of another case as a change, named 'random' for "Random" but nothing for
    "HEURISTIC" (a newcomer's probe)."""
    allowed = sorted(allowed)
    folded = [word for word in allowed if word.casefold() == str(key).casefold()]
    if folded:
        return folded[0]
    close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.75)
    return close[0] if close else None


def suggestion(meant: str | None) -> str:
    """``" (did you mean 'trumps'?)"`` for ``meant``; "" for None."""
    return "" if meant is None else f" (did you mean {meant!r}?)"


def _refused_key(message: str, where: str) -> str | None:
    """The key a validation message names (``variant.count = 'al' is not allowed ...``)."""
    if not message.startswith(f"{where}."):
        return None
    return message[len(where) + 1:].split(" ", 1)[0]


def _plain(value: Any) -> Any:
    """A NumPy scalar (integer, float, bool) as its Python value; anything else as it is."""
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == ():
        return value.item()
    return value


def check_choice(where: str, key: str, value: Any, allowed: tuple[Any, ...]) -> None:
    """Refuse ``value`` unless it is one of ``allowed``, of the same type too.

    The type matters because ``1 in (True, False)`` and ``1.0 in (1, 2)`` are true in
    Python: a config's ``upcard = 1`` would pass as ``true`` and be recorded as 1.
    """
    if not any(type(value) is type(a) and value == a for a in allowed):
        shown = ", ".join(as_toml(a) for a in allowed)  # true, false: as a config spells them
        # a word one slip from an allowed one is named, as a key is ("Stage2": a probe)
        hint = (did_you_mean(value, [a for a in allowed if isinstance(a, str)])
                if isinstance(value, str) else "")
        raise VariantError(f"{where}.{key} = {as_toml(value)} is not allowed{hint}; allowed"
                           f" values: {shown}")


def as_toml(value: Any) -> str:
    """A value as a config file spells it, for messages: ``true`` rather than ``True``,
    ``"classic"`` rather than ``'classic'``, so a user can paste it back into the file."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string, escapes and all
    if isinstance(value, list | tuple):
        return "[" + ", ".join(as_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {as_toml(item)}" for key, item in value.items()) + "}"
    return repr(value)


def is_whole(value: Any) -> bool:
    """An int that is not a bool (TOML's ``true`` is a Python int too)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_finite_number(value: Any) -> bool:
    """An int or float, not a bool, neither nan nor infinite (TOML allows ``nan`` and ``inf``,
    which would poison every sum they enter)."""
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    )


def check_whole(where: str, key: str, value: Any, low: int, high: int, off: bool = False) -> None:
    """Refuse ``value`` unless it is a whole number in ``low..high`` (or None when ``off``
    is allowed: the key left out turns the rule off)."""
    if off and value is None:
        return
    if not is_whole(value) or not low <= value <= high:
        shown = f"whole numbers {low:,}..{high:,}" + (", or leave it out (off)" if off else "")
        raise VariantError(f"{where}.{key} = {as_toml(value)} is not allowed; allowed values:"
                           f" {shown}")


def shown_number(value: float) -> str:
    """A bound as people write it: 1,000,000 and 0.001, not 1e+06."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def check_positive(where: str, key: str, value: Any, high: float, off: bool = False) -> None:
    """Refuse ``value`` unless it is a finite number > 0 and <= ``high`` (None when ``off``)."""
    if off and value is None:
        return
    if not is_finite_number(value) or not 0 < value <= high:
        shown = f"a number > 0 and <= {shown_number(high)}" + (
            ", or leave it out (off)" if off else "")
        raise VariantError(f"{where}.{key} = {as_toml(value)} is not allowed; allowed values:"
                           f" {shown}")


class Game(ABC):
    """A game's rules under one variant: creates deals and plans matches."""

    name: ClassVar[str]
    title: ClassVar[str]
    """The game's name in prose ("German Whist"), for messages."""
    version: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variant_type: ClassVar[type[Variant]]
    partnerships: ClassVar[bool] = False
    """Partners sit opposite: a line-up is two partnerships of two strategies."""
    duplicate_rotations: ClassVar[tuple[int, ...] | None] = None
    """Seat rotations each deal is played under (None: every rotation)."""

    def __init__(self, variant: Variant | None = None, players: int | None = None) -> None:
        self.variant = variant if variant is not None else self.variant_type()
        if players is not None:
            try:
                if isinstance(players, bool):
                    raise TypeError
                players = operator.index(players)  # NumPy integers too; not 4.0 or "4"
            except TypeError:
                raise VariantError(
                    f"{self.name}: players = {players!r} is not a whole number; allowed values:"
                    f" {self.table_sizes()}") from None
        self.players = players if players is not None else self.min_players
        if not self.min_players <= self.players <= self.max_players:
            raise VariantError(
                f"{self.name} is played by {self.table_sizes()} players, not {self.players}")

    @classmethod
    def table_sizes(cls) -> str:
        """The table sizes the game is played at, in words: "2", or "2..7"."""
        if cls.min_players == cls.max_players:
            return str(cls.min_players)
        return f"{cls.min_players}..{cls.max_players}"

    @abstractmethod
    def new_deal(self, seed: int, dealer: int) -> DealState:
        """The deal that ``seed`` shuffles, dealt by ``dealer``."""

    @abstractmethod
    def deal_from_record(
        self, record: Mapping[str, Any], dealer: int, seed: int, **context: Any
    ) -> DealState:
        """The deal whose cards ``record`` gives, dealt by ``dealer``: how a fixed deal set
        (or a recorded deal) is played instead of a shuffle.

        ``record`` holds what ``deal_record()`` writes: ``hands`` (one string of cards
        in notation per seat), and ``stock`` and ``upcard`` where the game has them. Its
        ``dealer`` entry is not read: the match decides who deals (the caller checks the
        two agree). ``seed`` seeds whatever the cards leave to chance (Knock-out Whist's
        later rounds and cuts) and is recorded as the deal's seed, so a deal built from
        the record of a seeded deal, with that deal's seed, plays exactly like it and
        gives the same ``deal_record()``. ``context`` is what the match passes to
        ``new_deal`` (Minnesota Whist: the game score). Raises DealError naming the
        problem: a card that does not parse, a card dealt twice, a wrong count for a
        seat, a turned card or stock the game does not allow.
        """

    @abstractmethod
    def hand_dealer(self, hand: int) -> int | None:
        """The seat that deals hand ``hand`` (0, 1, ...) of a match under this variant, or
        None if no match under this variant ever has that hand.

        In every game the dealer of a hand depends only on its number (the match's
        ``next_dealer`` follows the same rule), so a fixed deal set can check its
        dealers before anything is played.
        """

    @abstractmethod
    def new_match(self) -> MatchState:
        """The bookkeeping of a match (several deals) under this variant."""

    def checked_dealer(self, dealer: Any) -> int:
        """``dealer`` if it is a seat of this table, else a VariantError naming the seats."""
        try:
            if isinstance(dealer, bool):
                raise TypeError
            seat = operator.index(dealer)  # NumPy integers too
        except TypeError:
            seat = -1
        if not 0 <= seat < self.players:
            raise VariantError(
                f"{self.name} dealer must be a seat 0..{self.players - 1}, not {dealer!r}"
            )
        return seat

    def action_str(self, action: int) -> str:
        if 0 <= action < NUM_CARDS:
            return card_str(action)
        raise ValueError(f"{self.name} has no action number {action}")

    def parse_action(self, text: str) -> int:
        return parse_card(text)


class MatchState(ABC):
    """Which deal comes next in a match and who won it; games of one deal use ``SingleDeal``."""

    @abstractmethod
    def next_dealer(self) -> int | None:
        """Dealer of the next deal, or None when the match is decided."""

    @abstractmethod
    def record(self, outcome: DealOutcome) -> None:
        """Account for a finished deal."""

    @abstractmethod
    def result(self) -> dict[str, tuple]:
        """Per-seat match columns: at least ``match_points`` and ``match_result``."""

    def deal_context(self) -> dict[str, Any]:
        """Keyword arguments for the next ``new_deal`` (e.g. the game score so far)."""
        return {}


def as_action(seat: int, action: Any, expected: str = "an action number") -> int:
    """Accept int-like actions (NumPy integers); refuse bools and anything else, naming the seat."""
    if not isinstance(action, bool):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise RuleError(
        seat, repr(action), "action is a number",
        f"seat {seat} returned {action!r}, which is not {expected}",
    )


MOST_ACTIONS = 65
"""Action numbers run below this in every game (cards 0..51, then calls up to 64)."""


def named_action(game: Any, action: Any, expected: str = "an action number") -> str:
    """What ``as_action`` says an action should be (``expected``): for a text that names
    one of the game's actions ("pass"), its number too, as a plug-in author returning a
    call's name was told only that it is no number (a probe)."""
    if not isinstance(action, str):
        return expected
    for number in range(MOST_ACTIONS):
        try:
            if game.action_str(number) == action:
                return (f"{expected}: {action!r} is action {number} here"
                        f" (game.action_str({number})); return {number}")
        except ValueError:
            continue
    return expected


def describe_action(action_name: Callable[[int], str], action: int) -> str:
    """Notation of an action for an error message, or its number if the game has no such action."""
    try:
        return action_name(action)
    except ValueError:
        return repr(action)


def deck_from_hands(game: str, hands: Sequence[str], dealer: int) -> list[int]:
    """The deck that deals ``hands`` (notation, one string per seat) one card at a time
    from the dealer's left: how hand-built layouts become deals."""
    players = len(hands)
    if dealer not in range(players):
        raise VariantError(f"{game} dealer must be a seat 0..{players - 1}, not {dealer!r}")
    seat_cards = [parse_card_list(h) for h in hands]
    size = len(seat_cards[0])
    if any(len(cards) != size for cards in seat_cards):
        raise VariantError(f"a {game} layout deals the same number of cards to every seat")
    deck = deck_from_seat_cards(seat_cards, dealer)
    if len(set(deck)) != len(deck):
        raise VariantError(f"a {game} layout must use each of the {len(deck)} cards exactly once")
    return deck


def deck_from_seat_cards(seat_cards: Sequence[Sequence[int]], dealer: int) -> list[int]:
    """The deck that deals ``seat_cards`` (the same number of card numbers per seat) one
    card at a time from the dealer's left; the dealer's last card is the deck's last."""
    players = len(seat_cards)
    return [
        seat_cards[(dealer + offset) % players][i]
        for i in range(len(seat_cards[0]))
        for offset in range(1, players + 1)
    ]


# -- reading a deal's cards from a record (deal sets, recorded deals) ----------------------

def record_seat_cards(title: str, record: Mapping[str, Any], seats: int, size: int
                      ) -> list[list[int]]:
    """Each seat's cards from ``record["hands"]`` (a string of notation per seat), in the
    order written, checked: one string per seat and ``size`` cards in each.

    Whether a card appears twice is ``check_each_card_once``'s question, asked once
    every zone of the deal (hands, stock, upcard) is read.
    """
    hands = record.get("hands")
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise DealError(
            f"hands must be a list of {seats} strings of cards, one per seat, not {hands!r}"
        )
    if len(hands) != seats:
        raise DealError(f"hands lists {len(hands)} seats; this {title} table has {seats}")
    seat_cards = []
    for seat, text in enumerate(hands):
        cards = record_card_list(f"seat {seat}", text)
        if len(cards) != size:
            raise DealError(f"seat {seat} holds {len(cards)} cards; a {title} hand is {size}")
        seat_cards.append(cards)
    return seat_cards


def record_card_list(where: str, text: Any) -> list[int]:
    """Cards in notation (space-separated, order kept), or a DealError naming ``where``."""
    if not isinstance(text, str):
        raise DealError(
            f"{where} must be a string of cards in notation (e.g. 'AS KH TD'), not {text!r}"
        )
    try:
        return parse_card_list(text)
    except CardError as exc:
        raise DealError(f"{where}: {exc}") from None


def record_card(where: str, text: Any) -> int:
    """One card in notation (``upcard``), or a DealError naming ``where``."""
    cards = record_card_list(where, text)
    if len(cards) != 1:
        raise DealError(f"{where} must be one card (e.g. 'QH'), not {text!r}")
    return cards[0]


def check_each_card_once(zones: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Raise DealError naming the first card that two zones (or one zone twice) hold.

    ``zones`` are (name, cards) pairs, e.g. ("seat 2", [...]), ("the stock", [...]).
    """
    seen: dict[int, str] = {}
    for where, cards in zones:
        for card in cards:
            first = seen.get(card)
            if first is not None:
                place = f"twice in {where}" if first == where else f"in {first} and in {where}"
                raise DealError(f"{card_str(card)} is dealt twice: {place}")
            seen[card] = where


def check_absent(title: str, record: Mapping[str, Any], key: str, meaning: str) -> None:
    """A record field the game does not have must be empty (null): refuse it otherwise."""
    if record.get(key) is not None:
        raise DealError(f"{title} has no {meaning}; {key} must be null, not {record[key]!r}")
