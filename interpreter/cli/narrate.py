"""A match told as text and as event records: what `cardsmith run` prints, and `cardsmith replay` the same way.

`narrate` reads the log of each state it is given in turn (each one the match a step further), so a match
played by bots and one replayed from a record print alike, line for line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..dsl import types as T
from ..dsl.diagnostics import count_of
from ..engine.game import Game
from ..engine.runtime import _shown
from ..engine.state import State


def describe_event(g: Game, ev: tuple[Any, ...]) -> list[str]:
    """The lines `run` prints for one event (escaped when printed)."""
    kind = ev[0]
    if kind == "deal":
        return ["", f"== Deal {ev[1]} (dealer {g.player_name(ev[2])})"]
    if kind == "action":
        return [f"  {g.player_name(ev[1])}: {ev[2]}"]
    if kind == "announce":
        return [f"  * {ev[1]}"]
    if kind == "eliminated":
        return [f"  * {g.player_name(ev[1])} is out of the match"]
    if kind == "sits_out":
        return [f"  * {g.player_name(ev[1])} sits out this deal"]
    if kind == "team":
        return [f"  * {g.player_name(ev[1])} is on team {ev[2]}"]
    if kind == "end_deal":
        lines = [f"  End of deal {ev[1]}"]
        for label, values in ev[2]:
            vals = ", ".join(f"{g.player_name(p)} {fmt(v)}" for p, v in enumerate(values))
            lines.append(f"    {label}: {vals}")
        return lines
    if kind == "over":
        w = ev[1]
        names = " and ".join(g.player_name(p) for p in w)
        over = f"The match is over: {names} {'wins' if len(w) == 1 else 'share the win'}" if w else \
            "The match is over: no winner"
        return ["", over, returns_line(g, ev[2])]
    return []


def header(g: Game, seed: int | None) -> str:
    """The first line of a match's log (run and replay): the game, the players, the seed and the options."""
    shown = ", ".join(f"{k}={('yes' if v else 'no') if isinstance(v, bool) else v}" for k, v in g.options.items())
    return f"{g.name}, {count_of(g.n, 'player')}, seed {seed if seed is not None else 'none'}" + (
        f", options {shown}" if g.options else "")


def returns_line(g: Game, rets: Sequence[float]) -> str:
    """Each player's result under the game's name for it: `chips: P0 2, P1 -2`."""
    return f"{g.returns_name}: " + ", ".join(f"{g.player_name(p)} {fmt(v)}" for p, v in enumerate(rets))


def fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# How a variable's value is written in the summary (`runtime._shown`): players and cards by name.
_SHOWN_AS: dict[T.Type, str] = {T.PLAYER: "player", T.CARD: "card"}


def var_summary(g: Game, s: State) -> list[str]:
    """The per-player match variables everyone sees, after a deal's `end_deal`. A variable named like a `report`
    line is left out: the designer's report, printed just above under that label, is the line to keep, and two
    lines with one label (one before `end_deal`, one after) would read as a contradiction."""
    lines = []
    per: dict[str, list[Any]] = {}
    reported = {label for label, _fn, _kind, _span in g.reports}
    for i, (v, _owner) in enumerate(g.var_specs):
        if v.per_player and v.visible == "everyone" and v.scope == "match" and v.name not in reported:
            kind = _SHOWN_AS.get(v.ty, "plain")
            per.setdefault(v.name, []).append(_shown(s, s.v[i], kind))
    for name, vals in per.items():
        lines.append(f"    {name}: " + ", ".join(f"{g.player_name(p)} {fmt(x)}" + (
            " (out)" if s.out[p] else "") for p, x in enumerate(vals)))
    # Per-team ones for the teams players have now, each with its players: "score: team 0 (P0, P2) 6".
    teams = sorted(set(s.team))
    for i, (v, t) in enumerate(g.var_specs):
        if v.per_team and v.visible == "everyone" and v.scope == "match" and v.name not in reported and t in teams:
            members = ", ".join(g.player_name(p) for p in range(g.n) if s.team[p] == t)
            kind = _SHOWN_AS.get(v.ty, "plain")
            text = f"team {t} ({members}) {fmt(_shown(s, s.v[i], kind))}"
            if t == teams[0]:
                lines.append(f"    {v.name}: {text}")
            else:
                lines[-1] += f", {text}"
    return lines




def event_record(g: Game, ev: tuple[Any, ...]) -> dict[str, Any]:
    kind = ev[0]
    if kind == "deal":
        return {"event": "deal", "deal": ev[1], "dealer": ev[2]}
    if kind == "action":
        return {"event": "action", "player": ev[1], "action": ev[2]}
    if kind == "announce":
        return {"event": "announce", "text": ev[1]}
    if kind == "eliminated":
        return {"event": "eliminated", "player": ev[1]}
    if kind == "sits_out":
        return {"event": "sits_out", "player": ev[1]}
    if kind == "team":
        return {"event": "team", "player": ev[1], "team": ev[2]}
    if kind == "end_deal":
        return {"event": "end_deal", "deal": ev[1], "report": {label: vals for label, vals in ev[2]}}
    if kind == "over":
        return {"event": "over", "winners": ev[1]}
    return {"event": kind}


def narrate(g: Game, states: Iterable[State], out: list[str], records: list[dict[str, Any]]) -> State | None:
    """Append the lines and event records of each state's new log entries; the last state."""
    consumed = 0
    last = None
    for s in states:
        log = s.log or []
        for ev in log[consumed:]:
            if ev[0] == "scores":
                out.extend(var_summary(g, s))
            else:
                out.extend(describe_event(g, ev))
            records.append(event_record(g, ev))
        consumed = len(log)
        last = s
    return last
