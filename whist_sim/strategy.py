"""The Strategy protocol and the registry that finds strategies by name.

A strategy is a class with ``choose(view, rng) -> action``. It sees only the
view of its seat (see each game's ``...View``) and a ``random.Random`` seeded
for that seat of that deal, so the same deal always plays the same way whatever
worker plays it. Strategies should keep no state between calls that changes
their choices: everything a seat may know is in the view.

Built-in strategies register exactly as a third-party plug-in does: an entry
point in the ``whist_sim.strategies`` group (see pyproject.toml), or a
``"package.module:Class"`` reference in a config.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from importlib.metadata import entry_points
from random import Random
from typing import Any, ClassVar

from whist_sim.games.base import WhistSimError

ENTRY_POINT_GROUP = "whist_sim.strategies"


class StrategyError(WhistSimError, ValueError):
    """A strategy that cannot be found, built or used as asked."""


class Strategy:
    """Base class for strategies (subclassing is optional; the protocol is what counts).

    Class attributes a strategy declares:
    - ``games``: names of the games it can play (``whist_sim.games.GAMES`` keys).
    - ``version``: bumped whenever its behaviour changes, recorded in results.
    Constructor keyword arguments are its parameters, given in a config as
    ``params = {...}``.
    """

    games: ClassVar[frozenset[str]] = frozenset()
    version: ClassVar[str] = "1"

    def choose(self, view: Any, rng: Random) -> int:
        raise NotImplementedError


def available_strategies() -> dict[str, str]:
    """Registered entry-point names and the ``module:Class`` each points to."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


BUILT_IN_DISTRIBUTION = "whist-sim"


def is_built_in(spec: str) -> bool:
    """Whether ``spec`` names a strategy shipped with whist_sim (an entry point of this
    distribution), as opposed to a plug-in: only built-ins may play in the run's own
    process without being asked to (``runner.choose_in_process``)."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == spec:
            dist = getattr(ep, "dist", None)
            name = getattr(dist, "name", "") or ""
            return name.replace("_", "-").lower() == BUILT_IN_DISTRIBUTION
    return False


def resolve_strategy(spec: str) -> type:
    """The strategy class named by an entry-point name or a ``"package.module:Class"``."""
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise StrategyError(
                f"strategy {spec!r}: cannot import {module_name!r} ({exc})"
            ) from None
        try:
            return getattr(module, attr)
        except AttributeError:
            raise StrategyError(f"strategy {spec!r}: {module_name} has no {attr!r}") from None
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == spec:
            return ep.load()
    known = ", ".join(sorted(available_strategies())) or "(none installed)"
    raise StrategyError(
        f"unknown strategy {spec!r}; registered strategies: {known},"
        " or give 'package.module:Class'"
    )


def strategy_version(cls: type) -> str:
    return str(getattr(cls, "version", "1"))


def strategy_class(spec: str, game: str) -> type:
    """The class that plays ``game`` for ``spec``.

    A strategy that plays several games with a different class for each (the
    built-in ``heuristic``) exposes ``for_game(game) -> class``; any plug-in may
    do the same.
    """
    cls = resolve_strategy(spec)
    supported = getattr(cls, "games", None)
    if supported is not None and game not in supported:
        raise StrategyError(
            f"strategy {spec!r} does not play {game}; it supports: {', '.join(sorted(supported))}"
        )
    for_game = getattr(cls, "for_game", None)
    if not callable(for_game):
        return cls
    try:
        return for_game(game)
    except (ImportError, AttributeError, KeyError) as exc:
        raise StrategyError(f"strategy {spec!r} has no class for {game} ({exc})") from None


def build_strategy(spec: str, params: Mapping[str, Any] | None, game: str) -> Any:
    """Resolve for ``game`` (checking the strategy plays it) and construct with ``params``."""
    cls = strategy_class(spec, game)
    params = dict(params or {})
    allowed = _parameter_names(cls)
    unknown = sorted(set(params) - set(allowed)) if allowed is not None else []
    if unknown:
        shown = ", ".join(allowed) if allowed else "(none)"
        raise StrategyError(
            f"strategy {spec!r}: unknown parameter {unknown[0]!r}; allowed parameters: {shown}"
        )
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise StrategyError(f"strategy {spec!r}: {exc}") from None


def _parameter_names(cls: type) -> list[str] | None:
    """Keyword parameters of the constructor, or None if it takes ``**kwargs``."""
    signature = inspect.signature(cls)
    names = []
    for name, param in signature.parameters.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if param.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            names.append(name)
    return names
