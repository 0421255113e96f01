"""Lowering: a checked rule file at one player count and options -> a small typed tree IR that both
prototype back ends read (emit_cpp.py: design (a), C++ source; emit_prog.py: design (b), a flat program).

Covers the part of the language the bundled rule files use (docs/design/native.md, "Covered"); anything else
raises `Unsupported` naming the construct, so the native backend never runs a file it only half understands.

IR: tuples (op, ty, *args); ty is 'i' (int64: ints, bools, cards, players, interned texts), 'f' (double)
or 'l' (a list of ints). Statements: (op, *args). Blocks return a code: NONE (-2), END_DEAL (-1) or a phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dsl import abi, candidates, weights
from ..dsl import ast as A
from ..dsl import refs as R
from ..dsl import types as T
from ..dsl.analysis import _static
from ..dsl.codegen.expressions import _takes_numbers
from .ir import END_DEAL, IR, NONE_CODE, NONE_V, Frame, Func, Unsupported, item_kind, kind
from .lower_calls import CallsMixin, nn
from .lower_views import fix_zones, lower_views

MAX_PLAYERS = 62  # a bit each in an int64 word (runtime.h `winners`, view.h `outs` and `sits`)
# pyrandom.h's seeded shuffle sorts a card's 53-bit key with its place in one 64-bit word: 11 bits of place.
MAX_CARDS = 2048

__all__ = ["END_DEAL", "NONE_CODE", "NONE_V", "Func", "Program", "Unsupported", "lower"]


@dataclass
class Program:
    n: int
    num_cards: int
    zones: list[str]  # zone slot names
    initial_zone: list[int]  # the first zone holds the pack
    nvars: int
    var_init: list[tuple[int, int, str]]  # (slot, value, scope)
    strings: list[str]
    tables: list[list[Any]]  # per-card tables (suit, rank, properties...): ints, or floats
    funcs: list[Func]
    func_index: dict[str, int]
    phases: list[dict[str, Any]]  # name, first/start/after/end (func index or -1), round, next, then, actions
    actions: list[dict[str, Any]]  # name, off, params [(kind, radix, stride, domain IR)], when, run (func ids)
    num_actions: int
    ranks: list[str]
    hooks: dict[str, int]  # match_start, match_deal, match_end_deal, over_when, returns, init_*, teams
    nlists: int = 0  # list variables' slots (kept apart from the int slots)
    nnums: int = 0  # slots of variables of numbers with decimals (apart too)
    nlls: int = 0  # slots of variables of lists of lists (melds)
    max_deals: int = 0  # 0: no limit
    fix_zones: list[int] = field(default_factory=list)  # zones decided at the end of a lazy step (fix_seen)
    step_budget: int = 2_000_000  # units of work in one move: the game's `Limits.steps`, compiled in
    views: dict[str, Any] = field(default_factory=dict)  # what each player sees (lower_views.py)


class Lowering(CallsMixin):
    def __init__(self, game: Any) -> None:
        self.g = game
        self.spec = game.compiled.spec
        self.ns = game.ns
        self.n = game.n
        self.strings: list[str] = []
        self.sid: dict[str, int] = {}
        self.tables: list[list[Any]] = []
        self.table_ix: dict[str, int] = {}
        self.funcs: list[Func] = []
        self.func_index: dict[str, int] = {}
        self.frame = Frame()
        self.lowering: set[int] = set()  # the functions whose bodies are being lowered now
        self.pending: list[tuple[int, list[A.Stmt]]] = []  # procedures called, to lower (`lower_pending`)
        self.shuffled: set[str] = set()
        self.lslots: dict[str, int] = {}
        self.fslots: dict[str, int] = {}
        self.nlists = self.nnums = 0
        self.llslots: dict[str, int] = {}
        self.nlls = 0
        for v in self.spec.variables:
            size = game.n if (v.per_player or v.per_team) else 1
            if T.is_list(v.ty) and T.is_list(v.ty.item):
                self.llslots[v.name] = self.nlls
                self.nlls += size
            elif T.is_list(v.ty):
                self.lslots[v.name] = self.nlists
                self.nlists += size
            elif v.ty == T.NUM:
                self.fslots[v.name] = self.nnums
                self.nnums += size
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
            src = abi.card_table(name) if name in abi.CARD_FIELDS else abi.property_table(name)
            if src not in ns:
                raise Unsupported(f"card attribute {name}")
            self.table_ix[name] = len(self.tables)
            col = ns[src]
            if any(isinstance(x, float) for x in col):  # a property of numbers with decimals
                if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in col):
                    raise Unsupported(f"card attribute {name} of mixed kinds")
                self.tables.append([float(x) for x in col])
            else:
                self.tables.append([self.value(x) for x in col])
        return self.table_ix[name]

    # ------------------------------------------------------------ expressions
    def ex(self, e: A.Expr) -> IR:
        m = getattr(self, "x_" + type(e).__name__, None)
        try:
            if m is None:
                raise Unsupported(f"expression {type(e).__name__}")
            return m(e)
        except Unsupported as u:
            located(u, e)
            raise

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
            if b == "suits":
                return self.clist(self.ns["SUITS"])
            if b == "phase":
                return ("phase", "i", [self.intern(ph.name) for ph in self.spec.phases])
            if b in ("active_players", "teams", "deal_number", "turns"):  # `turns` is a number, not a list
                return (b, "l" if b in ("active_players", "teams") else "i")
            raise Unsupported(f"built-in {b}")
        if isinstance(ref, R.Option):
            v = self.ns[abi.option(ref.name)]
            return ("cf", "f", v) if isinstance(v, float) else ("ci", "i", self.value(v))
        if isinstance(ref, R.Constant):
            v = self.ns[abi.const(ref.name)]
            return self.clist(v) if isinstance(v, list) else ("ci", "i", self.value(v))
        if isinstance(ref, R.Variable):
            if ref.spec.per_player or ref.spec.per_team:
                raise Unsupported("per-player variable without index")
            k, base = self.vslot(ref.spec)
            return ("var", k, ("ci", "i", base))
        if isinstance(ref, R.Zone):
            if ref.spec.per_player:
                raise Unsupported("per-player zone without index")
            return ("zone", "l", ("ci", "i", self.ns[abi.zone(ref.spec.name)]))
        raise Unsupported(f"name {e.id}")

    def seat(self, e: A.Expr) -> IR:
        """A seat or team number, checked: 0 to n - 1."""
        return ("seat", "i", self.ex(e))

    def vslot(self, spec: Any) -> tuple[str, int]:
        """A variable's kind and first slot: int slots are the Python backend's, list slots are apart."""
        if spec.ty == T.NUM:
            return "f", self.fslots[spec.name]
        if T.is_list(spec.ty):
            if T.is_list(spec.ty.item):
                if T.is_list(spec.ty.item.item):
                    raise Unsupported("a variable of lists of lists of lists")
                return "L", self.llslots[spec.name]
            return "l", self.lslots[spec.name]
        return "i", self.ns[abi.var(spec.name)]

    def x_Index(self, e: A.Index) -> IR:
        o = e.obj
        ref = o.ref if isinstance(o, A.Name) else None
        if isinstance(ref, R.Zone) and ref.spec.per_player:
            return ("zone", "l", ("add", "i", ("ci", "i", self.ns[abi.zone(ref.spec.name)]), self.seat(e.index)))
        if isinstance(ref, R.Variable) and (ref.spec.per_player or ref.spec.per_team):
            k, base = self.vslot(ref.spec)
            return ("var", k, ("add", "i", ("ci", "i", base), self.seat(e.index)))
        if ref == R.Builtin("team"):
            return ("team", "i", self.seat(e.index))
        if isinstance(ref, R.Constant) and isinstance(self.ns[abi.const(ref.name)], dict):
            table = self.ns[abi.const(ref.name)]
            if any(isinstance(v, list | dict | float) for v in table.values()):
                raise Unsupported("a constant table of lists or numbers with decimals")
            return ("mapget", "i", [self.value(k) for k in table], [self.value(v) for v in table.values()],
                    self.ex(e.index))
        x = self.ex(o)
        return ("at", item_kind(x), x, self.ex(e.index))

    def x_ListLit(self, e: A.ListLit) -> IR:
        xs = [self.ex(v) for v in e.items]
        kinds = {x[1] for x in xs} or {kind(T.elem(e.ty))}
        if kinds <= {"i", "f"} and "f" in kinds:  # numbers with decimals: a list of doubles
            return ("listlit", "F", [self.conv(x, "f") for x in xs])
        k = kinds.pop()
        if k not in ("i", "l", "L") or kinds:
            raise Unsupported("a list of lists of lists of lists, or of numbers with decimals")
        return ("listlit", {"i": "l", "l": "L", "L": "P"}[k], xs)

    def x_Attr(self, e: A.Attr) -> IR:
        if e.obj.ty != T.CARD:
            raise Unsupported(f"attribute of {e.obj.ty}")
        t = self.table(e.name)
        k = "f" if any(isinstance(x, float) for x in self.tables[t]) else "i"
        return ("tab", k, t, self.ex(e.obj))

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
        if a[1] == b[1] and a[1] in ("l", "L", "P") and e.op == "+":
            return ("cat", a[1], a, b)
        k = "f" if "f" in (a[1], b[1]) else "i"
        if "l" in (a[1], b[1]):
            raise Unsupported("list arithmetic")
        op = {"+": "add", "-": "sub", "*": "mul", "//": "fdiv", "%": "mod"}[e.op]
        return (op, k, self.conv(nn(e.left, a), k), self.conv(nn(e.right, b), k))

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
        k = item_kind(it)
        slot = self.frame.new(e.var, k)
        cond = self.ex(e.cond) if e.cond is not None else None
        elem = self.ex(e.elem)
        self.frame.restore(e.var, old)
        if elem[1] not in ("i", "l", "L"):
            raise Unsupported("a list of lists of lists of lists, or of numbers with decimals")
        return ("comp", {"i": "l", "l": "L", "L": "P"}[elem[1]], (k, slot), it, cond, elem)

    # ------------------------------------------------------------ functions
    def func(self, spec: Any, kinds: list[str]) -> int:
        """A `define` function, lowered once per kinds of its arguments (a function is as generic as the
        checker lets it be)."""
        name = f"fn_{spec.name}_{''.join(kinds)}"
        if name in self.func_index:
            fi = self.func_index[name]
            if self.funcs[fi].body is None:
                raise Unsupported(f"recursive function {spec.name}")
            return fi
        fi = len(self.funcs)
        self.func_index[name] = fi
        saved, self.frame = self.frame, Frame()
        params = [(k, self.frame.new(p, k)) for p, k in zip(spec.params, kinds)]
        f = Func(name, params, "i", None, self.frame)
        self.funcs.append(f)
        body = self.ex(spec.body)
        if body[1] in ("i", "f") and (spec.body.ty == T.ANY or spec.body.ty in (T.INT, T.NUM) and
                                      _takes_numbers(spec.body, [f"l_{p}" for p in spec.params])):
            body = ("keep", body[1], body)  # a number returned stays within +-10**18, as f_num keeps it
        f.ret, f.body = body[1], body
        self.frame = saved
        return fi

    def block_func(self, name: str, params: list[str], body: list[A.Stmt] | None,
                   expr: A.Expr | None = None, kinds: list[str] | None = None, defer: bool = False) -> int:
        """A function of the library for a body of steps (or an `expr`); with `defer`, a procedure's, whose
        body `lower_pending` lowers later."""
        if kinds:
            name += "_" + "".join(kinds)
        if name in self.func_index:
            fi = self.func_index[name]
            if fi in self.lowering:  # C++ recursion has no step budget to stop it
                raise Unsupported("a recursive procedure")
            return fi
        fi = len(self.funcs)
        self.func_index[name] = fi
        saved, self.frame = self.frame, Frame()
        ps = [(k, self.frame.new(p, k)) for p, k in zip(params, kinds or ["i"] * len(params))]
        f = Func(name, ps, "", None, self.frame)
        self.funcs.append(f)
        if defer:
            self.pending.append((fi, body or []))
        else:
            self.lowering.add(fi)
            if expr is not None:
                b = self.ex(expr)
                f.ret, f.body = b[1], b
            else:
                f.body = self.block(body or [])
            self.lowering.discard(fi)
        self.frame = saved
        return fi

    def lower_pending(self) -> None:
        """The procedures `do` steps called, each lowered after its caller: a chain of a hundred procedures,
        each nesting steps, would otherwise be lowered one inside the other, past Python's recursion limit."""
        while self.pending:
            fi, body = self.pending.pop()
            f = self.funcs[fi]
            saved, self.frame = self.frame, f.frame
            self.lowering.add(fi)
            f.body = self.block(body)
            self.lowering.discard(fi)
            self.frame = saved

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[A.Stmt]) -> list[IR]:
        out: list[IR] = []
        for st in stmts:
            x = self.stmt(st)
            if x is not None:
                out.append(x)
        return out

    def zref(self, z: A.ZoneRef) -> IR:
        base = ("ci", "i", self.ns[abi.zone(z.name)])
        return base if z.index is None else ("add", "i", base, self.ex(z.index))

    def stmt(self, st: A.Stmt) -> IR | None:
        try:
            return self._stmt(st)
        except Unsupported as u:
            located(u, st)
            raise

    def _stmt(self, st: A.Stmt) -> IR | None:
        if isinstance(st, A.Log):
            return None
        if isinstance(st, A.Assign):
            ref = st.ref
            v = self.ex(st.value)
            if ref == R.Builtin("team"):
                assert st.index is not None
                return ("set_team", self.seat(st.index), v)
            if isinstance(ref, R.Builtin):
                if ref.name in ("current", "dealer"):
                    if st.op != "=":
                        v = (st.op[0] == "+" and "add" or "sub", "i", (ref.name[:3], "i"), v)
                    return ("set_" + ref.name, v)
                raise Unsupported(f"assignment to {ref.name}")
            if isinstance(ref, R.Variable):
                k, base = self.vslot(ref.spec)
                slot: IR = ("ci", "i", base)
                if st.index is not None:
                    slot = ("add", "i", slot, self.seat(st.index))
                if st.op != "=":
                    if k in ("l", "L"):
                        if st.op != "+=":
                            raise Unsupported("'-=' on a list")
                        v = ("cat", k, ("var", k, slot), v)
                    elif k == "f":  # a number with decimals: read from its own slots
                        v = ("add" if st.op == "+=" else "sub", k, ("var", k, slot), self.conv(v, k))
                    else:
                        v = ("add" if st.op == "+=" else "sub", "i", ("var", "i", slot), v)
                v = self.conv(v, k)
                if ref.spec.ty in (T.INT, T.NUM) and weights.numeric(st.value.ty) and not _static(st.value):
                    v = ("keep", k, v)  # stays within +-10**18 where the Python backend checks it (f_num)
                return ("setvar", k, slot, v)
            raise Unsupported("assignment")
        if isinstance(st, A.LetStmt):
            v = self.ex(st.value)
            return ("setloc", v[1], self.frame.new(st.name, v[1]), v)
        if isinstance(st, A.Pick):
            opts = self.ex(st.options)
            # The rule file's `bounds: outcomes` (0: none), checked as the Python backend does (chance.py).
            return ("pick", self.frame.new(st.name, "i"), opts, self.g.declared.outcomes or 0)
        if isinstance(st, A.Move):
            c = self.ex(st.cards)
            d = self.zref(st.dest)
            b = st.bottom
            if c[0] == "pack":
                return ("movepack", d, b)
            if c[0] == "zone":
                return ("movezone", c[2], d, b)
            return ("movelist", c, d, b) if c[1] == "l" else ("move1", c, d, b)
        if isinstance(st, A.Deal):
            spec = st.dest.ref
            if st.dest.index is None and spec is not None and spec.per_player:
                return ("deal_each", self.ex(st.count), self.zref(st.src), ("ci", "i", self.ns[abi.zone(st.dest.name)]))
            return ("deal", self.ex(st.count), self.zref(st.src), self.zref(st.dest))
        if isinstance(st, A.Eliminate):
            return ("eliminate", self.seat(st.player))
        if isinstance(st, A.SitOut):
            return ("sit_out", self.seat(st.player))
        if isinstance(st, A.Shuffle):
            self.shuffled.add(st.zone.name)
            return ("shuffle", self.zref(st.zone))
        if isinstance(st, A.Goto):
            return ("ret", self.ns[abi.phase_number(st.phase)])
        if isinstance(st, A.EndDeal):
            return ("ret", END_DEAL)
        if isinstance(st, A.Do):
            proc = next(p for p in self.spec.procedures if p.name == st.proc)
            args = [self.ex(a) for a in st.args]
            fi = self.block_func("pr_" + proc.name, proc.params, proc.body, kinds=[a[1] for a in args], defer=True)
            return ("do", fi, args)
        if isinstance(st, A.If):
            return ("if", self.ex(st.cond), self.block(st.then), self.block(st.other))
        if isinstance(st, A.For):
            it = self.ex(st.iter)
            old = self.frame.scoped(st.var)
            k = item_kind(it)
            var_slot = self.frame.new(st.var, k)
            body = self.block(st.body)
            self.frame.restore(st.var, old)
            return ("for", (k, var_slot), it, body)
        raise Unsupported(f"statement {type(st).__name__}")


def located(u: Unsupported, node: A.Node) -> None:
    """Where the refused construct is written: the first (innermost) node with a place that it passes through."""
    if u.span is None and getattr(node, "span", None) is not None:
        u.span = node.span


def _init_block(lo: Lowering, game: Any, rows: list[tuple[int, Any, Any]], name: str) -> int:
    """The variables' initial values as one block, slot by slot in the Python backend's order: a computed
    one sees the values set before it, and `owner` is the slot's player (or team)."""
    lo.frame = Frame()
    owner = lo.frame.new("owner", "i")
    body: list[IR] = []
    for i, const, vo in rows:
        spec, who = game.var_specs[i]
        k, base = lo.vslot(spec)
        slot = base + (who or 0)
        if vo is None:
            v: IR = (("listlit", "L", [("listlit", "l", [("ci", "i", lo.value(x)) for x in xs]) for xs in const or []])
                     if k == "L" else
                     ("listlit", "l", [("ci", "i", lo.value(x)) for x in const or []]) if k == "l"
                     else ("cf", "f", float(const)) if k == "f" else ("ci", "i", lo.value(const)))
        else:
            body.append(("setloc", "i", owner, ("ci", "i", NONE_V if who is None else who)))
            v = lo.conv(lo.ex(spec.initial), k)
        body.append(("setvar", k, ("ci", "i", slot), v))
    return _add_func(lo, Func(name, [], "", body, lo.frame))


def _add_func(lo: Lowering, f: Func) -> int:
    fi = len(lo.funcs)
    lo.funcs.append(f)
    lo.func_index[f.name] = fi
    return fi


def _param(lo: Lowering, game: Any, info: Any, j: int, domain: A.Expr, name: str) -> dict[str, Any]:
    """One parameter of an action: its domain, local slot and digit (engine/codec.py's encoding)."""
    kind_ = info.params[j].kind
    vals: list[int] | None = None
    if kind_ in ("suit", "rank", "str"):
        src = {"suit": game.spec.suits, "rank": game.spec.ranks}.get(kind_, info.values[j])
        vals = [lo.value(x) for x in src]
    elif kind_ == "cards":
        if any(len(xs) > 8 for xs in info.values[j]):
            raise Unsupported("a parameter over lists of more than 8 cards")
    elif kind_ not in ("card", "player", "bool", "int"):
        raise Unsupported(f"parameter kind {kind_}")
    return {"kind": kind_, "radix": info.radix[j], "stride": info.stride[j], "lo": info.lows[j], "vals": vals,
            "ids": info.values[j] if kind_ == "cards" else None,
            "dom": lo.ex(domain), "slot": lo.frame.new(name, "l" if kind_ == "cards" else "i")}


def lower(game: Any) -> Program:
    """The program of one `Game` (a compiled rule file at its player count and options). The rule file
    must be compiled without the optimizer (its Inline nodes are Python-only): `load_plain`."""
    if game.n > MAX_PLAYERS:
        raise Unsupported(f"more than {MAX_PLAYERS} players")
    if game.num_cards > MAX_CARDS:
        raise Unsupported(f"a pack of more than {MAX_CARDS:,} cards")
    lo = Lowering(game)
    spec = lo.spec
    for v in spec.variables:
        lo.vslot(v)  # refuses the kinds of variable not covered
    hooks = {"init_match": _init_block(lo, game, game.var_init, "init_match"),
             "init_deal": _init_block(lo, game, game.deal_init, "init_deal")}
    acts: list[dict[str, Any]] = []
    act_ix: dict[str, int] = {}
    for a, info in zip(spec.actions, game.actions):
        lo.frame = Frame()
        run_frame = lo.frame
        params = [_param(lo, game, info, j, p.domain, p.name) for j, p in enumerate(a.params)]
        # `when` in parts, each tested in the loop of the last parameter it reads (the Python backend's plain
        # plan): a parameter filtered on its own is not walked with every value of the ones after it.
        plan = candidates.plain_plan([p.name for p in a.params], candidates.parts(a.when) if a.when is not None else [])
        first = [lo.ex(c) for c in plan.first]
        for pa, level in zip(params, plan.levels):
            pa["checks"] = [lo.ex(c) for c in level.checks]
        effect = lo.block(a.effect)
        fi = _add_func(lo, Func("run_" + a.name, [], "", effect, run_frame))
        act_ix[a.name] = len(acts)
        acts.append({"name": a.name, "off": info.offset, "params": params, "first": first, "run": fi,
                     "frame": run_frame})
    phases = []
    for ph in spec.phases:
        d: dict[str, Any] = {"name": ph.name, "round": ph.round, "next": ph.next,
                             "then": lo.ns[abi.phase_number(ph.then[0])] if ph.then else NONE_CODE,
                             "actions": [act_ix[a] for a, _ in ph.actions]}
        d["first"] = lo.block_func(f"first_{ph.name}", [], None, ph.first) if ph.first is not None else -1
        for part in ("start", "after", "end"):
            body = getattr(ph, part)
            d[part] = lo.block_func(f"{part}_{ph.name}", [], body) if body else -1
        phases.append(d)
    m = spec.match
    hooks.update({"match_start": lo.block_func("match_start", [], m.start),
                  "match_deal": lo.block_func("match_deal", [], m.deal),
                  "match_end_deal": lo.block_func("match_end_deal", [], m.end_deal)})
    hooks["next_dealer"] = lo.block_func("next_dealer", [], None, m.next_dealer) if m.next_dealer is not None else -1
    hooks["over_when"] = lo.block_func("over_when", [], None, m.over_when) if m.over_when is not None else -1
    rs = m.returns
    hooks["winners"] = -1
    if rs is None:  # the winners' share (engine/returns.py)
        hooks["returns"] = -1
        if m.winners is not None:
            hooks["winners"] = lo.block_func("winners", [], None, m.winners)
            if lo.funcs[hooks["winners"]].ret != "l":
                raise Unsupported("winners that are no list of players")
    else:
        hooks["returns"] = lo.block_func("returns", ["p"], None, rs.value)
    if hooks["returns"] >= 0 and lo.funcs[hooks["returns"]].ret == "i":
        f = lo.funcs[hooks["returns"]]
        f.body, f.ret = ("i2f", "f", f.body), "f"
    hooks["teams"] = -1
    if game.teams_of is not None:
        assert spec.teams is not None
        lo.frame = Frame()
        p = lo.frame.new("p", "i")
        body = [("set_team", ("loc", "i", p), lo.ex(spec.teams))]
        hooks["teams"] = _add_func(lo, Func("teams", [], "", [("for", ("i", p), lo.clist(list(range(game.n))), body)],
                                            lo.frame))
    lo.lower_pending()
    views = lower_views(lo, game)
    return Program(game.n, game.num_cards, list(game.zone_names), list(range(game.num_cards)),
                   len(game.var_names), [], lo.strings, lo.tables, lo.funcs, lo.func_index, phases, acts,
                   game.num_distinct_actions(), list(game.ns["RANKS"]), hooks, lo.nlists, lo.nnums, lo.nlls,
                   m.max_deals or 0,
                   fix_zones(game, lo.shuffled), game.step_limit, views)
