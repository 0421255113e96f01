"""Heuristics of how a game plays, after CardStock (Bell and Goadrich) and Browne: fairness from the win
shares, and, from a per-deal score history, lead changes, drama, comebacks, decisiveness, spread and margin.

The score history comes from a `report:` line of the rule file (the `end_deal` events of the log): its
values deal by deal, or their running total (`--score-as`). Which way is better is read from the matches
themselves unless given: the rule file says who wins, not whether its report counts up or down. Each
heuristic is defined with its formula in docs/simulation.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from .stats import describe, rounded

if TYPE_CHECKING:
    from .runner import Row

MAX_DEALS_SHOWN = 60  # deals of the mean history kept in summary.json (and plotted)


def fairness(seat_wins: Sequence[float]) -> dict[str, Any]:
    """1 - N/(2(N-1)) · Σ|s_p - 1/N| over the seats' shares s_p of all wins credited: 1 when every seat wins
    as often, 0 when one seat wins every match."""
    n = len(seat_wins)
    total = sum(seat_wins)
    if total <= 0:
        return {"value": None, "reason": "no match had a winner"}
    shares = [w / total for w in seat_wins]
    if n == 1:
        return {"value": 1.0, "seat_gap": 0.0}
    value = 1 - n / (2 * (n - 1)) * sum(abs(s - 1 / n) for s in shares)
    return {"value": rounded(value), "seat_gap": rounded(max(shares) - min(shares))}


def unavailable(reason: str) -> dict[str, Any]:
    return {"available": False, "reason": reason}


def pick_label(rows: Sequence[Row], reports: Sequence[tuple[str, str]],
               label: str | None) -> tuple[str | None, str]:
    """The report line to score by, or None and why none can be. `reports`: the rule file's report lines as
    (label, kind), the kind 'plain' for numbers and texts, 'card' or 'player' for what is shown by name."""
    if not rows:
        return None, "no match was played"
    if not reports:
        return None, "the rule file has no 'report:' line under 'match:'"
    plain = [lab for lab, kind in reports if kind == "plain"]
    if not plain:
        shown = ", ".join(f"'{lab}' ({kind}s)" for lab, kind in reports)
        return None, f"the rule file's report lines show cards or players, not numbers: {shown}"
    numeric = [lab for lab in plain if all(r.scores is not None and lab in r.scores for r in rows)]
    if label is not None:
        if label in numeric:
            return label, ""
        bad = sum(1 for r in rows if r.scores is None or label not in r.scores)
        return None, f"the report line '{label}' shows something other than numbers in {bad:,} of {len(rows):,} matches"
    if not numeric:
        return None, f"no report line shows numbers in every match (report lines: {', '.join(plain)})"
    return numeric[0], ""


def standings(history: Sequence[float], seats: int, score_as: str) -> list[tuple[float, ...]]:
    """Each deal's standing per seat from a report line's values (deal after deal, `seats` values each):
    the values themselves (deal) or their running totals (total)."""
    deals = [tuple(history[i:i + seats]) for i in range(0, len(history), seats)]
    if score_as == "deal":
        return deals
    return [tuple(row) for row in accumulate(deals, lambda a, b: tuple(x + y for x, y in zip(a, b)))]


def leader(standing: Sequence[float]) -> int | None:
    """The one seat with the best standing; None when several share it."""
    best = max(standing)
    top = [p for p, v in enumerate(standing) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(series: Sequence[Sequence[float]]) -> int:
    """How often the sole leader after a deal differs from the last sole leader before it."""
    changes, last = 0, None
    for standing in series:
        cur = leader(standing)
        if cur is not None:
            if last is not None and cur != last:
                changes += 1
            last = cur
    return changes


def drama(series: Sequence[Sequence[float]], w: int) -> float:
    """The winner's mean deficit behind the leader over the deals before the last, each as a share of that
    deal's spread (0 when it leads or all are level): 0 = always ahead, near 1 = last until the end."""
    deficits = []
    for standing in series[:-1]:
        top, low = max(standing), min(standing)
        deficits.append((top - standing[w]) / (top - low) if top > low else 0.0)
    return statistics.fmean(deficits)


def settled_at(series: Sequence[Sequence[float]], w: int) -> int | None:
    """The first deal from which the winner is (or shares) the lead at every deal end; None if it is not
    leading at the end."""
    d = None
    for i in range(len(series) - 1, -1, -1):
        if series[i][w] < max(series[i]):
            break
        d = i + 1
    return d


def score_section(rows: Sequence[Row], reports: Sequence[tuple[str, str]], label: str | None, score_as: str,
                  order: str) -> dict[str, Any]:
    chosen, reason = pick_label(rows, reports, label)
    if chosen is None:
        return unavailable(reason)
    # pick_label made sure every match has the line.
    raw = [standings(r.scores[chosen] if r.scores is not None else [], len(r.returns), score_as) for r in rows]
    singles = [i for i, r in enumerate(rows) if len(r.winners) == 1 and raw[i]]
    top = sum(1 for i in singles if raw[i][-1][rows[i].winners[0]] == max(raw[i][-1]))
    bottom = sum(1 for i in singles if raw[i][-1][rows[i].winners[0]] == min(raw[i][-1]))
    if order == "auto":
        # Higher is better unless the winners held the lowest final standing more often than the highest.
        higher = bottom <= top
    else:
        higher = order == "high"
    sign = 1.0 if higher else -1.0
    series = [[tuple(sign * v for v in st) for st in s] for s in raw]
    oriented = [(series[i], rows[i].winners[0]) for i in singles]
    n_single = len(oriented)
    agree = top if higher else bottom
    long = [(s, w) for s, w in oriented if len(s) >= 2]
    settled = [(settled_at(s, w), len(s)) for s, w in long]
    comebacks = sum(1 for s, w in long if any(st[w] < max(st) for st in s[:-1]))
    finals = [sorted(s[-1], reverse=True) for s in series if s]
    out: dict[str, Any] = {
        "available": True, "label": chosen, "as": score_as,
        "order": "higher is better" if higher else "lower is better", "order_given": order != "auto",
        "order_evidence": {"single_winner_matches": n_single, "winner_highest": top, "winner_lowest": bottom},
        "winner_leads_at_end": {"matches": n_single, "share": rounded(agree / n_single) if n_single else None},
        "lead_changes": describe([lead_changes(s) for s in series]),
        "drama": describe([drama(s, w) for s, w in long]),
        "comebacks": {"matches": len(long), "share": rounded(comebacks / len(long)) if long else None},
        "decisiveness": describe([1 - (d - 1) / n for d, n in settled if d is not None]),
        "spread": describe([f[0] - f[-1] for f in finals]),
        "margin": describe([f[0] - f[1] for f in finals if len(f) > 1]),
    }
    if not long:
        out["note"] = "every match was one deal: drama, comebacks and decisiveness need two or more"
    out["final_by_seat"] = [quartiles([s[-1][p] for s in raw if s]) for p in range(len(raw[0][-1]))] \
        if raw and raw[0] else []
    out["mean_by_deal"] = mean_by_deal(raw)
    first = rows[0]
    out["sample"] = {"match": first.match, "seed": first.seed, "winners": list(first.winners),
                     "standings": [[rounded(v) for v in st] for st in raw[0][:MAX_DEALS_SHOWN]]}
    return out


def quartiles(values: Sequence[float]) -> dict[str, Any]:
    """describe() and the quartiles (statistics.quantiles, 'exclusive' method), for a box plot."""
    out = describe(values)
    if len(values) >= 2:
        q1, _, q3 = statistics.quantiles(values, n=4)
        out["q1"], out["q3"] = rounded(q1), rounded(q3)
    elif values:
        out["q1"] = out["q3"] = rounded(values[0])
    return out


def mean_by_deal(raw: Sequence[Sequence[tuple[float, ...]]]) -> list[dict[str, Any]]:
    """For deal d: the mean standing per seat over the matches that lasted d deals or more."""
    out = []
    longest = min(MAX_DEALS_SHOWN, max((len(s) for s in raw), default=0))
    for d in range(longest):
        at = [s[d] for s in raw if len(s) > d]
        n = len(at[0])
        out.append({"deal": d + 1, "matches": len(at),
                    "mean": [rounded(statistics.fmean(st[p] for st in at)) for p in range(n)]})
    return out
