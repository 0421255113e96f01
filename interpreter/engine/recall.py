"""The history block of the information state tensor: what a player saw and did, in order.

The information state string (infostate.py) is a player's perfect recall: each event of the match as the
player perceived it and what the player saw change after it. This block puts the same record in a tensor
of fixed size: one *frame* per step of the match (the start of the match, then one per player action),
oldest first, `frames(g)` of them, the unused ones all 0. A frame holds:

- `present` (1): 1 for a step that happened;
- `actor` (n): one-hot, the seat that acted, relative to the player (all 0 for the start of the match);
- `action` (number of declared actions): one-hot, which action;
- `hidden` (1): 1 when the player does not see its parameters (a `secret` action of another player);
- `param:<i>:<kind>`, one block per parameter position and kind that some action has, shared by the
  actions with such a parameter: a card one-hot over the pack, a player one-hot (relative), a suit or a rank
  one-hot over the deck's, a flag (1), a number one-hot over its range (or its offset in the range, raw,
  past `ONE_HOT_MAX` values), a text one-hot over the listed ones, a list of cards a bit per card;
- `seen` (pack size): for each card the player sees after the step in a zone (and seat, for a per-player
  zone) where it did not see that card before it, the card's place there, (i + 1) / the zone's size for the
  i-th card from the bottom (so never 0): what chance or the others' hidden moves showed, and where;
- `seen_ended` (pack size, in a game of more than one deal): the same for the last deal as it ended (the
  view `observation.Ended` keeps), each deal's places its own.

`frames(g)` is one more than the most moves of a match (the start of the match is a step too): the rule
file's `match: bounds: actions` (bounds.py, enforced as the match is played), at most `MAX_MOVES`. So the
block's size is fixed by the rule file, its player count and options. The block starts with `dropped` (1):
0, unless the match has more moves than the block holds (possible only in a game whose bound, or lack of
one, is past `MAX_MOVES`): then the frames are the start of the match and the latest moves, and `dropped` is
how many moves between them are left out. Only there is the recall not perfect.

Working the frames out needs the player's view after every step. It is remembered in `State.seen` under
("recall", p) as the information state strings are, shared by clones and copied on write, so asking at every
step of a match (or at each child of a state) costs one step, and any other state replays its history once.
"""

from __future__ import annotations

from typing import Any

from . import bounds
from .history import entries, explicit, groups, lazy_from_start, one_action_on, replay
from .observation import _plan, _sees

# A number parameter with more values than this is written as one raw value, not one-hot.
ONE_HOT_MAX = 256
# The most moves the block holds, whatever the rule file's bound: a game that declares no bound (or a larger
# one) still has a tensor of a size a learner can take; a longer match keeps its start and its latest moves.
MAX_MOVES = 1_000


def _kind_width(g: Any, kind: str, radix: int) -> int:
    if kind == "card" or kind == "cards":
        return int(g.num_cards)
    if kind == "player":
        return int(g.n)
    if kind == "suit":
        return len(g.spec.suits)
    if kind == "rank":
        return len(g.spec.ranks)
    if kind == "bool":
        return 1
    if kind == "int" and radix > ONE_HOT_MAX:
        return 1
    return radix  # int (one-hot) and str


class _Plan:
    """Per game: the frame's blocks, where each action's parameters go, and the number of frames."""

    def __init__(self, g: Any) -> None:
        n, c = g.n, g.num_cards
        self.frames = min(bounds.max_game_length(g), MAX_MOVES) + 1
        widths: dict[tuple[int, str], int] = {}
        for info in g.actions:
            for i, (p, radix) in enumerate(zip(info.params, info.radix)):
                key = (i, p.kind)
                widths[key] = max(widths.get(key, 0), _kind_width(g, p.kind, radix))
        layout: list[tuple[str, int]] = [("present", 1), ("actor", n), ("action", len(g.actions)), ("hidden", 1)]
        layout += [(f"param:{i}:{kind}", w) for (i, kind), w in widths.items()]
        layout.append(("seen", c))
        if g.max_deals != 1:
            layout.append(("seen_ended", c))
        self.layout = layout
        at: dict[str, int] = {}
        pos = 0
        for name, size in layout:
            at[name] = pos
            pos += size
        self.width = pos
        self.actor, self.action, self.hidden, self.seen = at["actor"], at["action"], at["hidden"], at["seen"]
        self.param_at = {key: at[f"param:{key[0]}:{key[1]}"] for key in widths}
        self.raw = {key for key, w in widths.items() if key[1] == "int" and w == 1}


def plan(g: Any) -> _Plan:
    got = g.__dict__.get("_recall_plan")
    if got is None:
        got = g.__dict__["_recall_plan"] = _Plan(g)
    return got  # type: ignore[no-any-return]


def frame_layout(g: Any) -> list[tuple[str, int]]:
    """One frame's blocks, (name, size) in order."""
    return list(plan(g).layout)


def frames(g: Any) -> int:
    """How many frames the block holds: the steps of the longest match the rule file allows."""
    return plan(g).frames


def size(g: Any) -> int:
    """The block's length: `dropped`, then the frames."""
    pl = plan(g)
    return 1 + pl.frames * pl.width


# A frame, sparse: the positions (within the frame) holding 1 and (position, value) pairs.
Frame = tuple[tuple[int, ...], tuple[tuple[int, float], ...]]
# card -> (the place p sees it in, its place in that zone's order); see `_places`.
Places = dict[int, tuple[int, float]]


def _action_frame(g: Any, pl: _Plan, p: int, who: int, action: int) -> tuple[list[int], list[tuple[int, float]]]:
    info = g.action_for(action)
    ones = [0, pl.actor + (who - p) % g.n, pl.action + info.index]
    values: list[tuple[int, float]] = []
    if info.secret and info.params and who != p:
        ones.append(pl.hidden)
        return ones, values
    k = action - info.offset
    for i, (param, radix) in enumerate(zip(info.params, info.radix)):
        k, d = divmod(k, radix)
        key = (i, param.kind)
        at = pl.param_at[key]
        kind = param.kind
        if kind == "player":
            ones.append(at + (d - p) % g.n)
        elif kind == "bool":
            if d:
                ones.append(at)
        elif kind == "cards":
            ones.extend(at + card for card in info.values[i][d])
        elif key in pl.raw:
            if d:
                values.append((at, float(d)))
        else:
            ones.append(at + d)  # card, suit, rank, text, a number's offset: the digit is the position
    return ones, values


def _places(s: Any, p: int) -> dict[int, tuple[int, float]]:
    """card -> (the zone slot p sees it in, its place there: (i + 1) / the zone's size), for every card p
    sees at s."""
    out: Places = {}
    _add(s, p, out, 0, 0)
    ended = s.ended
    if ended is not None:  # the last deal as it ended: its cards after the pack's, its places its deal's own
        _add(ended.state, p, out, s.game.num_cards, ended.deal * len(s.z))
    return out


def _add(s: Any, p: int, out: Places, card0: int, zone0: int) -> None:
    zplan, _ = _plan(s.game)
    for zi, ((_, how, owner, rule), cards) in enumerate(zip(zplan, s.z)):
        if cards and _sees(s, p, how, owner, rule):
            k = len(cards)
            for i, card in enumerate(cards):
                out[card0 + card] = (zone0 + zi, (i + 1) / k)


class _Recall:
    """What `State.seen[("recall", p)]` holds: p's frames up to a state that is not a chance node (`trail`),
    and the places of the cards p saw there."""

    __slots__ = ("trail", "frames", "places")

    def __init__(self, trail: Any, frames: tuple[Frame, ...], places: Places) -> None:
        self.trail = trail
        self.frames = frames
        self.places = places


def _frame(ones: list[int], values: list[tuple[int, float]], pl: _Plan, before: Places | None,
           after: Places | None) -> Frame:
    if after is not None:
        old = before or {}
        at = pl.seen
        values.extend((at + card, place) for card, (zi, place) in after.items()
                      if (got := old.get(card)) is None or got[0] != zi)
    return tuple(ones), tuple(values)


def _extend(s: Any, p: int, cached: _Recall, pl: _Plan) -> _Recall | None:
    """p's frames at s from those of a state one action before s (None if s is further on, or a chance
    node: its view is the one before the step drawing its chance)."""
    action = one_action_on(s.trail, cached.trail)
    if action is False or s.pending is not None:
        return None
    if action is None:
        return cached
    ones, values = _action_frame(s.game, pl, p, action[0], action[1])
    places = _places(s, p)
    entry = _Recall(s.trail, cached.frames + (_frame(ones, values, pl, cached.places, places),), places)
    s.remember(("recall", p), entry)
    return entry


def _replayed(s: Any, p: int, pl: _Plan) -> tuple[Frame, ...]:
    """p's frames at s by replaying its history (the last one's `seen` left out at a chance node, as the
    information state string leaves out what the step drawing its chance shows). The other players' frames
    come out of the same replay and are remembered too: a state read back or resampled is often asked each
    player's tensor in turn."""
    g = s.game
    items = entries(s.trail)
    setup = s.setup
    steps = groups(explicit(items) if setup is None else items)
    players = range(g.n)
    out: list[list[Frame]] = [[] for _ in players]
    last: list[Places | None] = [None for _ in players]

    def after(t: Any, i: int) -> None:
        who, action = steps[i][0], steps[i][1]
        for q in players:
            if who is not None and action is not None:
                ones, values = _action_frame(g, pl, q, who, action)
            else:
                ones, values = [0], []
            places = _places(t, q) if t.pending is None else None
            out[q].append(_frame(ones, values, pl, last[q], places))
            if places is not None:
                last[q] = places

    t = replay(g, None if setup is None else s.seed0, steps, after, setup, lazy=lazy_from_start(s, items))
    if t.pending is None:
        for q in players:
            s.remember(("recall", q), _Recall(s.trail, tuple(out[q]), last[q] or {}))
    return tuple(out[p])


def _frames_of(s: Any, p: int) -> tuple[Frame, ...]:
    pl = plan(s.game)
    seen = s.seen
    cached = seen.get(("recall", p)) if seen else None
    if cached is not None:
        if cached.trail is s.trail:
            return cached.frames  # type: ignore[no-any-return]
        entry = _extend(s, p, cached, pl)
        if entry is not None:
            return entry.frames
    return _replayed(s, p, pl)


def write_history(s: Any, p: int, out: Any, at: int) -> None:
    """Write p's frames at s into `out` (all zeros) from position `at`."""
    pl = plan(s.game)
    got = _frames_of(s, p)
    if len(got) > pl.frames:  # past MAX_MOVES: the start of the match and the latest moves
        out[at] = float(len(got) - pl.frames)
        got = got[:1] + got[len(got) - pl.frames + 1:]
    width = pl.width
    for k, (ones, values) in enumerate(got):
        base = at + 1 + k * width
        for i in ones:
            out[base + i] = 1.0
        for i, v in values:
            out[base + i] = v
