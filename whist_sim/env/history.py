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


class PlayHistory:
    """Per absolute seat, the cards it played in the completed tricks; per card, the
    number of its trick (1, 2, ...) divided by ``scale``."""

    __slots__ = ("numbers", "played", "players", "scale", "synced")

    def __init__(self, players: int, scale: float) -> None:
        self.players = players
        self.scale = scale
        self.played: list[int] = [0] * players
        self.numbers = np.zeros(NUM_CARDS, np.float32)
        self.synced: tuple[Any, ...] = ()

    def reset(self) -> None:
        self.played = [0] * self.players
        self.numbers = np.zeros(NUM_CARDS, np.float32)
        self.synced = ()

    def sync(self, tricks: tuple[Any, ...],
             trick_players: Sequence[Sequence[int]] | None = None) -> None:
        """Bring the summary up to ``tricks`` (TrickRecords in order). Seats of each
        card follow from the trick's leader, play going to the left, unless
        ``trick_players`` lists them (Knock-out Whist, where a dog may knock)."""
        synced = self.synced
        if tricks is synced:
            return
        done = len(synced)
        if done and (len(tricks) < done or (
                tricks[done - 1] is not synced[-1] and tricks[:done] != synced)):
            self.reset()
            done = 0
        played, numbers, players = self.played, self.numbers, self.players
        for k in range(done, len(tricks)):
            record = tricks[k]
            value = (k + 1) / self.scale
            seats = trick_players[k] if trick_players is not None else [
                (record.leader + i) % players for i in range(len(record.cards))]
            for seat, card in zip(seats, record.cards, strict=True):
                played[seat] |= 1 << card
                numbers[card] = value
        self.synced = tricks
