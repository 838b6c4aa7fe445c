"""Which encoder and layout each game uses, by game name or by the type of a seat's view.

An encoder turns one seat's view into ``(observation, action_mask)``; it reads the
view only (never the deal state), so a strategy handed a view can build the same
tensors an environment gives (``strategies/policy.py`` does).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from whist_sim.env import german_whist, knockout_whist, minnesota_whist, solo_whist
from whist_sim.env.layout import Layout
from whist_sim.games import GAMES, as_game, make_game
from whist_sim.games.base import Game, VariantError
from whist_sim.games.german_whist import GermanWhistView
from whist_sim.games.knockout_whist import KnockoutWhistView
from whist_sim.games.minnesota_whist import MinnesotaWhistView
from whist_sim.games.solo_whist import SoloWhistView


class Encoder(Protocol):
    layout: Layout

    history: Any

    def reset(self) -> None: ...

    def encode(self, view: Any) -> tuple[np.ndarray, np.ndarray]: ...


ENCODERS: dict[str, Any] = {
    "german_whist": german_whist.GermanWhistEncoder,
    "solo_whist": solo_whist.SoloWhistEncoder,
    "minnesota_whist": minnesota_whist.MinnesotaWhistEncoder,
    "knockout_whist": knockout_whist.KnockoutWhistEncoder,
}

LAYOUTS: dict[str, Any] = {
    "german_whist": german_whist.german_whist_layout,
    "solo_whist": solo_whist.solo_whist_layout,
    "minnesota_whist": minnesota_whist.minnesota_whist_layout,
    "knockout_whist": knockout_whist.knockout_whist_layout,
}

ACTIONS: dict[str, int] = {
    "german_whist": german_whist.ACTIONS,
    "solo_whist": solo_whist.ACTIONS,
    "minnesota_whist": minnesota_whist.ACTIONS,
    "knockout_whist": knockout_whist.ACTIONS,
}
"""Size of each game's ``Discrete`` action space: cards are 0..51, other actions from 52."""

GAME_OF_VIEW: dict[type, str] = {
    GermanWhistView: "german_whist",
    SoloWhistView: "solo_whist",
    MinnesotaWhistView: "minnesota_whist",
    KnockoutWhistView: "knockout_whist",
}

if set(ENCODERS) != set(GAMES):  # a new game needs its encoder before it can be trained on
    raise ImportError(f"whist_sim.env has no encoder for {sorted(set(GAMES) - set(ENCODERS))}")


def encoder_for(game: Game | str, compiled: bool = False, history: Any = None) -> Encoder:
    """A fresh encoder for one seat of ``game`` (its variant and table size; a name: its
    default variant).
    ``compiled=True``: the game's compiled encoder (``whist_sim.env.compiled``), which
    hands the view's fields to one numba kernel: the same values as the reference
    (tests compare the two at every step), about a quarter of its time per observation,
    but the first one built imports numba and loads or compiles the kernels (a second
    or more). The environment asks for it when it is built; a ``use = "policy"``
    strategy does not, so no decision of a tournament waits for numba. ``history``: the
    ``PlayHistory`` of another seat's encoder of the same game and kind, to share (every
    seat sees the same completed tricks, so an environment keeps one summary, not one
    per seat); by default the encoder keeps its own."""
    if compiled is not True and compiled is not False:
        raise TypeError(f"compiled = {compiled!r}: True or False")
    game = as_game(game)
    if compiled:
        from whist_sim.env.compiled import COMPILED

        return COMPILED[game.name](game, history)
    return ENCODERS[game.name](game, history)


def layout_for(game: Game | str) -> Layout:
    """The observation layout of ``game`` (a game, or a name for its default variant)."""
    game = as_game(game)
    return LAYOUTS[game.name](game)


def game_of_view(view: Any) -> Game:
    """The game (variant, table size) a seat's view belongs to, rebuilt from the view."""
    name = GAME_OF_VIEW.get(type(view))
    if name is None:
        raise VariantError(
            f"{type(view).__name__} is not a seat's view of a whist_sim game; views:"
            f" {', '.join(t.__name__ for t in GAME_OF_VIEW)}"
        )
    players = getattr(view, "players", None)
    return make_game(name, view.variant.as_dict(), players)


def legal_mask(game: Game, legal: int) -> np.ndarray:
    """A legal-action bitmask as a 0/1 ``int8`` array of the game's action-space size."""
    size = ACTIONS[game.name]
    bits = np.frombuffer(legal.to_bytes((size + 7) // 8, "little"), np.uint8)
    return np.unpackbits(bits, count=size, bitorder="little").view(np.int8)
