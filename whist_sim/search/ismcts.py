"""Information Set Monte Carlo Tree Search (after Cowling, Powley and Whitehouse 2012).

One tree per decision, over the deciding seat's own information sets. Each iteration
draws a world consistent with the seat's view (``whist_sim.sampling``), builds a
private state from it, and walks down the tree: at the seat's own decisions it picks,
among the actions legal in this world, the one with the best upper confidence bound;
the other seats act as the heuristic would in their place (each sees its own view of
the sampled world), and the tree branches on the actions the seat sees them take.
When a new node is added the deal is played out with the heuristics, and every own
node on the path is credited with the seat's payoff. Because each iteration uses a
different world, a node's statistics average over the worlds in which it was
reachable; the *availability* count (how often an action was legal when its node was
visited) replaces the parent's visit count in the bound, so actions legal in few
worlds are not under-explored.

Choices, and why:
- The other seats are modelled by the heuristic rather than searched in the same
  tree. A single-observer tree gives every seat nodes keyed by public actions only,
  so the opponents choose as if they could not see their own cards: they look weak,
  contracts look easy, and the searcher overbids (measured: Solo contracts made fell
  to about a third). With a model of the others the tree is over this seat's
  choices, which is where strategy fusion hurts PIMC: a later own decision is made
  once per information set, not once per world.
- Nodes are keyed by the actions taken since the root as this seat sees them (a
  Minnesota laid card that is never turned is keyed by the card: the tree then
  separates worlds this seat could not tell apart, a small leak that only splits
  statistics, never a card this seat learns).
- The exploration constant is scaled by the spread of payoffs seen so far, so one
  setting serves German Whist (payoffs 0..1) and Solo Whist (units).
- The root's choice is its most visited action (the robust child), ties to the
  lowest action, so the choice depends on the seed only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random
from typing import Any

from whist_sim.cards import cards_of
from whist_sim.games.base import is_finite_number, is_whole
from whist_sim.sampling import check_rng, sample_world
from whist_sim.search.model import model_for, rollout_function
from whist_sim.search.pimc import candidate_actions, check_solving
from whist_sim.search.policy import RolloutPolicy


class Node:
    """Statistics of one action from one information set, and the nodes below it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[int, Node] = {}


def _check_arguments(iterations: Any, exploration: Any, exact_cards: Any, solve: Any) -> None:
    """``search``'s budget and exploration, as ``pimc.evaluate`` checks its own (an empty
    or negative budget returned no children; a NaN exploration ran)."""
    if not is_whole(iterations) or iterations < 1:
        raise ValueError(f"search: iterations = {iterations!r} is not allowed; allowed values:"
                         " whole numbers >= 1")
    if not is_finite_number(exploration) or exploration < 0:
        raise ValueError(f"search: exploration = {exploration!r} is not allowed; allowed"
                         " values: finite numbers >= 0 (the UCB constant)")
    check_solving("search", exact_cards, solve)


def search(view: Any, rng: Random, *, iterations: int, exploration: float = 0.7,
           exact_cards: int = 0, solve: Callable[..., int] | None = None,
           policy: RolloutPolicy | None = None) -> dict[int, Node]:
    """Run ``iterations`` iterations from ``view``; the root's children by action.

    Roll-outs stop where the model values a state directly (``rollout_function``: the
    solver once no hand holds more than ``exact_cards`` cards, a Knock-out round's end).
    ``policy`` plays the other seats and the roll-outs (``whist_sim.search.policy``; the
    ``ismcts`` strategy passes its game's heuristic); None: the strategy registered as
    ``heuristic``, found through the registry. A bad argument raises a ValueError naming
    it and the values allowed, before any iteration.
    """
    check_rng("search", rng)
    _check_arguments(iterations, exploration, exact_cards, solve)
    model = model_for(view, policy)
    rollout = rollout_function(model, view, exact_cards, solve)
    me = view.seat
    root = Node()
    root_actions = candidate_actions(view, model)
    if len(root_actions) == 1:
        root.children[root_actions[0]] = Node()
        return root.children
    spread = _Spread()
    for _ in range(iterations):
        world = sample_world(view, rng)
        state = model.determinize(view, world, rng)
        policies = model.rollout_policies(state)
        path: list[Node] = []
        node = root
        allowed: list[int] | None = root_actions
        while state.to_act >= 0:
            seat = state.to_act
            if seat != me:  # another seat: the heuristic in its place; the tree follows
                action = policies[seat].choose(state.view(seat), rng)
                node = node.children.setdefault(action, Node())
                state.apply(action)
                continue
            actions = allowed if allowed is not None else cards_of(state.legal)
            allowed = None
            action, node, expanded = _select(node, actions, exploration * spread.width, rng)
            path.append(node)
            state.apply(action)
            if expanded:
                break
        payoffs = rollout(state, rng) if state.to_act >= 0 else model.payoffs(state)
        spread.add(payoffs)
        for visited in path:
            visited.visits += 1
            visited.total += payoffs[me]
    return root.children


def best_action(children: dict[int, Node]) -> int:
    """The most visited root action; ties to the lowest action."""
    return max(children, key=lambda action: (children[action].visits, -action))


def _select(node: Node, actions: list[int], c: float, rng: Random) -> tuple[int, Node, bool]:
    """The action to take among ``actions`` (legal here), its node, and whether it is new."""
    children = node.children
    untried = [a for a in actions if a not in children or children[a].visits == 0]
    for action in actions:
        child = children.get(action)
        if child is None:
            child = children[action] = Node()
        child.available += 1
    if untried:
        action = untried[rng.randrange(len(untried))]
        return action, children[action], True
    best, best_score = -1, -math.inf
    for action in actions:
        child = children[action]
        score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_score = action, score
    return best, children[best], False


class _Spread:
    """Running range of the payoffs seen, which scales the exploration term."""

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def add(self, payoffs: tuple[float, ...]) -> None:
        self.low = min(self.low, *payoffs)
        self.high = max(self.high, *payoffs)

    @property
    def width(self) -> float:
        return self.high - self.low if self.high > self.low else 1.0
