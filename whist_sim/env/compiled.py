"""Compiled encoders: one numba kernel per game writes a whole observation from a view's fields.

The reference encoders (``german_whist.py`` and the others, ``compiled=False``) OR every
binary segment into one Python int and unpack it; building that int from a view took
about 3 microseconds of Python per observation, more than the engine's whole step. Here
the Python side only unpacks the seat's view tuple (one bytecode), brings the shared
``CompiledHistory`` up to the view's completed tricks, and hands the view's fields to the
game's kernel, which writes every entry of two new arrays (the observation and the
action mask). Nothing but the view reaches a kernel: each encoder's ``encode`` takes a
view and reads no deal state, exactly as the reference does, so the seat-view audit of
the reference applies to it unchanged (``tests/test_env_fast_path.py`` compares the two
at every step of random hands of every game and variant the checks play).

What it costs, measured on a loaded 2-core machine: the kernel's own work is small (a
few hundred nanoseconds); the price is handing values from Python to compiled code,
about 15 to 30 ns a value when timed alone and two to three times that inside a
learner's loop. Calling through numba's dispatcher adds the typing of every argument at
every call (about 0.25 microsecond plus 50 ns an argument); the compiled function's own
entry point, which the dispatcher calls once it has found the types, skips that
(``_entry``). The completed tricks go in as one ``bytes`` (``CompiledHistory``), from
which the kernel derives each seat's played cards and each card's trick number: adding
a trick is one concatenation, starting a deal an empty ``bytes``, and no per-seat arrays
have to be kept in step. Other variable-length tuples (the trick, the face-up row, the
auction) go in as ``bytes`` too, kept for the tuple they came from where that tuple
lasts a trick or more; German Whist's trick in progress, at most the leader's card,
goes in as that card or -1.

The arrays are written again rather than made anew when no one holds them: each
encoder keeps two pairs (observation, mask) and writes into one whose arrays only it
references (``sys.getrefcount``, as NumPy itself reuses temporaries no one else
holds), else makes a new pair. A learner keeps at most the observation it is acting
on, so one of the two is nearly always free; making and freeing two arrays cost about
0.4 microsecond of a German Whist step in the learner's loop, a tenth of it. Anything
a learner keeps of an observation (the dict, either array, a view or slice of one, a
buffer exported from it) holds a reference, so it is never written again; a
``weakref`` holds none, and may see the array written over.
The reference count of an array no one else holds is read once, from a pair just
made, by the same statements the check runs, so an interpreter that counts the
references of locals and arguments differently reads both alike.

The values are the reference's to the bit: reals are computed in float64 from the
same integers and the same divisions, then stored as float32, as NumPy stores the
reference's Python floats.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import getrefcount as _refs
from typing import Any

import numpy as np

from whist_sim.cards import FULL_DECK, NUM_CARDS
from whist_sim.env import german_whist, knockout_whist, minnesota_whist, solo_whist
from whist_sim.env.history import TrickSummary
from whist_sim.env.layout import Layout, squash
from whist_sim.games.knockout_whist import DOG, IN, ROUNDS
from whist_sim.games.minnesota_whist import GRAND

GERMAN_PHASES = german_whist.PHASES
SOLO_PHASES = solo_whist.PHASES
MINNESOTA_PHASES = minnesota_whist.PHASES
KNOCKOUT_PHASES = knockout_whist.PHASES

_empty = np.empty
FLOAT32, INT8 = np.dtype(np.float32), np.dtype(np.int8)
"""The arrays' dtypes made once: ``np.empty`` given a dtype, not a type to convert, takes
about 60 ns less, twice an observation."""


def _entry(dispatcher: Any, sample: tuple[Any, ...]) -> Any:
    """The compiled entry point of ``dispatcher`` for the argument types of ``sample``.

    Calling ``sample`` compiles the kernel or loads it from numba's disk cache. The
    entry point skips the dispatcher's typing of every argument at every call (about
    half the cost of a call with twenty arguments); it unboxes its arguments as the
    types it was compiled for, so every call site passes the same kinds of values as
    ``sample`` (ints, floats, bytes, tuples of the same length, arrays of the same
    dtype). If numba's ``overloads`` table ever lacks it, the dispatcher is used."""
    import numba

    dispatcher(*sample)
    try:
        signature = tuple(numba.typeof(value) for value in sample)
        return dispatcher.overloads[signature].entry_point
    except (AttributeError, KeyError):  # pragma: no cover - depends on numba's internals
        return dispatcher


def kernels() -> dict[str, Any]:
    """The four games' kernels (numba dispatchers, ``whist_sim.env.kernels``), imported
    on first use: compiled then, or loaded from numba's disk cache."""
    from whist_sim.env.kernels import KERNELS

    return KERNELS


class CompiledHistory(TrickSummary):
    """The completed tricks as the compiled encoders read them: ``played``, bytes, per
    trick its number of cards ``n``, the ``n`` seats that played them, the ``n``
    cards. The kernels derive from it, at every call, the cards each seat played and
    each card's trick number (a few dozen bytes to walk in compiled code), so adding a
    trick is one ``bytes`` concatenation and starting a deal is an empty one.
    Following a view's tricks is ``TrickSummary.sync``, as for the reference's
    ``PlayHistory``."""

    __slots__ = ("_heads", "played")

    def __init__(self, players: int, scale: int) -> None:
        super().__init__(players, scale)
        self.played = b""
        self._heads = [bytes((players, *((leader + i) % players for i in range(players))))
                       for leader in range(players)]
        """Per leader, the start of a whole trick's record: its size, then the seats in
        playing order (play goes to the left)."""

    def reset(self) -> None:
        self.played = b""
        self.synced = ()

    def sync(self, tricks: tuple[Any, ...],
             trick_players: Sequence[Sequence[int]] | None = None) -> None:
        """``TrickSummary.sync``, with its most common case first: the view holds one
        trick more than the summary, after the same records."""
        synced = self.synced
        done = len(synced)
        if len(tricks) == done + 1 and (not done or tricks[done - 1] is synced[-1]):
            record = tricks[done]
            cards = record.cards
            if trick_players is None and len(cards) == self.players:
                self.played += self._heads[record.leader] + bytes(cards)
            else:
                self._extend(tricks, done, trick_players)
            self.synced = tricks
        else:
            super().sync(tricks, trick_players)

    def _extend(self, tricks: tuple[Any, ...], done: int,
                trick_players: Sequence[Sequence[int]] | None) -> None:
        played, heads, players = self.played, self._heads, self.players
        for k in range(done, len(tricks)):
            record = tricks[k]
            cards = record.cards
            if trick_players is not None:
                played += bytes((len(cards), *trick_players[k])) + bytes(cards)
            elif len(cards) == players:
                played += heads[record.leader] + bytes(cards)
            else:  # a short trick: its seats from the leader, going left
                leader = record.leader
                played += bytes((len(cards), *((leader + i) % players
                                               for i in range(len(cards))))) + bytes(cards)
        self.played = played


class CompiledEncoder:
    """One seat's compiled encoder: a game's ``layout``, the ``history`` of completed
    tricks (shared by an environment's seats), the kernel's entry point and ``params``,
    the kernel's ``p``: offsets and numbers, then ``kernels.SCRATCH`` entries where the
    kernel gathers the cards each seat played (so that is one array argument, not two).
    ``_spare`` and ``_other``: the two (observation, mask) pairs written again when no
    one holds them (the module's docstring says why); ``_unheld``: the reference count
    the check reads for an array only its pair holds. The three lines of that check are
    written out in each game's ``encode``: as a method they cost German Whist's learner
    loop 0.3 to 0.8% of its rate (0.502 against 0.494 and 0.514 against 0.511 of the
    engine's, in one process), where the goal is 0.5."""

    layout: Layout
    history: CompiledHistory
    params: np.ndarray

    def reset(self) -> None:
        self.history.reset()

    def _compile(self, game_name: str) -> None:
        """Add the kernel's scratch entries to ``params`` and find the game's kernel's
        entry point for the argument types of ``_sample``."""
        from whist_sim.env.kernels import SCRATCH

        self.params = np.concatenate([self.params, np.zeros(SCRATCH, np.int64)])
        self._spare, self._other = (
            (_empty(self.size, FLOAT32), _empty(self.actions, INT8)) for _ in range(2))
        obs, _mask = self._spare  # as ``encode`` reads it: the same references
        self._unheld = _refs(obs)
        self.write = _entry(kernels()[game_name], self._sample())

    def _free_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The other pair, if no one holds it, or a new one, made the spare: the spare is
        held (by a learner that kept it, or is still acting on it)."""
        spare, other = self._spare, self._other
        obs, mask = other
        if _refs(obs) != self._unheld or _refs(mask) != self._unheld:
            other = (_empty(self.size, FLOAT32), _empty(self.actions, INT8))
        self._spare, self._other = other, spare
        return other

    def _sample(self) -> tuple[Any, ...]:
        raise NotImplementedError


def _offsets(layout: Layout, *names: str | int) -> np.ndarray:
    """A kernel's ``p``: the offsets of the named segments, and ints as given (scales,
    sizes and action numbers, so no kernel holds a number of the layout or the rules)."""
    return np.array([layout.offsets[name] if isinstance(name, str) else name
                     for name in names], np.int64)


def scale(layout: Layout, name: str) -> int:
    """A segment's scale as the whole number the kernels divide by."""
    value = layout.segment(name).scale
    if value != int(value):
        raise ValueError(f"{layout.game} layout: {name} has scale {value}, not a whole number")
    return int(value)


class GermanWhistCompiled(CompiledEncoder):
    def __init__(self, game: Any, history: CompiledHistory | None = None) -> None:
        self.layout = layout = german_whist.german_whist_layout(game)
        self.history = history if history is not None else CompiledHistory(2, 26)
        self.size, self.actions = layout.size, layout.actions
        self.params = _offsets(layout, "hand", "played", "trick", "upcard", "taken", "drawn",
                               "trump", "phase", "stage", "dealer", "leader", "seat", "to_act",
                               "trick_number", "faceup", "facedown_left",
                               game.variant.open_stock, scale(layout, "trick_number"),
                               scale(layout, "facedown_left"), scale(layout, "stage1_tricks"))
        self._faceup: tuple[Any, bytes] = ((), b"")
        """The face-up row as bytes, kept for the tuple it came from: it changes once a
        trick, and both seats' views hold the same one."""
        self._tricks = _german_tricks()
        self._compile("german_whist")

    def _sample(self) -> tuple[Any, ...]:
        history = self.history
        return (np.zeros(self.size, np.float32), np.zeros(self.actions, np.int8),
                history.played, self.params, 0, 0, 1, 1, 0, 0, bytes((1,)),
                0, 1, 0, 0, -1, (0, 0), 0, (0, 0), (0, 0))

    def encode(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        (seat, phase, legal, hand, trump, upcard, faceup, facedown_left, stage, dealer,
         leader, trick, tricks, taken, drawn, won1, won2, _) = view
        history = self.history
        synced = history.synced
        if tricks is not synced:
            done = len(synced)
            if len(tricks) == done + 1 and (not done or tricks[done - 1] is synced[-1]):
                # one trick more, as after every trick: its record's bytes from a table
                # (``CompiledHistory.sync``'s, without the call and the three bytes made)
                record = tricks[done]
                first, second = record.cards
                history.played += self._tricks[record.leader][first * 52 + second]
                history.synced = tricks
            else:
                history.sync(tricks)
        known, row = self._faceup
        if faceup is not known:
            row = bytes(faceup)
            self._faceup = (faceup, row)
        obs, mask = self._spare
        if _refs(obs) != self._unheld or _refs(mask) != self._unheld:
            obs, mask = self._free_arrays()
        self.write(obs, mask, history.played, self.params, seat,
                   GERMAN_PHASES.get(phase, -1), legal, hand, trump, upcard, row,
                   facedown_left, stage, dealer, leader, trick[0] if trick else -1, taken,
                   drawn, won1, won2)
        return obs, mask


_GERMAN_TRICKS: list[list[bytes]] = []


def _german_tricks() -> list[list[bytes]]:
    """Per leader, per (first card, second card) ``first * 52 + second``: a completed German
    Whist trick as ``CompiledHistory`` records it (its size, the seats in playing order,
    the cards), made once (two tables of 2,704 five-byte records)."""
    if not _GERMAN_TRICKS:
        _GERMAN_TRICKS.extend(
            [bytes((2, leader, 1 - leader, first, second)) for first in range(NUM_CARDS)
             for second in range(NUM_CARDS)] for leader in (0, 1))
    return _GERMAN_TRICKS


class SoloWhistCompiled(CompiledEncoder):
    def __init__(self, game: Any, history: CompiledHistory | None = None) -> None:
        self.layout = layout = solo_whist.solo_whist_layout(game)
        self.history = history if history is not None else CompiledHistory(4, 13)
        self.size, self.actions = layout.size, layout.actions
        self.params = _offsets(layout, "hand", "played", "trick", "upcard", "exposed",
                               "call_seat", "call", "passed", "contract", "declarer",
                               "partner", "trump", "phase", "dealer", "leader", "seat",
                               "upcard_held", "trick_number", "to_act", "tricks_won",
                               scale(layout, "trick_number"), scale(layout, "tricks_won"),
                               len(solo_whist.CONTRACTS), len(solo_whist.CALL_NAMES),
                               solo_whist.PASS)
        self._bids: tuple[Any, bytes] = ((), b"")
        """The auction as bytes (seat, call, seat, call, ...), kept for the tuple it came
        from: during the play every view holds the same one."""
        self._compile("solo_whist")

    def _sample(self) -> tuple[Any, ...]:
        history = self.history
        return (np.zeros(self.size, np.float32), np.zeros(self.actions, np.int8),
                history.played, self.params, 0, 0, 1, 1, 1, 0, 0, 0,
                bytes((0, 52)), (False, False, False, False), -1, -1, -1, -1, 0,
                bytes((2,)), (0, 0, 0, 0), 0)

    def encode(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        (seat, phase, legal, hand, dealer, upcard, upcard_held, bids, passed, contract,
         declarer, partner, trump, leader, trick, tricks, won, exposed, _) = view
        history = self.history
        if tricks is not history.synced:
            history.sync(tricks)
        known, auction = self._bids
        if bids is not known:
            auction = bytes([value for pair in bids for value in pair])
            self._bids = (bids, auction)
        obs, mask = self._spare
        if _refs(obs) != self._unheld or _refs(mask) != self._unheld:
            obs, mask = self._free_arrays()
        self.write(obs, mask, history.played, self.params, seat,
                   SOLO_PHASES.get(phase, -1), legal & FULL_DECK, legal >> NUM_CARDS, hand,
                   dealer, upcard, upcard_held, auction, passed, contract, declarer, partner,
                   trump, leader, bytes(trick), won, exposed)
        return obs, mask


class MinnesotaWhistCompiled(CompiledEncoder):
    def __init__(self, game: Any, history: CompiledHistory | None = None) -> None:
        self.layout = layout = minnesota_whist.minnesota_whist_layout(game)
        self.history = history if history is not None else CompiledHistory(4, 13)
        self.size, self.actions = layout.size, layout.actions
        self.target = game.variant.target
        self.params = _offsets(layout, "hand", "played", "trick", "laid", "turned",
                               "called_pass", "called_grand", "laid_count", "grander", "grand",
                               "phase", "dealer", "leader", "seat", "to_act", "trick_number",
                               "side_tricks", scale(layout, "trick_number"),
                               scale(layout, "side_tricks"), GRAND)
        self._public: tuple[Any, Any, Any, bytes, bytes, tuple[float, float]] = (
            None, None, None, b"", b"", (0.0, 0.0))
        """(turned, calls, score) as the views held them, the first two as bytes (seat,
        card or call, ...) and the score squashed (side 0, side 1): the same tuples all
        through a deal's play."""
        self._compile("minnesota_whist")

    def _sample(self) -> tuple[Any, ...]:
        history = self.history
        return (np.zeros(self.size, np.float32), np.zeros(self.actions, np.int8),
                history.played, self.params, 0, 0, 1, 1, 0, -1, 0,
                bytes((0, 1)), bytes((0, 52)), -1, 0, 0, bytes((2,)), (0, 0), (0.0, 0.0))

    def encode(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        (seat, phase, legal, hand, dealer, laid, laid_count, turned, calls, grander, grand,
         leader, trick, tricks, side_tricks, score, _) = view
        history = self.history
        if tricks is not history.synced:
            history.sync(tricks)
        public = self._public
        if turned is not public[0] or calls is not public[1] or score is not public[2]:
            public = self._public = self._public_of(turned, calls, score)
        obs, mask = self._spare
        if _refs(obs) != self._unheld or _refs(mask) != self._unheld:
            obs, mask = self._free_arrays()
        self.write(obs, mask, history.played, self.params, seat,
                   MINNESOTA_PHASES.get(phase, -1), legal, hand, dealer, laid, laid_count,
                   public[3], public[4], grander, grand, leader, bytes(trick),
                   side_tricks, public[5])
        return obs, mask

    def _public_of(self, turned: Any, calls: Any, score: Any
                   ) -> tuple[Any, Any, Any, bytes, bytes, tuple[float, float]]:
        target = self.target
        return (turned, calls, score, bytes([value for pair in turned for value in pair]),
                bytes([value for pair in calls for value in pair]),
                (squash(score[0], target), squash(score[1], target)))


class KnockoutWhistCompiled(CompiledEncoder):
    def __init__(self, game: Any, history: CompiledHistory | None = None) -> None:
        self.layout = layout = knockout_whist.knockout_whist_layout(game)
        self.players = game.players
        self.history = history if history is not None else CompiledHistory(game.players, ROUNDS)
        self.size, self.actions = layout.size, layout.actions
        self.params = _offsets(layout, "hand", "played", "trick", "upcard", "full", "dog",
                               "dog_used", "trump", "phase", "round", "dealer", "leader",
                               "seat", "to_act", "trick_number", "round_tricks",
                               game.players, scale(layout, "trick_number"))
        self._seats: dict[tuple[Any, Any], tuple[int, int, int]] = {}
        """(status, dog_used) -> which seats are in, on a dog's life, have had it, as
        masks of seats: the views build these tuples afresh, so they are kept by value."""
        self._compile("knockout_whist")

    def _sample(self) -> tuple[Any, ...]:
        history = self.history
        return (np.zeros(self.size, np.float32), np.zeros(self.actions, np.int8),
                history.played, self.params, 0, 0, 1, 1, 1, 0, 0, -1, 0,
                bytes((2,)), bytes((0,)), bytes(self.players), 0, 0, 0)

    def encode(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        (seat, phase, legal, hand, _, round_, _, dealer, trump, upcard, leader, trick,
         trick_seats, tricks, trick_players, won, status, dog_used, _) = view
        history = self.history
        if tricks is not history.synced:
            history.sync(tricks, trick_players)
        seats = self._seats.get((status, dog_used))
        if seats is None:
            seats = self._seats_of(status, dog_used)
        obs, mask = self._spare
        if _refs(obs) != self._unheld or _refs(mask) != self._unheld:
            obs, mask = self._free_arrays()
        self.write(obs, mask, history.played, self.params, seat,
                   KNOCKOUT_PHASES.get(phase, -1), legal, hand, round_, dealer, trump, upcard,
                   leader, bytes(trick), bytes(trick_seats), bytes(won), *seats)
        return obs, mask

    def _seats_of(self, status: Any, dog_used: Any) -> tuple[int, int, int]:
        full = dog = used = 0
        for who, (state, had) in enumerate(zip(status, dog_used, strict=True)):
            if state == IN:
                full |= 1 << who
            elif state == DOG:
                dog |= 1 << who
            if had:
                used |= 1 << who
        if len(self._seats) > 4096:  # a bound, far above the combinations a game meets
            self._seats.clear()
        seats = self._seats[(status, dog_used)] = (full, dog, used)
        return seats


COMPILED: dict[str, Any] = {
    "german_whist": GermanWhistCompiled,
    "solo_whist": SoloWhistCompiled,
    "minnesota_whist": MinnesotaWhistCompiled,
    "knockout_whist": KnockoutWhistCompiled,
}
