"""Numbers as whist_sim prints them: one rounding rule for the report, the console and
the verdict.

Its own small module, below the reports: the verdict (``inference``) and the live
standings (``tournament.live``) print figures the report prints too, and a share read
0.537 on the console beside 0.538 in the report's tables when each rounded its own way
(a probe). They import the rule from here, not from the reports (which load Polars).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any


def fmt(value: Any, digits: int = 3) -> str:
    """A number as report text: fixed decimals, "—" for missing."""
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = _rounded(value, digits)
        return text.lstrip("-") if float(text) == 0 else text
    return str(value)


def fmt_time(value: Any, digits: int = 3, figures: int = 2) -> str:
    """A time (ms) as report text: ``digits`` decimals, more for a time too short to show
    ``figures`` significant digits in them. Built-in strategies decide in about a
    microsecond: at three decimals 0.0005 ms and 0.0013 ms both read 0.001, so a
    strategy 2.6 times slower than another looked as fast, and a median "within 1.2%"
    was shown 100% off (a probe)."""
    if isinstance(value, float) and value == value and 0 < abs(value) < 1:
        digits = max(digits, figures - 1 - math.floor(math.log10(abs(value))))
    return fmt(value, digits)


def percent(share: float, digits: int = 1, sign: bool = True) -> str:
    """A share as a percentage, ``96.3%`` (``sign=False``: ``96.3``, the first end of a
    range), rounded as ``fmt`` rounds the share itself."""
    if share != share:
        return "—"
    return _rounded(share, digits, scale=2) + ("%" if sign else "")


def _rounded(value: float, digits: int, scale: int = 0) -> str:
    """``value`` times 10**scale at ``digits`` decimals, half to even on the number as written
    (its shortest repr): one rule for every figure. Python's format rounds the binary
    value, so the same 1,155 of 1,200 hands (0.9625) read 0.963 as a rate and 96.2% as a
    share in one report (a newcomer's probe). Half to even rather than away from zero: a
    share and its complement then still add up (0.5175 and 0.4825 read 0.518 and 0.482;
    away from zero, a head-to-head table's two cells read 0.518 and 0.483)."""
    if value in (math.inf, -math.inf):
        return "inf" if value > 0 else "-inf"
    exact = Decimal(repr(float(value))).scaleb(scale)  # float(): NumPy's repr names its type
    return f"{exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN):f}"
