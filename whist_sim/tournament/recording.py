"""A task's rows, recorded at the speed of play: columns, not dicts, and the hot tables at once.

``play_task`` used to build a Python dict for every row (a German hand is some
110 rows) and convert them at the end: writing a hand down took as long as
playing it. ``TaskRecorder`` keeps little per hand as the task plays (its log's
entries appended to one list for the whole task, the outcome, the dealt cards as
numbers; a state only where a game's own tables still read it) and builds every
column at the end of the task in a few bulk operations:

- ``actions``: the engines log ints (``games.action_log``: one code per seat,
  phase, action and chosen flag), so the task's whole log becomes columns in a few
  array operations on its codes (``log_columns``); actions and cards become
  notation through a dictionary array (one string per action number), and the key
  columns repeat per row from one value per hand;
- ``tricks``: German, Solo and Minnesota Whist's are read off the log (each trick a
  run of plays, its winner found for every trick at once: ``TRICKS_FROM_LOG``), and
  German Whist's trick facts too (``german_trick_facts``); other games' come from
  their trick records. A process that has recorded many hands reads the log in
  compiled passes instead (``trick_kernels``, ``COMPILED_AFTER_HANDS``), the same rows;
- ``deals``, ``seats`` and ``matches`` take a few appends per hand or match;
- the games' own tables: Solo's contracts and bids from the outcomes' facts and the
  logs' bid rows (no state kept), Knock-out's rounds from the games' round rows and
  tricks, column by column (``EXTRA_BY_ARRAYS``); any other game's from its states'
  ``extra_rows``.

The rows are exactly those of the dict-by-dict recording they replace
(``tests/test_recording.py`` compares them table by table).
"""
from __future__ import annotations

import array
import dataclasses
import functools
import itertools
import math
import operator
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from whist_sim.cards import RANKS, SUIT_MASKS, SUITS, card_str
from whist_sim.games.action_log import encode_log, log_fields
from whist_sim.games.knockout_whist import ROUND_FIELDS
from whist_sim.games.solo_whist import COP, PASS
from whist_sim.play import PlayedDeal
from whist_sim.store import table_schema, tables_for, to_arrow

CARD_NAMES = pa.array([card_str(card) for card in range(52)], pa.string())
"""Card number -> notation, the dictionary of every card column."""

TRUMP_NAMES = pa.array([*SUITS, "none"], pa.string())
"""Trump suit number -> the ``trump`` column's text; index 4 (a suit of -1) is "none"."""

_chain = itertools.chain.from_iterable


class TaskRecorder:
    """Collects a task's hands and matches; ``tables()`` makes its Arrow tables.

    A hand costs a few appends while the task plays (``add_hand`` keeps what its rows need:
    the log's codes, added to the task's one array, the tricks as one flat tuple for a
    game whose tricks the log does not give (unless its state is kept), the dealt cards as
    numbers, and the state itself only for a game whose own tables or trick facts ask
    it); every column is built
    in ``tables()``, over all the task's hands at once. Keeping little per hand matters:
    the states a task kept to the end cost more in the garbage collector's passes, which
    go through every object kept, than the columns cost to build.
    """

    def __init__(self, game: Any, variant_json: str) -> None:
        self.game = game
        self.variant_json = variant_json
        self.names = _action_names(game)
        self.entries: list[tuple[Any, ...]] = []
        """Per hand: (pairing, deal, rotation, hand), the line-up as seated, seed, dealer,
        outcome, (cut) error text, decisions timed (their seconds are in ``times``), log
        length, completed tricks' fields in one
        flat tuple (None where the log gives them, ``TRICKS_FROM_LOG``, or the state is
        kept: ``_Hands.trick_records`` reads them there), dealt cards
        (``RAW_DEALS``) and the state (or None)."""
        self.log = array.array("q")
        """Every hand's action log, one after the other, as codes (``games.action_log``): an
        array, not a list, so the table's columns read it without converting 100,000s of
        Python ints one by one (``np.fromiter`` over a German task's log cost about 2
        microseconds a hand; ``fromlist`` as the hands come in, about 1.4)."""
        self.times = array.array("d")
        """Every hand's decisions' seconds, one hand after the other (NaN where a decision
        was not measured): an array, as the log is, so a task keeps no list and no float
        object per decision until its end (a German hand had 26 of each)."""
        self.matches: list[tuple[Any, ...]] = []
        """Per match: (pairing, deal, rotation), the line-up as seated, hands played, and
        per seat the hands won, points and result."""
        self.raw = RAW_DEALS.get(game.name)
        self.tricks_from_log = game.name in TRICKS_FROM_LOG
        self.keep_state: bool | None = None
        """Whether ``tables()`` asks the states (decided at the first hand)."""
        self._hands: _Hands | None = None
        """The hands as columns, once ``tables()`` has made them (None: no hand)."""

    # -- as the task plays ------------------------------------------------------------------
    def add_hand(self, key: tuple[int, int, int, int], seated: Sequence[str],
                 played: PlayedDeal, error: str | None, times: list[float | None]) -> None:
        """One hand: its keys, who sat where, the played deal, its (cut) error text, the
        seconds of its decisions in order (empty where none were measured). The outcome
        is kept with the cut text: every forfeited hand's whole text, kept to the end of
        the task, took a strategy raising 50 MB texts past a child's memory limit."""
        state = played.state
        keep = self.keep_state
        if keep is None:
            keep = self.keep_state = (
                self.raw is None
                or (hasattr(state, "extra_rows") and self.game.name not in STATELESS_EXTRA)
                or (hasattr(state, "trick_facts") and not _german_facts_by_arrays(self.game)))
        raw = self.raw
        try:
            log = state.codes  # the four games' engines log codes (games.action_log)
        except AttributeError:
            log = encode_log(state.log)
        if log.__class__ is list:
            self.log.fromlist(log)
        else:
            self.log.extend(log)
        try:
            self.times.fromlist(times)
        except TypeError:  # a time not measured (None) among them, or not a list
            self.times.extend(math.nan if t is None else t for t in times)
        outcome = played.outcome
        if outcome.error is not error:  # cut: kept whole once, in the task's errors
            outcome = dataclasses.replace(outcome, error=error)
        self.entries.append((
            key, seated, played.seed, played.dealer, outcome, error, len(times), len(log),
            None if self.tricks_from_log or keep else tuple(_chain(state.completed_tricks())),
            None if raw is None else raw(state), state if keep else None))

    def add_match(self, base: tuple[int, int, int], seated: Sequence[str], hands: int,
                  result: Mapping[str, tuple]) -> None:
        self.matches.append((base, seated, hands, result["match_hands_won"],
                             result["match_points"], result["match_result"]))

    # -- at the end of the task -------------------------------------------------------------
    def tables(self) -> dict[str, pa.Table]:
        name = self.game.name
        if not self.entries:  # no hand (no task plays none): each table empty
            return {table: to_arrow(table, name, []) for table in tables_for(name)}
        hands = _Hands(self.entries, self.log, compiled_readings(len(self.entries)),
                       name in PLAYS_FROM_LOG, self.times)
        self._hands = hands
        out = {
            "deals": self._deals(hands),
            "seats": self._seats(hands),
            "matches": self._matches(),
            "actions": self._actions(hands),
            "tricks": self._tricks(hands),
        }
        for table, columns in self._extra(hands).items():
            out[table] = columns
        for table in tables_for(name):
            if table not in out:
                out[table] = to_arrow(table, name, [])
        return out

    def _matches(self) -> pa.Table:
        """One row per seat of each match."""
        schema = table_schema("matches", self.game.name)
        matches = self.matches
        if not matches:
            return to_arrow("matches", self.game.name, [])
        bases, seated, hands, won, points, results = zip(*matches, strict=True)
        seats = np.fromiter(map(len, seated), np.int64, len(seated))
        index = np.repeat(np.arange(len(seated)), seats)
        keys = np.fromiter(_chain(bases), np.int64, 3 * len(bases)).reshape(-1, 3)[index]
        columns = {
            "pairing": keys[:, 0], "deal": keys[:, 1], "rotation": keys[:, 2],
            "seat": np.arange(index.size) - np.repeat(np.cumsum(seats) - seats, seats),
            "strategy": list(_chain(seated)),
            "hands_played": np.array(hands, np.int64)[index],
            "hands_won": list(_chain(won)), "points": list(_chain(points)),
            "result": list(_chain(results)),
        }
        return pa.table([_as_array(columns[f.name], f.type) for f in schema], schema=schema)

    def _extra(self, hands: _Hands) -> dict[str, pa.Table]:
        """The games' own tables (Solo contracts and bids, Knock-out rounds): the state's
        ``extra_rows`` of each hand, their keys repeated from one value per hand."""
        by_arrays = EXTRA_BY_ARRAYS.get(self.game.name)
        if by_arrays is not None:
            return {table: self._table(table, hands, columns)
                    for table, columns in by_arrays(self, hands).items()}
        if not hands.states or not hasattr(hands.states[0], "extra_rows"):
            return {}
        rows: dict[str, list[dict[str, Any]]] = {}
        counts: dict[str, list[int]] = {}
        for number, (seated, state) in enumerate(zip(hands.seated, hands.states, strict=True)):
            for table, produced in state.extra_rows(tuple(seated)).items():
                if table not in rows:
                    rows[table], counts[table] = [], [0] * len(hands.states)
                rows[table].extend(produced)
                counts[table][number] = len(produced)
        out = {}
        for table, table_rows in rows.items():
            schema = table_schema(table, self.game.name)
            columns: dict[str, Any] = self._keys(hands, np.array(counts[table], np.int64))
            for field in schema:
                if field.name not in columns:
                    name = field.name
                    columns[name] = [row.get(name) for row in table_rows]
            out[table] = pa.table([_as_array(columns[f.name], f.type) for f in schema],
                                  schema=schema)
        return out

    def _table(self, table: str, hands: _Hands, columns: dict[str, Any]) -> pa.Table:
        """A game's own table from its columns and ``counts`` (rows per hand): the keys
        repeated from one value per hand, the columns cast to the schema's types."""
        counts = columns.pop("counts")
        schema = table_schema(table, self.game.name)
        columns.update(self._keys(hands, counts))
        return pa.table([_as_array(columns[f.name], f.type) for f in schema], schema=schema)

    def decision_totals(self, labels: Sequence[str]) -> dict[str, tuple[int, float]]:
        """Per entrant: the decisions timed (chosen actions whose seconds were measured, and
        a forfeited decision, where it was measured) and the seconds they took, for the
        live standings' time per decision. Decisions not timed (a replayed hand's, a
        compiled random deal's) are left out: counted as taking no time, they made random's
        time per decision read 0.000 ms. Call after ``tables()``.

        Only the rows with a measured time are read (a compiled random task has none):
        labelling every row of the log cost about 2.5 microseconds a German Whist hand."""
        hands = self._hands
        if hands is None:  # no hand recorded
            return {label: (0, 0.0) for label in labels}
        index = {label: i for i, label in enumerate(labels)}
        rows = np.flatnonzero(~np.isnan(hands.seconds))
        count = np.zeros(len(labels) + 1, np.int64)
        spent = np.zeros(len(labels) + 1, np.float64)
        if rows.size:
            codes = np.fromiter((index.get(label, len(labels)) for label in hands.flat_seated),
                                np.int64, len(hands.flat_seated))
            hand_of_row = np.searchsorted(np.cumsum(hands.log_counts), rows, side="right")
            row_labels = codes[hands.seat_offsets[hand_of_row] + hands.action_seats[rows]]
            count += np.bincount(row_labels[hands.chosen[rows]], minlength=len(labels) + 1)
            spent += np.bincount(row_labels, weights=hands.seconds[rows],
                                 minlength=len(labels) + 1)
        # a forfeited decision counts with its seconds: its seconds alone made an entrant
        # stopped at a 0.1 s limit read 200 ms/decision (a probe)
        for label, seconds in hands.failed_decisions:
            code = index.get(label, len(labels))
            spent[code] += seconds
            count[code] += 1
        return {label: (int(count[i]), float(spent[i])) for label, i in index.items()}

    def _keys(self, hands: _Hands, counts: np.ndarray | None = None) -> dict[str, pa.Array]:
        """The key columns, one value per hand, repeated ``counts`` times each: each column
        cast to its type once per hand, then repeated (indexing the keys' rows once per row
        cost the actions table about a microsecond a German Whist hand)."""
        columns = hands.key_columns
        if counts is None:
            return {"deal_key": hands.deal_keys,
                    **{name: pa.array(column) for name, column in columns.items()}}
        index = np.repeat(np.arange(len(hands.keys)), counts)
        return {"deal_key": hands.deal_keys.take(pa.array(index)),
                **{name: pa.array(np.repeat(column, counts))
                   for name, column in columns.items()}}

    def _deals(self, hands: _Hands) -> pa.Table:
        schema = table_schema("deals", self.game.name)
        count = len(hands.keys)
        outcomes = hands.outcomes
        forfeits = [o.forfeit_seat for o in outcomes]
        columns: dict[str, Any] = self._keys(hands)
        columns.update(game=_same(self.game.name, count, schema.field("game").type),
                       game_version=_same(self.game.version, count,
                                          schema.field("game_version").type),
                       variant=_same(self.variant_json, count, schema.field("variant").type),
                       seed=hands.seeds,
                       strategies=pa.ListArray.from_arrays(
                           pa.array(np.concatenate([[0], np.cumsum(hands.players)]), pa.int32()),
                           hands.seated_names),
                       status=["ok" if f is None else "forfeit" for f in forfeits],
                       forfeit_seat=forfeits, error=hands.errors)
        columns.update(_deal_record_columns(self.game.name, hands.raw_deals(), hands.states))
        missing = [field.name for field in schema if field.name not in columns]
        if missing:  # the game's own facts of a hand
            facts = [o.facts for o in outcomes]
            for name in missing:
                columns[name] = list(map(operator.methodcaller("get", name), facts))
        return pa.table([_as_array(columns[f.name], f.type) for f in schema], schema=schema)

    def _seats(self, hands: _Hands) -> pa.Table:
        schema = table_schema("seats", self.game.name)
        players = hands.players
        columns: dict[str, Any] = self._keys(hands, players)
        outcomes = hands.outcomes
        seat = np.arange(int(players.sum())) - np.repeat(hands.seat_offsets, players)
        dealers = np.fromiter(hands.dealers, np.int64, len(players))
        columns.update(
            seat=pa.array(seat, pa.int8()),
            strategy=hands.seated_names,
            is_dealer=pa.array(seat == np.repeat(dealers, players), pa.bool_()),
            tricks=list(_chain(o.tricks for o in outcomes)),
            score=list(_chain(o.score for o in outcomes)),
            net=list(_chain(o.net for o in outcomes)),
            result=list(_chain(o.result for o in outcomes)),
        )
        missing = [field.name for field in schema if field.name not in columns]
        if missing:  # a game's own seat facts (Knock-out placing, ...)
            facts = list(_chain(o.seat_facts or ({},) * n
                                for o, n in zip(outcomes, players.tolist(), strict=True)))
            for name in missing:
                columns[name] = [f.get(name) for f in facts]
        return pa.table([_as_array(columns[f.name], f.type) for f in schema], schema=schema)

    def _actions(self, hands: _Hands) -> pa.Table:
        schema = table_schema("actions", self.game.name)
        counts = hands.log_counts
        columns = self._keys(hands, counts)
        # in int32, not int64: the same steps (the cast to int16 still checks them) in
        # half the memory, and a tenth of the time (1.8 microseconds a German hand in int64)
        starts = (np.cumsum(counts) - counts).astype(np.int32)
        step = np.arange(int(counts.sum()), dtype=np.int32) - np.repeat(starts, counts)
        columns["step"] = pa.array(step, pa.int16())
        columns["seat"] = pa.array(hands.action_seats, pa.int8())
        columns["phase"] = hands.phases
        columns["action"] = names_at(self.names, hands.actions)
        columns["chosen"] = pa.array(hands.chosen, pa.bool_())
        columns["seconds"] = pa.array(hands.seconds, pa.float64(), from_pandas=True)
        return pa.table([columns[f.name] for f in schema], schema=schema)

    def _tricks(self, hands: _Hands) -> pa.Table:
        schema = table_schema("tricks", self.game.name)
        size = TRICKS_FROM_LOG.get(self.game.name)
        if size is not None:
            columns, counts = (_log_tricks_compiled if hands.compiled
                               else _log_tricks)(hands, size)
            columns.update(self._keys(hands, counts))
        else:
            columns, counts = self._record_tricks(hands)
        missing = [field for field in schema if field.name not in columns]
        if missing:
            facts = _trick_fact_columns(self.game, hands, counts)
            for field in missing:
                columns[field.name] = facts[field.name]
        return pa.table([_as_array(columns[f.name], f.type) for f in schema], schema=schema)

    def _record_tricks(self, hands: _Hands) -> tuple[dict[str, Any], np.ndarray]:
        """The ``tricks`` columns from each hand's trick records (a game whose tricks the log
        does not give: ``TRICKS_FROM_LOG``), and each hand's number of them."""
        counts, numbers, leaders, _, winners = hands.trick_records()
        columns: dict[str, Any] = self._keys(hands, counts)
        columns["trick"] = pa.array(numbers, pa.int16())
        columns["leader"] = pa.array(leaders, pa.int8())
        lengths, played = hands.trick_cards()
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
        columns["cards"] = pa.ListArray.from_arrays(pa.array(offsets), CARD_NAMES.take(played))
        columns["winner"] = pa.array(winners, pa.int8())
        return columns, counts


TRICKS_FROM_LOG = {"german_whist": 2, "solo_whist": 4, "minnesota_whist": 4}
"""Games whose tricks are their log's "play" rows taken this many at a time, every seat
playing to every trick (the partial trick of a forfeited hand left out): the recorder
reads their tricks off the log and keeps no trick records."""


PLAYS_FROM_LOG = frozenset({"knockout_whist"})
"""Games whose tricks the log does not give whole (a trick's size varies: Knock-out's dogs
may knock) but whose completed tricks' cards are, in order, the log's "play" rows, an
unfinished trick's after them: the recorder reads the cards and the seats that played
them off the log, and only each trick's size, leader and winner from its records
(reading every card of a Knock-out game's records cost about 7 microseconds a game)."""


def _log_tricks(hands: _Hands, size: int) -> tuple[dict[str, Any], np.ndarray]:
    """The ``tricks`` columns but the keys, and the completed tricks per hand, from the log:
    each trick's cards are ``size`` consecutive plays, its leader the first card's seat, its
    number its place in the hand, and its winner the seat of the highest trump or else the
    highest card of the suit led (the trump suit is the hand's ``RAW_DEALS`` trump)."""
    count = len(hands.keys)
    rows = np.flatnonzero(hands.phase_codes == _phase_code(hands, "play"))
    hand_of = hands.hand_of_row[rows]
    index = np.arange(rows.size) - np.searchsorted(hand_of, np.arange(count))[hand_of]
    tricks = np.bincount(hand_of, minlength=count) // size
    complete = index < tricks[hand_of] * size
    rows, hand_of, index = rows[complete], hand_of[complete], index[complete]
    cards = hands.actions[rows].reshape(-1, size)
    seats = hands.action_seats[rows].reshape(-1, size)
    trick_hand = hand_of[::size]
    trumps = hands.raw_deals().trumps[trick_hand, None]
    suits = cards // 13
    ranks = cards % 13
    strength = np.where((suits == trumps) & (trumps >= 0), 200 + ranks,
                        np.where(suits == suits[:, :1], 100 + ranks, 0))
    winner = seats[np.arange(len(seats)), strength.argmax(axis=1)]
    return _trick_columns(index[::size] // size + 1, seats[:, 0] if len(seats) else seats.ravel(),
                          cards.ravel(), winner, size), tricks


def _log_tricks_compiled(hands: _Hands, size: int) -> tuple[dict[str, Any], np.ndarray]:
    """``_log_tricks`` in one compiled pass (``trick_kernels.tricks_from_log``)."""
    from whist_sim.tournament.trick_kernels import tricks_from_log

    number, leader, cards, winner, tricks = tricks_from_log(
        hands.phase_codes, _phase_code(hands, "play"), hands.actions, hands.action_seats,
        hands.log_counts, hands.raw_deals().trumps, size)
    return _trick_columns(number, leader, cards, winner, size), tricks


def _trick_columns(number: np.ndarray, leader: np.ndarray, cards: np.ndarray,
                   winner: np.ndarray, size: int) -> dict[str, Any]:
    """The ``tricks`` columns read off the log, however they were read: per trick its
    number, leader and winner, and its ``size`` cards (``cards``: every trick's, flat)."""
    return {
        "trick": pa.array(number, pa.int16()),
        "leader": pa.array(leader, pa.int8()),
        "cards": pa.ListArray.from_arrays(
            pa.array(np.arange(0, cards.size + 1, size, dtype=np.int32)),
            names_at(CARD_NAMES, cards)),
        "winner": pa.array(winner, pa.int8()),
    }


def _phase_code(hands: _Hands, name: str) -> int:
    """The code of phase ``name`` in ``hands.phase_codes`` (-1: no row has that phase)."""
    names = hands.phase_names.to_pylist()
    return names.index(name) if name in names else -1


COMPILED_AFTER_HANDS = 20_000
"""Hands a process records with the NumPy readings of the log before it switches to the
compiled ones (``trick_kernels``): loading numba and the kernels from numba's disk cache
costs a process about 0.4 s once (compiling them, the first time on a machine, about
2.3 s), which the kernels win back (about 10 microseconds a German hand) over some
40,000 hands, so a short run never waits for numba and a long one gains from its second
or third task. Where numba is loaded already (the compiled heuristics load it), the
kernels are used at once. The rows are the same either way
(``tests/test_trick_kernels.py``)."""

_recorded = [0]
"""Hands this process has recorded so far (``compiled_readings``)."""

use_compiled: bool | None = None
"""Force the compiled readings on (True) or off (False); None: ``compiled_readings``
decides. For tests and benchmarks."""


def compiled_readings(hands: int) -> bool:
    """Whether the task about to build its tables from ``hands`` hands reads its tricks
    with the compiled kernels (see ``COMPILED_AFTER_HANDS``)."""
    if use_compiled is not None:
        return use_compiled
    _recorded[0] += hands
    if "numba" not in sys.modules and _recorded[0] < COMPILED_AFTER_HANDS:
        return False
    try:
        import whist_sim.tournament.trick_kernels  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency; a broken install
        return False
    return True


KEY_TYPES = (("pairing", np.int32), ("deal", np.int64), ("rotation", np.int16),
             ("hand", np.int16))
"""A hand's keys, in ``deal_key``'s order, and the NumPy type of each key column."""

DEAL_KEY = "%d-%d-%d-%d"
"""A hand's ``deal_key`` from its (pairing, deal, rotation, hand), as every table keys it."""


def _deal_keys(keys: np.ndarray) -> pa.Array:
    """Each hand's ``deal_key`` (``DEAL_KEY``) from its keys (hands x 4, in ``KEY_TYPES``'
    order), in Arrow's compute kernels: formatting one Python string a hand cost three
    times as long."""
    texts = [pc.cast(pa.array(keys[:, i]), pa.string()) for i in range(keys.shape[1])]
    return pc.binary_join_element_wise(*texts, "-")


class _Hands:
    """A task's hands, as columns built once and shared by the tables."""

    def __init__(self, entries: Sequence[tuple[Any, ...]],
                 log: Sequence[int] | array.array, compiled: bool = False,
                 plays_from_log: bool = False, times: array.array | None = None) -> None:
        self.compiled = compiled
        """Whether the log is read by the compiled kernels (``compiled_readings``)."""
        self.plays_from_log = plays_from_log
        """Whether the completed tricks' cards are the log's "play" rows (``PLAYS_FROM_LOG``)."""
        (keys, seated, seeds, dealers, outcomes, errors, timed, log_counts, tricks, raws,
         states) = (list(c) for c in zip(*entries, strict=True)) if entries else ([],) * 11
        self.keys: list[tuple[int, int, int, int]] = keys
        key_array = np.fromiter(_chain(keys), np.int64, 4 * len(keys)).reshape(-1, 4)
        self.key_columns = {name: np.ascontiguousarray(key_array[:, i], dtype)
                            for i, (name, dtype) in enumerate(KEY_TYPES)}
        """Each key column, one value per hand, as its table type (``KEY_TYPES``)."""
        self.deal_keys = _deal_keys(key_array)
        self.seated: list[Sequence[str]] = seated
        self.flat_seated = list(_chain(seated))
        self.players = np.fromiter(map(len, seated), np.int64, len(seated))
        self.seat_offsets = np.concatenate([[0], np.cumsum(self.players)[:-1]]).astype(np.int64)
        self.seeds: list[int] = seeds
        self.dealers: list[int] = dealers
        self.outcomes = outcomes
        self.errors: list[str | None] = errors
        self.tricks: list[tuple[Any, ...]] = tricks
        self.raws = raws
        self.states = states
        self.log_counts = np.fromiter(log_counts, np.int64, len(log_counts))
        self.action_seats, self.phase_codes, self.phase_names, self.actions, self.chosen = \
            log_columns(log)
        self.phases = names_at(self.phase_names, self.phase_codes)
        self.seconds, self.failed_decisions = _decision_seconds(
            self.chosen, self.log_counts,
            np.frombuffer(times, np.float64) if times else np.zeros(0),
            np.fromiter(timed, np.int64, len(timed)), seated, self.outcomes)
        self._trick_cards: tuple[np.ndarray, np.ndarray] | None = None
        self._trick_seats: np.ndarray | None = None
        self._trick_records: tuple[Any, ...] | None = None
        self._raw_deals: RawDeals | None = None

    @functools.cached_property
    def hand_of_row(self) -> np.ndarray:
        """Each log row's hand: made when a reading asks (the compiled ones do not)."""
        return np.repeat(np.arange(len(self.keys)), self.log_counts)

    @functools.cached_property
    def seated_names(self) -> pa.Array:
        """``flat_seated`` as an Arrow column, made once for ``deals`` and ``seats``."""
        return pa.array(self.flat_seated, pa.string())

    def raw_deals(self) -> RawDeals | None:
        """The hands' ``RAW_DEALS`` numbers as columns (None: a game without them)."""
        if self._raw_deals is None and (not self.raws or self.raws[0] is not None):
            self._raw_deals = RawDeals(self.raws)
        return self._raw_deals

    def trick_records(self) -> tuple[np.ndarray, Sequence[int], Sequence[int],
                                     Sequence[Sequence[int]], Sequence[int]]:
        """Each hand's number of completed tricks, and every trick's number, leader, cards
        and winner, hand after hand (a game whose tricks the log does not give): from the
        records ``add_hand`` flattened, or where it kept the state, from the state's, in
        one transposition (flattening a Knock-out game's 40-odd records as the task
        played cost about 3 microseconds a game)."""
        if self._trick_records is None:
            if self.tricks and self.tricks[0] is None:  # the states were kept
                per_hand = [state.completed_tricks() for state in self.states]
                counts = np.fromiter(map(len, per_hand), np.int64, len(per_hand))
                fields = list(zip(*_chain(per_hand), strict=True)) or [(), (), (), ()]
            else:  # per hand: number, leader, cards, winner, number, ...
                counts = np.fromiter(map(len, self.tricks), np.int64, len(self.tricks)) // 4
                flat = list(_chain(self.tricks))
                fields = [flat[0::4], flat[1::4], flat[2::4], flat[3::4]]
            self._trick_records = (counts, *fields)
        return self._trick_records

    def trick_cards(self) -> tuple[np.ndarray, np.ndarray]:
        """(cards in each completed trick, every card played to one in order), from the
        trick records of a game whose tricks the log does not give (``TRICKS_FROM_LOG``),
        read once for the ``tricks`` table and a game's own tables alike (Knock-out's
        ``rounds`` reads the cards each seat played, a third of that table's time when
        it read them again). For a game in ``PLAYS_FROM_LOG`` only the tricks' sizes come
        from the records: the cards, and the seats that played them, are the log's."""
        if self._trick_cards is None:
            counts, _, _, cards, _ = self.trick_records()
            lengths = np.fromiter(map(len, cards), np.int64, len(cards))
            if self.plays_from_log:
                rows = self._completed_play_rows(counts, lengths)
                self._trick_cards = lengths, self.actions[rows]
                self._trick_seats = self.action_seats[rows]
            else:
                self._trick_cards = lengths, np.fromiter(_chain(cards), np.int64,
                                                         int(lengths.sum()))
        return self._trick_cards

    def _completed_play_rows(self, tricks: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The log rows of the cards played to completed tricks (``tricks``: each hand's
        completed tricks; ``lengths``: each trick's cards, hand after hand): each hand's
        first "play" rows, as many as its tricks hold (a forfeited hand's unfinished trick
        comes after them)."""
        count = tricks.size
        completed = np.bincount(np.repeat(np.arange(count), tricks), weights=lengths,
                                minlength=count).astype(np.int64)
        play_rows = np.flatnonzero(self.phase_codes == _phase_code(self, "play"))
        hand_of = self.hand_of_row[play_rows]
        index = np.arange(play_rows.size) - np.searchsorted(hand_of, np.arange(count))[hand_of]
        rows = play_rows[index < completed[hand_of]]
        if rows.size != int(lengths.sum()):
            raise RuntimeError("the completed tricks and the log's plays disagree")
        return rows

    def trick_seats(self) -> np.ndarray:
        """Knock-out Whist: the seat that played each card of ``trick_cards``, from the
        games' own lists of each trick's players (in playing order, as its cards), or the
        log's (``PLAYS_FROM_LOG``)."""
        if self._trick_seats is None:
            cards = self.trick_cards()[1]
            if self._trick_seats is None:
                self._trick_seats = np.fromiter(
                    _chain(_chain(state.all_trick_players for state in self.states)), np.int64,
                    cards.size)
        return self._trick_seats


def log_columns(codes: Sequence[int] | array.array) -> tuple[
        np.ndarray, np.ndarray, pa.Array, np.ndarray, np.ndarray]:
    """The fields of every log entry as columns, from the logs' codes
    (``games.action_log``; an ``array("q")`` is read in place): seats, phase codes (into
    the phase names returned), actions and chosen flags."""
    if isinstance(codes, array.array) and codes.typecode == "q":
        values = np.frombuffer(codes, np.int64) if len(codes) else np.zeros(0, np.int64)
    else:
        values = np.fromiter(codes, np.int64, len(codes))
    seats, phases, names, actions, chosen = log_fields(values)
    return seats, phases, pa.array(names, pa.string()), actions, chosen


def names_at(names: pa.Array, codes: np.ndarray) -> pa.Array:
    """``names.take(codes)``: the name of each code, for a column of many rows (an action's
    notation, a phase).

    Where the names the codes pick are all as wide, in 1, 2, 4 or 8 bytes (a card's
    notation is two; German Whist's phases, "play" and "take", four), each name is one
    unsigned integer, so the column's text is one NumPy gather of those integers and its
    offsets a range: Arrow's ``take`` of strings, name by name, took twice as long (0.4
    microseconds a German hand for the actions' notation). Otherwise, ``take``."""
    codes = np.asarray(codes)
    cells = _name_cells(names.to_pylist(), codes) if codes.size and codes.min() >= 0 else None
    if cells is None:
        return names.take(pa.array(codes))
    width = cells.itemsize
    offsets = np.arange(0, width * codes.size + 1, width, dtype=np.int32)
    return pa.StringArray.from_buffers(codes.size, pa.py_buffer(offsets),
                                       pa.py_buffer(cells[codes]))


def _name_cells(names: list[str | None], codes: np.ndarray) -> np.ndarray | None:
    """Each name the (non-negative) ``codes`` pick as one unsigned integer of its UTF-8
    bytes, indexed by code (0 for a name not picked); None unless every name picked is
    there and as wide as the others, in 1, 2, 4 or 8 bytes."""
    used = np.flatnonzero(np.bincount(codes)).tolist()
    if used[-1] >= len(names) or any(names[code] is None for code in used):
        return None  # ``take`` says what is wrong, or makes the nulls
    texts = [names[code].encode() for code in used]
    width = len(texts[0])
    if width not in (1, 2, 4, 8) or any(len(text) != width for text in texts):
        return None
    cells = np.zeros(len(names), f"<u{width}")
    for code, text in zip(used, texts, strict=True):
        cells[code] = int.from_bytes(text, "little")
    return cells


def _same(value: Any, count: int, dtype: pa.DataType) -> pa.Array:
    """A column of ``count`` copies of ``value`` (a hand's game, its version, its variant),
    made by Arrow at once: a list of 20,000 copies of a variant's text cost half a
    microsecond a hand to convert."""
    return pa.repeat(pa.scalar(value, dtype), count)


def _as_array(values: Any, dtype: pa.DataType) -> pa.Array:
    if isinstance(values, pa.Array | pa.ChunkedArray):
        return values if values.type == dtype else values.cast(dtype)
    return pa.array(values, dtype)


def _decision_seconds(
    chosen: np.ndarray, counts: np.ndarray, times: np.ndarray, measured: np.ndarray,
    seated: Sequence[Sequence[str]], outcomes: Sequence[Any],
) -> tuple[np.ndarray, list[tuple[str, float]]]:
    """``actions.seconds``: each chosen action's measured time, in order; NaN (null)
    elsewhere (a move the rules made, or an action replayed from a crash script). Also the
    decisions measured beyond the chosen actions (the one a forfeit failed in): their
    entrant and seconds. ``times``: every hand's measured seconds, one hand after the
    other; ``measured``: how many each hand has."""
    seconds = np.full(chosen.size, np.nan)
    failed: list[tuple[str, float]] = []
    if not chosen.size or not measured.any():  # nothing measured (a compiled random task)
        return seconds, failed
    ends = np.cumsum(counts)
    chosen_so_far = np.concatenate([[0], np.cumsum(chosen)])
    per_hand = chosen_so_far[ends] - chosen_so_far[ends - counts]
    if np.array_equal(measured, per_hand):  # every decision measured, none failed
        seconds[chosen] = times
        return seconds, failed
    timed = measured == per_hand
    if np.all(timed | (measured == 0)):  # each hand timed whole or not at all (compiled)
        seconds[chosen & np.repeat(timed, counts)] = times
        return seconds, failed
    values: list[np.ndarray] = []
    starts = np.cumsum(measured) - measured
    for hand, (start, n, m) in enumerate(zip(starts.tolist(), per_hand.tolist(),
                                             measured.tolist(), strict=True)):
        hand_times = times[start:start + m]
        values.append(_exactly(hand_times, n))
        forfeit = outcomes[hand].forfeit_seat
        if forfeit is not None:  # a forfeit's failed decision is timed too
            failed.extend((seated[hand][forfeit], float(t)) for t in hand_times[n:]
                          if not math.isnan(t))
    seconds[chosen] = np.concatenate(values) if values else np.zeros(0)
    return seconds, failed


def _exactly(values: np.ndarray, count: int) -> np.ndarray:
    """``count`` values: the first ones, padded with NaN if fewer were measured."""
    return np.concatenate([values[:count], np.full(max(0, count - values.size), np.nan)])


# -- deals: the cards dealt, in notation, for every hand at once ------------------------------

@functools.cache
def _suit_texts() -> list[pa.Array]:
    """Per suit, every 13-bit rank pattern's cards in display order (highest first), each
    followed by a space: a hand's notation is its four suits' texts joined, right-trimmed."""
    patterns = []
    for bits in range(1 << 13):
        patterns.append([RANKS[rank] for rank in range(12, -1, -1) if bits >> rank & 1])
    return [pa.array(["".join(f"{rank}{suit} " for rank in ranks) for ranks in patterns],
                     pa.string()) for suit in SUITS]


def hands_text(masks: np.ndarray) -> pa.Array:
    """``cards_str`` of each card mask (a hand fanned in display order), for many at once."""
    masks = masks.astype(np.uint64)
    texts = _suit_texts()
    parts = [texts[suit].take(pa.array(((masks >> np.uint64(13 * suit)) & np.uint64(0x1FFF))
                                       .astype(np.int64)))
             for suit in range(4)]
    return pc.utf8_rtrim(pc.binary_join_element_wise(*parts, ""), characters=" ")


def _raw_german(state: Any) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...] | None]:
    return state.dealer, state.trump, state.upcard, state.initial_hands, state.stock


def _raw_solo(state: Any) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...] | None]:
    return state.dealer, state.trump, state.upcard, state.initial_hands, None


def _raw_minnesota(state: Any) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...] | None]:
    return state.dealer, -1, -1, state.initial_hands, None


def _raw_knockout(state: Any) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...] | None]:
    return state.first_dealer, state.upcard // 13, state.upcard, state.first_hands, None


RAW_DEALS: dict[str, Callable[[Any], tuple[int, int, int, tuple[int, ...],
                                            tuple[int, ...] | None]]] = {
    "german_whist": _raw_german, "solo_whist": _raw_solo,
    "minnesota_whist": _raw_minnesota, "knockout_whist": _raw_knockout,
}
"""Per built-in game, a hand's dealt cards as numbers: (dealer, trump suit or -1, upcard
or -1, each seat's cards as a mask, the stock in order or None), which ``_deal_record_columns``
turns into exactly what the state's ``deal_record()`` writes (tests/test_recording.py
checks it on every game). Any other game's hands are asked for ``deal_record()``."""


class RawDeals:
    """Every hand's ``RAW_DEALS`` numbers as columns, read once a task for the ``deals``
    table, the tricks' winners and German Whist's trick facts alike (each had read them
    from the hands' tuples again)."""

    def __init__(self, raws: Sequence[Any]) -> None:
        count = len(raws)
        dealer, trump, upcard, masks, stock = (list(c) for c in zip(*raws, strict=True)) \
            if raws else ([], [], [], [], [])
        self.count = count
        self.dealers: list[int] = dealer
        self.trumps = np.fromiter(trump, np.int64, count)
        """Each hand's trump suit, -1 for none."""
        self.upcards = np.fromiter(upcard, np.int64, count)
        self.seats = np.fromiter(map(len, masks), np.int64, count)
        self.masks = np.fromiter(_chain(masks), np.uint64, int(self.seats.sum()))
        """Every seat's dealt cards as a mask, hand after hand."""
        self.stock_sizes: np.ndarray | None = None
        self.stock_cards: np.ndarray | None = None
        """The stock's cards in order, hand after hand (None: the game has no stock)."""
        if count and stock[0] is not None:
            self.stock_sizes = np.fromiter(map(len, stock), np.int64, count)
            # a card is a byte: joining each stock's bytes reads the task's Python ints
            # in half the time ``np.fromiter`` took (0.6 microseconds a German hand)
            self.stock_cards = np.frombuffer(b"".join(map(bytes, stock)),
                                             np.uint8).astype(np.int64)


def _deal_record_columns(game: str, raw: RawDeals | None, states: Sequence[Any]
                         ) -> dict[str, Any]:
    """The ``deal_record()`` columns (dealer, trump, upcard, hands, stock) of every hand,
    from its ``RAW_DEALS`` numbers, or for another game from its state's ``deal_record()``."""
    if raw is None or game not in RAW_DEALS:
        records = [state.deal_record() for state in states]
        return {name: [r.get(name) for r in records]
                for name in ("dealer", "trump", "upcard", "hands", "stock")}
    trumps, upcards = raw.trumps, raw.upcards
    columns: dict[str, Any] = {
        "dealer": raw.dealers,
        "trump": TRUMP_NAMES.take(pa.array(np.where(trumps < 0, 4, trumps))),
        "upcard": CARD_NAMES.take(pa.array(np.where(upcards < 0, 0, upcards),
                                           mask=upcards < 0)),
        "hands": pa.ListArray.from_arrays(
            pa.array(np.concatenate([[0], np.cumsum(raw.seats)]), pa.int32()),
            hands_text(raw.masks)),
        "stock": [None] * raw.count,
    }
    if raw.stock_cards is not None and raw.stock_sizes is not None:
        lists = pa.ListArray.from_arrays(
            pa.array(np.concatenate([[0], np.cumsum(raw.stock_sizes)]), pa.int32()),
            CARD_NAMES.take(pa.array(raw.stock_cards)))
        columns["stock"] = pc.binary_join(lists, " ")
    return columns


# -- the games' own tables, for every hand at once -------------------------------------------

@functools.cache
def _suit_strength() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per 13-bit suit pattern: its unbroken top sequence (``solo_whist.top_sequence``), its
    cards, and its aces, kings and queens."""
    top = np.zeros(1 << 13, np.int64)
    for bits in range(1 << 13):
        count, rank = 0, 12
        while rank >= 0 and bits >> rank & 1:
            count, rank = count + 1, rank - 1
        top[bits] = count
    patterns = np.arange(1 << 13)
    cards = np.array([int(b).bit_count() for b in range(1 << 13)], np.int64)
    high = cards[patterns & 0x1C00]
    return top, cards, high


def sure_tricks_of(masks: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """``solo_whist.sure_tricks`` of many hands (card masks) and trump suits (-1: none)."""
    top, cards, _ = _suit_strength()
    masks = masks.astype(np.uint64)
    total = np.zeros(len(masks), np.int64)
    for suit in range(4):
        bits = ((masks >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.int64)
        run = top[bits]
        total += run + np.where(trumps == suit, np.maximum(0, cards[bits] - np.maximum(run, 4)),
                                0)
    return np.minimum(total, 13)


def _solo_tables(recorder: TaskRecorder, hands: _Hands) -> dict[str, dict[str, Any]]:
    """Solo Whist's ``contracts`` (one row per hand) and ``bids`` (one per call) as
    ``SoloWhistDeal.extra_rows`` writes them, from the outcomes' facts, the dealt cards and
    the logs' bid rows (tests/test_recording.py compares them with the states' rows)."""
    count = len(hands.keys)
    outcomes = hands.outcomes
    facts = [o.facts for o in outcomes]
    raw = hands.raw_deals()  # dealer, trump, upcard, dealt hands per hand: ``_raw_solo``
    masks = raw.masks.reshape(-1, 4)
    trump = raw.trumps
    declarer = [f["declarer"] for f in facts]
    partner = [f["partner"] for f in facts]
    seated = hands.seated
    has = np.array([d is not None for d in declarer], np.bool_)
    seat_of = np.array([-1 if d is None else d for d in declarer], np.int64)
    hand = masks[np.arange(count), np.maximum(seat_of, 0)]
    _, cards, high = _suit_strength()
    trumps_held = np.zeros(count, np.int64)
    for suit in range(4):
        trumps_held += np.where(trump == suit, cards[((hand >> np.uint64(13 * suit))
                                                      & np.uint64(0x1FFF)).astype(np.int64)], 0)
    high_cards = sum(high[((hand >> np.uint64(13 * suit)) & np.uint64(0x1FFF)).astype(np.int64)]
                     for suit in range(4))
    nets = [o.net for o in outcomes]
    lengths = np.fromiter(map(len, nets), np.int64, count)
    missing = ~has
    contracts = {
        "counts": np.ones(count, np.int64),
        "dealer": raw.dealers,
        "contract": [f["contract"] for f in facts],
        "declarer": declarer,
        "declarer_strategy": [None if d is None else s[d] for d, s in zip(declarer, seated,
                                                                          strict=True)],
        "partner": partner,
        "partner_strategy": [None if p is None else s[p] for p, s in zip(partner, seated,
                                                                         strict=True)],
        "trump": TRUMP_NAMES.take(pa.array(np.where(trump < 0, 4, trump))),
        "target": [f["target"] for f in facts],
        "declarer_tricks": [f["declarer_tricks"] for f in facts],
        "tricks_played": [f["tricks_played"] for f in facts],
        "made": [f["made"] for f in facts],
        "payments": pa.ListArray.from_arrays(
            pa.array(np.concatenate([[0], np.cumsum(lengths)]), pa.int32()),
            pa.array(np.fromiter(_chain(nets), np.float64, int(lengths.sum())))),
        "declarer_hand": pc.if_else(pa.array(missing), pa.scalar(None, pa.string()),
                                    hands_text(hand)),
        "declarer_sure_tricks": pa.array(sure_tricks_of(hand, trump), mask=missing),
        "declarer_trumps": pa.array(trumps_held, mask=missing),
        "declarer_high_cards": pa.array(high_cards, mask=missing),
    }
    # bids: the log's "bid" rows, with the auction as each caller saw it
    codes = {name: code for code, name in enumerate(hands.phase_names.to_pylist())}
    rows = np.flatnonzero(hands.phase_codes == codes.get("bid", -1))
    hand_of_row = hands.hand_of_row[rows]
    first = np.searchsorted(hand_of_row, hand_of_row)  # each hand's first bid
    calls = hands.actions[rows]
    seats = hands.action_seats[rows]
    position = np.arange(rows.size)
    raised = (calls != PASS) & (calls != COP)
    last_raise = np.maximum.accumulate(np.where(raised, position, -1)) if rows.size else position
    last_cop = (np.maximum.accumulate(np.where(calls == COP, position, -1)) if rows.size
                else position)
    raise_before = np.concatenate([[-1], last_raise[:-1]]) if rows.size else position
    cop_before = np.concatenate([[-1], last_cop[:-1]]) if rows.size else position
    raise_before = np.where(raise_before >= first, raise_before, -1)
    cop_before = np.where(cop_before >= first, cop_before, -1)
    passes = np.concatenate([[0], np.cumsum(calls == PASS)])
    upcards = raw.upcards
    upcard_trump = np.where(upcards >= 0, upcards // 13, -1)
    names = recorder.names
    flat_seated = hands.flat_seated
    seat_index = (hands.seat_offsets[hand_of_row] + seats).tolist()
    bids = {
        "counts": np.bincount(hand_of_row, minlength=count),
        "step": position - first,
        "seat": seats,
        "strategy": [flat_seated[i] for i in seat_index],
        "call": names.take(pa.array(calls)),
        "highest_before": names.take(pa.array(calls[np.maximum(raise_before, 0)]
                                              if rows.size else calls,
                                              mask=raise_before < 0)),
        "copped_before": cop_before > raise_before,
        "passed_before": passes[position] - passes[first],
        "sure_tricks": sure_tricks_of(masks[hand_of_row, seats], upcard_trump[hand_of_row]),
    }
    return {"contracts": contracts, "bids": bids}


def _knockout_tables(recorder: TaskRecorder, hands: _Hands) -> dict[str, dict[str, Any]]:
    """Knock-out Whist's ``rounds`` as ``KnockoutWhistDeal.extra_rows`` writes them: each
    game's round rows, with the round's dealer, the entrant and the cards dealt.

    The cards dealt are ``KnockoutWhistDeal.round_masks``'s, for every game at once: the
    cards each seat played to a finished round's tricks (round 1: the dealt hands), a
    missing entry where a seat played none; their notation is made for every row at once."""
    states = hands.states
    count = len(states)
    records: list[tuple[Any, ...]] = list(_chain(state.round_records for state in states))
    counts = np.fromiter((len(state.round_records) for state in states), np.int64, count)
    game_of_row = np.repeat(np.arange(count), counts)
    # the records' fields are the table's own columns (ROUND_FIELDS): one transpose
    fields = dict(zip(ROUND_FIELDS, zip(*records, strict=True) if records
                      else [()] * len(ROUND_FIELDS), strict=True))
    columns: dict[str, Any] = {"counts": counts}
    for f in table_schema("rounds", recorder.game.name):
        if f.name not in KEY_NAMES and f.name not in ("strategy", "dealer", "dealt_cards"):
            columns[f.name] = fields[f.name]
    round_of_row = np.fromiter(fields["round"], np.int64, len(records))
    seat_of_row = np.fromiter(fields["seat"], np.int64, len(records))
    seats = max((state.players for state in states), default=1)
    rounds = np.zeros(count, np.int64)
    np.maximum.at(rounds, game_of_row, round_of_row)
    span = int(round_of_row.max(initial=0)) + 1
    # every card played to a trick of a finished round, by (game, round, seat): the
    # cards and their seats as the tricks table read them (one hand a game, in order)
    sizes, card = hands.trick_cards()
    card_seat = hands.trick_seats()
    per_game = np.fromiter((len(state.all_trick_rounds) for state in states), np.int64, count)
    trick_game = np.repeat(np.arange(count), per_game)
    trick_round = np.fromiter(_chain(state.all_trick_rounds for state in states), np.int64,
                              sizes.size)
    card_game = np.repeat(trick_game, sizes)
    card_round = np.repeat(trick_round, sizes)
    kept = (card_round <= rounds[card_game]) & (card_round > 1)
    key = (card_game[kept] * span + card_round[kept]) * seats + card_seat[kept]
    dealt = np.zeros(count * span * seats, np.uint64)
    np.bitwise_or.at(dealt, key, np.left_shift(np.uint64(1), card[kept].astype(np.uint64)))
    played = np.zeros(dealt.size, np.bool_)
    played[key] = True
    row_key = (game_of_row * span + round_of_row) * seats + seat_of_row
    first = round_of_row == 1
    first_hands = np.zeros(len(records), np.uint64)
    if first.any():
        first_hands[first] = np.fromiter(
            (states[g].first_hands[seat] for g, seat in zip(game_of_row[first].tolist(),
                                                          seat_of_row[first].tolist(),
                                                          strict=True)),
            np.uint64, int(first.sum()))
    masks = np.where(first, first_hands, dealt[row_key])
    missing = ~np.where(first, True, played[row_key])
    dealers = _round_dealers(
        np.fromiter((state.first_dealer for state in states), np.int64, count),
        np.fromiter((state.players for state in states), np.int64, count),
        game_of_row, round_of_row, seat_of_row)
    flat_seated = hands.flat_seated
    seat_index = (hands.seat_offsets[game_of_row] + seat_of_row).tolist()
    columns.update(
        strategy=[flat_seated[i] for i in seat_index],
        dealer=dealers[game_of_row, round_of_row - 1].tolist(),
        dealt_cards=pc.if_else(pa.array(missing), pa.scalar(None, pa.string()),
                               hands_text(masks)))
    return {"rounds": columns}


def _round_dealers(first: np.ndarray, players: np.ndarray, game_of_row: np.ndarray,
                   round_of_row: np.ndarray, seat_of_row: np.ndarray) -> np.ndarray:
    """Each game's round dealers as ``KnockoutWhistDeal.round_masks`` finds them, every game
    at once: ``[game, round - 1]``. Round 1's is the game's first dealer (``first``);
    the deal then passes to the first seat on the left of the last dealer among the
    players of the next round (the seats with a row in it); ``players``: each game's
    table size (a task may mix them). Entries past a game's last round are left as they
    fall (no row reads them)."""
    count = len(first)
    span = int(round_of_row.max(initial=1))
    playing = np.zeros((count, span), np.int64)  # per game and round, its seats as bits
    np.bitwise_or.at(playing, (game_of_row, round_of_row - 1), np.left_shift(1, seat_of_row))
    dealers = np.empty((count, span), np.int64)
    dealers[:, 0] = first
    for number in range(1, span):
        last, next_dealer = dealers[:, number - 1], np.full(count, -1, np.int64)
        # the nearest seat on the left is written last; a step past a smaller table's
        # size names a seat a nearer step names again
        for step in range(int(players.max(initial=1)), 0, -1):
            seat = (last + step) % players
            next_dealer = np.where(playing[:, number] >> seat & 1, seat, next_dealer)
        dealers[:, number] = next_dealer
    return dealers


KEY_NAMES = frozenset({"deal_key", "pairing", "deal", "rotation", "hand"})
"""The key columns every table starts with (``TaskRecorder._keys``)."""

STATELESS_EXTRA = frozenset({"solo_whist"})
"""Games whose own tables need no kept state."""

EXTRA_BY_ARRAYS: dict[str, Callable[[TaskRecorder, _Hands], dict[str, dict[str, Any]]]] = {
    "solo_whist": _solo_tables,
    "knockout_whist": _knockout_tables,
}
"""Games whose own tables the recorder builds in columns (Solo's without the states; any
other game's come from each state's ``extra_rows``)."""


# -- tricks: the games' own facts per trick --------------------------------------------------

def _trick_fact_columns(game: Any, hands: _Hands,
                        counts: np.ndarray) -> dict[str, Any]:
    """The ``tricks`` columns a game adds (German Whist: stage, faceup, taken,
    follower_could_win, follower_could_win_legally; Knock-out: round, players), one value
    per completed trick."""
    if _german_facts_by_arrays(game):
        if hands.compiled:
            return _german_facts_compiled(hands, counts)
        return german_trick_facts(hands.raw_deals(), hands.log_counts, hands.action_seats,
                                  (hands.phase_codes, hands.phase_names), hands.actions,
                                  counts)
    if game.name == "knockout_whist":
        return _knockout_trick_facts(hands, counts)
    facts = list(_chain(
        _padded(state.trick_facts() if hasattr(state, "trick_facts") else [], tricks)
        for state, tricks in zip(hands.states, counts.tolist(), strict=True)))
    columns = _NoFacts(len(facts))
    for name in {name for row in facts for name in row}:
        columns[name] = [row.get(name) for row in facts]
    return columns


def _knockout_trick_facts(hands: _Hands, counts: np.ndarray) -> dict[str, Any]:
    """Knock-out Whist's trick facts (``KnockoutWhistDeal.trick_facts``: each trick's round
    and the seats that played to it) as columns, from the games' own lists."""
    states = hands.states
    if any(len(state.all_trick_rounds) != tricks
           for state, tricks in zip(states, counts.tolist(), strict=True)):
        raise RuntimeError("Knock-out trick facts: the completed tricks and the rounds disagree")
    sizes, _ = hands.trick_cards()  # a seat per card
    return {
        "round": list(_chain(state.all_trick_rounds for state in states)),
        "players": pa.ListArray.from_arrays(
            pa.array(np.concatenate([[0], np.cumsum(sizes)]), pa.int32()),
            pa.array(hands.trick_seats())),
    }


def _german_facts_by_arrays(game: Any) -> bool:
    """Whether ``german_trick_facts`` reads this game's trick facts (the classic stock)."""
    return game.name == "german_whist" and game.variant.open_stock == 1


class _NoFacts(dict):
    """Columns no trick has a fact for: all null."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def __missing__(self, name: str) -> list[None]:
        return [None] * self.count


def german_trick_facts(raw: RawDeals, log_counts: np.ndarray, seats: np.ndarray,
                       phases: pa.Array | tuple[np.ndarray, pa.Array], cards: np.ndarray,
                       trick_counts: np.ndarray) -> dict[str, Any]:
    """German Whist's trick facts (``GermanWhistDeal.trick_facts``) for every completed trick
    of every hand at once, from the logs as arrays, under the classic one face-up card.

    A seat's hand before any action is its dealt hand XOR every card that entered or left
    it so far (a card enters once and leaves once), so the follower's hand at each trick
    is a cumulative XOR; trick ``t`` of stage 1 is led with stock card ``2t`` face up, and
    its winner's take is the stage's ``t``-th take in the log. ``phases``: each row's phase,
    or (each row's phase code, the phase names the codes index).
    """
    hand_count = raw.count
    players = 2
    hand_of_row = np.repeat(np.arange(hand_count), log_counts)
    starts = np.concatenate([[0], np.cumsum(log_counts)[:-1]]).astype(np.int64)
    if isinstance(phases, tuple):  # (phase codes, phase names): no text compared per row
        codes, names = phases
        code = {name: number for number, name in enumerate(names.to_pylist())}
        is_play = codes == code.get("play", -1)
        is_take = codes == code.get("take", -1)
    else:
        is_play = pc.equal(phases, "play").to_numpy(zero_copy_only=False)
        is_take = pc.equal(phases, "take").to_numpy(zero_copy_only=False)
    bits = np.left_shift(np.uint64(1), cards.astype(np.uint64))
    initial, trumps, stock = _german_deals(raw)
    # plays alternate lead, follow within a hand: the n-th play of a hand is trick n // 2
    play_rows = np.flatnonzero(is_play)
    play_hand = hand_of_row[play_rows]
    first_play = np.searchsorted(play_hand, np.arange(hand_count))
    play_number = np.arange(play_rows.size) - first_play[play_hand]
    # a trick is completed once its second card is played: one per follow, led just before
    follow_plays = np.flatnonzero(play_number % 2 == 1)
    follows = play_rows[follow_plays]
    leads = play_rows[follow_plays - 1]
    follow_hand = hand_of_row[follows]
    # the follower's hand as it follows: its dealt hand ^ the XOR of its cards in the
    # hand's earlier rows (a cumulative XOR per seat, read at the follows only)
    held = np.empty(follows.size, np.uint64)
    follower = seats[follows]
    for seat in range(players):
        stream = np.where(seats == seat, bits, np.uint64(0))
        prior = np.concatenate([np.zeros(1, np.uint64), np.bitwise_xor.accumulate(stream)])
        mine = follower == seat
        at, hand = follows[mine], follow_hand[mine]
        held[mine] = initial[hand, seat] ^ prior[at] ^ prior[starts[hand]]
    lead_card = cards[leads]
    suit = lead_card // 13
    suit_masks = np.array(SUIT_MASKS, np.uint64)
    above = ~((np.uint64(2) << lead_card.astype(np.uint64)) - np.uint64(1))
    higher = held & suit_masks[suit] & above
    trump = trumps[follow_hand]
    trumping = (trump >= 0) & (trump != suit)
    trumps_held = np.where(trumping, held & suit_masks[np.where(trump >= 0, trump, 0)],
                           np.uint64(0))
    could_win = (higher != 0) | (trumps_held != 0)
    void = (held & suit_masks[suit]) == 0  # a trump wins only for a follower void in the suit
    could_win_legally = (higher != 0) | ((trumps_held != 0) & void)
    trick_index = np.arange(follows.size) - np.searchsorted(follow_hand, follow_hand)
    stage_one = trick_index < 13
    faceup_card = stock[follow_hand, np.minimum(trick_index, 12)]
    faceup = CARD_NAMES.take(pa.array(faceup_card, mask=~stage_one))
    # the winner's take after trick t of stage 1 is the hand's t-th take
    take_rows = np.flatnonzero(is_take)
    take_hand = hand_of_row[take_rows]
    take_number = np.arange(take_rows.size) - np.searchsorted(take_hand, take_hand)
    taken_card = np.full(follows.size, -1, np.int64)
    trick_start = np.searchsorted(follow_hand, np.arange(hand_count))
    taken_card[trick_start[take_hand] + take_number] = cards[take_rows]
    if not np.array_equal(np.bincount(follow_hand, minlength=hand_count), trick_counts):
        raise RuntimeError("German Whist trick facts: the completed tricks and the log disagree")
    return {
        "stage": np.where(stage_one, 1, 2),
        "faceup": faceup,
        "taken": CARD_NAMES.take(pa.array(np.maximum(taken_card, 0), mask=taken_card < 0)),
        "follower_could_win": could_win,
        "follower_could_win_legally": could_win_legally,
    }


def _german_deals(raw: RawDeals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the hands' ``RawDeals``: the dealt hands (hands x 2 masks), the trump suits,
    and the stock cards turned face up in stage 1 under one face-up card, in order (the
    stock's even places: hands x 13)."""
    sizes, cards = raw.stock_sizes, raw.stock_cards
    if sizes is None or cards is None or np.any(sizes != 26):
        raise ValueError("German Whist trick facts: a hand without a stock of 26 cards")
    return raw.masks.reshape(-1, 2), raw.trumps, cards.reshape(-1, 26)[:, 0:26:2]


def _german_facts_compiled(hands: _Hands, trick_counts: np.ndarray) -> dict[str, Any]:
    """``german_trick_facts`` in one compiled pass (``trick_kernels.german_facts``)."""
    from whist_sim.tournament.trick_kernels import german_facts

    initial, trumps, faceup_cards = _german_deals(hands.raw_deals())
    stage, faceup, taken, could_win, could_win_legally = german_facts(
        hands.phase_codes, _phase_code(hands, "play"), _phase_code(hands, "take"),
        hands.actions, hands.action_seats, hands.log_counts, initial, trumps, faceup_cards)
    if stage.size != int(trick_counts.sum()):
        raise RuntimeError("German Whist trick facts: the completed tricks and the log disagree")
    return {
        "stage": stage,
        "faceup": CARD_NAMES.take(pa.array(np.maximum(faceup, 0), mask=faceup < 0)),
        "taken": CARD_NAMES.take(pa.array(np.maximum(taken, 0), mask=taken < 0)),
        "follower_could_win": could_win,
        "follower_could_win_legally": could_win_legally,
    }


def _padded(facts: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """A hand's trick facts, one per trick (a trick without facts gets none)."""
    return facts[:count] + [{}] * (count - len(facts))


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
