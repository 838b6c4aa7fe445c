"""Guarding tests of net margins against skewed pairs: Student's t, corrected.

A mean net margin is tested as a normal mean with its spread estimated from the pairs.
When the pairs are skewed that misleads in a known direction: with rare large losses
(skewness below 0), a run of pairs that has seen few of them has both a high mean and a
small spread, so Student's t reads high far more often than its nominal tail says, and a
test said "A is stronger" 8% of the time at alpha 5% (docs/statistics.md, "Limits").

Two textbook corrections, both first-order in 1/sqrt(n) and both from the pairs alone:

- **Johnson's (1978) skewness term.** The Edgeworth expansion of Student's t gives
  t + g (1 + 2 t^2) / (6 sqrt(n)) (g the sample skewness) a distribution closer to the
  normal than t's. The quadratic turns back beyond t* = -3 sqrt(n) / (2 g); past it the
  correction is continued with slope 1, so that it stays increasing (Hall's 1992 cubic
  does the same job but, measured, gave back part of the gain: 5.6% false H1 where this
  gives 4.7%).
- **Mertens' (2002) variance of a mean over its sd.** Under a hypothesis in normalised
  Elo the mean moves with the sd (mu = c sd), and the ratio mean / sd has variance
  (1 - g c + (k - 1) c^2 / 4) / n, k the kurtosis; Student's t takes it to be 1 / n. At
  c = 0 the two agree.

Used only in the direction that asks for more evidence (a guard, never a shortcut): the
corrections may make a verdict harder to reach, never easier, so pairs that are not
skewed keep the tests as they were, and right-skewed pairs keep their error rates below
the asked ones, where Student's t already left them.
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


def corrected_t(t: npt.ArrayLike, skewness: npt.ArrayLike, pairs: npt.ArrayLike) -> np.ndarray:
    """Johnson's skewness-corrected Student's t, kept increasing past its turning point."""
    t, g, n = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (t, skewness, pairs)))
    g = _none_if_negligible(g)
    root_n = np.sqrt(np.maximum(n, 1.0))
    safe_g = np.where(g == 0, 1.0, g)
    turning = _turning_point(safe_g, root_n)
    beyond = np.where(safe_g < 0, t > turning, t < turning)
    at = np.where(beyond, turning, t)
    johnson = at + safe_g * (1.0 + 2.0 * at * at) / (6.0 * root_n)
    return np.where(g == 0, t, johnson + np.where(beyond, t - turning, 0.0))


def corrected_t_inverse(target: npt.ArrayLike, skewness: npt.ArrayLike,
                        pairs: npt.ArrayLike) -> np.ndarray:
    """The t whose :func:`corrected_t` is ``target``: the critical value of Student's t
    that the corrected test amounts to."""
    target, g, n = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (target, skewness, pairs)))
    g = _none_if_negligible(g)
    root_n = np.sqrt(np.maximum(n, 1.0))
    safe_g = np.where(g == 0, 1.0, g)
    turning = _turning_point(safe_g, root_n)
    at_turning = turning + safe_g * (1.0 + 2.0 * turning * turning) / (6.0 * root_n)
    # a t^2 + t + (b - target) = 0 with a = g / (3 sqrt n), b = g / (6 sqrt n): the root
    # on the increasing side of the parabola, (-1 + sqrt(D)) / (2 a) written without the
    # cancellation that loses it for small a
    a, b = safe_g / (3.0 * root_n), safe_g / (6.0 * root_n)
    discriminant = np.maximum(1.0 + 4.0 * a * (target - b), 0.0)
    on_parabola = 2.0 * (target - b) / (1.0 + np.sqrt(discriminant))
    beyond = np.where(safe_g < 0, target > at_turning, target < at_turning)
    inverse = np.where(beyond, turning + (target - at_turning), on_parabola)
    return np.where(g == 0, target, inverse)


NEGLIGIBLE_SKEWNESS = 1e-9
"""Skewness below this in size is taken as none: the turning point of the correction
would lie beyond any t a float can hold."""


def _none_if_negligible(skewness: np.ndarray) -> np.ndarray:
    return np.where(np.abs(skewness) < NEGLIGIBLE_SKEWNESS, 0.0, skewness)


def _turning_point(skewness: np.ndarray, root_n: np.ndarray) -> np.ndarray:
    """Where t + g (1 + 2 t^2) / (6 sqrt n) stops increasing: t* = -3 sqrt(n) / (2 g),
    for g other than 0."""
    return -3.0 * root_n / (2.0 * skewness)


def ratio_variance_factor(ratio: npt.ArrayLike, skewness: npt.ArrayLike,
                          kurtosis: npt.ArrayLike) -> np.ndarray:
    """n times the variance of mean / sd at a true ratio ``ratio`` (Mertens 2002):
    1 - g c + (k - 1) c^2 / 4, never below 1 (the guard only widens) and 1 where the
    moments are undefined."""
    c, g, k = np.broadcast_arrays(*(np.asarray(x, dtype=float)
                                    for x in (ratio, skewness, kurtosis)))
    factor = 1.0 - g * c + (k - 1.0) * c * c / 4.0
    return np.where(np.isfinite(factor), np.maximum(factor, 1.0), 1.0)
