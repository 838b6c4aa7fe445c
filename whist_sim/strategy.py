"""The Strategy protocol and the registry that finds strategies by name.

A strategy is a class with ``choose(view, rng) -> action``. It sees only the
view of its seat (see each game's ``...View``) and a ``random.Random`` seeded
for that seat of that deal, so the same deal always plays the same way whatever
worker plays it. Strategies should keep no state between calls that changes
their choices: everything a seat may know is in the view.

Built-in strategies register exactly as a third-party plug-in does: an entry
point in the ``whist_sim.strategies`` group (see pyproject.toml), or a
``"package.module:Class"`` reference in a config.

A name registered by two distributions (a plug-in that calls itself ``heuristic``)
is refused wherever it is used, naming both: picking one would silently replace a
built-in, or a plug-in, by whichever the installer listed first. The full
``module:Class`` of either always works. ``strategy_source`` says where a strategy
was loaded from (distribution, module, file and its SHA-256), for ``run.json``.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import re
import sys
from collections.abc import Mapping, Set
from importlib.metadata import (
    Distribution,
    EntryPoint,
    PackageNotFoundError,
    distribution,
    entry_points,
    packages_distributions,
)
from pathlib import Path
from random import Random
from typing import Any, ClassVar

from whist_sim.games import GAMES
from whist_sim.games.base import Game, WhistSimError, closest, did_you_mean
from whist_sim.helper_modules import helper_modules
from whist_sim.raised import innermost_frame, raised_at, raised_text

ENTRY_POINT_GROUP = "whist_sim.strategies"


class StrategyError(WhistSimError, ValueError):
    """A strategy that cannot be found, built or used as asked."""


class Strategy:
    """Base class for strategies (subclassing is optional; the protocol is what counts).

    Class attributes a strategy declares:
    - ``games``: names of the games it can play (``whist_sim.games.GAMES`` keys).
    - ``version``: bumped whenever its behaviour changes, recorded in results.
    Constructor keyword arguments are its parameters, given in a config as
    ``params = {...}``. Optionally, ``randomness_advice``: how its author makes its
    choices repeatable, which ``check`` says of a strategy that played one seed two ways
    (by default: draw only from ``choose``'s rng; the built-in ``policy`` says how a
    policy function gets one).
    """

    games: ClassVar[frozenset[str]] = frozenset()
    version: ClassVar[str] = "1"

    def choose(self, view: Any, rng: Random) -> int:
        raise NotImplementedError


UNIFORM_CHOOSERS: set[Any] = set()
"""The ``choose`` functions marked by ``chooses_uniformly``."""


def chooses_uniformly(choose: Any) -> Any:
    """Mark ``choose`` as choosing uniformly at random by this exact rule, and nothing
    else: the action is the n-th lowest set bit of ``view.legal``, n being
    ``int(rng.random() * view.legal.bit_count())``, one draw a decision; it reads nothing
    else of the view and keeps nothing between calls.

    ``play.play_deal`` may then play a deal in which every seat holds such a ``choose``
    in one compiled loop (German Whist: ``games.german_whist_uniform``), drawing what the
    seats' generators would have drawn: the same actions, the same state, several times
    faster. The mark is on the function: a subclass that overrides ``choose`` is played
    through its own. Decisions played that way are not timed (``actions.seconds`` null)."""
    UNIFORM_CHOOSERS.add(choose)
    return choose


def available_strategies() -> dict[str, str]:
    """Registered entry-point names and the ``module:Class`` each points to (a name two
    distributions register shows one of them; using it is refused, see ``registered``)."""
    return {ep.name: ep.value for ep in _registrations()}


_SCANNED: dict[tuple[str, ...], tuple[EntryPoint, ...]] = {}


def _registrations() -> tuple[EntryPoint, ...]:
    """Every entry point of the strategy group, scanned once per ``sys.path``.

    Scanning every installed distribution's metadata takes milliseconds, and a worker
    builds its entrants by name for every task; what is installed only changes with the
    path (a test or notebook that adds a plug-in folder to it is scanned afresh).
    """
    path = tuple(sys.path)
    if path not in _SCANNED:
        _SCANNED.clear()
        _SCANNED[path] = tuple(entry_points(group=ENTRY_POINT_GROUP))
    return _SCANNED[path]


BUILT_IN_DISTRIBUTION = "whist-sim"

_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

CALLABLE_REFERENCE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
"""``package.module:name`` (a dotted attribute after the colon too): how a policy's
``callable`` names its function, and how a run records code a parameter names."""


def _distribution_name(ep: EntryPoint) -> str:
    """The normalised name of the distribution that registers ``ep`` ("" if unknown)."""
    name = getattr(getattr(ep, "dist", None), "name", "") or ""
    return re.sub(r"[-_.]+", "-", name).lower()


def _described(ep: EntryPoint) -> str:
    """``whist-sim 0.1.0 (strategies.heuristic:Heuristic)``, for messages."""
    dist = getattr(ep, "dist", None)
    version = getattr(dist, "version", None)
    name = _distribution_name(ep) or "an unnamed distribution"
    return f"{name}{f' {version}' if version else ''} ({ep.value})"


def registered(name: str) -> EntryPoint | None:
    """The entry point registered under ``name``, None if there is none; a StrategyError
    naming both distributions if two register it.

    The same distribution seen twice (an editable install and its build folder both
    on the path) is one registration, not a collision.
    """
    found: dict[tuple[str, str], EntryPoint] = {}
    for ep in _registrations():
        if ep.name == name:
            found.setdefault((_distribution_name(ep), ep.value), ep)
    if len(found) <= 1:
        return next(iter(found.values()), None)
    candidates = sorted(found.values(), key=lambda ep: _distribution_name(ep)
                        != BUILT_IN_DISTRIBUTION)  # the built-in first
    shown = " and by ".join(_described(ep) for ep in candidates)
    spelled = " or ".join(f'use = "{ep.value}"' for ep in candidates)
    others = [_distribution_name(ep) for ep in candidates
              if _distribution_name(ep) != BUILT_IN_DISTRIBUTION]
    built_in = len(others) < len(candidates)
    raise StrategyError(
        f"strategy {name!r} is registered by {shown}; "
        + ("a plug-in may not replace a built-in strategy, and " if built_in else "")
        + f"whist_sim will not guess which you mean: write it as module:Class ({spelled}),"
        f" and have {' and '.join(others)} register another entry-point name"
    )


def built_in_spec(name: str) -> str:
    """The ``module:Class`` whist_sim itself registers as ``name``, whatever a plug-in
    registers under the same name: what the library's own callers (search's roll-out
    policy) mean by a built-in's name. A plug-in registering ``heuristic`` is refused
    where a config names it; it must not reach, unnamed, every search strategy's
    roll-outs. ``name`` itself where whist_sim is not installed as a distribution."""
    for ep in _registrations():
        if ep.name == name and _distribution_name(ep) == BUILT_IN_DISTRIBUTION:
            return ep.value
    return name


def is_built_in(spec: str) -> bool:
    """Whether ``spec`` names a strategy shipped with whist_sim (an entry point of this
    distribution, registered by no other), as opposed to a plug-in: only built-ins may
    play in the run's own process without being asked to (``runner.choose_in_process``)."""
    try:
        ep = registered(spec)
    except StrategyError:
        return False
    return ep is not None and _distribution_name(ep) == BUILT_IN_DISTRIBUTION


def resolve_strategy(spec: str) -> type:
    """The strategy class named by an entry-point name or a ``"package.module:Class"``."""
    if not isinstance(spec, str) or not spec:
        raise StrategyError(f"strategy {spec!r}: write an entry-point name or package.module:Class")
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        if module_name.endswith(".py") and attr.isidentifier():  # a file's name, not a module's
            raise StrategyError(
                f"strategy {spec!r}: {module_name!r} is a file's name; a class is named by its"
                f" module, without .py: write {_spelled_as_class(spec)}")
        if not _DOTTED_NAME.fullmatch(module_name) or not attr.isidentifier():
            raise StrategyError(
                f"strategy {spec!r} is not package.module:Class (a dotted module name, a"
                f" colon, a class name), e.g. {_spelled_as_class(spec)}"
            )
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            missing = found_but_failed(module_name, exc)
            raise StrategyError(
                f"strategy {spec!r}: {missing}" if missing else
                f"strategy {spec!r}: cannot import {module_name!r} ({exc}); it must be in the"
                " folder whist-sim runs from, on PYTHONPATH or installed"
                + shadowing_note(module_name)
            ) from None
        except SyntaxError as exc:  # its file and line, not "(syntax.py, line 2)"
            raise StrategyError(
                f"strategy {spec!r}: importing {module_name!r} raised SyntaxError: {exc.msg}"
                f" (at {exc.filename}:{exc.lineno})"
            ) from None
        except Exception as exc:  # the plug-in's own code failed while being imported
            raise StrategyError(
                f"strategy {spec!r}: importing {module_name!r} raised {raised_text(exc)}"
                + raised_at(exc)
            ) from None
        try:
            found = getattr(module, attr)
        except AttributeError:
            names = [name for name in dir(module) if not name.startswith("_")]
            raise StrategyError(f"strategy {spec!r}: {module_name} has no {attr!r}"
                                + did_you_mean(attr, names)
                                + shadowing_note(module_name)) from None
        return _checked_class(spec, found)
    ep = registered(spec)
    if ep is not None:
        try:
            return _checked_class(spec, ep.load())
        except StrategyError:
            raise
        except Exception as exc:
            raise StrategyError(
                f"strategy {spec!r}: loading {_described(ep)} raised {raised_text(exc)}"
                + shadowing_note(ep.value.partition(":")[0].strip())
            ) from None
    names = sorted(available_strategies())
    if spec.lower().endswith(".toml"):  # `whist-sim check quickstart.toml`: a newcomer's
        # check of a config was told how to spell a module:Class "quickstart.toml:ClassName"
        raise StrategyError(
            f"unknown strategy {spec!r}: a config file is not a strategy; `whist-sim run"
            f" {spec}` plays it, and names each of its problems first;"
            f" {strategy_choices(names)}")
    if _looks_like_a_program(spec):  # "./mybot": told to spell it "mybot:ClassName" (a probe)
        raise StrategyError(
            f"unknown strategy {spec!r}: a bot program is entered as use = \"process\" with"
            f" command = [{json.dumps(spec)}], and checked with whist-sim check process"
            f" --command {spec}; a Python class is named as package.module:Class;"
            f" {strategy_choices(names)}")
    if _looks_like_a_path(spec):  # a newcomer's file or dotted path: say how to write it
        raise StrategyError(
            f"unknown strategy {spec!r}: a class is named as package.module:Class, here"
            f" {_spelled_as_class(spec)} (run whist-sim from the folder that holds the"
            f" package, or put that folder on PYTHONPATH); {strategy_choices(names)}")
    raise StrategyError(
        f"unknown strategy {spec!r}{did_you_mean(spec, names)}; {strategy_choices(names)}")


def _looks_like_a_program(spec: str) -> bool:
    """Whether ``spec`` reads as a program to run rather than a Python file or class: a
    file there that is not ``.py``, or a path from here or from the root (``./mybot``,
    ``/opt/bots/mybot``) that names no ``.py`` file nor a class."""
    if ":" in spec or spec.endswith(".py"):
        return False
    return Path(spec).is_file() or spec.startswith(("./", "/", ".\\"))


def _looks_like_a_path(spec: str) -> bool:
    """Whether ``spec`` reads as a file path or a dotted name rather than a registered
    name: "mybot/greedy.py", "mybot.greedy" and "mybot.greedy.Greedy" were each refused as
    an unknown strategy, with no word on the module:Class form the docs mean."""
    return "/" in spec or "\\" in spec or "." in spec


def _spelled_as_class(spec: str) -> str:
    """``spec`` (a path or dotted name, maybe with its class) as package.module:Class:
    "mybot/greedy.py" -> "mybot.greedy:ClassName", "mybot.greedy.Greedy" ->
    "mybot.greedy:Greedy"; a spec that gives no module gives the docs' example."""
    path, _, attr = spec.partition(":")
    path = path.replace("\\", "/").strip("/")
    if path.endswith(".py"):
        path = path[:-3]
    parts = [part for part in path.replace("/", ".").split(".") if part]
    if not attr and len(parts) > 1 and parts[-1][:1].isupper():  # mybot.greedy.Greedy
        attr = parts.pop()
    module = ".".join(parts)
    if not _DOTTED_NAME.fullmatch(module):
        return "mypackage.bots:MyBot"
    return f"{module}:{attr if attr.isidentifier() else 'ClassName'}"


def strategy_choices(names: list[str] | None = None) -> str:
    """What a ``use`` may name: the registered strategies (``names``, else looked up), a
    class by its path, or a bot program."""
    names = sorted(available_strategies()) if names is None else names
    return (f"registered strategies: {', '.join(names) or '(none installed)'}, or give"
            " 'package.module:Class', or use = \"process\" with a command for a bot program"
            " in any language")


def _checked_class(spec: str, found: Any) -> type:
    """``found`` if it can be a strategy's class (something to construct), else a StrategyError.
    A function is refused as one: called with the parameters, it was then said to name no
    games (a newcomer's probe)."""
    if inspect.isroutine(found):
        raise StrategyError(
            f"strategy {spec!r} is a function, not a class; a strategy is a class with"
            " choose(self, view, rng) -> action (a function of the environment's"
            " observation is entered as use = \"policy\" with params = { callable = ... })")
    if not callable(found):
        raise StrategyError(
            f"strategy {spec!r} is {type(found).__name__} {found!r}, not a class; a strategy"
            " is a class with choose(self, view, rng) -> action"
        )
    return found


def strategy_version(cls: type) -> str:
    return str(getattr(cls, "version", "1"))


def claimed_games(strategy: Any, name: str | None = None) -> frozenset[str] | None:
    """The games a strategy (class or instance) says it plays (its ``games``), or None if
    it does not say. A single text is refused: iterated, ``"german_whist"`` would claim
    its letters, and ``in`` would test for a substring."""
    games = getattr(strategy, "games", None)
    if games is None:
        return None
    shown = name or getattr(strategy, "__name__", type(strategy).__name__)
    if isinstance(games, str):
        raise StrategyError(
            f"strategy {shown!r}: its games attribute is the text {games!r}; write a set of"
            f" game names, e.g. games = frozenset({{{games!r}}})"
        )
    try:
        claimed = frozenset(games)
    except TypeError:  # games = 5: "'int' object is not iterable", a traceback in check
        claimed = None
    if claimed is None or not all(isinstance(game, str) for game in claimed):
        # {1, "german_whist"} ended `check` in a TypeError sorting them (a hostile reading)
        raise StrategyError(
            f"strategy {shown!r}: its games attribute is {games!r}; write a set of game"
            f" names (texts), e.g. games = frozenset({{'german_whist'}}); known games:"
            f" {', '.join(sorted(GAMES))}")
    return claimed


def strategy_class(spec: str, game: str | Game) -> type:
    """The class that plays ``game`` (a name, or a game from ``make_game``) for ``spec``.

    A strategy that plays several games with a different class for each (the
    built-in ``heuristic``) exposes ``for_game(game) -> class``; any plug-in may
    do the same.
    """
    game = game.name if isinstance(game, Game) else game
    if not isinstance(game, str) or game not in GAMES:  # a typo, not the strategy's fault
        raise StrategyError(
            f"game = {game!r} is not a game whist_sim knows{did_you_mean(str(game), GAMES)};"
            f" allowed values: {', '.join(sorted(GAMES))}")
    cls = resolve_strategy(spec)
    supported = claimed_games(cls, spec)
    if not supported:  # None, or Strategy's empty default: it never names a game to play
        raise StrategyError(
            f"strategy {spec!r} names no games: give its class a games attribute, the games it"
            f" plays, e.g. games = frozenset({{{game!r}}}); known games:"
            f" {', '.join(sorted(GAMES))}")
    if game not in supported:
        raise StrategyError(
            f"strategy {spec!r} does not play {game}; it supports: {', '.join(sorted(supported))}"
            + _not_games(supported))
    for_game = getattr(cls, "for_game", None)
    if not callable(for_game):
        return cls
    try:
        return for_game(game)
    except (ImportError, AttributeError, KeyError) as exc:
        raise StrategyError(f"strategy {spec!r} has no class for {game} ({exc})") from None


def build_strategy(spec: str, params: Mapping[str, Any] | None, game: str | Game) -> Any:
    """Resolve for ``game`` (a name, or a game from ``make_game``: a strategy is built for
    the game, whatever its variant; checking the strategy plays it) and construct with
    ``params``."""
    variant = game.variant if isinstance(game, Game) else None
    game = game.name if isinstance(game, Game) else game
    cls = strategy_class(spec, game)
    params = dict(params or {})
    allowed = _parameter_names(cls)
    unknown = sorted(set(params) - set(allowed)) if allowed is not None else []
    if unknown:
        shown = ", ".join(allowed) if allowed else "(none)"
        raise StrategyError(
            f"strategy {spec!r}: unknown parameter {unknown[0]!r}"
            f"{did_you_mean(unknown[0], allowed or [])}; allowed parameters: {shown}"
        )
    try:
        strategy = cls(**params)
    except ValueError as exc:  # the strategy's own words on a parameter it refuses
        raise StrategyError(f"strategy {spec!r}: {exc}") from None
    except Exception as exc:
        raise StrategyError(f"strategy {spec!r}: {_raised_in(exc)}") from None
    _check_choose(spec, strategy)
    _check_applies(spec, cls, params, game)
    _ready_rollouts(game)
    _ready_match_equity(game, variant)
    return strategy


def params_for(spec: str, params: Mapping[str, Any], game: str | Game) -> dict[str, Any]:
    """``params`` without those the strategy's class says do nothing in ``game``
    (``game_parameters``): one table of parameters for a strategy across games, as a
    script that plays every game keeps, built for each game
    (``build_strategy(spec, params_for(spec, params, game), game)``)."""
    name = game.name if isinstance(game, Game) else game
    idle = _idle_in(strategy_class(spec, name), params, name)
    return {key: value for key, value in params.items() if key not in idle}


def _idle_in(cls: type, params: Mapping[str, Any], game: str) -> dict[str, frozenset[str]]:
    """Of ``params``, those the class's ``game_parameters`` (a parameter's name -> the games
    it applies in; one left out applies in every game the strategy plays) say do nothing
    in ``game``, each with the games it applies in."""
    only = getattr(cls, "game_parameters", None) or {}
    if not isinstance(only, Mapping) or not all(
            isinstance(games, Set | list | tuple)
            and all(isinstance(name, str) for name in games) for games in only.values()):
        # a list ended the build in an AttributeError; a text was read letter by letter
        raise StrategyError(
            f"strategy {cls.__module__}:{cls.__qualname__}: its game_parameters must map a"
            " parameter's name to a set of game names, e.g. {'bid_worlds':"
            f" frozenset({{'solo_whist'}})}}, not {only!r}")
    return {name: frozenset(only[name]) for name in params
            if only.get(name) is not None and game not in only[name]}


def _check_applies(spec: str, cls: type, params: Mapping[str, Any], game: str) -> None:
    """Refuse a parameter given for a game it does nothing in (``_idle_in``): two German
    Whist entrants of ``pimc``, one with Solo's ``min_make`` and the bidding's
    ``bid_worlds`` set, played every pair even, a strategy compared with itself unawares
    (a probe)."""
    idle = _idle_in(cls, params, game)
    if idle:
        name, games = next(iter(idle.items()))
        raise StrategyError(
            f"strategy {spec!r}: parameter {name!r} does nothing in {game} (it applies in"
            f" {', '.join(sorted(games))} only); leave it out")


_ROLLOUTS_READY: set[str] = set()
"""Games whose default roll-out policy this process has built (``_ready_rollouts``)."""


def _ready_rollouts(game: str) -> None:
    """Build the game's default roll-out policy (``search.policy.default_policy``) now, if
    a strategy of this process searches (``whist_sim.search`` is loaded): search builds it
    at its first roll-out, and building it compiles the heuristic's numba kernels (about
    a second from numba's cache, 8 s for Solo Whist with none). A strategy is built
    outside any decision, its first roll-out inside one: a plug-in that rolled out with
    the library's pieces failed its check on a fresh install, its first Solo bid over the
    10 s limit, and passed the next time. Processes with no searching strategy never
    load the search package and pay nothing."""
    if game in _ROLLOUTS_READY or "whist_sim.search" not in sys.modules:
        return
    _ROLLOUTS_READY.add(game)  # first: building the policy builds a strategy too
    from whist_sim.search.policy import default_policy

    default_policy(game)


def _ready_match_equity(game: str, variant: Any) -> None:
    """Measure Minnesota Whist's match equity for ``variant`` now, if a strategy of this
    process searches: search values a deal by it (``whist_sim.search.match_equity``),
    measured from 2,000 heuristic deals (one to two seconds) at its first use. Inside a
    decision that passed any time limit under it, and the alarm stopped the measurement
    before it was kept, so ``pimc`` forfeited every game under a 0.5 s limit. Known only
    when the caller passes the game itself, not its name (a task's worker does)."""
    if game != "minnesota_whist" or variant is None or "whist_sim.search" not in sys.modules:
        return
    from whist_sim.search.match_equity import equity

    equity(variant)


def _raised_in(exc: BaseException) -> str:
    """An error a strategy's constructor raised, with its type and where, as a forfeit
    names a failing decision: "unsupported operand type(s) for +" alone left a plug-in's
    author to guess. An argument the call itself refused keeps Python's words, with where
    to give a missing one."""
    where = innermost_frame(exc)
    if where is None or where.filename == __file__:
        missing = (re.findall(r"'(\w+)'", str(exc))
                   if isinstance(exc, TypeError) and "required" in str(exc) else [])
        if missing:
            return (f"{exc}; give {' and '.join(missing)} in the entry's params, e.g."
                    f" params = {{ {missing[0]} = ... }}")
        return str(exc)
    return f"building it raised {raised_text(exc)}{raised_at(exc)}"


def _check_choose(spec: str, strategy: Any) -> None:
    """Refuse a strategy without a ``choose`` that can be called as ``choose(view, rng)``.

    Checked when the config is validated, before any work: otherwise the first
    decision of every deal fails, after Ray has started, and each deal is forfeited.
    """
    name = type(strategy).__name__
    choose = getattr(strategy, "choose", None)
    if not callable(choose) or getattr(type(strategy), "choose", None) is Strategy.choose:
        raise StrategyError(
            f"strategy {spec!r}: {name} has no choose method of its own{_spelt_as(strategy)};"
            " a strategy's class defines choose(self, view, rng) -> action"
            " (docs/writing-a-strategy.md)"
        )
    try:
        signature = inspect.signature(choose)
    except (TypeError, ValueError):
        return  # a callable whose parameters cannot be read (C code): trusted as it is
    try:
        signature.bind(None, None)
    except TypeError:
        raise StrategyError(
            f"strategy {spec!r}: {name}.choose{signature} cannot be called as"
            f" choose(view, rng){_self_left_out(strategy)}; a strategy's class defines"
            " choose(self, view, rng) -> action"
        ) from None


def _not_games(supported: Any) -> str:
    """" ('german' is not a game (did you mean 'german_whist'?); the games: ...)" for names
    in a class's ``games`` that are no game's: ``games = {"german"}`` read "does not play
    german_whist; it supports: german" in a run and a duel (a newcomer's probe)."""
    unknown = sorted(str(name) for name in supported if name not in GAMES)
    if not unknown:
        return ""
    said = ("is not a game" + did_you_mean(unknown[0], GAMES) if len(unknown) == 1
            else "are not games")
    return f" ({', '.join(map(repr, unknown))} {said}; the games: {', '.join(sorted(GAMES))})"


def _spelt_as(strategy: Any) -> str:
    """" (it has 'chose': choose misspelt?)" where a method of the class is one slip from choose: a
    newcomer's ``def chose(...)`` read "has no choose method", naming no method of theirs."""
    methods = [name for name in dir(type(strategy)) if not name.startswith("_")
               and callable(getattr(type(strategy), name, None)) and name != "choose"]
    meant = closest("choose", methods)
    return "" if meant is None else f" (it has {meant!r}: choose misspelt?)"


def _self_left_out(strategy: Any) -> str:
    """" (its first parameter is 'view': self left out?)" for ``def choose(view, rng)``
    written in a class, which read "Bot.choose(rng) cannot be called", a signature the
    newcomer never wrote."""
    function = inspect.getattr_static(type(strategy), "choose", None)
    if not inspect.isfunction(function):
        return ""
    first = next(iter(inspect.signature(function).parameters), None)
    return ("" if first in (None, "self") else
            f" (def choose{inspect.signature(function)}: its first parameter, {first!r},"
            " receives the strategy itself; write choose(self, view, rng))")


def strategy_source(spec: str, game: str) -> dict[str, Any]:
    """Where the class that plays ``game`` for ``spec`` was loaded from, for run.json.

    ``distribution`` and ``distribution_version``: the installed distribution that
    registers the entry point, or that installed the module of a ``module:Class``
    (None for a module imported from a path, e.g. the working directory); ``module``,
    ``class`` (``module:Class``), the module's ``file`` and its ``sha256``, so a result
    can be traced to the very code that produced it even when a version was not bumped,
    and ``helpers``, the file and SHA-256 of each module of the plug-in's own that it
    imports (``helper_modules``).
    For a strategy with a class per game (``for_game``) it is the class that plays.
    """
    cls = strategy_class(spec, game)
    record = module_record(cls.__module__)
    dist: Distribution | None = None
    if ":" not in spec:
        ep = registered(spec)
        dist = getattr(ep, "dist", None)
    elif record["file"] is not None:
        dist = _installed_by(cls.__module__, Path(record["file"]))
    return {
        "distribution": getattr(dist, "name", None),
        "distribution_version": getattr(dist, "version", None),
        "class": f"{cls.__module__}:{cls.__qualname__}",
        **record,
    }


def module_record(module_name: str) -> dict[str, Any]:
    """An imported module's ``file``, its ``sha256`` and its ``helpers`` (the modules of
    its own plug-in it imports, ``helper_modules``), for run.json: None where it has no
    file (a built-in module)."""
    file = _source_file(sys.modules.get(module_name))
    return {
        "module": module_name,
        "file": None if file is None else str(file),
        "sha256": None if file is None else hashlib.sha256(file.read_bytes()).hexdigest(),
        "helpers": None if file is None else helper_modules(
            module_name, file, lambda name: _module_file(name, sys.path)),
    }


def isolated_source(spec: str, search: list[str]) -> dict[str, Any]:
    """An isolated entrant's module and its file's SHA-256, for run.json, found without
    importing it: its code runs in its own process only, never in the driver (a parent
    package's ``__init__`` is not run either). ``search``: the folders the entrant's
    process looks in first (its working directory), before this process's ``sys.path``.
    Empty where the module is not found (the process's start says why).

    A resume compares the SHA-256 with the file's then (``tournament.same_code``): an
    isolated plug-in edited between two sessions played on under its old label. Its
    helper modules (``plugin_helpers``) are found the same way, by reading source."""
    module_name = spec.partition(":")[0] if ":" in spec else None
    if module_name is None:
        ep = registered(spec)
        if ep is None or ":" not in ep.value:
            return {}
        module_name = ep.value.partition(":")[0]
    file = _module_file(module_name.strip(), [*search, *sys.path])
    if file is None:
        return {}
    search_path = [*search, *sys.path]
    return {"plugin_module": module_name, "plugin_file": str(file),
            "plugin_sha256": hashlib.sha256(file.read_bytes()).hexdigest(),
            "plugin_helpers": helper_modules(module_name.strip(), file,
                                             lambda name: _module_file(name, search_path))}


def shadowing_note(module_name: str) -> str:
    """A clause for a module of the working folder that shares its top-level name with
    another: empty where there is none. whist-sim searches the folder it runs from first,
    so a newcomer's ``strategies.py`` hid whist-sim's own ``strategies`` package (every
    built-in then failed with "'strategies' is not a package"), while a ``random.py``
    there was never imported, Python's ``random`` having come first ("random has no
    'HighCard'"); neither message named the file to rename (a newcomer's probe)."""
    top = module_name.partition(".")[0]
    loaded = _source_file(sys.modules.get(top))
    try:
        here = Path.cwd().resolve()
    except OSError:  # a folder removed under the process: no file of it hides anything
        return ""
    mine = [path for path in (here / f"{top}.py", here / top) if path.exists()]
    if loaded is None or not mine:
        return ""
    if loaded == here / f"{top}.py" or loaded.is_relative_to(here / top):
        return (f"; {top!r} was imported from {loaded}, in the folder whist-sim runs from,"
                f" which hides the installed {top!r} that {module_name!r} belongs to:"
                f" rename it (e.g. my_{top}) or run whist-sim from another folder")
    return (f"; {top!r} is {loaded}, imported before the folder whist-sim runs from was"
            f" searched, so {mine[0]} is not it: rename {mine[0].name} (e.g. my_{top})"
            f" and name the class by the new module")


def found_but_failed(module_name: str, exc: ImportError) -> str | None:
    """When importing ``module_name`` found it and failed inside it: a clause that says
    so, "cannot import" having sent its author looking for the plug-in's own file. Either
    a module *it* imports is not installed, or its code raised ImportError itself (a name
    it imports that does not exist). None when ``module_name`` itself (or its package)
    was not found."""
    missing = getattr(exc, "name", None)
    if not isinstance(exc, ModuleNotFoundError):  # found: its own import went wrong
        return f"{module_name!r} was found, but importing it raised {raised_text(exc)}"
    if not missing or missing == module_name or module_name.startswith(f"{missing}."):
        return None
    return (f"{module_name!r} was found, but it imports {missing!r}, which is not installed"
            f" here ({exc}); install it into the environment whist-sim runs in")


def _module_file(module_name: str, search: list[str]) -> Path | None:
    """Where ``module_name`` would be imported from, level by level, running nothing."""
    from importlib.machinery import PathFinder

    locations: list[str] | None = search
    spec = None
    parts = module_name.split(".")
    for depth in range(1, len(parts) + 1):
        if locations is None:
            return None
        spec = PathFinder.find_spec(".".join(parts[:depth]), list(locations))
        if spec is None and depth == 1:
            spec = _meta_path_spec(parts[0])
        if spec is None:
            return None
        found = spec.submodule_search_locations
        locations = None if found is None else list(found)
    origin = getattr(spec, "origin", None)
    return Path(origin).resolve() if origin and Path(origin).is_file() else None


def _meta_path_spec(name: str) -> Any:
    """The spec another finder on ``sys.meta_path`` gives a top-level module that no
    folder of the search path holds: an editable install (``pip install -e .``, as
    docs/writing-a-strategy.md registers a plug-in) is found by setuptools' finder,
    never through ``sys.path``, and without this its modules went unrecorded, so a
    resume took an edited plug-in for the one the run started with. Finders only
    locate; nothing is imported."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if finder is PathFinder or find_spec is None:
            continue
        try:
            spec = find_spec(name, None)
        except Exception:  # a third-party finder that fails: as if it had not found it
            continue
        if spec is not None and spec.origin not in (None, "built-in", "frozen"):
            return spec
    return None


def _source_file(module: Any) -> Path | None:
    """The module's source file (its .py; else whatever file it was loaded from)."""
    if module is None:
        return None
    try:
        found = inspect.getsourcefile(module) or getattr(module, "__file__", None)
    except TypeError:  # a built-in module has no file
        return None
    path = Path(found).resolve() if found else None
    return path if path is not None and path.is_file() else None


def _installed_by(module_name: str, file: Path) -> Distribution | None:
    """The installed distribution whose files include ``file``, if any."""
    top = module_name.partition(".")[0]
    for name in packages_distributions().get(top, []):
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        root = Path(str(dist.locate_file(""))).resolve()
        listed = {str(f).replace("\\", "/") for f in dist.files or ()}
        try:
            if file.relative_to(root).as_posix() in listed:
                return dist
        except ValueError:  # the file is not under this distribution's folder
            continue
    return None


def _parameter_names(cls: type) -> list[str] | None:
    """Keyword parameters of the constructor, or None if it takes ``**kwargs``
    (or if they cannot be read: then the constructor itself says what it refuses)."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return None
    names = []
    for name, param in signature.parameters.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if param.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            names.append(name)
    return names
