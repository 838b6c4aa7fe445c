"""What goes wrong between the engine and a bot, as errors that name it.

Two levels, because two different parties read them:

- ``ProtocolError``: a message that breaks the protocol (bad JSON, a field of the
  wrong kind, an action that is not legal). The codecs and message parsers raise it;
  they know the message but not which process sent it.
- ``BotError`` and its kinds: what the engine reports about one bot process. It names
  the entrant, the command that runs it, what happened, what was expected and, where
  the process died, the last lines it wrote to stderr. ``ProcessStrategy`` turns every
  ``ProtocolError`` into one of these.

``BotError`` is a ``SeatFailure``, so the play loop records it as the seat's forfeit
with its own text ("seat 1 (c_bot) replied ... to decide: not JSON; expected ...")
rather than a Python traceback location, which would point into the engine, not the
bot.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from whist_sim.games.base import WhistSimError
from whist_sim.play import SeatFailure
from whist_sim.raised import one_line


class ProtocolError(WhistSimError, ValueError):
    """A message that does not follow the protocol: ``problem`` and what was ``expected``."""

    def __init__(self, problem: str, expected: str) -> None:
        super().__init__(problem + (f"; expected {expected}" if expected else ""))
        self.problem = problem
        self.expected = expected

    def __reduce__(self):  # picklable, so the error survives a trip through Ray
        return (type(self), (self.problem, self.expected))


class BotError(SeatFailure, WhistSimError):
    """A bot process failed: which entrant, run by which command, what and what was expected."""

    def __init__(
        self,
        entrant: str,
        command: Sequence[str],
        message: str,
        expected: str,
        stderr_tail: Sequence[str] = (),
    ) -> None:
        self.entrant = entrant
        self.command = tuple(command)
        self.message = message
        self.expected = expected
        self.stderr_tail = tuple(stderr_tail)
        wanted = f"; expected {expected}" if expected else ""  # none: the bot said why
        text = f"({entrant}) {message}{wanted} [bot command: {shlex.join(command)}]"
        if self.stderr_tail:
            text += "\nlast lines of the bot's stderr:\n" + "\n".join(
                f"  {one_line(line)}" for line in self.stderr_tail  # its escapes shown, not
            )  # sent to the terminal (a bot's set the window's title and reset the screen)
        super().__init__(text)

    def __reduce__(self):
        return (
            type(self),
            (self.entrant, self.command, self.message, self.expected, self.stderr_tail),
        )


class BotStartError(BotError):
    """The command cannot be run: it does not exist, is not executable, or its cwd is missing."""


class BotHandshakeError(BotError):
    """The bot did not complete the handshake: no reply in time, a bad ``hello``, or a
    protocol whose MAJOR version differs from the engine's."""


class BotHandshakeTimeout(BotHandshakeError):
    """No ``hello`` reply within the handshake's time."""


class BotUnsupportedGame(BotHandshakeError):
    """The bot's ``hello`` does not list the game (or the variant) it would be asked to play."""


class BotReplyError(BotError):
    """A reply that breaks the protocol: not JSON, not an ``action``, an illegal action."""


class BotIllegalAction(BotReplyError):
    """The bot's client reported that its strategy chose an action the rules refuse
    (``client.ILLEGAL_ACTION``): in process the same choice is a ``RuleError``, and
    ``whist-sim check`` says "it played an illegal action" of both."""


class IllegalActionReply(ProtocolError):
    """An ``error`` reply that starts with ``client.ILLEGAL_ACTION``."""


class BotCrashed(BotError):
    """The bot's process exited (or closed its stdout) while the engine waited for it."""


class BotTimeout(BotError):
    """The bot took longer than its limit to reply; the engine ended its process."""
