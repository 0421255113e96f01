"""`cardsmith compare`: the same seeds under two or more rule sets, and whether their figures differ.

Every configuration plays matches 0..K-1 with the same match seeds, so a difference comes from the rules,
not from different deals (common random numbers). Each configuration after the first is compared with the
first, the baseline: per seat, the win shares with a pooled two-proportion z-test; the draw rate the same
way; the mean match length (actions, deals) with Welch's statistic on the normal. The z-test assumes
independent samples; with shared seeds the samples are positively correlated, which makes the test
conservative (a difference it calls significant is one).
"""

from __future__ import annotations

import statistics
from typing import Any

from .runner import Row
from .stats import rounded, two_proportion, welch

ALPHA = 0.05


def _test(base: float, base_n: int, this: float, this_n: int) -> dict[str, Any]:
    z, p = two_proportion(base, base_n, this, this_n)
    b = base / base_n if base_n else 0.0
    t = this / this_n if this_n else 0.0
    return {"baseline": rounded(b), "this": rounded(t), "difference": rounded(t - b), "z": _finite(z), "p": rounded(p),
            "significant": p < ALPHA}


def _finite(z: float) -> float | str:
    """JSON has no infinity: a difference with no variance at all is written as text."""
    return rounded(z) if abs(z) != float("inf") else ("inf" if z > 0 else "-inf")


def _means(base: list[float], this: list[float]) -> dict[str, Any]:
    z, p = welch(base, this)
    b = statistics.fmean(base) if base else 0.0
    t = statistics.fmean(this) if this else 0.0
    return {"baseline": rounded(b), "this": rounded(t), "difference": rounded(t - b), "z": _finite(z), "p": rounded(p),
            "significant": p < ALPHA}


def compare_two(base: dict[str, Any], base_rows: list[Row], this: dict[str, Any],
                this_rows: list[Row]) -> dict[str, Any]:
    """One configuration's figures against the baseline's."""
    seats = []
    for b, t in zip(base["seats"], this["seats"]):
        seats.append({"seat": b["seat"], "name": b["name"], **_test(b["wins"], b["of"], t["wins"], t["of"])})
    bd, td = base["draws"], this["draws"]
    return {
        "seats": seats,
        "draws": _test(bd["wins"], bd["of"], td["wins"], td["of"]),
        "first_mover": _test(base["first_mover"]["wins"], base["first_mover"]["of"], this["first_mover"]["wins"],
                             this["first_mover"]["of"]),
        "actions": _means([r.actions for r in base_rows], [r.actions for r in this_rows]),
        "deals": _means([r.deals for r in base_rows], [r.deals for r in this_rows]),
    }


def _verdict(t: dict[str, Any]) -> str:
    p = "p < 0.001" if t["p"] < 0.001 else f"p = {t['p']:.3g}"
    return f"{p}, significant" if t["significant"] else f"{p}, no significant difference"


def lines(labels: list[str], summaries: list[dict[str, Any]], comparisons: list[dict[str, Any]]) -> list[str]:
    """The comparison as text: each configuration against the baseline."""
    out = [f"baseline: {labels[0]}: {summaries[0]['name']}, {summaries[0]['players']} players, "
           f"{summaries[0]['matches']:,} matches, seed {summaries[0]['seed']}"]
    for label, s, c in zip(labels[1:], summaries[1:], comparisons):
        out += ["", f"{label} ({s['name']}) against the baseline, on the same seeds:"]
        rows = [["", "baseline", "this", "difference", ""]]
        for t in c["seats"]:
            rows.append([f"win share {t['name']}", f"{100 * t['baseline']:.1f}%", f"{100 * t['this']:.1f}%",
                         f"{100 * t['difference']:+.1f} points", _verdict(t)])
        for key, name in (("draws", "draws"), ("first_mover", "first mover's win share")):
            t = c[key]
            rows.append([name, f"{100 * t['baseline']:.1f}%", f"{100 * t['this']:.1f}%",
                         f"{100 * t['difference']:+.1f} points", _verdict(t)])
        for key in ("actions", "deals"):
            t = c[key]
            rows.append([f"mean {key} per match", f"{t['baseline']:.2f}", f"{t['this']:.2f}",
                         f"{t['difference']:+.2f}", _verdict(t)])
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            out.append("  " + "  ".join(c.ljust(w) if i in (0, 4) else c.rjust(w)
                                        for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    out += ["", f"p is two-sided; p < {ALPHA} is called significant. With several seats, expect one in twenty "
            "tests to pass that bar by chance: look for large, consistent differences."]
    return out
