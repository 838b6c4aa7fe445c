"""Play one task of a tournament and return its rows as Arrow tables.

Plain Python, no Ray: the runner ships this function to Ray workers, and tests
and notebooks call it directly.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import math
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from whist_sim.budget import DecisionClock, TimeControl, decision_clock
from whist_sim.deal_sets import DealSet
from whist_sim.games import make_game
from whist_sim.play import (
    EVERY_SEAT_FORFEITS,
    SEAT_SEEDING,
    SatOut,
    StrategyFailure,
    TableBenched,
    play_match,
)
from whist_sim.strategy import build_strategy
from whist_sim.tournament.bots import BotEntry, bot_stderr
from whist_sim.tournament.entrants import CrashScript, Entrant, HandKey, Monitor, Table
from whist_sim.tournament.freed_memory import keep_freed_memory
from whist_sim.tournament.node_code import (
    code_fingerprint,
    parameter_fingerprint,
    with_parameter_files,
)
from whist_sim.tournament.recording import DEAL_KEY, TaskRecorder
from whist_sim.tournament.schedule import (
    SEATING_ORDERS,
    Plan,
    arranged,
    match_seed,
    rotate,
    seatings,
)


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
    memory_limit: int | None = None
    """Bytes a supervised worker's child may hold (``sandbox``); None: the default."""
    scripts: Mapping[HandKey, CrashScript] = field(default_factory=dict)
    """Hands a supervisor saw a strategy's process die in: replayed from their actions
    and forfeited, not played again (``sandbox``)."""
    time_control: TimeControl | None = None
    """Chess clocks on top of ``time_limit`` (``tournament.clock``)."""
    seat_seeding: int = SEAT_SEEDING
    """How seats' generators are seeded (``play.SEAT_SEEDING``; run.json keeps a run's)."""
    seating_orders: int = SEATING_ORDERS
    """How a deal's seating order is chosen (``schedule.SEATING_ORDERS``; run.json keeps
    a run's)."""
    bots: Mapping[str, BotEntry] = field(default_factory=dict)
    """Entrants that play in processes of their own, behind the bot protocol."""
    benched: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    """Entrants benched (``tournament.bench_after``): label -> (the first plan item it sits
    out, the reason its forfeits give). From that item on its seats forfeit unplayed."""


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
    output: dict[str, str] = field(default_factory=dict)
    """Per entrant that printed anything: what it printed, capped (``entrants.OUTPUT_LIMIT``)."""
    errors: dict[str, str] = field(default_factory=dict)
    """The full text of every error too long for the ``error`` column, by its digest (the
    name of its file in the run's ``logs/errors/``): an error repeated on many deals is
    carried and stored once."""
    code: dict[str, dict[str, str]] = field(default_factory=dict)
    """The fingerprint of the code that played the task (``node_code.code_fingerprint``),
    which the driver compares with its own before it commits the task."""
    bot_start_seconds: float = 0.0
    """Seconds of ``seconds`` spent starting the bots' processes (``ProcessStrategy.
    start_seconds``): a worker starts a bot's processes once, not once a deal, so the
    run's timing sample leaves them out of the time a deal takes."""


ERROR_TEXT_LIMIT = 2000
"""Characters of an error kept in the ``deals`` table; a longer text is cut there and kept
whole, once, in the run's ``logs/errors/`` (a 50 MB error must not bloat every report)."""


def error_digest(text: str) -> str:
    """The name a long error's full text is kept under."""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


def play_task(
    spec: TaskSpec, monitor: Monitor | None = None, contain: bool = False
) -> TaskResult:
    """Play every (line-up, deal) item of the task under every rotation.

    ``monitor`` and ``contain`` are for a supervised process (``sandbox``): the
    supervisor watches each decision, and a strategy's ``BaseException`` forfeits
    its deal instead of ending the process.
    """
    started = time.perf_counter()
    keep_freed_memory()  # the tables' arrays reuse the last task's memory
    files = parameter_fingerprint(spec.strategies)  # as the strategies below read them
    sizes = spec.players if isinstance(spec.players, list) else [spec.players]
    games = {g.players: g for g in (make_game(spec.game, spec.variant, n) for n in sizes)}
    game = next(iter(games.values()))
    board = Table(monitor, spec.scripts, contain)
    bots = {label: spec.bots[label].strategy(label, game, spec)
            for label in spec.strategies if label in spec.bots}
    bots_started = sum(bot.start_seconds for bot in bots.values())
    built = {
        label: Entrant(label, index, bots[label] if label in bots
                       else build_strategy(use, params, game), board)
        for index, (label, (use, params)) in enumerate(spec.strategies.items())
    }
    numbers = spec.pairing_ids or range(len(spec.lineups))
    variant_json = json.dumps(game.variant.as_dict(), sort_keys=True)
    recorder = TaskRecorder(game, variant_json)
    errors: dict[str, str] = {}
    limited = spec.time_limit is not None or spec.time_control is not None
    with _old_objects_aside(), board.printing(), (
            decision_clock(spec.time_limit or math.inf) if limited
            else contextlib.nullcontext()) as clock:
        deals_played = _play_items(spec, games, board, built, numbers, recorder, errors, clock)
        arrow = recorder.tables()
    seconds = time.perf_counter() - started
    timed = recorder.decision_totals(list(built))
    output = {label: e.output.text() for label, e in built.items() if e.output.kept}
    if board.stray.kept:
        output[OUTSIDE_DECISIONS] = board.stray.text()
    output.update(bot_stderr(spec.bots))
    node = node_address()
    # outside Ray the driver plays (or supervises) the task itself and compares only the
    # parameter files: hashing the entrants' code costs a process's first task about 0.4 s
    code = files if node == "local" else with_parameter_files(task_code(spec), files)
    return TaskResult(spec.task, arrow, deals_played, seconds, node, timed, output, errors,
                      code, sum(bot.start_seconds for bot in bots.values()) - bots_started)


def task_code(spec: TaskSpec) -> dict[str, dict[str, str]]:
    """The fingerprint of the code this process plays ``spec``'s entrants with: whist_sim's
    and every entrant's but those in processes of their own (``spec.bots``)."""
    return code_fingerprint(spec.game, spec.strategies,
                            [label for label in spec.strategies if label not in spec.bots])


def _play_items(
    spec: TaskSpec, games: Mapping[int, Any], board: Table, built: Mapping[str, Entrant],
    numbers: Any, recorder: TaskRecorder, errors: dict[str, str], clock: DecisionClock | None,
) -> int:
    """Play the task's items, every seating, and add their rows; the hands played.

    Under a time limit or clocks, every deal shares the task's ``clock`` (its alarm set
    up once); without, the play loop still times each decision (``actions.seconds``)."""
    deals_played = 0
    first_item = spec.task * spec.plan.deals_per_task
    seated_by: dict[tuple[str, ...], list[tuple[int, tuple[str, ...], list[Any]]]] = {}
    for item, (pairing, deal) in enumerate(spec.plan.task_items(spec.task), first_item):
        lineup = arranged(spec.lineups[pairing], deal, spec.seating_orders)  # its order
        game = games[len(lineup)]
        seed = match_seed(spec.root_seed, deal)
        players: Mapping[str, Any] = built
        if spec.benched:
            benched = {label for label, (first, _) in spec.benched.items() if item >= first}
            everyone = benched.issuperset(lineup)  # no one at this table plays
            players = {label: _Benched(label, spec.benched[label][1], everyone)
                       if label in benched else entrant for label, entrant in built.items()}
        seatings_of = seated_by.get(lineup)
        if seatings_of is None:
            seatings_of = seated_by[lineup] = _seatings_of(lineup, game, built)
        for rotation, seated, voices in seatings_of:
            source = board.match(pairing, deal, rotation, None if spec.deal_set is None
                                 else spec.deal_set.source(game, deal, seed), game, seed,
                                 voices)
            try:
                played, match = play_match(
                    game,
                    [players[label] for label in seated],
                    seed,
                    time_limit=spec.time_limit,
                    on_error=spec.on_error,
                    deal_source=source,
                    seat_seeding=spec.seat_seeding,
                    time_control=spec.time_control,
                    timed=True,
                    clock=clock,
                )
            except StrategyFailure as exc:  # on_error = "abort": name the hand, as a row would
                key = DEAL_KEY % (numbers[pairing], deal, rotation, exc.hand)
                raise StrategyFailure(exc.seat, f"deal {key} ({', '.join(seated)}):"
                                                f" {exc.message}") from None
            scripted = board.scripted
            for hand, result in enumerate(played):
                error = result.outcome.error
                recorder.add_hand((numbers[pairing], deal, rotation, hand), seated, result,
                                  error if error is None else _cut_error(error, errors),
                                  [] if scripted[hand] else result.seconds)
            recorder.add_match((numbers[pairing], deal, rotation), seated, len(played), match)
            deals_played += len(played)
    return deals_played


def _seatings_of(lineup: tuple[str, ...], game: Any, built: Mapping[str, Entrant]
                 ) -> list[tuple[int, tuple[str, ...], list[Any]]]:
    """Each seating of ``lineup``: its rotation, the entrants as seated, and their output
    buffers in seat order. A task works them out once a line-up, not once a deal
    (``rotate`` ran three times a hand)."""
    out = []
    for rotation in seatings(lineup, game.duplicate_rotations):
        seated = rotate(lineup, rotation)
        out.append((rotation, seated, [built[label].output for label in seated]))
    return out


@contextlib.contextmanager
def _old_objects_aside() -> Iterator[None]:
    """For the task's length, the cyclic garbage collector leaves the objects that existed
    before the task out of its passes (``gc.freeze``) and makes no full pass; both are
    put back after.

    A task keeps every hand it played until its tables are built, so its heap grows as it
    plays, and growth is what triggers the collector's full passes, each through every
    object the process holds (the modules, Arrow, the strategies' tables): in a task of
    random German Whist they cost a third of the time of play, where the bare play loop,
    whose hands die young, triggers none. The young generations are still collected as
    usual, so a strategy's short-lived cycles are freed as they were; a cycle that lived
    long enough to reach the oldest generation waits for the task's end (a task lasts
    about 2 s: ``runner.TARGET_TASK_SECONDS``). Left as it is if something else in the
    process has frozen objects (their owner unfreezes them)."""
    if gc.get_freeze_count():
        yield
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(thresholds[0], thresholds[1], 1 << 30)  # no full pass
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _cut_error(error: str | None, errors: dict[str, str]) -> str | None:
    """The ``deals.error`` text: whole, or cut with the whole kept once in ``errors``."""
    if error is None or len(error) <= ERROR_TEXT_LIMIT:
        return error
    digest = error_digest(error)
    errors.setdefault(digest, error)
    return (f"{error[:ERROR_TEXT_LIMIT]} [... {len(error) - ERROR_TEXT_LIMIT:,} more"
            f" characters: the whole text is in the run's logs/errors/{digest}.txt]")


OUTSIDE_DECISIONS = "(outside decisions)"
"""The ``TaskResult.output`` key of what strategies printed outside any decision."""


class _Benched:
    """An entrant sitting out: each of its seats forfeits at its first decision; where
    every entrant at the table sits out (``everyone``), every seat forfeits the deal."""

    __slots__ = ("choose", "label")

    def __init__(self, label: str, reason: str, everyone: bool = False) -> None:
        self.label = label
        failure = TableBenched if everyone else SatOut
        said = f"({label}) {reason}" + (f"; {EVERY_SEAT_FORFEITS}" if everyone else "")

        def refuse(view: Any, rng: Any) -> int:
            raise failure(said)

        self.choose = refuse


def node_address() -> str:
    """Where the task ran: the Ray node's address, or "local" outside Ray (never imports Ray)."""
    ray = sys.modules.get("ray")
    return ray.util.get_node_ip_address() if ray is not None and ray.is_initialized() else "local"
