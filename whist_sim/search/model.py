"""The interface between search strategies and one game's rules: ``SearchModel``.

Each game has a module here (``german_whist``, ``solo_whist``, ``minnesota_whist``,
``knockout_whist``) defining one ``SearchModel``. The search itself (PIMC, ISMCTS)
is written once, against this interface, and knows no game.

Besides the protocol's methods a model may offer, and the searches look for:
``exact_payoffs`` and ``horizon`` (where roll-outs stop: ``leaf_evaluator``),
``compiled_rollout(max_cards, solve)`` (a whole roll-out in one compiled call, the same
payoffs as ``play_out``: ``rollout_function``),
``candidate_actions(view)`` (fewer actions to value: ``pimc.candidate_actions``),
``declared_made(state, seat)`` (Solo's ``min_make``), and ``sample_world(view, rng)``,
worlds drawn from ``whist_sim.sampling.sample_world`` but kept only where the other
seats' bids fit their hands (Solo Whist; ``pimc``'s ``fit_calls``).

A model plays its roll-outs with a roll-out policy (``whist_sim.search.policy``): each
module's ``MODEL`` with the default one, found in the strategy registry by name;
``model_for(view, policy)`` gives the same game's model with ``policy`` instead (the
search strategies pass their heuristic). whist_sim does not import ``strategies``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from random import Random
from typing import Any, Protocol

from whist_sim.games.base import DealState, Game, Variant
from whist_sim.sampling import World
from whist_sim.search.policy import RolloutPolicy

MODELS = {
    "GermanWhistView": "whist_sim.search.german_whist",
    "SoloWhistView": "whist_sim.search.solo_whist",
    "MinnesotaWhistView": "whist_sim.search.minnesota_whist",
    "KnockoutWhistView": "whist_sim.search.knockout_whist",
}
"""View class name -> module whose ``MODEL`` searches that game."""

BIDDING_PHASES = frozenset({"bid", "trump", "lay"})
"""Phases whose decisions are bids: Solo calls and Abundance trumps, the Minnesota laid
card, Knock-out trump (German Whist has none)."""


class SearchModel(Protocol):
    """What search needs from a game beyond the engine's ``apply`` / ``view`` / ``legal``."""

    game: str
    """The game's name (``whist_sim.games.GAMES`` key)."""

    policy: RolloutPolicy
    """The roll-out policy (``whist_sim.search.policy``)."""

    def determinize(self, view: Any, world: World, rng: Random) -> DealState:
        """A fresh state at ``view``'s decision point with the hidden cards of ``world``.

        The state is the search's own: nothing in it comes from the real deal but
        what ``view`` shows and ``world`` assumes. Its ``to_act``, ``phase`` and
        ``legal`` equal the real state's when ``world`` is the true one, and so does
        everything that follows if the same actions are applied. Randomness the rules
        would draw later (Knock-out's deals of later rounds, a tie-break cut) comes
        from ``rng``, never from the real deal's seed.
        """
        ...

    def payoffs(self, state: DealState) -> tuple[float, ...]:
        """Per seat, the value of a finished ``state`` that the search maximises for it.

        German Whist: 1 for a won hand, 0.5 a drawn one, 0 a lost one, plus 0.05 per
        point of margin (which never reorders win, draw and loss); Solo Whist: the
        seat's net units; Minnesota Whist: the seat's net points; Knock-out Whist: 1
        for the winner, less for the others by how long they survived.
        """
        ...

    def rollout_policies(self, state: DealState) -> list[Any]:
        """One fast strategy per seat (the roll-out policy) that plays ``state`` to its end."""
        ...

    def with_policy(self, policy: RolloutPolicy) -> SearchModel:
        """A model of the same game whose roll-outs (and whatever else it models with a
        player: the other seats' bids, an unturned laid card) use ``policy``."""
        ...

    def exact_values(self, state: DealState, seat: int, max_cards: int,
                     solve: Callable[..., int]) -> dict[int, float] | None:
        """The payoff to ``seat`` of each legal card, by the open-card solver, or None.

        Applies in card play when the rest of the deal is a two-sided trick contest
        and no hand holds more than ``max_cards`` cards; otherwise None (use
        roll-outs). Each value is what ``payoffs`` would give ``seat`` if every seat
        then played perfectly with all cards open. ``solve`` has the signature of
        ``whist_sim.solver.solve`` (the pure search or its compiled twin
        ``solve_fast``); the caller chooses.
        """
        ...


@functools.cache
def game_for(game_type: type[Game], variant: Variant, players: int | None = None) -> Game:
    """One ``Game`` per type, variant and table size, shared by every determinized state.

    Building a Game validates its variant; a search builds thousands of states per
    decision from the same few variants (frozen, so hashable).
    """
    return game_type(variant, players)


def leaf_evaluator(model: SearchModel, view: Any, max_cards: int,
                   solve: Callable[..., int] | None) -> Callable[[DealState], Any] | None:
    """``state -> payoffs or None``: where a roll-out from ``view`` may stop, and its value.

    Two optional parts of a model: ``exact_payoffs(state, max_cards, solve)``, every
    seat's payoff under perfect open-card play where the solver settles the rest
    (German Whist stage 2), and ``horizon(view)``, a function valuing the states where
    roll-outs from ``view`` stop early (Knock-out Whist: the next round). None if the
    model has neither.
    """
    exact = getattr(model, "exact_payoffs", None)
    if exact is None or max_cards <= 0 or solve is None:
        exact = None
    horizon = getattr(model, "horizon", None)
    early = horizon(view) if horizon is not None else None
    if exact is None:
        return early
    if early is None:
        return lambda state: exact(state, max_cards, solve)

    def either(state: DealState) -> Any:
        value = exact(state, max_cards, solve)
        return value if value is not None else early(state)

    return either


def model_for(view: Any, policy: RolloutPolicy | None = None) -> SearchModel:
    """The ``SearchModel`` of the game ``view`` belongs to, rolling out with ``policy``.

    Without ``policy``, or with the default one itself (``default_policy_for(view)``),
    it is the game module's ``MODEL``. With another, a model bound to it, kept while ``policy``
    is in use: a strategy passes the same policy at every decision, and the model's
    memos (Solo's view fields, Minnesota's laid cards) then last across decisions.
    """
    name = type(view).__name__
    try:
        module = MODELS[name]
    except KeyError:
        raise TypeError(
            f"no search model for views of type {name}; give a seat's view,"
            f" state.view(seat) ({', '.join(MODELS)})") from None
    model = importlib.import_module(module).MODEL
    if policy is None or policy is model.policy:
        return model
    key = (name, id(policy))
    bound = _BOUND.get(key)
    if bound is None or bound[0] is not policy:
        if len(_BOUND) >= BOUND_LIMIT:
            _BOUND.clear()
        bound = _BOUND[key] = (policy, model.with_policy(policy))
    return bound[1]


BOUND_LIMIT = 64
"""Models bound to a policy kept at most (then they are built afresh)."""
_BOUND: dict[tuple[str, int], tuple[Any, SearchModel]] = {}
"""(view class name, id of the policy) -> (the policy, the model bound to it); holding the
policy keeps its id from being reused while the entry lasts."""


def rollout_function(model: SearchModel, view: Any, max_cards: int,
                     solve: Callable[..., int] | None
                     ) -> Callable[[DealState, Random], tuple[float, ...]]:
    """``(state, rng) -> payoffs``: the roll-out searches use from ``view``'s decision.

    ``play_out`` with the leaf of ``leaf_evaluator``, or, where the model has a compiled
    copy of that roll-out for these settings (``compiled_rollout``: German Whist's stage
    1 with the compiled solver), that copy, which gives the same payoffs and falls back
    to ``play_out`` for states it does not cover.
    """
    leaf = leaf_evaluator(model, view, max_cards, solve)
    compiled = getattr(model, "compiled_rollout", None)
    quick = compiled(max_cards, solve) if compiled is not None and solve is not None else None
    if quick is None:
        return lambda state, rng: play_out(model, state, rng, leaf)

    def rollout(state: DealState, rng: Random) -> tuple[float, ...]:
        value = quick(state)
        return value if value is not None else play_out(model, state, rng, leaf)

    return rollout


def play_out(model: SearchModel, state: DealState, rng: Random,
             leaf: Callable[[DealState], Any] | None = None) -> tuple[float, ...]:
    """Play ``state`` to its end with the model's roll-out policies; the payoffs.

    With ``leaf`` (see ``leaf_evaluator``), stop at the first state it values exactly.
    """
    policies = model.rollout_policies(state)
    seat = state.to_act
    while seat >= 0:
        if leaf is not None:
            value = leaf(state)
            if value is not None:
                return value
        state.apply(policies[seat].choose(state.view(seat), rng))
        seat = state.to_act
    return model.payoffs(state)
