"""Guarding tests of net margins against skewed pairs: Student's t, corrected.

A mean net margin is tested as a normal mean with its spread estimated from the pairs.
When the pairs are skewed that misleads in a known direction: with rare large losses
(skewness below 0), a run of pairs that has seen few of them has both a high mean and a
small spread, so Student's t reads high far more often than its nominal tail says, and a
test said "A is stronger" 8.0% of the time at alpha 5% (docs/statistics.md, "Limits").

Two textbook corrections, both first-order in 1/sqrt(n) and both from the pairs alone:

- **Mertens' (2002) variance of a mean over its sd.** Under a hypothesis in normalised
  Elo the mean moves with the sd (mu = c sd), and the ratio mean / sd has variance
  (1 - g c + (k - 1) c^2 / 4) / n, g the skewness, k the kurtosis; Student's t takes it
  to be 1 / n. At c = 0 the two agree. Used only to widen (a factor of at least 1).
- **Johnson's (1978) skewness term.** The Edgeworth expansion of Student's t gives
  t + g (1 + 2 t^2) / (6 sqrt(n)) a distribution closer to the normal than t's. It is
  evaluated within ``JOHNSON_REACH`` of 0 and on the side of its turning point where it
  increases, and carried on with slope 1 beyond (Hall's 1992 cubic, another way to keep
  it increasing, gave back part of the gain: 5.6% false H1 where this gave 4.7%).

Used only in the direction that asks for more evidence (a guard, never a shortcut):
each LLR is drawn towards 0, never pushed away from it, so pairs that show no skewness
are tested as before. Measured (docs/statistics.md): the guard cuts the excess of false
H1 on rare large losses (by half or more at skewness -2.5, less at -3 and -4), without
removing it (the runs that go wrong
are those that have not yet met the losses, and nothing in them shows the skewness),
and keeps false H0 within beta where Student's t had let it pass (right-skewed pairs at
-10/10 nElo, a rare large win of skewness 1.5 to 4: 4.7-5.4% without the guard,
3.0-3.9% with it: ``python benchmarks/verdict_error_rates.py limits
--cells=1.5@-10/10,2.5@-10/10,3@-10/10,4@-10/10``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def sample_skewness(pairs: npt.ArrayLike, variance: npt.ArrayLike,
                    third: npt.ArrayLike) -> np.ndarray:
    """The adjusted Fisher-Pearson skewness G1 (scipy's ``skew(bias=False)``) from the
    count, the unbiased variance and the mean cubed deviation; 0 where it is undefined
    (fewer than three pairs, no spread), which leaves every correction off."""
    n, var, m3 = np.broadcast_arrays(*(np.asarray(x, dtype=float)
                                       for x in (pairs, variance, third)))
    usable = (n >= 3) & (var > 0)
    safe_n = np.where(usable, n, 3.0)
    m2 = np.where(usable, var, 1.0) * (safe_n - 1) / safe_n
    g1 = np.where(usable, m3, 0.0) / m2**1.5
    return np.where(usable, g1 * np.sqrt(safe_n * (safe_n - 1)) / (safe_n - 2), 0.0)


JOHNSON_REACH = 3.0
"""|t| up to which Johnson's quadratic term is evaluated; beyond it the correction is
carried on with slope 1 (a constant shift). Evaluated further out, the t^2 term grows
as t does with the pairs (t ~ sqrt(n) mean/sd), so it became a fixed bias on mean/sd
that a clearly stronger A could not clear: a statistician's probe found 1.8-7.8% of
runs at H1 reaching the maximum for 0/100 nElo at skewness -4 (none without the guard);
with the reach at 3, under 1% (and 4% of runs at H0, whose test there may run 340
pairs: docs/statistics.md, Limits)."""


def corrected_t(t: npt.ArrayLike, skewness: npt.ArrayLike, pairs: npt.ArrayLike) -> np.ndarray:
    """Johnson's skewness-corrected Student's t: t + g (1 + 2 t^2) / (6 sqrt n) where t
    lies within ``JOHNSON_REACH`` and the expression increases, carried on with slope 1
    beyond (so it increases everywhere)."""
    t, g, n = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (t, skewness, pairs)))
    g = _none_if_negligible(g)
    root_n = np.sqrt(np.maximum(n, 1.0))
    safe_g = np.where(g == 0, 1.0, g)
    low, high = _reach(safe_g, root_n)
    at = np.clip(t, low, high)
    return np.where(g == 0, t, _johnson(at, safe_g, root_n) + (t - at))


def corrected_t_inverse(target: npt.ArrayLike, skewness: npt.ArrayLike,
                        pairs: npt.ArrayLike) -> np.ndarray:
    """The t whose :func:`corrected_t` is ``target``: the critical value of Student's t
    that the corrected test amounts to."""
    target, g, n = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (target, skewness, pairs)))
    g = _none_if_negligible(g)
    root_n = np.sqrt(np.maximum(n, 1.0))
    safe_g = np.where(g == 0, 1.0, g)
    low, high = _reach(safe_g, root_n)
    at_low, at_high = _johnson(low, safe_g, root_n), _johnson(high, safe_g, root_n)
    # a t^2 + t + (b - target) = 0 with a = g / (3 sqrt n), b = g / (6 sqrt n): the root
    # on the increasing side of the parabola, (-1 + sqrt(D)) / (2 a) written without the
    # cancellation that loses it for small a
    a, b = safe_g / (3.0 * root_n), safe_g / (6.0 * root_n)
    discriminant = np.maximum(1.0 + 4.0 * a * (target - b), 0.0)
    on_parabola = 2.0 * (target - b) / (1.0 + np.sqrt(discriminant))
    inverse = np.where(target < at_low, low + (target - at_low),
                       np.where(target > at_high, high + (target - at_high), on_parabola))
    return np.where(g == 0, target, inverse)


def _johnson(t: np.ndarray, skewness: np.ndarray, root_n: np.ndarray) -> np.ndarray:
    return t + skewness * (1.0 + 2.0 * t * t) / (6.0 * root_n)


def _reach(skewness: np.ndarray, root_n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the quadratic is used: within ``JOHNSON_REACH`` of 0, on the side of its
    turning point t* = -3 sqrt(n) / (2 g) where it increases (g other than 0)."""
    turning = -3.0 * root_n / (2.0 * skewness)
    low = np.where(skewness > 0, np.maximum(turning, -JOHNSON_REACH), -JOHNSON_REACH)
    high = np.where(skewness < 0, np.minimum(turning, JOHNSON_REACH), JOHNSON_REACH)
    return low, high


NEGLIGIBLE_SKEWNESS = 1e-9
"""Skewness below this in size is taken as none: the turning point of the correction
would lie beyond any t a float can hold."""


def _none_if_negligible(skewness: np.ndarray) -> np.ndarray:
    return np.where(np.abs(skewness) < NEGLIGIBLE_SKEWNESS, 0.0, skewness)


def ratio_variance_factor(ratio: npt.ArrayLike, skewness: npt.ArrayLike,
                          kurtosis: npt.ArrayLike) -> np.ndarray:
    """n times the variance of mean / sd at a true ratio ``ratio`` (Mertens 2002):
    1 - g c + (k - 1) c^2 / 4, never below 1 (the guard only widens) and 1 where the
    moments are undefined."""
    c, g, k = np.broadcast_arrays(*(np.asarray(x, dtype=float)
                                    for x in (ratio, skewness, kurtosis)))
    factor = 1.0 - g * c + (k - 1.0) * c * c / 4.0
    return np.where(np.isfinite(factor), np.maximum(factor, 1.0), 1.0)
