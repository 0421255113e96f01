"""Fixed-size numeric views of a state for one player: the observation and information state tensors.

The encoding is derived from the rule file alone (its seats, pack, zones, variables, phases and actions),
the same way for every game, and is read from `observation.observe(s, p)`: the tensor holds nothing the
player's observation does not, so cards hidden from the player cannot reach it.

Every seat in the tensor is written *relative to the player* (slot 0 is the player, slot 1 the next seat
clockwise, ...), so a learner sees its own hand in the same place whatever its seat; the player's absolute
seat is one block of its own. The blocks, in order (`tensor_layout(game)` lists them with their sizes):

| block | size | value |
| --- | --- | --- |
| `seat` | n | one-hot: the player's absolute seat |
| `turn` | n + 2 | one-hot: the seat to act (relative), then chance node, then match over |
| `dealer` | n | one-hot: the dealer (relative) |
| `active` | n | 1 for each seat still in the match (relative) |
| `deal` | 1 | the deal number (raw) |
| `phase` | phases | one-hot: the current phase, in the order of the rule file |
| `zone:<name>` | per slot: 2 + C | each zone in rule-file order; a per-player zone has one slot per seat (relative). A slot is: 1 if the player sees its cards, the number of cards divided by the pack size C, then one bit per card of the pack that is in the zone (all 0 when the player does not see it) |
| `var:<name>` | per slot: 1 + v | each variable in rule-file order (per-player ones one slot per seat, relative): 1 if visible to the player, then the value (all 0 when hidden), with v by type: `int`/`number` 1 (raw value), `bool` 1 (0/1), `player` n (one-hot, relative), `card` C (one-hot), `suit`/`rank` one-hot over the deck's suits/ranks, `text` 1 (1 when set and not empty), `cards` C (one bit per card), `players` n (count per seat, relative), `numbers` 2 (length, sum) |

The information state tensor is the observation tensor followed by `own_actions`: for each action id,
how many times the player took it in the match so far (when the game has more than `MAX_ACTION_IDS` ids,
one count per declared action instead). Cards are multi-hot, so the order of cards within a zone is not
in the tensor (the strings keep it). Shapes are fixed for a game at its player count and options.
"""

from __future__ import annotations

from typing import Any

from ..dsl import types as T
from .observation import observe

MAX_ACTION_IDS = 65_536


def _var_width(g: Any, ty: Any) -> int:
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
        out.append((f"zone:{z.name}", (n if z.per_player else 1) * (2 + c)))
    for v in g.spec.variables:
        out.append((f"var:{v.name}", (n if v.per_player else 1) * (1 + _var_width(g, v.ty))))
    if info_state:
        out.append(("own_actions", _own_width(g)))
    return out


def _own_width(g: Any) -> int:
    nd = _num_distinct(g)
    return nd if nd <= MAX_ACTION_IDS else len(g.actions)


def _num_distinct(g: Any) -> int:
    nd = g.num_distinct_actions
    return int(nd() if callable(nd) else nd)


def observation_tensor_shape(g: Any) -> list[int]:
    return [sum(size for _, size in tensor_layout(g))]


def information_state_tensor_shape(g: Any) -> list[int]:
    return [sum(size for _, size in tensor_layout(g, True))]


class _Index:
    """Per game: card names to ids and where each zone and variable slot starts."""

    def __init__(self, g: Any) -> None:
        self.card = {name: i for i, name in enumerate(g.card_names)}
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
            pos += count * (2 + c)
        self.var_at: list[tuple[int, int, int | None]] = []  # flat variable -> (offset of seat 0, width, owner)
        for v in g.spec.variables:
            width = 1 + _var_width(g, v.ty)
            count = n if v.per_player else 1
            for p in range(count):
                self.var_at.append((pos, width, p if v.per_player else None))
            pos += count * width
        self.size = pos
        assert pos == sum(size for _, size in tensor_layout(g)), "the index and the layout disagree"


def _index(g: Any) -> _Index:
    idx = g.__dict__.get("_tensor_index")
    if idx is None:
        idx = g.__dict__["_tensor_index"] = _Index(g)
    return idx  # type: ignore[no-any-return]


def _fill(s: Any, p: int, out: list[float]) -> None:
    g = s.game
    n, c = g.n, g.num_cards
    idx = _index(g)
    obs = observe(s, p)

    def rel(q: int) -> int:
        return (q - p) % n

    out[p] = 1.0
    cp = s.current_player()
    if s.is_terminal():
        out[n + n + 1] = 1.0
    elif cp < 0:
        out[n + n] = 1.0
    else:
        out[n + rel(cp)] = 1.0
    base = 2 * n + 2
    out[base + rel(obs["dealer"])] = 1.0
    base += n
    for q in obs["active"]:
        out[base + rel(q)] = 1.0
    base += n
    out[base] = float(obs["deal"])
    base += 1
    out[base + s.phase] = 1.0
    card = idx.card
    for zi, name in enumerate(g.zone_names):
        at, owner = idx.zone_at[zi]
        at += (rel(owner) if owner is not None else 0) * (2 + c)
        shown = obs["zones"][name]
        if isinstance(shown, int):
            out[at + 1] = shown / c
        else:
            out[at] = 1.0
            out[at + 1] = len(shown) / c
            for cn in shown:
                out[at + 2 + card[cn]] = 1.0
    variables = obs["variables"]
    for vi, name in enumerate(g.var_names):
        if name not in variables:
            continue
        at, width, owner = idx.var_at[vi]
        at += (rel(owner) if owner is not None else 0) * width
        out[at] = 1.0
        _put(idx, g.var_specs[vi][0].ty, variables[name], out, at + 1, rel)


def _put(idx: _Index, ty: Any, value: Any, out: list[float], at: int, rel: Any) -> None:
    if value is None:
        return
    if ty in (T.INT, T.NUM):
        out[at] = float(value)
    elif ty == T.BOOL:
        out[at] = 1.0 if value else 0.0
    elif ty == T.STR:
        out[at] = 1.0 if value != "" else 0.0
    elif ty == T.PLAYER:
        out[at + rel(value)] = 1.0
    elif ty == T.CARD:
        out[at + idx.card[value]] = 1.0
    elif ty == T.SUIT:
        out[at + idx.suit[value]] = 1.0
    elif ty == T.RANK:
        out[at + idx.rank[value]] = 1.0
    elif T.is_list(ty):
        el = T.elem(ty)
        if el == T.CARD:
            for cn in value:
                out[at + idx.card[cn]] = 1.0
        elif el == T.PLAYER:
            for q in value:
                out[at + rel(q)] += 1.0
        else:
            out[at] = float(len(value))
            out[at + 1] = float(sum(value))


def observation_tensor(s: Any, p: int) -> list[float]:
    """Player p's observation of state s as a flat list of floats (the layout of the module's docstring)."""
    g = s.game
    out = [0.0] * _index(g).size
    _fill(s, p, out)
    return out


def information_state_tensor(s: Any, p: int) -> list[float]:
    """The observation tensor followed by the counts of p's own actions in the match so far."""
    g = s.game
    out = observation_tensor(s, p)
    own = [0.0] * _own_width(g)
    by_id = _num_distinct(g) <= MAX_ACTION_IDS
    for actor, a in _acted(s):
        if actor == p:
            own[a if by_id else g.action_for(a).index] += 1.0
    return out + own


def _acted(s: Any) -> list[tuple[int, int]]:
    """(player, action id) of every player action taken so far, oldest first."""
    raise NotImplementedError
