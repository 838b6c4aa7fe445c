"""Bots in any language, each in its own process: a line-oriented JSON protocol.

The engine talks to a bot over the bot's stdin and stdout, one JSON object per line
(docs/protocol.md), as chess GUIs run UCI engines: the bot can be written in any
language, and, running in a process of its own, it can read nothing of the deal but
what the engine sends it, which is built from the seat's view alone.

- ``notation``: one view field <-> JSON (cards as "QS", sets as lists, none as null);
- ``views``: each game's view <-> JSON in notation (``encode_view``, ``decode_view``);
- ``messages``: the messages, built and read, with errors that say what was expected;
- ``process_strategy``: ``ProcessStrategy``, the engine's side, a strategy object;
- ``bot_process``: one bot process and its pipes, never waited on without a deadline;
- ``errors``: ``ProtocolError`` and the ``BotError`` kinds, which name the entrant;
- ``client``: ``run_bot``, which puts any Python strategy behind the protocol
  (``python -m whist_sim.protocol SPEC`` for a registered one);
- ``announce``: the calls around each deal that give bots the match state and results;
- ``seeding``: a seat's random generator across the boundary;
- ``match_info``: the match state a ``deal`` message carries.
"""

from whist_sim.protocol.errors import (
    BotCrashed,
    BotError,
    BotHandshakeError,
    BotHandshakeTimeout,
    BotReplyError,
    BotStartError,
    BotTimeout,
    BotUnsupportedGame,
    ProtocolError,
)
from whist_sim.protocol.match_info import match_summary
from whist_sim.protocol.messages import PROTOCOL_VERSION
from whist_sim.protocol.process_strategy import ProcessStrategy
from whist_sim.protocol.views import decode_view, encode_view

__all__ = [
    "PROTOCOL_VERSION",
    "BotCrashed",
    "BotError",
    "BotHandshakeError",
    "BotHandshakeTimeout",
    "BotReplyError",
    "BotStartError",
    "BotTimeout",
    "BotUnsupportedGame",
    "ProcessStrategy",
    "ProtocolError",
    "decode_view",
    "encode_view",
    "match_summary",
]
