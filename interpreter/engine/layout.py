"""A declared OpenSpiel layout (`openspiel:` in a rule file): action ids and tensors as an OpenSpiel game has them.

`layout_of(game)` works the section out once per game: each card's OpenSpiel id, each cardsmith action id's
OpenSpiel id (its action's expression of its parameters) and each tensor's blocks with their sizes. Then, at
a state: `legal(s)` the legal OpenSpiel ids, `to_cardsmith(s, a)` the legal action an OpenSpiel id stands for,
and `tensor(s, p, name)` a tensor of seat p.

Hidden information: every expression of a tensor is read on a masked copy of the state (`masked.py`), the
cards p cannot see dealt out again in an order that depends on nothing hidden, the variables p cannot see at
their initial values; so a block that reads another player's hand reads the same arbitrary cards whatever
that hand holds. A `moves` block reads, for each move p saw (another player's secret action is not one: p
did not see its parameters), the masked copy of the state the move was made in, found by replaying the
history; the moves are kept per player in `State.seen`, as the information state strings are, so a state one
action on from a known one adds one move (`after_move`) instead of replaying.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl import types as T
from ..dsl.library import _short
from .errors import GameError, RuleError
from .history import entries, explicit, groups, lazy_from_start, replay
from .masked import masked

if TYPE_CHECKING:
    from ..dsl.spec import TensorBlock
    from .game import Game
    from .state import State

TENSORS = ("observation", "information_state")
# A layout maps every cardsmith action id, so a game with more than this many has none.
MAX_IDS = 1_000_000
# The masked copies are drawn from this seed: what they hold of hidden places is arbitrary, and the same for
# two states the seat cannot tell apart.
MASK_SEED = 0


class Block:
    """One block of a tensor, worked out for the game: where it starts, its sizes, its functions."""

    def __init__(self, g: Game, tensor: str, k: int, spec: TensorBlock, start: int) -> None:
        ns = g.ns
        self.spec = spec
        self.kind = spec.kind
        self.key = (tensor, k)
        self.name = spec.name
        self.size = _whole(g, ns[abi.openspiel_block(tensor, k, "size")], spec.size.span, "'size'")
        self.width = 1
        if spec.width is not None:
            self.width = _whole(g, ns[abi.openspiel_block(tensor, k, "width")], spec.width.span, "'width'")
        self.count = 1
        self.each = None
        self.value = ns.get(abi.openspiel_block(tensor, k, "value"))
        self.card = spec.value is not None and spec.value.ty == T.CARD or spec.kind == "cards"
        self.bit_card = spec.bit is not None and spec.bit.ty == T.CARD
        self.parts = {}
        if spec.kind == "moves":
            for name, _ in spec.actions:
                self.parts[name] = tuple(ns.get(abi.openspiel_move(tensor, k, part, name))
                                         for part in ("at", "bit", "when"))
        if spec.each is not None:
            self.each = ns[abi.openspiel_block(tensor, k, "each")]
            first = g.new_initial_state()
            items = first.evaluating_as(0, self.each, 0)
            if type(items) is not list:
                raise RuleError("'for' of a tensor block must give a list", spec.each[1].span,
                                detail=f"got {_short(items)}")
            self.count = len(items)
        self.start = start
        self.total = self.size * self.width * self.count


def _whole(g: Game, fn: Any, span: Any, what: str, *args: Any) -> int:
    g.steps[0] = g.step_limit
    v = g._call(fn, span, *args)
    if type(v) is not int or v < 0:
        raise RuleError(f"{what} of 'openspiel' must be a whole number, 0 or more", span, detail=f"got {_short(v)}")
    return v


class Layout:
    """The `openspiel:` section of a game at its player count and options."""

    def __init__(self, g: Game) -> None:
        spec = g.spec.openspiel
        if spec is None:
            raise GameError(f"{g.name} declares no OpenSpiel layout: its rule file has no 'openspiel' section")
        self.game = g
        self.spec = spec
        self.name = spec.game
        ns = g.ns
        if spec.card is not None:
            fn, span = ns[abi.OPENSPIEL_CARD], spec.card.span
            self.card_ids = [_whole(g, fn, span, "'card'", c) for c in range(g.num_cards)]
        else:
            self.card_ids = list(range(g.num_cards))
        assert spec.num_actions is not None
        self.num_actions = _whole(g, ns[abi.OPENSPIEL_NUM_ACTIONS], spec.num_actions.span, "'num_actions'")
        codec = g.codec
        missing = [a.name for a in g.spec.actions if a.name not in spec.actions]
        if missing:
            raise GameError(f"{g.name} has no OpenSpiel layout: its 'openspiel' section gives no id for the "
                            f"action{'s' if len(missing) > 1 else ''} {', '.join(repr(m) for m in missing)} (a "
                            "variant that adds actions declares their ids under 'openspiel: actions')")
        if codec.num_actions > MAX_IDS:
            raise GameError(f"{g.name} has {codec.num_actions:,} action ids: an OpenSpiel layout maps at most "
                            f"{MAX_IDS:,}")
        self.ids: list[int] = []
        for a in range(codec.num_actions):
            info, vals = codec.decode(a)
            e, _ = spec.actions[info.name]
            g.steps[0] = g.step_limit  # each id is worked out on a budget of its own
            v = g._call(ns[abi.openspiel_action(info.name)], e.span, *vals)
            if e.ty == T.CARD and type(v) is int:
                v = self.card_ids[v]
            if type(v) is not int or not 0 <= v < self.num_actions:
                raise RuleError(f"the OpenSpiel id of '{info.name}' must be a whole number from 0 to "
                                f"{self.num_actions - 1} ('num_actions')", e.span,
                                detail=f"{codec.describe(a)} gives {_short(v)}")
            self.ids.append(v)
        self.blocks: dict[str, list[Block]] = {}
        self.sizes: dict[str, int] = {}
        for tensor in TENSORS:
            at = 0
            out = []
            for k, b in enumerate(getattr(spec, tensor)):
                block = Block(g, tensor, k, b, at)
                at += block.total
                out.append(block)
            self.blocks[tensor] = out
            self.sizes[tensor] = at
        self.moves = [b for tensor in TENSORS for b in self.blocks[tensor] if b.kind == "moves"]

    def declares(self, tensor: str) -> bool:
        return bool(self.blocks[tensor])

    # ------------------------------------------------------------ ids
    def legal(self, s: State) -> list[int]:
        """The OpenSpiel ids of the legal actions, ascending; two legal actions with one id are a rule error
        (unless `ties: first`)."""
        out: dict[int, int] = {}
        first = self.spec.ties == "first"
        for a in s.legal_actions():
            x = self.ids[a]
            if x in out:
                if first:
                    continue
                raise self._twice(s, x, out[x], a)
            out[x] = a
        return sorted(out)

    def to_cardsmith(self, s: State, x: int) -> int:
        """The legal action whose OpenSpiel id is x (with `ties: first`, the lowest of several)."""
        found = [a for a in s.legal_actions() if self.ids[a] == x]
        if not found:
            raise GameError(f"no legal action has the OpenSpiel id {x} here")
        if len(found) > 1 and self.spec.ties != "first":
            raise self._twice(s, x, found[0], found[1])
        return found[0]

    def any_cardsmith(self, x: int) -> int | None:
        """The lowest cardsmith id with OpenSpiel id x (for texts away from a state)."""
        return next((a for a, y in enumerate(self.ids) if y == x), None)

    def _twice(self, s: State, x: int, a: int, b: int) -> RuleError:
        codec = self.game.codec
        e, _ = self.spec.actions[codec.action_for(b).name]
        return RuleError(f"two legal actions have the OpenSpiel id {x}: {codec.describe(a)} and {codec.describe(b)}",
                         e.span, s.where())

    # ------------------------------------------------------------ tensors
    def size(self, tensor: str) -> int:
        return self.sizes[tensor]

    def tensor(self, s: State, p: int, tensor: str) -> list[float]:
        """Tensor `tensor` of seat p at s, read from what p may see."""
        g = self.game
        if type(p) is not int or not 0 <= p < g.n:
            raise GameError(f"no player {p!r}: the seats are 0 to {g.n - 1}")
        out = [0.0] * self.sizes[tensor]
        blocks = self.blocks[tensor]
        m = masked(s, p, random.Random(MASK_SEED))
        cells = self._moves(s, p) if any(b.kind == "moves" for b in blocks) else {}
        for b in blocks:
            if b.kind == "moves":
                for pos in cells.get(b.key, ()):
                    out[b.start + pos] = 1.0
            else:
                m.evaluating_as(p, self._write, b, p, out)
        return out

    def _write(self, m: State, b: Block, p: int, out: list[float]) -> None:
        assert b.value is not None
        if b.each is None:
            values = [b.value(m, p)]
        else:
            items = b.each(m, p)
            if type(items) is not list or len(items) != b.count:
                assert b.spec.each is not None
                raise RuleError(f"'for' of a tensor block gave {_short(items)}, not a list of {b.count} (as when "
                                "the match began)", b.spec.each[1].span)
            values = [b.value(m, p, x) for x in items]
        size = b.size
        for j, v in enumerate(values):
            base = b.start + j * size
            if b.kind == "one_hot":
                if v is None:
                    continue
                self._set(b, out, base, self.card_ids[v] if b.card else v, size)
            elif b.kind == "cards":
                for c in v if type(v) is list else [] if v is None else [v]:
                    self._set(b, out, base, self.card_ids[c], size)
            elif b.kind == "numbers":
                xs = v if type(v) is list else [v]
                if len(xs) > size:
                    raise self._bad(b, f"{len(xs)} numbers do not fit in 'size' {size}", v)
                for i, x in enumerate(xs):
                    if x is None:  # not set yet (a variable before the match starts): nothing, as one_hot
                        continue
                    if type(x) not in (int, float):
                        raise self._bad(b, "numbers", v)
                    out[base + i] = float(x)
            else:  # thermometer
                if type(v) not in (int, float) or v < 0 or v > size:
                    raise self._bad(b, f"a thermometer of 'size' {size} holds a number from 0 to {size}", v)
                for i in range(int(v)):
                    out[base + i] = 1.0

    def _set(self, b: Block, out: list[float], base: int, i: Any, size: int) -> None:
        if type(i) is not int or not 0 <= i < size:
            raise self._bad(b, f"a position from 0 to {size - 1} ('size')", i)
        out[base + i] = 1.0

    def _bad(self, b: Block, what: str, got: Any) -> RuleError:
        span = b.spec.value.span if b.spec.value is not None else b.spec.span
        return RuleError(f"the tensor block '{b.name}' wants {what}", span, detail=f"got {_short(got)}")

    # ------------------------------------------------------------ moves
    def _moves(self, s: State, p: int) -> dict[tuple[str, int], list[int]]:
        """For each moves block, the positions p's moves so far set (kept in `s.seen`)."""
        key = ("openspiel", p)
        kept = s.seen.get(key) if s.seen else None
        if kept is not None:
            h = s.trail
            while h is not kept[0]:
                if not h or h[1] >= 0:  # a player's action since: not the state it was kept for
                    kept = None
                    break
                h = h[0]
            if kept is not None:
                return kept[1]  # type: ignore[no-any-return]
        found, counts = self._replayed(s, p)
        s.remember(key, (s.trail, found, counts))
        return found

    def _replayed(self, s: State, p: int) -> tuple[dict[tuple[str, int], list[int]], dict[tuple[str, int], int]]:
        g = self.game
        items = entries(s.trail)
        setup = s.setup
        steps = groups(explicit(items) if setup is None else items)
        found: dict[tuple[str, int], list[int]] = {b.key: [] for b in self.moves}
        counts = {b.key: 0 for b in self.moves}

        def after(t: State, i: int) -> None:
            if i + 1 < len(steps):
                who, action = steps[i + 1][0], steps[i + 1][1]
                if who is not None and action is not None:
                    self._add(t, p, who, action, found, counts)
        replay(g, None if setup is None else s.seed0, steps, after, setup, lazy=lazy_from_start(s, items))
        return found, counts

    def after_move(self, before: State, after: State, action: int) -> None:
        """Keep in `after` (the state `before` led to by `action`) each player's moves, one added, where
        `before` had them: the adapter calls this so that a match played step by step never replays."""
        who = before.cur
        for p in range(self.game.n):
            self._moves(before, p)
            kept = before.seen[("openspiel", p)]
            found = {k: list(v) for k, v in kept[1].items()}
            counts = dict(kept[2])
            self._add(before, p, who, action, found, counts)
            after.remember(("openspiel", p), (after.trail, found, counts))

    def _add(self, t: State, p: int, who: int, action: int, found: dict[tuple[str, int], list[int]],
             counts: dict[tuple[str, int], int]) -> None:
        """The move `action` of `who` at t (before it), as p saw it, added to each moves block."""
        g = self.game
        info, vals = g.codec.decode(action)
        if who != p and info.secret and info.params:
            return  # p saw that it happened, not what it was
        m: State | None = None
        for b in self.moves:
            parts = b.parts.get(info.name)
            if parts is None:
                continue
            index = counts[b.key]
            counts[b.key] = index + 1
            at_fn, bit_fn, when_fn = parts
            x = self.ids[action]
            if m is None:
                m = masked(t, p, random.Random(MASK_SEED))
            if when_fn is not None and not m.evaluating_as(who, when_fn, p, index, x, *vals):
                continue
            at = m.evaluating_as(who, at_fn, p, index, x, *vals) if at_fn is not None else index
            bit = m.evaluating_as(who, bit_fn, p, index, x, *vals) if bit_fn is not None else x
            if b.bit_card and type(bit) is int:
                bit = self.card_ids[bit]
            if type(at) is not int or not 0 <= at < b.size:
                raise RuleError(f"the tensor block '{b.name}' wants a slot from 0 to {b.size - 1} ('size')",
                                (b.spec.at or b.spec).span, detail=f"got {_short(at)}")
            if type(bit) is not int or not 0 <= bit < b.width:
                raise RuleError(f"the tensor block '{b.name}' wants a bit from 0 to {b.width - 1} ('width')",
                                (b.spec.bit or b.spec).span, detail=f"got {_short(bit)}")
            found[b.key].append(at * b.width + bit)


def layout_of(g: Game) -> Layout:
    """The game's declared OpenSpiel layout, worked out once."""
    kept = g.__dict__.get("_openspiel_layout")
    if kept is None:
        kept = g.__dict__["_openspiel_layout"] = Layout(g)
    return kept  # type: ignore[no-any-return]


__all__ = ["Layout", "layout_of", "TENSORS"]
