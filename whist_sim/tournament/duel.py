"""A duel: "is A stronger than B?" as a two-entrant tournament with a verdict.

``duel_config`` turns the command line's words (two strategies, a game, variant
settings, an SPRT) into the same ``TournamentConfig`` a file would give, so a
duel is validated, played, stored, resumed and reported like any run, and a
config file with a ``[sprt]`` section does exactly what ``whist-sim duel`` does.
``run_duel`` is the Python twin of the command.

Entrants are written as in results: ``heuristic``, ``pimc(worlds=40)``,
``mypackage.bots:MyBot(depth=3)``; parameter values are TOML values (numbers,
``true``, quoted strings; a bare word is taken as a string).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whist_sim.tournament.config import (
    MAX_DEALS,
    StrategyEntry,
    TournamentConfig,
    load_config,
    validate_config,
    whole_in,
)
from whist_sim.tournament.entrant_text import (  # noqa: F401 (parse_* are duel's API)
    ConfigError,
    parse_entrant,
    parse_settings,
    parse_value,
)
from whist_sim.tournament.runner import RunSummary, run_tournament

SEQUENTIAL_MAX_DEALS = 20_000
"""Default cap on deal indices (duplicate pairs) for a sequential test."""

FIXED_DEALS = 1_000
"""Default deal indices for a duel without ``--sprt``."""


def _checked_cap(max_deals: Any) -> int:
    """``max_deals`` if it is a number of deals a run may play; else a ConfigError naming
    it as the duel's caller gave it (it becomes ``tournament.deals``, a key no duel's user
    wrote)."""
    try:
        return whole_in(max_deals, 1, MAX_DEALS)
    except ValueError as exc:
        raise ConfigError(f"duel: max_deals = {max_deals!r}: {exc}") from None


def duel_config(
    a: str,
    b: str,
    game: str,
    *,
    variant: Mapping[str, Any] | None = None,
    sprt: Mapping[str, Any] | None = None,
    max_deals: int | None = None,
    players: int | None = None,
    seed: int = 0,
    time_limit: float | None = 10.0,
    deals_per_task: int | str = "auto",
) -> TournamentConfig:
    """The config of a duel of ``a`` against ``b`` (strategy texts as in :func:`parse_entrant`).

    ``sprt``: the ``[sprt]`` table (elo0, elo1 or net0, net1, alpha, beta, batch),
    or None for a fixed number of deals. ``max_deals``: the cap on deal indices
    (default SEQUENTIAL_MAX_DEALS with an SPRT, FIXED_DEALS without).
    """
    _check_two_texts(a, b, game)
    first, second = parse_entrant(a, "A"), parse_entrant(b, "B")
    entries = [first, second]
    name = StrategyEntry(**first).name
    if name == StrategyEntry(**second).name:  # a self-duel: mirrored pairs (docs/duels.md)
        first["label"], second["label"] = f"{name} (A)", f"{name} (B)"
    deals = ((SEQUENTIAL_MAX_DEALS if sprt is not None else FIXED_DEALS) if max_deals is None
             else _checked_cap(max_deals))  # 0 is refused with the range, not the default
    tournament: dict[str, Any] = {
        "game": game, "deals": deals, "seed": seed, "deals_per_task": deals_per_task,
        "time_limit": time_limit,
    }
    if players is not None:
        tournament["players"] = players
    if variant is not None and not isinstance(variant, Mapping):
        raise ConfigError(f"duel: variant = {variant!r} is not a table; give a mapping such as"
                          " {'count': 'all'} (or parse_settings(['count=all']))")
    raw: dict[str, Any] = {"tournament": tournament, "variant": dict(variant or {}),
                           "strategies": entries}
    if sprt is not None:
        if not isinstance(sprt, Mapping):
            raise ConfigError(f"duel: sprt = {sprt!r} is not a table; give a mapping such as"
                              " {'elo0': 0, 'elo1': 10}")
        raw["sprt"] = dict(sprt)
    return validate_config(raw, "duel")


def _check_two_texts(a: Any, b: Any, game: Any) -> None:
    """Refuse both strategies given as one list in ``a`` (``duel_config(["heuristic",
    "random"], None, game)``), naming the call that was meant; anything else that is not a
    text ``parse_entrant`` refuses naming A or B."""
    if isinstance(a, list | tuple) and len(a) == 2 and b is None:
        first, second = a
        raise ConfigError(
            f"duel: a = {a!r} is a {type(a).__name__} and b = None; give the two strategies"
            f" as two texts: duel_config({first!r}, {second!r}, {game!r})"
        )


def run_duel(
    config: TournamentConfig | Path | str,
    out: Path | str,
    *,
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
) -> RunSummary:
    """Play the duel ``config`` (from :func:`duel_config`, or the path of a config file of
    two entrants) into ``out``; the summary holds the verdict (``summary.verdict`` and
    ``summary.verdict_text()``). A config of more entrants is refused: played as given it
    was a whole round robin, with no verdict, under the name of a duel."""
    where = "config"
    if isinstance(config, str | os.PathLike):
        where, config = str(config), load_config(config)
    if isinstance(config, TournamentConfig):  # anything else run_tournament refuses
        _check_two_entrants(config, where)
    return run_tournament(config, out, workers=workers, address=address, progress=progress)


def _check_two_entrants(config: TournamentConfig, where: str) -> None:
    """A duel is A against B: refuse a config of any other number of entrants."""
    labels = config.labels()
    if len(labels) != 2:
        raise ConfigError(
            f"run_duel: {where} has {len(labels)} entrants ({', '.join(labels)}); a duel is"
            " of two, A and B: make one with duel_config(a, b, game), or play every"
            " line-up of these with whist_sim.tournament.runner.run_tournament"
        )
