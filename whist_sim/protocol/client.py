"""The bot's side for Python: put any whist_sim strategy behind the protocol unchanged.

``run_bot(factory, name, version)`` reads the engine's lines from stdin and answers on
stdout until ``quit`` or the end of stdin. Each ``decide`` is decoded back into the
game's own ``...View`` NamedTuple (``views.decode_view``), so the strategy's
``choose(view, rng)`` gets exactly the object it would get in process, and ``rng`` is
one generator per deal rebuilt from the ``deal`` message (``seeding.rng_from_deal``):
with the engine's ``exact_rng`` it is the very stream the seat would draw in process,
so the same strategy makes the same choices either way.

Protocol lines go out through a copy of the real stdout; everything else the process
prints goes to stderr, at the file descriptor level: a strategy that prints cannot
corrupt the protocol. A strategy that raises is reported with an
``error`` line (the engine forfeits the deal) and the bot carries on with the next.
"""

from __future__ import annotations

import argparse
import operator
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import redirect_stdout
from typing import Any, BinaryIO

from whist_sim.games import GAMES
from whist_sim.games.base import RuleError, WhistSimError
from whist_sim.protocol.errors import ProtocolError
from whist_sim.protocol.messages import (
    ILLEGAL_ACTION,
    MAX_NAME,
    PROTOCOL_VERSION,
    action_message,
    bot_hello_message,
    encode_line,
    error_message,
    one_line,
    parse_version,
    read_message,
)
from whist_sim.protocol.notation import notation_of
from whist_sim.protocol.seeding import rng_from_deal
from whist_sim.protocol.views import decode_view
from whist_sim.raised import raised_at, raised_text, shown
from whist_sim.strategy import build_strategy, resolve_strategy, strategy_version

StrategyFactory = Callable[[str, Mapping[str, Any]], Any]
"""``(game, params) -> strategy``: builds the strategy that plays ``game``."""


def registry_factory(spec: str, fixed: Mapping[str, Any] | None = None) -> StrategyFactory:
    """A factory for the strategy ``spec`` names (an entry-point name or ``module:Class``),
    built exactly as a config builds it (``whist_sim.strategy.build_strategy``).
    ``fixed``: parameters it is always built with (the engine's, if it sends any, are
    added to them)."""

    def build(game: str, params: Mapping[str, Any]) -> Any:
        return build_strategy(spec, {**(fixed or {}), **params}, game)

    build.games = frozenset(getattr(resolve_strategy(spec), "games", GAMES))  # type: ignore[attr-defined]
    return build


class _Bot:
    """Where a bot stands: its strategies (one per game, built on first need) and its deal."""

    def __init__(self, factory: StrategyFactory, name: str, version: str,
                 games: Iterable[str], variants: Mapping[str, Any] | None,
                 out: BinaryIO) -> None:
        self.factory = factory
        self.name = name
        self.version = version
        self.games = frozenset(games)
        self.variants = variants
        self.out = out
        self.params: Mapping[str, Any] = {}
        self.strategies: dict[str, Any] = {}
        self.game: str | None = None
        self.rng: Any = None

    def send(self, message: Mapping[str, Any]) -> None:
        self.out.write(encode_line(message))
        self.out.flush()

    def strategy(self, game: str) -> Any:
        found = self.strategies.get(game)
        if found is None:
            found = self.strategies[game] = self.factory(game, self.params)
        return found

    def on_hello(self, message: Mapping[str, Any]) -> bool:
        major = parse_version(message.get("protocol"), "hello.protocol")[0]
        if major != parse_version(PROTOCOL_VERSION)[0]:
            self.send(error_message(
                f"{self.name} speaks protocol {PROTOCOL_VERSION}, not {message.get('protocol')}"
            ))
            return False
        params = message.get("params") or {}
        if not isinstance(params, dict):
            raise ProtocolError(f"hello has params {params!r}", "an object")
        self.params = params
        game = message.get("game")
        if isinstance(game, str) and game in self.games:
            try:  # refuse bad params now, in the handshake, not at the first decision
                self.strategy(game)
            except Exception as exc:
                reason = f"{BUILD_REFUSED}{game}: {one_line(str(exc))}"
                # the one stderr line an engine reads to refuse the entry as it refuses the
                # same strategy in process, before any deal (a plug-in author's probe: an
                # isolated entry with a bad parameter forfeited every hand instead)
                print(f"{NOT_SERVED}{reason}", file=sys.stderr, flush=True)
                self.send(error_message(reason))
                return False
        self.send(bot_hello_message(self.name, self.version, self.games, self.variants))
        return True

    def on_deal(self, message: Mapping[str, Any]) -> None:
        game = message.get("game")
        if game not in self.games:
            raise ProtocolError(f"deal is for game {game!r}", f"one of {sorted(self.games)}")
        self.game = game
        self.rng = rng_from_deal(message)

    def on_decide(self, message: Mapping[str, Any]) -> None:
        if self.game is None:
            raise ProtocolError("decide came before any deal", "a deal message first")
        view = decode_view(self.game, message)
        try:
            with redirect_stdout(sys.stderr):
                action = self.strategy(self.game).choose(view, self.rng)
        except RuleError as exc:  # the rules refuse what it chose (a policy's masked
            # action): the reply says all; a traceback of whist_sim's own refusal, added to
            # the forfeit as the bot's stderr, said it again in lines of library code
            self.send(error_message(f"{ILLEGAL_ACTION}{exc}"))  # whist_sim's own refusal
            return
        except Exception as exc:  # a failure in the strategy's code: where it was helps
            traceback.print_exc(file=sys.stderr)  # the whole traceback, in its stderr log
            self.send(error_message(f"strategy raised {raised_text(exc)}{raised_at(exc)}"))
            return
        text = self._action_text(action)
        if text is None:  # refused as the engine refuses it in process, never guessed
            self.send(error_message(
                f"strategy returned {shown(action)}, which is not a {self.game} action: an"
                " action number, a whole number (a bool, a float or None is refused)"))
            return
        self.send(action_message(text, message.get("decision")))

    def _action_text(self, action: Any) -> str | None:
        """The action's name in the notation, or None for anything that is not one of
        the game's action numbers. A bool was sent as the card it indexes (True: 3S), so
        a strategy the engine refuses in process played on when isolated; a float or None
        failed inside the notation with a message about tuple indices."""
        if isinstance(action, bool):
            return None
        try:
            number = operator.index(action)
            return notation_of(self.game).action_name(number)
        except (TypeError, ValueError, IndexError, KeyError):
            return None


def run_bot(
    strategy_factory: StrategyFactory,
    name: str,
    version: str,
    *,
    games: Iterable[str] | None = None,
    variants: Mapping[str, Mapping[str, Sequence[Any]]] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
) -> int:
    """Serve the protocol until ``quit`` or the end of input; the exit status to return.

    ``games``: the games the bot says it plays (default: the factory's ``games``
    attribute, as ``registry_factory`` sets, else every game). ``variants``: per game,
    per variant key, the values it plays (docs/protocol.md).
    """
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else _protocol_stdout()
    claimed = games if games is not None else getattr(strategy_factory, "games", GAMES)
    bot = _Bot(strategy_factory, name, version, claimed, variants, sink)
    handlers = {"deal": bot.on_deal, "decide": bot.on_decide}
    for line in source:
        if not line.strip():
            continue
        try:
            message = read_message(line, "engine")
            kind = message["type"]
            if kind == "quit":
                return 0
            if kind == "hello":
                if not bot.on_hello(message):
                    return 1
                continue
            handler = handlers.get(kind)
            if handler is not None:  # result, and types of a later MINOR: nothing to do
                handler(message)
        except ProtocolError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            bot.send(error_message(str(exc)))
            return 2
    return 0


def _protocol_stdout() -> BinaryIO:
    """The process's stdout for protocol lines only; file descriptor 1 itself now leads to
    stderr, so nothing else the process prints (a strategy's ``print``, a C extension's
    ``printf``) can land between two protocol lines."""
    sys.stdout.flush()
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return protocol


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m whist_sim.protocol SPEC``: any registered strategy as a bot.

    How an engine runs an installed Python strategy isolated in a process of its own
    without a bot script: the bot's name is ``SPEC`` and its version the strategy's.
    """
    parser = argparse.ArgumentParser(
        prog="python -m whist_sim.protocol",
        description="Serve a whist_sim strategy over the bot protocol on stdin/stdout.",
    )
    parser.add_argument("strategy", help='an entry-point name ("heuristic") or module:Class,'
                        " optionally with parameters: \"pimc(worlds=40)\"")
    parser.add_argument("--name", help="the bot's name in its hello (default: the strategy)")
    parser.add_argument("--version", help="the bot's version (default: the strategy's)")
    args = parser.parse_args(argv)
    from whist_sim.tournament.entrant_text import parse_entrant

    try:
        entrant = parse_entrant(args.strategy, "strategy")
        factory = registry_factory(entrant["use"], entrant["params"])
        version = args.version or strategy_version(resolve_strategy(entrant["use"]))
    except WhistSimError as exc:  # one line, not a traceback: the engine shows it as the cause
        print(f"{NOT_SERVED}{exc}", file=sys.stderr, flush=True)
        return NOT_SERVED_CODE
    # a strategy with many parameters may be named longer than a hello's name may be
    return run_bot(factory, one_line(args.name or args.strategy)[:MAX_NAME], version)


NOT_SERVED = "whist_sim.protocol: cannot serve this strategy: "
"""How ``main`` begins the one stderr line that says why the strategy it was asked to
serve cannot be imported or built; a config check reads it to stop before any deal
(``tournament.config``), as it does for the same strategy played in the workers."""

NOT_SERVED_CODE = 78
"""``main``'s exit code then (sysexits' EX_CONFIG: a configuration error)."""


BUILD_REFUSED = "cannot build the strategy for "
"""How the error reply to a ``hello`` begins when the strategy cannot be built with its
parameters for the hello's game (``NOT_SERVED`` then says it on stderr too)."""


def not_served(error: Any) -> str | None:
    """Why ``python -m whist_sim.protocol`` could not serve an isolated Python strategy,
    or None if the bot failed otherwise (slow, crashed, flaky): a config refuses the first
    before any deal, isolated or not, and only warns of the second. Read from the error
    reply to the hello (``BUILD_REFUSED``: it cannot be built for the hello's game), else
    from the ``NOT_SERVED`` line of a ``BotError``'s stderr tail (it cannot be imported).
    The reply comes first: stderr is drained by a thread, and under load the tail was
    read before the line reached it (a clean clone's suite ran on with a warning)."""
    message = str(getattr(error, "message", ""))
    at = message.find(f"reply to hello: {BUILD_REFUSED}")
    if at >= 0:
        return message[at + len("reply to hello: "):]
    for line in getattr(error, "stderr_tail", ()):
        text = line.strip()
        if text.startswith(NOT_SERVED):
            return text[len(NOT_SERVED):]
    return None
