"""Tournament configs: TOML files validated before any work starts.

Validation is pydantic's (unknown keys and wrong types reported per key), and
then the game and strategies are built once in the driver, so a bad variant
value, an unknown strategy or a wrong number of players fails here, naming the
file, the key and the allowed values, instead of inside a Ray worker.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from whist_sim.deal_sets import DealSet, DealSetError, load_deal_set
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import Game, WhistSimError
from whist_sim.inference import PairModel, SprtError, SprtSettings, model_for
from whist_sim.play import ON_ERROR
from whist_sim.strategy import StrategyError, build_strategy, strategy_class, strategy_version
from whist_sim.tournament.schedule import lineups, partnership_lineups
from whist_sim.tournament.schedule import seatings as seatings_of


class ConfigError(WhistSimError, ValueError):
    """A config that cannot run; the message names the file, the key and what is allowed."""


MAX_DEALS = 10**9
"""A sanity cap on ``deals``: far beyond any run, small enough to plan."""


SIZE_UNITS = {"b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
              "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
"""Units a size may be written in: "600 MiB", "2 GiB", "4MB"; a bare number is bytes."""

MEMORY_LIMITS = (256 << 20, 1 << 40)
"""tournament.memory_limit: 256 MiB (a worker's process with its imports) to 1 TiB."""

OUTPUT_LIMITS = (0, 1 << 30)
"""tournament.output_limit: 0 (keep nothing) to 1 GiB per entrant."""


def parse_size(value: str | int) -> int:
    """Bytes of a size written as a number of bytes or with a unit ("600 MiB")."""
    if isinstance(value, bool):
        raise ValueError("must be a size such as \"2 GiB\" or a number of bytes")
    if isinstance(value, int):
        return value
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", value)
    unit = match[2].lower() if match else ""
    if match is None or (unit and unit not in SIZE_UNITS):
        raise ValueError(
            "must be a size such as \"2 GiB\" or a number of bytes (units: B, KiB, MiB, GiB,"
            " TiB, KB, MB, GB, TB)"
        )
    return int(float(match[1]) * SIZE_UNITS[unit or "b"])


def _checked_size(value: str | int, bounds: tuple[int, int]) -> int:
    size = parse_size(value)
    low, high = bounds
    if not low <= size <= high:
        raise ValueError(f"must be between {_shown(low)} and {_shown(high)}")
    return size


def _shown(size: int) -> str:
    for unit, scale in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


class StrategyEntry(BaseModel):
    """One entrant: a label for results, the strategy to use, and its parameters."""

    model_config = ConfigDict(extra="forbid")

    use: str = Field(description="entry-point name (e.g. 'heuristic') or 'package.module:Class'")
    label: str | None = Field(
        None, description="name in results and reports; defaults to `use` and its parameters"
    )
    params: dict[str, Any] = Field(default_factory=dict)

    @property
    def name(self) -> str:
        """The label, else ``use`` with its parameters: ``pimc(worlds=40)``.

        So two budgets of one strategy are two entries in results and reports
        without anyone having to name them.
        """
        if self.label:
            return self.label
        if not self.params:
            return self.use
        shown = ", ".join(f"{key}={value!r}" for key, value in sorted(self.params.items()))
        return f"{self.use}({shown})"


class TournamentSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    deals: int | None = Field(
        None, gt=0, le=MAX_DEALS,
        description="deal indices per line-up; each is played in every rotation"
        " (default with deals_file: every deal of the file)",
    )
    deals_file: str | None = Field(
        None, description="a deal set (Parquet) to play instead of seeded deals"
    )
    seed: int = Field(0, ge=0, lt=2**63)
    players: int | list[int] | None = Field(
        None, description="table size (Knock-out Whist: 2..7, or a list of sizes)"
    )
    deals_per_task: int | Literal["auto"] = "auto"
    time_limit: float | None = Field(10.0, gt=0, description="seconds per decision; none = off")
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
        None, ge=1, le=10**9, description="forfeits after which an entrant sits out the run"
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
            raise ValueError(f"unknown game {value!r}; allowed values: {', '.join(sorted(GAMES))}")
        return value

    @field_validator("memory_limit")
    @classmethod
    def _memory_size(cls, value: str | int) -> str | int:
        _checked_size(value, MEMORY_LIMITS)
        return value

    @field_validator("output_limit")
    @classmethod
    def _output_size(cls, value: str | int) -> str | int:
        _checked_size(value, OUTPUT_LIMITS)
        return value

    @property
    def memory_limit_bytes(self) -> int:
        return parse_size(self.memory_limit)

    @property
    def output_limit_bytes(self) -> int:
        return parse_size(self.output_limit)

    @field_validator("deals_per_task")
    @classmethod
    def _positive_task(cls, value: int | str) -> int | str:
        if isinstance(value, int) and value <= 0:
            raise ValueError("must be a positive whole number or 'auto'")
        return value


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
    batch: int = Field(20, gt=0, le=100_000, description="duplicate pairs between two looks")

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
        game = self.tournament.game
        return {e.name: strategy_version(strategy_class(e.use, game)) for e in self.strategies}


def load_config(path: Path | str, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read, validate and dry-build a config (game, variant, every strategy)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    for dotted, value in (overrides or {}).items():
        section, _, key = dotted.partition(".")
        raw.setdefault(section, {})[key] = value
    tournament = raw.get("tournament")
    if isinstance(tournament, dict) and isinstance(tournament.get("deals_file"), str):
        # a deal set named in a config file is found beside that file, wherever one runs it
        tournament["deals_file"] = str(path.parent / Path(tournament["deals_file"]).expanduser())
    return validate_config(raw, str(path))


def validate_config(raw: Mapping[str, Any], source: str = "<config>") -> TournamentConfig:
    try:
        config = TournamentConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_describe_validation(exc, source)) from None
    sizes = config.table_sizes()
    if len(set(sizes)) != len(sizes) or (len(sizes) == 0):
        raise ConfigError(f"{source}: tournament.players = {sizes!r}: list each table size once")
    try:
        games = config.games(where=f"{source}: variant")
        game = games[0]
    except WhistSimError as exc:
        raise ConfigError(f"{source}: {exc}" if source not in str(exc) else str(exc)) from None
    labels = config.labels()
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise ConfigError(
            f"{source}: strategies: label {duplicates[0]!r} is used twice; give each entry"
            " a distinct `label`"
        )
    for i, entry in enumerate(config.strategies):
        try:
            build_strategy(entry.use, entry.params, game.name)
        except StrategyError as exc:
            raise ConfigError(f"{source}: strategies[{i}] ({entry.name}): {exc}") from None
    _check_partnerships(config, game, source)
    _load_deals(config, games, source)
    _check_format(config, source)
    _check_sprt(config, game, source)
    if config.tournament.on_error not in ON_ERROR:  # pragma: no cover - Literal guards it
        raise ConfigError(f"{source}: tournament.on_error must be one of {ON_ERROR}")
    return config


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
    if len(config.partnership_pairs()) < 2:
        raise ConfigError(
            f"{source}: tournament.partnerships: a round robin needs at least two partnerships"
        )


def _load_deals(config: TournamentConfig, games: list[Game], source: str) -> None:
    """Read and check the deal set, if any, and settle how many deal indices are played."""
    section = config.tournament
    if section.deals_file is None:
        if section.deals is None:
            raise ConfigError(f"{source}: missing key 'tournament.deals' (or give deals_file)")
        return
    if len(games) > 1:
        raise ConfigError(
            f"{source}: tournament.deals_file holds deals for one table size;"
            f" tournament.players = {section.players!r} lists several"
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
    for label in section.candidates:
        if label not in labels:
            raise ConfigError(
                f"{source}: tournament.candidates: {label!r} is not an entrant;"
                f" strategy labels: {', '.join(labels)}"
            )
    if set(labels) <= set(section.candidates):
        raise ConfigError(
            f"{source}: tournament.candidates names every entrant; a gauntlet needs at least"
            " one baseline (or use format = \"round_robin\")"
        )


def _check_sprt(config: TournamentConfig, game: Game, source: str) -> None:
    if config.sprt is None:
        return
    settings = config.sprt.settings(f"{source}: sprt")
    if len(config.strategies) != 2:
        raise ConfigError(
            f"{source}: [sprt] compares two entrants, A (the first) and B (the second);"
            f" this config has {len(config.strategies)}"
        )
    if config.tournament.format != "round_robin":
        raise ConfigError(f"{source}: [sprt] plays one line-up; leave tournament.format out")
    if len(config.table_sizes()) != 1:
        raise ConfigError(f"{source}: [sprt] plays one table size; give tournament.players once")
    try:
        settings.check_model(duel_model(config, game), f"{source}: sprt")
    except SprtError as exc:
        raise ConfigError(str(exc)) from None


def duel_model(config: TournamentConfig, game: Game | None = None) -> PairModel:
    """The statistical model of a duel's pairs: which games, how many seats A holds."""
    game = game or config.game()
    first = config.labels()[0]
    played = [config.lineups()[p] for p in config.played_pairings()]
    seats = [lineup.count(first) for lineup in played]
    seatings = [len(seatings_of(lineup, game.duplicate_rotations)) for lineup in played]
    return model_for(game.name, game.players, seats, seatings)


def _describe_validation(exc: ValidationError, source: str) -> str:
    """One line per problem, naming the dotted key and what is allowed."""
    lines = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            parent = error["loc"][:-1]
            allowed = _allowed_keys(parent)
            lines.append(f"{source}: unknown key {key!r}; allowed keys here: {allowed}")
        elif error["type"] == "missing":
            lines.append(f"{source}: missing key {key!r}")
        else:
            message = error["msg"].removeprefix("Value error, ")
            lines.append(f"{source}: {key} = {error.get('input')!r}: {message}")
    return "\n".join(lines)


def _allowed_keys(parent: tuple[Any, ...]) -> str:
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
    return ", ".join(model.model_fields)
