"""The games whist_sim knows, by the name configs and results use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from whist_sim.games.base import Game, VariantError
from whist_sim.games.german_whist import GermanWhist
from whist_sim.games.knockout_whist import KnockoutWhist
from whist_sim.games.minnesota_whist import MinnesotaWhist
from whist_sim.games.solo_whist import SoloWhist

GAMES: dict[str, type[Game]] = {
    GermanWhist.name: GermanWhist,
    SoloWhist.name: SoloWhist,
    MinnesotaWhist.name: MinnesotaWhist,
    KnockoutWhist.name: KnockoutWhist,
}


def make_game(name: str, variant: Mapping[str, Any] | None = None, players: int | None = None,
              where: str = "variant") -> Game:
    """The game ``name`` under the variant settings given (docs/rules/ keys), validated."""
    try:
        game_type = GAMES[name]
    except KeyError:
        raise VariantError(
            f"unknown game {name!r}; allowed values: {', '.join(sorted(GAMES))}"
        ) from None
    return game_type(game_type.variant_type.from_mapping(variant or {}, where), players)


def as_game(game: Game | str, where: str = "game") -> Game:
    """``game`` itself, or the game of that name under its default variant and table:
    the functions a notebook calls take either. Anything else is refused naming both."""
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return make_game(game)
    raise VariantError(
        f"{where} = {game!r} is not a game; give a name ({', '.join(sorted(GAMES))}) or a"
        " game built with whist_sim.games.make_game(name, variant, players)"
    )
