"""Number options of the command line that say what went wrong in the user's own terms.

Click's own integer and float types refused ``--workers 2,5`` and ``--time-limit 0,5``
with "Input should be a valid integer, unable to parse string as an integer": nothing of
the decimal comma that wrote them, nor of what the option takes (a newcomer probe).
These parsers (``typer.Option(parser=...)``) name both; the ranges themselves are
checked where the value is used (``check_workers``, the config's validation), whose
messages give the allowed values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer


def _comma_hint(text: str) -> str:
    return " (a decimal comma? write a point)" if "," in text else ""


def _parser(convert: Callable[[str], Any], kind: str, what: str) -> Callable[[Any], Any]:
    """A parser that reads text with ``convert`` and refuses, naming the ``kind`` of
    number expected, a decimal comma, and ``what`` the option takes."""
    def parse(value: Any) -> Any:
        text = str(value).strip()  # a default arrives as its number, a typed value as text
        try:
            return convert(text)
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not {kind}{_comma_hint(text)}; it takes"
                                     f" {what}") from None
    return parse


def whole_number(what: str) -> Callable[[Any], int]:
    """A parser for an option that takes a whole number; ``what`` says which, e.g. "a
    number of workers, 0..100,000"."""
    return _parser(int, "a whole number", what)


def decimal(what: str) -> Callable[[Any], float]:
    """A parser for an option that takes a number such as seconds; ``what`` says which."""
    return _parser(float, "a number", what)
