"""What one player knows, as text: the observation string and the information state string.

`observation_string(s, p)` renders `observe(s, p)` (observation.py) and nothing else, one line per zone
and variable, so it hides what the observation hides. `information_state_string(s, p)` is p's perfect
recall: a header, then for each event of the history as p perceived it (its own actions in full, the
others' as `public_action_string` shows them, chance not at all) the lines of the observation that
changed after it, then the whole current observation. Observations are shown only at states that are not
chance nodes: a state at a chance node is the state before the step that is drawing its chance, so a
state with a seed and one without give the same text for the same match.

Working the text out needs p's observation after every past step. It is remembered per player in
`State.seen` (shared by clones, copied on write) for states that are not chance nodes, with the whole
string once asked, so asking again costs nothing and a state one action away from one whose text is known
extends that text by one step. Asking one player's string also extends the other players' texts known one
action before (`_follow`), so an algorithm that asks the string of whoever acts at each state it visits
(CFR, MCCFR) never replays the match; a state before any player acted gives every player's text at once
(`_started`). Otherwise the history is replayed: for p alone the first time at a state, and for every
player not yet known there the next time (`_replayed`), since a state read back from its serialization is
often asked each player's string in turn; at a chance node the text replayed up to it is remembered under
("chance", p). The observations are rendered line by line (obstext.py), the same text as
`render(g, observe(s, p))`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import GameError
from .history import CHANCE, entries, explicit, groups, lazy_from_start, one_action_on, replay
from .obstext import Lines, _key, _value, observation_lines, observation_lines_of
from .text import one_line

if TYPE_CHECKING:
    from .state import State


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
    return "\n".join(_lines(s, p)[0])


def _player(s: State, p: Any) -> None:
    if type(p) is not int or not 0 <= p < s.game.n:
        raise GameError(f"no player {p!r}: the seats are 0 to {s.game.n - 1}")


def perceived(g: Any, p: int, who: int, action: int) -> str:
    """An action as player p saw it."""
    text = g.action_to_string(who, action) if who == p else g.public_action_string(action)
    return f"{g.player_name(who)}: {one_line(text)}"


def _indent(text: str) -> list[str]:
    return ["  " + line for line in text.split("\n")]


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


class Seen:
    """What `State.seen[p]` holds: p's information state at one state that is not a chance node (`trail`),
    as the text up to its "now:" line (`head`), the observation then (`obs`) and the whole string once
    asked (`text`). An entry is never changed but to fill in `text`, which its trail decides."""

    __slots__ = ("trail", "head", "obs", "text")

    def __init__(self, trail: Any, head: str, obs: Lines) -> None:
        self.trail = trail
        self.head = head
        self.obs = obs
        self.text: str | None = None


def _remember(s: State, key: int | tuple[str, int], seen: Seen | _Chance) -> None:
    s.remember(key, seen)


def _lines(s: State, p: int) -> Lines:
    return s._evaluating(observation_lines, p)  # type: ignore[no-any-return]


def _whole(head: str, obs: Lines) -> str:
    return head + "\nnow:\n  " + "\n  ".join(obs[0])


def _changed(before: Lines | None, after: Lines) -> list[str]:
    """`changes` of two observations given as lines and keys."""
    if before is None:
        return ["  " + x for x in after[0]]
    old = set(before[0])
    out = ["  " + x for x in after[0] if x not in old]
    keys = set(after[1])
    out.extend(f"  gone: {k}" for k in before[1] if k not in keys)
    return out


def _extend(s: State, p: int, cached: Seen) -> tuple[str, Lines | None] | None:
    """p's text up to s and p's observation at s (None at a chance node), from the entry of a state at most
    one action before s; None if s is further on."""
    action = one_action_on(s.trail, cached.trail)
    if action is False:
        return None  # two actions on: the observation between them is not known here
    if action is None:
        return (cached.head, _lines(s, p)) if s.pending is None else None
    out = cached.head + "\n" + perceived(s.game, p, action[0], action[1])
    if s.pending is not None:
        return out, None
    obs = _lines(s, p)
    if obs[0] != cached.obs[0]:
        out += "\n" + "\n".join(["observation:", *_changed(cached.obs, obs)])
    _remember(s, p, Seen(s.trail, out, obs))
    return out, obs


def header(s: Any, p: int) -> str:
    """The string's first line (`s` a state of either backend: it reads the game alone)."""
    g = s.game
    return f"information state of {g.player_name(p)} in {one_line(g.name)} for {g.n} players"


def information_state_string(s: State, p: int) -> str:
    _player(s, p)
    seen = s.seen
    cached = seen.get(p) if seen else None
    if cached is not None and cached.trail is s.trail and s.pending is None:
        text = cached.text
        if text is None:
            text = cached.text = _whole(cached.head, cached.obs)
        return text
    done = _extend(s, p, cached) if cached is not None else None
    if done is None and s.pending is not None and _known_here(s, p):
        done = seen[("chance", p)].head, None  # type: ignore[index]
    if done is None:
        done = _started(s, p)
    if done is None:
        done = _replayed(s, p)
    head, obs = done
    if obs is None:  # a chance node: the state before the step drawing its chance
        return _whole(head, _lines(s, p))
    if s.pending is None:
        _follow(s, p)
        entry = s.seen[p] if s.seen else None
        if entry is not None and entry.trail is s.trail:
            entry.text = _whole(head, obs)
            return entry.text
    return _whole(head, obs)


def _follow(s: State, p: int) -> None:
    """Bring the other players' entries one action behind s up to s. An algorithm that asks each acting
    player's string in turn (CFR, MCCFR) then extends every player's text by one step at each state it
    visits instead of replaying the match each time a player acts after another; a player whose string was
    never asked (or not since an action before the last) costs nothing here."""
    seen = s.seen
    if not seen or len(seen) < 2:
        return
    for q, entry in list(seen.items()):
        if type(q) is int and q != p and entry.trail is not s.trail:  # ("own", q): tensors.own_counts
            _extend(s, q, entry)


def _started(s: State, p: int) -> tuple[str, Lines] | None:
    """At a state before any player acted (not a chance node), every player's text is its header and the
    observation now: worked out for all players at once, without a replay."""
    if s.pending is not None:
        return None
    h = s.trail
    while h:
        h, who, _ = h
        if who >= 0:
            return None
    g = s.game
    for q in range(g.n):
        obs = _lines(s, q)
        entry = Seen(s.trail, "\n".join([header(s, q), "observation:", *_changed(None, obs)]), obs)
        _remember(s, q, entry)
    mine = s.seen[p]  # type: ignore[index]
    return mine.head, mine.obs


def _known_here(s: State, q: int) -> bool:
    """Whether q's text up to s is remembered (a replay for q ran at s, or q's string was asked there)."""
    seen = s.seen
    if not seen:
        return False
    entry = seen.get(q if s.pending is None else ("chance", q))
    return entry is not None and entry.trail is s.trail


def _replayed(s: State, p: int) -> tuple[str, Lines | None]:
    """p's text up to s and p's observation at s (None at a chance node), worked out by replaying the
    history from the start. Once one player's text was worked out at s, another's replay works out every
    player's not yet known there: a state read back from its serialization is often asked each player's
    string in turn, and one replay then does what one a player would (the rules' `visible` run once per
    step, each zone's line is made once)."""
    g = s.game
    players = [p]
    if any(_known_here(s, q) for q in range(g.n) if q != p):
        players += [q for q in range(g.n) if q != p and not _known_here(s, q)]
    items = entries(s.trail)
    # A seed's draws as outcomes: one replay for every kind of state. A state set up with fixed cards is
    # replayed as it was played, from its seed and its setup (the setup decides outcomes of the deal).
    setup = s.setup
    steps = groups(explicit(items) if setup is None else items)
    outs: list[list[str]] = [[header(s, q)] for q in players]
    last: list[Lines | None] = [None] * len(players)
    one = len(players) == 1

    def after(t: State, i: int) -> None:
        who, action = steps[i][0], steps[i][1]
        if who is not None and action is not None:
            public = None
            for q, out in zip(players, outs):
                if q == who:
                    out.append(perceived(g, q, who, action))
                else:
                    if public is None:
                        public = perceived(g, q, who, action)
                    out.append(public)
        if t.pending is None:
            seen = [_lines(t, p)] if one else t._evaluating(observation_lines_of, players)
            for j, obs in enumerate(seen):
                before = last[j]
                if before is None or obs[0] != before[0]:
                    out = outs[j]
                    out.append("observation:")
                    out.extend(_changed(before, obs))
                    last[j] = obs
    t = replay(g, None if setup is None else s.seed0, steps, after, setup, lazy=lazy_from_start(s, items))
    heads = ["\n".join(out) for out in outs]
    if t.pending is not None or last[0] is None:
        for q, head in zip(players, heads):
            _remember(s, ("chance", q), _Chance(s.trail, head))
        return heads[0], None
    for q, head, obs in zip(players, heads, last):
        _remember(s, q, Seen(s.trail, head, obs))  # type: ignore[arg-type]
    return heads[0], last[0]


class _Chance:
    """What `State.seen[("chance", p)]` holds: p's text up to a state at a chance node (`trail`), as its
    replay worked it out."""

    __slots__ = ("trail", "head")

    def __init__(self, trail: Any, head: str) -> None:
        self.trail = trail
        self.head = head


__all__ = ["CHANCE", "information_state_string", "observation_string", "render"]
