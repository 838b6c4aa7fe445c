"""Run a tournament: plan tasks, play them in process or on Ray, commit results as they arrive.

Where tasks play (``choose_in_process``): ``workers = 0`` plays them in this
process; ``workers`` or ``address`` (or ``RAY_ADDRESS``) use Ray, embedded on
loopback or a cluster; by default a small run of built-in strategies plays in
process, since an embedded Ray takes seconds to start, and everything else goes
to Ray (docs/cluster.md says why plug-ins always do).

Finished tasks come back as units their workers wrote in the run folder (or as
Arrow tables, from a worker that cannot reach it) and are committed atomically by
the driver, several in one snapshot when several arrived, in completion order, or
in plan order for a sequential test (see ``sequential``); compaction, on workers
too, keeps the folder to a handful of files (``unit_writing``, ``compaction``). While the
run plays, the console shows live standings every few seconds. Re-running the
missing tasks of a folder (``resume_tournament``) gives the same rows as an
uninterrupted run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import platform
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from tqdm import tqdm

import whist_sim
from whist_sim.deal_sets import DealSet, file_digest
from whist_sim.play import ON_ERROR, SEAT_SEEDING, StrategyFailure
from whist_sim.rng import derive_seed
from whist_sim.store import RUN_FILE, RunFolder, RunFolderError, SessionClock, now_iso
from whist_sim.store.folder import is_fresh, taken
from whist_sim.store.space import ROOM_ERRORS, RoomEstimate, estimate_room, sample_bytes
from whist_sim.strategy import built_in_spec, is_built_in
from whist_sim.tournament.bench import BOT_BENCH_AFTER, Bench, benched_after
from whist_sim.tournament.bots import BotEntry
from whist_sim.tournament.cluster import check_workers
from whist_sim.tournament.compaction import Compaction
from whist_sim.tournament.config import (
    MAX_DEALS,
    MAX_DEALS_PER_TASK,
    ConfigError,
    TournamentConfig,
    bot_environment,
    load_config,
    validate_config,
)
from whist_sim.tournament.executors import Executor, open_executor, ray_running
from whist_sim.tournament.live import LiveStandings
from whist_sim.tournament.node_code import (
    check_node_code,
    check_parameter_files,
    code_fingerprint,
    parameter_fingerprint,
    with_parameter_files,
)
from whist_sim.tournament.run_logs import RunLogs
from whist_sim.tournament.run_records import (
    DIGESTS,
    check_records_unedited,
    record_digests,
    recorded_scheme,
)
from whist_sim.tournament.same_code import check_same_code
from whist_sim.tournament.sandbox import Supervisor
from whist_sim.tournament.schedule import (
    SEATING_ORDERS,
    Plan,
    SeatedGames,
    TaskQueue,
    arranged,
    arrangement_period,
    rotate,
    seating_scheme,
)
from whist_sim.tournament.sequential import DuelTracker
from whist_sim.tournament.unit_writing import StoredTask, UnitTarget
from whist_sim.tournament.worker import TaskResult, TaskSpec, play_task

TARGET_TASK_SECONDS = 2.0
"""Aim for tasks this long: Ray's few milliseconds per task stay far below 5%."""

MIN_TASKS_PER_SLOT = 4
"""Cut at least this many tasks per worker, so the last tasks do not leave workers idle."""

COMPACT_EVERY = 64
"""Fold task units into a batch after this many commits."""

IN_PROCESS_SECONDS = 10.0
"""A run of built-in strategies whose play is estimated below this many seconds on one core
plays in process by default: an embedded Ray takes about as long to start as it would save."""

SAMPLE_SECONDS = 1.0
"""Stop timing sample items after this long (slow strategies need only one or two)."""

SAMPLE_WALL_SECONDS = 10.0
"""The sample plays no pass that would end past this long on the clock, start-ups
included, however little of it was play: the bots' start-ups are not timed as play, and
each pass that reaches new line-ups starts their processes (checking only the time
already spent, a round robin of six isolated entrants sampled for 13.5 s, its last pass
reaching all 15 line-ups; now 4 s)."""

LIVE_SECONDS = 5.0
"""Print the live standings this often."""


@dataclass
class RunSummary:
    """What a finished (or stopped) run did, for the CLI and notebooks."""

    path: Path
    status: str
    hands: int
    """Hands played in this session (every hand of every match)."""
    tasks_run: int
    wall_seconds: float
    task_seconds: float
    workers: int
    where: str = "ray"
    """"in process" or "ray"."""
    standings: list[str] = field(default_factory=list)
    """The final standings as console lines (the whole run, earlier sessions included)."""
    verdict: Any = None
    """A two-entrant run's verdict (``whist_sim.inference.Verdict``), else None."""
    labels: tuple[str, ...] = ()
    matches: int = 0
    """Matches played in this session: line-ups x deals x seatings, what the progress
    bar counts (a Solo Whist session, a Minnesota or Knock-out game is one match)."""

    @property
    def deals(self) -> int:
        """Old name of ``hands`` (it counted hands, not deals); kept for callers."""
        return self.hands

    @property
    def overhead(self) -> float:
        """Share of worker time not spent playing: Ray scheduling, transfer, idle tails."""
        budget = self.wall_seconds * self.workers
        return max(0.0, 1.0 - self.task_seconds / budget) if budget > 0 else 0.0

    def forfeit_lines(self) -> list[str]:
        """Per entrant that forfeited: how many hands and the first reason in play order (its
        first line), read from the run's results as the report's Forfeits section reads
        them. Empty when no hand was forfeited. The closing standings had only the count,
        so a newcomer whose policy forfeited every hand learned why only from the
        report or the Parquet files (a probe)."""
        from whist_sim.reports.analyses import forfeits
        from whist_sim.reports.forfeits_section import first_line

        try:  # the files as the run just wrote them (the report checks every byte)
            folder = RunFolder.open(self.path, verify=False)
            failed = forfeits(folder.scan("seats"), folder.scan("deals")).filter(
                pl.col("forfeits") > 0).collect()
            benched = folder.meta().get("benched") or {}
        except RunFolderError:  # no results yet
            return []
        return [f"{row['strategy']} forfeited {_forfeit_count(row)}"
                f"{_benched_words(row, benched)};"
                f" first ({row['first_deal_key']}): {first_line(row['first_error'])}"
                for row in failed.iter_rows(named=True)]

    def verdict_text(self) -> str | None:
        """The verdict in plain words, or None for runs of more than two entrants."""
        if self.verdict is None or len(self.labels) != 2:
            return None
        return self.verdict.text(*self.labels)


def _forfeit_count(row: dict[str, Any]) -> str:
    """"44 of 80 hands"; where the strategy held two seats of a hand (Solo Whist's
    A B A B), its hands as well as its seat-hands (``analyses.forfeits``): a strategy that
    raised at every decision read "forfeited 100 of 200 hands", half, where the first of
    its seats to act had forfeited every hand it sat in (a newcomer's probe)."""
    if row["sat_in"] == row["hands"]:
        return f"{row['forfeits']:,} of {row['hands']:,} hands"
    return (f"{row['hands_forfeited']:,} of the {row['sat_in']:,} hands it sat in"
            f" ({row['forfeits']:,} of its {row['hands']:,} seat-hands)")


def _benched_words(row: dict[str, Any], benched: dict[str, Any]) -> str:
    """", 18 of them unplayed: benched after 2 forfeits" for an entrant that sat out: its
    forfeits read as 20 failures, the first error beside them, and nothing on the console
    said that it had been benched (a probe)."""
    if not row.get("benched"):
        return ""
    return (f", {row['benched']:,} of them unplayed: {benched_after(benched.get(row['strategy']))}"
            " (tournament.bench_after)")


def run_tournament(
    config: TournamentConfig | Path | str,
    out: Path | str,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
) -> RunSummary:
    """Start a new run of ``config`` in folder ``out`` and play it to the end.

    ``workers = 0`` plays in this process; a number of workers or an ``address``
    plays on Ray; ``None`` decides by the run's size (see ``choose_in_process``).
    ``config``: a loaded config, or the path of its file (read with ``load_config``).
    """
    _check_session(workers, address, progress)
    if isinstance(config, str | Path):
        config = load_config(config)
    elif not isinstance(config, TournamentConfig):
        raise ConfigError(f"config = {config!r} is not a config; give the path of a config"
                          " file, or what whist_sim.tournament.config.load_config returns")
    game = config.game()
    seats = config.lineups()
    played = config.played_pairings()
    if isinstance(out, str | os.PathLike) and Path(out).exists() and not Path(out).is_dir():
        raise RunFolderError(f"{out} is a file, not a folder; a run is a folder: choose"
                             " another folder for the run (--out; run_tournament's out)")
    if not is_fresh(out):  # a folder with only a lock file in it is fresh
        raise RunFolderError(taken(out))
    per_item: float | None = None
    if workers is None or config.tournament.deals_per_task == "auto":
        per_item = _seconds_per_item(config, seats, played, Path(out))
    estimate = None if per_item is None else per_item * len(played) * config.tournament.deals
    in_process = choose_in_process(config, workers, address, estimate)
    room = _check_room(config, seats, played, out)  # before Ray starts: the warning first
    with open_executor(in_process, address, workers) as executor:
        per_task = config.tournament.deals_per_task
        if per_task == "auto":
            per_task = _auto_task_size(config, len(played), executor.slots, per_item or 0.0)
        if config.sprt is not None:
            per_task = _within_batches(per_task, config.sprt.batch, len(played))
        plan = Plan(len(played), config.tournament.deals, per_task, game.duplicate_rotations)
        with RunFolder.create(Path(out), _run_meta(config, game, seats, played, plan)) as folder:
            return _execute(folder, executor, progress, config, room)


def _check_session(workers: int | None, address: str | None, progress: bool) -> None:
    """Refuse a ``workers`` out of range or a ``progress`` that is not a bool (``"no"`` was
    taken as true); say, as the console does, that ``workers = 0`` leaves an ``address``
    unused (it was dropped without a word)."""
    check_workers(workers)
    if not isinstance(progress, bool):
        raise ConfigError(f"progress = {progress!r} is not allowed; allowed values: True, False")
    if workers == 0 and address:
        print(f"warning: workers = 0 plays in this process, without Ray: address ="
              f" {address!r} is not used", file=sys.stderr)


def choose_in_process(
    config: TournamentConfig, workers: int | None, address: str | None,
    play_seconds: float | None,
) -> bool:
    """Whether the run plays in this process rather than on Ray.

    - ``workers = 0``: in process, always (the caller asked for it).
    - a number of workers, an address, ``RAY_ADDRESS``, or a Ray already running
      in this process (a notebook, a test session): Ray.
    - otherwise in process only if every entrant is a built-in strategy and the
      play (``play_seconds`` on one core) is estimated below ``IN_PROCESS_SECONDS``.
      A plug-in always goes to Ray: in process, a strategy that exits or crashes
      would take the run with it.
    """
    if workers == 0:
        return True
    if workers is not None or address or os.environ.get("RAY_ADDRESS") or ray_running():
        return False
    if not all(is_built_in(entry.use) for entry in config.strategies):
        return False
    return play_seconds is not None and play_seconds <= IN_PROCESS_SECONDS


def _run_meta(
    config: TournamentConfig, game: Any, seats: list[tuple[str, ...]], played: list[int],
    plan: Plan,
) -> dict[str, Any]:
    """run.json: everything needed to understand, reproduce and resume the run, with
    the digests of its records of what the run plays (``run_records``)."""
    meta = {
        "config": config.model_dump(mode="json"),
        "game": game.name,
        "game_version": game.version,
        "variant": game.variant.as_dict(),
        "players": [g.players for g in config.games()],
        "root_seed": config.tournament.seed,
        # a resume reads the config from here: contained bots are kept from these too
        "config_files": list(config.files),
        "seat_seeding": SEAT_SEEDING,
        "seating_orders": seating_scheme(game.partnerships),
        **({"deals_file_sha256": file_digest(config.tournament.deals_file)}
           if config.tournament.deals_file else {}),
        "play_rules": _play_rules(config),
        "lineups": [list(seats[p]) for p in played],
        "pairing_ids": played,
        "plan": {"pairings": plan.pairings, "deals": plan.deals,
                 "deals_per_task": plan.deals_per_task, "tasks": plan.tasks},
        # the entrants in the config's order (A, B of a duel; a gauntlet's candidate
        # first): "strategies" is a table by label, whose order run.json does not keep (its
        # keys are written sorted)
        "entrants": config.duel_order(),
        "strategies": {  # "source": where each was loaded from (strategy.strategy_source)
            e.name: {"use": e.use, "params": e.params, "version": v, "source": source}
            for e, v, source in zip(config.strategies, config.strategy_versions().values(),
                                    config.strategy_sources().values(), strict=True)
        },
        "whist_sim_version": whist_sim.__version__,
        "python": platform.python_version(),
        "ray_version": _ray_version(),
        "started": now_iso(),
        "ended": None,
        "status": "running",
        "schema_version": 1,
    }
    meta[DIGESTS] = record_digests(meta)
    return meta


ANSI_ESCAPES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
"""Terminal colour codes, which Ray writes into a task's error (``\x1b[36mray::...``)."""


def plain_text(text: str) -> str:
    """``text`` without terminal colour codes: run.json's ``error`` is read in files and
    reports, where they show as ``\x1b[36m`` (a probe found them in a failed run's)."""
    return ANSI_ESCAPES.sub("", text)


def _ray_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("ray")
    except Exception:
        return None


def resume_tournament(
    run: Path | str,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
    on_error: str | None = None,
) -> RunSummary:
    """Play the tasks a stopped run is missing; the result equals an uninterrupted run.

    Where it plays follows ``run_tournament``'s rule, the missing tasks' estimate
    taken from the time the run's tasks took so far. ``on_error``: what a failing
    strategy does from this session on (run.json's config records it). A run aborted
    by a failing strategy fails on the same hand again when resumed as it was (its
    seeds are fixed); resumed with ``"forfeit"`` it records that hand as the seat's
    forfeit, and its rows are then those of a run started with ``"forfeit"`` (a task
    is committed under ``"abort"`` only if no strategy failed in it).
    """
    _check_session(workers, address, progress)
    if on_error is not None and on_error not in ON_ERROR:
        raise ConfigError(f"on_error = {on_error!r} is not allowed; allowed values:"
                          f" {', '.join(map(repr, ON_ERROR))}")
    with RunFolder.open(run, repair=True) as folder:  # one writer: refused while another runs
        for note in folder.repairs:  # units found missing are played again: say so
            print(f"note: {note}", file=sys.stderr)
        config, plan, seats, played = load_plan(folder)  # a corrupt run.json: before Ray
        done = len(folder.completed_tasks())
        if on_error is not None:
            if done < plan.tasks:
                _change_on_error(folder, on_error)
            elif on_error != config.tournament.on_error:  # every row was played as it was:
                # a record of another on_error would misstate them all (a probe)
                print(f"note: on_error = {on_error!r} not recorded: the run is complete,"
                      f" every hand played under {config.tournament.on_error!r}",
                      file=sys.stderr)
        totals = folder.meta().get("totals")
        estimate = None
        if totals and done:
            estimate = totals.get("task_seconds", 0.0) / done * (plan.tasks - done)
        in_process = choose_in_process(config, workers, address, estimate)
        room = _check_resumed_room(folder, config, plan, seats, played)  # before Ray starts
        with open_executor(in_process, address, workers) as executor:
            return _execute(folder, executor, progress, room=room)


class RunAborted(StrategyFailure):
    """A strategy failed under ``on_error = "abort"``: the run stopped, its committed tasks
    kept; the message says which seat of which deal, and how to go on (a
    ``StrategyFailure``, whose ``seat`` it keeps)."""


def aborted_message(path: Path, failure: str, kept: int, tasks: int) -> str:
    """What a run stopped by ``on_error = "abort"`` says: the failure, what is kept, and
    that a resume as it was meets the same failure again (a probe resumed one to find
    the same hand fail, with no word of how to finish the run)."""
    return (
        f"{failure}\n{path}: the run stopped there (on_error = \"abort\"), {kept:,} of"
        f" {tasks:,} tasks kept. Resumed as it is, it plays the same hand with the same"
        " seeds and stops again: fix the strategy and start a new run, or finish this one"
        " with the failing hands recorded as their seat's forfeits:"
        f" whist-sim run --resume {path} --on-error forfeit")


def _change_on_error(folder: RunFolder, on_error: str) -> None:
    """Record ``on_error`` in run.json's config for this session on, saying so if it
    changes."""
    meta = folder.meta()
    config = meta.get("config")
    if not isinstance(config, dict) or not isinstance(config.get("tournament"), dict):
        return  # a corrupt run.json: load_plan names it
    before = config["tournament"].get("on_error", "forfeit")
    if before == on_error:
        return
    config["tournament"]["on_error"] = on_error
    folder.update_meta(config=config)
    print(f"note: on_error = {on_error!r} from this session on (it was {before!r})",
          file=sys.stderr)


def load_plan(
    folder: RunFolder, config: TournamentConfig | None = None,
) -> tuple[TournamentConfig, Plan, list[tuple[str, ...]], list[int]]:
    """The config, plan, played line-ups and their pairing numbers recorded in run.json.
    ``config``: the config the run was just started from, validated already (validating
    it again started every bot a second time, a bot that ignores its hello costing the
    handshake's timeout twice); None, as on resuming: run.json's, validated here."""
    meta = folder.meta()
    resuming = config is None
    if resuming:  # an edited record first: the comparisons below read the records
        check_records_unedited(folder.path / "run.json", meta)
    _check_deal_set_unchanged(folder, meta)
    try:
        if config is None:
            recorded = meta["config"]
            if not isinstance(recorded, dict):  # named, not read as a config's top level
                raise RunFolderError(
                    f"{folder.path}/run.json: corrupt (config = {json.dumps(recorded)}: not"
                    " the table of the config the run was started with); restore run.json"
                    " from a backup, or start a new run")
            config = validate_config(recorded, str(folder.path / "run.json"))
        rotations = config.game().duplicate_rotations
        plan = Plan(
            meta["plan"]["pairings"], meta["plan"]["deals"], meta["plan"]["deals_per_task"],
            rotations,
        )
        seats = [tuple(lineup) for lineup in meta["lineups"]]
        played = list(meta.get("pairing_ids") or range(len(seats)))
        _check_config_matches_record(folder, meta, config, seats, played)
        if resuming:  # the entrants must be the code the run started with (after the
            # config's own check: an edited game changes every entrant's class)
            check_same_code(folder.path / "run.json", meta.get("strategies") or {},
                            config.strategy_versions(), config.strategy_sources())
    except (KeyError, TypeError) as exc:
        raise RunFolderError(f"{folder.path}/run.json: corrupt (missing {exc})") from None
    sizes = (plan.pairings, plan.deals, plan.deals_per_task)
    if not all(isinstance(n, int) and n >= 1 for n in sizes) or not (
        plan.pairings == len(seats) == len(played) and plan.deals <= MAX_DEALS
    ):  # a plan that does not fit its line-ups would divide by zero or play other deals
        raise RunFolderError(
            f"{folder.path}/run.json: corrupt (plan {meta['plan']!r} does not fit its"
            f" {len(seats)} line-ups)"
        )
    return config, plan, seats, played


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold a Ctrl-C or SIGTERM that comes while a commit names its tasks and counts them
    until both are done, then stop as it asked: one that landed between them left the
    session's totals a task short of what the folder holds (an interrupted run said 420
    matches where 440 were committed, and its resume played the rest)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {number: signal.signal(number, lambda signum, frame: held.append(signum))
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():  # None: set outside Python
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
    if held:
        raise KeyboardInterrupt


def _play_rules(config: TournamentConfig) -> dict[str, Any]:
    """The config's keys besides seed, deals, game, variant and entrants that decide how a
    deal is played or scored, as run.json keeps them (a second record, beside ``config``,
    for a resume to compare: an edited clock or time limit resumed "complete", its later
    tasks forfeiting on time under rules the earlier ones never had, and a deal set taken
    out of the config dealt the rest from the seed; a probe's findings)."""
    tournament = config.tournament
    return json.loads(json.dumps({
        "tournament.time_limit": tournament.time_limit,
        "tournament.clock": tournament.model_dump(mode="json")["clock"],
        "tournament.bench_after": tournament.bench_after,
        # whether, not where: a moved set may be named again, its SHA-256 checks the cards
        "tournament.deals_file": "a deal set" if tournament.deals_file else "none",
    }))


def _check_config_matches_record(folder: RunFolder, meta: dict[str, Any],
                                 config: TournamentConfig, seats: list[tuple[str, ...]],
                                 played: list[int]) -> None:
    """Refuse to resume on a config that disagrees with what run.json recorded of the run
    when it started: an edited seed resumed "complete", its later tasks dealt from the new
    seed beside the earlier ones (an operator probe), and an edited deal count was
    silently overruled by the plan."""
    # per key: where run.json keeps its record, and the record. Both sides are in
    # run.json, so either may be the edited one: an edited root_seed had been reported as
    # "the run was started with 7" (a probe), sending the reader to change a right config
    recorded = {
        "tournament.seed": ("root_seed", meta["root_seed"]),
        "tournament.deals": ("plan.deals", meta["plan"]["deals"]),
        "tournament.game": ("game", meta["game"]),
        "variant": ("variant", meta["variant"]),
        "line-ups": ("lineups", [list(lineup) for lineup in seats]),
        # an edited use or params resumed "complete", two players' rows under one label
        "strategies (use and params)": ("strategies", {
            label: {"use": entry.get("use"), "params": entry.get("params")}
            for label, entry in (meta.get("strategies") or {}).items()}),
    }
    current = {
        "tournament.seed": config.tournament.seed,
        "tournament.deals": config.tournament.deals,
        "tournament.game": config.game().name,
        "variant": config.game().variant.as_dict(),
        "line-ups": [list(config.lineups()[p]) for p in played]
        if max(played, default=-1) < len(config.lineups()) else None,
        "strategies (use and params)": {
            e.name: {"use": e.use, "params": e.params} for e in config.strategies},
    }
    if isinstance(meta.get("play_rules"), dict):  # runs started before it was kept: none
        recorded.update({key: (f"play_rules[{key!r}]", value)
                         for key, value in meta["play_rules"].items()})
        current.update({key: value for key, value in _play_rules(config).items()
                        if key in meta["play_rules"]})
    per_task = config.tournament.deals_per_task
    if isinstance(per_task, int):  # an edited plan size had made a run "complete" at 440
        # of its 1,800 hands: its task numbers already committed looked like the new ones
        if config.sprt is not None:  # as a new run sizes it (run_tournament)
            per_task = _within_batches(per_task, config.sprt.batch, len(played))
        recorded["tournament.deals_per_task"] = ("plan.deals_per_task",
                                                 meta["plan"]["deals_per_task"])
        current["tournament.deals_per_task"] = per_task
    for key, (where, value) in recorded.items():
        now = json.loads(json.dumps(current[key]))  # as run.json holds it
        if now != value:
            raise RunFolderError(
                f"{folder.path}/run.json: its config's {_difference(key, now, value, where)}"
                " (run.json was edited: the config or that record, written equal when the"
                " run started): a resumed run must play what it started; restore the"
                " edited value, or start a new run with the new config"
            )


def _difference(key: str, now: Any, then: Any, where: str) -> str:
    """What changed under ``key``: for a table (the strategies, the variant), only the
    entries that differ, where both whole tables, in different orders, had been printed
    and left the reader to find the edited one (a probe). The recorded side is named by
    ``where`` run.json keeps it, since that record may be the edited one."""
    record = f"according to its record {where}"
    if isinstance(now, dict) and isinstance(then, dict):
        changed = [name for name in sorted(set(now) | set(then), key=str)
                   if now.get(name, _ABSENT) != then.get(name, _ABSENT)]
        return "; ".join(
            f"{key} {name!r} is {_shown(now.get(name, _ABSENT))}, but the run was started"
            f" with {_shown(then.get(name, _ABSENT))} {record}" for name in changed)
    return f"{key} is {now!r}, but the run was started with {then!r} {record}"


_ABSENT = object()


def _shown(value: Any) -> str:
    return "absent" if value is _ABSENT else repr(value)


def _check_deal_set_unchanged(folder: RunFolder, meta: dict[str, Any]) -> None:
    """A run played from a deal set resumes only on the very same file."""
    recorded = meta.get("deals_file_sha256")
    tournament = (meta.get("config") or {}).get("tournament") or {}
    deals_file = tournament.get("deals_file") if isinstance(tournament, dict) else None
    if not recorded or not deals_file:
        return
    try:
        same = file_digest(deals_file) == recorded
    except OSError as exc:
        raise RunFolderError(f"{deals_file}: the run's deal set cannot be read ({exc})") from None
    if not same:
        raise RunFolderError(
            f"{deals_file}: the deal set changed since the run started (its SHA-256 no longer"
            f" matches run.json); restore the file to continue {folder.path}"
        )


class _Console:
    """The progress bar and, every ``LIVE_SECONDS``, the live standings (stderr).

    On a terminal the bar redraws itself in place. When stderr is a file or a pipe (a
    log, ``nohup``, a batch job), redrawing in place writes carriage returns that a log
    keeps, and the standings began on the bar's last line: there each update is a plain
    line of its own instead, every ``LIVE_SECONDS``, with the standings under it.
    """

    def __init__(self, folder: RunFolder, total: int, done: int, enabled: bool,
                 terminal: bool | None = None) -> None:
        self.enabled = enabled
        self.terminal = _is_terminal(sys.stderr) if terminal is None else terminal
        # counts matches, as the closing line does ("complete: 2,400 matches (48,000 hands)")
        self.bar = tqdm(total=total, initial=done, unit=" matches", desc=folder.path.name,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}"
                                   " matches [{elapsed}<{remaining}, {rate_fmt}]",
                        disable=not (enabled and self.terminal), smoothing=0.1,
                        file=sys.stderr)
        self.name, self.total, self.done, self.start_done = folder.path.name, total, done, done
        self._started = self._shown = time.perf_counter()
        self._first: tuple[float, int] | None = None
        """When the session's first results came in, and the matches done then: the
        rate is measured from there, not from the start (Ray's and the workers' start
        read as slow play: "about 5 min 55 s left" on a resume that took 11 s)."""

    def update(self, matches: int, standings: LiveStandings,
               tracker: DuelTracker | None) -> None:
        self.bar.update(matches)
        self.done += matches
        now = time.perf_counter()
        if self._first is None:
            self._first = (now, self.done)
        if not self.enabled or now - self._shown < LIVE_SECONDS:
            return
        self._shown = now
        lines = standings.lines()
        if tracker is not None and tracker.progress_line():
            lines.append(tracker.progress_line())
        if self.terminal:
            self.bar.write("\n".join(lines), file=sys.stderr)
        else:
            print("\n".join([self.progress_line(now), *lines]), file=sys.stderr, flush=True)

    def progress_line(self, now: float) -> str:
        """Where the run stands, as one line of a log: matches done of the total, time
        spent in this session, and the time left at this session's rate."""
        elapsed = now - self._started
        share = self.done / self.total if self.total else 1.0
        line = (f"{self.name}: {self.done:,}/{self.total:,} matches ({share:.0%})"
                f" after {_duration(elapsed)}")
        since, done_then = self._first if self._first is not None else (now, self.done)
        played, playing = self.done - done_then, now - since
        if played > 0 and playing > 0:  # the rate since the first results
            left = (self.total - self.done) * playing / played
            line += f", {played / playing:,.0f} matches/s"
            if self.done < self.total:
                line += f", about {_duration(left)} left"
        return line

    def note(self, text: str | None) -> None:
        """A line the run's operator should read now (printed whether or not the progress
        is shown, above the bar on a terminal)."""
        if text is None:
            return
        if self.enabled and self.terminal:
            self.bar.write(f"note: {text}", file=sys.stderr)
        else:
            print(f"note: {text}", file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 5 s``, ``2 h 10 min``: a log line's times."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def _execute(folder: RunFolder, executor: Executor, progress: bool,
             config: TournamentConfig | None = None,
             room: RoomEstimate | None = None) -> RunSummary:
    """Play the tasks ``folder`` is missing and commit them; ``room``: the disk room the
    session was estimated to need, repeated in the error of a disk that fills."""
    config, plan, seats, played = load_plan(folder, config)
    done = folder.completed_tasks()
    labels = tuple(config.duel_order())  # A, B of a two-entrant verdict
    standings, tracker = _trackers(folder, config, plan, done)
    # lazily, from the plan's numbers: no list or table over every task (10**8 of them
    # for 10**9 deals), so the driver's memory does not grow with the plan
    queue = TaskQueue(0 if tracker and tracker.finished else plan.tasks, done)
    matches_of = SeatedGames(plan, seats)  # a seated game is one match (docs/glossary.md)
    console = _Console(folder, matches_of.total(), matches_of.of_tasks(done), progress)
    task_seconds = 0.0
    hands = 0
    matches = 0
    committed = 0
    bench = _bench(folder, config, plan, played, done)
    earlier = folder.meta()  # read once: run.json as the session found it
    # runs started before a scheme was recorded play its 1
    seeding = recorded_scheme(earlier, "seat_seeding", folder.path / RUN_FILE)
    orders = recorded_scheme(earlier, "seating_orders", folder.path / RUN_FILE)
    hidden = [folder.path, *_started_from(earlier)]  # what contained bots must not read
    # a sequential test, and benching, read the rows in plan order: commit them so
    in_order = config.sprt is not None or bool(bench.after)
    waiting: dict[int, TaskResult] = {}  # finished, not yet committed (plan order)
    nodes: set[str] = set(earlier.get("nodes", []))
    # when a complete run ended, kept for a resume that plays nothing (its "ended" had
    # moved to the resume's time, a data analyst's probe)
    ended_before = earlier.get("ended") if earlier.get("status") == "complete" else None
    folder.update_meta(status="running", ended=None)
    # the nodes go with the totals: a driver killed on a cluster, resumed embedded,
    # recorded only the embedded node (run.json had them only at a session's end)
    clock = SessionClock(folder, also=lambda: {"decisions": standings.decision_totals(),
                                               "nodes": sorted(nodes)})
    started = time.perf_counter()  # after the clock's start: this session's wall fits its totals
    status = "complete"

    logs = RunLogs(folder.path, config.tournament.output_limit_bytes)

    target = UnitTarget.of(folder)
    executor.store_to(target)
    compaction = Compaction(folder, executor, target, COMPACT_EVERY)

    code: dict[str, dict[str, str]] = {}
    """The driver's fingerprint, made when the first task of a Ray node comes in: hashing
    the entrants' code took 0.4 s, which a run in this process, never compared, would pay
    at its start."""
    files = parameter_fingerprint({e.name: (e.use, dict(e.params)) for e in config.strategies})
    """The files the entrants' parameters name, as the session starts (and as run.json
    records them): every task, wherever it plays, must have read the same."""

    def commit(finished: list[TaskResult | StoredTask]) -> None:
        """Name the units workers wrote in one snapshot, write the others, then count; no
        task played with other code than the driver's (``node_code``)."""
        for item in finished:
            result = item.result if isinstance(item, StoredTask) else item
            # a file changed under the run first: it would read as another node's code
            check_parameter_files(files, result.code, result.task, folder.path)
            if result.node != "local":
                if not code:  # the parameter files as the session started, not as now
                    code.update(with_parameter_files(_driver_code(config), files))
                check_node_code(code, result.code, result.node, result.task, folder.path)
        stored = [item for item in finished if isinstance(item, StoredTask)]
        for item in stored:
            item.check(folder.tables())
        with _interrupts_held():
            count(finished, stored)
        compaction.after_commit()

    def count(finished: list[TaskResult | StoredTask], stored: list[StoredTask]) -> None:
        """Commit ``finished`` and count it in the session's totals and standings."""
        nonlocal committed, task_seconds, hands, matches
        folder.name_units({item.unit: item.record for item in stored})
        for item in finished:
            if isinstance(item, StoredTask):
                result = item.result
            else:
                result = item
                folder.commit_task(result.task, result.tables)
            committed += 1
            task_seconds += result.seconds
            hands += result.deals  # TaskResult.deals counts hands
            matches += matches_of[result.task]
            nodes.add(result.node)
            standings.add_rows(result.tables["seats"])
            standings.add_decisions(result.decisions)
            clock.add_task(result.seconds)  # totals on disk as the session goes: a kill keeps them
            logs.add_output(result.output)
            logs.add_errors(result.errors)
            if config.sprt is not None:  # whole deals, in plan order (_within_batches)
                tracker.add_rows(_lazy(result.tables["seats"]), _lazy(result.tables["matches"]))

    next_in_order = queue.first() if queue else plan.tasks
    submitted = 0
    try:
        while queue or submitted:
            while queue and submitted < 2 * executor.slots:
                executor.submit(_spec(config, plan, seats, played, queue.take(),
                                      bench.for_tasks(), seeding, orders, hidden))
                submitted += 1
            finished = compaction.tasks_of([executor.next_result()])
            if not finished:
                continue  # a merge
            submitted -= 1
            if not in_order:  # with whatever else has finished: one snapshot names them all
                finished += compaction.tasks_of(executor.ready_results())
                submitted -= len(finished) - 1
                commit(finished)
                console.update(sum(matches_of[_task(item)] for item in finished), standings,
                               tracker)
                continue
            [result] = finished
            waiting[_task(result)] = result
            while next_in_order in waiting:
                ready = waiting.pop(next_in_order)
                task = _task(ready)
                last_item = min(plan.items, (task + 1) * plan.deals_per_task) - 1
                found = bench.scan(_tables(ready)["seats"], last_item)
                if found:  # play again, benched, every task from the first point on
                    replay = min(found.values()) // plan.deals_per_task
                    if replay > task:
                        commit([ready])
                    executor.cancel()
                    waiting.clear()  # their units, never named, go when the folder closes
                    submitted = 0
                    next_in_order = replay
                    queue = TaskQueue(plan.tasks, start=replay)
                    break
                commit([ready])
                next_in_order += 1
                if tracker is not None and config.sprt is not None:
                    complete_deals = min(plan.deals, next_in_order * plan.deals_per_task
                                         // plan.pairings)
                    decided = tracker.look(complete_deals)
                    console.note(tracker.take_note())
                    if decided:
                        break
                console.update(matches_of[task], standings, tracker)
            if tracker is not None and tracker.decided:
                executor.cancel()  # the test has decided: the rest of the plan is not needed
                queue.clear()
                waiting.clear()
                submitted = 0
        compaction.start(min_units=2)  # the run is complete: the last task units too
        compaction.finish()
    except KeyboardInterrupt:
        status = "interrupted"
    except StrategyFailure as exc:
        folder.update_meta(status="aborted", ended=now_iso(), error=str(exc))
        console.close()
        raise RunAborted(exc.seat, aborted_message(
            folder.path, str(exc), len(folder.completed_tasks()), plan.tasks)) from None
    except Exception as exc:  # a worker or node lost: finished tasks stay committed
        if not _a_ctrl_c(exc):
            _record_failure(folder, exc, room)
            console.close()
            raise
        status = "interrupted"

    def close_session() -> RunSummary:
        """Record how the session ended in run.json and sum it up."""
        wall = time.perf_counter() - started
        if status == "complete" and tracker is not None and not tracker.finished:
            # a fixed-sample verdict: every row
            tracker.add_rows(folder.scan("seats"), folder.scan("matches"))
            tracker.look(_complete_deals(folder, plan))
        elif status == "interrupted" and tracker is not None and tracker.sequential:
            # a Ctrl-C between a task's commit and the look at it: the recorded verdict had
            # read a batch less than was committed (an operator's probe: 580 pairs read
            # of 590). The tracker holds every committed task's rows (added in the commit)
            tracker.look(_complete_deals(folder, plan))
        console.close()  # the caller prints the final standings (summary.standings)
        totals = clock.totals()  # earlier sessions', killed ones included, plus this one
        extra: dict[str, Any] = {}
        if tracker is not None and tracker.verdict is not None:
            extra["verdict"] = tracker.record()
        if bench.benched:
            extra["benched"] = bench.record()
        unchanged = status == "complete" and committed == 0 and ended_before
        ended = ended_before if unchanged else now_iso() if status == "complete" else None
        folder.update_meta(
            status=status, ended=ended, totals=totals,
            error=None,  # an earlier session's abort or failure is not this session's end
            workers=executor.slots, where=executor.where, nodes=sorted(nodes),
            decisions=standings.decision_totals(),  # earlier sessions' included (_trackers)
            **extra,
        )
        return RunSummary(
            folder.path, status, hands, committed, wall, task_seconds, executor.slots,
            executor.where, standings.lines(), tracker.verdict if tracker else None, labels,
            matches,
        )

    try:
        return close_session()
    except KeyboardInterrupt:
        if status != "interrupted":
            raise
        # On Ray one Ctrl-C can reach the driver twice: Ray's wait raises a
        # KeyboardInterrupt, and the signal's own handler another a moment later (two
        # stops in five, in a loop of them). The stop's record is made once more, so
        # run.json says "interrupted"; a Ctrl-C after that one stops the process as usual.
        return close_session()


def _record_failure(folder: RunFolder, exc: Exception, room: RoomEstimate | None) -> None:
    """Record in run.json that the session failed with ``exc``, first removing what it had
    half written (``RunFolder.drop_unfinished``: never a committed unit) and giving back
    the room the writer kept for this record (``kept_room``): a full disk stopped a run
    with a half-written unit filling it, or with no room at all, so the record failed too
    and run.json still said "running". A full disk's error gets the room the session was
    estimated to need (``room``) as a note, which the command's line repeats."""
    with contextlib.suppress(OSError, RunFolderError):  # never in place of the error itself
        folder.drop_unfinished()
    # the disk may have filled as a file began, so that dropping it gave nothing back:
    # the record goes into the room the writer kept for it
    with contextlib.suppress(OSError):
        folder.give_back_room()
    # recording can still fail (a writer killed before it kept room, another program
    # taking the room first), and must not replace the error that says where the room ran
    # out (run.json then says running, which a resume reads as a run that was stopped)
    with contextlib.suppress(OSError):
        folder.update_meta(status="failed", ended=now_iso(),
                           error=plain_text(f"{type(exc).__name__}: {exc}"))
    if room is not None and isinstance(exc, OSError) and exc.errno in ROOM_ERRORS:
        exc.add_note(room.reminder())


def _a_ctrl_c(exc: BaseException) -> bool:
    """A Ctrl-C that compiled code wrapped: numba raises ``SystemError(... returned a result
    with an exception set)`` when the KeyboardInterrupt lands inside one of its calls (1 in
    22 Ctrl-Cs of a probe), which was recorded as a failed run, with a traceback."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _task(item: TaskResult | StoredTask) -> int:
    return item.result.task if isinstance(item, StoredTask) else item.task


def _tables(item: TaskResult | StoredTask) -> dict[str, Any]:
    return item.result.tables if isinstance(item, StoredTask) else item.tables


def _lazy(table: Any) -> Any:
    """An Arrow table as a Polars LazyFrame (no copy)."""
    import polars as pl

    return pl.from_arrow(table).lazy()


"""Forfeits that bench an isolated entrant (a bot) when tournament.bench_after is not set:
a bot that cannot start, or keeps crashing, stops costing a process start per deal."""


def bench_thresholds(config: TournamentConfig) -> dict[str, int]:
    """Per entrant, the forfeits that bench it: ``tournament.bench_after`` for all, or else
    BOT_BENCH_AFTER for isolated entrants only."""
    after = config.tournament.bench_after
    return {e.name: after if after is not None else BOT_BENCH_AFTER
            for e in config.strategies if after is not None or e.isolated}


def _bench(
    folder: RunFolder, config: TournamentConfig, plan: Plan, played: list[int], done: set[int]
) -> Bench:
    """The benching of a run, its counts replayed from the rows a resumed run holds (in
    plan order, the committed tasks being a prefix of the plan)."""
    bench = Bench(bench_thresholds(config), list(played))
    if bench.after and done:
        prefix = 0
        while prefix in done:
            prefix += 1
        bench.scan(folder.scan("seats"), prefix * plan.deals_per_task - 1)
    return bench


def _trackers(
    folder: RunFolder, config: TournamentConfig, plan: Plan, done: set[int]
) -> tuple[LiveStandings, DuelTracker | None]:
    """Live standings and, for two entrants, the verdict's tracker (at several Knock-out
    table sizes, one test over every size's games of a deal index: ``duel_model``), both
    started from the rows a resumed run already holds."""
    game = config.game()
    sizes = config.table_sizes()
    fair = 1.0 / game.players if game.name == "knockout_whist" and len(sizes) == 1 else None
    # The widest table decides: players = [2, 3, 5] printed "hands" and "duplicate pairs"
    # (the first size's words) where the report said seat-hands and sets.
    widest = max(each.players for each in config.games())
    standings = LiveStandings(config.labels(), hands_word="hands" if widest == 2
                              else "seat-hands", fair_share=fair,
                              lineups=len(config.played_pairings()))
    tracker = (DuelTracker(config) if len(config.strategies) == 2 and config.a_against_b()
               else None)
    if done:
        standings.add_rows(folder.scan("seats"))
        standings.add_decisions(_earlier_decisions(folder, config))
        if tracker is not None:
            tracker.add_rows(folder.scan("seats"), folder.scan("matches"))
            tracker.look(_complete_deals(folder, plan, done))
    return standings, tracker


def _earlier_decisions(folder: RunFolder, config: TournamentConfig
                       ) -> dict[str, tuple[int, float]]:
    """Per entrant, the decisions the committed tasks hold and their seconds: run.json's
    counts when they cover every committed decision (they then include the time of a
    forfeited decision, which no row holds), else counted again from the committed
    ``actions`` rows. run.json is written at most once a second, so a killed driver left
    the last second's tasks out of it, and the resumed run's totals short (an operator
    counted 195,000 decisions where the rows held 208,000)."""
    recorded = {label: (int(n), float(t))
                for label, (n, t) in (folder.meta().get("decisions") or {}).items()}
    counted = _committed_decisions(folder, config)
    if all(recorded.get(label, (0, 0.0))[0] == n for label, (n, _) in counted.items()):
        return recorded
    return counted


def _committed_decisions(folder: RunFolder, config: TournamentConfig
                         ) -> dict[str, tuple[int, float]]:
    """Per entrant, the chosen actions of the committed rows that were timed and their
    seconds (``TaskRecorder.decision_totals``), read by line-up, seating order, seating and
    seat (four small columns; no join with the seats table)."""
    import polars as pl

    lineups = config.lineups()
    scheme = recorded_scheme(folder.meta(), "seating_orders", folder.path / RUN_FILE)
    period = arrangement_period(lineups)  # the deal's circular order: its index modulo this
    per_seat = (folder.scan("actions")
                .filter(pl.col("chosen") & pl.col("seconds").is_not_null()
                        & pl.col("seconds").is_not_nan())
                .group_by("pairing", (pl.col("deal") % period).alias("order"), "rotation",
                          "seat")
                .agg(pl.len().alias("n"), pl.col("seconds").fill_nan(0.0).sum().alias("s"))
                .collect())
    found: dict[str, tuple[int, float]] = {label: (0, 0.0) for label in config.labels()}
    for pairing, order, rotation, seat, n, spent in per_seat.iter_rows():
        label = rotate(arranged(lineups[pairing], order, scheme), rotation)[seat]
        count, seconds = found.get(label, (0, 0.0))
        found[label] = (count + int(n), seconds + float(spent or 0.0))
    return found


def _complete_deals(folder: RunFolder, plan: Plan, done: set[int] | None = None) -> int:
    """Deal indices whose every task is committed, counted from deal 0."""
    done = folder.completed_tasks() if done is None else done
    prefix = 0
    while prefix in done:
        prefix += 1
    return min(plan.deals, prefix * plan.deals_per_task // plan.pairings)


def _driver_code(config: TournamentConfig) -> dict[str, dict[str, str]]:
    """The fingerprint of the code the driver has, as a worker's task reports its own
    (``worker.task_code``: every entrant but those in processes of their own)."""
    return code_fingerprint(config.tournament.game,
                            {e.name: (e.use, dict(e.params)) for e in config.strategies},
                            [e.name for e in config.strategies if not e.isolated],
                            cached=False)


def _started_from(meta: dict[str, Any]) -> list[Path]:
    """The config files run.json says the run was started from (``config_files``): a
    resumed run's config is read from run.json, and its bots must not read the file it
    came from either. Runs started before the key have none to give."""
    files = meta.get("config_files")
    return [Path(file) for file in files if isinstance(file, str) and Path(file).is_absolute()
            ] if isinstance(files, list) else []


def _spec(
    config: TournamentConfig, plan: Plan, seats: list[tuple[str, ...]], played: list[int],
    task: int, benched: dict[str, tuple[int, str]] | None = None,
    seat_seeding: int = SEAT_SEEDING, seating_orders: int = SEATING_ORDERS,
    hidden: Sequence[Path] = (),
) -> TaskSpec:
    """Task ``task``'s spec; ``hidden``: what contained bots must not read beyond the
    config's files (the run folder)."""
    return TaskSpec(
        task=task,
        game=config.tournament.game,
        variant=dict(config.variant),
        players=config.tournament.players,
        root_seed=config.tournament.seed,
        plan=plan,
        lineups=seats,
        strategies={e.name: (e.use, dict(e.params)) for e in config.strategies},
        time_limit=config.tournament.time_limit,
        time_control=None if config.tournament.clock is None else config.tournament.clock.control(),
        on_error=config.tournament.on_error,
        deal_set=_task_deals(config, plan, task),
        pairing_ids=tuple(played),
        memory_limit=config.tournament.memory_limit_bytes,
        benched=benched or {},
        seat_seeding=seat_seeding,
        seating_orders=seating_orders,
        bots={e.name: BotEntry(tuple(e.bot_command()), e.cwd, bot_environment(e), dict(e.params),
                               config.hidden_from_bots(*hidden), config.tournament.pause_bots)
              for e in config.strategies if e.isolated},
    )


def _task_deals(config: TournamentConfig, plan: Plan, task: int) -> DealSet | None:
    """The deal set's rows for the deals of ``task`` only: all a worker needs of it."""
    deal_set = config.deal_set()
    if deal_set is None:
        return None
    return deal_set.only({deal for _, deal in plan.task_items(task)})


def _seconds_per_item(
    config: TournamentConfig, seats: list[tuple[str, ...]], played: list[int],
    out: Path | None = None,
) -> float:
    """Seconds one (line-up, deal) item takes to play, all its seatings, on one core
    (contained bots kept from ``out``, as in the run: the same processes then play it).

    Plays the first items of the plan's shape, on deals of a seed of its own (so no
    entrant sees a scored deal before it is scored), in this process (deterministic, then
    discarded): one item alone, to learn the order of magnitude, then, if that was
    quick, tasks of more and more items (deal 0 of every line-up first; at most four
    times as many each time) until one takes half of SAMPLE_SECONDS: a line-up slower
    than the first adds its items a few at a time. A task's fixed costs (building the
    game and strategies, making the Arrow tables) are then shared as in a real task,
    not counted once per item; timing single items overstated a fast run's play
    threefold. A first item that took a quarter of SAMPLE_SECONDS or more is timed
    again: the first also paid the process's one-time costs (numba loading the
    heuristics' compiled code took a second, which made the quickstart's 3,000 items
    look like 50 minutes and sent it to Ray in tasks of two items). The time the bots'
    processes took to start is taken off each pass, as a worker starts them once, not
    once an item; and no pass is played that would end past ``SAMPLE_WALL_SECONDS``.
    """
    lineups = [seats[p] for p in played]
    items = len(played) * config.tournament.deals
    # a plug-in may crash its process: sample it under a supervisor, as a Ray worker would
    trusted = all(is_built_in(entry.use) for entry in config.strategies)
    supervisor = None if trusted else Supervisor()
    play = play_task if supervisor is None else supervisor.play

    seeds = itertools.count()
    passes: list[tuple[int, float, float]] = []  # items, seconds of play, of bots starting

    def timed(size: int) -> float:
        plan = Plan(len(played), config.tournament.deals, size)
        # deals of a seed of their own, not the plan's: a bot must not meet a scored deal
        # before it is scored (two processes of one entrant could pass each other its
        # cards); and a seed a pass, as a bot process is never dealt a hand twice: passes
        # that replayed the same deals started every bot's processes afresh each time
        sample_seed = derive_seed(config.tournament.seed, "timing sample", next(seeds))
        # forfeit: a strategy failing on a sample deal, which the run never plays, must
        # not stop the run under on_error = "abort" before it has a folder (it did)
        spec = dataclasses.replace(_spec(config, plan, lineups, played, 0,
                                         hidden=[] if out is None else [out]),
                                   root_seed=sample_seed, deal_set=None, on_error="forfeit")
        started = time.perf_counter()
        result = play(spec)
        # a bot's processes start once a worker, not once an item: timed as play, the
        # start-ups of three isolated entrants (5.3 s) cut a run into tasks of one item
        seconds = time.perf_counter() - started - result.bot_start_seconds
        passes.append((size, seconds, result.bot_start_seconds))
        return seconds

    def too_long(grown: int) -> bool:
        """Whether a pass of ``grown`` items would end past ``SAMPLE_WALL_SECONDS``, judged
        from the last pass's time on the clock an item, the bots' start-ups included: a
        pass that reaches new line-ups starts their bots, and a bot that fails to start
        is started again at each deal (one that never greets took 17 s of sampling)."""
        size, play_seconds, start_ups = passes[-1]
        coming = (play_seconds + start_ups) * grown / size
        return time.perf_counter() - sample_started + coming > SAMPLE_WALL_SECONDS

    sample_started = time.perf_counter()
    try:
        if supervisor is not None:
            timed(1)  # the child's start-up is not play
        first = max(timed(1), 1e-6)
        if SAMPLE_SECONDS / 4 <= first < IN_PROCESS_SECONDS and items > 1:
            # the first item also paid what a process pays once (imports, numba
            # compiling or loading a heuristic's hot loop: about a second); a worker pays
            # it once too, so the second item is the one that tells the rate
            first = max(min(first, timed(1)), 1e-6)
        if first >= SAMPLE_SECONDS / 4 or items == 1:
            return first
        size, spent = 1, first
        while spent < SAMPLE_SECONDS / 2 and size < items:
            # at most four times the items a step: item 0 (the first line-up's deal 0)
            # says nothing of the other line-ups, and sizing one task from it alone made
            # the sample of a run with one slow plug-in its whole tournament (530 s)
            grown = min(items, 4 * size,
                        max(2 * size, int(SAMPLE_SECONDS * size / max(spent, 1e-6))))
            if too_long(grown):
                break  # the bots' start-ups would make the sample long: this rate stands
            size, spent = grown, timed(grown)
        return max(spent, 1e-6) / size
    finally:
        if supervisor is not None:
            supervisor.close()


ROOM_SAMPLE_ITEMS = 16
"""At most this many (line-up, deal) items of random play measure a run's bytes per hand,"""
ROOM_SAMPLE_HANDS = 200
"""or as many as hold this many hands,"""
ROOM_SAMPLE_SECONDS = 1.0
"""or as many as play in about this long, whichever is fewest."""


def _check_room(
    config: TournamentConfig, seats: list[tuple[str, ...]], played: list[int],
    out: Path | str, resumed: bool = False,
) -> RoomEstimate | None:
    """Warn, before anything is played, when the disk ``out`` is on has less room than the
    run needs (store/space.py), saying how much it needs; return the estimate (None if
    it could not be made), which a disk that fills repeats. ``resumed``: a resumed run
    with nothing committed, measured as a new one is.

    The bytes per hand are measured on a sample of the run's first items played by
    ``random`` in every seat: a hand's rows depend on the game, variant and table size,
    not on who plays, and random play costs milliseconds where a search strategy's
    sample could take minutes. The run starts anyway: a full disk stops it cleanly and
    ``--resume`` continues it once there is room."""
    items = len(played) * config.tournament.deals

    def sample(size: int) -> tuple[TaskResult, float]:
        plan = Plan(len(played), config.tournament.deals, size,
                    config.game().duplicate_rotations)
        spec = dataclasses.replace(
            _spec(config, plan, [seats[p] for p in played], played, 0),
            strategies={e.name: (built_in_spec("random"), {}) for e in config.strategies},
            bots={},
            time_limit=None, time_control=None)
        started = time.perf_counter()
        return play_task(spec), time.perf_counter() - started

    try:
        first, seconds = sample(1)  # one item: how many hands it holds, how long it takes
        size = min(items, ROOM_SAMPLE_ITEMS, -(-ROOM_SAMPLE_HANDS // max(first.deals, 1)),
                   max(1, int(ROOM_SAMPLE_SECONDS / max(seconds, 1e-6))))
        size = max(size, 1)
        result = sample(size)[0] if size > 1 else first
    except Exception as exc:  # the estimate must never stop a run the config allows
        print(f"note: the disk room the run needs was not estimated ({exc})", file=sys.stderr)
        return None
    hands = result.deals * items / size
    per_task = config.tournament.deals_per_task  # items a task holds, or "auto"
    game_name = config.tournament.game
    per_hand, task_bytes = sample_bytes(result.tables, result.deals, game_name)
    room = estimate_room(
        out, round(hands), per_hand,
        tasks=None if per_task == "auto" else -(-items // per_task),
        task_files=len(result.tables) + 1,  # its tables and its record
        task_bytes=task_bytes,
        task_hands=0.0 if per_task == "auto" else per_task * result.deals / size,
        resumed=resumed)
    _warn_short(room, out)
    return room


def _check_resumed_room(folder: RunFolder, config: TournamentConfig, plan: Plan,
                        seats: list[tuple[str, ...]], played: list[int]
                        ) -> RoomEstimate | None:
    """Warn, before a resumed run plays, when its disk has less room than the hands it has
    still to play need, as ``_check_room`` warns a new run: a run a full disk had stopped
    was resumed on a disk gigabytes short without a word, played 20 seconds and stopped
    again (a probe). The bytes a hand are what the committed units take (their files'
    bytes over their hands, footers included, as the manifest records them): the run's
    own, where a sample is random play; a run with nothing committed is sampled."""
    done = folder.completed_tasks()
    if config.sprt is not None and folder.meta().get("status") == "complete":
        return None  # a sequential test decided: nothing more is played
    if not done:
        return _check_room(config, seats, played, folder.path, resumed=True)
    records = folder.records(folder.shown_units()).values()
    hands = sum(record.files["deals"].rows for record in records)
    items = sum(plan.task_item_count(task) for task in done)
    tasks = plan.tasks - len(done)
    if not hands or not items or not tasks:
        return None
    written = sum(file.bytes for record in records for file in record.files.values())
    room = estimate_room(
        folder.path, round(hands * (plan.items - items) / items), written / hands,
        tasks=tasks, task_files=len(folder.tables()) + 1,  # its tables and its record
        task_hands=hands * plan.deals_per_task / items,
        measured_on=f"the {len(done):,} committed task{'s' * (len(done) != 1)}", resumed=True)
    _warn_short(room, folder.path)
    return room


def _warn_short(room: RoomEstimate, out: Path | str) -> None:
    """The room warning, when the disk has less room than ``room`` needs."""
    if not room.enough:
        print(f"warning: {room.warning(out)}", file=sys.stderr)


def _auto_task_size(config: TournamentConfig, pairings: int, slots: int, per_item: float) -> int:
    """Items per task so a task lasts about TARGET_TASK_SECONDS, from the sample's timing.

    Keeps at least MIN_TASKS_PER_SLOT tasks per worker so the load balances and
    progress moves. The size is stored in run.json, so a resume cuts the same tasks.
    """
    items = pairings * config.tournament.deals
    size = int(TARGET_TASK_SECONDS / max(per_item, 1e-6))
    balanced = -(-items // (MIN_TASKS_PER_SLOT * slots))
    return max(1, min(size, balanced, MAX_DEALS_PER_TASK))  # a task's rows sit in memory


def _within_batches(per_task: int, batch: int, pairings: int) -> int:
    """The largest task size at most ``per_task`` that holds whole deal indices (every
    line-up of a deal) and divides a batch, so no task straddles two looks of a
    sequential test and every deal's pair value comes from one task."""
    deals = max(1, min(per_task // pairings, batch))
    while batch % deals:
        deals -= 1
    return deals * pairings
