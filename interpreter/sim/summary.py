"""The figures of a simulation, from its rows in match order: one dict, the content of summary.json.

Every figure is defined, with its formula, in docs/simulation.md; the keys here follow that page.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .heuristics import fairness, score_section, unavailable
from .runner import Config, Counts, Outcome, Row
from .stats import credits, describe, histogram, rounded, share

SCHEMA = 1  # summary.json's layout version


@dataclass(frozen=True)
class Meta:
    """What the rows do not say: the game, its seats and names, and what the command asked for."""
    game: str  # GAME as given on the command line
    name: str  # the rule file's game name
    player_names: tuple[str, ...]
    options: dict[str, Any]
    returns_name: str
    config: Config
    requested: int  # --games
    reports: tuple[tuple[str, str], ...]  # the rule file's report lines as (label, kind), in order
    score: str | None = None  # --score LABEL
    score_as: str = "total"  # --score-as
    score_order: str = "auto"  # --score-order



def summarize(out: Outcome, meta: Meta) -> dict[str, Any]:
    rows = out.rows
    n = len(meta.player_names)
    m = len(rows)
    cfg = meta.config
    seat_wins = [0.0] * n
    for row in rows:
        for p, c in enumerate(credits(row.winners, n)):
            seat_wins[p] += c
    summary: dict[str, Any] = {
        "schema": SCHEMA,
        "game": meta.game, "name": meta.name, "players": n, "player_names": list(meta.player_names),
        "options": meta.options, "bots": list(cfg.bots), "rotate": cfg.rotate, "seed": cfg.seed,
        "matches_requested": meta.requested, "matches": m, "interrupted": out.interrupted,
        "returns_name": meta.returns_name,
        "win_credit": "a match's win is split evenly among its winners (1/k each of k); no winner: nobody",
    }
    summary["seats"] = [{"seat": p, "name": meta.player_names[p], **share(seat_wins[p], m)} for p in range(n)]
    summary["fairness"] = fairness(seat_wins)
    summary["draws"] = _draws(rows)
    summary["first_mover"] = _first_mover(rows, n)
    summary["bots_table"] = _per_bot(rows, cfg, n)
    actions, deals = [r.actions for r in rows], [r.deals for r in rows]
    summary["length"] = {"actions": {**describe(actions), "histogram": histogram(actions)},
                         "deals": {**describe(deals), "histogram": histogram(deals)}}
    summary["returns"] = [{"seat": p, "name": meta.player_names[p], **describe([r.returns[p] for r in rows])}
                          for p in range(n)]
    decisions = sum(r.actions for r in rows)
    summary["decisions"] = {
        "total": decisions,
        "branching": rounded(sum(r.choices for r in rows) / decisions) if decisions else 0.0,
        "forced_share": rounded(sum(r.forced for r in rows) / decisions) if decisions else 0.0,
    }
    summary["actions"], summary["phases"], summary["warnings"] = _usage(out.counts, out.action_names,
                                                                        out.phase_names, decisions)
    summary["warnings"] += resampling_warnings(summary["bots_table"])
    summary["score"] = score_section(rows, meta.reports, meta.score, meta.score_as, meta.score_order) \
        if cfg.record_scores else unavailable("not followed (--no-score)")
    return summary


def _draws(rows: Sequence[Row]) -> dict[str, Any]:
    shared = sum(1 for r in rows if len(r.winners) > 1)
    none = sum(1 for r in rows if not r.winners)
    m = len(rows)
    return {"shared": shared, "no_winner": none, **share(shared + none, m)}


def _first_mover(rows: Sequence[Row], n: int) -> dict[str, Any]:
    """The seat that took the match's first decision: how often each seat was it, and its win share."""
    moved = [r for r in rows if r.first >= 0]
    times = [0] * n
    wins = 0.0
    for r in moved:
        times[r.first] += 1
        wins += credits(r.winners, n)[r.first]
    out = {"times": times, **share(wins, len(moved)), "even": rounded(1 / n)}
    out["advantage"] = rounded(out["share"] - 1 / n) if moved else 0.0
    return out


def _per_bot(rows: Sequence[Row], cfg: Config, n: int) -> list[dict[str, Any]]:
    """Each bot spec's win share over the seats it held: credit won / seat-matches held."""
    wins: dict[str, float] = {}
    held: dict[str, int] = {}
    rets: dict[str, list[float]] = {}
    failed: dict[str, int] = {}
    blind: dict[str, int] = {}
    for r in rows:
        c = credits(r.winners, n)
        for p, spec in enumerate(cfg.seat_bots(r.match)):
            wins[spec] = wins.get(spec, 0.0) + c[p]
            held[spec] = held.get(spec, 0) + 1
            rets.setdefault(spec, []).append(r.returns[p])
            if r.resample_failures:
                failed[spec] = failed.get(spec, 0) + r.resample_failures[p]
                blind[spec] = blind.get(spec, 0) + r.blind_moves[p]
    order = list(dict.fromkeys(cfg.bots))
    return [{"bot": spec, "seats_held": held.get(spec, 0), **share(wins.get(spec, 0.0), held.get(spec, 0)),
             "mean_return": rounded(statistics.fmean(rets[spec])) if rets.get(spec) else 0.0,
             "resample_failures": failed.get(spec, 0), "moves_without_world": blind.get(spec, 0)}
            for spec in order]


def resampling_warnings(table: list[dict[str, Any]]) -> list[str]:
    """A line for each bot whose resampler gave up: such a bot searches fewer worlds than it meant to, and
    with none at all it chooses at random, so it looks weak and slow for no visible reason otherwise."""
    out = []
    for b in table:
        failed, blind = b.get("resample_failures", 0), b.get("moves_without_world", 0)
        if failed or blind:
            out.append(f"bot {b['bot']}: the resampler gave up on {failed:,} world{'s' * (failed != 1)}; "
                       f"{blind:,} move{'s' * (blind != 1)} chosen at random for want of any world")
    return out


def _usage(counts: Counts, actions: list[str], phases: list[str],
           decisions: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    table = [{"name": name, "legal_at": counts.legal_at[i], "taken": counts.taken[i],
              "taken_share": rounded(counts.taken[i] / decisions) if decisions else 0.0,
              "taken_when_legal": rounded(counts.taken[i] / counts.legal_at[i]) if counts.legal_at[i] else 0.0}
             for i, name in enumerate(actions)]
    ph = [{"name": name, "decisions": counts.phases[i],
           "share": rounded(counts.phases[i] / decisions) if decisions else 0.0} for i, name in enumerate(phases)]
    warnings: list[str] = []
    if decisions:
        for a in table:
            if a["taken"] == 0:
                why = "never legal" if a["legal_at"] == 0 else f"legal at {a['legal_at']:,} decisions"
                warnings.append(f"action '{a['name']}' was never taken ({why}): possibly a dead rule")
        for p in ph:
            if p["decisions"] == 0:
                warnings.append(f"phase '{p['name']}' never had a decision: possibly a dead rule")
    return table, ph, warnings
