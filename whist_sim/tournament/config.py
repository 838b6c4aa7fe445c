"""Tournament configs: TOML files validated before any work starts.

Validation is pydantic's (unknown keys and wrong types reported per key), and
then the game and strategies are built once in the driver, so a bad variant
value, an unknown strategy or a wrong number of players fails here, naming the
file, the key and the allowed values, instead of inside a Ray worker.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from whist_sim.games import GAMES, make_game
from whist_sim.games.base import Game, WhistSimError
from whist_sim.play import ON_ERROR
from whist_sim.strategy import StrategyError, build_strategy, strategy_class, strategy_version
from whist_sim.tournament.schedule import lineups, partnership_lineups


class ConfigError(WhistSimError, ValueError):
    """A config that cannot run; the message names the file, the key and what is allowed."""


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
    deals: int = Field(gt=0, description="deal seeds per line-up; each is played in every rotation")
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

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in GAMES:
            raise ValueError(f"unknown game {value!r}; allowed values: {', '.join(sorted(GAMES))}")
        return value

    @field_validator("deals_per_task")
    @classmethod
    def _positive_task(cls, value: int | str) -> int | str:
        if isinstance(value, int) and value <= 0:
            raise ValueError("must be a positive whole number or 'auto'")
        return value


class TournamentConfig(BaseModel):
    """A whole config file: ``[tournament]``, ``[variant]`` and ``[[strategies]]``."""

    model_config = ConfigDict(extra="forbid")

    tournament: TournamentSection
    variant: dict[str, Any] = Field(default_factory=dict)
    strategies: list[StrategyEntry] = Field(min_length=2)

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
        """Who sits where: combinations of entrants at each table size, or partnerships."""
        games = self.games()
        if games[0].partnerships:
            return partnership_lineups(self.partnership_pairs())
        return [lineup for game in games for lineup in lineups(self.labels(), game.players)]

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
