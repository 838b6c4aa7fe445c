"""``policy``: a trained policy (a function from an observation to an action) as a strategy.

A config names the function::

    [[strategies]]
    use = "policy"
    callable = "my_package.my_module:act"

and the function is called with the observation dict an environment of
``whist_sim.env`` gives for the seat to act, ``{"observation": float32 array,
"action_mask": int8 array}``, built from the seat's view only by the same encoders,
and returns an action number (cards 0..51, a game's other actions from 52;
docs/environment.md). An action outside the mask is a RuleError, so the seat
forfeits the deal with the reason, like any illegal action.

The function is imported and checked when the strategy is built, i.e. when the
config is validated: an import that fails or a reference that is not a function of
one argument is refused there, before any deal is played.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import operator
import re
from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.env.encoders import encoder_for, game_of_view
from whist_sim.games.base import RuleError, describe_action
from whist_sim.strategy import Strategy

_REFERENCE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def load_callable(reference: Any) -> Callable[[dict[str, Any]], Any]:
    """The function ``"package.module:function"`` names, or a ValueError saying why not."""
    if not isinstance(reference, str) or not _REFERENCE.fullmatch(reference):
        raise ValueError(
            f"callable = {reference!r} is not package.module:function (a dotted module name,"
            " a colon, a function name), e.g. callable = \"my_package.policies:act\""
        )
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"callable = {reference!r}: cannot import module {module_name!r} ({exc}); it must"
            " be installed or on PYTHONPATH (run from the folder that holds it)"
        ) from None
    except Exception as exc:  # the module's own code failed while being imported
        raise ValueError(
            f"callable = {reference!r}: importing {module_name!r} raised"
            f" {type(exc).__name__}: {exc}"
        ) from None
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise ValueError(
                f"callable = {reference!r}: {module_name} has no {attribute!r}"
            ) from None
    if not callable(found):
        raise ValueError(
            f"callable = {reference!r} is {type(found).__name__} {found!r}, not a function;"
            " a policy is a function from the observation dict to an action"
        )
    try:
        signature = inspect.signature(found)
    except (TypeError, ValueError):
        return found  # a callable whose parameters cannot be read (C code): trusted as it is
    try:
        signature.bind({})
    except TypeError:
        raise ValueError(
            f"callable = {reference!r}: {attribute}{signature} cannot be called with one"
            " argument; a policy is a function from the observation dict to an action"
        ) from None
    return found


class PolicyStrategy(Strategy):
    """Asks a policy function for each decision, with the seat's observation tensors."""

    games = frozenset({"german_whist", "solo_whist", "minnesota_whist", "knockout_whist"})
    version = "1"

    def __init__(self, callable: str | None = None) -> None:
        if callable is None:
            raise ValueError('needs callable = "package.module:function" (the policy to play)')
        self.reference = callable
        self.function = load_callable(callable)
        self._encoders: dict[tuple[Any, ...], Any] = {}

    def choose(self, view: Any, rng: Random) -> int:
        key = (type(view), view.variant, getattr(view, "players", None), view.seat)
        found = self._encoders.get(key)
        if found is None:
            game = game_of_view(view)
            found = self._encoders[key] = (encoder_for(game), game)
        encoder, game = found
        observation, mask = encoder.encode(view)
        action = self.function({"observation": observation, "action_mask": mask})
        number = None
        if not isinstance(action, bool):
            with contextlib.suppress(TypeError):  # ints and NumPy integers, not floats
                number = operator.index(action)
        if number is None or number < 0 or not view.legal >> number & 1:
            self._refuse(view, action, number, game)
        return number  # type: ignore[return-value]

    def _refuse(self, view: Any, action: Any, number: int | None, game: Any) -> None:
        legal = view.legal
        allowed = ", ".join(
            f"{a} ({describe_action(game.action_str, a)})"
            for a in range(legal.bit_length()) if legal >> a & 1
        )
        shown = repr(action) if number is None else (
            f"{number} ({describe_action(game.action_str, number)})")
        raise RuleError(
            view.seat, shown, "action mask",
            f"seat {view.seat}: policy {self.reference} returned {shown}, which the action"
            f" mask does not allow; allowed: {allowed}",
        )
