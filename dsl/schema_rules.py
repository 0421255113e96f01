"""Sections that say how a game is played: functions, procedures, actions, phases and the match."""

from __future__ import annotations

import re

from . import ast as A
from . import keys as K
from . import parser
from .diagnostics import Span
from .reader import IDENT, Reader
from .spec import (
    ActionSpec,
    BoundsSpec,
    FuncSpec,
    MatchSpec,
    ParamSpec,
    PhaseSpec,
    ProcSpec,
    ReturnsSpec,
    StrategyRule,
    StrategySpec,
)
from .yaml_loader import YList, YMap, YNode, YScalar

SIGNATURE = re.compile(r" *([A-Za-z_][A-Za-z0-9_]*) *(?:\( *([A-Za-z0-9_, ]*)\))? *\Z")


# Each parameter of an action is a nested loop in its compiled code, and Python compiles at most 20
# nested blocks.
MAX_PARAMS = 20


class RuleSections(Reader):
    def signature(self, key: str, span: Span, what: str) -> tuple[str, list[str]] | None:
        sm = SIGNATURE.match(key)
        if not sm:
            self.err("S023", span, f"{what} '{key}' must look like name(param, ...)")
            return None
        if sm.group(1) in parser.KEYWORDS:
            self.err("S006", span, f"{what} '{sm.group(1)}' is a word of the language",
                     f"the words {', '.join(sorted(parser.KEYWORDS))} cannot be names")
            return None
        params = [p.strip() for p in (sm.group(2) or "").split(",") if p.strip()]
        for p in params:
            if p in parser.KEYWORDS:
                self.err("S006", span, f"parameter '{p}' of {what} '{sm.group(1)}' is a word of the language")
                return None
            if not IDENT.match(p):
                self.err("S006", span, f"parameter '{p}' of {what} '{sm.group(1)}' is not a valid name")
                return None
        if len(set(params)) != len(params):
            self.err("S024", span, f"{what} '{sm.group(1)}' names a parameter twice")
            return None
        return sm.group(1), params

    def functions(self, node: YNode | None) -> list[FuncSpec]:
        m = self.want_map(node, "'define'")
        out: list[FuncSpec] = []
        if m is None:
            return out
        for key, (ks, vnode) in m.items.items():
            sig = self.signature(key, ks.span, "function")
            if sig is None:
                continue
            out.append(FuncSpec(sig[0], ks.span, sig[1], self.expr(vnode, f"function '{sig[0]}'")))
        return out

    def procedures(self, node: YNode | None) -> list[ProcSpec]:
        m = self.want_map(node, "'procedures'")
        out: list[ProcSpec] = []
        if m is None:
            return out
        for key, (ks, vnode) in m.items.items():
            sig = self.signature(key, ks.span, "procedure")
            if sig is None:
                continue
            out.append(ProcSpec(sig[0], ks.span, sig[1], self.stmts(vnode, f"procedure '{sig[0]}'")))
        return out

    def actions(self, node: YNode | None) -> list[ActionSpec]:
        m = self.want_map(node, "'actions'")
        out: list[ActionSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "action"):
                continue
            am = self.want_map(vnode, f"action '{name}'") if not (
                isinstance(vnode, YScalar) and vnode.value is None) else YMap(vnode.span)
            if am is None:
                continue
            self.keys(am, K.ACTION, f"action '{name}'")
            params: list[ParamSpec] = []
            prm = self.want_map(am.get("params"), "'params'")
            if prm is not None and len(prm.items) > MAX_PARAMS:
                self.err("S034", prm.span, f"action '{name}' has {len(prm.items)} parameters: at most {MAX_PARAMS}",
                         "each parameter is a loop over its values in the compiled game; split the choice into "
                         "steps, a phase each ('next: same' keeps the turn with the player)")
                prm = None
            if prm is not None:
                for pname, (pks, pvn) in prm.items.items():
                    if not self.ident(pname, pks.span, "parameter"):
                        continue
                    if isinstance(pvn, YMap):
                        self.keys(pvn, K.PARAM, f"parameter '{pname}'")
                        ids = self.expr(pvn.get("ids"), f"'ids' of parameter '{pname}'")
                        # Without `from`, a value may be any of the ids (narrowed by `when`).
                        dom = self.expr(pvn.get("from"), f"'from' of parameter '{pname}'") if "from" in pvn.items \
                            else ids
                        if dom is not None and ids is not None:
                            params.append(ParamSpec(pname, pks.span, dom, ids))
                        continue
                    dom = self.expr(pvn, f"domain of parameter '{pname}'")
                    if dom is not None:
                        params.append(ParamSpec(pname, pks.span, dom))
            label = self.want_scalar(am.get("label"), "'label'", (str,))
            out.append(ActionSpec(name, ks.span, params, self.expr(am.get("when"), "'when'"),
                                  self.stmts(am.get("effect"), f"effect of '{name}'"), label,
                                  bool(self.want_scalar(am.get("secret"), "'secret'", (bool,)))))
        return out

    def phases(self, node: YNode | None) -> list[PhaseSpec]:
        m = self.want_map(node, "'phases'")
        out: list[PhaseSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "phase"):
                continue
            pm = self.want_map(vnode, f"phase '{name}'")
            if pm is None:
                continue
            self.keys(pm, K.PHASE, f"phase '{name}'")
            acts: list[tuple[str, Span]] = []
            al = self.want_list(pm.get("actions"), "'actions'")
            for item in al.items if al else []:
                if isinstance(item, YScalar) and isinstance(item.value, str):
                    acts.append((item.value, item.span))
                else:
                    self.err("S010", item.span, "each entry of 'actions' must be an action name")
            nxt = self.want_scalar(pm.get("next"), "'next'", (str,)) or "clockwise"
            if nxt not in ("clockwise", "counterclockwise", "same"):
                nn = pm.get("next")
                self.err("S025", nn.span if nn else pm.span, f"'next' cannot be '{nxt}'",
                         "use clockwise, counterclockwise or same")
            then = None
            tn = pm.get("then")
            if tn is not None:
                tv = self.want_scalar(tn, "'then'", (str,))
                if tv:
                    then = (tv, tn.span)
            rnd = bool(self.want_scalar(pm.get("round"), "'round'", (bool,)))
            if not rnd and "end" in pm.items:
                self.err("S027", pm.items["end"][0].span, f"phase '{name}' has 'end' steps but is not a round",
                         "'end' runs when every player has had a turn: add 'round: true', or use 'after'")
            if rnd and "end" not in pm.items:
                self.err("S026", pm.span, f"phase '{name}' is a round but has no 'end' steps",
                         "say what happens when every player has had their turn, e.g. '- goto next_phase'")
            out.append(PhaseSpec(name, ks.span, acts, self.expr(pm.get("first"), "'first'"), rnd, nxt, then,
                                 self.stmts(pm.get("start"), "'start'"), self.stmts(pm.get("after"), "'after'"),
                                 self.stmts(pm.get("end"), "'end'"), *self.presentation(pm, f"phase '{name}'")[:2]))
        return out

    def match(self, node: YNode | None, root: Span) -> MatchSpec:
        m = self.want_map(node, "'match'")
        if m is None:
            return MatchSpec(root, [], [], [], None, None, None, [], None)
        self.keys(m, K.MATCH, "'match'")
        report: list[tuple[str, A.Expr]] = []
        rm = self.want_map(m.get("report"), "'report'")
        if rm is not None:
            for label, (_, vn) in rm.items.items():
                e = self.expr(vn, f"report '{label}'")
                if e is not None:
                    report.append((label, e))
        md = self.want_scalar(m.get("max_deals"), "'max_deals'", (int,))
        return MatchSpec(m.span, self.stmts(m.get("start"), "'start'"), self.stmts(m.get("deal"), "'deal'"),
                         self.stmts(m.get("end_deal"), "'end_deal'"), self.expr(m.get("next_dealer"),
                                                                                 "'next_dealer'"),
                         self.expr(m.get("over_when"), "'over_when'"), self.expr(m.get("winners"), "'winners'"),
                         report, md, self.returns(m.get("returns")),
                         m.items["deal"][0].span if "deal" in m.items else None, self.bounds(m.get("bounds")))

    def bounds(self, node: YNode | None) -> BoundsSpec | None:
        """`bounds:` a mapping of the optional `actions` and `outcomes`, each an expression."""
        b = self.want_map(node, "'bounds'")
        if b is None:
            return None
        self.keys(b, K.BOUNDS, "'bounds'")
        return BoundsSpec(b.span, self.expr(b.get("actions"), "'actions' of 'bounds'"),
                          self.expr(b.get("outcomes"), "'outcomes' of 'bounds'"))

    def returns(self, node: YNode | None) -> ReturnsSpec | None:
        """`returns: EXPR`, or a mapping with `value` and the optional `name`, `min`, `max`, `zero_sum`."""
        if node is None or (isinstance(node, YScalar) and node.value is None):
            return None
        if not isinstance(node, YMap):
            e = self.expr(node, "'returns'")
            return ReturnsSpec(node.span, e) if e is not None else None
        self.keys(node, K.RETURNS, "'returns'")
        e = self.expr(node.get("value"), "'value' of 'returns'")
        name = self.want_scalar(node.get("name"), "'name' of 'returns'", (str,))
        nn = node.get("name")
        if name is not None and nn is not None and not self.ident(name, nn.span, "the returns name"):
            name = None
        zs = self.want_scalar(node.get("zero_sum"), "'zero_sum'", (bool,))
        if e is None:
            return None
        return ReturnsSpec(node.span, e, name or "returns", self.expr(node.get("min"), "'min' of 'returns'"),
                           self.expr(node.get("max"), "'max' of 'returns'"), bool(zs))

    def strategies(self, node: YNode | None) -> list[StrategySpec]:
        """`strategies:` playing styles, each a `doc` and a `prefer:` list of rules tried in order."""
        m = self.want_map(node, "'strategies'")
        out: list[StrategySpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "strategy"):
                continue
            sm = self.want_map(vnode, f"strategy '{name}'")
            if sm is None:
                continue
            self.keys(sm, K.STRATEGY, f"strategy '{name}'")
            doc = self.want_scalar(sm.get("doc"), "'doc'", (str,)) or ""
            rules: list[StrategyRule] = []
            items = self.want_list(sm.get("prefer"), "'prefer'")
            for item in items.items if items else []:
                rm = self.want_map(item, f"a rule of strategy '{name}'")
                if rm is None:
                    continue
                self.keys(rm, K.STRATEGY_RULE, f"a rule of strategy '{name}'")
                if "max" in rm.items and "min" in rm.items:
                    self.err("S032", rm.span, "a strategy rule ranks its actions by 'max' or by 'min', not both",
                             "max: EXPR prefers the action with the highest value, min: EXPR the lowest")
                    continue
                acts: list[tuple[str, Span]] = []
                an = rm.get("action")
                for a in (an.items if isinstance(an, YList) else [an] if an is not None else []):
                    if isinstance(a, YScalar) and isinstance(a.value, str):
                        acts.append((a.value, a.span))
                    else:
                        self.err("S010", a.span, "'action' of a strategy rule must be an action name or a list of "
                                 "them")
                key = "max" if "max" in rm.items else "min" if "min" in rm.items else None
                best = self.expr(rm.get(key), f"'{key}'") if key else None
                rules.append(StrategyRule(rm.span, acts, self.expr(rm.get("when"), "'when'"),
                                          (key, best) if key and best is not None else None))
            out.append(StrategySpec(name, ks.span, doc, rules))
        return out
