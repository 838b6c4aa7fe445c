"""The protocol's messages: building them, and reading the other side's with errors that say
what was expected.

One JSON object per line, UTF-8, each with a ``"type"`` (docs/protocol.md). The engine
sends ``hello``, ``deal``, ``decide``, ``result`` and ``quit``; a bot sends its
``hello`` reply, one ``action`` per ``decide``, and may send ``log`` lines and an
``error``. Both sides ignore fields they do not know, and message types they do not
know, so a MINOR version can add either without breaking anyone.

The readers here raise ``ProtocolError`` (the problem and what was expected);
``ProcessStrategy`` adds which bot process sent it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from whist_sim import __version__ as ENGINE_VERSION
from whist_sim.cards import NUM_CARDS, SUIT_MASKS
from whist_sim.games.base import DealOutcome
from whist_sim.protocol.errors import ProtocolError
from whist_sim.protocol.notation import ACTIONS, Notation, notation_of
from whist_sim.protocol.views import codec_for_view, encode_view
from whist_sim.raised import one_line
from whist_sim.raised import shown as short_repr
from whist_sim.tricks import follow_suit_reason

PROTOCOL_VERSION = "1.0"
"""MAJOR.MINOR: a MAJOR mismatch is refused at the handshake; a MINOR only adds."""

ENGINE_NAME = "whist_sim"
SHOWN_REPLY = 200
"""Characters of a bad reply quoted in an error (a bot may write megabytes on one line)."""

ACTION_EXAMPLE = '{"type": "action", "action": "QS"}'
HELLO_EXAMPLE = (
    '{"type": "hello", "name": "my_bot", "version": "1", "protocol": "1.0",'
    ' "games": ["german_whist"]}'
)


def parse_version(text: Any, where: str = "protocol") -> tuple[int, int]:
    """``"1.0"`` -> (1, 0), or ProtocolError naming ``where``."""
    parts = text.split(".") if isinstance(text, str) else []
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise ProtocolError(f"{where} is {text!r}", 'a version "MAJOR.MINOR" such as "1.0"')
    return int(parts[0]), int(parts[1])


def encode_line(message: Mapping[str, Any]) -> bytes:
    """One message as the line that carries it: compact JSON, UTF-8, ending in a newline.

    ``allow_nan=False``: NaN and Infinity are not JSON, and a bot's parser may refuse them.
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode() + b"\n"


def shown(line: bytes | str) -> str:
    """A received line as an error quotes it: decoded, cut to ``SHOWN_REPLY`` characters."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    if len(text) > SHOWN_REPLY:
        text = f"{text[:SHOWN_REPLY]}... ({len(text):,} characters)"
    return repr(text)


class _NotJson(Exception):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a line: Python's parser takes them, JSON
    does not, so a bot's ``"decision": NaN`` was read and then refused for answering
    decision nan (a bot probe)."""


def _not_json(constant: str) -> Any:
    raise _NotJson(constant)


_JSON = json.JSONDecoder(parse_constant=_not_json)
"""The one decoder every line goes through (``json.loads`` with a keyword builds one a
line)."""


def read_message(line: bytes | str, sender: str, replying_to: str | None = None) -> dict[str, Any]:
    """The JSON object a line carries, with a string ``type``; ProtocolError otherwise.

    ``sender`` and ``replying_to`` only word the error: "replied '...' to decide: not JSON".
    """
    def where() -> str:  # built only for an error: quoting the line cost on every message
        return f"replied {shown(line)} to {replying_to}" if replying_to else f"sent {shown(line)}"

    example = f", such as {ACTION_EXAMPLE}" if replying_to == "decide" else ""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as bad:  # it read "not JSON", quoting a line that looked
            # like JSON, its bad bytes shown as replacement characters (an adversarial probe)
            raise ProtocolError(
                f"{where()}: not UTF-8 (byte 0x{line[bad.start]:02x} at position {bad.start})",
                f"one JSON object per line, in UTF-8, from the {sender}{example}") from None
    try:
        message = _JSON.decode(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError(
            f"{where()}: not JSON", f"one JSON object per line from the {sender}{example}"
        ) from None
    except _NotJson as constant:  # Python reads NaN and Infinity; JSON has neither
        raise ProtocolError(
            f"{where()}: not JSON ({constant} is not a JSON value)",
            f"one JSON object per line from the {sender}{example}",
        ) from None
    except ValueError:  # JSON, but an integer past Python's 4,300 digits (it was "not JSON")
        raise ProtocolError(
            f"{where()}: a number of more than {sys.get_int_max_str_digits():,} digits,"
            " which the engine does not read",
            f"one JSON object per line from the {sender}{example}",
        ) from None
    except RecursionError:  # arrays in arrays, 100,000 deep: Python's parser gives up
        raise ProtocolError(
            f"{where()}: JSON nested too deep to read",
            f"one flat JSON object per line from the {sender}{example}",
        ) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(
            f"{where()}: not a JSON object with a string \"type\"",
            'an object such as {"type": "...", ...}',
        )
    return message


# -- engine -> bot -------------------------------------------------------------------------


def hello_message(params: Mapping[str, Any], game: str | None = None) -> dict[str, Any]:
    """The engine's first line: its protocol version, the game it will ask for (if it
    knows), and the bot's ``params`` from the config."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "engine": ENGINE_NAME,
        "engine_version": ENGINE_VERSION,
        "game": game,
        "params": dict(params),
    }


def deal_message(
    view: Any,
    *,
    seed: str,
    hand: int | None = None,
    match: Mapping[str, Any] | None = None,
    python_rng: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The start of a deal for the seat ``view`` belongs to: facts from the view only
    (game, variant, table size, seat, dealer), the match state the engine announced,
    and the seat's seed (``whist_sim.protocol.seeding``)."""
    codec = codec_for_view(view)
    message: dict[str, Any] = {
        "type": "deal",
        "game": codec.game,
        "variant": view.variant.as_dict(),
        "players": codec.players(view),
        "seat": view.seat,
        "dealer": view.dealer,
        "hand": hand,
        "match": None if match is None else dict(match),
        "seed": seed,
    }
    if python_rng is not None:
        message["python_rng"] = dict(python_rng)
    return message


def decide_message(view: Any, decision: int, remaining_ms: int | None) -> dict[str, Any]:
    """A request for one action: ``decision`` (0, 1, ... within the deal, for this seat),
    the seat's whole view in notation (``legal`` among it), and the clock."""
    return {
        "type": "decide",
        "decision": decision,
        **encode_view(view),
        "clock": {"remaining_ms": remaining_ms},
    }


def result_message(seat: int, outcome: DealOutcome) -> dict[str, Any]:
    """The end of a deal for ``seat``: its own tricks, score, net and result, and the
    table's (public once the deal is over). A forfeit's error text is not sent: it may
    quote another bot's stderr."""
    return {
        "type": "result",
        "seat": seat,
        "tricks": outcome.tricks[seat],
        "score": outcome.score[seat],
        "net": outcome.net[seat],
        "result": outcome.result[seat],
        "forfeit_seat": outcome.forfeit_seat,
        "table": {
            "tricks": list(outcome.tricks),
            "score": list(outcome.score),
            "net": list(outcome.net),
            "result": list(outcome.result),
        },
    }


def quit_message() -> dict[str, Any]:
    return {"type": "quit"}


# -- bot -> engine ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BotHello:
    """What a bot says of itself in its ``hello`` reply."""

    name: str
    version: str
    protocol: tuple[int, int]
    games: frozenset[str]
    variants: Mapping[str, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)
    """Per game, per variant key, the values the bot plays (keys not listed: any value)."""


MAX_NAME = 100
"""Characters a bot's name may have: it is printed in ``check``'s verdict and in errors,
where a newline in it had forged a line of output ("passed: ...")."""


def read_bot_hello(message: Mapping[str, Any]) -> BotHello:
    """The bot's ``hello`` reply, checked field by field; a MAJOR version other than the
    engine's is refused here."""
    if message.get("type") != "hello":
        raise ProtocolError(
            f"replied a {message.get('type')!r} message to hello", f"a hello reply: {HELLO_EXAMPLE}"
        )
    name, version = message.get("name"), message.get("version")
    if not isinstance(name, str) or not name or len(name) > MAX_NAME or not name.isprintable():
        raise ProtocolError(f"hello has name {name!r}",
                            f"a non-empty line of at most {MAX_NAME} printable characters")
    if (not isinstance(version, str | int) or isinstance(version, bool)
            or not str(version) or len(str(version)) > MAX_NAME or not str(version).isprintable()):
        # checked as the name is: it goes into run.json, the report and the console, where
        # a newline or an escape sequence forged lines ("passed: ...") and cleared screens
        raise ProtocolError(f"hello has version {shown(str(version))}",
                            f'a string such as "1": one line of at most {MAX_NAME} printable'
                            " characters")
    protocol = parse_version(message.get("protocol"), "hello.protocol")
    ours = parse_version(PROTOCOL_VERSION)
    if protocol[0] != ours[0]:
        raise ProtocolError(
            f"the bot speaks protocol {protocol[0]}.{protocol[1]}, a different MAJOR version",
            f"protocol {ours[0]}.x (this engine speaks {PROTOCOL_VERSION})",
        )
    games = message.get("games")
    if (not isinstance(games, list) or not games or len(games) > MAX_GAMES
            or not all(_a_name(g) for g in games)):
        # shown short: a list of 300,000 entries made a 900 KB warning line, and a name
        # with a newline forged a line of the engine's output ("passed: ...")
        raise ProtocolError(
            f"hello has games {short_repr(games)}",
            f"a non-empty list of at most {MAX_GAMES} game names of one line and at most"
            f" {MAX_NAME} characters each, e.g. [\"german_whist\"]")
    return BotHello(name, str(version), protocol, frozenset(games),
                    _read_variants(message.get("variants")))


def _read_variants(value: Any) -> dict[str, dict[str, tuple[Any, ...]]]:
    if value is None:
        return {}
    expected = 'an object {game: {variant key: [values played]}}, e.g. {"solo_whist":' \
               ' {"upcard": [true]}}'
    if not isinstance(value, dict) or not all(_a_name(game) for game in value):
        raise ProtocolError(f"hello has variants {short_repr(value)}", expected)
    variants: dict[str, dict[str, tuple[Any, ...]]] = {}
    for game, keys in value.items():
        if not isinstance(keys, dict) or not all(isinstance(v, list) and len(v) <= MAX_GAMES
                                                 for v in keys.values()):
            raise ProtocolError(f"hello has variants.{one_line(game)} = {short_repr(keys)}",
                                f"{expected}, at most {MAX_GAMES} values a key")
        known = _variant_keys(game)
        unknown = sorted(set(keys) - known) if known else []
        if unknown:  # a misspelt key had been ignored: the bot was sent values it refuses
            raise ProtocolError(
                f"hello has variants.{game}.{unknown[0]}, not a {game} variant key",
                f"{game} variant keys: {', '.join(sorted(known))}")
        variants[game] = {key: tuple(values) for key, values in keys.items()}
    return variants


MAX_GAMES = 64
"""Entries a ``hello``'s game list, or one variant key's list of values, may have."""


def _a_name(value: Any) -> bool:
    """A game's name as a hello may give it: text of one line, at most ``MAX_NAME`` long."""
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and value.isprintable()


def _variant_keys(game: str) -> frozenset[str]:
    """The variant keys of ``game`` (empty for a game whist_sim does not know)."""
    from whist_sim.games import GAMES, make_game

    if game not in GAMES:
        return frozenset()
    return frozenset(make_game(game).variant.as_dict())


def unsupported(hello: BotHello, game: str, variant: Mapping[str, Any] | None) -> str | None:
    """Why the bot cannot play ``game`` under ``variant`` by its own ``hello``, or None."""
    if game not in hello.games:
        return f"it plays {', '.join(sorted(hello.games))}, not {game}"
    for key, values in hello.variants.get(game, {}).items():
        if variant is not None and key in variant and not any(
            _same_value(value, variant[key]) for value in values
        ):
            shown_values = one_line(", ".join(json.dumps(v)[:MAX_NAME] for v in values))
            return (f"it plays {game} with {key} = {shown_values} only, not"
                    f" {json.dumps(variant[key])}")
    return None


def _same_value(listed: Any, value: Any) -> bool:
    """A variant value the bot lists: numbers by value (1 is 1.0), but true is not 1."""
    if isinstance(listed, bool) or isinstance(value, bool):
        return listed is value
    return listed == value


def read_action(message: Mapping[str, Any], view: Any, decision: int) -> int:
    """The action an ``action`` reply names, once it is legal for ``view``; ProtocolError
    naming the action and the legal ones otherwise."""
    notation = notation_of(codec_for_view(view).game)
    legal = view.legal
    legal_names = legal_list(notation, legal)
    expected = f"one of the legal actions: {legal_names}"
    echoed = message.get("decision")
    # an int, and only an int: 1.0 and true had been taken for decision 1
    if echoed is not None and (type(echoed) is not int or echoed != decision):
        raise ProtocolError(f"replied to decision {echoed!r} when decision {decision} was asked",
                            "the decision number of the last decide, or no decision field")
    text = message.get("action")
    if not isinstance(text, str):
        raise ProtocolError(f"sent an action message whose action is {text!r}", expected)
    try:
        action = notation.action_number(text, "the action")
    except ProtocolError:
        raise ProtocolError(
            f"names {text!r}, which is not a {notation.game} action", expected
        ) from None
    if legal >> action & 1:
        return action
    if action < NUM_CARDS and not view.hand >> action & 1:
        raise ProtocolError(f"names a card not held: {text}", expected)
    trick = getattr(view, "trick", ())
    if (action < NUM_CARDS and trick and action // 13 != trick[0] // 13
            and view.hand & SUIT_MASKS[trick[0] // 13]):
        # the rule broken, as the play loop names it for a strategy in process (an
        # isolated strategy's refusal said only "not legal now", a probe found)
        raise ProtocolError(f"names {text} but {follow_suit_reason(view.hand, trick[0] // 13)}"
                            " [rule: follow suit]", expected)
    raise ProtocolError(f"names {text}, which is not legal now (phase {view.phase})", expected)


def legal_list(notation: Notation, legal: int) -> str:
    """The legal actions as an error lists them: "AS KS 2H"."""
    return " ".join(ACTIONS.encode(legal, notation)) or "(none)"


# -- bot side: what the client sends ---------------------------------------------------------


def bot_hello_message(
    name: str,
    version: str,
    games: Iterable[str],
    variants: Mapping[str, Mapping[str, Sequence[Any]]] | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "hello",
        "name": name,
        "version": version,
        "protocol": PROTOCOL_VERSION,
        "games": sorted(games),
    }
    if variants:
        message["variants"] = {g: {k: list(v) for k, v in keys.items()}
                               for g, keys in variants.items()}
    return message


def action_message(action: str, decision: int | None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "action", "action": action}
    if decision is not None:
        message["decision"] = decision
    return message


def log_message(text: str) -> dict[str, Any]:
    return {"type": "log", "text": text}


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}


ILLEGAL_ACTION = "strategy played an illegal action: "
"""How whist_sim's own bot client (``client``) starts an ``error`` reply when its strategy
chose an action the rules refuse (a policy's masked action): the engine reads it as
``BotIllegalAction``, so ``whist-sim check`` says "it played an illegal action" of an
isolated strategy as of one in process, not "it failed"."""
