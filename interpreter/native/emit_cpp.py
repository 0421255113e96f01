"""Design (a): the lowered rule file as C++ source, one function per rule function, procedure, action and
hook, over runtime.h. The text is made from the IR only: no text of the rule file is ever in it (strings
are interned to numbers, names become numbered identifiers), so a hostile file cannot inject code."""

from __future__ import annotations

import itertools
from typing import Any

from ..engine.budget import over
from .emit_ids import ids_digit, ids_tables
from .emit_views import list_dispatch
from .emit_views import meta_lines as view_meta
from .lower import NONE_CODE, Func, Program, Unsupported
from .position import SCALARS

# The lowered functions the rules call (lower.py's names): `define` functions and procedures. A call of one that
# calls others takes a unit of the step budget (the Python backend charges a call its body's size).
CALLED = ("fn_", "pr_")
CT = {"i": "i64", "f": "double", "l": "List", "L": "Lists", "F": "FList", "P": "Packs"}


class CppWriter:
    def __init__(self, prog: Program, module: str) -> None:
        self.p = prog
        self.module = module
        self.globals: list[str] = []
        self.klist: dict[tuple[int, ...], str] = {}
        # A loop's or fold's own names are a letter or two and this number (`it3`, `ix3`, `o3`): no such name may
        # spell one the runtime defines (the index was `i` and the number until a file's 65th loop declared `i64`).
        self.uid = itertools.count()

    # ------------------------------------------------------------ expressions
    def k(self, xs: list[int]) -> str:
        key = tuple(xs)
        if key not in self.klist:
            name = f"K{len(self.klist)}"
            self.klist[key] = name
            self.globals.append(f"static const List {name} = list_of({{{', '.join(map(str, xs))}}});")
        return self.klist[key]

    def loc(self, k: str, i: int) -> str:
        return f"l{k}{i}"

    def e(self, x: Any) -> str:
        op = x[0]
        m = getattr(self, "e_" + op)
        return m(x)

    def e_ci(self, x: Any) -> str:
        return f"(i64)({x[2]}LL)"

    def e_cf(self, x: Any) -> str:
        return repr(float(x[2]))

    def e_clist(self, x: Any) -> str:
        return self.k(x[2])

    def e_pack(self, x: Any) -> str:
        return self.k(list(range(self.p.num_cards)))

    def e_loc(self, x: Any) -> str:
        return self.loc(x[1], x[2])

    def e_actor(self, x: Any) -> str:
        return "(i64)x.s.actor"

    def e_cur(self, x: Any) -> str:
        return "(i64)x.s.cur"

    def e_dealer(self, x: Any) -> str:
        return "(i64)x.s.dealer"

    def e_var(self, x: Any) -> str:
        if x[1] == "L":
            return f"x.s.llv[at({self.e(x[2])}, MAXLLV)]"
        if x[1] == "l":
            return f"x.s.lv[at({self.e(x[2])}, MAXLV)]"
        if x[1] == "f":
            return f"x.s.fv[at({self.e(x[2])}, MAXFV)]"
        return f"x.s.v[at({self.e(x[2])}, MAXV)]"

    def e_seat(self, x: Any) -> str:
        return f"(i64)at({self.e(x[2])}, {self.p.n})"

    def e_team(self, x: Any) -> str:
        return f"(i64)x.s.team[({self.e(x[2])})]"  # `[[` would open an attribute

    def e_teams(self, x: Any) -> str:
        return "teams_list(x)"

    def e_active_players(self, x: Any) -> str:
        return "active_list(x)"

    def e_deal_number(self, x: Any) -> str:
        return "(i64)x.s.deal_no"

    def e_turns(self, x: Any) -> str:
        return "(i64)x.s.turns"

    def e_at(self, x: Any) -> str:  # a position from the end where it is negative, as Python's `xs[i]`
        return f"item({self.e(x[2])}, {self.e(x[3])})"

    def e_mapget(self, x: Any) -> str:
        return f"map_get({self.k(x[2])}, {self.k(x[3])}, {self.e(x[4])})"

    def e_phase(self, x: Any) -> str:
        return f"{self.k(x[2])}[x.s.phase]"

    def e_packings(self, x: Any) -> str:
        return self._lib("packings", x, budget=True)

    def e_listlit(self, x: Any) -> str:
        if x[1] in ("F", "L", "P"):
            fn = {"F": "flist_of", "L": "lists_of", "P": "packs_of"}[x[1]]
            return fn + "({" + ", ".join(self.arg(v) for v in x[2]) + "})"
        return "list_of({" + ", ".join(self.e(v) for v in x[2]) + "})"

    def e_cat(self, x: Any) -> str:
        return f"cat({self.e(x[2])}, {self.e(x[3])})"

    def e_abs(self, x: Any) -> str:
        return f"std::abs({self.e(x[2])})"

    def e_floor(self, x: Any) -> str:
        return f"whole(std::floor({self.e(x[2])}))"

    def e_ceil(self, x: Any) -> str:
        return f"whole(std::ceil({self.e(x[2])}))"

    def e_keep(self, x: Any) -> str:  # a number about to be kept (f_num)
        return f"keep_{x[1]}({self.e(x[2])})"

    def e_nn(self, x: Any) -> str:
        return f"not_none({self.e(x[2])})"

    def _lib(self, name: str, x: Any, budget: bool = False) -> str:
        """A library call: its list argument charged a unit per item (`walked`), or for a generator, which charges
        as it builds, the move's budget passed in."""
        args = [self.e(a) for a in x[2:]]
        if budget:
            args.append("x.b")
        elif args:
            args[0] = f"walked(x, {args[0]})"
        return f"{name}(" + ", ".join(args) + ")"

    def e_subsets(self, x: Any) -> str:
        return self._lib("subsets", x, budget=True)

    def e_combinations(self, x: Any) -> str:
        return self._lib("combinations", x, budget=True)

    def e_flatten(self, x: Any) -> str:
        return self._lib("flatten", x)

    def e_reverse(self, x: Any) -> str:
        return self._lib("reversed", x)

    def e_unique(self, x: Any) -> str:
        return self._lib("unique", x)

    def e_top(self, x: Any) -> str:
        a = x[2]
        if a[0] == "zone":  # only the cards read are decided (runtime._fz_top)
            return f"zone_top(x, {self.e(a[2])}, {self.e(x[3])})"
        return self._lib("top_of", x)

    def e_bottom(self, x: Any) -> str:
        return self._lib("bottom_of", x)

    def e_index_of(self, x: Any) -> str:
        return self._lib("index_of", x)

    def e_teammates(self, x: Any) -> str:
        return f"teammates(x, {self.e(x[2])})"

    def e_next_active(self, x: Any) -> str:
        return f"(i64)next_active(x.s, x.m.n, at({self.e(x[2])}, {self.p.n}))"

    def e_is_active(self, x: Any) -> str:
        p = f"at({self.e(x[2])}, {self.p.n})"
        return f"[&]{{ int p = {p}; return (i64)!(x.s.out[p] || x.s.sit[p]); }}()"

    def e_sitting_out(self, x: Any) -> str:
        return f"(i64)x.s.sit[at({self.e(x[2])}, {self.p.n})]"

    def e_zone(self, x: Any) -> str:
        return f"zone(x, {self.e(x[2])})"

    def e_tab(self, x: Any) -> str:
        return f"T{x[2]}[at({self.e(x[3])}, {self.p.num_cards})]"

    def e_if(self, x: Any) -> str:
        return f"({self.e(x[2])} ? {self.arg(x[3])} : {self.arg(x[4])})"

    def _bin(self, x: Any, o: str) -> str:
        return f"({self.e(x[2])} {o} {self.e(x[3])})"

    def e_add(self, x: Any) -> str:
        return self._bin(x, "+") if x[1] == "f" else f"add_i({self.e(x[2])}, {self.e(x[3])})"

    def e_sub(self, x: Any) -> str:
        return self._bin(x, "-") if x[1] == "f" else f"sub_i({self.e(x[2])}, {self.e(x[3])})"

    def e_mul(self, x: Any) -> str:
        return f"mul_{x[1]}({self.e(x[2])}, {self.e(x[3])})"

    def e_fdiv(self, x: Any) -> str:
        return f"floordiv{'_f' if x[1] == 'f' else ''}({self.e(x[2])}, {self.e(x[3])})"

    def e_mod(self, x: Any) -> str:
        return f"pymod{'_f' if x[1] == 'f' else ''}({self.e(x[2])}, {self.e(x[3])})"

    def e_div(self, x: Any) -> str:
        return f"truediv({self.e(x[2])}, {self.e(x[3])})"

    def e_i2f(self, x: Any) -> str:
        return f"(double)({self.e(x[2])})"

    def e_not(self, x: Any) -> str:
        return f"(i64)(!({self.e(x[2])}))"

    def e_and(self, x: Any) -> str:
        return "(i64)(" + " && ".join(f"({self.e(v)})" for v in x[2]) + ")"

    def e_or(self, x: Any) -> str:
        return "(i64)(" + " || ".join(f"({self.e(v)})" for v in x[2]) + ")"

    def e_cmp(self, x: Any) -> str:
        return f"(i64)({self.e(x[3])} {x[2]} {self.e(x[4])})"

    def e_in(self, x: Any) -> str:
        return f"(i64)contains(walked(x, {self.e(x[3])}), {self.e(x[2])})"

    def e_let(self, x: Any) -> str:
        sets = "".join(f"{self.loc(k, i)} = {self.e(v)}; " for k, i, v in x[2])
        return f"[&]{{ x.b.deep(); {sets}return {self.e(x[3])}; }}()"  # nested lets nest frames

    def arg(self, a: Any) -> str:
        return f"to_list({self.e(a)})" if a[1] == "l" and a[0] == "zone" else self.e(a)

    def e_call(self, x: Any) -> str:
        return f"f{x[2]}(x{''.join(', ' + self.arg(a) for a in x[3])})"

    def e_len(self, x: Any) -> str:
        a = x[2]
        if a[0] == "zone":
            return f"zone_len(x, {self.e(a[2])})"
        return f"(i64)({self.e(a)}).size()"

    def e_first(self, x: Any) -> str:
        return f"first_of({self.e(x[2])})"

    def e_last(self, x: Any) -> str:
        a = x[2]
        if a[0] == "zone":
            return f"zone_last(x, {self.e(a[2])})"
        return f"last_of({self.e(a)})"

    def e_sort(self, x: Any) -> str:
        return f"sorted(walked(x, {self.e(x[2])}))"

    def e_by(self, x: Any) -> str:
        return f"(i64)x.s.by[at({self.e(x[2])}, {self.p.num_cards})]"

    def e_min2(self, x: Any) -> str:
        return f"std::min({self.e(x[2])}, {self.e(x[3])})"

    def e_max2(self, x: Any) -> str:
        return f"std::max({self.e(x[2])}, {self.e(x[3])})"

    def e_range(self, x: Any) -> str:
        return f"built(x, range_list({self.e(x[2])}, {self.e(x[3])}))"

    def e_comp(self, x: Any) -> str:
        _, ty, (k, slot), it, cond, elem = x
        u = next(self.uid)
        test = f"if (!({self.e(cond)})) continue; " if cond is not None else ""
        return (f"[&]{{ {CT[ty]} o{u}; {self.loop(u, it, self.loc(k, slot))}"
                f"{test}o{u}.push({self.e(elem)}); }} return o{u}; }}()")

    def loop(self, u: int, it: Any, var: str, by_index: bool = False) -> str:
        """The head of a loop of rule code over the list `it` (the body and a closing brace follow): `var` set
        to each item in turn, the loop's units charged as it starts. Over `combinations` or `subsets`, unless
        the body reads the items by index (`by_index`), the lists are made one at a time into `var` (runtime.h
        `Combos`, charged as building them is) instead of built into a list of lists and copied out of it."""
        if it[0] in ("combinations", "subsets") and not by_index:
            args = "".join(f"{self.e(a)}, " for a in it[2:])
            return (f"auto it{u} = {it[0]}_walk({args}x.b); x.b.charge(it{u}.size()); "
                    f"while (it{u}.next({var})) {{ ")
        if it[0] == "range" and not by_index:
            # Its numbers one at a time, as many as the rules ask for (a list holds 64, or a zone's cards): a
            # parameter over range(0, 10000) is the Python backend's too. Charged as building and walking the list.
            return (f"i64 lo{u} = {self.e(it[2])}, hi{u} = {self.e(it[3])}; long long n{u} = span(lo{u}, hi{u}); "
                    f"x.b.charge(n{u}); x.b.charge(n{u}); "
                    f"for (i64 v{u} = lo{u}; v{u} < hi{u}; v{u}++) {{ {var} = v{u}; ")
        return (f"const auto& it{u} = {self.e(it)}; x.b.charge(it{u}.size()); "
                f"for (int ix{u} = 0; ix{u} < it{u}.size(); ix{u}++) {{ {var} = it{u}[ix{u}]; ")

    def e_fold(self, x: Any) -> str:
        _, ty, how, (k, slot), it, cond, elem = x
        u = next(self.uid)
        var = self.loc(k, slot)
        test = f"if (!({self.e(cond)})) continue; " if cond is not None else ""
        head = self.loop(u, it, var, by_index=how in ("sort_by", "all_max_by", "all_min_by")) + test
        el = self.e(elem)
        if how == "any":
            return f"[&]() -> i64 {{ {head}if ({el}) return 1; }} return 0; }}()"
        if how == "all":
            return f"[&]() -> i64 {{ {head}if (!({el})) return 0; }} return 1; }}()"
        if how == "sum":
            t = CT[elem[1]]
            return f"[&]() -> {t} {{ {t} a{u} = 0; {head}a{u} += {el}; }} return a{u}; }}()"
        if how == "count":  # a comprehension's items are made all the same (their errors), as its list is
            made = "" if elem[0] == "ci" else f"(void)({el}); "
            return f"[&]() -> i64 {{ i64 a{u} = 0; {head}{made}a{u} += 1; }} return a{u}; }}()"
        if how in ("max", "min"):
            t, o = CT[elem[1]], ">" if how == "max" else "<"
            return (f"[&]() -> {t} {{ {t} a{u} = 0; bool h{u} = false; {head}{t} e{u} = {el}; "
                    f"if (!h{u} || e{u} {o} a{u}) {{ a{u} = e{u}; h{u} = true; }} }} "
                    f"if (!h{u}) fail(\"{how}() of an empty list\"); return a{u}; }}()")
        if how in ("max_by", "min_by"):
            t, o, r = CT[elem[1]], ">" if how == "max_by" else "<", CT[ty]
            return (f"[&]() -> {r} {{ {t} b{u}{{}}; {r} r{u}{{}}; bool h{u} = false; {head}{t} e{u} = {el}; "
                    f"if (!h{u} || e{u} {o} b{u}) {{ b{u} = e{u}; r{u} = {var}; h{u} = true; }} }} "
                    f"if (!h{u}) fail(\"{how}() of an empty list\"); return r{u}; }}()")
        if how == "sort_by":
            t = CT[elem[1]]
            if k != "i":
                raise Unsupported("sort_by() of lists of lists")
            return (f"[&]() -> List {{ {t} k{u}[LCAP]; {head}k{u}[ix{u}] = {el}; }} "
                    f"return sorted_by(to_list(it{u}), k{u}); }}()")
        if how in ("all_max_by", "all_min_by"):
            t, best = CT[elem[1]], "std::max" if how == "all_max_by" else "std::min"
            return (f"[&]() -> {CT[ty]} {{ {t} k{u}[KCAP]; {CT[ty]} o{u}; {head}k{u}[ix{u}] = {el}; }} "
                    f"if (!it{u}.size()) return o{u}; {t} b{u} = k{u}[0]; "
                    f"for (int j = 1; j < it{u}.size(); j++) b{u} = {best}(b{u}, k{u}[j]); "
                    f"for (int j = 0; j < it{u}.size(); j++) if (k{u}[j] == b{u}) o{u}.push(it{u}[j]); "
                    f"return o{u}; }}()")
        raise NotImplementedError(how)

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[Any], ind: str) -> list[str]:
        out: list[str] = []
        for st in stmts:
            out += self.stmt(st, ind)
        return out

    def stmt(self, st: Any, ind: str) -> list[str]:
        op = st[0]
        n = self.p.n
        if op == "set_current":
            return [f"{ind}x.s.cur = at({self.e(st[1])}, {n});"]
        if op == "set_dealer":
            return [f"{ind}x.s.dealer = at({self.e(st[1])}, {n});"]
        if op == "setvar":
            if st[1] == "L":
                return [f"{ind}x.s.llv[at({self.e(st[2])}, MAXLLV)] = {self.e(st[3])};"]
            if st[1] == "l":
                return [f"{ind}x.s.lv[at({self.e(st[2])}, MAXLV)] = to_list({self.e(st[3])});"]
            if st[1] == "f":
                return [f"{ind}x.s.fv[at({self.e(st[2])}, MAXFV)] = {self.e(st[3])};"]
            return [f"{ind}x.s.v[at({self.e(st[2])}, MAXV)] = {self.e(st[3])};"]
        if op == "set_team":
            return [f"{ind}x.s.team[({self.e(st[1])})] = (int16_t)at({self.e(st[2])}, {n});"]
        if op == "eliminate":
            return [f"{ind}x.s.out[({self.e(st[1])})] = true;"]
        if op == "sit_out":
            return [f"{ind}x.s.sit[({self.e(st[1])})] = true;"]
        if op == "setloc":
            return [f"{ind}{self.loc(st[1], st[2])} = {self.e(st[3])};"]
        if op == "pick":
            o = st[2]
            lst = f"zone_list_any(x, {self.e(o[2])})" if o[0] == "zone" else self.e(o)
            u = next(self.uid)
            size = f"o{u}.size()" if not st[3] else f"pick_bounded(o{u}.size(), {st[3]})"
            return [f"{ind}{{ auto o{u} = {lst}; li{st[1]} = o{u}[pick_index(x, {size})];",
                    f"{ind}  if (x.stop) return STOP; }}"]
        if op == "movepack":
            return [f"{ind}move_pack(x, {self.e(st[1])}, {str(st[2]).lower()});"]
        if op in ("movezone", "movelist", "move1"):
            fn = {"movezone": "move_zone", "movelist": "move_list", "move1": "move1"}[op]
            return [f"{ind}{fn}(x, {self.e(st[1])}, {self.e(st[2])}, {str(st[3]).lower()});"]
        if op == "deal_each":
            return [f"{ind}deal_each(x, {self.e(st[1])}, {self.e(st[2])}, {self.e(st[3])});"]
        if op == "deal":
            return [f"{ind}deal(x, {self.e(st[1])}, {self.e(st[2])}, {self.e(st[3])});"]
        if op == "shuffle":
            return [f"{ind}shuffle(x, {self.e(st[1])});"]
        if op == "ret":
            return [f"{ind}return {st[1]};"]
        if op == "do":
            u = next(self.uid)
            args = "".join(", " + self.arg(a) for a in st[2])
            return [f"{ind}{{ int r{u} = f{st[1]}(x{args}); if (r{u} != NONE_CODE) return r{u}; }}"]
        if op == "if":
            out = [f"{ind}if ({self.e(st[1])}) {{", *self.block(st[2], ind + "  ")]
            if st[3]:
                out += [f"{ind}}} else {{", *self.block(st[3], ind + "  ")]
            return out + [f"{ind}}}"]
        if op == "for":
            u = next(self.uid)
            k, slot = st[1]
            it = st[2]
            if it[0] in ("combinations", "subsets", "range"):  # the walk holds its own copy of what it walks
                return [f"{ind}{{ {self.loop(u, it, self.loc(k, slot))}", *self.block(st[3], ind + "  "),
                        f"{ind}}} }}"]
            lst = f"Lists l{u} = {self.e(it)};" if it[1] == "L" else f"List l{u} = to_list({self.e(it)});"
            return [f"{ind}{{ {lst} x.b.charge(l{u}.size()); for (int ix{u} = 0; ix{u} < l{u}.size(); ix{u}++) {{",
                    f"{ind}  {self.loc(k, slot)} = l{u}[ix{u}];", *self.block(st[3], ind + "  "), f"{ind}}} }}"]
        raise NotImplementedError(op)

    # ------------------------------------------------------------ the file
    def decls(self, f: Func) -> str:
        ps = {(k, i) for k, i in f.params}
        out = []
        for k in ("i", "f", "l", "L", "F", "P"):
            for i in range(f.frame.count[k]):
                if (k, i) not in ps:
                    out.append(f"{CT[k]} {self.loc(k, i)}{'' if k in 'lLFP' else ' = 0'};")
        return " ".join(out)

    def sig(self, fi: int, f: Func) -> str:
        ret = CT[f.ret] if f.ret else "int"
        # A function (pure: it changes nothing) takes lists by reference; a procedure gets its own copies, as
        # in the Python backend (its steps may change what it was given).
        ps = "".join(f", {'const ' + CT[k] + '&' if k in 'lLFP' and f.ret else CT[k]} {self.loc(k, i)}"
                     for k, i in f.params)
        return f"static {ret} f{fi}(Ctx& x{ps})"

    def source(self) -> str:
        p = self.p
        body: list[str] = []
        for fi, f in enumerate(p.funcs):
            if f.name.startswith("run_"):
                continue
            body.append(self.sig(fi, f) + " {")
            body.append("  " + self.decls(f))
            if f.name.startswith(CALLED) and calls(f.body):
                # A call that calls is work: a chain of them without loops could be exponential. A call of a
                # leaf (no calls, its loops charged) does a bounded part of its caller's charged work.
                body.append("  x.b.tick();")
            if f.ret:
                body.append(f"  return {self.e(f.body)};")
            else:
                body += self.block(f.body, "  ")
                body.append("  return NONE_CODE;")
            body.append("}")
        legal, run = [], []
        for ai, a in enumerate(p.actions):
            f = p.funcs[a["run"]]
            legal.append(f"static void legal{ai}(Ctx& x, std::vector<int>& out) {{")
            legal.append("  " + self.decls(f))
            ind = "  "
            digits = []
            # Each part of `when` is tested as soon as the parameters it reads are bound, in written order, as
            # the Python backend's plain plan does (dsl/candidates.py): the same work, the same errors.
            legal += [f"{ind}if (!({self.e(c)})) return;" for c in a["first"]]
            for j, pa in enumerate(a["params"]):
                u = next(self.uid)
                legal.append(f"{ind}{{ {self.loop(u, pa['dom'], self.pvar(pa))}")
                digits.append(f"{self.digit(ai, j, pa)} * {pa['stride']}")
                ind += "  "
                legal += [f"{ind}if (!({self.e(c)})) continue;" for c in pa["checks"]]
            legal.append(f"{ind}out.push_back((int)({a['off']} + {' + '.join(digits) or '0'}));")
            for _ in a["params"]:
                ind = ind[:-2]
                legal.append(f"{ind}}} }}")
            legal.append("}")
            run.append(f"static int run{ai}(Ctx& x, int k) {{")
            run.append("  " + self.decls(f))
            for j, pa in enumerate(a["params"]):
                radix = pa["radix"]
                val = {"bool": "d", "int": f"d + {pa['lo']}"}.get(pa["kind"], "d")
                if pa["vals"] is not None:
                    val = f"PV{ai}_{j}[d]"
                if pa["ids"] is not None:
                    val = f"ids_list(IDO{ai}_{j}, IDI{ai}_{j}, d)"
                run.append(f"  {{ i64 d = k % {radix}; {self.pvar(pa)} = {val}; k /= {radix}; }}")
            run += self.block(f.body, "  ")
            run.append("  return NONE_CODE;")
            run.append("}")
        tables = [f"static const {'double' if any(isinstance(v, float) for v in t) else 'i64'} T{i}[] = "
                  f"{{{', '.join(map(repr, t))}}};" for i, t in enumerate(p.tables)]
        for ai, a in enumerate(p.actions):
            for j, pa in enumerate(a["params"]):
                if pa["vals"] is not None:
                    tables.append(f"static const i64 PV{ai}_{j}[] = {{{', '.join(map(str, pa['vals'])) or '0'}}};")
                if pa["ids"] is not None:
                    tables += ids_tables(f"{ai}_{j}", pa["ids"], p.num_cards)
        protos = [self.sig(fi, f) + ";" for fi, f in enumerate(p.funcs) if not f.name.startswith("run_")]
        values = [f"    case {fi}: return f{fi}(x);" for fi, f in enumerate(p.funcs)
                  if f.ret == "i" and not f.params and not f.name.startswith("run_")]
        blocks = [f"    case {fi}: return f{fi}(x);" for fi, f in enumerate(p.funcs)
                  if not f.ret and not f.params and not f.name.startswith("run_")]
        offs = sorted((a["off"], ai) for ai, a in enumerate(p.actions))
        action_of = "".join(f"    if (id >= {off}) {{ k = id - {off}; return {ai}; }}\n" for off, ai in reversed(offs))
        return "\n".join([
            "// generated by native/emit_cpp.py from a checked rule file; do not edit",
            f"#define MAXP {max(p.n, 1)}", f"#define MAXZ {len(p.zones)}", f"#define MAXC {max(p.num_cards, 1)}",
            f"#define MAXV {max(p.nvars, 1)}",
            f"#define MAXLV {max(p.nlists, 1)}", f"#define MAXFV {max(p.nnums, 1)}",
            f"#define MAXLLV {max(p.nlls, 1)}",
            '#include "bind.h"', "using namespace cs;", "namespace {", *tables, "", *protos,
            *self.globals_placeholder(), *body, *legal, *run,
            "struct Rules {",
            "  Meta meta() const {", *self.meta_lines(), "  }",
            "  int block(Ctx& x, int fid, const i64*) const {", "    switch (fid) {", *blocks,
            "    }", "    fail(\"no such block\");", "  }",
            "  i64 value(Ctx& x, int fid) const {", "    switch (fid) {", *values,
            "    }", "    fail(\"no such value\");", "  }",
            self.ret_line(), *list_dispatch(p.funcs, p.views),
            "  void legal(Ctx& x, int a, std::vector<int>& out) const {", "    switch (a) {",
            *[f"    case {ai}: legal{ai}(x, out); return;" for ai in range(len(p.actions))], "    }", "  }",
            "  int run(Ctx& x, int a, int k) const {", "    switch (a) {",
            *[f"    case {ai}: return run{ai}(x, k);" for ai in range(len(p.actions))], "    }",
            "    fail(\"no such action\");", "  }",
            "  int action_of(int id, int& k) const {",
            f"    if (id < 0 || id >= {p.num_actions}) fail(\"no such action id\");",
            f"{action_of}    fail(\"no such action id\");", "  }",
            "};", "}  // namespace", "",
            f"PYBIND11_MODULE({self.module}, mod) {{ bind_game<Rules>(mod); }}", ""])

    def ret_line(self) -> str:
        """Each seat's result: `match: returns`, else the winners' share (engine/returns.py)."""
        h = self.p.hooks
        if h["returns"] >= 0:
            return f"  double ret(Ctx& x, int p) const {{ return f{h['returns']}(x, p); }}"
        if h["winners"] < 0:
            return "  double ret(Ctx&, int) const { return 0.0; }"
        # the winners' share, of the players end_deal found (State::winners, as flow.py's sorted set)
        return ("  double ret(Ctx& x, int p) const { int k = __builtin_popcount(x.s.winners); "
                "return (x.s.winners >> p & 1) ? 1.0 / k : 0.0; }")

    def pvar(self, pa: dict[str, Any]) -> str:
        return self.loc("l" if pa["ids"] is not None else "i", pa["slot"])

    def digit(self, ai: int, j: int, pa: dict[str, Any]) -> str:
        """A parameter value's digit in the action's id (engine/codec.py)."""
        v = self.pvar(pa)
        if pa["ids"] is not None:
            return ids_digit(f"{ai}_{j}", pa["ids"], self.p.num_cards, v)
        if pa["vals"] is not None:
            return f"digit_of(PV{ai}_{j}, {len(pa['vals'])}, {v})"
        if pa["kind"] == "bool":
            return f"(i64)({v} != 0)"
        if pa["kind"] == "int":
            return f"check_digit({v} - {pa['lo']}, {pa['radix']})"
        return f"check_digit({v}, {pa['radix']})"

    def globals_placeholder(self) -> list[str]:
        return ["@GLOBALS@"]

    def meta_lines(self) -> list[str]:
        p = self.p
        out = ["    Meta m;", f"    m.n = {p.n}; m.nc = {p.num_cards}; m.nz = {len(p.zones)}; m.nv = {p.nvars};",
               f"    m.num_actions = {p.num_actions};"]
        for ph in p.phases:
            nxt = {"same": 0, "clockwise": 1, "counterclockwise": 2}[ph["next"]]
            acts = ", ".join(map(str, ph["actions"]))
            out.append(f"    m.phases.push_back({{{ph['first']}, {ph['start']}, {ph['after']}, {ph['end']}, "
                       f"{ph['then']}, {str(ph['round']).lower()}, {nxt}, {{{acts}}}}});")
        h = p.hooks
        out.append(f"    m.match_start = {h['match_start']}; m.match_deal = {h['match_deal']}; "
                   f"m.match_end_deal = {h['match_end_deal']}; m.over_when = {h['over_when']};")
        out.append(f"    m.init_match = {h['init_match']}; m.init_deal = {h['init_deal']}; m.teams = {h['teams']}; "
                   f"m.next_dealer = {h['next_dealer']}; m.max_deals = {p.max_deals};")
        out.append(f"    m.fix_zones = {{{', '.join(map(str, p.fix_zones))}}};")
        out += view_meta(p.views)
        out.append("    m.scalars = {" + ", ".join(f"{{&Flat::{name}, '{k}', {c_text(name)}}}" for name, k in SCALARS)
                   + "};")
        # an int64 whatever the limit (past 2**62 units no move ends anyway); the message says the limit given
        budget = min(int(p.step_budget), 2**62)
        out.append(f"    m.budget = {budget}LL; m.over = {c_text(str(over(p.step_budget)))};")
        out.append("    return m;")
        return out


def calls(ir: Any) -> bool:
    """Whether lowered code calls a `define` function or a procedure."""
    stack = [ir]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            if x and x[0] in ("call", "do"):
                return True
            stack.extend(x)
    return False


def c_text(s: str) -> str:
    """A C++ string literal of a message the backend writes (never a rule file's text): plain ASCII only."""
    if not all(" " <= ch <= "~" and ch not in '"\\?' for ch in s):
        raise ValueError(f"not a plain message: {s!r}")
    return f'"{s}"'


def emit(prog: Program, module: str) -> str:
    w = CppWriter(prog, module)
    text = w.source()
    return text.replace("@GLOBALS@", "\n".join(w.globals))


assert NONE_CODE == -2
