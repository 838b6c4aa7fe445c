"""Helpers the strategy-strength benchmarks share: options, timing, 95% intervals.

Imported by the ``*_heuristic_strength.py`` scripts, which are run as
``python benchmarks/<name>.py`` (so this folder is on the import path).
"""

from __future__ import annotations

import math
import time
from typing import Any

Z95 = 1.96


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line: true/false, numbers, else the string."""
    key, _, value = text.partition("=")
    value = value.strip()
    if value.lower() in ("true", "false"):
        return key.strip(), value.lower() == "true"
    for kind in (int, float):
        try:
            return key.strip(), kind(value)
        except ValueError:
            pass
    return key.strip(), value


class Timed:
    """Wraps a strategy to add up the time its decisions take."""

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, view: Any, rng: Any) -> int:
        started = time.perf_counter()
        action = self.strategy.choose(view, rng)
        self.seconds += time.perf_counter() - started
        self.decisions += 1
        return action


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    return mean, Z95 * spread / math.sqrt(n)


def ratio_interval(nums: list[float], dens: list[float]) -> tuple[float, float]:
    """sum(nums) / sum(dens) and the half-width of its 95% interval (delta method)."""
    n = len(nums)
    ratio = sum(nums) / sum(dens)
    if n < 2:
        return ratio, 0.0
    mean_den = sum(dens) / n
    residuals = [x - ratio * y for x, y in zip(nums, dens, strict=True)]
    spread = math.sqrt(sum(r * r for r in residuals) / (n - 1))
    return ratio, Z95 * spread / (mean_den * math.sqrt(n))


def wilson(made: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a proportion (sensible even near 0% or 100%)."""
    if not n:
        return 0.0, 1.0
    z = Z95
    p = made / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half
