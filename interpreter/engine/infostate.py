"""What one player knows, as text: the observation string and the information state string.

`observation_string(s, p)` renders `observe(s, p)` (observation.py) and nothing else, one line per zone
and variable, so it hides what the observation hides. `information_state_string(s, p)` is p's perfect
recall: a header, then for each event of the history as p perceived it (its own actions in full, the
others' as `public_action_string` shows them, chance not at all) the lines of the observation that
changed after it, then the whole current observation. Observations are shown only at states that are not
chance nodes: a state at a chance node is the state before the step that is drawing its chance, so a
state with a seed and one without give the same text for the same match.

Working the text out needs p's observation after every past step. It is remembered per player in
`State.seen` (shared by clones, copied on write) for states that are not chance nodes, so a state one
action away from one whose text was asked extends that text; otherwise the history is replayed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .errors import GameError
from .history import CHANCE, entries, explicit, groups, lazy_from_start, replay
from .text import one_line

if TYPE_CHECKING:
    from .state import State


def _value(v: Any) -> str:
    if v is None:
        return "none"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return one_line(str(v))


def render(g: Any, obs: dict[str, Any]) -> str:
    """An observation (observation.observe) as text: deterministic, one line per zone and variable."""
    p = obs["player"]
    if obs["terminal"]:
        winners = ", ".join(g.player_name(w) for w in obs["winners"]) or "nobody"
        turn = f"over, won by {winners}"
    elif obs["current"] is None:
        turn = "chance to act"
    else:
        turn = f"{g.player_name(obs['current'])} to act"
    lines = [f"{g.player_name(p)} sees: deal {obs['deal']}, dealer {g.player_name(obs['dealer'])}, "
             f"phase '{one_line(obs['phase'])}', {turn}",
             "in play: " + ", ".join(g.player_name(q) for q in obs["active"])]
    _seen(lines, "", obs)
    end = obs["deal_end"]
    if end is not None:
        _seen(lines, f"end of deal {end['deal']}, ", end)
    return "\n".join(lines)


def _seen(lines: list[str], prefix: str, obs: dict[str, Any]) -> None:
    for name, cards in obs["zones"].items():
        if isinstance(cards, int):
            lines.append(f"{prefix}{name}: {cards} hidden")
        else:
            lines.append(f"{prefix}{name}: " + (" | ".join(one_line(c) for c in cards) if cards else "-"))
    for name, v in obs["variables"].items():
        lines.append(f"{prefix}{name} = {_value(v)}")


def observation_string(s: State, p: int) -> str:
    _player(s, p)
    return render(s.game, s.observation(p))


def _player(s: State, p: Any) -> None:
    if type(p) is not int or not 0 <= p < s.game.n:
        raise GameError(f"no player {p!r}: the seats are 0 to {s.game.n - 1}")


def perceived(g: Any, p: int, who: int, action: int) -> str:
    """An action as player p saw it."""
    text = g.action_to_string(who, action) if who == p else g.public_action_string(action)
    return f"{g.player_name(who)}: {one_line(text)}"


def _indent(text: str) -> list[str]:
    return ["  " + line for line in text.split("\n")]


_KEY = re.compile(r"[^:=]*")


def _key(line: str) -> str:
    """What a line of an observation string is about: its zone or variable, or the first two lines."""
    m = _KEY.match(line)
    return m.group(0) if m else line


def changes(before: str | None, after: str) -> list[str]:
    """The lines of observation `after` that are not in `before` (all of them if there is none), and a
    `gone:` line for each zone or variable `before` showed and `after` does not."""
    if before is None:
        return _indent(after)
    old = set(before.split("\n"))
    new_lines = after.split("\n")
    keys = {_key(x) for x in new_lines}
    out = ["  " + x for x in new_lines if x not in old]
    out.extend(f"  gone: {_key(x)}" for x in before.split("\n") if _key(x) not in keys)
    return out


# What `State.seen[p]` holds: (the trail it was worked out for, the lines so far, the last observation shown).
Seen = tuple[Any, tuple[str, ...], str | None]


def _remember(s: State, p: int, seen: Seen) -> None:
    old = s.seen or {}
    s.seen = {**old, p: seen}


def _finish(s: State, p: int, lines: tuple[str, ...]) -> str:
    return "\n".join(lines + ("now:",) + tuple(_indent(observation_string(s, p))))


def _extend(s: State, p: int, cached: Seen) -> tuple[str, ...] | None:
    """The lines for s from those of a state one action before it, or None if s is not one action on."""
    node, lines, last = cached
    h = s.trail
    action: tuple[int, int] | None = None
    while h is not node:
        if not h:
            return None
        h, who, what = h
        if who >= 0:
            if action is not None:
                return None  # two actions on: the observation between them is not known here
            action = (who, what)
    if action is None:
        return lines if s.pending is None else None
    out = lines + (perceived(s.game, p, action[0], action[1]),)
    if s.pending is None:
        obs = observation_string(s, p)
        if obs != last:
            out += ("observation:",) + tuple(changes(last, obs))
        _remember(s, p, (s.trail, out, obs))
    return out


def header(s: State, p: int) -> str:
    g = s.game
    return f"information state of {g.player_name(p)} in {one_line(g.name)} for {g.n} players"


def information_state_string(s: State, p: int) -> str:
    _player(s, p)
    cached = (s.seen or {}).get(p)
    if cached is not None:
        if cached[0] is s.trail and s.pending is None:
            return _finish(s, p, cached[1])
        lines = _extend(s, p, cached)
        if lines is not None:
            return _finish(s, p, lines)
    return _finish(s, p, _replayed(s, p))


def _replayed(s: State, p: int) -> tuple[str, ...]:
    """The lines for s, worked out by replaying its history from the start."""
    g = s.game
    items = entries(s.trail)
    # A seed's draws as outcomes: one replay for every kind of state. A state set up with fixed cards is
    # replayed as it was played, from its seed and its setup (the setup decides outcomes of the deal).
    setup = s.setup
    steps = groups(explicit(items) if setup is None else items)
    out: list[str] = [header(s, p)]
    last: list[str | None] = [None]

    def after(t: State, i: int) -> None:
        who, action = steps[i][0], steps[i][1]
        if who is not None and action is not None:
            out.append(perceived(g, p, who, action))
        if t.pending is None:
            obs = observation_string(t, p)
            if obs != last[0]:
                out.extend(("observation:", *changes(last[0], obs)))
                last[0] = obs
    t = replay(g, None if setup is None else s.seed0, steps, after, setup, lazy=lazy_from_start(s, items))
    lines = tuple(out)
    if t.pending is None:
        _remember(s, p, (s.trail, lines, last[0]))
    return lines


__all__ = ["CHANCE", "information_state_string", "observation_string", "render"]
