"""Expressions and statements written back as rule-file text, from the checked AST.

The rulebook quotes the designer's own text wherever it can find it (source.py); a part of a statement
(`top(stock, 3)` in `move top(stock, 3) to centre`) has no text of its own, so it is written from its
tree here. Brackets are put where the grammar (dsl/grammar.lark) needs them, so the text reads back as
the same tree: tests/test_explain.py parses what this writes for every expression of the bundled games.
"""

from __future__ import annotations

from ..dsl import ast as A

# How tightly each kind of expression binds, loosest first (docs/language.md, "Operators").
LOOSE, OR, AND, NOT, COMPARE, SUM, PRODUCT, NEG, POSTFIX = range(1, 10)
_BIN = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "//": PRODUCT, "%": PRODUCT}
_CMP = {"notin": "not in"}


def _level(e: A.Expr) -> int:
    if isinstance(e, (A.IfExpr, A.Let, A.Lambda)):
        return LOOSE
    if isinstance(e, A.BoolOp):
        return OR if e.op == "or" else AND
    if isinstance(e, A.Not):
        return NOT
    if isinstance(e, A.Compare):
        return COMPARE
    if isinstance(e, A.BinOp):
        return _BIN[e.op]
    if isinstance(e, A.Neg):
        return NEG
    return POSTFIX


def _at(e: A.Expr, least: int) -> str:
    """`e` written where the grammar wants at least level `least`: in brackets if it binds more loosely."""
    s = expr(e)
    return f"({s})" if _level(e) < least else s


def _string(s: str) -> str:
    # A text literal has no escapes: it is quoted with the quote it does not hold (the parser made sure one).
    return f"'{s}'" if "'" not in s else f'"{s}"'


def _number(v: int | float) -> str:
    s = repr(abs(v))
    if "e" in s:  # 1e+16 is no number of the language: its digits are
        s = format(abs(v), ".6f").rstrip("0")
    return s if v >= 0 else f"-{s}"


def expr(e: A.Expr) -> str:
    """The expression as a rule file writes it, on one line."""
    if isinstance(e, A.Const):
        v = e.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return _string(v)
        return _number(v)
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Attr):
        return f"{_at(e.obj, POSTFIX)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_at(e.obj, POSTFIX)}[{expr(e.index)}]"
    if isinstance(e, A.Call):
        if len(e.args) == 1 and isinstance(e.args[0], A.Comp):  # `any(x > 0 for x in xs)`: the same tree
            return f"{e.func}({expr(e.args[0])[1:-1]})"
        return f"{e.func}({', '.join(expr(a) for a in e.args)})"
    if isinstance(e, A.Inline):  # made by the optimizer, never found in a spec: its body stands for the call
        return expr(e.body)
    if isinstance(e, A.Lambda):
        return f"{e.param} => {expr(e.body)}"
    if isinstance(e, A.Let):
        return "let " + " ".join(f"{n} = {expr(v)};" for n, v in e.bindings) + " " + expr(e.body)
    if isinstance(e, A.IfExpr):
        # The condition and the branch after `then` are closed by a word, but a nested if there reads badly.
        return (f"if {_at(e.cond, OR)} then {_at(e.then, OR)} else {expr(e.other)}")
    if isinstance(e, A.BoolOp):
        own = _level(e)
        return f" {e.op} ".join(_at(v, own + 1) for v in e.values)
    if isinstance(e, A.Not):
        return f"not {_at(e.value, NOT)}"
    if isinstance(e, A.Compare):
        parts = [_at(e.first, SUM)]
        for op, v in e.rest:
            parts += [_CMP.get(op, op), _at(v, SUM)]
        return " ".join(parts)
    if isinstance(e, A.BinOp):
        own = _BIN[e.op]
        # Left-associative: the right operand of the same level keeps its brackets (a - (b - c)).
        return f"{_at(e.left, own)} {e.op} {_at(e.right, own + 1)}"
    if isinstance(e, A.Neg):
        return f"-{_at(e.value, NEG)}"
    if isinstance(e, A.ListLit):
        return "[" + ", ".join(expr(x) for x in e.items) + "]"
    if isinstance(e, A.Comp):
        cond = f" if {_at(e.cond, OR)}" if e.cond is not None else ""
        return f"[{expr(e.elem)} for {e.var} in {_at(e.iter, OR)}{cond}]"
    raise TypeError(f"no text for {type(e).__name__}")  # pragma: no cover - every kind of node is above


def zone(z: A.ZoneRef) -> str:
    return z.name if z.index is None else f"{z.name}[{expr(z.index)}]"


def stmt(s: A.Stmt) -> str:
    """A one-line statement as a rule file writes it (`if` and `for` steps are YAML, not one line)."""
    if isinstance(s, A.Assign):
        target = s.name if s.index is None else f"{s.name}[{expr(s.index)}]"
        return f"{target} {s.op} {expr(s.value)}"
    if isinstance(s, A.LetStmt):
        return f"let {s.name} = {expr(s.value)}"
    if isinstance(s, A.Pick):
        return f"pick {s.name} from {expr(s.options)}"
    if isinstance(s, A.Move):
        return f"move {expr(s.cards)} to {'bottom of ' if s.bottom else ''}{zone(s.dest)}"
    if isinstance(s, A.Deal):
        return f"deal {expr(s.count)} from {zone(s.src)} to {zone(s.dest)}"
    if isinstance(s, A.Shuffle):
        return f"shuffle {zone(s.zone)}"
    if isinstance(s, A.Goto):
        return f"goto {s.phase}"
    if isinstance(s, A.EndDeal):
        return "end deal"
    if isinstance(s, A.Eliminate):
        return f"eliminate {expr(s.player)}"
    if isinstance(s, A.SitOut):
        return f"sit out {expr(s.player)}"
    if isinstance(s, A.Do):
        return f"do {s.proc}({', '.join(expr(a) for a in s.args)})"
    if isinstance(s, A.Log):
        return "log " + ", ".join([_string(s.text)] + [expr(v) for v in s.values])
    if isinstance(s, A.If):
        return f"if {expr(s.cond)}"
    if isinstance(s, A.For):
        return f"for {s.var} in {expr(s.iter)}"
    raise TypeError(f"no text for {type(s).__name__}")  # pragma: no cover
