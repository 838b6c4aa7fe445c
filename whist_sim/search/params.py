"""Checks of search strategies' parameters, so a bad config fails with a clear message.

``build_strategy`` prefixes the strategy's name; these messages name the parameter,
the value given and the values allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from whist_sim.games.base import as_toml


def whole_number(name: str, value: Any, minimum: int) -> int:
    """``value`` as an int if it is a whole number >= ``minimum``, else ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(
            f"parameter {name!r} must be a whole number >= {minimum}, not {as_toml(value)}"
        )
    return value


def positive_number(name: str, value: Any) -> float:
    """``value`` as a float if it is a finite number > 0, else ValueError."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 < value < float("inf"):
        raise ValueError(f"parameter {name!r} must be a finite number > 0, not"
                         f" {as_toml(value)}")
    return float(value)


def non_negative_number(name: str, value: Any) -> float:
    """``value`` as a float if it is a finite number >= 0, else ValueError."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not 0 <= value < float("inf"):
        raise ValueError(f"parameter {name!r} must be a finite number >= 0, not"
                         f" {as_toml(value)}")
    return float(value)


def flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"parameter {name!r} must be true or false, not {as_toml(value)}")
    return value


def exact_cards_for(view: Any, given: int | None, elsewhere: int,
                    by_game: Mapping[str, int] | None = None) -> int:
    """``given``, or by default 13 in German Whist (all of stage 2, perfect information
    for a card counter, about a millisecond a solve compiled), ``by_game[game]`` for a
    game listed there, and ``elsewhere`` otherwise."""
    return for_game(view, given, elsewhere, {"german_whist": 13, **(by_game or {})})


def for_game(view: Any, given: int | None, elsewhere: int | None,
             by_game: Mapping[str, int]) -> int | None:
    """``given`` if a config set it, else the default of ``view``'s game: ``by_game[game]``
    for a game listed there, ``elsewhere`` otherwise.

    A search budget worth its time differs from game to game (a decision's worlds cost
    more in one game and buy more in another), so a strategy keeps a table of them."""
    if given is not None:
        return given
    from whist_sim.search.model import model_for

    return by_game.get(model_for(view).game, elsewhere)


def solver_function(compiled: bool, exact_cards: int | None = None) -> Callable[..., int]:
    """The open-card solver to use: numba-compiled (fast) or the pure Python search.

    A strategy calls it when it is built, and the compiled solver's kernels are compiled
    (or loaded from numba's disk cache) here, not in a decision (``solver.fast.warm_up``):
    a fresh install's first solve (4-7 s) in a decision passed a 5 s time limit and
    forfeited the hand. ``exact_cards`` is the strategy's own (None: each game's
    default, which solves in every game or in German Whist): 0 never solves, so nothing
    is compiled, and from 13, or by default, German Whist's compiled roll-outs through
    stage 1 (``german_rollout``, which end in a solve) are compiled too. A strategy is
    built without knowing its game, so whatever a game may use is made ready: the solver's
    kernels are the same for every game, loaded in about half a second.
    """
    if compiled:
        from whist_sim.solver import solve_fast

        if exact_cards != 0:
            from whist_sim.solver.fast import warm_up

            warm_up()
        if exact_cards is None or exact_cards >= 13:
            from whist_sim.search.german_rollout import warm_up as warm_rollouts

            warm_rollouts()
        return solve_fast
    from whist_sim.solver import solve

    return solve
