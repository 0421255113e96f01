"""The files of `--out DIR`: summary.json (every figure), matches.csv (one row per match) and report.html
(the figures as tables, and the plots embedded as base64 PNG; no other file is needed to view it).

summary.json holds no timing, no path of this machine and no date: the same seed gives the same bytes
whatever the number of workers, so two runs can be compared with `cmp`.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import plots
from .heuristics import standings
from .runner import Config, Row
from .terminal import Section, headline, sections


def summary_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, indent=2, ensure_ascii=False) + "\n"


def write_json(path: Path, summary: dict[str, Any]) -> None:
    path.write_text(summary_json(summary), encoding="utf-8")


def csv_rows(rows: Sequence[Row], config: Config, summary: dict[str, Any]) -> list[list[str]]:
    """The header, then one line per match: seeds and seat numbers as numbers, winners as seat numbers
    separated by spaces, and per seat its returns, its bot and (when a score is followed) its final
    standing."""
    n = summary["players"]
    sc = summary["score"]
    seats = range(n)
    head = ["match", "seed", "actions", "deals", "first_player", "winners"]
    head += [f"returns_{p}" for p in seats] + [f"bot_{p}" for p in seats]
    if sc["available"]:
        head += [f"score_{p}" for p in seats]
    out = [head]
    for r in rows:
        line = [str(r.match), str(r.seed), str(r.actions), str(r.deals), str(r.first),
                " ".join(str(w) for w in r.winners)]
        line += [repr(v) for v in r.returns] + list(config.seat_bots(r.match))
        if sc["available"] and r.scores is not None:
            final = standings(r.scores[sc["label"]], n, sc["as"])[-1]
            line += [repr(v) for v in final]
        out.append(line)
    return out


def write_csv(path: Path, rows: Sequence[Row], config: Config, summary: dict[str, Any]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(csv_rows(rows, config, summary))


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { padding: 0.2rem 0.7rem; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; margin: 0.2rem 0; }
.warn { color: #8a5300; }
figure { margin: 1rem 0; } figcaption { color: #555; font-size: 0.9rem; }
img { max-width: 100%; }
"""


def _section_html(sec: Section) -> list[str]:
    e = html.escape
    out = [f"<h2>{e(sec.title)}</h2>"]
    warn = sec.title == "warnings"
    if sec.header:
        out.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in sec.header) + "</tr>")
        out.extend("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in sec.rows)
        out.append("</table>")
    else:
        out.extend(f"<p class=\"{'warn' if warn else 'note'}\">{e(r[0])}</p>" for r in sec.rows)
    out.extend(f"<p class=\"note\">{e(n)}</p>" for n in sec.notes)
    return out


def report_html(summary: dict[str, Any], images: list[tuple[str, str]], missing: str | None = None) -> str:
    e = html.escape
    title = f"Simulation of {summary['name']}"
    body = [f"<h1>{e(title)}</h1>", f"<p>{e(headline(summary))}</p>",
            "<p class=\"note\">A shared win counts 1/k to each of its k winners; intervals are 95% Wilson "
            "intervals. docs/simulation.md defines every figure.</p>"]
    if summary["interrupted"]:
        body.append("<p class=\"warn\">The simulation was interrupted: these figures are from the matches "
                    "finished before it stopped.</p>")
    if missing:
        body.append(f"<p class=\"warn\">{e(missing)}</p>")
    for caption, png in images:
        body.append(f"<figure><img alt=\"{e(caption)}\" src=\"data:image/png;base64,{png}\">"
                    f"<figcaption>{e(caption)}</figcaption></figure>")
    for sec in sections(summary):
        body.extend(_section_html(sec))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><style>{STYLE}</style></head><body>\n" + "\n".join(body) +
            "\n</body></html>\n")


NO_MATPLOTLIB = "matplotlib is not installed, so the report has no plots (pip install 'cardsmith[sim]')"


def write_all(out: Path, rows: Sequence[Row], config: Config, summary: dict[str, Any]) -> list[str]:
    """Write the three files into `out` (made if needed); the notes to show the user (a missing plotter)."""
    out.mkdir(parents=True, exist_ok=True)
    write_json(out / "summary.json", summary)
    write_csv(out / "matches.csv", rows, config, summary)
    notes: list[str] = []
    images: list[tuple[str, str]] = []
    missing = None
    if plots.available():
        images = plots.all_plots(summary)
    else:
        missing = NO_MATPLOTLIB
        notes.append(NO_MATPLOTLIB)
    (out / "report.html").write_text(report_html(summary, images, missing), encoding="utf-8")
    return notes
