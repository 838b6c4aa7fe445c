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
- The heuristic's choice is the incumbent, and clearly worse candidates drop out of
  a race (see ``evaluate``): measured, plain best-of-averages lost to the heuristic.
- Ties go to the lowest action: the choice depends on the seed only.

PIMC's known weaknesses (strategy fusion, non-locality: Frank and Basin 1998;
Long et al. 2010) are why ``ismcts`` exists; PIMC is still the strongest simple
player in many trick-taking games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from whist_sim.cards import FULL_DECK, cards_of
from whist_sim.sampling import World, check_rng, sample_world
from whist_sim.search.model import SearchModel, model_for, rollout_function
from whist_sim.search.policy import RolloutPolicy
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

    A model may narrow further with ``candidate_actions(view)`` returning a list, or
    None to leave a decision to this rule (Minnesota's laid card: only its colour bids).
    """
    narrow = getattr(model, "candidate_actions", None)
    narrowed = narrow(view) if narrow is not None else None
    if narrowed is not None:
        return narrowed
    legal = view.legal
    cards = legal & FULL_DECK
    if view.phase not in CARD_PHASES or not cards:
        return cards_of(legal)
    live = FULL_DECK & ~cards_played(view.tricks, ())
    return sorted(representatives(cards, live) + cards_of(legal & ~FULL_DECK))


def evaluate(
    view: Any,
    rng: Random,
    *,
    worlds: int,
    exact_cards: int,
    solve: Callable[..., int] | None,
    candidates: Sequence[int] | None = None,
    incumbent: int | None = None,
    confidence: float = 0.0,
    min_make: float = 0.0,
    fit_calls: bool = False,
    budget_candidates: int | None = None,
    policy: RolloutPolicy | None = None,
) -> Evaluation:
    """Value each candidate action for ``view.seat`` over sampled worlds; pick one.

    The budget is ``worlds`` worlds per candidate, spent as a race: after a few
    worlds, a candidate whose average trails the leader's by more than two standard
    errors (paired world by world) is dropped, and the evaluations it would have had
    go to more worlds for the contenders (up to ``MAX_WORLD_FACTOR`` times
    ``worlds``). The close calls are where precision pays. ``budget_candidates`` caps
    the budget at ``worlds`` worlds for that many candidates, however many there are:
    a decision among many cards then drops the clearly worse ones after the first
    worlds as before, but its contenders get fewer (this bounds the slowest decisions).

    With an ``incumbent`` (the heuristic's choice), another action replaces it only
    if its mean gain over the incumbent, paired world by world, exceeds
    ``confidence`` standard errors: noisy roll-outs should not overturn a sound rule
    on a coin flip (the "winner's curse" of picking the best of many noisy estimates).

    ``min_make`` (bidding): an action after which this seat ended up declaring a
    contract in the roll-outs is played only if it made the contract in at least that
    share of them (the model's ``declared_made``), unless it is the incumbent's. It
    turns the bidder from maximising expected units into a bidder that also keeps its
    promises, as a partner or a table expects.

    ``fit_calls``: draw worlds with the model's ``sample_world`` where it has one (Solo
    Whist: worlds in which the other seats' hands fit their calls), else uniformly.

    ``policy``: the roll-out policy, the strategy that plays every seat of the roll-outs
    (``whist_sim.search.policy``); the search strategies pass their game's heuristic.
    None: the strategy registered as ``heuristic``, found through the registry.

    ``solve`` values the small endings exactly: ``whist_sim.solver.solve`` or its
    compiled twin ``solve_fast``. None is allowed only with ``exact_cards = 0``
    (roll-outs only). A bad argument raises a ValueError (TypeError for a ``solve``
    that cannot be called or an ``rng`` that is not a ``random.Random``) naming it and
    the values allowed.
    """
    check_rng("evaluate", rng)
    _check_arguments(worlds, exact_cards, solve, candidates, confidence, min_make,
                     budget_candidates)
    _check_legal(view, candidates, incumbent)
    model = model_for(view, policy)
    actions = list(candidates) if candidates is not None else candidate_actions(view, model)
    if incumbent is not None and incumbent not in actions:
        actions.append(incumbent)
    if len(actions) == 1:
        return Evaluation(actions[0], {actions[0]: 0.0}, 0, 0)
    seat = view.seat
    budget = worlds * min(len(actions), budget_candidates or len(actions))
    active = list(actions)
    per_world: list[dict[int, float]] = []
    totals = dict.fromkeys(actions, 0.0)  # each candidate's sum over per_world, for the race
    seen: dict[tuple, dict[int, float]] = {}
    exact_worlds = spent = 0
    draw = getattr(model, "sample_world", sample_world) if fit_calls else sample_world
    keeps_promises = min_make > 0 and hasattr(model, "declared_made")  # Solo Whist only
    tally: dict[int, list[int]] | None = {a: [0, 0] for a in actions} if keeps_promises else None
    rollout = rollout_function(model, view, exact_cards, solve)
    while spent < budget and len(per_world) < MAX_WORLD_FACTOR * worlds:
        world = draw(view, rng)
        seed = rng.getrandbits(63)
        key = (world.hands, world.stock, world.undealt)
        values = seen.get(key)
        if values is None or not _is_exact(values):
            values = _world_values(model, view, world, seat, active, seed, exact_cards, solve,
                                   rollout, tally)
            seen[key] = values
        if _is_exact(values):
            exact_worlds += 1
        per_world.append(values)
        for action in active:
            totals[action] += values[action]
        spent += len(active)
        if len(per_world) >= RACE_FROM:
            active = _contenders(per_world, active, incumbent, totals)
            if len(active) == 1:
                break
    means = {action: _mean([v[action] for v in per_world if action in v]) for action in actions}
    eligible = [a for a in active if a == incumbent or not _too_risky(tally, a, min_make)]
    best = max(eligible or active, key=lambda a: (means[a], -a))
    overturned = _clearly_better(per_world, best, incumbent, confidence)
    if incumbent is not None and best != incumbent and not overturned:
        best = incumbent
    return Evaluation(best, means, len(per_world), exact_worlds)


RACE_FROM = 6
"""Worlds every candidate gets before any is dropped."""
MAX_WORLD_FACTOR = 4
"""The contenders of a race get at most this many times ``worlds`` worlds."""


def _contenders(per_world: list[dict[int, float]], active: list[int],
                incumbent: int | None, totals: dict[int, float]) -> list[int]:
    """The candidates still in the race: not clearly behind the leader (the incumbent stays).

    ``totals`` holds each candidate's sum over ``per_world``, kept as the worlds come (the
    same additions in the same order as summing them here, so the same leader); a
    candidate whose mean gain over the leader is not negative stays without its error.
    """
    leader = max(active, key=totals.__getitem__)
    leader_values = [v[leader] for v in per_world]
    kept = []
    for action in active:
        if action in (leader, incumbent):
            kept.append(action)
            continue
        gains = [v[action] - lead for v, lead in zip(per_world, leader_values, strict=True)]
        mean = _mean(gains)
        if mean >= 0 or mean + 2 * _standard_error(gains) >= 0:
            kept.append(action)
    return kept


def _too_risky(tally: dict[int, list[int]] | None, action: int, min_make: float) -> bool:
    """Did ``action`` lead to contracts made less often than ``min_make`` in the roll-outs?"""
    if tally is None:
        return False
    made, declared = tally[action]
    return declared > 0 and made < min_make * declared


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _standard_error(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_solving(caller: str, exact_cards: Any, solve: Any) -> None:
    """A search's ``exact_cards`` and ``solve``, checked alike by ``evaluate`` and
    ``ismcts.search``: a ValueError (TypeError for a ``solve`` that cannot be called)
    naming ``caller``, the argument and the values allowed."""
    if not _is_whole(exact_cards) or exact_cards < 0:
        raise ValueError(f"{caller}: exact_cards = {exact_cards!r} is not allowed; allowed"
                         " values: whole numbers >= 0 (0: never solve exactly, roll-outs only)")
    if solve is None and exact_cards > 0:
        raise ValueError(
            f"{caller}: solve = None needs exact_cards = 0 (roll-outs only), not {exact_cards};"
            " to solve endings of up to that many cards pass solve=whist_sim.solver.solve"
            " (or whist_sim.solver.solve_fast, compiled)")
    if solve is not None and not callable(solve):
        raise TypeError(
            f"{caller}: solve = {solve!r} is not allowed; allowed values:"
            " whist_sim.solver.solve, whist_sim.solver.solve_fast (or a function with their"
            " signature), or None with exact_cards = 0")


def _check_arguments(worlds: Any, exact_cards: Any, solve: Any, candidates: Any,
                     confidence: Any, min_make: Any, budget_candidates: Any) -> None:
    """``evaluate``'s arguments, checked before any world is drawn: a wrong one fails
    here with its name and the values allowed, not deep inside a roll-out."""
    if not _is_whole(worlds) or worlds < 1:
        raise ValueError(f"evaluate: worlds = {worlds!r} is not allowed; allowed values: whole"
                         " numbers >= 1 (sampled worlds per candidate action)")
    check_solving("evaluate", exact_cards, solve)
    if candidates is not None and (isinstance(candidates, (str, bytes))
                                   or not all(_is_whole(a) for a in candidates)
                                   or len(candidates) == 0):
        raise ValueError(f"evaluate: candidates = {candidates!r} is not allowed; allowed"
                         " values: None (every legal action) or a non-empty list of actions")
    if not _is_number(confidence) or confidence < 0:
        raise ValueError(f"evaluate: confidence = {confidence!r} is not allowed; allowed"
                         " values: numbers >= 0 (standard errors)")
    if not _is_number(min_make) or not 0 <= min_make <= 1:
        raise ValueError(f"evaluate: min_make = {min_make!r} is not allowed; allowed values:"
                         " numbers from 0 to 1")
    if budget_candidates is not None and (not _is_whole(budget_candidates)
                                          or budget_candidates < 1):
        raise ValueError(f"evaluate: budget_candidates = {budget_candidates!r} is not allowed;"
                         " allowed values: None (no cap) or whole numbers >= 1")


def _check_legal(view: Any, candidates: Any, incumbent: Any) -> None:
    """Candidates and the incumbent must be the seat's legal actions (a card it does not
    hold was evaluated, or chosen with no world drawn, as if it were one)."""
    legal = view.legal
    for name, actions in (("candidates", candidates or ()),
                          ("incumbent", () if incumbent is None else (incumbent,))):
        illegal = [a for a in actions if not (_is_whole(a) and a >= 0 and legal >> a & 1)]
        if illegal:
            allowed = [a for a in range(legal.bit_length()) if legal >> a & 1]
            raise ValueError(f"evaluate: {name} = {list(actions)!r}: {illegal!r} not among"
                             f" seat {view.seat}'s legal actions; allowed values: {allowed}")


def _clearly_better(per_world: list[dict[int, float]], action: int, incumbent: int | None,
                    confidence: float) -> bool:
    """Is ``action``'s mean gain over ``incumbent`` above ``confidence`` standard errors?"""
    if incumbent is None or action == incumbent:
        return True
    gains = [values[action] - values[incumbent] for values in per_world]
    mean = _mean(gains)
    if mean <= 0:
        return False
    if len(gains) < 2:
        return confidence <= 0
    return mean > confidence * _standard_error(gains)


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
    solve: Callable[..., int] | None,
    rollout: Callable[[Any, Random], tuple[float, ...]],
    tally: dict[int, list[int]] | None = None,
) -> dict[int, float]:
    """Each action's value in one world: exact when the solver applies, else one roll-out.

    ``rollout`` is the decision's ``rollout_function`` (built once per decision);
    ``tally[action]`` counts (made, declared) contracts of ``seat`` in the roll-outs.
    """
    if exact_cards > 0:
        state = model.determinize(view, world, Random(seed))
        exact = model.exact_values(state, seat, exact_cards, solve)
        if exact is not None:
            return _Exact({action: exact[action] for action in actions})
    values = {}
    for action in actions:
        rollout_rng = Random(seed)  # the same for every action: common random numbers
        state = model.determinize(view, world, rollout_rng)
        state.apply(action)
        values[action] = rollout(state, rollout_rng)[seat]
        if tally is not None and state.to_act < 0:
            made = model.declared_made(state, seat)
            if made is not None:
                tally[action][0] += made
                tally[action][1] += 1
    return values
