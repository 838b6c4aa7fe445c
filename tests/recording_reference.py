"""The dict-by-dict recording that ``tournament.recording.TaskRecorder`` replaced.

Kept as the reference the columnar recording must equal (tests/test_recording.py
plays the same task with each) and as the old code path that
benchmarks/pipeline_throughput.py times beside the new one (``--old``). Same
interface as ``TaskRecorder``: ``add_hand``, ``add_match``, ``tables``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyarrow as pa

from whist_sim.cards import card_str
from whist_sim.play import PlayedDeal
from whist_sim.store import tables_for, to_arrow


class ReferenceRecorder:
    """One dict per row, converted at the end (what play_task did before)."""

    def __init__(self, game: Any, variant_json: str) -> None:
        self.game = game
        self.variant_json = variant_json
        self.rows: dict[str, list[dict[str, Any]]] = {t: [] for t in tables_for(game.name)}
        self.decisions: dict[str, list[float]] = {}

    def add_hand(self, key: tuple[int, int, int, int], seated: Sequence[str],
                 played: PlayedDeal, error: str | None, times: list[float | None]) -> None:
        pairing, deal, rotation, hand = key
        keys = {"pairing": pairing, "deal": deal, "rotation": rotation, "hand": hand,
                "deal_key": f"{pairing}-{deal}-{rotation}-{hand}"}
        state, outcome, game, rows = played.state, played.outcome, self.game, self.rows
        rows["deals"].append({
            **keys, "game": game.name, "game_version": game.version,
            "variant": self.variant_json, "seed": played.seed, **state.deal_record(),
            "strategies": list(seated),
            "status": "forfeit" if outcome.forfeit_seat is not None else "ok",
            "forfeit_seat": outcome.forfeit_seat, "error": error, **outcome.facts,
        })
        for seat, label in enumerate(seated):
            rows["seats"].append({
                **keys, "seat": seat, "strategy": label, "is_dealer": seat == played.dealer,
                "tricks": outcome.tricks[seat], "score": outcome.score[seat],
                "net": outcome.net[seat], "result": outcome.result[seat],
                **(outcome.seat_facts[seat] if outcome.seat_facts else {}),
            })
        chosen_seats = [seat for seat, _, _, chosen in state.log if chosen]
        for index, seat in enumerate(chosen_seats):  # the decisions timed, from the log
            if index < len(times) and times[index] is not None:
                self.decisions.setdefault(seated[seat], [0, 0.0])[0] += 1
        for seat, seconds in zip(_deciders(state.log, outcome.forfeit_seat), times,
                                 strict=False):
            if seconds is not None:
                self.decisions.setdefault(seated[seat], [0, 0.0])[1] += seconds
        if outcome.forfeit_seat is not None and len(times) > len(chosen_seats):
            self.decisions[seated[outcome.forfeit_seat]][0] += 1  # the forfeit's, measured
        decision_times = iter(times)
        for step, (seat, phase, action, chosen) in enumerate(state.log):
            rows["actions"].append({
                **keys, "step": step, "seat": seat, "phase": phase,
                "action": game.action_str(action), "chosen": chosen,
                "seconds": next(decision_times, None) if chosen else None,
            })
        extras = state.trick_facts() if hasattr(state, "trick_facts") else []
        for i, record in enumerate(state.completed_tricks()):
            rows["tricks"].append({
                **keys, "trick": record.number, "leader": record.leader,
                "cards": [card_str(c) for c in record.cards], "winner": record.winner,
                **(extras[i] if i < len(extras) else {}),
            })
        if hasattr(state, "extra_rows"):
            for table, extra in state.extra_rows(tuple(seated)).items():
                rows[table].extend({**keys, **row} for row in extra)

    def add_match(self, base: tuple[int, int, int], seated: Sequence[str], hands: int,
                  result: Mapping[str, tuple]) -> None:
        pairing, deal, rotation = base
        for seat, label in enumerate(seated):
            self.rows["matches"].append({
                "pairing": pairing, "deal": deal, "rotation": rotation, "seat": seat,
                "strategy": label, "hands_played": hands,
                "hands_won": result["match_hands_won"][seat],
                "points": result["match_points"][seat], "result": result["match_result"][seat],
            })

    def tables(self) -> dict[str, pa.Table]:
        return {t: to_arrow(t, self.game.name, rows) for t, rows in self.rows.items()}

    def decision_totals(self, labels: Sequence[str]) -> dict[str, tuple[int, float]]:
        return {label: tuple(self.decisions.get(label, [0, 0.0])) for label in labels}


def _deciders(log: Sequence[tuple[int, str, int, bool]], forfeit: int | None) -> list[int]:
    """The seat of each measured decision: the chosen actions', then the forfeit's."""
    seats = [seat for seat, _, _, chosen in log if chosen]
    return seats if forfeit is None else [*seats, forfeit]
