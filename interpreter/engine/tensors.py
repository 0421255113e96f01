"""Fixed-size numeric views of a state for one player: the observation and information state tensors.

The encoding is derived from the rule file alone (its seats, pack, zones, variables, phases and actions),
the same way for every game. It shows what `observation.observe(s, p)` shows and decides what the player
may see the same way (the `visible` rules of zones and variables), so cards hidden from the player cannot
reach it.

Every seat in the tensor is written *relative to the player* (slot 0 is the player, slot 1 the next seat
clockwise, ...), so a learner sees its own hand in the same place whatever its seat; the player's absolute
seat is one block of its own. The blocks, in order (`tensor_layout(game)` lists them with their sizes):

- `seat` (n): one-hot, the player's absolute seat;
- `turn` (n + 2): one-hot, the seat to act (relative), then "chance node", then "match over";
- `dealer` (n): one-hot, the dealer (relative); `active` (n): 1 for each seat still in (relative);
- `deal` (1): the deal number (raw); `phase` (number of phases): one-hot, in rule-file order;
- `zone:<name>`, each zone in rule-file order, one slot of 2 + 2C (C: the pack's size) per seat for a
  per-player zone (relative), else one: 1 if the player sees the zone's cards, the number of cards / C,
  one bit per card of the pack that is in the zone, then the card's place in the zone's order, (i + 1) /
  the number of cards for the i-th from the bottom, so the top card (an upcard, the last card played to a
  trick) is 1 (bits and places all 0 when the player does not see them);
- `var:<name>`, each variable in rule-file order, one slot per seat for a per-player one (relative), one per
  team number for a per-team one (team 0 first, not relative: a team is not a seat): 1 if
  the player sees it, then its value (all 0 when hidden or none), by type: `int`/`number` 1 (raw),
  `bool` 1 (0/1), `player` n (one-hot, relative), `card` C (one-hot), `suit`/`rank` one-hot over the
  deck's suits/ranks, `text` 1 (1 when not empty), `cards` C (a bit per card), `players` n (a count
  per seat, relative), `numbers` 2 (length and sum), `card_lists` 1 + C (how many lists, raw, then a bit
  per card that is in any of them: which cards lie in which list is in the strings, not the tensor).

The information state tensor is the observation tensor followed by `history`: the player's perfect recall,
a frame per step of the match with what the player saw done and what it saw appear (recall.py). Shapes
are fixed for a game at its player count and options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dsl import types as T
from . import recall
from .observation import _var_viewers, _zone_viewers

def _var_width(g: Any, ty: T.Type) -> int:
    if ty in (T.INT, T.NUM, T.BOOL, T.STR):
        return 1
    if ty == T.PLAYER:
        return int(g.n)
    if ty == T.CARD:
        return int(g.num_cards)
    if ty == T.SUIT:
        return len(g.spec.suits)
    if ty == T.RANK:
        return len(g.spec.ranks)
    if T.card_lists(ty):
        return 1 + int(g.num_cards)
    if T.is_list(ty):
        el = T.elem(ty)
        if el == T.CARD:
            return int(g.num_cards)
        if el == T.PLAYER:
            return int(g.n)
        return 2
    return 1


def tensor_layout(g: Any, info_state: bool = False) -> list[tuple[str, int]]:
    """The tensor's blocks, (name, size) in order; see the module's docstring."""
    n, c = g.n, g.num_cards
    out: list[tuple[str, int]] = [("seat", n), ("turn", n + 2), ("dealer", n), ("active", n), ("deal", 1),
                                  ("phase", len(g.phases))]
    for z in g.spec.zones:
        out.append((f"zone:{z.name}", (n if z.per_player else 1) * (2 + 2 * c)))
    for v in g.spec.variables:
        out.append((f"var:{v.name}", (n if v.per_player or v.per_team else 1) * (1 + _var_width(g, v.ty))))
    if g.max_deals != 1:
        out.append(("ended", 2 + sum(size for _, size in out[6:])))
    if info_state:
        out.append(("history", recall.size(g)))
    return out


def observation_size(g: Any) -> int:
    """The observation tensor's length (worked out once per game)."""
    return _index(g).size


def history_size(g: Any) -> int:
    """The length of the `history` block that ends the information state tensor."""
    return recall.size(g)


def observation_tensor_shape(g: Any) -> list[int]:
    return [sum(size for _, size in tensor_layout(g))]


def information_state_tensor_shape(g: Any) -> list[int]:
    return [sum(size for _, size in tensor_layout(g, True))]


class _Index:
    """Per game: card names to ids and where each zone and variable slot starts."""

    def __init__(self, g: Any) -> None:
        self.suit = {s: i for i, s in enumerate(g.spec.suits)}
        self.rank = {r: i for i, r in enumerate(g.spec.ranks)}
        n, c = g.n, g.num_cards
        pos = 4 * n + 3 + len(g.phases)
        self.head = pos
        self.zone_at: list[tuple[int, int | None]] = []  # flat zone -> (offset of seat 0's slot, owner)
        for z in g.spec.zones:
            count = n if z.per_player else 1
            for p in range(count):
                self.zone_at.append((pos, p if z.per_player else None))
            pos += count * (2 + 2 * c)
        # flat variable -> (offset of seat 0, width, owner seat or None); a per-team variable's slots are
        # indexed by team number, 0 to n - 1, not by seat, so each is at its own place, not relative.
        self.var_at: list[tuple[int, int, int | None]] = []
        for v in g.spec.variables:
            width = 1 + _var_width(g, v.ty)
            count = n if v.per_player or v.per_team else 1
            for p in range(count):
                self.var_at.append((pos + (p * width if v.per_team else 0), width, p if v.per_player else None))
            pos += count * width
        # The last deal as it ended (observation.Ended): 1, its deal number, then its zones and variables as
        # above, each at its place plus `ended + 2 - head`.
        self.ended = pos
        if g.max_deals != 1:
            pos += 2 + pos - self.head
        self.size = pos
        # The fixed visibility of each zone and variable ("everyone", "nobody", "owner"), or None where a rule
        # decides: then `_zone_viewers` / `_var_viewers` run it. The same answers as theirs, worked out once.
        self.zone_vis = [z.visible if isinstance(z.visible, str) else None for z in g.zone_specs]
        # A per-team variable's "owner" is a team, whose players change: `_var_viewers` decides for it.
        self.var_vis = [v.visible if isinstance(v.visible, str) and not (v.per_team and v.visible == "owner")
                        else None for v, _ in g.var_specs]
        assert pos == sum(size for _, size in tensor_layout(g)), "the index and the layout disagree"
        self.var_kind = [_kind(v.ty) for v, _ in g.var_specs]
        self.seats = [_Seat(self, g, p) for p in range(n)]


def _index(g: Any) -> _Index:
    idx = g.__dict__.get("_tensor_index")
    if idx is None:
        idx = g.__dict__["_tensor_index"] = _Index(g)
    return idx  # type: ignore[no-any-return]


def write_observation(s: Any, p: int, out: Any) -> None:
    """Write p's observation tensor into `out` (a list or numpy array of the right size, all zeros)."""
    ones, values = _sparse(s, p)
    if isinstance(out, list):
        for i in ones:
            out[i] = 1.0
        for i, v in values:
            out[i] += v
        return
    out[ones] = 1.0
    # The values never fall where a 1 is, and at distinct places (the usual case) adding them to the zeros
    # there is writing them, in one go; a count per seat may add at one place twice.
    at = [i for i, _ in values]
    if len(set(at)) == len(at):
        out[at] = [v for _, v in values]
    else:
        for i, v in values:
            out[i] += v


def _sparse(s: Any, p: int) -> tuple[list[int], list[tuple[int, float]]]:
    """The tensor as the positions holding 1 and (position, value) pairs to add.

    What p may see is decided exactly as `observation.observe` decides it (`_zone_viewers`,
    `_var_viewers`); the values are read from the state directly, which saves naming every card."""
    g = s.game
    n, c = g.n, g.num_cards
    idx = _index(g)
    plan = idx.seats[p]
    rel = plan.rel
    ones: list[int] = [p]
    values: list[tuple[int, float]] = []
    if s.is_terminal():
        ones.append(n + n + 1)
    else:
        cur = s.current_player()
        ones.append(n + n if cur < 0 else n + rel[cur])
    base = 2 * n + 2
    ones.append(base + rel[s.dealer])
    base += n
    out = s.out
    ones += [base + rel[q] for q in range(n) if not out[q]]
    base += n
    values.append((base, float(s.deal_no)))
    ones.append(base + 1 + s.phase)
    _body(s, p, idx, plan, 0, ones, values)
    ended = s.ended
    if ended is not None:
        at = idx.ended
        ones.append(at)
        values.append((at + 1, float(ended.deal)))
        _body(ended.state, p, idx, plan, at + 2 - idx.head, ones, values)
    return ones, values


def _body(s: Any, p: int, idx: _Index, plan: _Seat, shift: int, ones: list[int],
          values: list[tuple[int, float]]) -> None:
    """The zones and variables of s as p sees them, each `shift` places on from its own block."""
    n, c = s.game.n, s.game.num_cards
    for zi, (cards, at, sees) in enumerate(zip(s.z, plan.zone_at, plan.zone_sees)):
        at += shift
        if cards:
            values.append((at + 1, len(cards) / c))
        if sees is None:
            shown = _zone_viewers(s, zi)
            sees = shown is None or p in shown
        if sees:
            ones.append(at)
            if cards:
                at += 2
                ones += [at + card for card in cards]
                at += c
                k = len(cards)
                values += [(at + card, (i + 1) / k) for i, card in enumerate(cards)]
    kinds = idx.var_kind
    for vi, (value, at, sees) in enumerate(zip(s.v, plan.var_at, plan.var_sees)):
        if sees is None:
            shown = _var_viewers(s, vi)
            sees = shown is None or p in shown
        if not sees:
            continue
        at += shift
        ones.append(at)
        if value is None:
            continue
        kind = kinds[vi]
        if kind == NUMBER:
            values.append((at + 1, float(value)))
        elif kind == FLAG:
            if value:
                ones.append(at + 1)
        else:
            _put(idx, kind, value, ones, values, at + 1, p, n)


class _Seat:
    """Per game and player: where each zone's and variable's slot is for the player (seats relative to it)
    and whether it sees it, when that is fixed (None: a rule decides, at the state)."""

    def __init__(self, idx: _Index, g: Any, p: int) -> None:
        n, c = g.n, g.num_cards
        self.rel = [(q - p) % n for q in range(n)]  # seat -> seat relative to p
        self.zone_at = [at if owner is None else at + (owner - p) % n * (2 + 2 * c) for at, owner in idx.zone_at]
        self.zone_sees = [_fixed(vis, owner, p) for vis, (_, owner) in zip(idx.zone_vis, idx.zone_at)]
        self.var_at = [at if owner is None else at + (owner - p) % n * width for at, width, owner in idx.var_at]
        self.var_sees = [_fixed(vis, owner, p) for vis, (_, _, owner) in zip(idx.var_vis, idx.var_at)]


def _fixed(vis: str | None, owner: int | None, p: int) -> bool | None:
    """Whether p sees a zone or variable, where the rule file fixes it; None where a rule decides."""
    if vis == "everyone":
        return True
    if vis == "owner":
        return owner == p
    if vis == "nobody":
        return False
    return None


# How a variable's value is written (`_kind`): a number, a flag (`bool`, or a `text` that is not empty), a
# one-hot (player, card, suit, rank), cards, lists of cards, players (a count per seat), numbers.
NUMBER, FLAG, TEXT, PLAYER, CARD, SUIT, RANK, CARD_LISTS, CARDS, PLAYERS, NUMBERS, OTHER = range(12)


def _kind(ty: T.Type) -> int:
    if ty in (T.INT, T.NUM):
        return NUMBER
    if ty == T.BOOL:
        return FLAG
    if ty == T.STR:
        return TEXT
    if ty == T.PLAYER:
        return PLAYER
    if ty == T.CARD:
        return CARD
    if ty == T.SUIT:
        return SUIT
    if ty == T.RANK:
        return RANK
    if T.card_lists(ty):
        return CARD_LISTS
    if T.is_list(ty):
        el = T.elem(ty)
        return CARDS if el == T.CARD else PLAYERS if el == T.PLAYER else NUMBERS
    return OTHER


def _put(idx: _Index, kind: int, value: Any, ones: list[int], values: list[tuple[int, float]], at: int, p: int,
         n: int) -> None:
    if kind == NUMBER:
        values.append((at, float(value)))
    elif kind == FLAG:
        if value:
            ones.append(at)
    elif kind == TEXT:
        if value != "":
            ones.append(at)
    elif kind == PLAYER:
        ones.append(at + (value - p) % n)
    elif kind == CARD:
        ones.append(at + value)
    elif kind == SUIT:
        ones.append(at + idx.suit[value])
    elif kind == RANK:
        ones.append(at + idx.rank[value])
    elif kind == CARD_LISTS:
        values.append((at, float(len(value))))
        ones.extend(at + 1 + card for xs in value for card in xs)
    elif kind == CARDS:
        ones.extend(at + card for card in value)
    elif kind == PLAYERS:
        values.extend((at + (q - p) % n, 1.0) for q in value)
    elif kind == NUMBERS:
        values.append((at, float(len(value))))
        values.append((at + 1, float(sum(value))))


def observation_tensor(s: Any, p: int) -> list[float]:
    """Player p's observation of state s as a flat list of floats (the layout of the module's docstring)."""
    out = [0.0] * _index(s.game).size
    write_observation(s, p, out)
    return out


def information_state_tensor(s: Any, p: int) -> list[float]:
    """The observation tensor followed by p's perfect recall (the `history` block, recall.py)."""
    g = s.game
    out = observation_tensor(s, p)
    base = len(out)
    out.extend([0.0] * recall.size(g))
    recall.write_history(s, p, out, base)
    return out


def write_information_state(s: Any, p: int, out: Any) -> None:
    """Write p's information state tensor into `out` (a list or numpy array of the right size, all zeros)."""
    write_observation(s, p, out)
    recall.write_history(s, p, out, _index(s.game).size)


def own_counts(s: Any, p: int) -> Mapping[int, float]:
    """How many times p took each action id in s's match so far (do not change the mapping: it is shared).

    Counted from the history once, then from the counts of the state a few steps before: they are kept in
    `State.seen` under ("own", p), shared by clones and copied on write as the information state strings
    are, so asking at every step of a match (or at each child of a state) costs a step, not the history."""
    key = ("own", p)
    seen = s.seen
    cached = seen.get(key) if seen else None
    node, counts = cached if cached is not None else ((), _NONE)
    added: list[int] = []
    h = s.trail
    while h is not node:
        if not h:  # the counts kept are of a state this one does not come from: the whole history is walked
            counts = _NONE
            break
        h, who, what = h
        if who == p:
            added.append(what)
    if added:
        counts = dict(counts)
        for a in added:
            counts[a] = counts.get(a, 0.0) + 1.0
    if cached is None or cached[0] is not s.trail:
        s.remember(key, (s.trail, counts))
    return counts


_NONE: Mapping[int, float] = {}


def own_actions(history: Any, p: int) -> dict[int, float]:
    """Counts of p's actions in a history: (player, action) pairs or objects with `player` and `action`."""
    counts: dict[int, float] = {}
    for it in history:
        actor, a = (it[0], it[1]) if isinstance(it, tuple) else (it.player, it.action)
        if actor == p:
            counts[int(a)] = counts.get(int(a), 0.0) + 1.0
    return counts
