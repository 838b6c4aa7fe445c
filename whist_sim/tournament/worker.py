"""Play one task of a tournament and return its rows as Arrow tables.

Plain Python, no Ray: the runner ships this function to Ray workers, and tests
and notebooks call it directly.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from whist_sim.cards import card_str
from whist_sim.deal_sets import DealSet
from whist_sim.games import make_game
from whist_sim.play import PlayedDeal, play_match
from whist_sim.store import tables_for, to_arrow
from whist_sim.strategy import build_strategy
from whist_sim.tournament.schedule import Plan, match_seed, rotate, seatings


@dataclass(frozen=True)
class TaskSpec:
    """Everything a worker needs to play task ``task``: plain data, cheap to ship."""

    task: int
    game: str
    variant: dict[str, Any]
    players: int | list[int] | None
    root_seed: int
    plan: Plan
    lineups: list[tuple[str, ...]]
    strategies: dict[str, tuple[str, dict[str, Any]]]  # label -> (use, params)
    time_limit: float | None
    on_error: str
    deal_set: DealSet | None = None
    """The deals of ``tournament.deals_file`` this task plays (None: seeded deals)."""
    pairing_ids: tuple[int, ...] | None = None
    """The number each line-up has in the results (``pairing``); None: its index in
    ``lineups``. A gauntlet plays some line-ups of the round robin under their
    round-robin numbers, so its rows equal the round robin's."""


@dataclass
class TaskResult:
    task: int
    tables: dict[str, pa.Table]
    deals: int
    seconds: float
    node: str = "local"
    """Address of the Ray node that played the task ("local" outside Ray)."""
    decisions: dict[str, tuple[int, float]] = field(default_factory=dict)
    """Per entrant: decisions taken and the seconds they took, for the live standings."""


class _Stopwatch:
    """A strategy's ``choose`` with its decisions counted and timed, for the live standings.

    Only ``choose`` is exposed: the play loop needs nothing else of a strategy.
    """

    __slots__ = ("choose", "decisions", "seconds")

    def __init__(self, choose: Callable[[Any, Any], int]) -> None:
        self.decisions = 0
        self.seconds = 0.0
        clock = time.perf_counter

        def timed(view: Any, rng: Any) -> int:
            started = clock()
            try:
                return choose(view, rng)
            finally:
                self.seconds += clock() - started
                self.decisions += 1

        self.choose = timed


def play_task(spec: TaskSpec) -> TaskResult:
    """Play every (line-up, deal) item of the task under every rotation."""
    started = time.perf_counter()
    sizes = spec.players if isinstance(spec.players, list) else [spec.players]
    games = {g.players: g for g in (make_game(spec.game, spec.variant, n) for n in sizes)}
    game = next(iter(games.values()))
    built = {
        label: _Stopwatch(build_strategy(use, params, game.name).choose)
        for label, (use, params) in spec.strategies.items()
    }
    numbers = spec.pairing_ids or range(len(spec.lineups))
    variant_json = json.dumps(game.variant.as_dict(), sort_keys=True)
    tables = tables_for(game.name)
    rows: dict[str, list[dict[str, Any]]] = {table: [] for table in tables}
    deals_played = 0
    for pairing, deal in spec.plan.task_items(spec.task):
        lineup = spec.lineups[pairing]
        game = games[len(lineup)]
        seed = match_seed(spec.root_seed, deal)
        for rotation in seatings(lineup, game.duplicate_rotations):
            seated = rotate(lineup, rotation)
            played, match = play_match(
                game,
                [built[label] for label in seated],
                seed,
                time_limit=spec.time_limit,
                on_error=spec.on_error,
                deal_source=None if spec.deal_set is None
                else spec.deal_set.source(game, deal, seed),
            )
            base = {"pairing": numbers[pairing], "deal": deal, "rotation": rotation}
            for hand, result in enumerate(played):
                key = {**base, "hand": hand,
                       "deal_key": f"{numbers[pairing]}-{deal}-{rotation}-{hand}"}
                _add_deal_rows(rows, game, key, seated, variant_json, result)
                for table, extra in _extra_rows(result.state, seated).items():
                    rows[table].extend({**key, **row} for row in extra)
            for seat, label in enumerate(seated):
                rows["matches"].append(
                    {
                        **base,
                        "seat": seat,
                        "strategy": label,
                        "hands_played": len(played),
                        "hands_won": match["match_hands_won"][seat],
                        "points": match["match_points"][seat],
                        "result": match["match_result"][seat],
                    }
                )
            deals_played += len(played)
    arrow = {table: to_arrow(table, game.name, rows[table]) for table in tables}
    seconds = time.perf_counter() - started
    decisions = {label: (watch.decisions, watch.seconds) for label, watch in built.items()}
    return TaskResult(spec.task, arrow, deals_played, seconds, _node_address(), decisions)


def _node_address() -> str:
    """Where the task ran: the Ray node's address, or "local" outside Ray (never imports Ray)."""
    ray = sys.modules.get("ray")
    return ray.util.get_node_ip_address() if ray is not None and ray.is_initialized() else "local"


def _add_deal_rows(
    rows: dict[str, list[dict[str, Any]]],
    game: Any,
    key: dict[str, Any],
    seated: tuple[str, ...],
    variant_json: str,
    played: PlayedDeal,
) -> None:
    state, outcome = played.state, played.outcome
    rows["deals"].append(
        {
            **key,
            "game": game.name,
            "game_version": game.version,
            "variant": variant_json,
            "seed": played.seed,
            **state.deal_record(),
            "strategies": list(seated),
            "status": "forfeit" if outcome.forfeit_seat is not None else "ok",
            "forfeit_seat": outcome.forfeit_seat,
            "error": outcome.error,
            **outcome.facts,
        }
    )
    for seat, label in enumerate(seated):
        rows["seats"].append(
            {
                **key,
                "seat": seat,
                "strategy": label,
                "is_dealer": seat == played.dealer,
                "tricks": outcome.tricks[seat],
                "score": outcome.score[seat],
                "net": outcome.net[seat],
                "result": outcome.result[seat],
                **(outcome.seat_facts[seat] if outcome.seat_facts else {}),
            }
        )
    for step, (seat, phase, action, chosen) in enumerate(state.log):
        rows["actions"].append(
            {**key, "step": step, "seat": seat, "phase": phase,
             "action": game.action_str(action), "chosen": chosen}
        )
    extras = state.trick_facts() if hasattr(state, "trick_facts") else []
    for i, record in enumerate(state.completed_tricks()):
        rows["tricks"].append(
            {
                **key,
                "trick": record.number,
                "leader": record.leader,
                "cards": [card_str(c) for c in record.cards],
                "winner": record.winner,
                **(extras[i] if i < len(extras) else {}),
            }
        )


def _extra_rows(state: Any, seated: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """Rows of the game's own tables (Solo Whist: contracts, bids), if it has any."""
    if not hasattr(state, "extra_rows"):
        return {}
    return state.extra_rows(seated)
