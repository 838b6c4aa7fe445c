"""Who played which card in which trick, kept per observing seat and extended, not rebuilt.

Re-reading every completed trick at every observation costs more than the engine's
whole step (26 tricks of German Whist, 13 of four cards in the others), so an encoder
keeps this summary of the view's ``tricks`` and adds only the tricks completed since
the seat's previous observation. It is still a function of the view alone: a view
whose completed tricks do not extend the ones summarised (a new deal, a new Knock-out
round, a view rebuilt from JSON whose records are equal but not identical) is checked
by value and, if it differs, summarised from scratch (``tests/test_env_observations.py``
compares with a fresh encoder at every step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from whist_sim.cards import NUM_CARDS
from whist_sim.env.layout import Layout
from whist_sim.env.unpack import unpack_numpy


class TrickSummary:
    """What an encoder keeps of the completed tricks, and how it follows a view's
    ``tricks``: ``sync`` adds the records completed since the last call, or starts
    again when they do not extend the ones summarised. Subclasses keep the summary
    (``reset``, ``_extend``): ``PlayHistory`` for the reference encoders,
    ``whist_sim.env.compiled.CompiledHistory`` for the compiled ones."""

    __slots__ = ("players", "scale", "synced")

    def __init__(self, players: int, scale: float) -> None:
        self.players = players
        self.scale = scale
        self.synced: tuple[Any, ...] = ()

    def reset(self) -> None:
        raise NotImplementedError

    def _extend(self, tricks: tuple[Any, ...], done: int,
                trick_players: Sequence[Sequence[int]] | None) -> None:
        """Add ``tricks[done:]`` to the summary."""
        raise NotImplementedError

    def sync(self, tricks: tuple[Any, ...],
             trick_players: Sequence[Sequence[int]] | None = None) -> None:
        """Bring the summary up to ``tricks`` (TrickRecords in order). Seats of each
        card follow from the trick's leader, play going to the left, unless
        ``trick_players`` lists them (Knock-out Whist, where a dog may knock)."""
        synced = self.synced
        if tricks is synced:
            return
        done = len(synced)
        if len(tricks) == done and (not done or tricks[-1] is synced[-1]):
            self.synced = tricks  # the same records in a new tuple: nothing to add
            return
        if done and (len(tricks) < done or (
                tricks[done - 1] is not synced[-1] and tricks[:done] != synced)):
            self.reset()
            done = 0
        self._extend(tricks, done, trick_players)
        self.synced = tricks


class PlayHistory(TrickSummary):
    """Per absolute seat, the cards it played in the completed tricks; per card, the
    number of its trick (1, 2, ...) divided by ``scale``."""

    __slots__ = ("numbers", "played", "version")

    def __init__(self, players: int, scale: float) -> None:
        super().__init__(players, scale)
        self.played: list[int] = [0] * players
        self.numbers = np.zeros(NUM_CARDS, np.float32)
        self.version = 0
        """Counts the changes, so a cache of ``numbers`` knows when to copy them again."""

    def reset(self) -> None:
        self.played = [0] * self.players
        self.numbers = np.zeros(NUM_CARDS, np.float32)
        self.synced = ()
        self.version += 1

    def _extend(self, tricks: tuple[Any, ...], done: int,
                trick_players: Sequence[Sequence[int]] | None) -> None:
        played, numbers, players, scale = self.played, self.numbers, self.players, self.scale
        for k in range(done, len(tricks)):
            record = tricks[k]
            value = (k + 1) / scale
            if trick_players is not None:
                for seat, card in zip(trick_players[k], record.cards, strict=True):
                    played[seat] |= 1 << card
                    numbers[card] = value
            else:
                seat = record.leader
                for card in record.cards:
                    played[seat] |= 1 << card
                    numbers[card] = value
                    seat = (seat + 1) % players
        self.version += 1

    def planes(self, trick: tuple[int, ...], leader: int, seat: int) -> tuple[int, int]:
        """The cards each seat has played, the trick in progress included, as one int of
        ``players`` card planes starting with ``seat`` and going left; and the trick's
        cards as a mask. Seats follow the trick's leader, play going to the left."""
        players = self.players
        played = list(self.played)
        trick_mask = 0
        player = leader
        for card in trick:
            played[player] |= 1 << card
            trick_mask |= 1 << card
            player = (player + 1) % players
        planes = 0
        for rel in range(players):
            planes |= played[(seat + rel) % players] << rel * NUM_CARDS
        return planes, trick_mask


class RealValues:
    """One seat's observation and action mask: ``emit`` writes the binary part and the
    mask from the encoder's packed int (``whist_sim.env.unpack``); the real-valued tail
    (``buffer``, a view of the kept observation after its binary part) is kept between
    calls and rewritten only where the view changed: the trick numbers (copied from a
    ``PlayHistory`` when it changes, plus the cards of the trick in progress), cards
    with a value (the face-up stock) and a few counts.

    Every call returns new arrays (copies of the kept ones), so an observation a
    learner keeps never changes under it when the next one is written.

    Writing 52 trick numbers and a handful of counts at every observation cost more
    than the engine's step; most observations change only the trick in progress.
    Every cache is keyed by the values it was written from, so views may come in any
    order (a test compares with a fresh encoder at every step).
    """

    __slots__ = ("_actions", "_binary", "_bytes", "buffer", "cards", "history", "mask", "obs",
                 "tail", "trick", "version")

    def __init__(self, layout: Layout, history: PlayHistory) -> None:
        if layout.offsets.get("trick_number") != layout.binary_size:
            raise ValueError(f"{layout.game} layout: the trick numbers must be the first"
                             " real-valued segment")
        self._binary, self._actions = layout.binary_size, layout.actions
        self._bytes = layout.packed_bytes
        self.obs = np.zeros(layout.size, np.float32)
        self.mask = np.zeros(layout.actions, np.int8)
        self.buffer = self.obs[layout.binary_size:]
        """[0:52]: trick numbers; then what the encoder puts there."""
        self.history = history
        self.version = -1
        self.trick: tuple[int, ...] = ()
        self.cards: dict[int, tuple[int, ...]] = {}
        self.tail: dict[int, tuple[Any, ...]] = {}

    def numbers(self, trick: tuple[int, ...], value: float) -> None:
        """Trick numbers: the history's, and ``value`` for the cards of ``trick``."""
        buffer, history = self.buffer, self.history
        if history.version != self.version:
            buffer[:NUM_CARDS] = history.numbers
            self.version = history.version
            self.trick = ()
        if trick != self.trick:
            numbers = history.numbers
            for card in self.trick:
                buffer[card] = numbers[card]
            for card in trick:
                buffer[card] = value
            self.trick = trick
        return None

    def card_values(self, offset: int, cards: tuple[int, ...], scale: float) -> None:
        """At ``offset`` (in the tail), card ``cards[i]`` gets (i + 1) / scale, others 0."""
        old = self.cards.get(offset, ())
        if cards != old:
            buffer = self.buffer
            for card in old:
                buffer[offset + card] = 0.0
            for place, card in enumerate(cards, 1):
                buffer[offset + card] = place / scale
            self.cards[offset] = cards
        return None

    def stale(self, offset: int, key: tuple[Any, ...]) -> bool:
        """Whether the values at ``offset`` were written from another ``key`` (then the
        caller writes them, and ``key`` is remembered)."""
        if self.tail.get(offset) == key:
            return False
        self.tail[offset] = key
        return True

    def emit(self, bits: int, trick: tuple[int, ...], value: float
             ) -> tuple[np.ndarray, np.ndarray]:
        """The observation and the action mask, as new arrays: the binary part and the
        mask from ``bits``, the trick numbers as ``numbers`` says (``trick``: the cards of
        the trick in progress, also ``bits``'s trick plane; ``value``: its number), then
        the rest of the tail as the encoder left it."""
        self.numbers(trick, value)
        unpack_numpy(bits, self._bytes, self.obs, self.mask, self._binary, self._actions)
        return self.obs.copy(), self.mask.copy()
