"""Small, dependency-free statistics for win rates (used by the harness and the reports).

* ``wilson``: the Wilson score interval of a binomial proportion (good at small n and at
  rates near 0 or 1, where the normal approximation fails).
* ``mcnemar``: the exact two-sided McNemar test for two agents played on the same seeds
  (paired: only the seeds where exactly one of them wins carry information).
* ``difference_ci``: a paired 95% interval for the difference of two win rates.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``n`` trials; (0, 1) when n == 0."""
    if n < 0 or not 0 <= wins <= n:
        raise ValueError(f"need 0 <= wins <= n, got wins={wins}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == n else min(1.0, centre + half)
    return lo, hi


def mcnemar(only_a: int, only_b: int) -> float:
    """Exact two-sided McNemar p-value: seeds won only by A vs only by B.

    Under the null hypothesis (equal strength) each discordant seed is a fair coin, so the
    p-value is the two-sided binomial tail of ``min(only_a, only_b)`` in ``only_a + only_b``.
    """
    if only_a < 0 or only_b < 0:
        raise ValueError("counts must be non-negative")
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    # integer numerator and denominator: exact for any n (2.0**n overflows past 1,023 seeds)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2.0 * tail)


def difference_ci(only_a: int, only_b: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Paired difference of win rates (A - B) over ``n`` shared seeds, with a Wald interval.

    Returns (difference, low, high); the variance uses the discordant counts, as for
    matched pairs.
    """
    if n <= 0:
        raise ValueError("n must be positive")
    d = (only_a - only_b) / n
    var = ((only_a + only_b) / n - d * d) / n
    half = z * math.sqrt(max(var, 0.0))
    return d, d - half, d + half


def half_width_games(p: float, half_width: float, z: float = Z95) -> int:
    """Games needed for a Wilson-like interval of +-``half_width`` at win rate ``p``."""
    return math.ceil(z * z * p * (1 - p) / (half_width * half_width))
