"""Lowering: a checked rule file at one player count and options -> a small typed tree IR that both
prototype back ends read (emit_cpp.py: design (a), C++ source; emit_prog.py: design (b), a flat program).

Covers the part of the language Hearts and Go Fish use (see README.md); anything else raises
`Unsupported` naming the construct, so a prototype never runs a file it only half understands.

IR: tuples (op, ty, *args); ty is 'i' (int64: ints, bools, cards, players, interned texts), 'f' (double)
or 'l' (a list of ints). Statements: (op, *args). Blocks return a code: NONE (-2), END_DEAL (-1) or a phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardsmith.dsl import ast as A
from cardsmith.dsl import refs as R
from cardsmith.dsl import types as T

NONE_V = -(2**62)  # the rules' `none` as an int
NONE_CODE = -2
END_DEAL = -1
IR = tuple


class Unsupported(Exception):
    pass


def kind(ty: Any) -> str:
    if T.is_list(ty):
        return "l"
    if ty == T.NUM:
        return "f"
    return "i"


@dataclass
class Frame:
    """The local slots of one function body (separate numbering per kind)."""
    slots: dict[str, tuple[str, int]] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=lambda: {"i": 0, "f": 0, "l": 0})

    def new(self, name: str, k: str) -> int:
        i = self.count[k]
        self.count[k] += 1
        self.slots[name] = (k, i)
        return i

    def scoped(self, name: str) -> Any:
        """The binding of `name` now, to put back when a comprehension, lambda or `for` that rebinds it ends."""
        return self.slots.get(name)

    def restore(self, name: str, old: Any) -> None:
        if old is None:
            self.slots.pop(name, None)
        else:
            self.slots[name] = old


@dataclass
class Func:
    name: str
    params: list[tuple[str, int]]  # (kind, slot)
    ret: str  # i, f, or '' for a block (returns a code)
    body: Any  # an expression IR, or a list of statements
    frame: Frame


@dataclass
class Program:
    n: int
    num_cards: int
    zones: list[str]  # zone slot names
    initial_zone: list[int]  # the first zone holds the pack
    nvars: int
    var_init: list[tuple[int, int, str]]  # (slot, value, scope)
    strings: list[str]
    tables: list[list[int]]  # per-card int tables (suit, rank, properties...)
    funcs: list[Func]
    func_index: dict[str, int]
    phases: list[dict[str, Any]]  # name, first/start/after/end (func index or -1), round, next, then, actions
    actions: list[dict[str, Any]]  # name, off, params [(kind, radix, stride, domain IR)], when, run (func ids)
    num_actions: int
    ranks: list[str]
    hooks: dict[str, int]  # match_start, match_deal, match_end_deal, over_when, returns


class Lowering:
    def __init__(self, game: Any) -> None:
        self.g = game
        self.spec = game.compiled.spec
        self.ns = game.ns
        self.n = game.n
        self.strings: list[str] = []
        self.sid: dict[str, int] = {}
        self.tables: list[list[int]] = []
        self.table_ix: dict[str, int] = {}
        self.funcs: list[Func] = []
        self.func_index: dict[str, int] = {}
        self.frame = Frame()
        for s in self.ns["SUITS"]:
            self.intern(s)
        for r in self.ns["RANKS"]:
            self.intern(r)

    def intern(self, s: str) -> int:
        if s not in self.sid:
            self.sid[s] = len(self.strings)
            self.strings.append(s)
        return self.sid[s]

    def value(self, v: Any) -> int:
        if v is None:
            return NONE_V
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            return self.intern(v)
        raise Unsupported(f"value {v!r}")

    def table(self, name: str) -> int:
        if name not in self.table_ix:
            ns = self.ns
            src = {"suit": "C_SUIT", "rank": "C_RANK", "suit_index": "C_SUIT_INDEX",
                   "rank_index": "C_RANK_INDEX"}.get(name, "P_" + name)
            if src not in ns:
                raise Unsupported(f"card attribute {name}")
            self.table_ix[name] = len(self.tables)
            self.tables.append([self.value(x) for x in ns[src]])
        return self.table_ix[name]

    # ------------------------------------------------------------ expressions
    def ex(self, e: A.Expr) -> IR:
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(f"expression {type(e).__name__}")
        return m(e)

    def x_Const(self, e: A.Const) -> IR:
        if isinstance(e.value, float):
            return ("cf", "f", e.value)
        return ("ci", "i", self.value(e.value))

    def clist(self, xs: list[Any]) -> IR:
        return ("clist", "l", [self.value(x) for x in xs])

    def x_Name(self, e: A.Name) -> IR:
        ref = e.ref
        if isinstance(ref, R.Local):
            k, i = self.frame.slots[e.id]
            return ("loc", k, i)
        if isinstance(ref, R.Builtin):
            b = ref.name
            if b == "player":
                return ("actor", "i")
            if b == "current":
                return ("cur", "i")
            if b == "dealer":
                return ("dealer", "i")
            if b == "num_players":
                return ("ci", "i", self.n)
            if b == "players":
                return self.clist(list(range(self.n)))
            if b == "ranks":
                return self.clist(self.ns["RANKS"])
            if b == "pack":
                return ("pack", "l")
            raise Unsupported(f"built-in {b}")
        if isinstance(ref, R.Option):
            v = self.ns["O_" + ref.name]
            return ("cf", "f", v) if isinstance(v, float) else ("ci", "i", self.value(v))
        if isinstance(ref, R.Constant):
            v = self.ns["K_" + ref.name]
            return self.clist(v) if isinstance(v, list) else ("ci", "i", self.value(v))
        if isinstance(ref, R.Variable):
            if ref.spec.per_player or ref.spec.per_team:
                raise Unsupported("per-player variable without index")
            return ("var", kind(e.ty), self.ns["V_" + ref.spec.name])
        if isinstance(ref, R.Zone):
            if ref.spec.per_player:
                raise Unsupported("per-player zone without index")
            return ("zone", "l", ("ci", "i", self.ns["Z_" + ref.spec.name]))
        raise Unsupported(f"name {e.id}")

    def x_Index(self, e: A.Index) -> IR:
        o = e.obj
        if isinstance(o, A.Name) and isinstance(o.ref, R.Zone) and o.ref.spec.per_player:
            return ("zone", "l", ("add", "i", ("ci", "i", self.ns["Z_" + o.ref.spec.name]), self.ex(e.index)))
        if isinstance(o, A.Name) and isinstance(o.ref, R.Variable) and o.ref.spec.per_player:
            return ("varx", kind(e.ty), self.ns["V_" + o.ref.spec.name], self.ex(e.index))
        raise Unsupported("index")

    def x_Attr(self, e: A.Attr) -> IR:
        if e.obj.ty != T.CARD:
            raise Unsupported(f"attribute of {e.obj.ty}")
        return ("tab", "i", self.table(e.name), self.ex(e.obj))

    def x_IfExpr(self, e: A.IfExpr) -> IR:
        k = kind(e.ty)
        return ("if", k, self.ex(e.cond), self.conv(self.ex(e.then), k), self.conv(self.ex(e.other), k))

    def conv(self, x: IR, k: str) -> IR:
        if x[1] == k:
            return x
        if x[1] == "i" and k == "f":
            return ("i2f", "f", x)
        raise Unsupported(f"conversion {x[1]} -> {k}")

    def x_BinOp(self, e: A.BinOp) -> IR:
        a, b = self.ex(e.left), self.ex(e.right)
        if e.op == "/":
            return ("div", "f", self.conv(a, "f"), self.conv(b, "f"))
        k = "f" if "f" in (a[1], b[1]) else "i"
        if "l" in (a[1], b[1]):
            raise Unsupported("list arithmetic")
        op = {"+": "add", "-": "sub", "*": "mul", "//": "fdiv", "%": "mod"}[e.op]
        return (op, k, self.conv(a, k), self.conv(b, k))

    def x_Neg(self, e: A.Neg) -> IR:
        a = self.ex(e.value)
        return ("sub", a[1], ("ci", "i", 0) if a[1] == "i" else ("cf", "f", 0.0), a)

    def x_Not(self, e: A.Not) -> IR:
        return ("not", "i", self.ex(e.value))

    def x_BoolOp(self, e: A.BoolOp) -> IR:
        return (e.op, "i", [self.ex(v) for v in e.values])

    def x_Compare(self, e: A.Compare) -> IR:
        parts: list[IR] = []
        left = self.ex(e.first)
        for op, r in e.rest:
            right = self.ex(r)
            if op in ("in", "notin"):
                t = ("in", "i", left, right)
                parts.append(("not", "i", t) if op == "notin" else t)
            else:
                k = "f" if "f" in (left[1], right[1]) else "i"
                parts.append(("cmp", "i", op, self.conv(left, k), self.conv(right, k)))
            left = right
        return parts[0] if len(parts) == 1 else ("and", "i", parts)

    def x_Let(self, e: A.Let) -> IR:
        binds = []
        olds = []
        for name, v in e.bindings:
            x = self.ex(v)
            olds.append((name, self.frame.scoped(name)))
            binds.append((x[1], self.frame.new(name, x[1]), x))
        body = self.ex(e.body)
        for name, old in reversed(olds):
            self.frame.restore(name, old)
        return ("let", body[1], binds, body)

    def x_Comp(self, e: A.Comp) -> IR:
        it = self.ex(e.iter)
        old = self.frame.scoped(e.var)
        slot = self.frame.new(e.var, "i")
        cond = self.ex(e.cond) if e.cond is not None else None
        elem = self.ex(e.elem)
        self.frame.restore(e.var, old)
        return ("comp", "l", slot, it, cond, elem)

    def fold(self, how: str, arg: A.Expr, lam: A.Expr | None = None, ty: str = "i") -> IR:
        """A fold of a list (a comprehension's parts folded in): (fold, ty, how, slot, iter, cond, elem)."""
        if isinstance(arg, A.Comp) and lam is None:
            it = self.ex(arg.iter)
            old = self.frame.scoped(arg.var)
            slot = self.frame.new(arg.var, "i")
            cond = self.ex(arg.cond) if arg.cond is not None else None
            elem = self.ex(arg.elem)
            self.frame.restore(arg.var, old)
        else:
            it = self.ex(arg)
            if lam is not None:
                assert isinstance(lam, A.Lambda)
                old = self.frame.scoped(lam.param)
                slot = self.frame.new(lam.param, "i")
                body = self.ex(lam.body)
                self.frame.restore(lam.param, old)
            else:
                slot = self.frame.new(f"_f{id(arg)}", "i")
                body = ("loc", "i", slot)
            cond, elem = None, body
            if how == "count":
                cond, elem = body, ("ci", "i", 1)
        k = elem[1] if how in ("sum", "max", "min") else ty
        return ("fold", k, how, slot, it, cond, elem)

    def x_Call(self, e: A.Call) -> IR:
        ref = e.ref
        if isinstance(ref, R.UserFunction):
            fi = self.func(ref.spec)
            fn = self.funcs[fi]
            return ("call", fn.ret, fi, [self.conv(self.ex(a), k) for a, (k, _) in zip(e.args, fn.params)])
        f, args = e.func, e.args
        if f in ("any", "all", "sum", "max", "min") and len(args) == 1:
            return self.fold(f, args[0])
        if f == "count":
            return self.fold("count", args[0], args[1] if len(args) > 1 else None)
        if f in ("max_by", "min_by", "all_max_by"):
            return self.fold(f, args[0], args[1], "l" if f == "all_max_by" else "i")
        if f == "len":
            return ("len", "i", self.ex(args[0]))
        if f in ("first", "last"):
            return (f, "i", self.ex(args[0]))
        if f == "sort" and len(args) == 1:
            return ("sort", "l", self.ex(args[0]))
        if f == "played_by":
            return ("by", "i", self.ex(args[0]))
        if f == "left":
            return ("mod", "i", ("add", "i", self.ex(args[0]), ("ci", "i", 1)), ("ci", "i", self.n))
        if f == "right":
            return ("mod", "i", ("add", "i", self.ex(args[0]), ("ci", "i", self.n - 1)), ("ci", "i", self.n))
        if f in ("min", "max") and len(args) == 2:
            a, b = self.ex(args[0]), self.ex(args[1])
            return ("min2" if f == "min" else "max2", a[1], a, b)
        if f == "range":
            return ("range", "l", self.ex(args[0]), self.ex(args[1]))
        raise Unsupported(f"library function {f}")

    # ------------------------------------------------------------ functions
    def func(self, spec: Any) -> int:
        name = "fn_" + spec.name
        if name in self.func_index:
            fi = self.func_index[name]
            if self.funcs[fi].body is None:
                raise Unsupported(f"recursive function {spec.name}")
            return fi
        fi = len(self.funcs)
        self.func_index[name] = fi
        saved, self.frame = self.frame, Frame()
        kinds = [kind(getattr(spec, "param_types", {}).get(p)) if hasattr(spec, "param_types") else "i"
                 for p in spec.params]
        params = [(k, self.frame.new(p, k)) for p, k in zip(spec.params, kinds)]
        f = Func(name, params, "i", None, self.frame)
        self.funcs.append(f)
        body = self.ex(spec.body)
        f.ret, f.body = body[1], body
        self.frame = saved
        return fi

    def block_func(self, name: str, params: list[str], body: list[A.Stmt] | None,
                   expr: A.Expr | None = None, pre: list[str] | None = None) -> int:
        if name in self.func_index:
            return self.func_index[name]
        fi = len(self.funcs)
        self.func_index[name] = fi
        saved, self.frame = self.frame, Frame()
        ps = [("i", self.frame.new(p, "i")) for p in params]
        f = Func(name, ps, "", None, self.frame)
        self.funcs.append(f)
        if expr is not None:
            b = self.ex(expr)
            f.ret, f.body = b[1], b
        else:
            f.body = self.block(body or [])
        self.frame = saved
        return fi

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[A.Stmt]) -> list[IR]:
        out: list[IR] = []
        for st in stmts:
            x = self.stmt(st)
            if x is not None:
                out.append(x)
        return out

    def zref(self, z: A.ZoneRef) -> IR:
        base = ("ci", "i", self.ns["Z_" + z.name])
        return base if z.index is None else ("add", "i", base, self.ex(z.index))

    def stmt(self, st: A.Stmt) -> IR | None:
        if isinstance(st, A.Log):
            return None
        if isinstance(st, A.Assign):
            if st.op != "=":
                raise Unsupported("compound assignment")
            ref = st.ref
            v = self.ex(st.value)
            if isinstance(ref, R.Builtin):
                if ref.name in ("current", "dealer"):
                    return ("set_" + ref.name, v)
                raise Unsupported(f"assignment to {ref.name}")
            if isinstance(ref, R.Variable):
                slot: IR = ("ci", "i", self.ns["V_" + ref.spec.name])
                if st.index is not None:
                    slot = ("add", "i", slot, self.ex(st.index))
                return ("setvar", slot, v)
            raise Unsupported("assignment")
        if isinstance(st, A.LetStmt):
            v = self.ex(st.value)
            return ("setloc", v[1], self.frame.new(st.name, v[1]), v)
        if isinstance(st, A.Pick):
            opts = self.ex(st.options)
            return ("pick", self.frame.new(st.name, "i"), opts)
        if isinstance(st, A.Move):
            if st.bottom:
                raise Unsupported("move to the bottom")
            c = self.ex(st.cards)
            d = self.zref(st.dest)
            if c[0] == "pack":
                return ("movepack", d)
            if c[0] == "zone":
                return ("movezone", c[2], d)
            return ("movelist", c, d) if c[1] == "l" else ("move1", c, d)
        if isinstance(st, A.Deal):
            spec = st.dest.ref
            if st.dest.index is None and spec is not None and spec.per_player:
                return ("deal_each", self.ex(st.count), self.zref(st.src), ("ci", "i", self.ns["Z_" + st.dest.name]))
            return ("deal", self.ex(st.count), self.zref(st.src), self.zref(st.dest))
        if isinstance(st, A.Shuffle):
            return ("shuffle", self.zref(st.zone))
        if isinstance(st, A.Goto):
            return ("ret", self.ns["PHASE_" + st.phase])
        if isinstance(st, A.EndDeal):
            return ("ret", END_DEAL)
        if isinstance(st, A.Do):
            proc = next(p for p in self.spec.procedures if p.name == st.proc)
            fi = self.block_func("pr_" + proc.name, proc.params, proc.body)
            return ("do", fi, [self.ex(a) for a in st.args])
        if isinstance(st, A.If):
            return ("if", self.ex(st.cond), self.block(st.then), self.block(st.other))
        if isinstance(st, A.For):
            it = self.ex(st.iter)
            old = self.frame.scoped(st.var)
            var_slot = self.frame.new(st.var, "i")
            body = self.block(st.body)
            self.frame.restore(st.var, old)
            return ("for", var_slot, it, body)
        raise Unsupported(f"statement {type(st).__name__}")


def lower(game: Any) -> Program:
    """The program of one `Game` (a compiled rule file at its player count and options). The rule file
    must be compiled without the optimizer (its Inline nodes are Python-only): `load_plain`."""
    lo = Lowering(game)
    spec = lo.spec
    for v in spec.variables:
        if v.per_player or v.per_team:
            raise Unsupported("per-player variables")
    var_init = []
    for rows, scope in ((game.var_init, "match"), (game.deal_init, "deal")):
        for i, const, vo in rows:
            if vo is not None:
                raise Unsupported("computed initial value")
            var_init.append((i, lo.value(const), scope))
    acts: list[dict[str, Any]] = []
    act_ix: dict[str, int] = {}
    for a in spec.actions:
        info = game.compiled.params[a.name]
        params: list[Any] = []
        lo.frame = Frame()
        run_frame = lo.frame
        for p, pi in zip(a.params, info):
            if pi.kind not in ("card", "player", "rank"):
                raise Unsupported(f"parameter kind {pi.kind}")
            params.append((pi.kind, lo.ns["RADIX_" + a.name][len(params)], lo.ns["STRIDE_" + a.name][len(params)],
                           lo.ex(p.domain), lo.frame.new(p.name, "i")))
            if lo.ns["LO_" + a.name][len(params) - 1] != 0:
                raise Unsupported("parameter with a low bound")
        when = lo.ex(a.when) if a.when is not None else None
        effect = lo.block(a.effect)
        fi = len(lo.funcs)
        lo.funcs.append(Func("run_" + a.name, [], "", effect, run_frame))
        lo.func_index["run_" + a.name] = fi
        act_ix[a.name] = len(acts)
        acts.append({"name": a.name, "off": lo.ns["OFF_" + a.name], "params": params, "when": when, "run": fi,
                     "frame": run_frame})
    phases = []
    for ph in spec.phases:
        d: dict[str, Any] = {"name": ph.name, "round": ph.round, "next": ph.next,
                             "then": lo.ns["PHASE_" + ph.then[0]] if ph.then else NONE_CODE,
                             "actions": [act_ix[a] for a, _ in ph.actions]}
        d["first"] = lo.block_func(f"first_{ph.name}", [], None, ph.first) if ph.first is not None else -1
        for part in ("start", "after", "end"):
            body = getattr(ph, part)
            d[part] = lo.block_func(f"{part}_{ph.name}", [], body) if body else -1
        phases.append(d)
    m = spec.match
    hooks = {"match_start": lo.block_func("match_start", [], m.start),
             "match_deal": lo.block_func("match_deal", [], m.deal),
             "match_end_deal": lo.block_func("match_end_deal", [], m.end_deal)}
    if m.next_dealer is not None or getattr(m, "max_deals", None) is not None:
        raise Unsupported("next_dealer / max_deals")
    hooks["over_when"] = lo.block_func("over_when", [], None, m.over_when) if m.over_when is not None else -1
    rs = m.returns
    if rs is None:
        raise Unsupported("a match without returns")
    hooks["returns"] = lo.block_func("returns", ["p"], None, rs.value)
    if lo.funcs[hooks["returns"]].ret == "i":
        f = lo.funcs[hooks["returns"]]
        f.body, f.ret = ("i2f", "f", f.body), "f"
    if game.teams_of is not None:
        raise Unsupported("teams")
    return Program(game.n, game.num_cards, list(game.zone_names), list(range(game.num_cards)),
                   len(game.var_names), var_init, lo.strings, lo.tables, lo.funcs, lo.func_index, phases, acts,
                   game.num_distinct_actions(), list(game.ns["RANKS"]), hooks)


def rank_tables(p: Program) -> tuple[list[int], list[int]]:
    """Interned text -> rank position (-1 if no rank), and rank position -> interned text."""
    ranks = p.ranks
    pos = [-1] * len(p.strings)
    for i, r in enumerate(ranks):
        pos[p.strings.index(r)] = i
    return pos, [p.strings.index(r) for r in ranks]
