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

A policy that samples (a softmax over its scores, say) takes a second parameter, with
no default: the seat's generator (``random.Random``, seeded by the deal and the seat as
every strategy's is), so the same seed plays the same hands however the run is split
across workers. NumPy's global generator would not be: each worker process has its own.

Any other parameter makes ``callable`` a factory, called once with them when the
strategy is built, which returns the policy: ``callable =
"examples.train_german:load_policy"`` with ``params = { weights = "ckpt-1000.npz" }``
plays that checkpoint, and two entries with two files are two entrants (the parameters
are in their names), the way to compare checkpoints.

The function is imported and checked when the strategy is built, i.e. when the
config is validated: an import that fails, a factory that refuses its parameters or
a policy that cannot be called with the observation (or it and a generator) is
refused there, before any deal is played.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import operator
from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.env.encoders import ACTIONS, encoder_for, game_of_view
from whist_sim.games.base import RuleError, describe_action, did_you_mean
from whist_sim.strategy import CALLABLE_REFERENCE, Strategy, found_but_failed


def load_callable(reference: Any) -> Callable[[dict[str, Any]], Any]:
    """The function ``"package.module:function"`` names, or a ValueError saying why not."""
    if not isinstance(reference, str) or not CALLABLE_REFERENCE.fullmatch(reference):
        raise ValueError(
            f"callable = {reference!r} is not package.module:function (a dotted module name,"
            " a colon, a function name), e.g. callable = \"my_package.policies:act\""
        )
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing = found_but_failed(module_name, exc)
        raise ValueError(
            f"callable = {reference!r}: {missing}" if missing else
            f"callable = {reference!r}: cannot import module {module_name!r} ({exc}); it must"
            " be in the folder whist-sim runs from, on PYTHONPATH or installed"
        ) from None
    except (Exception, SystemExit) as exc:  # its own code failed, or exited, on import
        raise ValueError(
            f"callable = {reference!r}: importing {module_name!r} raised"
            f" {type(exc).__name__}: {exc}"
        ) from None
    found: Any = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            names = [name for name in dir(found) if not name.startswith("_")]
            raise ValueError(
                f"callable = {reference!r}: {module_name} has no {attribute!r}"
                + did_you_mean(part, names)
            ) from None
    if not callable(found):
        raise ValueError(
            f"callable = {reference!r} is {type(found).__name__} {found!r}, not a function;"
            " a policy is a function from the observation dict to an action"
        )
    return found


def made_by(factory: Callable[..., Any], reference: str, arguments: dict[str, Any]
            ) -> Callable[..., Any]:
    """The policy ``factory`` returns when called with ``arguments`` (the entry's parameters
    other than ``callable``), or a ValueError saying why not."""
    shown = ", ".join(f"{key}={value!r}" for key, value in sorted(arguments.items()))
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        try:
            signature.bind(**arguments)
        except TypeError as exc:
            raise ValueError(
                f"callable = {reference!r} with parameters {shown}: {reference}{signature}"
                f" cannot take them ({_why_not_bound(signature, arguments, exc)}); with"
                " parameters besides callable, callable is a factory called with them that"
                " returns the policy"
            ) from None
    try:
        policy = factory(**arguments)
    except (Exception, SystemExit) as exc:  # its own code failed (a missing file) or exited
        raise ValueError(
            f"callable = {reference!r} with parameters {shown} raised"
            f" {type(exc).__name__}: {exc}"
        ) from None
    if not callable(policy):
        raise ValueError(
            f"callable = {reference!r} with parameters {shown} returned"
            f" {type(policy).__name__} {policy!r}, not a function; a factory returns the"
            " policy, a function from the observation dict to an action"
        )
    return policy


def _why_not_bound(signature: inspect.Signature, arguments: dict[str, Any],
                   refused: TypeError) -> str:
    """The parameters the factory has no place for, when that is why: ``bind`` reports a
    missing argument first, so a policy named with a weights file read "missing a required
    argument: 'observation'", not the parameter it does not take (a probe's finding)."""
    kinds = {p.kind for p in signature.parameters.values()}
    if inspect.Parameter.VAR_KEYWORD not in kinds:
        named = {name for name, p in signature.parameters.items()
                 if p.kind is not inspect.Parameter.POSITIONAL_ONLY}
        unknown = [key for key in sorted(arguments) if key not in named]
        if unknown:
            return f"it takes no parameter {', '.join(unknown)}"
    return str(refused)


def not_a_class(found: Any, reference: str) -> Callable[..., Any]:
    """``found``, the policy an entry without parameters names, unless it is a class: a
    class is called with the observation as its constructor's argument, which a probe's
    policy class refused as "the policy() cannot be called with one argument", naming
    neither the class nor the way to use it."""
    if inspect.isclass(found):
        raise ValueError(
            f"callable = {reference!r} names the class {found.__name__}, not a policy: a"
            " policy is a function from the observation dict to an action. Name an instance"
            f" (e.g. act = {found.__name__}() in its module, then callable ="
            f" \"{reference.partition(':')[0]}:act\"), or give the entry parameters, with"
            " which the class is a factory called with them"
        )
    return found


def arguments_taken(policy: Callable[..., Any], reference: str) -> int:
    """1 if ``policy`` is called with the observation alone, 2 if it needs the seat's
    generator too (a second parameter without a default); else a ValueError."""
    try:
        signature = inspect.signature(policy)
    except (TypeError, ValueError):
        return 1  # a callable whose parameters cannot be read (C code): trusted as it is
    for count in (1, 2):
        try:
            signature.bind(*([None] * count))
        except TypeError:
            continue
        return count
    name = getattr(policy, "__name__", type(policy).__name__)
    raise ValueError(
        f"callable = {reference!r}: the function {name}({', '.join(signature.parameters)})"
        " cannot be called with one argument (the observation dict) or two (the observation"
        " dict and the seat's generator); a policy is a function from the observation dict"
        " to an action"
    )


class PolicyStrategy(Strategy):
    """Asks a policy function for each decision, with the seat's observation tensors."""

    games = frozenset({"german_whist", "solo_whist", "minnesota_whist", "knockout_whist"})
    version = "1"

    def __init__(self, callable: str | None = None, **arguments: Any) -> None:
        if callable is None:
            raise ValueError('needs callable = "package.module:function" (the policy to play)')
        self.reference = callable
        found = load_callable(callable)
        if arguments:
            self.function = made_by(found, callable, arguments)
        else:
            self.function = not_a_class(found, callable)
        self.with_generator = arguments_taken(self.function, callable) == 2
        self._encoders: dict[tuple[Any, ...], Any] = {}
        self.randomness_advice = self._advice()
        """What ``whist-sim check`` tells the author of a policy that played the same seed
        two ways (``whist_sim.checking``): a plain attribute, which the check reads without
        running any code of the strategy's."""

    def _advice(self) -> str:
        """A policy of one parameter has no generator to draw from, so it is told how to
        get one."""
        if self.with_generator:
            return ("Draw randomness only from the policy's second parameter, the seat's"
                    " generator (not NumPy's or Python's global generator), and keep no"
                    " state between calls that changes choices")
        return (f"The policy {self.reference} takes one parameter, so it has no generator"
                " to draw from: to sample, give it a second parameter rng (no default),"
                " which is handed the seat's generator (a random.Random seeded by the deal"
                " and the seat), and draw only from it (rng.random(), or"
                " np.random.default_rng(rng.getrandbits(64))), never from NumPy's or"
                " Python's global generator. Keep no state between calls that changes"
                " choices (docs/environment.md)")

    def choose(self, view: Any, rng: Random) -> int:
        key = (type(view), view.variant, getattr(view, "players", None), view.seat)
        found = self._encoders.get(key)
        if found is None:
            game = game_of_view(view)
            found = self._encoders[key] = (encoder_for(game), game)
        encoder, game = found
        observation, mask = encoder.encode(view)
        observed = {"observation": observation, "action_mask": mask}
        action = self.function(observed, rng) if self.with_generator else self.function(observed)
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
        if number is None:  # a float, a text, an array: not read as the action it resembles
            reason = (f"returned {action!r}, which is not an action: a policy returns a whole"
                      f" number (a Python or NumPy integer); allowed: {allowed}")
            shown = repr(action)
        else:
            name = describe_action(game.action_str, number)
            shown = f"{number} ({name})" if name != repr(number) else str(number)
            if 0 <= number < ACTIONS[game.name]:
                reason = f"returned {shown}, which the action mask does not allow"
            else:
                reason = (f"returned {shown}, which is not one of the game's actions"
                          f" (0..{ACTIONS[game.name] - 1})")
            reason += f"; allowed: {allowed}"
        raise RuleError(view.seat, shown, "action mask",
                        f"seat {view.seat}: policy {self.reference} {reason}")
