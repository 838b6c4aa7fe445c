"""Search decisions pinned: the same views, seeds and budgets give the same choices and values.

``tests/golden/search_decisions.json`` was written by this module (``python -m
tests.test_search_decisions``) from the search as it was before the roll-out policy
became a parameter of the search layer (the heuristics used to be imported by
``whist_sim.search``). Refactoring how search gets its roll-out policy must not change
a decision, a value or a visit count; these tests hold it to that.

Per game, a few decision points of one deal played by the heuristic (bidding and card
play, early and late), and at each: ``pimc.evaluate`` (with the heuristic's choice as
incumbent, as the ``pimc`` strategy does), ``ismcts.search``, and the built-in search
strategies' ``choose`` (``pimc``, ``ismcts``, ``simulation_bidder``, ``solver``) with
small budgets. Rewrite the file only for a change meant to change decisions, and say
so in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from whist_sim.games import make_game
from whist_sim.search.ismcts import search
from whist_sim.search.model import BIDDING_PHASES, model_for
from whist_sim.search.pimc import candidate_actions, evaluate
from whist_sim.solver import solve, solve_fast
from whist_sim.strategy import build_strategy, params_for, resolve_strategy

GOLDEN = Path(__file__).parent / "golden" / "search_decisions.json"

CASES = {
    "german_whist": {"seed": 11, "players": None},
    "solo_whist": {"seed": 5, "players": None},
    "minnesota_whist": {"seed": 3, "players": None},
    "knockout_whist": {"seed": 2, "players": 3},
}
"""Per game: the deal whose decision points are searched."""

STRATEGIES = {
    "pimc": {"worlds": 3, "bid_worlds": 3, "exact_cards": 4, "min_make": 0.0,
             "compiled": False},
    "ismcts": {"iterations": 12, "compiled": False},
    "simulation_bidder": {"worlds": 3},
    "solver": {"stage1_tricks": 13, "worlds": 3},
}
"""Small budgets of the built-in search strategies (``solver``: every stage-1 trick
searched, so its PIMC with the compiled roll-out is what decides)."""


def decision_points(game_name: str) -> list[Any]:
    """Views of one heuristic-played deal: the first two bidding decisions (if any) and
    seven card-play decisions spread over the deal (an eighth of the way, a quarter...)."""
    case = CASES[game_name]
    game = make_game(game_name, None, case["players"])
    heuristic = build_strategy("heuristic", None, game_name)
    state = game.new_deal(case["seed"], 0)
    rng = Random(case["seed"])
    bidding, play = [], []
    while state.to_act >= 0:
        view = state.view(state.to_act)
        if len(candidate_actions(view, model_for(view))) > 1:  # a choice for search
            (bidding if view.phase in BIDDING_PHASES else play).append(view)
        state.apply(heuristic.choose(view, rng))
    return bidding[:2] + [play[len(play) * k // 8] for k in range(1, 8)]


def decisions(game_name: str) -> list[dict[str, Any]]:
    """What the search finds at each decision point of ``game_name`` (see the module doc)."""
    heuristic = build_strategy("heuristic", None, game_name)
    german = game_name == "german_whist"
    out = []
    for number, view in enumerate(decision_points(game_name)):
        seed = 1000 + number
        incumbent = heuristic.choose(view, Random(seed))
        bidding = view.phase in BIDDING_PHASES
        found = evaluate(
            view, Random(seed), worlds=4,
            exact_cards=0 if bidding else (13 if german else 4),
            solve=solve_fast if german else solve, incumbent=incumbent, confidence=1.0,
            fit_calls=True,
        )
        children = search(view, Random(seed), iterations=24,
                          exact_cards=13 if german else 0, solve=solve_fast)
        row: dict[str, Any] = {
            "phase": view.phase,
            "seat": view.seat,
            "pimc_action": found.action,
            "pimc_values": {str(a): v for a, v in sorted(found.values.items())},
            "pimc_worlds": found.worlds,
            "ismcts_children": {str(a): [n.visits, n.total] for a, n in sorted(children.items())},
        }
        for name, params in STRATEGIES.items():
            if game_name not in resolve_strategy(name).games:
                continue
            strategy = build_strategy(name, params_for(name, params, game_name), game_name)
            if name == "solver" and view.stage == 2:
                continue  # the solver's exact stage 2 involves no roll-out policy
            row[name] = strategy.choose(view, Random(seed))
        out.append(row)
    return out


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("game_name", list(CASES))
@pytest.mark.slow
def test_search_decisions_are_those_pinned(game_name):
    expected = _golden()[game_name]
    found = json.loads(json.dumps(decisions(game_name)))  # the JSON's own types
    assert len(found) == len(expected)
    for number, (got, want) in enumerate(zip(found, expected, strict=True)):
        assert got == want, f"{game_name} decision point {number} ({want['phase']})"


def write_golden() -> None:
    GOLDEN.parent.mkdir(exist_ok=True)
    data = {name: decisions(name) for name in CASES}
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    write_golden()
