"""The values a rule file is made of, read from the located YAML tree with their diagnostics.

`Reader` checks the shape of a node (mapping, list, scalar of a kind), its keys, names, expressions
and steps, and reports each problem at its place. The section readers of `schema` build on it.
"""

from __future__ import annotations

import re
from typing import Any

from . import ast as A
from . import parser
from .diagnostics import Diagnostic, Span, clipped
from .keys import FOR_STEP, IF_STEP, Place
from .limits import Limits
from .suggest import closest, did_you_mean
from .yaml_loader import YList, YMap, YNode, YScalar, misread

MAX_STEP_DEPTH = 16  # 'if' and 'for' steps inside one another
# \Z, not $: a name must not end with a newline (it would reach the generated code).
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _poisoned(node: YNode) -> bool:
    return isinstance(node, YScalar) and node.poison


class Reader:
    def __init__(self, file: str, diags: list[Diagnostic], limits: Limits):
        self.file = file
        self.diags = diags
        self.limits = limits
        self.step_depth = 0  # 'if' and 'for' steps around the one being read

    def err(self, code: str, span: Span, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, span, msg, hint))

    def keys(self, m: YMap, place: Place, where: str) -> None:
        """Report the keys of `m` that `place` does not have (S001) and its required keys that `m` lacks (S002)."""
        allowed, required = place.names, place.required
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
        result: A.Expr | None = parser.parse(node.value, "expression", node.span_at, self.diags, self.limits)
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
            result: A.Stmt | None = parser.parse(node.value, "statement", node.span_at, self.diags, self.limits)
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
                self.keys(node, IF_STEP, "an 'if' step")
                cond = self.expr(node.get("if"), "'if'")
                self.step_depth += 1
                then = self.stmts(node.get("then"), "'then'")
                other = self.stmts(node.get("else"), "'else'")
                self.step_depth -= 1
                return A.If(node.span, cond, then, other) if cond is not None else None
            if "for" in node.items:
                self.keys(node, FOR_STEP, "a 'for' step")
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
                                  lambda ln, c: fnode.span_at(ln, c + off if ln == 1 else c), self.diags,
                              self.limits)
                self.step_depth += 1
                body = self.stmts(node.get("do"), "'do'")
                self.step_depth -= 1
                return A.For(node.span, m.group(1), it, body, fnode.span_at(1, m.start(1) + 1)) if it is not None \
                    else None
            self.err("S009", node.span, f"a step in {where} must be a statement, an 'if' or a 'for'",
                     "a step that contains ': ' must be quoted whole, e.g. - \"log 'score: {}', x\"")
            return None
        self.err("S009", node.span, f"a step in {where} must be a statement, an 'if' or a 'for'")
        return None

    def misread(self, node: YNode, where: str, *, names: bool = True) -> bool:
        """Report (S035) a plain value YAML read as something else than it shows: `no` as false, `null` as
        nothing, `07` as 7. With `names` false (a constant), numbers and `true`/`false` are meant as such."""
        raw = misread(node)
        if raw is None:
            return False
        assert isinstance(node, YScalar)
        v = node.value
        if not names and v is not None and (not isinstance(v, bool) or raw.lower() in ("true", "false")):
            return False
        if not raw:
            self.err("S035", node.span, f"in {where}, an empty entry: YAML reads it as no value",
                     "write the value, or remove the entry")
            return True
        seen = "no value" if v is None else str(v).lower() if isinstance(v, bool) else f"the number {v}"
        hint = f"quote it to keep the text: '{raw}'"
        if isinstance(v, bool) and not names:
            hint += f", or write {str(v).lower()} for a truth value"
        self.err("S035", node.span, f"in {where}, YAML reads {raw} as {seen}, not as the text '{raw}'", hint)
        return True

    def names_list(self, node: YNode | None, where: str, spans: dict[str, Span] | None = None) -> list[str]:
        """The names of a list; `spans`, if given, gets where each is written."""
        lst = self.want_list(node, where)
        if lst is None:
            return []
        out = []
        seen: set[str] = set()  # a list of thousands of names is checked for repeats in linear time
        for item in lst.items:
            if self.misread(item, where):
                continue
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
            if spans is not None:
                spans[text] = item.span
        return out

    def presentation(self, m: YMap, what: str) -> tuple[str, str, bool | A.Expr]:
        """`label`, `doc` and `show` of a zone, variable or phase: how the tables present it. `show` is true,
        false, or an expression fixed for the game (of the options), read when it is set up."""
        label = self.want_scalar(m.get("label"), "'label'", (str,)) or ""
        if "label" in m.items and isinstance(m.get("label"), YScalar) and isinstance(label, str) and (
                not label.strip() or not label.isprintable() or len(label) > 40):
            node = m.get("label")
            assert node is not None
            self.err("S010", node.span, f"the label of {what} must be one printable line of 1 to 40 characters",
                     "the name the tables show players, e.g. label: \"tricks won\"")
            label = ""
        doc = self.want_scalar(m.get("doc"), "'doc'", (str,)) or ""
        snode = m.get("show")
        if isinstance(snode, YScalar) and isinstance(snode.value, str):
            cond = self.expr(snode, f"'show' of {what}")
            return label.strip(), doc.strip(), True if cond is None else cond
        if snode is not None and not (isinstance(snode, YScalar) and isinstance(snode.value, bool)):
            self.err("S005", snode.span, "'show' must be true, false, or a condition on the table's options",
                     "show: \"exchange == 'commerce'\" shows it only at tables with that option")
            return label.strip(), doc.strip(), True
        return label.strip(), doc.strip(), snode is None or bool(snode.value)

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
