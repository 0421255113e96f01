"""Expressions and statements written back as rule-file text, from the checked AST.

The rulebook quotes the designer's own text wherever it can find it (source.py); a part of a statement
(`top(stock, 3)` in `move top(stock, 3) to centre`) has no text of its own, so it is written from its
tree here. Brackets are put where the grammar (dsl/grammar.lark) needs them, so the text reads back as
the same tree: tests/test_explain.py parses what this writes for every expression of the bundled games.
"""

from __future__ import annotations

import string
from typing import cast

from ..dsl import ast as A

# How tightly each kind of expression binds, loosest first (docs/language.md, "Operators").
LOOSE, OR, AND, NOT, COMPARE, SUM, PRODUCT, NEG, POSTFIX = range(1, 10)
_BIN = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "//": PRODUCT, "%": PRODUCT}
_CMP = {"notin": "not in"}


class _Level(A.StrictVisitor):
    """How tightly an expression binds (a level above)."""

    covers = (A.Expr,)

    def _loose(self, e: A.Expr) -> int:
        return LOOSE

    def _postfix(self, e: A.Expr) -> int:
        return POSTFIX

    visit_IfExpr = visit_Let = visit_Lambda = _loose
    visit_Const = visit_Name = visit_Attr = visit_Index = visit_Call = visit_ListLit = visit_Comp = _postfix

    def visit_Inline(self, e: A.Inline) -> int:
        return self.visit(e.body)  # written as its body

    def visit_BoolOp(self, e: A.BoolOp) -> int:
        return OR if e.op == "or" else AND

    def visit_Not(self, e: A.Not) -> int:
        return NOT

    def visit_Compare(self, e: A.Compare) -> int:
        return COMPARE

    def visit_BinOp(self, e: A.BinOp) -> int:
        return _BIN[e.op]

    def visit_Neg(self, e: A.Neg) -> int:
        return NEG


_LEVEL = _Level()


def _at(e: A.Expr, least: int) -> str:
    """`e` written where the grammar wants at least level `least`: in brackets if it binds more loosely."""
    s = expr(e)
    return f"({s})" if _LEVEL.visit(e) < least else s


def _string(s: str) -> str:
    # A text literal has no escapes: it is quoted with the quote it does not hold (the parser made sure one).
    return f"'{s}'" if "'" not in s else f'"{s}"'


def _number(v: int | float) -> str:
    s = repr(abs(v))
    if "e" in s:  # 1e+16 is no number of the language: its digits are
        s = format(abs(v), ".6f").rstrip("0")
    return s if v >= 0 else f"-{s}"


class _Text(A.StrictVisitor):
    """An expression or a statement as a rule file writes it, on one line (`if` and `for` steps are YAML, not
    one line: their head). A statement without a method here is written by its `SYNTAX` (dsl/ast.py)."""

    covers = (A.Expr, A.Stmt)

    @classmethod
    def knows(cls, kind: type[A.Node]) -> bool:
        return super().knows(kind) or bool(getattr(kind, "SYNTAX", ""))

    def generic_visit(self, node: A.Node) -> str:
        if isinstance(node, A.Stmt) and node.SYNTAX:
            return string.Formatter().vformat(node.SYNTAX, (), _Fields(node))
        return cast(str, super().generic_visit(node))

    # ------------------------------------------------------------ expressions
    def visit_Const(self, e: A.Const) -> str:
        v = e.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return _string(v)
        return _number(v)

    def visit_Name(self, e: A.Name) -> str:
        return e.id

    def visit_Attr(self, e: A.Attr) -> str:
        return f"{_at(e.obj, POSTFIX)}.{e.name}"

    def visit_Index(self, e: A.Index) -> str:
        return f"{_at(e.obj, POSTFIX)}[{expr(e.index)}]"

    def visit_Call(self, e: A.Call) -> str:
        if len(e.args) == 1 and isinstance(e.args[0], A.Comp):  # `any(x > 0 for x in xs)`: the same tree
            return f"{e.func}({expr(e.args[0])[1:-1]})"
        return f"{e.func}({', '.join(expr(a) for a in e.args)})"

    def visit_Inline(self, e: A.Inline) -> str:
        return expr(e.body)  # made by the optimizer, never found in a spec: its body stands for the call

    def visit_Lambda(self, e: A.Lambda) -> str:
        return f"{e.param} => {expr(e.body)}"

    def visit_Let(self, e: A.Let) -> str:
        return "let " + " ".join(f"{n} = {expr(v)};" for n, v in e.bindings) + " " + expr(e.body)

    def visit_IfExpr(self, e: A.IfExpr) -> str:
        # The condition and the branch after `then` are closed by a word, but a nested if there reads badly.
        return (f"if {_at(e.cond, OR)} then {_at(e.then, OR)} else {expr(e.other)}")

    def visit_BoolOp(self, e: A.BoolOp) -> str:
        own = _LEVEL.visit(e)
        return f" {e.op} ".join(_at(v, own + 1) for v in e.values)

    def visit_Not(self, e: A.Not) -> str:
        return f"not {_at(e.value, NOT)}"

    def visit_Compare(self, e: A.Compare) -> str:
        parts = [_at(e.first, SUM)]
        for op, v in e.rest:
            parts += [_CMP.get(op, op), _at(v, SUM)]
        return " ".join(parts)

    def visit_BinOp(self, e: A.BinOp) -> str:
        own = _BIN[e.op]
        # Left-associative: the right operand of the same level keeps its brackets (a - (b - c)).
        return f"{_at(e.left, own)} {e.op} {_at(e.right, own + 1)}"

    def visit_Neg(self, e: A.Neg) -> str:
        return f"-{_at(e.value, NEG)}"

    def visit_ListLit(self, e: A.ListLit) -> str:
        return "[" + ", ".join(expr(x) for x in e.items) + "]"

    def visit_Comp(self, e: A.Comp) -> str:
        cond = f" if {_at(e.cond, OR)}" if e.cond is not None else ""
        return f"[{expr(e.elem)} for {e.var} in {_at(e.iter, OR)}{cond}]"

    # ------------------------------------------------------------ statements (the others: their SYNTAX)
    def visit_Assign(self, s: A.Assign) -> str:
        target = s.name if s.index is None else f"{s.name}[{expr(s.index)}]"
        return f"{target} {s.op} {expr(s.value)}"

    def visit_Move(self, s: A.Move) -> str:
        return f"move {expr(s.cards)} to {'bottom of ' if s.bottom else ''}{zone(s.dest)}"

    def visit_Deal(self, s: A.Deal) -> str:
        return f"deal {expr(s.count)} from {zone(s.src)} to {zone(s.dest)}"

    def visit_Do(self, s: A.Do) -> str:
        return f"do {s.proc}({', '.join(expr(a) for a in s.args)})"

    def visit_Log(self, s: A.Log) -> str:
        return "log " + ", ".join([_string(s.text)] + [expr(v) for v in s.values])

    def visit_If(self, s: A.If) -> str:
        return f"if {expr(s.cond)}"

    def visit_For(self, s: A.For) -> str:
        return f"for {s.var} in {expr(s.iter)}"


class _Fields(dict[str, str]):
    """A statement's fields as code, for its `SYNTAX`."""

    def __init__(self, s: A.Stmt) -> None:
        super().__init__()
        self.s = s

    def __missing__(self, name: str) -> str:
        return code_of(getattr(self.s, name))


def code_of(v: object) -> str:
    """A field of a statement as code: an expression, a zone, a list of expressions, a name."""
    if isinstance(v, A.ZoneRef):
        return zone(v)
    if isinstance(v, A.Node):
        return _TEXT.visit(v)
    if isinstance(v, list):
        return ", ".join(code_of(x) for x in v)
    return str(v)


_TEXT = _Text()


def expr(e: A.Expr) -> str:
    """The expression as a rule file writes it, on one line."""
    return _TEXT.visit(e)  # type: ignore[no-any-return]


def zone(z: A.ZoneRef) -> str:
    return z.name if z.index is None else f"{z.name}[{expr(z.index)}]"


def stmt(s: A.Stmt) -> str:
    """A one-line statement as a rule file writes it (`if` and `for` steps are YAML, not one line)."""
    return _TEXT.visit(s)  # type: ignore[no-any-return]
