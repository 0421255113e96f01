"""Actions: for each action, `legal_<a>(s, out)`, which appends every legal action id, and `run_<a>(s, k)`,
which decodes an id and runs the effect.

These two functions are the engine's hot path and the one place the generated code and
interpreter/engine/codec.py share a format: the mixed-radix encoding of the parameters is written inline
here and read by the codec through the same abi tables, so a change to it is made in both together.
`ParamInfo`, what the codec knows of each parameter, is defined here with the code that encodes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import abi, candidates, weights
from .. import ast as A
from .. import types as T
from ..analysis import _conjuncts
from ..diagnostics import Span
from ..optimize import invariants
from ..spec import ActionSpec, GameSpec
from .statements import StatementWriter

# How a parameter's value is encoded, by the type of its domain's items.
_PARAM_KINDS: dict[T.Type, str] = {T.CARD: "card", T.PLAYER: "player", T.SUIT: "suit", T.RANK: "rank",
                                   T.BOOL: "bool", T.INT: "int", T.STR: "str"}


@dataclass
class ParamInfo:
    name: str
    kind: str  # card, player, suit, rank, bool, int (a range), str (listed texts or numbers), cards (by `ids`)
    span: Span
    values: list[Any] | None = None  # str: literal choices
    bounds: tuple[str, str] | None = None  # int: generated functions giving lo, hi
    ids: str | None = None  # cards: the generated function giving every value, in the order of their ids
    ids_span: Span | None = None


class ActionWriter(StatementWriter):
    def __init__(self, spec: GameSpec, optimize: bool) -> None:
        super().__init__({p.name: i for i, p in enumerate(spec.phases)})
        self.spec = spec
        self.optimize = optimize
        self.params: dict[str, list[ParamInfo]] = {}

    def _param_info(self, a: ActionSpec) -> list[ParamInfo]:
        out: list[ParamInfo] = []
        for p in a.params:
            et = T.elem(p.domain.ty)
            kind = _PARAM_KINDS.get(et, "card") if p.ids is None else "cards"
            info = ParamInfo(p.name, kind, p.span)
            if p.ids is not None:
                # Worked out once per game (the codec calls it), after the pack: fixed for the game (C037).
                info.ids, info.ids_span = abi.param_ids(self.uid), p.ids.span
                self.uid += 1
                self.efunc(info.ids, [], p.ids)
            # The checker accepted the domain's shape (C005): names listed, or range(a, b) fixed for the game.
            d = p.domain
            if kind == "int" and not isinstance(d, A.Call):
                kind = info.kind = "str"  # a list of numbers: its values are listed, as texts are
                info.values = [i.value for i in d.items if isinstance(i, A.Const)] if isinstance(d, A.ListLit) \
                    else list(self.spec.constants[d.id][0]) if isinstance(d, A.Name) else []
            elif kind == "str":
                if isinstance(d, A.ListLit):
                    info.values = [i.value for i in d.items if isinstance(i, A.Const)]
                elif isinstance(d, A.Name):
                    info.values = [str(x) for x in self.spec.constants[d.id][0]]
            elif kind == "int" and isinstance(d, A.Call):
                lo, hi = abi.param_bound(self.uid, "lo"), abi.param_bound(self.uid, "hi")
                self.uid += 1
                self.efunc(lo, [], d.args[0])
                self.efunc(hi, [], d.args[1])
                info.bounds = (lo, hi)
            out.append(info)
        return out

    def action(self, a: ActionSpec) -> None:
        infos = self._param_info(a)
        self.params[a.name] = infos
        w = self.w
        # legal_<a>(s, out): append every legal id of this action. Each part of `when` is tested as soon as
        # the parameters it reads are bound, so a test on the trick alone runs once, not once per card in
        # hand; optimized, the candidates of a parameter come from what is there (dsl/candidates.py).
        when = a.when
        if when is not None and self.inliner is not None:
            when = self.inliner.inline(when)
        names = [p.name for p in a.params]
        if self.optimize:
            plan = candidates.plan(a, [i.kind for i in infos], candidates.parts(when) if when is not None else [])
        else:
            plan = candidates.plain_plan(names, _conjuncts(when) if when is not None else [])
        off, radix, stride = abi.action_offset(a.name), abi.action_radix(a.name), abi.action_stride(a.name)
        low, digit, value = abi.action_low(a.name), abi.action_digit(a.name), abi.action_values(a.name)
        # The encoding is interpreter/engine/codec.py's, written inline: its tables, read by their abi names.
        w.line(f"def {abi.legal(a.name)}(s, out):", a.span)
        w.indent += 1
        if plan.first:
            w.line(f"if not ({' and '.join(self.ex(c) for c in plan.first)}): return", plan.first[0].span)
        kept_lists = {i: f"_c{self._next()}" for i, lv in enumerate(plan.levels) if lv.kept(i)}
        enc_terms = []
        for i, (p, info, lv) in enumerate(zip(a.params, infos, plan.levels)):
            # The candidate lists made once at this depth, for the loops inside.
            reset = [kept_lists[j] for j, inner in enumerate(plan.levels) if j in kept_lists and inner.home == i]
            if reset:
                w.line(f"{' = '.join(reset)} = MISS")
            varying = set(names[i:])
            if i in kept_lists:
                values = kept_lists[i]
                self._kept_candidates(a, i, info, lv, values)
                work = 1 + sum(weights.size(c) for c in lv.checks)
                self._charge_line(f"len({values})" + (f" * {work}" if work != 1 else ""))
                cond, kept = self._condition(lv.checks, varying)
                if kept:
                    w.line(f"{' = '.join(kept)} = MISS")
                w.line(f"for l_{p.name} in {values}:", p.domain.span)
                w.indent += 1
            else:
                # Each value of a parameter is charged with the conditions tested for it: three parameters of
                # 10,000 values each cannot enumerate 10**12 actions.
                sets = [self._generator(g) for g in lv.generators]
                tests = lv.prefilters + lv.checks
                work = 1 + len(sets) + sum(weights.size(c) for c in tests)
                cond, kept = self._condition(tests, varying, [f"l_{p.name} in {g}" for g in sets])
                self._loop(a, i, info, work, kept)
                self._value_checks(a, i, info)
            if cond is not None:
                w.line(f"if not ({cond}): continue", (lv.prefilters + lv.checks or [g.part for g in lv.generators]
                                                       )[0].span)
            idx = {"card": f"l_{p.name}", "player": f"l_{p.name}", "suit": f"SUIT_POS[l_{p.name}]",
                   "rank": f"RANK_POS[l_{p.name}]", "bool": f"(1 if l_{p.name} else 0)",
                   "int": f"(l_{p.name} - {low}[{i}])", "str": f"{digit}[{i}][l_{p.name}]",
                   "cards": f"_i{i}"}[info.kind]
            enc_terms.append(idx if i == 0 else f"{idx} * {stride}[{i}]")
        enc = " + ".join(enc_terms) if enc_terms else "0"
        w.line(f"out.append({off} + {enc})")
        w.indent = 0
        w.line("")
        # run_<a>(s, k): decode inline and run the effect (the engine's hot path).
        w.line(f"def {abi.run(a.name)}(s, k):", a.span)
        w.indent += 1
        for i, (p, info) in enumerate(zip(a.params, infos)):
            if len(infos) == 1 and info.kind in ("card", "player"):
                w.line(f"l_{p.name} = k")
                break
            w.line(f"k, i{i} = divmod(k, {radix}[{i}])")
            # A list of cards is copied: the codec's table is shared by every state of the game.
            val = {"card": f"i{i}", "player": f"i{i}", "suit": f"SUITS[i{i}]", "rank": f"RANKS[i{i}]",
                   "bool": f"i{i} == 1", "int": f"{low}[{i}] + i{i}", "str": f"{value}[{i}][i{i}]",
                   "cards": f"list({value}[{i}][i{i}])"}[info.kind]
            w.line(f"l_{p.name} = {val}")
        self.block(a.effect)
        w.indent = 0
        w.line("")

    def _next(self) -> int:
        self.uid += 1
        return self.uid

    def _loop(self, a: ActionSpec, i: int, info: ParamInfo, work: int, kept: list[str]) -> None:
        """`for l_<p> in <the domain of parameter i>:`, the domain charged `work` per value; indents."""
        w, p = self.w, a.params[i]
        if p.ids is not None and p.ids is p.domain:
            # No `from`: every value of the ids, read from the codec's table instead of worked out again.
            values = f"_d{self._next()}"
            w.line(f"{values} = {abi.action_values(a.name)}[{i}]", p.domain.span)
            self._charge_line(f"len({values})" + (f" * {work}" if work != 1 else ""))
            if kept:
                w.line(f"{' = '.join(kept)} = MISS")
            w.line(f"for l_{p.name} in {values}:", p.domain.span)
        elif i == 0 and len(a.params) == 1 and work == 1 and info.kind != "cards":
            # One parameter, no condition on it: one append per value, once per question (the list
            # itself was charged when it was built). Every other loop is charged for its values.
            w.line(f"for l_{p.name} in {self.ex(p.domain)}:", p.domain.span)
        else:
            values = self._walked(p.domain, work, p.domain.span)
            if kept:
                w.line(f"{' = '.join(kept)} = MISS")  # filled when the condition first needs each
            w.line(f"for l_{p.name} in {values}:", p.domain.span)
        w.indent += 1

    def _value_checks(self, a: ActionSpec, i: int, info: ParamInfo) -> None:
        """What the encoding checks of each value of parameter i: a list of cards is one of the ids (a rule
        error at `from` otherwise), a number or a listed value is one the codec numbers (skipped otherwise)."""
        w, name = self.w, a.params[i].name
        if info.kind == "cards":
            w.line(f"_i{i} = _cards_id(s, {abi.action_digit(a.name)}[{i}], l_{name}, {name!r}, {a.name!r})",
                   a.params[i].domain.span)
        if info.kind == "int":
            w.line(f"if not 0 <= (l_{name} - {abi.action_low(a.name)}[{i}]) < {abi.action_radix(a.name)}[{i}]: "
                   "continue")
        if info.kind == "str":
            w.line(f"if l_{name} not in {abi.action_digit(a.name)}[{i}]: continue")

    def _generator(self, g: candidates.Generator) -> str:
        """Make the set of a generator's values in a fresh local, charged as the plain walk was; its name."""
        name = f"_g{self._next()}"
        at = g.part.span
        if g.value is None:
            self.w.line(f"{name} = set({self._charged(g.source)})", at)  # charged as `in` charges it
            return name
        cond = f" if {' and '.join(self.ex(c) for c in g.conds)}" if g.conds else ""
        self.w.line(f"{name} = {{{self.ex(g.value)} for l_{g.var} in _it({self.ex(g.source)}, {g.work}){cond}}}", at)
        return name

    def _kept_candidates(self, a: ActionSpec, i: int, info: ParamInfo, lv: candidates.Level, name: str) -> None:
        """Make the candidates of parameter i into the local `name` the first time its loop is reached after
        they were emptied (at the depth of `lv.home`): the values of its domain that are in the generators'
        sets and pass the parts that read no other parameter."""
        w, p = self.w, a.params[i]
        w.line(f"if {name} is MISS:")
        w.indent += 1
        sets = [self._generator(g) for g in lv.generators]
        work = 1 + len(sets) + sum(weights.size(c) for c in lv.prefilters)
        cond, kept = self._condition(lv.prefilters, {p.name}, [f"l_{p.name} in {g}" for g in sets])
        values = self._walked(p.domain, work, p.domain.span)
        if kept:
            w.line(f"{' = '.join(kept)} = MISS")
        w.line(f"{name} = []")
        w.line(f"for l_{p.name} in {values}:", p.domain.span)
        w.indent += 1
        self._value_checks(a, i, info)
        if cond is not None:
            w.line(f"if not ({cond}): continue", (lv.prefilters or [g.part for g in lv.generators])[0].span)
        w.line(f"{name}.append(l_{p.name})")
        w.indent -= 2

    def _condition(self, conds: list[A.Expr], varying: set[str], first: list[str] | None = None
                   ) -> tuple[str | None, list[str]]:
        """The code of the conditions tested for each value of a parameter (after the tests `first`), with the
        sub-expressions that read none of the `varying` parameters kept in locals (optimize.invariants); and
        those locals."""
        if not conds:
            return (" and ".join(first), []) if first else (None, [])
        if self.optimize:
            self.cached = {id(x) for c in conds for x in invariants(c, varying)}
            self.cache_vars = {}
        try:
            code = " and ".join((first or []) + [self.ex(c) for c in conds])
            return code, list(self.cache_vars.values())
        finally:
            self.cached = set()
            self.cache_vars = {}
