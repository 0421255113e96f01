"""Action ids: the mixed-radix encoding of an action and its parameter values, in one place.

Every action gets a block of consecutive ids starting at its offset; within the block, parameter i of a
value with digit d adds `d * stride[i]`, where the strides are the products of the earlier parameters'
radices. A parameter's digit is the value itself for a card or a player, the position in the deck's list
for a suit or a rank, 1 or 0 for a flag, `value - low` for a number in `range(low, high)`, the
position in the listed texts for a text, and the position in its `ids` for a list of cards (worked out
once per game, after the pack). So the id space of a game depends on its player count and options (the
pack, number ranges, ids), never on a state.

`ActionCodec` builds the tables (radices, strides, lows, texts) per action, encodes and decodes ids, finds
the action of an id and reads and prints their texts. The generated code does the same arithmetic inline
for speed: `legal_<action>` encodes the ids it appends and `run_<action>` decodes the id it is given,
reading these very tables from the namespace under the names `dsl/abi.py` gives them (`tables`). A change
to the encoding is a change here and in `ActionWriter.action` (dsl/codegen/actions.py) together.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..dsl import abi
from ..dsl.compiler import ParamInfo
from ..dsl.library import MAX_COMBINATIONS, _short
from .errors import AmbiguousAction, RuleError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

# Past this many ids the engine finds an id's action by bisection instead of a table of one entry per id.
TABLE_MAX = 200_000
# A number parameter may take at most this many values.
MAX_RANGE = 10_000
# A parameter over lists of cards may have at most this many ids: as many lists as `combinations` builds.
MAX_IDS = MAX_COMBINATIONS


@dataclass
class ActionInfo:
    """One action of a game: its block of ids and the encoding of its parameters."""

    name: str
    index: int
    offset: int
    size: int
    params: list[ParamInfo]
    radix: list[int]
    label: str | None
    run: Any = None  # the generated run function, (state, id - offset) -> None or a phase to go to
    secret: bool = False
    stride: list[int] = field(default_factory=list)
    lows: list[int] = field(default_factory=list)  # numbers: the lowest value; 0 for other kinds
    values: list[list[Any]] = field(default_factory=list)  # texts: the listed choices; lists of cards: the ids
    suits: tuple[Any, ...] = ()
    ranks: tuple[Any, ...] = ()

    def decode(self, k: int) -> tuple[Any, ...]:
        """The parameter values of the id `offset + k`."""
        out = []
        for p, radix, lo, vals in zip(self.params, self.radix, self.lows, self.values):
            k, d = divmod(k, radix)
            kind = p.kind
            out.append(d if kind in ("card", "player") else self.suits[d] if kind == "suit" else
                       self.ranks[d] if kind == "rank" else d == 1 if kind == "bool" else
                       lo + d if kind == "int" else list(vals[d]) if kind == "cards" else vals[d])
        return tuple(out)

    def encode(self, digits: list[int]) -> int:
        """The id of the parameters with these digits (each 0 <= digit < radix)."""
        return self.offset + sum(d * st for d, st in zip(digits, self.stride))


class ActionCodec:
    """The action ids of one game at its player count and options (see the module's docstring)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.actions: list[ActionInfo] = []
        spec, ns = game.spec, game.ns
        offset = 0
        for i, a in enumerate(spec.actions):
            params = game.compiled.params[a.name]
            radix: list[int] = []
            los: list[int] = []
            vals: list[list[Any]] = []
            for p in params:
                if p.kind == "int":
                    lo, hi = self._range(a.name, p)
                    radix.append(max(1, hi - lo))
                    los.append(lo)
                    vals.append([])
                elif p.kind == "cards":
                    ids = self._ids(a.name, p)
                    radix.append(len(ids))  # no ids, no values: the action has no ids at all
                    los.append(0)
                    vals.append(ids)
                else:
                    radix.append({"card": game.num_cards, "player": game.n, "suit": max(1, len(spec.suits)),
                                  "rank": max(1, len(spec.ranks)), "bool": 2}.get(p.kind, len(p.values or []) or 1))
                    los.append(0)
                    vals.append(p.values or [])
            stride, size = [], 1
            for r in radix:
                stride.append(size)
                size *= r
            self.actions.append(ActionInfo(a.name, i, offset, size, params, radix, a.label, ns[abi.run(a.name)],
                                           a.secret, stride, los, vals, tuple(spec.suits), tuple(spec.ranks)))
            offset += size
        self.num_actions = offset
        self.offsets = [a.offset for a in self.actions]
        # id -> (run function, offset), for the engine's step; bisect for huge id spaces.
        self.table: list[tuple[Any, int]] | None = None
        if offset <= TABLE_MAX:
            self.table = [(a.run, a.offset) for a in self.actions for _ in range(a.size)]
        self._texts: dict[str, list[tuple[dict[str, list[int]] | None, int, int, int]]] = {}

    def _range(self, action: str, p: ParamInfo) -> tuple[int, int]:
        assert p.bounds is not None
        g = self.game
        lo, hi = g._call(g.ns[p.bounds[0]], p.span), g._call(g.ns[p.bounds[1]], p.span)
        if type(lo) is not int or type(hi) is not int:
            raise RuleError(f"parameter '{p.name}' of '{action}' must range over whole numbers",
                            p.span, detail=f"range({_short(lo)}, {_short(hi)})")
        if hi - lo > MAX_RANGE:
            raise RuleError(f"parameter '{p.name}' of '{action}' has more than {MAX_RANGE:,} values", p.span)
        return lo, hi

    def _ids(self, action: str, p: ParamInfo) -> list[list[int]]:
        """Every value of a parameter over lists of cards, in the order of their ids: checked, and charged for
        its cards, once per game."""
        assert p.ids is not None and p.ids_span is not None
        g, span = self.game, p.ids_span
        what = f"the ids of parameter '{p.name}' of '{action}'"
        ids = g._call(g.ns[p.ids], span)
        if type(ids) is not list:
            raise RuleError(f"{what} must be a list of lists of cards", span, detail=f"got {_short(ids)}")
        if len(ids) > MAX_IDS:
            raise RuleError(f"{what} are more than {MAX_IDS:,} lists", span)
        g._charge(len(ids), span)
        seen: dict[tuple[int, ...], int] = {}
        nc = g.num_cards
        for k, xs in enumerate(ids):
            if type(xs) is not list or not all(type(c) is int and 0 <= c < nc for c in xs):
                raise RuleError(f"{what} must be lists of cards", span, detail=f"position {k}: got {_short(xs)}")
            g._charge(len(xs), span)
            key = tuple(xs)
            if key in seen:
                # Two ids would print and decode alike: every value must have one id.
                raise RuleError(f"{what} list the same cards twice, at positions {seen[key]} and {k}", span,
                                detail=f"[{', '.join(g.card_names[c] for c in xs)}]")
            seen[key] = k
        return [list(xs) for xs in ids]

    def tables(self) -> dict[str, Any]:
        """The tables the generated code encodes and decodes with, by their names in the namespace."""
        out: dict[str, Any] = {}
        for a in self.actions:
            out[abi.action_offset(a.name)] = a.offset
            out[abi.action_radix(a.name)] = a.radix
            out[abi.action_stride(a.name)] = a.stride
            out[abi.action_low(a.name)] = a.lows
            # A list of cards is looked up as a tuple of its cards, in order.
            out[abi.action_digit(a.name)] = [{(tuple(v) if p.kind == "cards" else v): k for k, v in enumerate(vs)}
                                             for p, vs in zip(a.params, a.values)]
            out[abi.action_values(a.name)] = a.values
        return out

    def action_for(self, a: int) -> ActionInfo:
        """The action whose block holds id `a` (a valid id)."""
        return self.actions[bisect_right(self.offsets, a) - 1]

    def decode(self, a: int) -> tuple[ActionInfo, tuple[Any, ...]]:
        info = self.action_for(a)
        return info, info.decode(a - info.offset)

    # ------------------------------------------------------------ texts
    def to_string(self, a: int) -> str:
        if not 0 <= a < self.num_actions:
            return f"<no action {a}>"
        info, vals = self.decode(a)
        parts = self.value_texts(info, vals)
        text = info.label or info.name
        if parts:
            text += " " + ", ".join(parts)
        return text

    def cards_text(self, cards: list[int]) -> str:
        """A list of cards as an action's text shows it: `[7 of hearts, 8 of hearts, 9 of hearts]`."""
        return "[" + ", ".join(self.game.card_names[c] for c in cards) + "]"

    def from_string(self, text: str) -> list[int]:
        """Every action id that `to_string` prints as `text`, lowest first.

        Each action's text is parsed (its label, then its parameters joined by ", "), so the cost
        does not depend on the size of the id space (two number parameters make 10**8 ids)."""
        if not isinstance(text, str):
            return []
        found: list[int] = []
        for info in self.actions:
            head = info.label or info.name
            if not info.params:
                if text == head:
                    found.append(info.offset)
                continue
            if not text.startswith(head + " "):
                continue
            for ks in parse_params(self.param_texts(info), text[len(head) + 1:]):
                found.append(info.encode(ks))
        # The parse is exact by construction; the final check keeps it so.
        return sorted(a for a in found if self.to_string(a) == text)

    def at_state(self, state: State, text: str) -> int | None:
        """The action printed as `text` at `state`, or None if no action prints so.

        Actions of different phases may print alike (the checker allows it only when no phase offers both,
        C034), so a text is read where it is used: the one legal now, else one the current phase offers,
        else the lowest. Two legal ones printing alike (a card named "Joker, red") raise AmbiguousAction."""
        ids = self.from_string(text)
        if len(ids) <= 1:
            return ids[0] if ids else None
        legal = set(state.legal_actions()) if not state.is_terminal() and not state.is_chance_node() else set()
        now = [a for a in ids if a in legal]
        if len(now) > 1:
            shown = "; ".join(self.describe(a) for a in now)
            raise AmbiguousAction(f"'{text}' is the text of {len(now)} legal actions ({shown}), so it cannot say "
                                  "which one is meant; the rule file must label or name them apart")
        if now:
            return now[0]
        offered = {name for name, _ in self.game.phases[state.phase].spec.actions}
        return next((a for a in ids if self.action_for(a).name in offered), ids[0])

    def describe(self, a: int) -> str:
        """An action id as its action's name and each parameter's name and text: swap(a='Joker, red', b='Joker')."""
        info, vals = self.decode(a)
        texts = self.value_texts(info, vals)
        return f"{info.name}({', '.join(f'{p.name}={t!r}' for p, t in zip(info.params, texts))})"

    def value_texts(self, info: ActionInfo, vals: tuple[Any, ...]) -> list[str]:
        """Each parameter value as an action's text shows it: a card's name, cards in brackets, P1, `up`/`no up`,
        a number, a name."""
        g = self.game
        return [g.card_names[v] if p.kind == "card" else self.cards_text(v) if p.kind == "cards" else
                g.player_name(v) if p.kind == "player" else (p.name if v else f"no {p.name}") if p.kind == "bool"
                else str(v) for p, v in zip(info.params, vals)]

    def param_texts(self, info: ActionInfo) -> list[tuple[dict[str, list[int]] | None, int, int, int]]:
        """Per parameter: its printed texts -> digits (None for a number), lowest value, radix, longest text."""
        if info.name in self._texts:
            return self._texts[info.name]
        g = self.game
        out: list[tuple[dict[str, list[int]] | None, int, int, int]] = []
        for p, radix, lo in zip(info.params, info.radix, info.lows):
            if p.kind == "int":
                out.append((None, lo, radix, max(len(str(lo)), len(str(lo + radix - 1)))))
                continue
            if p.kind == "card":
                texts = list(g.card_names[:radix])
            elif p.kind == "player":
                texts = [g.player_name(q) for q in range(radix)]
            elif p.kind == "suit":
                texts = [str(x) for x in info.suits]
            elif p.kind == "rank":
                texts = [str(x) for x in info.ranks]
            elif p.kind == "bool":
                texts = [f"no {p.name}", p.name]
            elif p.kind == "cards":
                texts = [self.cards_text(xs) for xs in info.values[len(out)]]
            else:
                texts = [str(x) for x in p.values or []]
            table: dict[str, list[int]] = {}
            for k, t in enumerate(texts[:radix]):
                table.setdefault(t, []).append(k)
            out.append((table, 0, radix, max((len(t) for t in table), default=0)))
        self._texts[info.name] = out
        return out


_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)")


def parse_params(tables: list[tuple[dict[str, list[int]] | None, int, int, int]], rest: str) -> list[list[int]]:
    """Every way `rest` reads as the parameters' texts joined by ", ", as lists of mixed-radix digits.

    A text may itself hold ", " (a choice value, a card's name), so each split is tried, but only up to
    the parameter's longest text, and a position that led nowhere is not tried again."""
    n = len(tables)
    if len(rest) > sum(t[3] for t in tables) + 2 * (n - 1):
        return []
    out: list[list[int]] = []
    dead: set[tuple[int, int]] = set()

    def digits(i: int, t: str) -> list[int]:
        table, lo, radix, longest = tables[i]
        if table is not None:
            return table.get(t, [])
        if len(t) > longest or not _NUMBER.fullmatch(t) or not 0 <= int(t) - lo < radix:
            return []
        return [int(t) - lo]

    def walk(i: int, pos: int, acc: list[int]) -> None:
        if (i, pos) in dead:
            return
        before = len(out)
        if i == n - 1:
            out.extend(acc + [k] for k in digits(i, rest[pos:]))
        else:
            j = rest.find(", ", pos)
            while j != -1 and j - pos <= tables[i][3]:
                for k in digits(i, rest[pos:j]):
                    walk(i + 1, j + 2, acc + [k])
                j = rest.find(", ", j + 1)
        if len(out) == before:
            dead.add((i, pos))

    walk(0, 0, [])
    return out
