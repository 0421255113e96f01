"""Legal actions from what is there: the plan of `legal_<action>`'s loops over its parameters.

Plainly compiled, an action's legal ids are the cross product of its parameters' values, each value
filtered by the parts of `when` (joined by `and`) that read it. A fishing game, say, asks for a rank held,
of another player who holds cards:

    params: {rank: ranks, target: players}
    when: target != player and len(hand[target]) > 0 and holds(player, rank)

and the plain loops test every rank with every target, scanning the hand once per rank. The plan here
makes the same ids, in the same order, from what is there:

* **Candidates from the values that can satisfy a condition.** A part of the form
  `any(X == p for c in xs if ...)` (also through an inlined function such as `holds(player, rank)`), or
  `p in xs`, holds for exactly the values of `p` in the set `{X for c in xs if ...}`. That set is built
  once (a *generator*), where what it reads is known, and a value of `p` is kept when it is in the set:
  one walk of the hand instead of one per rank.
* **Work that does not depend on an outer parameter runs once per query.** The parts that read only `p`
  (and the state) are tested once for each value of `p` to make a candidate list, kept while the outer
  loops run (`target != player and len(hand[target]) > 0` once per query, not once per rank).

Neither may change what the rules mean: the same ids in the same order, the same rule errors where the
rules fail, and every loop still charged to the step budget. So only parts that *cannot fail* move: a
part is tested earlier, or less often, than the plain code tests it only if `_judge` proves that working
it out raises nothing but the budget's error. Parts are tested in their written order from the first one
that might fail, each at the loop where the plain code tested it; the loops stay in the parameters'
order, over the same domains; and a part is not moved earlier across a loop whose domain might fail to
be worked out (the parts moved would then decide whether that failure is reached). A parameter over lists
of cards (`ids`) keeps the plain plan for its whole action: each of its values is checked against the ids,
which can fail.

The judgement is conservative: a value of a checked type may still be `none` at run time (a `player`
variable before it is set), so only values that cannot be (`_Fact.sure`: a constant, `player`, a card of
a zone, a parameter's value, a card's rank) may index, order or add. It follows nesting to a fixed depth
(`DEPTH`); anything deeper is judged as possibly failing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast as A
from . import refs as R
from . import types as T
from . import weights
from .abi import CARD_FIELDS
from .analysis import _conjuncts, _locals_used
from .optimize import _Facts
from .spec import ActionSpec

DEPTH = 48  # nesting levels the judgement follows; deeper code is judged as possibly failing
# Types whose values hash as they compare (`x in set` is `any(x == y)`): no lists, no floats (a NaN is
# itself in a set but not equal to itself), nothing unknown.
HASHABLE: set[T.Type] = {T.INT, T.BOOL, T.STR, T.CARD, T.PLAYER, T.SUIT, T.RANK, T.NONE}
_LISTS = {"players", "active_players", "suits", "ranks", "pack", "teams"}  # built-ins that are lists of sure values
_VALUES = {"num_players", "player", "current", "deal_number", "turns", "phase"}  # built-ins that are never none


@dataclass(frozen=True)
class _Fact:
    """What is known of an expression's code: `total`, it raises nothing but the budget's error; `sure`, its
    value is a plain value of its checked type, never none; `listy`, its value is a list; `elems`, a list
    of sure values."""
    total: bool
    sure: bool = False
    listy: bool = False
    elems: bool = False


_NO = _Fact(False)
_SURE = _Fact(True, sure=True)

Env = dict[str, _Fact]  # what is known of each local name in scope


def _judge(e: A.Expr, env: Env, depth: int = 0) -> _Fact:
    """What is known of e's code (see _Fact), in a scope whose locals are described by env."""
    if depth > DEPTH:
        return _NO
    d = depth + 1
    if isinstance(e, A.Const):
        return _SURE if e.value is not None else _Fact(True)
    if isinstance(e, A.Name):
        return _name(e, env)
    if isinstance(e, A.Inline):
        return _judge(e.body, env, d)
    if isinstance(e, A.Attr):
        o = _judge(e.obj, env, d)
        if not (o.total and o.sure and e.obj.ty == T.CARD):  # otherwise checked by `_card`, or a none
            return _NO
        # A property may be none, and so may the suit of a card the pack names alone (a joker).
        return _SURE if e.name in CARD_FIELDS and e.name != "suit" else _Fact(True)
    if isinstance(e, A.Index):
        return _index(e, env, d)
    if isinstance(e, A.Compare):
        return _compare(e, env, d)
    if isinstance(e, A.BoolOp):
        facts = [_judge(v, env, d) for v in e.values]
        if not all(f.total for f in facts):
            return _NO
        return _Fact(True, sure=all(f.sure for f in facts), listy=all(f.listy for f in facts),
                     elems=all(f.elems for f in facts))  # `and` and `or` give one of their operands
    if isinstance(e, A.Not):
        return _SURE if _judge(e.value, env, d).total else _NO
    if isinstance(e, A.IfExpr):
        c, a, b = (_judge(x, env, d) for x in (e.cond, e.then, e.other))
        if not (c.total and a.total and b.total):
            return _NO
        return _Fact(True, sure=a.sure and b.sure, listy=a.listy and b.listy, elems=a.elems and b.elems)
    if isinstance(e, A.BinOp):
        return _binop(e, env, d)
    if isinstance(e, A.Neg):
        v = _judge(e.value, env, d)
        return _SURE if v.total and v.sure and weights.numeric(e.value.ty) else _NO
    if isinstance(e, A.ListLit):
        items = [_judge(x, env, d) for x in e.items]
        return _Fact(True, listy=True, elems=all(f.sure for f in items)) if all(f.total for f in items) else _NO
    if isinstance(e, A.Comp):
        it = _judge(e.iter, env, d)
        if not (it.total and it.listy):
            return _NO
        inner = {**env, e.var: _SURE if it.elems else _Fact(True)}
        item = _judge(e.elem, inner, d)
        if not item.total or e.cond is not None and not _judge(e.cond, inner, d).total:
            return _NO
        return _Fact(True, listy=True, elems=item.sure)
    if isinstance(e, A.Call) and isinstance(e.ref, R.Library):
        return _library(e, env, d)
    return _NO  # a call of a function not inlined, a let, a lambda on its own


def _name(e: A.Name, env: Env) -> _Fact:
    ref = e.ref
    if isinstance(ref, R.Local):
        return env.get(e.id, _Fact(True))
    if isinstance(ref, R.Builtin):
        if ref.name in _LISTS:
            return _Fact(True, listy=True, elems=True)
        return _SURE if ref.name in _VALUES else _Fact(True)
    if isinstance(ref, R.Option):
        return _SURE  # set, and checked, when the game is made
    if isinstance(ref, R.Zone):
        return _Fact(True, listy=True, elems=True)
    if isinstance(ref, R.Variable | R.Constant):
        return _Fact(True)
    return _NO


def _index(e: A.Index, env: Env, d: int) -> _Fact:
    o = e.obj
    ref = o.ref if isinstance(o, A.Name) else None
    per_player = isinstance(ref, R.Variable | R.Zone) and ref.spec.per_player
    if not (per_player or ref == R.Builtin("team")):
        return _NO  # a position in a list, a per-team variable: checked, may fail
    i = _judge(e.index, env, d)
    if not (i.total and i.sure and e.index.ty == T.PLAYER):  # otherwise checked by `_seat`, or a none
        return _NO
    if isinstance(ref, R.Zone):
        return _Fact(True, listy=True, elems=True)
    return _SURE if ref == R.Builtin("team") else _Fact(True)


def _compare(e: A.Compare, env: Env, d: int) -> _Fact:
    operands = [e.first] + [r for _, r in e.rest]
    facts = [_judge(x, env, d) for x in operands]
    if not all(f.total for f in facts):
        return _NO
    for k, (op, right) in enumerate(e.rest):
        left, lf, rf = operands[k], facts[k], facts[k + 1]
        if op in ("==", "!="):
            ok = all(_plain_or_listed(x.ty, f) for x, f in ((left, lf), (right, rf)))
        elif op in ("in", "notin"):
            ok = (left.ty in weights.FLAT or left.ty == T.NONE) and rf.listy and weights.flat_list(right.ty)
        else:  # an order: numbers with numbers, text with text, neither none
            ok = lf.sure and rf.sure and (weights.numeric(left.ty) and weights.numeric(right.ty)
                                          or left.ty in T.TEXTUAL and right.ty in T.TEXTUAL)
        if not ok:
            return _NO
    return _SURE


def _plain_or_listed(t: T.Type | None, f: _Fact) -> bool:
    """Comparing such a value with == cannot fail: a plain value, or a list of plain values (which the code
    charges for its items, so it must be a list)."""
    return t in weights.FLAT or t == T.NONE or weights.flat_list(t) and f.listy


def _binop(e: A.BinOp, env: Env, d: int) -> _Fact:
    if e.op not in ("+", "-"):
        return _NO  # `*` may grow past the bound, the divisions may divide by zero
    a, b = _judge(e.left, env, d), _judge(e.right, env, d)
    if not (a.total and b.total):
        return _NO
    if weights.numeric(e.left.ty) and weights.numeric(e.right.ty):
        return _SURE if a.sure and b.sure else _NO
    if e.op == "+" and T.is_list(e.left.ty) and T.is_list(e.right.ty) and a.listy and b.listy:
        return _Fact(True, listy=True, elems=a.elems and b.elems)
    return _NO  # checked by f_add or f_sub


def _library(e: A.Call, env: Env, d: int) -> _Fact:
    name, args = e.func, e.args
    if name in ("len", "any", "all") and len(args) == 1:
        a = _judge(args[0], env, d)
        return _SURE if a.total and a.listy else _NO
    if name == "count":
        xs = _judge(args[0], env, d)
        if not (xs.total and xs.listy):
            return _NO
        if len(args) == 2:
            f = args[1]
            if not isinstance(f, A.Lambda):
                return _NO
            if not _judge(f.body, {**env, f.param: _SURE if xs.elems else _Fact(True)}, d).total:
                return _NO
        return _SURE
    if name in ("left", "right"):
        a = _judge(args[0], env, d)
        return _SURE if a.total and a.sure and weights.numeric(args[0].ty) else _NO
    return _NO


# ---------------------------------------------------------------- the plan


@dataclass
class Generator:
    """A part of `when` that holds for exactly the values of a parameter in the set
    `{value for var in source if conds}` (`value` None: the items of `source` themselves)."""
    part: A.Expr
    source: A.Expr
    var: str | None = None
    value: A.Expr | None = None
    conds: list[A.Expr] = field(default_factory=list)
    work: int = 1  # the steps charged per item of the source: the size of the code the plain walk ran per item


@dataclass
class Level:
    """The loop of one parameter: `generators` and `prefilters` (parts that read no other parameter) make its
    candidates; `checks` are tested for each candidate, in written order. `home`: the loop depth (0: before
    the loops) from which the candidates stay the same; below the parameter's own, they are made once there
    and kept."""
    generators: list[Generator] = field(default_factory=list)
    prefilters: list[A.Expr] = field(default_factory=list)
    checks: list[A.Expr] = field(default_factory=list)
    home: int = 0

    def kept(self, depth: int) -> bool:
        """The candidates are made once and kept while the loops around them run."""
        return bool(self.generators or self.prefilters) and self.home < depth


@dataclass
class Plan:
    first: list[A.Expr]  # tested before any loop
    levels: list[Level]  # one per parameter, in order


def parts(when: A.Expr) -> list[A.Expr]:
    """The parts of `when` joined by `and`, also inside an inlined body (`may_ask(player, target, rank)`): each
    such part stays an inlined body of the same function, so its code keeps the function's lines."""
    out: list[A.Expr] = []
    stack = [when]
    while stack:
        n = stack.pop()
        if isinstance(n, A.BoolOp) and n.op == "and":
            stack.extend(reversed(n.values))
        elif isinstance(n, A.Inline) and isinstance(n.body, A.BoolOp) and n.body.op == "and":
            for v in reversed(n.body.values):
                piece = A.Inline(n.span, n.func, v)
                piece.ty = v.ty
                stack.append(piece)
        else:
            out.append(n)
    return out


def _plain_levels(names: list[str], parts: list[A.Expr]) -> list[int]:
    """Each part's loop in the plain plan: that of the last parameter it reads (a name bound inside it counts
    too), never before an earlier part's (`and` guards what follows it)."""
    out = []
    level = 0
    for p in parts:
        level = max([level] + [names.index(n) + 1 for n in _locals_used(p) if n in names])
        out.append(level)
    return out


def plain_plan(names: list[str], parts: list[A.Expr]) -> Plan:
    """The plain plan: each part tested, in written order, for each value of its loop's parameter."""
    out = Plan([], [Level(home=i) for i in range(len(names))])
    for p, level in zip(parts, _plain_levels(names, parts)):
        (out.levels[level - 1].checks if level else out.first).append(p)
    return out


def _reads(e: A.Expr, names: list[str]) -> set[str]:
    return set(_Facts(e).free[id(e)]) & set(names)


def plan(a: ActionSpec, kinds: list[str], parts: list[A.Expr]) -> Plan:
    """The loops of `legal_<a>` for the parts of its (inlined) `when`, given each parameter's kind
    (codegen.actions.ParamInfo.kind)."""
    names = [p.name for p in a.params]
    if "cards" in kinds or not names:
        return plain_plan(names, parts)
    # What is known of each parameter's values, and which loops' domains cannot fail.
    env: Env = {}
    barriers: list[int] = []
    for i, (p, kind) in enumerate(zip(a.params, kinds)):
        dom = _judge(p.domain, env)
        if not (dom.total and dom.listy):
            barriers.append(i + 1)
        # Values of a range, listed values and flags are checked against the codec's tables before any part.
        env[p.name] = _SURE if dom.elems or kind in ("int", "str", "bool") else _Fact(True)
    plain_level = _plain_levels(names, parts)
    out = Plan([], [Level(home=i) for i in range(len(names))])
    moving = True  # still in the parts before the first one that might fail
    for k, part in enumerate(parts):
        moving = moving and _judge(part, env).total
        if not moving:
            lvl = plain_level[k]
            (out.levels[lvl - 1].checks if lvl else out.first).append(part)
            continue
        used = _reads(part, names)
        own = max([names.index(n) + 1 for n in used], default=0)
        # Not earlier than a loop whose domain might fail: whether it is reached must not change.
        lvl = max([own] + [b for b in barriers if b <= plain_level[k]])
        if lvl == 0:
            out.first.append(part)
            continue
        at = out.levels[lvl - 1]
        gen = _generator(part, names[lvl - 1], kinds[lvl - 1], a) if lvl == own else None
        if gen is not None:
            at.generators.append(gen)
        elif used == {names[lvl - 1]}:
            at.prefilters.append(part)
        else:
            at.checks.append(part)
    for i, (lv, p) in enumerate(zip(out.levels, a.params)):
        deps = _reads(p.domain, names)
        for g in lv.generators:
            inner = set().union(*(_reads(x, names) for x in g.conds + ([g.value] if g.value is not None else [])))
            deps |= _reads(g.source, names) | (inner - {g.var})
        lv.home = max([names.index(n) + 1 for n in deps], default=0)
        assert lv.home <= i
    return out


def _generator(part: A.Expr, name: str, kind: str, a: ActionSpec) -> Generator | None:
    """The part as a generator of the values of parameter `name`, or None if it is not one."""
    if kind == "str" and not _listed_hashable(a, name):
        return None
    n = part
    while isinstance(n, A.Inline):
        n = n.body
    facts = _Facts(n)
    if isinstance(n, A.Compare) and len(n.rest) == 1 and n.rest[0][0] == "in" and _is(n.first, name):
        src = n.rest[0][1]
        if name in facts.free[id(src)] or not weights.flat_list(src.ty) or T.elem(src.ty) not in HASHABLE:
            return None
        return Generator(part, src)
    if not (isinstance(n, A.Call) and isinstance(n.ref, R.Library) and n.func == "any" and len(n.args) == 1
            and isinstance(n.args[0], A.Comp)):
        return None
    comp = n.args[0]
    if comp.var == name or name in facts.free[id(comp.iter)] or \
            comp.cond is not None and name in facts.free[id(comp.cond)]:
        return None
    pieces = _conjuncts(comp.elem)
    for k, piece in enumerate(pieces):
        value = _equal_to(piece, name, facts)
        if value is None:
            continue
        others = pieces[:k] + pieces[k + 1:]
        if any(name in facts.free[id(o)] for o in others):
            return None
        work = weights.size(comp.elem) + (weights.size(comp.cond) if comp.cond is not None else 0)
        conds = ([comp.cond] if comp.cond is not None else []) + others
        return Generator(part, comp.iter, comp.var, value, conds, work)
    return None


def _equal_to(e: A.Expr, name: str, facts: _Facts) -> A.Expr | None:
    """X, if e is `X == name` or `name == X` where X does not read `name` and hashes as it compares."""
    if not (isinstance(e, A.Compare) and len(e.rest) == 1 and e.rest[0][0] == "=="):
        return None
    left, right = e.first, e.rest[0][1]
    value = right if _is(left, name) else left if _is(right, name) else None
    if value is None or name in facts.free[id(value)] or value.ty not in HASHABLE:
        return None
    return value


def _is(e: A.Expr, name: str) -> bool:
    return isinstance(e, A.Name) and isinstance(e.ref, R.Local) and e.id == name


def _listed_hashable(a: ActionSpec, name: str) -> bool:
    """A parameter of listed values: none is a number with a fraction (see HASHABLE)."""
    p = next(p for p in a.params if p.name == name)
    d = p.domain
    return isinstance(d, A.ListLit) and all(isinstance(i, A.Const) and not isinstance(i.value, float)
                                            for i in d.items)
