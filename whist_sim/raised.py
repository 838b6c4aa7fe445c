"""Text of what a strategy raised or returned, made without trusting it.

A strategy is possibly hostile code, and so are the objects it hands back: an exception
whose ``__str__`` raises, or a returned value whose ``__repr__`` does, took a whole run
down with a traceback when a forfeit's reason was formatted (a probe's plug-in raised
such an exception; the run and every entrant's play were lost). The reason is built
here instead, falling back to the type's name.
"""

from __future__ import annotations

import reprlib
import traceback
from typing import Any

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80


def raised_text(exc: BaseException) -> str:
    """``Type: message`` of an exception (``Type`` alone when it has no message); the
    message says it could not be read where ``str()`` of it fails."""
    name = _type_name(exc)
    try:
        message = str(exc)
    except Exception as failure:  # a hostile or broken __str__
        message = f"(its message could not be read: str() raised {_type_name(failure)})"
    return f"{name}: {message}" if message else name


def innermost_frame(exc: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame an exception passed through, if it has a traceback."""
    return traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None


def raised_at(exc: BaseException) -> str:
    """`` (at file:line)`` of ``innermost_frame``, which names the strategy's own line when
    its code raised; empty without a traceback. The same words in process and behind the
    bot protocol (``protocol.client``), so a failure reads alike wherever it played."""
    where = innermost_frame(exc)
    return f" (at {where.filename}:{where.lineno})" if where else ""


def shown(value: Any) -> str:
    """A short ``repr`` of a value a strategy returned, or its type's name where its
    ``repr`` fails."""
    try:
        return _SHORT.repr(value)
    except Exception:  # a hostile or broken __repr__
        return f"a {_type_name(value)} (its repr() failed)"


def _type_name(value: Any) -> str:
    name = getattr(type(value), "__name__", None)
    return name if isinstance(name, str) else "an object"


def one_line(text: str) -> str:
    """``text`` a bot or a strategy sent, as one line: control characters (a newline, a
    carriage return, an escape) shown as escapes, so it cannot forge a line of the
    engine's output nor drive the terminal (a bot's stderr set the window's title and
    reset the screen through an error's quoted lines)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
