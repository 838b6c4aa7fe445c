"""A task's rows, recorded at the speed of play: columns, not dicts, and the hot tables at once.

``play_task`` used to build a Python dict for every row (a German hand is some
110 rows) and convert them at the end: writing a hand down took as long as
playing it. ``TaskRecorder`` keeps what each hand produced as it is (the action
log, the trick records, the outcome's tuples) and builds every column at the end
of the task in a few bulk operations:

- ``actions`` and ``tricks``, the long tables, are flattened with ``zip`` over
  every hand at once; actions and cards become notation through a dictionary
  array (one string per possible action, indexed by the action's number), and
  the key columns repeat per row from one value per hand;
- ``deals`` and ``seats`` take a handful of list appends per hand;
- the games' own tables (Solo contracts and bids, Knock-out rounds) are few rows
  per hand and stay rows.

The rows are exactly those of the dict-by-dict recording they replace
(``tests/test_recording.py`` compares them table by table).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from whist_sim.cards import card_str
from whist_sim.play import PlayedDeal
from whist_sim.store import table_schema, tables_for, to_arrow

CARD_NAMES = pa.array([card_str(card) for card in range(52)], pa.string())
"""Card number -> notation, the dictionary of every card column."""


class TaskRecorder:
    """Collects a task's hands and matches; ``tables()`` makes its Arrow tables."""

    def __init__(self, game: Any, variant_json: str) -> None:
        self.game = game
        self.variant_json = variant_json
        self.names = _action_names(game)
        self.hands: list[tuple[int, int, int, int]] = []
        """(pairing, deal, rotation, hand) of each hand, in order."""
        self.logs: list[list[tuple[int, str, int, bool]]] = []
        self.times: list[list[float | None]] = []
        self.trick_lists: list[Sequence[Any]] = []
        self.trick_extras: list[list[dict[str, Any]]] = []
        self.deal_rows: list[dict[str, Any]] = []
        self.seats: dict[str, list[Any]] = {}
        self.seat_facts: list[Mapping[str, Any]] = []
        self.matches: list[dict[str, Any]] = []
        self.extra: dict[str, list[dict[str, Any]]] = {}

    # -- as the task plays ------------------------------------------------------------------
    def add_hand(self, key: tuple[int, int, int, int], seated: Sequence[str],
                 played: PlayedDeal, error: str | None, times: list[float | None]) -> None:
        """One hand: its keys, who sat where, the played deal, its (cut) error text."""
        state, outcome = played.state, played.outcome
        self.hands.append(key)
        self.logs.append(state.log)
        self.times.append(times)
        self.trick_lists.append(state.completed_tricks())
        self.trick_extras.append(state.trick_facts() if hasattr(state, "trick_facts") else [])
        self.deal_rows.append({
            "seed": played.seed, "strategies": list(seated),
            "status": "forfeit" if outcome.forfeit_seat is not None else "ok",
            "forfeit_seat": outcome.forfeit_seat, "error": error,
            **state.deal_record(), **outcome.facts,
        })
        players = len(seated)
        seats = self.seats
        for name, values in (
            ("seat", range(players)), ("strategy", seated),
            ("is_dealer", [seat == played.dealer for seat in range(players)]),
            ("tricks", outcome.tricks), ("score", outcome.score), ("net", outcome.net),
            ("result", outcome.result),
        ):
            seats.setdefault(name, []).extend(values)
        self.seat_facts.extend(outcome.seat_facts or ({},) * players)
        if hasattr(state, "extra_rows"):
            for table, rows in state.extra_rows(tuple(seated)).items():
                self.extra.setdefault(table, []).extend(
                    {**_key_dict(key), **row} for row in rows)

    def add_match(self, base: tuple[int, int, int], seated: Sequence[str], hands: int,
                  result: Mapping[str, tuple]) -> None:
        pairing, deal, rotation = base
        for seat, label in enumerate(seated):
            self.matches.append({
                "pairing": pairing, "deal": deal, "rotation": rotation, "seat": seat,
                "strategy": label, "hands_played": hands,
                "hands_won": result["match_hands_won"][seat],
                "points": result["match_points"][seat], "result": result["match_result"][seat],
            })

    # -- at the end of the task -------------------------------------------------------------
    def tables(self) -> dict[str, pa.Table]:
        name = self.game.name
        out = {
            "deals": self._deals(),
            "seats": self._seats(),
            "matches": to_arrow("matches", name, self.matches),
            "actions": self._actions(),
            "tricks": self._tricks(),
        }
        for table in tables_for(name):
            if table not in out:
                out[table] = to_arrow(table, name, self.extra.get(table, []))
        return out

    def _keys(self, counts: np.ndarray | None = None) -> dict[str, pa.Array]:
        """The key columns, one value per hand, repeated ``counts`` times each."""
        hands = np.array(self.hands, dtype=np.int64).reshape(-1, 4)
        keys = [f"{p}-{d}-{r}-{h}" for p, d, r, h in self.hands]
        if counts is None:
            index = np.arange(len(self.hands))
        else:
            index = np.repeat(np.arange(len(self.hands)), counts)
        return {
            "deal_key": pa.array(np.array(keys, dtype=object)[index], pa.string()),
            "pairing": pa.array(hands[index, 0], pa.int32()),
            "deal": pa.array(hands[index, 1], pa.int64()),
            "rotation": pa.array(hands[index, 2], pa.int16()),
            "hand": pa.array(hands[index, 3], pa.int16()),
        }

    def _deals(self) -> pa.Table:
        schema = table_schema("deals", self.game.name)
        count = len(self.hands)
        constants = {"game": self.game.name, "game_version": self.game.version,
                     "variant": self.variant_json}
        columns = self._keys()
        for field in schema:
            if field.name in columns:
                continue
            if field.name in constants:
                values: list[Any] = [constants[field.name]] * count
            else:
                values = [row.get(field.name) for row in self.deal_rows]
            columns[field.name] = pa.array(values, field.type)
        return pa.table([columns[f.name] for f in schema], schema=schema)

    def _seats(self) -> pa.Table:
        schema = table_schema("seats", self.game.name)
        counts = np.array([len(row["strategies"]) for row in self.deal_rows], dtype=np.int64)
        columns = self._keys(counts)
        for field in schema:
            if field.name in columns:
                continue
            values = self.seats.get(field.name)
            if values is None:  # a game's own seat facts (Knock-out placing, ...)
                values = [facts.get(field.name) for facts in self.seat_facts]
            columns[field.name] = pa.array(values, field.type)
        return pa.table([columns[f.name] for f in schema], schema=schema)

    def _actions(self) -> pa.Table:
        schema = table_schema("actions", self.game.name)
        counts = np.array([len(log) for log in self.logs], dtype=np.int64)
        total = int(counts.sum())
        columns = self._keys(counts)
        if total:
            seat, phase, action, chosen = zip(*itertools.chain.from_iterable(self.logs),
                                              strict=True)
        else:
            seat = phase = action = chosen = ()
        ends = np.cumsum(counts)
        step = np.arange(total) - np.repeat(ends - counts, counts)
        columns["step"] = pa.array(step, pa.int16())
        columns["seat"] = pa.array(seat, pa.int8())
        columns["phase"] = pa.array(phase, pa.string())
        columns["action"] = pa.DictionaryArray.from_arrays(
            pa.array(action, pa.int32()), self.names).cast(pa.string())
        chosen_mask = np.array(chosen, dtype=bool)
        columns["chosen"] = pa.array(chosen_mask, pa.bool_())
        columns["seconds"] = _decision_seconds(chosen_mask, counts, self.times)
        return pa.table([columns[f.name] for f in schema], schema=schema)

    def _tricks(self) -> pa.Table:
        schema = table_schema("tricks", self.game.name)
        counts = np.array([len(tricks) for tricks in self.trick_lists], dtype=np.int64)
        columns = self._keys(counts)
        records = list(itertools.chain.from_iterable(self.trick_lists))
        if records:
            number, leader, cards, winner = zip(*records, strict=True)
        else:
            number = leader = cards = winner = ()
        columns["trick"] = pa.array(number, pa.int16())
        columns["leader"] = pa.array(leader, pa.int8())
        lengths = np.fromiter((len(c) for c in cards), dtype=np.int32, count=len(cards))
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        flat = pa.array(list(itertools.chain.from_iterable(cards)), pa.int32())
        names = pa.DictionaryArray.from_arrays(flat, CARD_NAMES).cast(pa.string())
        columns["cards"] = pa.ListArray.from_arrays(pa.array(offsets), names)
        columns["winner"] = pa.array(winner, pa.int8())
        extras = list(itertools.chain.from_iterable(
            _padded(facts, len(tricks))
            for facts, tricks in zip(self.trick_extras, self.trick_lists, strict=True)))
        for field in schema:
            if field.name not in columns:
                columns[field.name] = pa.array([row.get(field.name) for row in extras],
                                               field.type)
        return pa.table([columns[f.name] for f in schema], schema=schema)


def _key_dict(key: tuple[int, int, int, int]) -> dict[str, Any]:
    pairing, deal, rotation, hand = key
    return {"pairing": pairing, "deal": deal, "rotation": rotation, "hand": hand,
            "deal_key": f"{pairing}-{deal}-{rotation}-{hand}"}


def _padded(facts: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """A hand's trick facts, one per trick (a trick without facts gets none)."""
    return facts[:count] + [{}] * (count - len(facts))


def _decision_seconds(chosen: np.ndarray, counts: np.ndarray,
                      times: list[list[float | None]]) -> pa.Array:
    """``actions.seconds``: each chosen action's measured time, in order; null elsewhere
    (a move the rules made, or an action replayed from a crash script)."""
    seconds = np.full(chosen.size, np.nan)
    if chosen.size:
        ends = np.cumsum(counts)
        chosen_so_far = np.concatenate([[0], np.cumsum(chosen)])
        per_hand = chosen_so_far[ends] - chosen_so_far[ends - counts]
        measured = [np.nan if t is None else t
                    for hand_times, n in zip(times, per_hand.tolist(), strict=True)
                    for t in _exactly(hand_times, n)]
        seconds[chosen] = measured
    return pa.array(seconds, pa.float64(), from_pandas=True)


def _exactly(values: list[float | None], count: int) -> list[float | None]:
    """``count`` values: the first ones (a forfeit's failed decision is timed too), padded
    with None if fewer were measured."""
    return values[:count] + [None] * (count - len(values))


def _action_names(game: Any) -> pa.Array:
    """Every action's notation, indexed by its number (cards and the game's own actions)."""
    names: list[str | None] = []
    number = 0
    misses = 0
    while misses < 64:  # a game's actions are numbered densely from 52 up
        try:
            names.append(game.action_str(number))
            misses = 0
        except ValueError:
            names.append(None)
            misses += 1
        number += 1
    return pa.array(names[:len(names) - misses], pa.string())
