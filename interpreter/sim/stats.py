"""The statistics a simulation's figures are made of: intervals, tests, summaries of a list of numbers.

Each is defined with its formula in docs/simulation.md. Floats are rounded to 6 decimals so summary.json
reads well; they are computed in one fixed order, so the same rows give the same bytes.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95% intervals
HISTOGRAM_BINS = 20  # at most; one bin per value when the values span fewer


def rounded(x: float) -> float:
    """`x` rounded to six decimal places: the precision of every figure the reports write (JSON and tables),
    so that runs that differ only in float noise write the same files."""
    return round(x, 6)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion successes/n (successes may be fractional: shared wins).
    (c - h, c + h) with c = (p + z²/2n) / (1 + z²/n), h = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z / d * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n)))
    # At 0 or n successes one end is exactly 0 or 1; rounding must not leave it a hair inside.
    return (0.0 if successes <= 0 else max(0.0, c - h), 1.0 if successes >= n else min(1.0, c + h))


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion(x1: float, n1: int, x2: float, n2: int) -> tuple[float, float]:
    """The pooled two-proportion z-test of x1/n1 against x2/n2: (z, two-sided p). Equal proportions with no
    variance (0 of n against 0 of n) give (0, 1)."""
    if n1 <= 0 or n2 <= 0:
        return (0.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(max(0.0, pooled * (1 - pooled) * (1 / n1 + 1 / n2)))
    if se == 0:
        return (0.0, 1.0) if p1 == p2 else (math.copysign(math.inf, p2 - p1), 0.0)
    z = (p2 - p1) / se
    return (z, normal_p(z))


def welch(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """A large-sample test of equal means (Welch's statistic, read on the normal): (z, two-sided p)."""
    if len(a) < 2 or len(b) < 2:
        return (0.0, 1.0)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    diff = statistics.fmean(b) - statistics.fmean(a)
    if se == 0:
        return (0.0, 1.0) if diff == 0 else (math.copysign(math.inf, diff), 0.0)
    return (diff / se, normal_p(diff / se))


def describe(values: Sequence[float]) -> dict[str, float | int]:
    """n, mean, sd (sample, n - 1), median, min and max; empty: n = 0 alone."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "mean": rounded(statistics.fmean(values)),
            "sd": rounded(statistics.stdev(values)) if len(values) > 1 else 0.0,
            "median": rounded(statistics.median(values)), "min": rounded(min(values)), "max": rounded(max(values))}


def histogram(values: Sequence[int], bins: int = HISTOGRAM_BINS) -> dict[str, Any]:
    """Counts of whole numbers in equal bins from the least value: bin k holds start + k·width up to
    start + (k+1)·width - 1."""
    if not values:
        return {"start": 0, "width": 1, "counts": []}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * ((hi - lo) // width + 1)
    for v in values:
        counts[(v - lo) // width] += 1
    return {"start": lo, "width": width, "counts": counts}


def credits(winners: Sequence[int], n: int) -> list[float]:
    """Each seat's share of one match's win: 1/k to each of k winners, nothing to the others (and to
    anybody when there is no winner)."""
    out = [0.0] * n
    for w in winners:
        out[w] += 1 / len(winners)
    return out


def share(wins: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"wins": rounded(wins), "of": n, "share": rounded(wins / n) if n else 0.0,
            "ci95": [rounded(lo), rounded(hi)]}
