"""Perfect Information Monte Carlo: average each action's value over sampled worlds.

For one decision of one seat: draw ``worlds`` deals consistent with the seat's view
(``whist_sim.sampling``), and in each world value every candidate action, either
exactly (the open-card solver, once no hand holds more than ``exact_cards`` cards
and the rest of the deal is a two-sided contest) or by playing the deal out with
the heuristics (a roll-out). The action with the best average wins.

Choices, and why:
- Common random numbers: within a world every action is rolled out from the same
  generator state, so the comparison between actions is not drowned by roll-out
  luck (the variance of a difference of correlated estimates is much smaller).
- Only one card of each run of equivalent cards is tried (holding 8 and 6 with the
  7 gone, they play alike), as the solver does; the lowest is played.
- The same world drawn twice is valued once (German Whist stage 2 has one world).
- Ties go to the lowest action: the choice depends on the seed only.

PIMC's known weaknesses (strategy fusion, non-locality: Frank and Basin 1998;
Long et al. 2010) are why ``ismcts`` exists; PIMC is still the strongest simple
player in many trick-taking games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from whist_sim.cards import FULL_DECK
from whist_sim.sampling import World, sample_world
from whist_sim.search.model import SearchModel, leaf_evaluator, model_for, play_out
from whist_sim.solver.search import representatives
from whist_sim.tricks import cards_played

CARD_PHASES = frozenset({"play"})
"""Phases whose actions are cards played to a trick (and, in Knock-out, a dog's knock)."""


@dataclass(frozen=True)
class Evaluation:
    """What PIMC found for one decision: each candidate's mean value and how it was valued."""

    action: int
    values: dict[int, float]
    worlds: int
    exact_worlds: int


def candidate_actions(view: Any, model: SearchModel) -> list[int]:
    """The actions worth valuing: the legal ones, one card per run of equivalent cards.

    A model may narrow further with ``candidate_actions(view)`` (Minnesota's laid
    card: only its colour matters).
    """
    narrow = getattr(model, "candidate_actions", None)
    if narrow is not None:
        return narrow(view)
    legal = view.legal
    cards = legal & FULL_DECK
    if view.phase not in CARD_PHASES or not cards:
        return _bits(legal)
    live = FULL_DECK & ~cards_played(view.tricks, ())
    return sorted(representatives(cards, live) + _bits(legal & ~FULL_DECK))


def evaluate(
    view: Any,
    rng: Random,
    *,
    worlds: int,
    exact_cards: int,
    solve: Callable[..., int],
    candidates: Sequence[int] | None = None,
) -> Evaluation:
    """Mean value of each candidate action for ``view.seat`` over ``worlds`` sampled worlds."""
    model = model_for(view)
    actions = list(candidates) if candidates is not None else candidate_actions(view, model)
    if len(actions) == 1:
        return Evaluation(actions[0], {actions[0]: 0.0}, 0, 0)
    seat = view.seat
    totals = dict.fromkeys(actions, 0.0)
    seen: dict[tuple, dict[int, float]] = {}
    exact_worlds = 0
    for _ in range(worlds):
        world = sample_world(view, rng)
        seed = rng.getrandbits(63)
        key = (world.hands, world.stock, world.undealt)
        values = seen.get(key)
        if values is None or not _is_exact(values):
            values = _world_values(model, view, world, seat, actions, seed, exact_cards, solve)
            seen[key] = values
        if _is_exact(values):
            exact_worlds += 1
        for action in actions:
            totals[action] += values[action]
    means = {action: total / worlds for action, total in totals.items()}
    best = max(actions, key=lambda a: (means[a], -a))
    return Evaluation(best, means, worlds, exact_worlds)


class _Exact(dict):
    """Values from the solver: the same world gives the same values, so they are reused."""


def _is_exact(values: dict) -> bool:
    return type(values) is _Exact


def _world_values(
    model: SearchModel,
    view: Any,
    world: World,
    seat: int,
    actions: list[int],
    seed: int,
    exact_cards: int,
    solve: Callable[..., int],
) -> dict[int, float]:
    """Each action's value in one world: exact when the solver applies, else one roll-out."""
    if exact_cards > 0:
        state = model.determinize(view, world, Random(seed))
        exact = model.exact_values(state, seat, exact_cards, solve)
        if exact is not None:
            return _Exact({action: exact[action] for action in actions})
    values = {}
    leaf = leaf_evaluator(model, exact_cards, solve)
    for action in actions:
        rollout_rng = Random(seed)  # the same for every action: common random numbers
        state = model.determinize(view, world, rollout_rng)
        state.apply(action)
        values[action] = play_out(model, state, rollout_rng, leaf)[seat]
    return values


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
