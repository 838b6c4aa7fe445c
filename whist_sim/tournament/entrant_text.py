"""Strategies and settings written on a command line: ``pimc(worlds=40)``, ``count=all``.

Kept apart from the config module (pydantic, Ray's runner, about a second to import)
because a bot process reads its own strategy this way (``python -m whist_sim.protocol
"pimc(worlds=40)"``, how ``whist-sim check --isolate`` runs one), and it starts for
every isolated check.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from typing import Any

from whist_sim.games.base import WhistSimError


class ConfigError(WhistSimError, ValueError):
    """A config that cannot run; the message names the file, the key and what is allowed."""


_ENTRANT = re.compile(r"^\s*(?P<use>[^()\s]+)\s*(?:\((?P<params>.*)\))?\s*$")


def parse_entrant(text: str, where: str = "entrant") -> dict[str, Any]:
    """``"pimc(worlds=40)"`` -> ``{"use": "pimc", "params": {"worlds": 40}}``.

    Anything but a text is refused here: ``re`` raised its own TypeError ("expected
    string or bytes-like object, got 'list'") for a duel's two strategies given as one
    list."""
    match = _ENTRANT.match(text) if isinstance(text, str) else None
    if match is None:
        kind = "" if isinstance(text, str) else f" ({type(text).__name__}, not a text)"
        raise ConfigError(
            f"{where}: {text!r}{kind} is not a strategy; write a name, optionally with"
            " parameters: heuristic, pimc(worlds=40), package.module:Class(depth=3)"
        )
    params: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in (match["params"] or "").split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ConfigError(
                f"{where}: {text!r}: parameter {item!r} is not key=value"
                " (e.g. pimc(worlds=40, seed=1))"
            )
        if key in params:
            raise ConfigError(f"{where}: {text!r}: parameter {key!r} is given twice")
        params[key] = parse_value(value.strip())
    return {"use": match["use"], "params": params}


def parse_value(text: str) -> Any:
    """A TOML value (``3``, ``0.5``, ``true``, ``"x"``, ``[1, 2]``), else the text itself."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


SETTING_EXAMPLES = {"--variant": "count=all", "--sprt": "'elo0=0 elo1=10'"}


def _variant_keys(game: str | None) -> list[tuple[str, Any]]:
    """``game``'s variant keys with their defaults, those with a default first (one of them
    is the example); none for a game whist_sim does not know (refused elsewhere)."""
    from whist_sim.games import GAMES, make_game

    if game not in GAMES:
        return []
    defaults = make_game(game, {}, None).variant.as_dict()
    return sorted(defaults.items(), key=lambda item: item[1] is None)
"""An example for each option whose values are key=value texts (a decimal point, not a
comma: --sprt reads commas as separators)."""


def parse_settings(items: Sequence[str], where: str = "--variant",
                   game: str | None = None) -> dict[str, Any]:
    """``["count=all", "open_stock=3"]`` -> ``{"count": "all", "open_stock": 3}``.
    ``game``: the game ``--variant`` sets, whose keys a text without ``=`` is shown."""
    if isinstance(items, str):
        raise ConfigError(f"{where}: give a list of key=value texts, not one text: [{items!r}]")
    settings: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            keys = _variant_keys(game) if where == "--variant" else None
            example = (SETTING_EXAMPLES.get(where, "key=value") if not keys else
                       f"{keys[0][0]}={keys[0][1]}; {game}'s keys:"
                       f" {', '.join(name for name, _ in keys)}")
            raise ConfigError(f"{where} {item!r}: write key=value, e.g. {where} {example}"
                              + (" (decimals with a point: 1.5, not 1,5)"
                                 if where == "--sprt" and item.strip().isdigit() else ""))
        if key in settings:
            raise ConfigError(f"{where} {item!r}: {key!r} is given twice")
        settings[key] = parse_value(value.strip())
    return settings
