"""Information Set Monte Carlo Tree Search (single observer, Cowling, Powley and Whitehouse 2012).

One tree per decision, rooted at the deciding seat's information set. Each
iteration draws a world consistent with the seat's view (``whist_sim.sampling``),
builds a private state from it, and walks down the tree: at every node the seat to
act picks, among the actions legal in this world, the one with the best upper
confidence bound for itself. A new node is added, the deal is played out with the
heuristics, and every node on the path is credited with the payoff of the seat that
acted there. Because each iteration uses a different world, a node's statistics
average over the worlds in which it was reachable; the *availability* count (how
often an action was legal when its node was visited) replaces the parent's visit
count in the bound, so actions legal in few worlds are not under-explored.

Nodes are keyed by the actions taken since the root, which every seat sees in these
games (a Minnesota laid card that is never turned is the exception: the tree treats
it as seen, a small leak of the other seats' hidden choice into their own nodes that
only affects how the search models them, never what this seat learns about cards).

Choices, and why:
- Multi-player: payoffs are per seat and each node maximises its own seat's payoff
  (max^n), which is what Solo and Knock-out need; in two-sided games it reduces to
  the usual alternating search.
- The exploration constant is scaled by the spread of payoffs seen so far, so one
  setting serves German Whist (payoffs 0..1) and Solo Whist (units).
- The root's choice is its most visited action (the robust child), ties to the
  lowest action, so the choice depends on the seed only.
"""

from __future__ import annotations

import math
from random import Random
from typing import Any

from whist_sim.sampling import sample_world
from whist_sim.search.model import model_for, play_out
from whist_sim.search.pimc import candidate_actions


class Node:
    """Statistics of one action from one information set, and the nodes below it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[int, Node] = {}


def search(view: Any, rng: Random, *, iterations: int, exploration: float = 0.7) -> dict[int, Node]:
    """Run ``iterations`` iterations from ``view``; the root's children by action."""
    model = model_for(view)
    root = Node()
    root_actions = candidate_actions(view, model)
    if len(root_actions) == 1:
        root.children[root_actions[0]] = Node()
        return root.children
    spread = _Spread()
    for _ in range(iterations):
        world = sample_world(view, rng)
        state = model.determinize(view, world, rng)
        path: list[tuple[Node, int]] = []
        node = root
        allowed: list[int] | None = root_actions
        while state.to_act >= 0:
            seat = state.to_act
            actions = allowed if allowed is not None else _actions(state.legal)
            allowed = None
            action, node, expanded = _select(node, actions, exploration * spread.width, rng)
            path.append((node, seat))
            state.apply(action)
            if expanded:
                break
        payoffs = play_out(model, state, rng) if state.to_act >= 0 else model.payoffs(state)
        spread.add(payoffs)
        for visited, seat in path:
            visited.visits += 1
            visited.total += payoffs[seat]
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


def _actions(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
