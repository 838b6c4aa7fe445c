"""Record everything a bot and the engine say to each other over one match: a transcript.

    python examples/bots/record_transcript.py --game solo_whist --seat 1 --seed 7 \\
        -- python examples/bots/python_heuristic_bot.py

The bot plays ``--seat``; whist_sim's ``heuristic`` plays every other seat. Each line
is printed as sent: ``>`` from the engine to the bot, ``<`` from the bot. The
transcripts of docs/protocol.md were recorded with this script. It is also the
smallest complete example of an engine driving a ``ProcessStrategy``: the match
loop announces each deal and its result, and the bot is closed at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from whist_sim.games import make_game
from whist_sim.protocol import ProcessStrategy
from whist_sim.protocol.announce import play_match_announced
from whist_sim.strategy import build_strategy
from whist_sim.tournament.bots import BOT_TIME_SHARE
from whist_sim.tournament.config import TournamentSection


def record(game_name: str, variant: dict, players: int | None, seat: int, seed: int,
           command: list[str], exact_rng: bool) -> str:
    """The transcript of one match of ``game_name`` with the bot in ``seat``."""
    game = make_game(game_name, variant, players)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "transcript.txt"
        # what a tournament at its default limit gives a bot, so the transcript's clock
        # reads what a bot will be sent (10.0 here showed 10000 ms a tournament never sends)
        reply_limit = TournamentSection.model_fields["time_limit"].default * BOT_TIME_SHARE
        bot = ProcessStrategy(command, game=game_name, variant=variant, time_limit=reply_limit,
                              transcript_path=path, exact_rng=exact_rng)
        others = build_strategy("heuristic", {}, game_name)
        seats = [bot if s == seat else others for s in range(game.players)]
        with bot:
            played, _ = play_match_announced(game, seats, seed)
        for deal in played:
            if deal.outcome.forfeit_seat is not None:
                raise SystemExit(f"seat {deal.outcome.forfeit_seat} forfeited: "
                                 f"{deal.outcome.error}")
        lines = path.read_text().splitlines()
    return "\n".join(line.split("] ", 1)[1] for line in lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--variant", default="{}", help="variant keys as a JSON object")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact-rng", action="store_true",
                        help="send python_rng (long): the seat generator's exact state")
    parser.add_argument("command", nargs="+", help="the bot's command, after --")
    args = parser.parse_args()
    sys.stdout.write(record(args.game, json.loads(args.variant), args.players, args.seat,
                            args.seed, args.command, args.exact_rng))


if __name__ == "__main__":
    main()
