"""What a user asks of a sequential test: the two hypotheses and the two error rates.

A test is asked as ``elo0=0 elo1=10 alpha=0.05 beta=0.05`` on the command line
(``--sprt``) or as a ``[sprt]`` table in a config. Every rule is checked here, once,
so that a mistake is reported as one line naming the key, the bad value and what is
allowed, before any card is dealt.

The hypotheses are a pair on one scale: ``elo0``/``elo1`` on the model's Elo-like
scale (every game), or ``net0``/``net1`` in points per hand (Solo and Minnesota Whist
only, whose pairs are scored as net margins). ``SprtSettings()`` with neither pair
means the defaults ``elo0 = 0, elo1 = 10``; :meth:`SprtSettings.create` writes the
defaults into the fields, so that settings read from text show them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING, Any

import numpy as np

from whist_sim.games.base import WhistSimError, did_you_mean

if TYPE_CHECKING:
    from whist_sim.inference.pair_models import PairModel

DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 10.0
HYPOTHESIS_LIMIT = 1e6
"""The largest |elo0|, |elo1|, |net0|, |net1| taken: far beyond any game's margins (an Elo
of a million is certainty), and small enough that the LLR stays a finite number."""

ALLOWED_KEYS = ("elo0", "elo1", "net0", "net1", "alpha", "beta", "skewness")
EXAMPLES = {"elo0": "0", "elo1": "10", "net0": "0", "net1": "0.5", "alpha": "0.05", "beta": "0.05",
            "skewness": "-1.5"}
SKEWNESS_LIMIT = 10.0
"""The largest |skewness| a test may be told of: far beyond any game's pairs measured
(Solo Whist's heuristic against random: -1.4)."""
NET_GAMES = ("solo_whist", "minnesota_whist")
"""Games whose pairs are net margins, the only ones that take ``net0``/``net1``."""


class SprtError(WhistSimError, ValueError):
    """Settings a sequential test cannot run with; the message is one line naming the key."""


def _label(where: str, key: str) -> str:
    """``--sprt: alpha`` for a command-line option, ``sprt.alpha`` for a config table."""
    return f"{where}: {key}" if where.startswith("-") else f"{where}.{key}"


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _number(where: str, key: str, raw: Any) -> float:
    """A finite float from text or a TOML value, or a SprtError naming the key."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise SprtError(
            f"{_label(where, key)} = {raw!r} is not a number; give e.g. {key}={EXAMPLES[key]}"
        )
    try:
        value = float(raw)
    except ValueError:
        raise SprtError(
            f"{_label(where, key)} = {raw!r} is not a number; give e.g. {key}={EXAMPLES[key]}"
        ) from None
    if not math.isfinite(value):
        raise SprtError(f"{_label(where, key)} = {raw!r} must be a finite number")
    return value


def _validate(*values: Any) -> None:
    """Check every rule (``_problems``' arguments); raise one SprtError with a line for
    each key that breaks one."""
    problems = _problems(*values)
    if problems:
        raise SprtError("\n".join(problems))


def _problems(
    elo0: float | None,
    elo1: float | None,
    net0: float | None,
    net1: float | None,
    alpha: float,
    beta: float,
    where: str,
    skewness: float | None = None,
) -> list[str]:
    """Each rule the values break, a line naming its key and the allowed values."""
    problems = []
    if skewness is not None and (not _is_number(skewness) or not math.isfinite(skewness)
                                 or abs(skewness) > SKEWNESS_LIMIT):
        shown = f"{skewness:g}" if _is_number(skewness) else repr(skewness)
        problems.append(
            f"{_label(where, 'skewness')} = {shown} is not allowed; allowed values: numbers"
            f" from -{SKEWNESS_LIMIT:g} to {SKEWNESS_LIMIT:g} (the pair values' skewness,"
            " e.g. -1.5 for rare large losses)")
    for key, value in (("alpha", alpha), ("beta", beta)):
        if not _is_number(value) or not 0 < value < 0.5:
            shown = f"{value:g}" if _is_number(value) else repr(value)
            problems.append(
                f"{_label(where, key)} = {shown} is not allowed; allowed values: numbers in"
                " the open interval (0, 0.5)"
            )
    for low_key, low, high_key, high in (
        ("elo0", elo0, "elo1", elo1),
        ("net0", net0, "net1", net1),
    ):
        if (low is None) != (high is None):
            missing = low_key if low is None else high_key
            problems.append(
                f"{_label(where, missing)} is missing: {low_key} and {high_key} are given"
                f" together (e.g. {low_key}=0 {high_key}=10)"
            )
        if low is not None and high is not None:
            usable = True
            for key, value in ((low_key, low), (high_key, high)):
                if not _is_number(value) or not math.isfinite(value):
                    problems.append(f"{_label(where, key)} = {value!r} must be a finite number")
                    usable = False
                elif abs(value) > HYPOTHESIS_LIMIT:
                    problems.append(
                        f"{_label(where, key)} = {value:g} is out of range; allowed values:"
                        f" -{HYPOTHESIS_LIMIT:g} to {HYPOTHESIS_LIMIT:g} (a margin this large"
                        " overflowed the likelihood ratio into NaN, and the test never decided)")
                    usable = False
            if usable and low >= high:
                problems.append(
                    f"{_label(where, low_key)} = {low:g} must be below {high_key} = {high:g}"
                    f" (allowed: {low_key} < {high_key})"
                )
    if elo0 is not None and net0 is not None:
        problems.append(
            f"{where}: both elo0/elo1 and net0/net1 given; give one pair: elo0/elo1 (Elo scale,"
            f" every game) or net0/net1 (points per hand, {' and '.join(NET_GAMES)} only)"
        )
    return problems


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates of one sequential test, validated on construction.

    H0 says A's advantage over B is at most ``elo0`` (or ``net0``), H1 that it is at
    least ``elo1`` (``net1``). ``alpha`` is the chance of accepting H1 when H0 holds
    (a false "A is stronger"), ``beta`` the chance of accepting H0 when H1 holds.
    """

    elo0: float | None = None
    """Advantage under H0 on the model's Elo-like scale."""
    elo1: float | None = None
    """Advantage under H1 on the model's Elo-like scale; above ``elo0``."""
    net0: float | None = None
    """Advantage under H0 in points per hand (net-margin games only)."""
    net1: float | None = None
    """Advantage under H1 in points per hand; above ``net0``."""
    alpha: float = 0.05
    """Chance of a false "A is stronger" (H1 accepted though H0 holds); in (0, 0.5)."""
    beta: float = 0.05
    """Chance of a false "A is not stronger" (H0 accepted though H1 holds); in (0, 0.5)."""
    skewness: float | None = None
    """The skewness the pair values are known to have (net margins only), e.g. from an
    earlier run's verdict: the test's skewness guard tries it beside the pairs' own,
    since the runs that go wrong are those whose pairs have not yet shown it
    (``guard_skewness``, docs/statistics.md). None: the pairs' own only."""

    def __post_init__(self) -> None:
        _validate(self.elo0, self.elo1, self.net0, self.net1, self.alpha, self.beta,
                  "SprtSettings", self.skewness)
        if self.skewness is not None:  # a NumPy number made as_dict() unfit for JSON
            object.__setattr__(self, "skewness", float(self.skewness))

    # -- construction -------------------------------------------------------------

    @classmethod
    def create(
        cls,
        *,
        elo0: float | None = None,
        elo1: float | None = None,
        net0: float | None = None,
        net1: float | None = None,
        alpha: float = 0.05,
        beta: float = 0.05,
        skewness: float | None = None,
        where: str = "sprt",
    ) -> SprtSettings:
        """Settings with the default ``elo0 = 0, elo1 = 10`` written in when no pair is given.

        Errors name ``where`` (the option or config table the values came from).
        """
        _validate(elo0, elo1, net0, net1, alpha, beta, where, skewness)
        if elo0 is None and net0 is None:
            elo0, elo1 = DEFAULT_ELO0, DEFAULT_ELO1
        return cls(elo0=elo0, elo1=elo1, net0=net0, net1=net1, alpha=alpha, beta=beta,
                   skewness=skewness)

    @classmethod
    def parse(cls, text: str, where: str = "--sprt") -> SprtSettings:
        """Settings from ``"elo0=0 elo1=10 alpha=0.05 beta=0.05"`` (spaces or commas)."""
        values: dict[str, str] = {}
        for token in (t for t in re.split(r"[\s,]+", text.strip()) if t):
            key, sep, raw = token.partition("=")
            if not sep or not key:
                raise SprtError(
                    f"{where}: {token!r} is not key=value; write e.g."
                    " 'elo0=0 elo1=10 alpha=0.05 beta=0.05'"
                )
            values[key.strip()] = _refuse_repeat(values, key.strip(), raw, where)
        return cls.from_mapping(values, where=where)

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], where: str = "sprt") -> SprtSettings:
        """Settings from a mapping such as a config's ``[sprt]`` table."""
        problems = [
            (f"{where}: unknown key '{key}'" if where.startswith("-")
             else f"unknown key '{where}.{key}'")
            + f"{did_you_mean(key, ALLOWED_KEYS)}; allowed keys: {', '.join(ALLOWED_KEYS)}"
            for key in map(str, mapping) if key not in ALLOWED_KEYS]
        numbers: dict[str, float] = {}
        refused: list[str] = []
        for key, raw in mapping.items():
            if key in ALLOWED_KEYS:
                try:
                    numbers[key] = _number(where, key, raw)
                except SprtError as exc:
                    problems.append(str(exc))
                    refused.append(key)
        if problems:  # and what the numbers given break: every problem at once
            rest = _problems(numbers.get("elo0"), numbers.get("elo1"), numbers.get("net0"),
                             numbers.get("net1"), numbers.get("alpha", 0.05),
                             numbers.get("beta", 0.05), where, numbers.get("skewness"))
            problems += [line for line in rest if not any(key in line for key in refused)]
            raise SprtError("\n".join(problems))
        return cls.create(**numbers, where=where)

    # -- reading --------------------------------------------------------------------

    @property
    def on_net_scale(self) -> bool:
        """True when the hypotheses are in points per hand (``net0``/``net1``)."""
        return self.net0 is not None

    @property
    def elo_bounds(self) -> tuple[float, float]:
        """(elo0, elo1), the defaults when no pair was given; an error on the net scale."""
        if self.net0 is not None:
            raise SprtError("these settings are in points per hand (net0/net1), not Elo")
        if self.elo0 is None or self.elo1 is None:
            return DEFAULT_ELO0, DEFAULT_ELO1
        return self.elo0, self.elo1

    @property
    def bounds(self) -> tuple[float, float]:
        """The two hypotheses on whichever scale was given (Elo-like or points per hand)."""
        if self.net0 is not None and self.net1 is not None:
            return self.net0, self.net1
        return self.elo_bounds

    @property
    def lower(self) -> float:
        """Wald's lower bound log(beta / (1 - alpha)): at or below it, accept H0."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound log((1 - beta) / alpha): at or above it, accept H1."""
        return math.log((1.0 - self.beta) / self.alpha)

    def check_model(self, model: PairModel, where: str = "sprt") -> None:
        """Refuse settings the model cannot test: a net pair on a categorical model,
        or Elo bounds so extreme that the model's mean would sit on the edge of its range.
        """
        model.check_bounds(self, where)

    def describe(self) -> str:
        """E.g. ``elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05`` (and ``skewness = -1.5``
        when given)."""
        low_key, high_key = ("net0", "net1") if self.on_net_scale else ("elo0", "elo1")
        low, high = self.bounds
        skewness = "" if self.skewness is None else f", skewness = {self.skewness:g}"
        return (
            f"{low_key} = {low:g}, {high_key} = {high:g},"
            f" alpha = {self.alpha:g}, beta = {self.beta:g}{skewness}"
        )

    def as_dict(self) -> dict[str, float | None]:
        """The settings as a JSON-safe dict, the defaults written in."""
        low_key, high_key = ("net0", "net1") if self.on_net_scale else ("elo0", "elo1")
        low, high = self.bounds
        values = {low_key: low, high_key: high, "alpha": self.alpha, "beta": self.beta}
        if self.skewness is not None:
            values["skewness"] = self.skewness
        return values

    def guard_skewness(self, observed: Any) -> list[Any]:
        """The skewnesses the guard tries, each side keeping whichever asks it for more
        evidence: the pairs' own (``observed``, a number or an array; NaN read as 0),
        and the one given in ``skewness`` if any. So a value given only adds caution,
        of either sign, and the pairs' own always counts."""
        observed = np.nan_to_num(np.asarray(observed, dtype=float))
        if self.skewness is None:
            return [observed]
        return [observed, np.full_like(observed, self.skewness)]


def _refuse_repeat(values: Mapping[str, str], key: str, raw: str, where: str) -> str:
    """A key given twice is a typo more often than an override: refuse it."""
    if key in values:
        raise SprtError(f"{_label(where, key)} is given twice ({values[key]} and {raw})")
    return raw
