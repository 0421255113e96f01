"""Expression and statement parsing: Lark (LALR) into the typed AST.

The grammar lives in `grammar.lark`; its parse tables are generated once into `grammar.json` and loaded
from there (`grammar_tables.py`: regenerate them after editing the grammar). Positions reported by Lark
are relative to the expression text; `ScalarText.span_at` maps them into the rule file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from .diagnostics import Diagnostic, Refused, Span
from .grammar_tables import load_parser
from .limits import Limits

_PARSER = load_parser()  # from the tables generated from grammar.lark (grammar_tables.py)

# The grammar's words (move, deal, if, in, ...): a rule file cannot use them as names.
KEYWORDS = frozenset(
    t.pattern.value for t in _PARSER.terminals
    if t.pattern.type == "str" and t.pattern.value.isidentifier())


Locate = Callable[[int, int], Span]

# The statements by the name of their alternative in the grammar: the node's class name in snake case.
STATEMENTS = {re.sub(r"(?<!^)(?=[A-Z])", "_", k.__name__).lower(): k for k in A.kinds(A.Stmt)}

_TOKEN_WORDS = {
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'", "EQUAL": "'='",
    "LESSTHAN": "'<'", "MORETHAN": "'>'", "SEMICOLON": "';'", "NAME": "a name", "NUMBER": "a number",
    "STRING": "a string", "$END": "the end of the expression",
}


def _describe(expected: set[str]) -> str:
    words = []
    for t in sorted(expected):
        if t in _TOKEN_WORDS:
            words.append(_TOKEN_WORDS[t])
        elif t.startswith("__ANON") or t.startswith("_"):
            continue
        else:
            words.append(f"'{t.lower()}'")
    words = sorted(set(words))
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words) if words else "something else"


class _Build(Transformer):  # type: ignore[type-arg]
    def __init__(self, locate: Locate, limits: Limits):
        super().__init__()
        self.limits = limits
        self.locate = locate

    def _span(self, meta_or_tok: Any) -> Span:
        if isinstance(meta_or_tok, Token):
            return self.locate(meta_or_tok.line or 1, meta_or_tok.column or 1)
        if getattr(meta_or_tok, "empty", True):
            return self.locate(1, 1)
        return self.locate(meta_or_tok.line, meta_or_tok.column)

    # ---- atoms
    @v_args(meta=True)
    def number(self, meta: Any, c: list[Any]) -> A.Expr:
        t = str(c[0])
        if len(t) > 19:
            raise Refused(Diagnostic("P005", self._span(meta), "this number is too large",
                                     "numbers stay below 10**18"))
        return A.Const(self._span(meta), float(t) if "." in t else int(t))

    @v_args(meta=True)
    def string(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Const(self._span(meta), str(c[0])[1:-1])

    @v_args(meta=True)
    def true(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Const(self._span(meta), True)

    @v_args(meta=True)
    def false(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Const(self._span(meta), False)

    @v_args(meta=True)
    def none(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Const(self._span(meta), None)

    @v_args(meta=True)
    def name(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Name(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def list_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.ListLit(self._span(meta), [x for x in c if x is not None])

    def comp_for(self, c: list[Any]) -> tuple[str, A.Expr, A.Expr | None, Span]:
        return str(c[0]), c[1], c[2], self._span(c[0])

    def _comp(self, span: Span, elem: A.Expr, clauses: list[tuple[str, A.Expr, A.Expr | None, Span]]) -> A.Expr:
        """A comprehension of several clauses as nested one-clause ones, each inner list joined into the
        outer by `flatten`: [e for x in xs for y in ys] is flatten([[e for y in ys] for x in xs])."""
        var, it, cond, at = clauses[-1]
        out: A.Expr = A.Comp(span, elem, var, it, cond, at)
        for var, it, cond, at in reversed(clauses[:-1]):
            out = A.Call(span, "flatten", [A.Comp(span, out, var, it, cond, at)])
        return out

    @v_args(meta=True)
    def list_comp(self, meta: Any, c: list[Any]) -> A.Expr:
        return self._comp(self._span(meta), c[0], c[1:])

    # ---- postfix
    @v_args(meta=True)
    def attr(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Attr(self._span(c[1]), c[0], str(c[1]))

    @v_args(meta=True)
    def index(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Index(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def call(self, meta: Any, c: list[Any]) -> A.Expr:
        args = c[1] if c[1] is not None else []
        return A.Call(self._span(meta), str(c[0]), args)

    def arguments(self, c: list[Any]) -> list[A.Expr]:
        return list(c)

    @v_args(meta=True)
    def gen_argument(self, meta: Any, c: list[Any]) -> list[A.Expr]:
        return [self._comp(self._span(meta), c[0], c[1:])]

    # ---- operators
    @staticmethod
    def _bin(op: str) -> Any:
        @v_args(meta=True)
        def f(self: _Build, meta: Any, c: list[Any]) -> A.Expr:
            return A.BinOp(self._span(meta), op, c[0], c[1])
        return f

    add = _bin.__func__("+")  # type: ignore[attr-defined]
    sub = _bin.__func__("-")  # type: ignore[attr-defined]
    mul = _bin.__func__("*")  # type: ignore[attr-defined]
    div = _bin.__func__("/")  # type: ignore[attr-defined]
    floordiv = _bin.__func__("//")  # type: ignore[attr-defined]
    mod = _bin.__func__("%")  # type: ignore[attr-defined]

    @v_args(meta=True)
    def neg(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Neg(self._span(meta), c[0])

    @v_args(meta=True)
    def not_op(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Not(self._span(meta), c[0])

    @v_args(meta=True)
    def and_op(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.BoolOp(self._span(meta), "and", list(c))

    @v_args(meta=True)
    def or_op(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.BoolOp(self._span(meta), "or", list(c))

    def comp_op(self, c: list[Any]) -> str:
        return "notin" if len(c) == 2 else str(c[0])

    @v_args(meta=True)
    def compare(self, meta: Any, c: list[Any]) -> A.Expr:
        rest = [(c[i], c[i + 1]) for i in range(1, len(c), 2)]
        return A.Compare(self._span(meta), c[0], rest)

    @v_args(meta=True)
    def if_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.IfExpr(self._span(meta), c[0], c[1], c[2])

    @v_args(meta=True)
    def lambda_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Lambda(self._span(meta), str(c[0]), c[1])

    def binding(self, c: list[Any]) -> tuple[str, A.Expr, Span]:
        return (str(c[0]), c[1], self._span(c[0]))

    @v_args(meta=True)
    def let_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        limits = self.limits
        if len(c) - 1 > limits.expr_depth:
            # Each binding nests one level in the compiled code.
            raise Refused(Diagnostic("P004", self._span(meta), f"this let has more than {limits.expr_depth} "
                                     "bindings", "split it with `define:` functions; " + limits.hint("expr_depth")))
        return A.Let(self._span(meta), [(n, v) for n, v, _ in c[:-1]], c[-1], [at for _, _, at in c[:-1]])

    # ---- statements
    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        """A statement whose grammar alternative is aliased by its node's name (`-> end_deal` builds an
        `EndDeal`, `STATEMENTS`) and whose parts are the node's fields in order, with the statement's span; a
        method below only for a statement that needs more (a span of its own for a name, a word checked)."""
        kind = STATEMENTS.get(str(data))
        if kind is None:
            return super().__default__(data, children, meta)
        return kind(self._span(meta), *[str(c) if isinstance(c, Token) else c for c in children])

    @v_args(meta=True)
    def target(self, meta: Any, c: list[Any]) -> tuple[str, A.Expr | None, Span]:
        return (str(c[0]), c[1] if len(c) > 1 else None, self._span(meta))

    def _assign(self, op: str, c: list[Any]) -> A.Stmt:
        name, idx, span = c[0]
        return A.Assign(span, name, idx, op, c[1])

    def assign(self, c: list[Any]) -> A.Stmt:
        return self._assign("=", c)

    def add_assign(self, c: list[Any]) -> A.Stmt:
        return self._assign("+=", c)

    def sub_assign(self, c: list[Any]) -> A.Stmt:
        return self._assign("-=", c)

    @v_args(meta=True)
    def let_stmt(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.LetStmt(self._span(meta), str(c[0]), c[1], self._span(c[0]))

    @v_args(meta=True)
    def pick(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.Pick(self._span(meta), str(c[0]), c[1], self._span(c[0]))

    @v_args(meta=True)
    def zone(self, meta: Any, c: list[Any]) -> A.ZoneRef:
        return A.ZoneRef(self._span(meta), str(c[0]), c[1] if len(c) > 1 else None)

    def place_top(self, c: list[Any]) -> tuple[A.ZoneRef, bool]:
        return (c[0], False)

    def place_bottom(self, c: list[Any]) -> tuple[A.ZoneRef, bool]:
        return (c[0], True)

    @v_args(meta=True)
    def move(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.Move(self._span(meta), c[0], c[1][0], c[1][1])

    @v_args(meta=True)
    def goto(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.Goto(self._span(c[0]), str(c[0]))

    @v_args(meta=True)
    def sit_out(self, meta: Any, c: list[Any]) -> A.Stmt:
        if str(c[0]) != "out":  # `out` is not a word of the language: a zone or variable may be named so
            raise Refused(Diagnostic("P001", self._span(c[0]), f"expected 'out' after 'sit', not '{c[0]}'",
                                     "a player sits a deal out with: sit out p"))
        return A.SitOut(self._span(meta), c[1])

    @v_args(meta=True)
    def do_proc(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.Do(self._span(meta), str(c[0]), c[1] if c[1] is not None else [])

    @v_args(meta=True)
    def log(self, meta: Any, c: list[Any]) -> A.Stmt:
        return A.Log(self._span(meta), str(c[0])[1:-1], list(c[1:]))


def _depth(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch in "([":
            depth += 1
            best = max(best, depth)
        elif ch in ")]":
            depth -= 1
    return best


def _tree_depth(tree: Any) -> int:
    """Depth of a parse tree, without recursion (the tree may be very deep)."""
    best = 0
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, d + 1))
    return best


def _unclosed_hint(text: str) -> str | None:
    if text.count("(") > text.count(")") or text.count("[") > text.count("]"):
        return ("a bracket is not closed; if this sits in a YAML [ ... ] list, a comma split it there: "
                "quote the whole step or expression")
    return None


def parse(text: str, start: str, locate: Locate, diags: list[Diagnostic], limits: Limits) -> Any:
    """Parse `text` as an expression or statement within `limits`; None (and a diagnostic) on error."""
    if len(text) > limits.expr_chars:
        diags.append(Diagnostic("P003", locate(1, 1),
                                f"{'expression' if start == 'expression' else 'statement'} is longer "
                                f"than {limits.expr_chars:,} characters",
                                "split it with `define:` functions; " + limits.hint("expr_chars")))
        return None
    if _depth(text) > limits.expr_depth:
        diags.append(Diagnostic("P004", locate(1, 1), f"brackets nested deeper than {limits.expr_depth} levels",
                                limits.hint("expr_depth")))
        return None
    what = "expression" if start == "expression" else "statement"
    try:
        tree = _PARSER.parse(text, start=start)
    except UnexpectedEOF as e:
        lines = text.splitlines() or [""]
        diags.append(Diagnostic("P001", locate(len(lines), len(lines[-1]) + 1),
                                f"the {what} ends too early; expected {_describe(set(e.expected))}",
                                _unclosed_hint(text)))
        return None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            span = locate(len(lines), len(lines[-1]) + 1)
            got = "the end"
            if "SEMICOLON" in e.expected and "let" in text.split():
                diags.append(Diagnostic("P001", span, f"the {what} ends too early; expected ';'",
                                        "each let binding ends with ';', then the body: let x = 1; x + 1 "
                                        "('in' is the membership test)"))
                return None
        else:
            span = locate(e.line, e.column)
            got = repr(str(tok))
        hint = None
        if "SEMICOLON" in e.expected and "let" in text.split():
            hint = "each let binding ends with ';': let x = 1; y = 2; x + y"
        elif str(tok) == "=" and start == "expression":
            hint = "to compare, write '=='"
        if got == "the end":
            msg = f"the {what} ends too early; expected {_describe(set(e.expected))}"
            hint = hint or _unclosed_hint(text)
        else:
            msg = f"unexpected {got} in {what}; expected {_describe(set(e.expected))}"
        diags.append(Diagnostic("P001", span, msg, hint))
        return None
    except UnexpectedCharacters as e:
        diags.append(Diagnostic("P002", locate(e.line, e.column),
                                f"unexpected character {text[e.pos_in_stream or 0]!r} in {what}"))
        return None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        diags.append(Diagnostic("P001", locate(getattr(e, "line", 1), getattr(e, "column", 1)),
                                f"cannot parse {what}"))
        return None
    if _tree_depth(tree) > 2 * limits.expr_depth:
        diags.append(Diagnostic("P004", locate(1, 1), f"the {what} is nested too deeply: more than "
                                f"{2 * limits.expr_depth} operators or brackets inside one another",
                                "split it with `define:` functions or `let`; if the file is trusted, "
                                f"--max-expr-depth N raises the limit to 2N (now N = {limits.expr_depth})"))
        return None
    try:
        try:
            return _Build(locate, limits).transform(tree)
        except VisitError as ve:  # lark wraps what a callback raises
            raise ve.orig_exc from None
    except Refused as e:
        diags.append(e.diagnostic)
        return None
    except RecursionError:
        diags.append(Diagnostic("P004", locate(1, 1), f"the {what} is nested too deeply",
                                limits.hint("expr_depth")))
        return None
