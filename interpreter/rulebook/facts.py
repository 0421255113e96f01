"""What a rule file comes to at each player count and table option: the pack, cards dealt, option defaults.

These are measured, not guessed: the pack is the one the engine builds (`Game`, engine/game.py) for each
player count and each value of the options the pack reads, and a number is worked out from an expression
only when every part of it is fixed for the game (numbers, `num_players`, constants, options, arithmetic,
comparisons, `if`), with the library's own operators, so it is the number the engine would compute.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ..dsl import abi
from ..dsl import ast as A
from ..dsl import library as L
from ..dsl import refs as R
from ..dsl.compiler import CompiledGame
from ..dsl.spec import GameSpec, OptionSpec
from ..engine.errors import GameError, RuleError, SetupRefused
from ..engine.game import Game

MAX_SETTINGS = 32  # option settings tried per player count to see which change the pack
_NO = object()  # "cannot be worked out here"
_OPS = {"+": L.f_add, "-": L.f_sub, "*": L.f_mul, "/": L.f_div, "//": L.f_floordiv, "%": L.f_mod}
_CMP = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, ">": lambda a, b: a > b,
        "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def fixed(e: A.Expr, n: int, options: dict[str, Any], spec: GameSpec, local: dict[str, Any] | None = None) -> Any:
    """The value of `e` with `n` players and these option values, or `_NO` if it reads anything else."""
    try:
        return _eval(e, n, options, spec, local or {})
    except Exception:  # a rule error (division by zero, a missing key): no number to show
        return _NO


def known(v: Any) -> bool:
    return v is not _NO


def _eval(e: A.Expr, n: int, options: dict[str, Any], spec: GameSpec, local: dict[str, Any]) -> Any:
    def ev(x: A.Expr) -> Any:
        v = _eval(x, n, options, spec, local)
        if v is _NO:
            raise LookupError
        return v

    if isinstance(e, A.Const):
        return e.value
    if isinstance(e, A.Name):
        if e.id in local and isinstance(e.ref, (R.Local, type(None))):
            return local[e.id]
        if isinstance(e.ref, R.Builtin) and e.id == "num_players":
            return n
        if isinstance(e.ref, R.Option) and e.id in options:
            return options[e.id]
        if isinstance(e.ref, R.Constant) and e.id in spec.constants:
            return spec.constants[e.id][0]
        return _NO
    if isinstance(e, A.BinOp):
        return _OPS[e.op](ev(e.left), ev(e.right))
    if isinstance(e, A.Neg):
        return -ev(e.value)
    if isinstance(e, A.Compare):
        left = ev(e.first)
        for op, x in e.rest:
            if op not in _CMP:
                return _NO
            right = ev(x)
            if not _CMP[op](left, right):
                return False
            left = right
        return True
    if isinstance(e, A.BoolOp):
        for x in e.values:
            v = ev(x)
            if (e.op == "and") != bool(v):
                return v
        return v
    if isinstance(e, A.Not):
        return not ev(e.value)
    if isinstance(e, A.IfExpr):
        return ev(e.then) if ev(e.cond) else ev(e.other)
    if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and isinstance(e.obj.ref, R.Constant):
        table = ev(e.obj)
        key = ev(e.index)
        return table[key] if isinstance(table, dict) else _NO
    return _NO


def options_read(exprs: list[A.Expr | None], spec: GameSpec) -> list[str]:
    """The options these expressions read, directly or through the `define:` functions they call, in the
    order the rule file lists them."""
    funcs = {f.name: f for f in spec.functions}
    seen: set[str] = set()
    names: set[str] = set()
    stack = [e for e in exprs if e is not None]
    while stack:
        for node in A.walk(stack.pop()):
            if isinstance(node, A.Name) and isinstance(node.ref, R.Option):
                names.add(node.id)
            elif isinstance(node, A.Call) and isinstance(node.ref, R.UserFunction) and node.func not in seen:
                seen.add(node.func)
                body = funcs[node.func].body if node.func in funcs else None
                if body is not None:
                    stack.append(body)
    return [o.name for o in spec.options if o.name in names]


def reads_only_fixed(e: A.Expr) -> bool:
    """True if `e` reads no option (numbers, `num_players` and constants only)."""
    return all(not (isinstance(n, A.Name) and isinstance(n.ref, R.Option)) for n in A.walk(e))


# ---------------------------------------------------------------- tables set up for the facts
class Spent(GameError):
    """The work of setting up every table the rulebook looks at is past the step limit."""


class Tables:
    """The game set up at each player count and setting the rulebook looks at, with their setting-up work
    bounded together, as `validate` bounds its player counts: a rule file whose set-up is costly answers
    with a note in a few seconds, not with 64 player counts times 32 settings of it."""

    def __init__(self, compiled: CompiledGame) -> None:
        self.compiled = compiled
        self.budget = [compiled.limits.steps]
        self.spent: Spent | None = None
        self._defaults: dict[int, Game | GameError] = {}

    def game(self, n: int, options: dict[str, Any] | None = None, constraints: bool = True) -> Game:
        if self.spent is not None:
            raise self.spent
        try:
            return Game(self.compiled, n, options or {}, self.budget, constraints=constraints)
        except RuleError as e:
            if e.code == "R004":
                self.spent = Spent(f"setting the game up at every player count and setting the rulebook looks at "
                                   f"takes more than {self.compiled.limits.steps:,} units of work (--max-steps N "
                                   "raises the limit for a trusted file)")
                raise self.spent from None
            raise

    def default(self, n: int) -> Game:
        """The game with the default options at `n` players, whatever its constraints say (made once)."""
        if n not in self._defaults:
            try:
                self._defaults[n] = self.game(n, constraints=False)
            except GameError as e:
                self._defaults[n] = e
        found = self._defaults[n]
        if isinstance(found, GameError):
            raise found
        return found


# ---------------------------------------------------------------- the pack
@dataclass
class PackRow:
    players: list[int]
    setting: str  # which option values give this pack ("" when no option changes it at this count)
    size: int
    cards: str
    game: Game | None = field(default=None, repr=False)  # an instance with this pack (for cards dealt)


@dataclass
class PackFacts:
    rows: list[PackRow]
    options: list[str]  # the options that change the pack at some player count
    untried: list[str]  # options the pack reads whose values were not all tried (numbers, too many settings)
    failed: list[str]  # player counts and settings the game cannot be set up with, and why


def _values(o: OptionSpec) -> list[Any] | None:
    if o.kind == "bool":
        return [True, False]
    if o.kind == "choice":
        return list(o.values)
    return None


def option_text(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def pack_facts(compiled: CompiledGame, tables: Tables) -> PackFacts:
    spec = compiled.spec
    exprs: list[A.Expr | None] = [x for p in spec.pack for x in (p.when, p.where)]
    read = options_read(exprs, spec)
    by_name = {o.name: o for o in spec.options}
    tried = [o for o in read if _values(by_name[o]) is not None]
    untried = [o for o in read if _values(by_name[o]) is None]
    settings: list[dict[str, Any]] = [dict(zip(tried, vs)) for vs in
                                      itertools.product(*(_values(by_name[o]) or [] for o in tried))]
    if len(settings) > MAX_SETTINGS:
        untried, tried, settings = read, [], [{}]
    failed: list[str] = []
    per_count: list[tuple[int, list[tuple[str, tuple[Any, ...], Game]]]] = []
    changing: set[str] = set()
    for n in range(spec.min_players, spec.max_players + 1):
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        games: dict[tuple[Any, ...], Game] = {}
        for s in settings:
            try:
                g = tables.game(n, {k: option_text(v) for k, v in s.items()})
            except SetupRefused:
                continue  # the rules refuse this table: it has no pack
            except Spent as e:
                if str(e) not in failed:
                    failed.append(str(e))
                continue
            except GameError as e:
                failed.append(f"{n} players{' with ' + _setting(s) if s else ''}: {e}")
                continue
            key = _pack_key(g)
            groups.setdefault(key, []).append(s)
            games.setdefault(key, g)
        rows = []
        allowed = [s for s in settings if _allowed(s, groups)]
        for key, members in groups.items():
            # A pack every setting gives needs no label; one that only some give (others give another pack,
            # or are refused by the rules' constraints) is labelled with the settings that give it.
            label, named = ("", set()) if len(members) == len(settings) else _label(members, allowed)
            changing.update(named)
            rows.append((label, key, games[key]))
        per_count.append((n, rows))
    out: list[PackRow] = []
    prev: list[tuple[str, tuple[Any, ...]]] | None = None
    for n, rows in per_count:
        sig = [(label, key) for label, key, _ in rows]
        if sig == prev:
            for r in out[-len(rows):]:
                r.players.append(n)
            continue
        prev = sig
        for label, _key, g in rows:
            out.append(PackRow([n], label, g.num_cards, describe_cards(g), g))
    return PackFacts(out, [o for o in tried if o in changing], untried, failed)


def _allowed(s: dict[str, Any], groups: dict[tuple[Any, ...], list[dict[str, Any]]]) -> bool:
    return any(s in members for members in groups.values())


def _setting(s: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {option_text(v)}" for k, v in s.items())


def _label(members: list[dict[str, Any]], every: list[dict[str, Any]]) -> tuple[str, set[str]]:
    """The option values that give a pack (and the options named): the ones its settings share, if exactly
    the allowed settings with those values give it; else each setting, joined by 'or'."""
    names = list(members[0])
    shared = {k: members[0][k] for k in names if all(m[k] == members[0][k] for m in members)}
    matching = [s for s in every if all(s[k] == v for k, v in shared.items())]
    if len(matching) == len(members):
        return (_setting(shared), set(shared)) if shared else ("any allowed options", set())
    return " or ".join(_setting(m) for m in members), set(names)


def _pack_key(g: Game) -> tuple[Any, ...]:
    suits, ranks = g.ns[abi.card_table("suit")], g.ns[abi.card_table("rank")]
    return tuple(sorted((str(s), str(r)) for s, r in zip(suits, ranks)))


def describe_cards(g: Game) -> str:
    """The cards of a game's pack, suit by suit: 'clubs, hearts: 7–10, J–A; Joker ×2'."""
    spec = g.spec
    suits, ranks = g.ns[abi.card_table("suit")], g.ns[abi.card_table("rank")]
    count: dict[tuple[Any, str], int] = {}
    for s, r in zip(suits, ranks):
        count[(s, str(r))] = count.get((s, str(r)), 0) + 1
    by_suit: dict[str, str] = {}
    for s in spec.suits:
        held = [(r, count[(s, r)]) for r in spec.ranks if (s, r) in count]
        if held:
            by_suit[s] = _ranks(held, spec.ranks)
    groups: dict[str, list[str]] = {}
    for s, desc in by_suit.items():
        groups.setdefault(desc, []).append(s)
    parts = [f"{', '.join(ss)}: {desc}" for desc, ss in groups.items()]
    specials: dict[str, int] = {}
    for (s, r), k in count.items():
        if s is None:
            specials[r] = specials.get(r, 0) + k
    parts += [r if k == 1 else f"{r} ×{k}" for r, k in specials.items()]
    return "; ".join(parts)


def _ranks(held: list[tuple[str, int]], order: list[str]) -> str:
    """Ranks in the deck's order, runs of neighbours (in `order`) with the same count written 'a–b'."""
    pos = {r: i for i, r in enumerate(order)}
    runs: list[list[tuple[str, int]]] = []
    for r, k in held:
        if runs and pos[runs[-1][-1][0]] + 1 == pos[r] and runs[-1][-1][1] == k:
            runs[-1].append((r, k))
        else:
            runs.append([(r, k)])
    out = []
    for run in runs:
        times = f" ×{run[0][1]}" if run[0][1] > 1 else ""
        if len(run) >= 3:
            out.append(f"{run[0][0]}–{run[-1][0]}{times}")
        else:
            out += [f"{r}{times}" for r, _ in run]
    return ", ".join(out)


def players_text(ns: list[int]) -> str:
    """Player counts as a short range: '4', '2–8', '3, 5'."""
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}–{ns[-1]}"
    return ", ".join(str(n) for n in ns)


# ---------------------------------------------------------------- options at each player count
def option_defaults(tables: Tables, o: OptionSpec) -> list[tuple[list[int], str]]:
    """A computed default's value at each player count (the options above it at their defaults), grouped:
    [([2, 3, 4], '3'), ...]; empty if it cannot be worked out for some count."""
    spec = tables.compiled.spec
    out: list[tuple[list[int], str]] = []
    for n in range(spec.min_players, spec.max_players + 1):
        try:
            v = option_text(tables.default(n).options[o.name])
        except GameError:
            return []
        if out and out[-1][1] == v:
            out[-1][0].append(n)
        else:
            out.append(([n], v))
    return out


def option_ranges_by_count(tables: Tables, o: OptionSpec) -> list[tuple[list[int], str]]:
    """An int option's range at each player count (other options at their defaults), grouped as above."""
    spec = tables.compiled.spec
    out: list[tuple[list[int], str]] = []
    for n in range(spec.min_players, spec.max_players + 1):
        try:
            lo, hi = tables.default(n).option_ranges[o.name]
        except (GameError, KeyError):
            return []
        v = f"{lo}–{hi}"
        if out and out[-1][1] == v:
            out[-1][0].append(n)
        else:
            out.append(([n], v))
    return out
