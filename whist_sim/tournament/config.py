"""Tournament configs: TOML files validated before any work starts.

Validation is pydantic's (unknown keys and wrong types reported per key), and
then the game and strategies are built once in the driver, so a bad variant
value, an unknown strategy or a wrong number of players fails here, naming the
file, the key and the allowed values, instead of inside a Ray worker.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from whist_sim.budget import TimeControl
from whist_sim.deal_sets import DealSet, DealSetError, load_deal_set
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import (
    Game,
    WhistSimError,
    as_toml,
    closest,
    did_you_mean,
    is_finite_number,
    is_whole,
    shown_number,
    suggestion,
)
from whist_sim.inference import (
    PairModel,
    SprtError,
    SprtSettings,
    model_for,
    needs_spread,
    short_maximum_warning,
)
from whist_sim.inference.duel_pairs import pair_unit
from whist_sim.inference.settings import SKEWNESS_LIMIT
from whist_sim.parameter_sources import parameter_sources
from whist_sim.play import ON_ERROR
from whist_sim.strategy import (
    StrategyError,
    build_strategy,
    isolated_source,
    strategy_choices,
    strategy_class,
    strategy_source,
    strategy_version,
)
from whist_sim.tournament.entrant_text import ConfigError
from whist_sim.tournament.schedule import lineups, partnership_lineups
from whist_sim.tournament.schedule import seatings as seatings_of

MAX_DEALS = 10**9
"""A sanity cap on ``deals``: far beyond any run, small enough to plan."""

MAX_SEED = 2**63 - 1
"""Seeds are 63-bit, as every seed ``derive_seed`` makes from them is, and fit run.json's
and Parquet's signed 64-bit integers."""

MAX_DEALS_PER_TASK = 10_000
"""A task's rows are held in memory until it is committed, about 0.1 MB per German
Whist item and more for bigger tables, so a task holds at most 10,000 items."""

TIME_LIMITS = (0.001, 3600.0)
"""tournament.time_limit, seconds per decision: from 1 ms (the decision alarm's timer
rounds anything much shorter to zero, which switches it off) to an hour, already far
beyond any strategy worth timing. 1e20 or inf overflowed the timer, and every deal was
forfeited with the blame on the strategies."""

MAX_BATCH = 100_000
"""sprt.batch: duplicate pairs between two looks at the sequential test."""


SIZE_UNITS = {"b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
              "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
"""Units a size may be written in: "600 MiB", "2 GiB", "4MB"; a bare number is bytes."""

MEMORY_LIMITS = (256 << 20, 1 << 40)
"""tournament.memory_limit: 256 MiB (a worker's process with its imports) to 1 TiB."""

OUTPUT_LIMITS = (0, 1 << 30)
"""tournament.output_limit: 0 (keep nothing) to 1 GiB per entrant."""


def parse_size(value: str | int | float) -> int:
    """Bytes of a size written as a number of bytes or with a unit ("600 MiB"); a whole
    number written as a decimal (TOML's ``2e9``) is a number of bytes too."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("must be a size such as \"2 GiB\" or a whole number of bytes")
    if isinstance(value, int):
        return value
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", value)
    unit = match[2].lower() if match else ""
    if match is None or (unit and unit not in SIZE_UNITS):
        raise ValueError(
            "must be a size such as \"2 GiB\" or a number of bytes (units: B, KiB, MiB, GiB,"
            " TiB, KB, MB, GB, TB)"
        )
    size = float(match[1]) * SIZE_UNITS[unit or "b"]
    if not math.isfinite(size):  # 400 digits: int(inf) would raise OverflowError, no one line
        raise ValueError("must be a size such as \"2 GiB\", not hundreds of digits long")
    return int(size)


def _checked_size(value: str | int, bounds: tuple[int, int]) -> int:
    size = parse_size(value)
    low, high = bounds
    if not low <= size <= high:
        raise ValueError(
            f"out of range; allowed values: sizes from {_shown(low)} to {_shown(high)}")
    return size


def _shown(size: int) -> str:
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def whole_in(value: Any, low: int, high: int, more: str = "") -> int:
    """``value`` if it is a whole number in ``low..high``; else a ValueError that says what
    is wrong and what is allowed (``more``: other allowed values, e.g. ", or 'auto'").

    Used as a pydantic "before" validator, so a value of the wrong type (a list, a
    string, ``true``) gets the same one line as one out of range, instead of being
    coerced ("12" to 12, true to 1) or reported once per member of a union type.
    """
    if not is_whole(value) or not low <= value <= high:
        problem = "out of range" if is_whole(value) else f"not a whole number ({_kind(value)})"
        raise ValueError(f"{problem}; allowed values: whole numbers {low:,}..{high:,}{more}")
    return value


def number_in(value: Any, low: float, high: float, more: str = "") -> float:
    """``value`` if it is a finite number in ``low..high``; else a ValueError as ``whole_in``'s."""
    if not is_finite_number(value) or not low <= value <= high:
        problem = "out of range" if is_finite_number(value) else (
            f"not a finite number ({_kind(value)})")
        raise ValueError(
            f"{problem}; allowed values: numbers {shown_number(low)}..{shown_number(high)}{more}"
        )
    return value


def _kind(value: Any) -> str:
    """What a TOML value is, for a message: "a string", "a list", "true", "inf"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else "infinite"
    names = {str: "a string", list: "a list", dict: "a table", float: "a decimal number",
             int: "a whole number"}
    return names.get(type(value), f"a {type(value).__name__}")


PROCESS = "process"
"""``use`` of an entrant that is a bot program (``command``) rather than a Python class."""

POLICY = "policy"
"""``use`` of an entrant that is a trained policy: a function (``callable``) from the
observation dict of ``whist_sim.env`` to an action, played by ``strategies.policy``."""


class StrategyEntry(BaseModel):
    """One entrant: a label for results, the strategy to use, and its parameters."""

    model_config = ConfigDict(extra="forbid")

    use: str = Field(description="entry-point name (e.g. 'heuristic'), 'package.module:Class',"
                                 " or 'process' for a bot program")
    label: str | None = Field(
        None, description="name in results and reports; defaults to `use` and its parameters"
    )
    params: dict[str, Any] = Field(default_factory=dict)
    command: list[str] | None = Field(
        None, description="use = 'process': the bot program and its arguments (no shell)"
    )
    cwd: str | None = Field(None, description="use = 'process': the folder it runs in")
    env: dict[str, str] | None = Field(
        None, description="use = 'process': its environment (default: the engine's)"
    )
    isolate: bool | None = Field(
        None, description="play in a process of its own behind the bot protocol"
                          " (always for use = 'process')"
    )
    callable: str | None = Field(
        None, description="use = 'policy': the policy, 'package.module:function' (a function"
                          " from the observation dict to an action)"
    )

    @field_validator("isolate", mode="before")
    @classmethod
    def _true_or_false(cls, value: Any) -> Any:
        """As written: "yes" or 1 were read as true, "no" or 0 as false."""
        if value is not None and not isinstance(value, bool):
            raise ValueError(f"not true or false ({_kind(value)}); allowed values: true, false")
        return value

    @field_validator("label", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        if value is not None and not isinstance(value, str):
            raise ValueError(f"not a text ({_kind(value)}); allowed values: a name in quotes,"
                             " e.g. label = \"bold\"")
        return value

    @field_validator("label")
    @classmethod
    def _named(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("an empty label; allowed values: a name, or leave label out (the"
                             " entry is then named after use and its parameters)")
        control = next((c for c in value or "" if unicodedata.category(c) == "Cc"), None)
        if control is not None:  # a newline split the console's and the report's lines
            raise ValueError(f"it holds the control character {control!r}; allowed"
                             " values: a name on one line, without tabs or control characters")
        return value

    @property
    def name(self) -> str:
        """The label, else ``use`` with its parameters: ``pimc(worlds=40)``; a bot program
        without a label is named after its program file.

        So two budgets of one strategy are two entries in results and reports
        without anyone having to name them. A policy's ``callable`` is one of its
        parameters (``_check_policy_keys`` moves it there), and is shown as one before it
        is moved too: an entry refused while its keys were checked was named
        ``policy(weights='nope.npz')``, without the policy it was about.
        """
        if self.label:
            return self.label
        base = Path(self.command[0]).stem if self.use == PROCESS and self.command else self.use
        params = self.params
        if self.use == POLICY and self.callable is not None and "callable" not in params:
            params = {**params, "callable": self.callable}
        if not params:
            return base
        shown = ", ".join(f"{key}={value!r}" for key, value in sorted(params.items()))
        return f"{base}({shown})"

    @property
    def isolated(self) -> bool:
        """Plays in a process of its own, behind the bot protocol (docs/protocol.md)."""
        return self.use == PROCESS or bool(self.isolate)

    def bot_command(self) -> list[str]:
        """The program an isolated entrant runs: its own, or whist_sim serving the strategy."""
        if self.use == PROCESS:
            return list(self.command or [])
        return [sys.executable, "-m", "whist_sim.protocol", self.use]


CLOCK_BASES = (0.001, 86_400.0)
"""tournament.clock.base: seconds on each seat's clock, 1 ms to a day."""

CLOCK_INCREMENTS = (0.0, 3600.0)
"""tournament.clock.increment: seconds added after each decision, 0 to an hour."""


class ClockSection(BaseModel):
    """``tournament.clock``: chess clocks per deal or per match, besides the decision limit.

    Each seat starts with ``base`` seconds; a decision may take at most what is left
    (and ``time_limit``); its time is taken off and ``increment`` added; a seat whose
    clock runs out loses the deal on time. ``per = "match"`` keeps the clocks over
    every hand of a match (a Solo session, a Minnesota game, a best-of-N)."""

    model_config = ConfigDict(extra="forbid")

    base: float
    increment: float = 0.0
    per: Literal["deal", "match"] = "deal"

    @field_validator("base", mode="before")
    @classmethod
    def _base_in_range(cls, value: Any) -> Any:
        return number_in(value, *CLOCK_BASES, more=" (seconds on each seat's clock)")

    @field_validator("increment", mode="before")
    @classmethod
    def _increment_in_range(cls, value: Any) -> Any:
        return number_in(value, *CLOCK_INCREMENTS, more=" (seconds added per decision)")

    def control(self) -> TimeControl:
        return TimeControl(float(self.base), float(self.increment), self.per)


class TournamentSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    deals: int | None = Field(
        None,
        description="deal indices per line-up; each is played in every rotation"
        " (default with deals_file: every deal of the file)",
    )
    deals_file: str | None = Field(
        None, description="a deal set (Parquet) to play instead of seeded deals"
    )
    seed: int = 0
    players: int | list[int] | None = Field(
        None, description="table size (Knock-out Whist: 2..7, or a list of sizes)"
    )
    deals_per_task: int | Literal["auto"] = "auto"
    time_limit: float | None = Field(10.0, description="seconds per decision; none = off")
    clock: ClockSection | None = Field(
        None, description="chess clocks: base + increment seconds, per deal or match"
    )
    on_error: Literal["forfeit", "abort"] = "forfeit"
    partnerships: list[tuple[str, str]] | None = Field(
        None, description="partnership games: pairs of strategy labels (default: each with itself)"
    )
    memory_limit: str | int = Field(
        "2 GiB", description="resident memory a worker's supervised process may use"
    )
    output_limit: str | int = Field(
        "4 MiB", description="printed output kept per entrant for the whole run"
    )
    bench_after: int | None = Field(
        None, description="forfeits after which an entrant sits out the run"
    )
    contain_bots: bool = Field(
        False, strict=True,  # "yes" or 1 read as true otherwise: refused as ``bool_type``
        description="run every bot and isolated entrant in Linux namespaces of its own:"
                    " no other process, no network, read-only files, the run hidden"
    )
    pause_bots: bool = Field(
        True, strict=True,
        description="stop every bot and isolated entrant (SIGSTOP) from its reply until"
                    " the engine's next message to it, so it computes on its own time only"
    )
    format: Literal["round_robin", "gauntlet"] = Field(
        "round_robin", description="round_robin: every line-up; gauntlet: those with a candidate"
    )
    candidates: list[str] | None = Field(
        None, description="gauntlet: labels of the entrants under test; the rest are baselines"
    )

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in GAMES:
            raise ValueError("not a game whist_sim knows; allowed values:"
                             f" {', '.join(sorted(GAMES))}")
        return value

    @field_validator("partnerships", mode="before")
    @classmethod
    def _pairs_of_labels(cls, value: Any) -> Any:
        pairs = isinstance(value, list) and all(
            isinstance(pair, list | tuple) and len(pair) == 2
            and all(isinstance(label, str) for label in pair) for pair in value)
        if value is not None and not pairs:
            raise ValueError(
                "not a list of pairs of strategy labels; allowed values: pairs of labels,"
                ' e.g. [["heuristic", "pimc"], ["random", "random 2"]]'
            )
        return value

    @field_validator("memory_limit", mode="before")
    @classmethod
    def _memory_size(cls, value: Any) -> Any:
        _checked_size(value, MEMORY_LIMITS)
        return value

    @field_validator("output_limit", mode="before")
    @classmethod
    def _output_size(cls, value: Any) -> Any:
        _checked_size(value, OUTPUT_LIMITS)
        return value

    @property
    def memory_limit_bytes(self) -> int:
        return parse_size(self.memory_limit)

    @property
    def output_limit_bytes(self) -> int:
        return parse_size(self.output_limit)

    @field_validator("deals", mode="before")
    @classmethod
    def _deals_in_range(cls, value: Any) -> Any:
        return None if value is None else whole_in(value, 1, MAX_DEALS)

    @field_validator("seed", mode="before")
    @classmethod
    def _seed_in_range(cls, value: Any) -> Any:
        return whole_in(value, 0, MAX_SEED)

    @field_validator("players", mode="before")
    @classmethod
    def _players_are_sizes(cls, value: Any) -> Any:
        """Whole numbers here; the game's own range is checked with the game
        (``_check_players``), which knows it."""
        if value is None:
            return value
        sizes = value if isinstance(value, list) else [value]
        if not sizes or not all(is_whole(n) for n in sizes):
            raise ValueError(
                "allowed values: a table size (a whole number) or a list of distinct sizes,"
                " e.g. 4 or [4, 7]"
            )
        return value

    @field_validator("deals_per_task", mode="before")
    @classmethod
    def _task_size_in_range(cls, value: Any) -> Any:
        if value == "auto":
            return value
        return whole_in(value, 1, MAX_DEALS_PER_TASK, more=", or 'auto'")

    @field_validator("time_limit", mode="before")
    @classmethod
    def _time_limit_in_range(cls, value: Any) -> Any:
        if value is None:  # Python callers only: TOML has no null, so a file cannot switch it off
            return value
        return number_in(value, *TIME_LIMITS, more=" (seconds per decision; default 10)")

    @field_validator("bench_after", mode="before")
    @classmethod
    def _bench_after_in_range(cls, value: Any) -> Any:
        return None if value is None else whole_in(
            value, 1, MAX_DEALS, more=", or leave it out (never)")


class SprtSection(BaseModel):
    """``[sprt]``: play two entrants in batches until a sequential test decides.

    The hypotheses and error rates are checked by ``whist_sim.inference.SprtSettings``;
    ``batch`` is how many duplicate pairs are played between two looks at the test.
    """

    model_config = ConfigDict(extra="forbid")

    elo0: float | None = None
    elo1: float | None = None
    net0: float | None = None
    net1: float | None = None
    alpha: float = 0.05
    beta: float = 0.05
    skewness: float | None = None
    batch: int = Field(20, description="duplicate pairs between two looks")

    @field_validator("batch", mode="before")
    @classmethod
    def _batch_in_range(cls, value: Any) -> Any:
        return whole_in(value, 1, MAX_BATCH)

    @field_validator("elo0", "elo1", "net0", "net1", "alpha", "beta", "skewness", mode="before")
    @classmethod
    def _a_number(cls, value: Any, info: ValidationInfo) -> Any:
        """Numbers as written, not coerced: elo1 = "10" or true were read as 10 and 1 (the
        test then ran at elo1 = 1). The ranges are SprtSettings' to check; the message
        names a key's range where one number in it is all it takes."""
        if value is not None and not is_finite_number(value):
            allowed = {"skewness": f"numbers from -{SKEWNESS_LIMIT:g} to {SKEWNESS_LIMIT:g}",
                       "alpha": "numbers in the open interval (0, 0.5)",
                       "beta": "numbers in the open interval (0, 0.5)"}
            raise ValueError(f"not a finite number ({_kind(value)}); allowed values:"
                             f" {allowed.get(info.field_name or '', 'numbers')}")
        return value

    def settings(self, where: str = "sprt") -> SprtSettings:
        values = self.model_dump(exclude={"batch"}, exclude_none=True)
        try:
            return SprtSettings.from_mapping(values, where)
        except SprtError as exc:
            raise ConfigError(str(exc)) from None


class TournamentConfig(BaseModel):
    """A whole config file: ``[tournament]``, ``[variant]``, ``[[strategies]]``, ``[sprt]``."""

    model_config = ConfigDict(extra="forbid")

    tournament: TournamentSection
    variant: dict[str, Any] = Field(default_factory=dict)
    strategies: list[StrategyEntry] = Field(min_length=2)
    sprt: SprtSection | None = None
    _deal_set: DealSet | None = PrivateAttr(None)
    _bots: dict[str, dict[str, Any]] = PrivateAttr(default_factory=dict)
    _warnings: list[str] = PrivateAttr(default_factory=list)
    _files: list[str] = PrivateAttr(default_factory=list)
    """The files the config was read from (itself, its deal set): hidden from contained
    bots, whose authors must not learn the root seed or the deals."""

    @property
    def files(self) -> tuple[str, ...]:
        """The files the config was read from: its own and its deal set's (run.json's
        ``config_files``, hidden from contained bots when the run resumes)."""
        return tuple(self._files)

    def hidden_from_bots(self, *more: Path | str) -> tuple[str, ...] | None:
        """What a contained bot must not read: the config's files and ``more`` (the run
        folder); None when bots are not contained (``tournament.contain_bots``)."""
        if not self.tournament.contain_bots:
            return None
        return tuple(str(Path(path).absolute()) for path in [*self._files, *more])

    @property
    def warnings(self) -> list[str]:
        """What validation found that does not stop the run: a bot that failed its
        handshake plays on, forfeiting its deals, until benched (docs/protocol.md); a
        deal set that deals the same cards twice (docs/deal-sets.md)."""
        return list(self._warnings)

    def deal_set(self) -> DealSet | None:
        """The validated deal set of ``tournament.deals_file`` (None without one)."""
        return self._deal_set

    def table_sizes(self) -> list[int | None]:
        players = self.tournament.players
        return list(players) if isinstance(players, list) else [players]

    def games(self, where: str = "variant") -> list[Game]:
        """The game at each table size the tournament plays (one size for most games)."""
        return [make_game(self.tournament.game, self.variant, n, where) for n in self.table_sizes()]

    def game(self, where: str = "variant") -> Game:
        """The game at the first table size: its name, version, variant and rules."""
        return self.games(where)[0]

    def labels(self) -> list[str]:
        return [entry.name for entry in self.strategies]

    def duel_order(self) -> list[str]:
        """The labels as a two-entrant test reads them, A first: the config's order, but a
        gauntlet's candidate first (it is what is under test: a baseline listed first
        made the verdict test whether the baseline was stronger than the candidate)."""
        labels = self.labels()
        candidates = set(self.tournament.candidates or ())
        if len(labels) == 2 and labels[1] in candidates and labels[0] not in candidates:
            return [labels[1], labels[0]]
        return labels

    def a_against_b(self) -> bool:
        """Whether a two-entrant run pits A against B, so that its verdict compares them:
        in a partnership game only partnerships of one entrant each (A A against B B). A
        run of random and heuristic whose partnerships were heuristic heuristic and random
        heuristic read "heuristic wins 100.0% of games against random", heuristic having
        lost every game as random's partner (a newcomer's probe)."""
        if len(self.labels()) != 2:
            return False
        return all(first == second for first, second in self.partnership_pairs())

    def partnership_pairs(self) -> list[tuple[str, str]]:
        given = self.tournament.partnerships
        return [tuple(p) for p in given] if given else [(n, n) for n in self.labels()]

    def lineups(self) -> list[tuple[str, ...]]:
        """Who sits where in the round robin: combinations of entrants at each table size,
        or partnerships. A gauntlet plays some of them (:meth:`played_pairings`)."""
        games = self.games()
        if games[0].partnerships:
            return partnership_lineups(self.partnership_pairs())
        return [lineup for game in games for lineup in lineups(self.labels(), game.players)]

    def played_pairings(self) -> list[int]:
        """Round-robin numbers of the line-ups this tournament plays.

        A round robin plays them all; a gauntlet only those with a candidate in a
        seat, the other seats filled from the baselines exactly as in the round
        robin, and under the same numbers, so its rows are the round robin's rows
        of those line-ups and a new strategy is measured without replaying every
        baseline pairing.
        """
        every = self.lineups()
        if self.tournament.format == "round_robin":
            return list(range(len(every)))
        candidates = set(self.tournament.candidates or ())
        return [i for i, lineup in enumerate(every) if candidates & set(lineup)]

    def strategy_versions(self) -> dict[str, str]:
        """Each entrant's version: its class's, or what an isolated one said in its hello."""
        game = self.tournament.game
        return {
            e.name: str(self._bots.get(e.name, {}).get("version") or "unknown") if e.isolated
            else strategy_version(strategy_class(e.use, game))
            for e in self.strategies
        }

    def strategy_sources(self) -> dict[str, dict[str, Any]]:
        """Where each entrant's code was loaded from (``strategy.strategy_source``), for
        run.json: distribution and version, module, file and its SHA-256; for an
        isolated entrant, its command, the files it names with their SHA-256, and its
        hello (``ProcessStrategy.source``); for every entrant, the code and files its
        parameters name (``parameter_sources``: a policy's ``callable``, a weights file)."""
        game = self.tournament.game
        return {e.name: {**(self._bots.get(e.name, {}) if e.isolated
                            else strategy_source(e.use, game)),
                         **parameter_sources(e.params)}
                for e in self.strategies}


def load_config(path: Path | str, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read, validate and dry-build a config (game, variant, every strategy).

    ``overrides`` replace values of the file: ``{"tournament.deals": 50,
    "variant.count": "all"}`` (section.key), or a plain ``tournament`` key such as
    ``{"deals": 50}``. A config already read into a mapping is validated by
    :func:`validate_config` instead.
    """
    path = _config_path(path)
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ConfigError(f"overrides = {overrides!r} is not a mapping; give e.g."
                          " {'tournament.deals': 50, 'variant.count': 'all'}")
    raw = _read_toml(path)
    given: dict[tuple[str, str], str] = {}
    for dotted, value in (overrides or {}).items():
        section, _, key = _override_key(dotted, path)
        earlier = given.setdefault((section, key), dotted)
        if earlier != dotted:  # "deals" and "tournament.deals": whichever came last won
            raise ConfigError(f"{path}: overrides {earlier!r} and {dotted!r} name the same key,"
                              f" {section}.{key}; give it once")
        table = raw.setdefault(section, {})
        if isinstance(table, dict):  # otherwise validation names the section that is not a table
            table[key] = value
    tournament = raw.get("tournament")
    if (isinstance(tournament, dict) and isinstance(tournament.get("deals_file"), str)
            and tournament["deals_file"].strip()):  # an empty one is refused by _load_deals
        # a deal set named in a config file is found beside that file, wherever one runs it;
        # kept as an absolute path, so run.json names it for a resume from any folder (a
        # path relative to where the run started was not found from anywhere else)
        tournament["deals_file"] = str(
            (path.parent / Path(tournament["deals_file"]).expanduser()).absolute())
    return validate_config(raw, str(path))


def _config_path(path: Any) -> Path:
    """``path`` as a Path, or a ConfigError naming the types taken: pathlib raised its
    own TypeError ("expected str, bytes or os.PathLike object, not dict") from deep
    inside for a config given as a table or as None."""
    if isinstance(path, str | os.PathLike):
        return Path(path)
    table = ("; a config already read into a table is validated by"
             " whist_sim.tournament.config.validate_config(table)")
    raise ConfigError(
        f"path = {_short_repr(path)} is not a config file's path; give a str or a"
        f" pathlib.Path of a TOML file (e.g. \"configs/quickstart.toml\")"
        f"{table if isinstance(path, Mapping) else ''}"
    )


def _short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut at ``limit`` characters: a whole config table is no one line."""
    shown = repr(value)
    return shown if len(shown) <= limit else f"{shown[:limit - 3]}..."


OVERRIDE_SECTIONS = ("tournament", "variant", "sprt")
"""Sections an override may name (``section.key``); strategies are a list, not a table."""


def _override_key(key: str, path: Path) -> tuple[str, str, str]:
    """``("tournament", ".", "deals")`` for ``"tournament.deals"`` or a plain ``"deals"``."""
    if not isinstance(key, str):
        raise ConfigError(f"{path}: override {key!r} is not a key; write section.key as a"
                          " string, e.g. \"tournament.deals\"")
    section, dot, name = key.partition(".")
    if dot and section in OVERRIDE_SECTIONS and name:
        return section, dot, name
    if not dot and key in TournamentSection.model_fields:
        return "tournament", ".", key
    raise ConfigError(
        f"{path}: override {key!r}: write section.key, the section one of"
        f" {', '.join(OVERRIDE_SECTIONS)} (e.g. \"tournament.deals\", \"variant.count\"),"
        f" or a plain tournament key: {', '.join(TournamentSection.model_fields)}"
    )


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML table of the file at ``path``, or a ConfigError naming the path and the
    problem: missing, a folder, unreadable, not UTF-8 text, not TOML.

    A leading byte-order mark, which some editors (Windows Notepad) write at the start of
    every UTF-8 file, is read past: ``tomllib`` refused it as "Invalid statement (at line
    1, column 1)", naming nothing a reader could see in the file (a newcomer's probe)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder; give a config file (TOML)") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start});"
            " a config is a TOML file, which is UTF-8"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None


def validate_config(raw: Mapping[str, Any], source: str = "<config>") -> TournamentConfig:
    """Validate and dry-build a config already read into a table (what ``tomllib`` gives
    for a config file); ``source`` names it in every message. ``load_config`` is this
    for a file, with overrides and ``deals_file`` found beside the file."""
    try:
        config = TournamentConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe_validation(exc, source)) from None
    config._files = [str(Path(path).absolute()) for path in (source, config.tournament.deals_file)
                     if path is not None and Path(path).is_file()]
    _check_players(config, source)
    games, problems = _checked_entrants(config, source)
    checks: list[Callable[[], None]] = [partial(_check_format, config, source)]
    # a refused variant leaves the game's default to check the rest against: the table,
    # the partnerships and [sprt] do not depend on the rules' settings
    game = games[0] if games else _default_game(config)
    if game is not None:
        checks.append(partial(_check_partnerships, config, game, source))
    if games:
        checks.append(partial(_load_deals, config, games, source))
    if game is not None:
        checks.append(partial(_check_sprt, config, game, source))
    for check in checks:  # the format, partnerships, deal set and [sprt], named together
        if check.func is _check_sprt and config.tournament.deals is None:
            continue  # the deal set was refused: the test's length is not known
        try:
            check()
        except WhistSimError as exc:
            problems.append(str(exc))
    if problems:
        raise ConfigError("\n".join(problems))
    for i, entry in enumerate(config.strategies):
        if entry.isolated:  # its code runs in its own process only, never in the driver
            where = f"{source}: strategies[{i}] ({entry.name})"
            config._bots[entry.name] = _greet(config, entry, games[0], where)
    _warn_guessable_seed(config, source)
    if config.tournament.on_error not in ON_ERROR:  # pragma: no cover - Literal guards it
        raise ConfigError(f"{source}: tournament.on_error must be one of {ON_ERROR}")
    return config


def _default_game(config: TournamentConfig) -> Game | None:
    """The tournament's game under its default variant at the first table size, if the
    table size is one it is played at."""
    try:
        return make_game(config.tournament.game, None, config.table_sizes()[0])
    except WhistSimError:
        return None


def _checked_entrants(config: TournamentConfig, source: str) -> tuple[list[Game], list[str]]:
    """The game at each table size (``TournamentConfig.games``; empty if the variant is
    refused) and a line for each problem found in the variant, each entry's keys, the
    labels and each strategy the driver builds: ``validate_config`` names them all with
    the later checks', so a config with several mistakes is not mended one run at a
    time. Isolated entrants are started only once all of them pass."""
    problems: list[str] = []
    games: list[Game] = []
    try:
        games = config.games(where=f"{source}: variant")
    except WhistSimError as exc:
        message = f"{source}: {exc}" if source not in str(exc) else str(exc)
        problems.append(message + _misplaced_variant_keys(config.variant))
    wheres = [f"{source}: strategies[{i}] ({entry.name})"
              for i, entry in enumerate(config.strategies)]
    broken: set[int] = set()
    for i, entry in enumerate(config.strategies):  # before labels: callable names the entrant
        try:
            _check_policy_keys(entry, wheres[i])
        except ConfigError as exc:
            problems.append(str(exc))
            broken.add(i)
    labels = config.labels()
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        problems.append(f"{source}: strategies: label {duplicates[0]!r} is used twice; give"
                        " each entry a distinct `label`")
    game_name = games[0].name if games else config.tournament.game
    for i, entry in enumerate(config.strategies):
        if i in broken:
            continue
        try:
            _check_process_keys(entry, wheres[i])
        except ConfigError as exc:
            problems.append(str(exc))
            continue
        if entry.isolated or game_name not in GAMES:
            continue
        try:
            build_strategy(entry.use, entry.params, game_name)
        except StrategyError as exc:
            problems.append(f"{wheres[i]}: {exc}")
    return games, problems


HANDSHAKE_SECONDS = 10.0
"""How long validation waits for an isolated entrant's hello."""

GUESSABLE_SEEDS = 2**32
"""Root seeds below this are warned of when an entrant is isolated: a bot that tries
them all against its own hand finds the deal's seed, then every other hand (a hostile
bot author's probe found the default, 0, at its first try)."""


def _warn_guessable_seed(config: TournamentConfig, source: str) -> None:
    """A warning when bots or isolated entrants play deals from a small root seed."""
    isolated = [entry.name for entry in config.strategies if entry.isolated]
    seed = config.tournament.seed
    if not isolated or config.tournament.deals_file is not None or seed >= GUESSABLE_SEEDS:
        return
    given = "seed" in config.tournament.model_fields_set
    config._warnings.append(
        f"{source}: tournament.seed = {seed}{'' if given else ' (the default)'} is a small"
        f" number, and {', '.join(isolated)} {'plays' if len(isolated) == 1 else 'play'} in"
        " a process of its own: a bot that tries small seeds against its own hand rebuilds"
        " every other hand. For bots you do not trust, set tournament.seed to a large random"
        " number (python -c 'import secrets; print(secrets.randbits(63))'); run.json records"
        " it, so the run stays reproducible")


def _check_process_keys(entry: StrategyEntry, where: str) -> None:
    """``command`` goes with ``use = "process"``, and a process is always isolated."""
    if entry.use == PROCESS:
        command = entry.command
        if not command or not all(isinstance(part, str) and part for part in command):
            raise ConfigError(
                f"{where}: use = \"process\" needs command, a non-empty list of strings: the"
                ' program and its arguments, e.g. command = ["./bot", "--fast"]'
            )
        if entry.isolate is False:
            raise ConfigError(f"{where}: isolate = false is not allowed for use = \"process\":"
                              " a bot program always runs in a process of its own")
        return
    if entry.command is not None:
        raise ConfigError(f"{where}: command applies only to use = \"process\"; to run a Python"
                          " strategy in a process of its own, set isolate = true")
    given = [key for key in ("cwd", "env") if getattr(entry, key) is not None]
    if given and not entry.isolated:
        raise ConfigError(f"{where}: {' and '.join(given)} apply only to an entrant in a process"
                          " of its own: use = \"process\", or isolate = true")


def _check_policy_keys(entry: StrategyEntry, where: str) -> None:
    """``callable`` goes with ``use = "policy"`` and is handed to it as its parameter, so
    every place that builds an entrant from (use, params) builds the same policy; whether
    the function imports is checked when the strategy is built, right after."""
    if entry.use != POLICY:
        if entry.callable is not None:
            raise ConfigError(f"{where}: callable applies only to use = \"policy\" (a trained"
                              f" policy); this entry has use = {entry.use!r}"
                              + did_you_mean(entry.use, [POLICY]))
        return
    in_params = entry.params.get("callable")
    if entry.callable is not None and in_params is not None and in_params != entry.callable:
        raise ConfigError(f"{where}: callable is given twice, as callable = {entry.callable!r}"
                          f" and in params as {in_params!r}; keep one")
    reference = entry.callable if entry.callable is not None else in_params
    if not isinstance(reference, str) or not reference:
        raise ConfigError(
            f"{where}: use = \"policy\" needs callable = \"package.module:function\", the"
            " policy function (from the observation dict to an action), e.g."
            ' callable = "my_package.policies:act"; got ' + repr(reference)
        )
    entry.params["callable"] = reference


def _greet(
    config: TournamentConfig, entry: StrategyEntry, game: Game, where: str
) -> dict[str, Any]:
    """Start the entrant's process and complete the handshake: its source and hello for
    run.json. A bot that fails is a warning, not an error: the run goes on, the bot
    forfeits its deals with the reason, and it is benched (docs/protocol.md)."""
    from whist_sim.protocol import BotError, BotStartError, BotUnsupportedGame, ProcessStrategy
    from whist_sim.protocol.client import not_served

    def greeted() -> ProcessStrategy:
        return ProcessStrategy(
            entry.bot_command(), label=entry.name, cwd=entry.cwd, env=bot_environment(entry),
            params=entry.params, game=game.name, variant=game.variant.as_dict(),
            handshake_timeout=HANDSHAKE_SECONDS, contain=config.hidden_from_bots(),
            pause=config.tournament.pause_bots,
        )

    bot = greeted()
    try:
        bot.start()
    except BotError as exc:
        reason = not_served(exc) if entry.use != PROCESS else None
        if reason is not None:  # cannot be imported or built: as when played in the workers
            raise ConfigError(f"{where}: {reason}") from None
        if isinstance(exc, BotUnsupportedGame):
            # its class's games leave out this one: refused in process too, never a forfeit;
            # a bot's hello is an answer as definite, which a second start only repeated
            # ("started twice ..., it failed both times", a probe)
            raise ConfigError(f"{where}: {entry.use} {exc.message}" if entry.use != PROCESS
                              else f"{where}: {exc}") from None
        if isinstance(exc, BotStartError):  # no such program: it never will start
            raise ConfigError(f"{where}: {exc}") from None
        if not _greets_again(greeted):  # failed twice in a row: not a flaky start
            # (a newcomer's bot path, relative to another folder, played a whole run of
            # forfeits that ended with exit status 0 and a "decided" verdict)
            raise ConfigError(f"{where}: started twice when the config was read, it failed"
                              f" both times: {exc}") from None
        # said as what will follow if it keeps failing: a bot that fails only sometimes
        # plays the deals its later starts reach (a probe's flaky bot forfeited none)
        config._warnings.append(
            f"{where}: {exc}; the run goes on: each deal it cannot be started for is its"
            " forfeit, and after tournament.bench_after of them (10 for a bot unless set)"
            " it is benched")
    finally:
        bot.close()
    source = bot.source()
    if entry.use != PROCESS:  # a Python strategy the process imports: its module's file too
        source.update(isolated_source(entry.use, [str(entry.cwd or os.getcwd())]))
    return source


def _greets_again(greeted: Callable[[], Any]) -> bool:
    """Whether a second start of a bot whose first failed completes its handshake."""
    from whist_sim.protocol import BotError

    again = greeted()
    try:
        again.start()
    except BotError:
        return False
    finally:
        again.close()
    return True


def bot_environment(entry: StrategyEntry) -> dict[str, str] | None:
    """An isolated entrant's environment: the engine's, with the entry's ``env`` on top."""
    if entry.env is None:
        return None
    return {**os.environ, **entry.env}


OR_A_LIST = ", or a list of distinct sizes"
"""What ``tournament.players`` takes beyond one size; a duel's ``--players`` takes one
size only, so its error leaves this out (``cli._as_options``)."""


def _check_players(config: TournamentConfig, source: str) -> None:
    """Each table size once, and within the game's range, named with the key: both, where
    both are wrong (``[4, 4, 9]`` named the 4 given twice, and the 9 only once that was
    mended: a newcomer's probe)."""
    players = config.tournament.players
    sizes = config.table_sizes()
    problems = []
    repeated = sorted({size for size in sizes if size is not None and sizes.count(size) > 1})
    if repeated:
        named = ", ".join(str(size) for size in repeated)
        verb = "is" if len(repeated) == 1 else "are"
        problems.append(f"list each table size once ({named} {verb} given twice)")
    game = GAMES[config.tournament.game]
    low, high = game.min_players, game.max_players
    outside = [size for size in dict.fromkeys(sizes) if size is not None
               and not low <= size <= high]
    if outside:
        allowed = f"{low}" if low == high else f"whole numbers {low}..{high}{OR_A_LIST}"
        problems.append(
            f"{game.name} is played by {game.table_sizes()} players, not"
            f" {', '.join(str(size) for size in outside)}; allowed values: {allowed}"
            f"{' (or leave it out)' if low == high else ''}")
    if problems:
        raise ConfigError(f"{source}: tournament.players = {players!r}: "
                          + "; and ".join(problems))


def _check_partnerships(config: TournamentConfig, game: Game, source: str) -> None:
    given = config.tournament.partnerships
    if given is not None and not game.partnerships:
        raise ConfigError(
            f"{source}: tournament.partnerships applies only to partnership games"
            f" (minnesota_whist), not {game.name}"
        )
    if not game.partnerships:
        return
    labels = config.labels()
    for pair in config.partnership_pairs():
        for label in pair:
            if label not in labels:
                raise ConfigError(
                    f"{source}: tournament.partnerships: unknown label {label!r};"
                    f" strategy labels: {', '.join(labels)}"
                )
    pairs = config.partnership_pairs()
    if len(pairs) < 2:
        raise ConfigError(
            f"{source}: tournament.partnerships: a round robin needs at least two partnerships"
        )
    seen: set[tuple[str, ...]] = set()
    for pair in pairs:
        key = tuple(sorted(pair))
        if key in seen:  # its games against itself would count twice, and say nothing
            raise ConfigError(
                f"{source}: tournament.partnerships: {list(pair)} is given twice; each"
                " partnership once"
            )
        seen.add(key)
    unused = [label for label in labels if not any(label in pair for pair in pairs)]
    if unused:  # it would get standings and a verdict with no hand played
        raise ConfigError(
            f"{source}: tournament.partnerships: entrant {unused[0]!r} is in no partnership;"
            " put it in one, or leave it out of [[strategies]]"
        )


def _load_deals(config: TournamentConfig, games: list[Game], source: str) -> None:
    """Read and check the deal set, if any, and settle how many deal indices are played."""
    section = config.tournament
    if section.deals_file is None:
        if section.deals is None:
            raise ConfigError(f"{source}: missing key 'tournament.deals' (or give deals_file)")
        return
    if not section.deals_file.strip():
        # joined to the config's folder, an empty name was refused as "is a folder"
        raise ConfigError(
            f"{source}: tournament.deals_file = {as_toml(section.deals_file)} is empty; give a deal"
            " set, a Parquet file (relative to the config file), or leave deals_file out to"
            " deal from the seed")
    if len(games) > 1:
        sizes = " or ".join(f"players = {game.players}" for game in games)
        raise ConfigError(
            f"{source}: tournament.deals_file holds deals for one table size;"
            f" tournament.players = {section.players!r} lists several: give one of them,"
            f" {sizes}"
        )
    try:
        deal_set = load_deal_set(section.deals_file, games[0])
    except DealSetError as exc:
        raise ConfigError(f"{source}: tournament.deals_file: {exc}") from None
    if section.deals is None:
        section.deals = deal_set.deals
    elif section.deals > deal_set.deals:
        raise ConfigError(
            f"{source}: tournament.deals = {section.deals}, but {section.deals_file} holds"
            f" {deal_set.deals} deals (0..{deal_set.deals - 1}); allowed: 1..{deal_set.deals},"
            " or leave deals out to play them all"
        )
    config._deal_set = deal_set
    played = [(a, b) for a, b in deal_set.repeated_deals() if b < section.deals]
    if played:
        shown = ", ".join(f"{b} repeats {a}" for a, b in played[:5])
        more = f" (and {len(played) - 5} more)" if len(played) > 5 else ""
        config._warnings.append(
            f"{section.deals_file}: deals that deal the same cards as an earlier one: {shown}"
            f"{more}; a verdict's error rates and the report's intervals count them as"
            " independent deals, so they overstate the evidence (docs/deal-sets.md)")


def _check_format(config: TournamentConfig, source: str) -> None:
    section = config.tournament
    labels = config.labels()
    if section.format == "round_robin":
        if section.candidates is not None:
            raise ConfigError(
                f"{source}: tournament.candidates applies only to format = \"gauntlet\""
                " (allowed formats: round_robin, gauntlet)"
            )
        return
    if not section.candidates:
        raise ConfigError(
            f"{source}: tournament.format = \"gauntlet\" needs tournament.candidates, a list of"
            f" one or more strategy labels: {', '.join(labels)}"
        )
    if len(set(section.candidates)) != len(section.candidates):
        twice = next(label for label in section.candidates
                     if section.candidates.count(label) > 1)
        raise ConfigError(f"{source}: tournament.candidates: {twice!r} is given twice")
    for label in section.candidates:
        if label not in labels:
            raise ConfigError(
                f"{source}: tournament.candidates: {label!r} is not an entrant"
                f"{_closest_label(label, labels)}; strategy labels: {', '.join(labels)}"
                " (a label = \"...\" of your own names an entrant more simply)"
            )
    if set(labels) <= set(section.candidates):
        raise ConfigError(
            f"{source}: tournament.candidates names every entrant; a gauntlet needs at least"
            " one baseline (or use format = \"round_robin\")"
        )


def _check_sprt(config: TournamentConfig, game: Game, source: str) -> None:
    if config.sprt is None:
        return
    problems = []
    try:
        settings = config.sprt.settings(f"{source}: sprt")
    except ConfigError as exc:
        problems.append(str(exc))
    if len(config.strategies) != 2:
        problems.append(
            f"{source}: [sprt] compares two entrants, A (the first) and B (the second);"
            f" this config has {len(config.strategies)}"
        )
    if config.tournament.format != "round_robin":
        problems.append(f"{source}: [sprt] plays one line-up; leave tournament.format out")
    if len(config.table_sizes()) != 1:
        problems.append(f"{source}: [sprt] plays one table size; give tournament.players once")
    elif len(config.strategies) == 2 and not config.a_against_b():
        problems.append(f"{source}: [sprt] compares A and B, so each partnership is of one of"
                        " them (A A against B B); leave tournament.partnerships out")
    if problems:
        raise ConfigError("\n".join(problems))
    model = duel_model(config, game)
    try:
        settings.check_model(model, f"{source}: sprt")
    except SprtError as exc:
        raise ConfigError(str(exc)) from None
    if not needs_spread(model, settings):  # known before a card: said before a card
        key = "tournament.deals" if config.tournament.deals_file is None else (
            "tournament.deals (at most the deals of tournament.deals_file: a larger deal set"
            " raises it)")
        warning = short_maximum_warning(model, settings, config.tournament.deals,
                                        f"{source}: {key}")
        if warning is not None:
            config._warnings.append(warning)


def duel_model(config: TournamentConfig, game: Game | None = None) -> PairModel:
    """The statistical model of a duel's pairs: which games, how many seats A holds, at
    which table size (a Knock-out run at several sizes has line-ups of each: its pair is
    a deal index's games at every size)."""
    game = game or config.game()
    first = config.labels()[0]
    played = [config.lineups()[p] for p in config.played_pairings()]
    seats = [lineup.count(first) for lineup in played]
    seatings = [len(seatings_of(lineup, game.duplicate_rotations)) for lineup in played]
    return model_for(game.name, [len(lineup) for lineup in played], seats, seatings,
                     per=pair_unit(game.name, game.variant.as_dict()),
                     largest_net=game.variant.largest_net())


def _closest_label(given: str, labels: Sequence[str]) -> str:
    """" (did you mean ...?)" for the label ``given`` was meant to be: a label made from
    parameters spells their values as Python does (``pimc(incumbent=False, worlds=2)``),
    so ``pimc(incumbent=false)`` written as TOML spells it matched nothing and got no
    hint (a probe)."""
    python_words = re.sub(r"\b(true|false)\b", lambda m: m[1].capitalize(), given)
    return suggestion(closest(python_words, labels) or next(
        (label for label in labels if label.startswith(python_words.rstrip(")"))), None))


def _describe_validation(exc: ValidationError, source: str) -> str:
    """One line per problem, naming the dotted key and what is allowed.

    A value that fits no member of a union type (``memory_limit``: a string or a
    number) gets one line for its key, not one per member.
    """
    lines = []
    reported: set[str] = set()
    errors = exc.errors()
    misspelt = {(*error["loc"][:-1], closest(error["loc"][-1],
                                                _allowed_keys(error["loc"][:-1])))
                for error in errors if error["type"] == "extra_forbidden"}
    # the key each unknown key was meant to be: a missing key so named is the same slip,
    # said once ([tournment] gave "missing key 'tournament'" on a line of its own)
    for error in errors:
        loc = error["loc"]
        if error["type"] == "missing" and tuple(loc) in misspelt:
            continue
        if error["type"] not in ("extra_forbidden", "missing"):  # those name a key themselves
            loc = _key_path(loc)
        key = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                      for part in loc).lstrip(".")  # strategies[0].label, as elsewhere
        if key in reported:
            continue
        reported.add(key)
        if error["type"] == "extra_forbidden":
            parent = error["loc"][:-1]
            allowed = _allowed_keys(parent)
            hint = (did_you_mean(error["loc"][-1], allowed)
                    or _belongs_elsewhere(parent, str(error["loc"][-1])))
            lines.append(f"{source}: unknown key {key!r}{hint}; allowed keys here:"
                         f" {', '.join(allowed)}")
        elif error["type"] == "missing":
            lines.append(f"{source}: missing key {key!r}{_missing_hint(key)}")
        elif error["type"] == "literal_error":  # one of a few words
            expected = error["ctx"]["expected"]
            given = error.get("input")
            hint = (did_you_mean(given, re.findall(r"'([^'\\]*)'", expected))
                    if isinstance(given, str) else "")
            lines.append(f"{source}: {key} = {as_toml(given)}: not allowed{hint};"
                         f" allowed values: {_as_toml_words(expected)}")
        elif error["type"] in _PLAIN_WORDS:  # pydantic's own words name its types
            given = "" if error["type"] == "too_short" else f" = {as_toml(error.get('input'))}"
            lines.append(f"{source}: {key}{given}: {_PLAIN_WORDS[error['type']](error, key)}")
        else:
            message = error["msg"].removeprefix("Value error, ")
            lines.append(f"{source}: {key} = {as_toml(error.get('input'))}: {message}")
    return "\n".join(lines)


def _as_toml_words(expected: str) -> str:
    """Pydantic's ``'round_robin' or 'gauntlet'`` as a config spells its words,
    ``"round_robin" or "gauntlet"``: what the reader may paste back into the file."""
    return re.sub(r"'([^'\\]*)'", r'"\1"', expected)


MISSING_HINTS = {
    "tournament.clock.base": f" (seconds on each seat's clock, {CLOCK_BASES[0]:g}.."
    f"{CLOCK_BASES[1]:,.0f}; e.g. clock = {{ base = 60, increment = 1 }})",
}
"""What a required key of a table takes, said where it is missing: "missing key
'tournament.clock.base'" alone left the reader to find its range in the docs (a probe)."""


ADD_AN_ENTRANT = "a tournament compares two entrants or more: add a [[strategies]] entry"
"""What a config with fewer than two entrants is told, whether its list is short or missing."""


def _missing_hint(key: str) -> str:
    """``MISSING_HINTS``' words for ``key``, or what the game, the entrants and an
    entrant's ``use`` take: "missing key 'strategies'" alone was said of a config with no
    [[strategies]], where an empty list said to add entries, and a missing game or ``use``
    named no allowed value (a probe)."""
    if key in MISSING_HINTS:
        return MISSING_HINTS[key]
    if key == "tournament.game":
        return f"; allowed values: {', '.join(sorted(GAMES))}"
    if key == "strategies":
        return f"; at least 2 are needed ({ADD_AN_ENTRANT}, use = \"...\", for each)"
    if re.fullmatch(r"strategies\[\d+\]\.use", key):
        return f"; {strategy_choices()}"
    return ""


def _table_keys(error: Any) -> str:
    """"; its keys: base, increment, per": the keys of the table a value stands in for."""
    try:
        keys = _allowed_keys(_key_path(error["loc"]))
    except (KeyError, AttributeError):
        return ""
    return f"; its keys: {', '.join(keys)}" if keys else ""


_PLAIN_WORDS: dict[str, Callable[[Any, str], str]] = {
    "model_type": lambda error, key: (
        f"not a table ({_kind(error.get('input'))}); write it as a section, [{key}], or"
        f" inline: {key.rsplit('.', 1)[-1]} = {{ ... }}{_table_keys(error)}"),
    "dict_type": lambda error, key: f"not a table ({_kind(error.get('input'))})",
    "too_short": lambda error, key: (
        f"{error['ctx'].get('actual_length')} given; at least"
        f" {error['ctx'].get('min_length')} are needed"
        + (f" ({ADD_AN_ENTRANT})" if key == "strategies" else "")),
    "string_type": lambda error, key: (
        f"not a text ({_kind(error.get('input'))}); allowed values: text in quotes"),
    "list_type": lambda error, key: (
        f"not a list ({_kind(error.get('input'))}); allowed values: a list in brackets"
        + (f", e.g. {key.rsplit('.', 1)[-1]} = [{as_toml(error['input'])}]"
           if isinstance(error.get("input"), str) else "")),
    "int_type": lambda error, key: (
        f"not a whole number ({_kind(error.get('input'))}); allowed values: whole numbers"),
    "float_type": lambda error, key: (
        f"not a number ({_kind(error.get('input'))}); allowed values: numbers"),
    "bool_type": lambda error, key: (
        f"not true or false ({_kind(error.get('input'))}); allowed values: true, false"),
}
"""pydantic's errors a config meets, in the words the rest of this module uses (its own
say "Input should be a valid dictionary or instance of ClockSection")."""


def _key_path(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """The config key of an error's location: pydantic appends the union member it tried
    (``tournament.memory_limit.str``), which is no key of the file."""
    model: type[BaseModel] | None = TournamentConfig
    path: list[Any] = []
    mapping = False
    """The last key was a table of free keys (``env``): the next part is one of them."""
    for part in loc:
        if isinstance(part, int) or mapping:
            path.append(part)
            mapping = False
            continue
        if model is None or str(part) not in model.model_fields:
            break
        path.append(part)
        annotation = model.model_fields[str(part)].annotation
        model = _model_of(annotation)
        mapping = model is None and _is_mapping(annotation)
    return tuple(path) or loc


def _is_mapping(annotation: Any) -> bool:
    """A ``dict[str, ...]`` field, optional or not (``env``): its keys are the user's."""
    return any(getattr(candidate, "__origin__", candidate) is dict
               for candidate in (annotation, *getattr(annotation, "__args__", ())))


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The config section model a field holds (itself, or in a list or optional), if any."""
    for candidate in (annotation, *getattr(annotation, "__args__", ())):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


RUN_OPTIONS = ("workers", "address", "out", "report", "resume")
"""Command-line options of ``whist-sim run`` that a newcomer writes into a config."""


def _variant_keys() -> set[str]:
    """Every game's variant keys: what a ``[variant]`` table may hold in some game."""
    return {field.name for game in GAMES.values()
            for field in dataclasses.fields(game.variant_type)}


def _belongs_elsewhere(parent: tuple[Any, ...], key: str) -> str:
    """" (it belongs ...)" for a key that is right but in the wrong place: a rule
    (``trumps``) under [tournament], a tournament key or a strategy's parameter in a
    [[strategies]] entry, a command-line option in the file. Each was refused as an
    unknown key with the allowed keys of the wrong section, no word on where it goes
    (a newcomer's probe); empty when the key is known nowhere."""
    section = next((str(part) for part in parent if not isinstance(part, int)), "")
    if key in RUN_OPTIONS:
        return f" (--{key} is an option of the command, not a config key)"
    if section != "variant" and key in _variant_keys():
        return f" ({key!r} is a rule of the game: it belongs under [variant])"
    if section != "tournament" and key in TournamentSection.model_fields:
        return f" ({key!r} belongs under [tournament])"
    if section == "tournament" and key in StrategyEntry.model_fields:
        return f" ({key!r} belongs in each [[strategies]] entry)"
    if section == "strategies":
        return (f" (if {key!r} is a parameter of the strategy, write it as"
                f" params = {{ {key} = ... }})")
    return ""


def _misplaced_variant_keys(variant: Mapping[str, Any]) -> str:
    """What to do with [variant] keys that are [tournament] keys (``deals``), said after
    the variant's own refusal, which names only the allowed rule keys."""
    moved = [key for key in variant if key in TournamentSection.model_fields
             and key not in _variant_keys()]
    if not moved:
        return ""
    verb = "belongs" if len(moved) == 1 else "belong"
    return f"; {', '.join(map(repr, moved))} {verb} under [tournament], not [variant]"


def _allowed_keys(parent: tuple[Any, ...]) -> list[str]:
    model: type[BaseModel] = TournamentConfig
    for part in parent:
        if isinstance(part, int):
            continue
        annotation = model.model_fields[str(part)].annotation
        inner = getattr(annotation, "__args__", (annotation,))[0]
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
        elif isinstance(inner, type) and issubclass(inner, BaseModel):
            model = inner
    return list(model.model_fields)
