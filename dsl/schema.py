"""The rule file's structure: which sections and keys exist, and their shapes.

`read_spec` walks the located YAML tree, reports every structural problem
(unknown or missing keys, wrong kinds of value) and parses each expression and
statement it meets. The result is a `GameSpec` of plain dataclasses holding
ASTs; names and types are the checker's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import ast as A
from . import parser
from .diagnostics import Diagnostic, Span, clipped
from .suggest import closest, did_you_mean
from .yaml_loader import YList, YMap, YNode, YScalar

MAX_STEP_DEPTH = 16  # 'if' and 'for' steps inside one another
MAX_PLAYERS = 64
# \Z, not $: a name must not end with a newline (it would reach the generated code).
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
SIGNATURE = re.compile(r" *([A-Za-z_][A-Za-z0-9_]*) *(?:\( *([A-Za-z0-9_, ]*)\))? *\Z")

VAR_TYPES = {
    "int": "int", "number": "num", "bool": "bool", "player": "player", "card": "card",
    "suit": "suit", "rank": "rank", "text": "str",
    "cards": ("list", "card"), "players": ("list", "player"), "numbers": ("list", "num"),
}


@dataclass(eq=False)
class OptionSpec:
    name: str
    span: Span
    kind: str  # int, bool, choice
    default: Any  # plain value, or an A.Expr computed from players/other options
    min: int | None = None
    max: int | None = None
    values: list[str] = field(default_factory=list)
    doc: str = ""
    default_text: str = ""  # as written, for listings


@dataclass(eq=False)
class PropertySpec:
    name: str
    span: Span
    by: str  # "rank", "suit", "expr", "const"
    table: dict[str, Any] = field(default_factory=dict)
    default: Any = None
    expr: A.Expr | None = None
    table_spans: dict[str, Span] = field(default_factory=dict)


@dataclass(eq=False)
class PackEntry:
    span: Span
    suits: list[str] | None
    ranks: list[str] | None
    copies: int
    when: A.Expr | None
    where: A.Expr | None
    card: str | None = None  # a card outside suits x ranks, e.g. a joker


@dataclass(eq=False)
class ZoneSpec:
    name: str
    span: Span
    per_player: bool
    visible: str | A.Expr  # "everyone" | "owner" | "nobody" | expression (list of players)


@dataclass(eq=False)
class VarSpec:
    name: str
    span: Span
    ty: Any
    per_player: bool
    scope: str  # match | deal
    initial: A.Expr | None
    visible: str | A.Expr


@dataclass(eq=False)
class FuncSpec:
    name: str
    span: Span
    params: list[str]
    body: A.Expr | None


@dataclass(eq=False)
class ProcSpec:
    name: str
    span: Span
    params: list[str]
    body: list[A.Stmt]


@dataclass(eq=False)
class ParamSpec:
    name: str
    span: Span
    domain: A.Expr


@dataclass(eq=False)
class ActionSpec:
    name: str
    span: Span
    params: list[ParamSpec]
    when: A.Expr | None
    effect: list[A.Stmt]
    label: str | None = None
    secret: bool = False  # other players see that it happened, not its parameters


@dataclass(eq=False)
class PhaseSpec:
    name: str
    span: Span
    actions: list[tuple[str, Span]]
    first: A.Expr | None
    round: bool
    next: str
    then: tuple[str, Span] | None
    start: list[A.Stmt]
    after: list[A.Stmt]
    end: list[A.Stmt]


@dataclass(eq=False)
class MatchSpec:
    span: Span
    start: list[A.Stmt]
    deal: list[A.Stmt]
    end_deal: list[A.Stmt]
    next_dealer: A.Expr | None
    over_when: A.Expr | None
    winners: A.Expr | None
    report: list[tuple[str, A.Expr]]
    max_deals: int | None


@dataclass(eq=False)
class GameSpec:
    file: str
    name: str
    summary: str
    min_players: int
    max_players: int
    options: list[OptionSpec]
    constants: dict[str, tuple[Any, Span]]
    suits: list[str]
    ranks: list[str]
    properties: list[PropertySpec]
    pack: list[PackEntry]
    zones: list[ZoneSpec]
    variables: list[VarSpec]
    functions: list[FuncSpec]
    procedures: list[ProcSpec]
    actions: list[ActionSpec]
    phases: list[PhaseSpec]
    match: MatchSpec
    root_span: Span
    # Names declared in the file whose declaration had errors: the checker stays
    # quiet about them instead of reporting every use as unknown.
    broken: set[str] = field(default_factory=set)
    missing_sections: set[str] = field(default_factory=set)  # required sections not given
    malformed: set[str] = field(default_factory=set)  # sections of the wrong shape (names in them unknown)
    spans: dict[str, Span] = field(default_factory=dict)  # where each section (and deck key) is written


def _poisoned(node: YNode) -> bool:
    return isinstance(node, YScalar) and node.poison


SECTIONS = ["game", "summary", "players", "options", "constants", "deck", "zones", "variables", "define",
            "procedures", "actions", "phases", "match", "extends", "new", "remove"]


class _Reader:
    def __init__(self, file: str, diags: list[Diagnostic]):
        self.file = file
        self.diags = diags
        self.step_depth = 0  # 'if' and 'for' steps around the one being read

    # ------------------------------------------------------------ helpers
    def err(self, code: str, span: Span, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, span, msg, hint))

    def keys(self, m: YMap, allowed: list[str], where: str, required: tuple[str, ...] = ()) -> None:
        where = clipped(where, 200)  # said once per unknown key: a huge entry name must not be copied into each
        for k, (ks, _) in m.items.items():
            if k not in allowed:
                hint = did_you_mean(k, allowed) or f"allowed here: {', '.join(allowed)}"
                self.err("S001", ks.span, f"unknown key '{k}' in {where}", hint)
        unknown = [k for k in m.items if k not in allowed]
        for r in required:
            # A misspelt required key was reported above with a "did you mean"; say it once.
            if r not in m.items and closest(r, unknown) is None:
                self.err("S002", m.span, f"{where} needs the key '{r}'")

    def want_map(self, node: YNode | None, where: str) -> YMap | None:
        if node is None or _poisoned(node):
            return None
        if not isinstance(node, YMap):
            self.err("S003", node.span, f"{where} must be a mapping (key: value lines)")
            return None
        return node

    def want_list(self, node: YNode | None, where: str) -> YList | None:
        if node is None or _poisoned(node):
            return None
        if isinstance(node, YScalar) and node.value is None:
            return YList(node.span, [])
        if not isinstance(node, YList):
            self.err("S004", node.span, f"{where} must be a list")
            return None
        return node

    def want_scalar(self, node: YNode | None, where: str, types: tuple[type, ...]) -> Any:
        if node is None or _poisoned(node):
            return None
        if not isinstance(node, YScalar) or not isinstance(node.value, types) or (
                isinstance(node.value, bool) and bool not in types):
            names = " or ".join({int: "a whole number", str: "text", bool: "true or false",
                                 float: "a number"}[t] for t in types)
            self.err("S005", node.span, f"{where} must be {names}")
            return None
        return node.value

    def ident(self, text: str, span: Span, what: str) -> bool:
        if text in parser.KEYWORDS:
            self.err("S006", span, f"{what} '{text}' is a word of the language",
                     f"the words {', '.join(sorted(parser.KEYWORDS))} cannot be names")
            return False
        if not IDENT.match(text):
            self.err("S006", span, f"{what} '{text}' is not a valid name",
                     "names use letters, digits and _, and do not start with a digit")
            return False
        return True

    def expr(self, node: YNode | None, where: str) -> A.Expr | None:
        if node is None or _poisoned(node):
            return None
        if isinstance(node, YScalar) and isinstance(node.value, (int, float)) and not isinstance(
                node.value, bool):
            return A.Const(node.span, node.value)
        if isinstance(node, YScalar) and isinstance(node.value, bool):
            return A.Const(node.span, node.value)
        if not isinstance(node, YScalar) or not isinstance(node.value, str):
            self.err("S007", node.span, f"{where} must be an expression (a text value)")
            return None
        result: A.Expr | None = parser.parse(node.value, "expression", node.span_at, self.diags)
        return result

    def stmts(self, node: YNode | None, where: str) -> list[A.Stmt]:
        if node is None:
            return []
        if isinstance(node, YScalar) and isinstance(node.value, str):
            node = YList(node.span, [node])
        lst = self.want_list(node, where)
        if lst is None:
            return []
        out: list[A.Stmt] = []
        for item in lst.items:
            st = self.stmt(item, where)
            if st is not None:
                out.append(st)
        return out

    def stmt(self, node: YNode, where: str) -> A.Stmt | None:
        if _poisoned(node):
            return None
        if isinstance(node, YScalar) and isinstance(node.value, str):
            result: A.Stmt | None = parser.parse(node.value, "statement", node.span_at, self.diags)
            return result
        if isinstance(node, YMap):
            first_key = next(iter(node.items), "")
            if first_key.startswith(("if ", "for ")) and len(node.items) == 1:
                word = first_key.split()[0]
                self.err("S009", node.span, f"a step in {where} must be a statement, an 'if' or a 'for'",
                         f"write it as  - {word}: {'CONDITION' if word == 'if' else 'x in LIST'}  with "
                         f"{'then: [...]' if word == 'if' else 'do: [...]'} below it")
                return None
            if ("if" in node.items or "for" in node.items) and self.step_depth >= MAX_STEP_DEPTH:
                # Compiled rules nest one Python block per step and Python allows only 20 loops in one
                # function, so the limit is fixed: a deeper file is refused here, not by the compiler.
                self.err("S029", node.span, f"steps are nested more than {MAX_STEP_DEPTH} deep: this "
                         f"'{'if' if 'if' in node.items else 'for'}' is inside {MAX_STEP_DEPTH} others",
                         "move the inner steps into a procedure (`procedures:`) and run it with `do NAME(...)`")
                return None
            if "if" in node.items:
                self.keys(node, ["if", "then", "else"], "an 'if' step", ("then",))
                cond = self.expr(node.get("if"), "'if'")
                self.step_depth += 1
                then = self.stmts(node.get("then"), "'then'")
                other = self.stmts(node.get("else"), "'else'")
                self.step_depth -= 1
                return A.If(node.span, cond, then, other) if cond is not None else None
            if "for" in node.items:
                self.keys(node, ["for", "do"], "a 'for' step", ("do",))
                fnode = node.get("for")
                text = self.want_scalar(fnode, "'for'", (str,))
                if text is None or fnode is None:
                    return None
                m = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s+in\s+", text)
                if not m:
                    self.err("S008", fnode.span, "'for' must read 'NAME in EXPRESSION'")
                    return None
                assert isinstance(fnode, YScalar)
                off = m.end()
                it = parser.parse(text[off:], "expression",
                                  lambda ln, c: fnode.span_at(ln, c + off if ln == 1 else c), self.diags)
                self.step_depth += 1
                body = self.stmts(node.get("do"), "'do'")
                self.step_depth -= 1
                return A.For(node.span, m.group(1), it, body) if it is not None else None
            self.err("S009", node.span, f"a step in {where} must be a statement, an 'if' or a 'for'",
                     "a step that contains ': ' must be quoted whole, e.g. - \"log 'score: {}', x\"")
            return None
        self.err("S009", node.span, f"a step in {where} must be a statement, an 'if' or a 'for'")
        return None

    def names_list(self, node: YNode | None, where: str) -> list[str]:
        lst = self.want_list(node, where)
        if lst is None:
            return []
        out = []
        seen: set[str] = set()  # a list of thousands of names is checked for repeats in linear time
        for item in lst.items:
            if not isinstance(item, YScalar) or item.value is None or isinstance(item.value, (list, dict)):
                self.err("S010", item.span, f"each entry of {where} must be a name")
                continue
            v = item.value
            text = str(v).lower() if isinstance(v, bool) else str(v)
            if not text or not text.isprintable() or text.strip() != text:
                # Card names are printed in logs and typed in scenarios: one visible line, no edge spaces.
                self.err("S010", item.span, f"each entry of {where} must be a name on one line, without "
                         "spaces at its ends or control characters", f"got {text!r}")
                continue
            if text in seen:
                self.err("S011", item.span, f"'{text}' appears twice in {where}")
                continue
            seen.add(text)
            out.append(text)
        return out

    def visibility(self, node: YNode | None, where: str, default: str) -> str | A.Expr:
        if node is None:
            return default
        if isinstance(node, YScalar) and node.value in ("everyone", "owner", "nobody"):
            return str(node.value)
        words = {"all": "everyone", "public": "everyone", "everybody": "everyone", "none": "nobody",
                 "noone": "nobody", "no_one": "nobody", "hidden": "nobody", "secret": "nobody", "private": "owner",
                 "self": "owner", "mine": "owner", "player": "owner"}
        if isinstance(node, YScalar) and isinstance(node.value, str) and IDENT.match(node.value):
            close = words.get(node.value.lower()) or closest(node.value, ["everyone", "owner", "nobody"])
            if close is not None:
                self.err("S028", node.span, f"{where} cannot be '{node.value}'",
                         f"did you mean '{close}'? (everyone, owner, nobody, or a list of players like "
                         "\"[dealer]\")")
                return default
        e = self.expr(node, where)
        return e if e is not None else default

    # ------------------------------------------------------------ sections
    def read(self, root: YNode) -> GameSpec | None:
        m = self.want_map(root, "the rule file")
        if m is None:
            return None
        self.keys(m, SECTIONS, "the rule file", ("game", "players", "deck", "zones", "actions", "phases",
                                                 "match"))
        name = self.want_scalar(m.get("game"), "'game'", (str,)) or "?"
        summary = self.want_scalar(m.get("summary"), "'summary'", (str,)) or ""
        lo, hi = self.players(m.get("players"))
        options = self.options(m.get("options"))
        constants = self.constants(m.get("constants"))
        suits, ranks, props, pack = self.deck(m.get("deck"))
        zones = self.zones(m.get("zones"))
        variables = self.variables(m.get("variables"))
        functions = self.functions(m.get("define"))
        procedures = self.procedures(m.get("procedures"))
        actions = self.actions(m.get("actions"))
        phases = self.phases(m.get("phases"))
        match = self.match(m.get("match"), m.span)
        spec = GameSpec(self.file, name, summary, lo, hi, options, constants, suits, ranks, props, pack,
                        zones, variables, functions, procedures, actions, phases, match, m.span)
        declared: set[str] = set()
        for section in ("options", "constants", "zones", "variables", "define", "procedures", "actions",
                        "phases"):
            sm = m.get(section)
            if isinstance(sm, YMap):
                for key in sm.items:
                    lead = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", key)
                    declared.add(lead.group(1) if lead else key)
        for prop in (m.get("deck"),):
            if isinstance(prop, YMap) and isinstance(prop.get("properties"), YMap):
                pm = prop.get("properties")
                assert isinstance(pm, YMap)
                declared.update(pm.items)
        read_names = {x.name for group in (options, zones, variables, functions, procedures, actions, phases,
                                           props) for x in group} | set(constants)
        spec.broken = declared - read_names
        spec.missing_sections = {k for k in ("phases", "actions", "zones", "deck", "match") if k not in m.items}
        for key, (_ks, node) in m.items.items():
            spec.spans[key] = node.span
            if key in ("options", "constants", "zones", "variables", "define", "procedures", "actions", "phases") \
                    and not isinstance(node, YMap) and not (isinstance(node, YScalar) and node.value is None):
                spec.malformed.add(key)
        deck = m.get("deck")
        if isinstance(deck, YMap):
            for key, (_ks, node) in deck.items.items():
                spec.spans[f"deck.{key}"] = node.span
        return spec

    def players(self, node: YNode | None) -> tuple[int, int]:
        if node is None:
            return (2, 2)
        if isinstance(node, YScalar):
            n = self.want_scalar(node, "'players'", (int,))
            if n is not None and not 1 <= n <= MAX_PLAYERS:
                self.err("S012", node.span, f"{n} players is not possible", f"1 <= players <= {MAX_PLAYERS}")
                return (2, 2)
            return (n, n) if n is not None else (2, 2)
        m = self.want_map(node, "'players'")
        if m is None:
            return (2, 2)
        self.keys(m, ["min", "max"], "'players'", ("min", "max"))
        lo = self.want_scalar(m.get("min"), "'players: min'", (int,))
        lo = 2 if lo is None else lo  # 0 is a value to refuse, not a missing one
        hi = self.want_scalar(m.get("max"), "'players: max'", (int,))
        hi = lo if hi is None else hi
        if lo < 1 or hi < lo or hi > MAX_PLAYERS:
            self.err("S012", m.span, f"player range {lo} to {hi} is not possible",
                     f"1 <= min <= max <= {MAX_PLAYERS}")
            return (2, 2)
        return (lo, hi)

    def options(self, node: YNode | None) -> list[OptionSpec]:
        m = self.want_map(node, "'options'")
        out: list[OptionSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "option"):
                continue
            om = self.want_map(vnode, f"option '{name}'")
            if om is None:
                continue
            self.keys(om, ["type", "default", "min", "max", "values", "doc"], f"option '{name}'",
                      ("type", "default"))
            kind = self.want_scalar(om.get("type"), "'type'", (str,)) or "int"
            if kind not in ("int", "bool", "choice"):
                tnode = om.get("type")
                self.err("S013", tnode.span if tnode else om.span,
                         f"option type '{kind}' is unknown", "use int, bool or choice")
                continue
            dnode = om.get("default")
            default: Any = None
            if isinstance(dnode, YScalar) and isinstance(dnode.value, str) and dnode.value.startswith("="):
                shifted = YScalar(dnode.span, dnode.value[1:], dnode.style)
                shifted.span = Span(dnode.span.file, dnode.span.line,
                                    dnode.span.col + 1 + (1 if dnode.style in ("'", '"') else 0))
                shifted.style = None
                default = self.expr(shifted, f"default of option '{name}'")
            elif isinstance(dnode, YScalar):
                default = dnode.value
            opt = OptionSpec(name, ks.span, kind, default, doc=str(self.want_scalar(om.get("doc"), "'doc'",
                                                                                    (str,)) or ""))
            opt.default_text = str(dnode.value) if isinstance(dnode, YScalar) else ""
            if kind == "int":
                opt.min = self.want_scalar(om.get("min"), "'min'", (int,))
                opt.max = self.want_scalar(om.get("max"), "'max'", (int,))
                if opt.min is None or opt.max is None:
                    self.err("S014", om.span, f"int option '{name}' needs 'min' and 'max'")
                    continue
                if opt.min > opt.max:
                    mnode = om.get("min")
                    self.err("S014", mnode.span if mnode else om.span,
                             f"int option '{name}' has 'min' {opt.min} above 'max' {opt.max}")
                    continue
                if not isinstance(default, (int, A.Expr)) or isinstance(default, bool):
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default of option '{name}' must be a whole number or '=expression'")
                    continue
                if isinstance(default, int) and not opt.min <= default <= opt.max:
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default {default} of option '{name}' is not between 'min' {opt.min} and 'max' "
                             f"{opt.max}")
                    continue
            elif kind == "bool":
                if not isinstance(default, (bool, A.Expr)):
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default of option '{name}' must be true, false or '=expression'")
                    continue
            else:
                opt.values = self.names_list(om.get("values"), f"values of option '{name}'")
                if not opt.values:
                    self.err("S016", om.span, f"choice option '{name}' needs a list of 'values'")
                    continue
                if not isinstance(default, A.Expr) and str(default) not in opt.values:
                    self.err("S015", dnode.span if dnode else om.span,
                             f"default '{default}' of option '{name}' is not one of its values",
                             f"values: {', '.join(opt.values)}")
                    continue
                if not isinstance(default, A.Expr):
                    opt.default = str(default)
            out.append(opt)
        return out

    def constants(self, node: YNode | None) -> dict[str, tuple[Any, Span]]:
        m = self.want_map(node, "'constants'")
        out: dict[str, tuple[Any, Span]] = {}
        if m is None:
            return out
        from .yaml_loader import plain
        for name, (ks, vnode) in m.items.items():
            if self.ident(name, ks.span, "constant"):
                out[name] = (plain(vnode), vnode.span)
        return out

    def deck(self, node: YNode | None) -> tuple[list[str], list[str], list[PropertySpec], list[PackEntry]]:
        m = self.want_map(node, "'deck'")
        if m is None:
            return ([], [], [], [])
        self.keys(m, ["suits", "ranks", "properties", "pack"], "'deck'", ("suits", "ranks"))
        suits = self.names_list(m.get("suits"), "'suits'")
        ranks = self.names_list(m.get("ranks"), "'ranks'")
        props: list[PropertySpec] = []
        pm = self.want_map(m.get("properties"), "'properties'")
        if pm is not None:
            for pname, (ks, vnode) in pm.items.items():
                if not self.ident(pname, ks.span, "property"):
                    continue
                p = self.prop(pname, ks.span, vnode)
                if p is not None:
                    props.append(p)
        pack: list[PackEntry] = []
        pl = self.want_list(m.get("pack"), "'pack'")
        if pl is None:
            pack.append(PackEntry(m.span, None, None, 1, None, None))
        else:
            for item in pl.items:
                e = self.pack_entry(item)
                if e is not None:
                    pack.append(e)
        return suits, ranks, props, pack

    def prop(self, name: str, span: Span, node: YNode) -> PropertySpec | None:
        if isinstance(node, YScalar):
            if isinstance(node.value, str):
                e = self.expr(node, f"property '{name}'")
                return PropertySpec(name, span, "expr", expr=e) if e is not None else None
            if isinstance(node.value, (int, float)):
                return PropertySpec(name, span, "const", default=node.value)
        m = self.want_map(node, f"property '{name}'")
        if m is None:
            return None
        self.keys(m, ["by_rank", "by_suit", "default"], f"property '{name}'")
        by = "rank" if "by_rank" in m.items else "suit" if "by_suit" in m.items else None
        if by is None or ("by_rank" in m.items and "by_suit" in m.items):
            self.err("S017", m.span, f"property '{name}' needs exactly one of 'by_rank' or 'by_suit'")
            return None
        tm = self.want_map(m.get(f"by_{by}"), f"'by_{by}'")
        if tm is None:
            return None
        table: dict[str, Any] = {}
        spans: dict[str, Span] = {}
        for k, (kn, vn) in tm.items.items():
            key = k.lower() if k in ("True", "False") else k
            if not isinstance(vn, YScalar) or isinstance(vn.value, (list, dict)) or vn.value is None:
                self.err("S018", vn.span, "a property value must be a number, text or true/false")
                continue
            table[key] = vn.value
            spans[key] = kn.span
        dnode = m.get("default")
        default = dnode.value if isinstance(dnode, YScalar) else None
        return PropertySpec(name, span, by, table, default, table_spans=spans)

    def pack_entry(self, node: YNode) -> PackEntry | None:
        m = self.want_map(node, "a 'pack' entry")
        if m is None:
            return None
        self.keys(m, ["suits", "ranks", "copies", "when", "where", "card"], "a 'pack' entry")
        copies = self.want_scalar(m.get("copies"), "'copies'", (int,)) if "copies" in m.items else 1
        if copies is None or copies < 0 or copies > 64:
            cn = m.get("copies")
            self.err("S019", cn.span if cn else m.span, "'copies' must be between 0 and 64")
            copies = 1
        suits = self.names_list(m.get("suits"), "'suits'") if "suits" in m.items else None
        ranks = self.names_list(m.get("ranks"), "'ranks'") if "ranks" in m.items else None
        card = self.want_scalar(m.get("card"), "'card'", (str,)) if "card" in m.items else None
        if card is not None and (not card or not card.isprintable() or card.strip() != card):
            cn = m.get("card")
            self.err("S010", cn.span if cn else m.span, "a card's name must be on one line, without spaces at "
                     "its ends or control characters", f"got {card!r}")
            card = None
        return PackEntry(m.span, suits, ranks, copies, self.expr(m.get("when"), "'when'"),
                         self.expr(m.get("where"), "'where'"), card)

    def zones(self, node: YNode | None) -> list[ZoneSpec]:
        m = self.want_map(node, "'zones'")
        out: list[ZoneSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "zone"):
                continue
            zm = self.want_map(vnode, f"zone '{name}'") if not (
                isinstance(vnode, YScalar) and vnode.value is None) else YMap(vnode.span)
            if zm is None:
                continue
            self.keys(zm, ["per_player", "visible"], f"zone '{name}'")
            pp = bool(self.want_scalar(zm.get("per_player"), "'per_player'", (bool,)))
            vis = self.visibility(zm.get("visible"), "'visible'", "everyone")
            if vis == "owner" and not pp:
                vn = zm.get("visible")
                self.err("S020", vn.span if vn else zm.span,
                         f"zone '{name}' has no owner: 'owner' needs 'per_player: true'")
            out.append(ZoneSpec(name, ks.span, pp, vis))
        return out

    def variables(self, node: YNode | None) -> list[VarSpec]:
        m = self.want_map(node, "'variables'")
        out: list[VarSpec] = []
        if m is None:
            return out
        for name, (ks, vnode) in m.items.items():
            if not self.ident(name, ks.span, "variable"):
                continue
            vm = self.want_map(vnode, f"variable '{name}'")
            if vm is None:
                continue
            self.keys(vm, ["type", "per_player", "initial", "scope", "visible"], f"variable '{name}'",
                      ("type",))
            tname = self.want_scalar(vm.get("type"), "'type'", (str,)) or "int"
            if tname not in VAR_TYPES:
                tn = vm.get("type")
                self.err("S021", tn.span if tn else vm.span, f"unknown variable type '{tname}'",
                         f"types: {', '.join(VAR_TYPES)}")
                continue
            scope = self.want_scalar(vm.get("scope"), "'scope'", (str,)) or "match"
            if scope not in ("match", "deal"):
                sn = vm.get("scope")
                self.err("S022", sn.span if sn else vm.span, "'scope' must be 'match' or 'deal'")
            inode = vm.get("initial")
            init: A.Expr | None = None
            if inode is not None:
                if isinstance(inode, YList) and not inode.items:
                    init = A.ListLit(inode.span, [])
                elif isinstance(inode, YScalar) and inode.value is None:
                    init = A.Const(inode.span, None)
                else:
                    init = self.expr(inode, f"initial value of '{name}'")
            per_player = bool(self.want_scalar(vm.get("per_player"), "'per_player'", (bool,)))
            vis = self.visibility(vm.get("visible"), "'visible'", "everyone")
            if vis == "owner" and not per_player:
                vn = vm.get("visible")
                self.err("S020", vn.span if vn else vm.span,
                         f"variable '{name}' has no owner: 'owner' needs 'per_player: true'")
            out.append(VarSpec(name, ks.span, VAR_TYPES[tname], per_player, scope, init, vis))
        return out

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
            self.keys(am, ["params", "when", "effect", "label", "secret"], f"action '{name}'")
            params: list[ParamSpec] = []
            prm = self.want_map(am.get("params"), "'params'")
            if prm is not None:
                for pname, (pks, pvn) in prm.items.items():
                    if not self.ident(pname, pks.span, "parameter"):
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
            self.keys(pm, ["actions", "first", "round", "next", "then", "start", "after", "end"],
                      f"phase '{name}'", ("actions",))
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
                                 self.stmts(pm.get("end"), "'end'")))
        return out

    def match(self, node: YNode | None, root: Span) -> MatchSpec:
        m = self.want_map(node, "'match'")
        if m is None:
            return MatchSpec(root, [], [], [], None, None, None, [], None)
        self.keys(m, ["start", "deal", "end_deal", "next_dealer", "over_when", "winners", "report",
                      "max_deals"], "'match'", ("deal", "over_when", "winners"))
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
                         report, md)


def read_spec(file: str, root: YNode, diags: list[Diagnostic]) -> GameSpec | None:
    return _Reader(file, diags).read(root)
