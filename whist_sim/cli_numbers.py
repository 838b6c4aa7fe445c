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


def whole_number(what: str) -> Callable[[Any], int]:
    """A parser for an option that takes a whole number; ``what`` says which, e.g. "a
    number of workers, 0..100,000"."""
    def parse(value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        try:
            return int(text)
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not a whole number{_comma_hint(text)};"
                                     f" it takes {what}") from None
    return parse


def decimal(what: str) -> Callable[[Any], float]:
    """A parser for an option that takes a number such as seconds; ``what`` says which."""
    def parse(value: Any) -> float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        text = str(value).strip()
        try:
            return float(text)
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not a number{_comma_hint(text)}; it takes"
                                     f" {what}") from None
    return parse
