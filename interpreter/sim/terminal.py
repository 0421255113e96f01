"""The summary on the terminal (rich tables when rich is installed and stdout is a terminal, plain text
otherwise) and the progress bar (on stderr, only when it is a terminal).

Both renderings are made from the same sections, built from summary.json's dict, so the terminal never
shows a figure the file does not hold. Names and labels come from the rule file: plain text is printed
with `say` (which escapes control characters), rich text is escaped for rich's markup as well.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..dsl.diagnostics import count_of
from ..engine.text import one_line, say


@dataclass
class Section:
    title: str
    header: list[str] = field(default_factory=list)  # column titles; empty: the rows are lines of text
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def num(x: Any, digits: int = 3) -> str:
    if x is None:
        return "-"
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}g}" if abs(x) < 1000 else f"{x:,.1f}"


def interval(d: dict[str, Any]) -> str:
    lo, hi = d["ci95"]
    return f"[{pct(lo)}, {pct(hi)}]"


def headline(s: dict[str, Any]) -> str:
    bots = s["bots"]
    who = f"{bots[0]} at every seat" if len(set(bots)) == 1 else ", ".join(bots) + (
        " (rotating through the seats)" if s["rotate"] else "")
    opts = f", options {', '.join(f'{k}={v}' for k, v in s['options'].items())}" if s["options"] else ""
    done = f"{s['matches']:,} matches" if s["matches"] == s["matches_requested"] else \
        f"{s['matches']:,} of {s['matches_requested']:,} matches"
    return f"{s['name']}, {s['players']} players{opts}, {done}, seed {s['seed']}; bots: {who}"


def sections(s: dict[str, Any]) -> list[Section]:
    out: list[Section] = []
    seats = Section("win share by seat", ["seat", "wins", "share", "95% interval"],
                    [[x["name"], num(x["wins"], 4), pct(x["share"]), interval(x)] for x in s["seats"]])
    f = s["fairness"]
    seats.notes.append(f"fairness {f['value']:.3f} (1: every seat wins as often), widest gap between seats "
                       f"{100 * f['seat_gap']:.1f} points" if f["value"] is not None else f"fairness: {f['reason']}")
    d = s["draws"]
    seats.notes.append(f"draws: {count_of(d['shared'] + d['no_winner'], 'match')} ({pct(d['share'])}): "
                       f"{d['shared']:,} with a shared win, {d['no_winner']:,} with no winner")
    fm = s["first_mover"]
    if fm["of"]:
        who = ", ".join(f"{s['player_names'][p]} {pct(t / fm['of'])}" for p, t in enumerate(fm["times"]) if t)
        seats.notes.append(f"first mover ({who} of matches): win share {pct(fm['share'])} {interval(fm)}, "
                           f"{pct(fm['even'])} in an even game")
    out.append(seats)
    out.append(Section("win share by bot", ["bot", "seats held", "share", "95% interval", "mean " + s["returns_name"]],
                       [[b["bot"], f"{b['seats_held']:,}", pct(b["share"]), interval(b), num(b["mean_return"])]
                        for b in s["bots_table"]]))
    ln = Section("match length", ["", "mean", "median", "min", "max", "sd"])
    for what in ("actions", "deals"):
        x = s["length"][what]
        if x["n"]:
            ln.rows.append([what, num(x["mean"]), num(x["median"]), num(x["min"]), num(x["max"]), num(x["sd"])])
    out.append(ln)
    out.append(Section(f"{s['returns_name']} per seat", ["seat", "mean", "sd", "min", "max"],
                       [[x["name"], num(x["mean"]), num(x["sd"]), num(x["min"]), num(x["max"])]
                        for x in s["returns"] if x["n"]]))
    dec = s["decisions"]
    acts = Section("actions", ["action", "legal at", "taken", "of all decisions", "when legal"],
                   [[a["name"], f"{a['legal_at']:,}", f"{a['taken']:,}", pct(a["taken_share"]),
                     pct(a["taken_when_legal"])] for a in s["actions"]])
    acts.notes.append(f"{dec['total']:,} decisions, {dec['branching']:.2f} legal actions each on average, "
                      f"{pct(dec['forced_share'])} forced (a single legal action)")
    out.append(acts)
    out.append(Section("phases", ["phase", "decisions", "share"],
                       [[p["name"], f"{p['decisions']:,}", pct(p["share"])] for p in s["phases"]]))
    out.append(_score(s["score"]))
    if s["warnings"]:
        out.append(Section("warnings", rows=[[w] for w in s["warnings"]]))
    return out


def _score(sc: dict[str, Any]) -> Section:
    if not sc["available"]:
        return Section("heuristics from the score", rows=[[f"unavailable: {sc['reason']}"]])
    ev = sc["order_evidence"]
    how = "running total over the deals" if sc["as"] == "total" else "each deal's value"
    why = "as asked" if sc["order_given"] else (
        f"the winner held the highest final standing in {ev['winner_highest']:,} of "
        f"{ev['single_winner_matches']:,} single-winner matches, the lowest in {ev['winner_lowest']:,}")
    sec = Section(f"heuristics from the score: report line '{sc['label']}', {how}", ["heuristic", "mean", "median",
                                                                                       "min", "max"])
    for key, name in (("lead_changes", "lead changes per match"), ("drama", "drama"),
                      ("decisiveness", "decisiveness"), ("spread", "final spread"), ("margin", "final margin")):
        x = sc[key]
        if x["n"]:
            sec.rows.append([name, num(x["mean"]), num(x["median"]), num(x["min"]), num(x["max"])])
    sec.notes.append(f"{sc['order']} ({why})")
    lead = sc["winner_leads_at_end"]
    if lead["share"] is not None:
        sec.notes.append(f"the winner leads at the end in {pct(lead['share'])} of {lead['matches']:,} matches")
    cb = sc["comebacks"]
    if cb["share"] is not None:
        sec.notes.append(f"comebacks (the winner trailed after some deal): {pct(cb['share'])} of "
                         f"{cb['matches']:,} matches")
    if "note" in sc:
        sec.notes.append(sc["note"])
    return sec


def plain(secs: list[Section]) -> list[str]:
    lines: list[str] = []
    for sec in secs:
        lines.append("")
        lines.append(sec.title)
        table = ([sec.header] if sec.header else []) + sec.rows
        if sec.header:
            widths = [max(len(r[i]) for r in table) for i in range(len(sec.header))]
            for r in table:
                cells = [c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
                lines.append("  " + "  ".join(cells).rstrip())
        else:
            lines.extend("  " + r[0] for r in sec.rows)
        lines.extend("  " + n for n in sec.notes)
    return lines


def print_summary(s: dict[str, Any], fancy: bool, file: TextIO | None = None) -> None:
    out = file if file is not None else sys.stdout
    secs = sections(s)
    if fancy and _rich() and out.isatty():
        _print_rich(s, secs, out)
        return
    say(headline(s), "A shared win counts 1/k to each of its k winners; intervals are 95% Wilson intervals.",
        *plain(secs), file=out)


def _rich() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def _print_rich(s: dict[str, Any], secs: list[Section], out: TextIO) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    def safe(text: str) -> str:
        return escape(one_line(text))

    con = Console(file=out, highlight=False)
    con.print(f"[bold]{safe(headline(s))}[/bold]")
    con.print("A shared win counts 1/k to each of its k winners; intervals are 95% Wilson intervals.")
    for sec in secs:
        warn = sec.title == "warnings"
        if sec.header:
            t = Table(title=safe(sec.title), title_justify="left", caption_justify="left")
            for i, h in enumerate(sec.header):
                t.add_column(safe(h), justify="left" if i == 0 else "right")
            for r in sec.rows:
                t.add_row(*(safe(c) for c in r))
            con.print(t)
        else:
            con.print(f"[bold{' yellow' if warn else ''}]{safe(sec.title)}[/]")
            for r in sec.rows:
                con.print(f"  [{'yellow' if warn else 'default'}]{safe(r[0])}[/]")
        for n in sec.notes:
            con.print(f"  {safe(n)}")


class ProgressBar:
    """Matches (or other units of work: `validate --deep` counts settings) done, rate and time left, on stderr
    while it is a terminal: rich's bar if installed, else a line rewritten in place. Nothing when stderr is a
    file or a pipe (logs and captured output stay clean)."""

    def __init__(self, total: int, what: str, enabled: bool = True, unit: str = "matches") -> None:
        self.total, self.what, self.unit = total, what, unit
        self.done = 0
        self.enabled = enabled and sys.stderr.isatty()
        self._rich: Any = None
        self._task: Any = None
        self._t0 = time.perf_counter()
        self._shown = 0.0

    def __enter__(self) -> ProgressBar:
        if not self.enabled:
            return self
        if _rich():
            from rich.console import Console
            from rich.markup import escape
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            self._rich = Progress(TextColumn(escape(one_line(self.what))), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                  TextColumn("left"), transient=True, console=Console(file=sys.stderr))
            self._rich.__enter__()
            self._task = self._rich.add_task("", total=self.total, rate="")
        return self

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        elapsed = max(time.perf_counter() - self._t0, 1e-9)
        rate = self.done / elapsed
        if self._rich is not None:
            self._rich.update(self._task, advance=n, rate=f"{rate:,.0f} {self.unit}/s")
        elif elapsed - self._shown >= 0.2 or self.done == self.total:
            self._shown = elapsed
            left = (self.total - self.done) / rate if rate else 0.0
            sys.stderr.write(f"\r{one_line(self.what)} {self.done:,}/{self.total:,} {self.unit}, {rate:,.0f}/s, "
                             f"{left:,.0f} s left ")
            sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.__exit__(None, None, None)
        elif self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
