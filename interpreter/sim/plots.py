"""The report's images, drawn with matplotlib (optional: the `sim` extra) as PNG, returned as base64 text
for `<img src="data:image/png;base64,...">`, so report.html is one self-contained file.

`Figure` is used without pyplot: no global figure state and no display backend, so this works on a
server and inside worker-free code alike (the Agg canvas draws PNGs).
"""

from __future__ import annotations

import base64
import io
from typing import Any

from ..engine.text import one_line

WIDTH, HEIGHT, DPI = 7.0, 3.6, 100


def _t(text: str) -> str:
    """A rule file's name as matplotlib text: one line, and no '$', which would start mathtext."""
    return one_line(text).replace("$", r"\$")


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(cols: int = 1) -> tuple[Any, list[Any]]:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator
    fig = Figure(figsize=(WIDTH if cols == 1 else 1.5 * WIDTH, HEIGHT), layout="constrained")
    axes = [fig.add_subplot(1, cols, i + 1) for i in range(cols)]
    if cols > 1:  # the two-panel plots count matches, deals or actions: whole numbers on the x axis
        for ax in axes:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig, axes


def _shares(ax: Any, labels: list[str], items: list[dict[str, Any]], even: float, title: str) -> None:
    xs = list(range(len(items)))
    shares = [x["share"] for x in items]
    lo = [x["share"] - x["ci95"][0] for x in items]
    hi = [x["ci95"][1] - x["share"] for x in items]
    ax.bar(xs, shares, color="#4c72b0", yerr=[lo, hi], capsize=4, ecolor="#333333")
    ax.axhline(even, color="#c44e52", linestyle="--", linewidth=1, label=f"even game: {even:.1%}")
    ax.set_xticks(xs)
    ax.set_xticklabels([_t(x) for x in labels], rotation=0 if len(labels) <= 8 else 45)
    ax.set_ylabel("win share")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize="small")


def seats(summary: dict[str, Any]) -> str:
    fig, (ax,) = _figure()
    _shares(ax, [s["name"] for s in summary["seats"]], summary["seats"], 1 / summary["players"],
            "win share by seat (95% Wilson intervals)")
    return _png(fig)


def bots(summary: dict[str, Any]) -> str:
    fig, (ax,) = _figure()
    table = summary["bots_table"]
    _shares(ax, [b["bot"] for b in table], table, 1 / summary["players"], "win share per seat held, by bot")
    return _png(fig)


def length(summary: dict[str, Any]) -> str:
    fig, axes = _figure(2)
    for ax, what in zip(axes, ("actions", "deals")):
        h = summary["length"][what]["histogram"]
        starts = [h["start"] + k * h["width"] for k in range(len(h["counts"]))]
        if h["width"] == 1:  # one bar per value, centred on it
            ax.bar(starts, h["counts"], width=0.9, color="#55a868")
        else:
            ax.bar(starts, h["counts"], width=h["width"], align="edge", color="#55a868", edgecolor="white")
        ax.set_xlabel(f"{what} per match")
        ax.set_ylabel("matches")
        ax.set_title(f"match length: {what}")
    return _png(fig)


def score(summary: dict[str, Any]) -> str | None:
    sc = summary["score"]
    if not sc["available"]:
        return None
    names = summary["player_names"]
    what = f"'{_t(sc['label'])}'" + (" (running total)" if sc["as"] == "total" else "")
    mean = sc["mean_by_deal"]
    if len(mean) <= 1:
        # One deal per match: no history to draw; the spread of the final standings per seat instead.
        fig, (ax,) = _figure()
        boxes = [{"label": _t(name), "med": f["median"], "q1": f["q1"], "q3": f["q3"], "whislo": f["min"],
                  "whishi": f["max"], "mean": f["mean"]} for name, f in zip(names, sc["final_by_seat"])]
        ax.bxp(boxes, showfliers=False, showmeans=True)
        ax.set_ylabel(what)
        ax.set_title(f"final {what} by seat ({sc['order']}): min, quartiles, max; triangle: mean")
        return _png(fig)
    fig, (a1, a2) = _figure(2)
    sample = sc["sample"]["standings"]
    deals = list(range(1, len(sample) + 1))
    for p, name in enumerate(names):
        a1.plot(deals, [st[p] for st in sample], marker="o", markersize=3, label=_t(name))
    a1.set_title(f"match {sc['sample']['match']} (seed {sc['sample']['seed']})", fontsize="small")
    for p, name in enumerate(names):
        a2.plot([d["deal"] for d in mean], [d["mean"][p] for d in mean], label=_t(name))
    a2.set_title("mean over the matches that lasted that long", fontsize="small")
    for ax in (a1, a2):
        ax.set_xlabel("deal")
        ax.set_ylabel(what)
    a1.legend(fontsize="small")
    fig.suptitle(f"score history: {what}, {sc['order']}")
    return _png(fig)


def actions(summary: dict[str, Any]) -> str:
    fig, (ax,) = _figure()
    acts = summary["actions"]
    ys = list(range(len(acts)))
    total = summary["decisions"]["total"] or 1
    ax.barh([y + 0.2 for y in ys], [a["legal_at"] / total for a in acts], height=0.4, color="#8c8c8c",
            label="legal at (share of decisions)")
    ax.barh([y - 0.2 for y in ys], [a["taken_share"] for a in acts], height=0.4, color="#4c72b0",
            label="taken (share of decisions)")
    ax.set_yticks(ys)
    ax.set_yticklabels([_t(a["name"]) for a in acts])
    ax.invert_yaxis()
    ax.set_title("how often each action is legal and taken")
    ax.legend(fontsize="small", loc="lower right")
    fig.set_size_inches(WIDTH, max(2.0, 0.45 * len(acts) + 1.2))
    return _png(fig)


def all_plots(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(caption, base64 PNG) for every plot that has data."""
    out = [("Win share by seat, with 95% Wilson intervals; the dashed line is an even game (1/N).", seats(summary)),
           ("Match length: actions and deals per match.", length(summary))]
    sc = score(summary)
    if sc is not None:
        one = len(summary["score"]["mean_by_deal"]) <= 1
        out.append(("Final score by seat (every match is one deal)." if one else
                    "Score history: one match (left) and the mean by deal (right).", sc))
    out.append(("Win share per seat held, by bot.", bots(summary)))
    if summary["actions"]:
        out.append(("How often each action of the rule file is legal and taken.", actions(summary)))
    return out
