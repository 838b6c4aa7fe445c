"""Environments for learning agents: PettingZoo AEC environments and observation tensors.

One factory per game (``german_whist_v0``, ``solo_whist_v0``, ``minnesota_whist_v0``,
``knockout_whist_v0``) and one by name (``env("solo_whist", variant={...})``). Each
returns a ``WhistEnv``: agents ``player_0..``, a ``Discrete`` action space whose size
``ACTIONS`` gives per game (cards are 0..51, a game's other actions from 52), and
observations ``{"observation": Box, "action_mask": Box}`` laid out as
``layout_for(game)`` says (docs/environment.md shows every field).
"""

from __future__ import annotations

from typing import Any

from whist_sim.env.aec import EnvError, IllegalActionError, UnknownAgentError, WhistEnv
from whist_sim.env.encoders import ACTIONS, encoder_for, game_of_view, layout_for
from whist_sim.env.layout import Layout

__all__ = [
    "ACTIONS", "EnvError", "IllegalActionError", "Layout", "UnknownAgentError", "WhistEnv",
    "encoder_for", "env", "game_of_view", "german_whist_v0", "knockout_whist_v0",
    "layout_for", "minnesota_whist_v0", "solo_whist_v0",
]


def env(game: str, variant: dict[str, Any] | None = None, players: int | None = None,
        render_mode: str | None = None, reward: str = "net") -> WhistEnv:
    """The environment of ``game`` (a ``whist_sim.games.GAMES`` name) under ``variant``
    (the keys a config's [variant] table takes, docs/rules/)."""
    return WhistEnv(game, variant, players, render_mode, reward)


def german_whist_v0(variant: dict[str, Any] | None = None, render_mode: str | None = None,
                    reward: str = "net") -> WhistEnv:
    """German Whist, 2 players: one hand per episode."""
    return WhistEnv("german_whist", variant, None, render_mode, reward)


def solo_whist_v0(variant: dict[str, Any] | None = None, render_mode: str | None = None,
                  reward: str = "net") -> WhistEnv:
    """Solo Whist, 4 players: one hand (auction, trump, play) per episode."""
    return WhistEnv("solo_whist", variant, None, render_mode, reward)


def minnesota_whist_v0(variant: dict[str, Any] | None = None, render_mode: str | None = None,
                       reward: str = "net") -> WhistEnv:
    """Minnesota Whist, 4 players in two partnerships: one hand per episode."""
    return WhistEnv("minnesota_whist", variant, None, render_mode, reward)


def knockout_whist_v0(variant: dict[str, Any] | None = None, players: int | None = None,
                      render_mode: str | None = None, reward: str = "net") -> WhistEnv:
    """Knock-out Whist, 2..7 players (default 2, as ``make_game``): one whole game (every
    round) per episode."""
    return WhistEnv("knockout_whist", variant, players, render_mode, reward)
