"""Every kind of rule code is known to every part of the toolchain that must know it.

A new AST node (dsl/ast.py) needs a checker rule, code generation, a budget weight (its children counted by
`weights.size`) and a place in docs/language.md. A new library function needs one record in dsl/library.py:
a well-formed typed signature, an implementation or a code template the generated module can call, a cost
class the compiler charges consistently with what the function does, and its docs (the row of the library
table is generated from the record, and the doc must be current). Each test names what is missing.

(The rulebook, analysis, optimizer and lint passes check themselves: their visitors raise on a node they
do not know.)
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Iterator

from cardsmith.dsl import abi
from cardsmith.dsl import ast as A
from cardsmith.dsl.checker import Checker
from cardsmith.dsl.codegen.expressions import BUILDS, WALKS, ExpressionWriter
from cardsmith.dsl.codegen.statements import StatementWriter
from cardsmith.dsl.library import LIBRARY, RUNTIME_HELPERS, Arg, Cost, LibFunc, Result
from cardsmith.dsl.library_docs import BEGIN, END, rewrite
from cardsmith.dsl.steps import StepChecker
from conftest import ROOT

DOC = ROOT / "docs" / "language.md"

# Node classes no pass visits on their own, and why.
ABSTRACT = {A.Expr, A.Stmt}  # bases: never made
# `Inline` is made by the optimizer after checking (the checker never sees one); a `ZoneRef` is checked and
# compiled as a part of its statement (move, deal, shuffle), never on its own.
NOT_CHECKED = {A.Inline, A.ZoneRef}
NOT_COMPILED_ALONE = {A.ZoneRef}

# Where docs/language.md describes each node: (the section, a phrase it must hold).
DOCS = {
    "Const": ("## 6. Expressions", "### Literals"),
    "Name": ("## 6. Expressions", "### Names"),
    "Attr": ("## 6. Expressions", "`c.prop`"),
    "Index": ("## 6. Expressions", "`xs[i]`"),
    "Call": ("## 6. Expressions", "**Calls**"),
    "Lambda": ("## 6. Expressions", "**Lambdas**"),
    "Let": ("## 6. Expressions", "**let**"),
    "IfExpr": ("## 6. Expressions", "**Conditional**"),
    "BinOp": ("## 6. Expressions", "| 6 | `+` `-` |"),
    "Compare": ("## 6. Expressions", "**Comparisons**"),
    "BoolOp": ("## 6. Expressions", "| 2 | `or` |"),
    "Not": ("## 6. Expressions", "| 4 | `not` |"),
    "Neg": ("## 6. Expressions", "| 8 | `-x` |"),
    "ListLit": ("## 6. Expressions", "| lists |"),
    "Comp": ("## 6. Expressions", "**List comprehensions**"),
    "Inline": ("## 6. Expressions", "**Calls**"),  # a call of a `define` function, inlined
    "Assign": ("## 5. Statements", "### Assignment"),
    "LetStmt": ("## 5. Statements", "### let"),
    "Pick": ("## 5. Statements", "### pick"),
    "Move": ("## 5. Statements", "### move"),
    "Deal": ("## 5. Statements", "### deal"),
    "Shuffle": ("## 5. Statements", "### shuffle"),
    "Goto": ("## 5. Statements", "### goto and end deal"),
    "EndDeal": ("## 5. Statements", "### goto and end deal"),
    "Eliminate": ("## 5. Statements", "### eliminate"),
    "SitOut": ("## 5. Statements", "### sit out"),
    "Do": ("## 5. Statements", "### do"),
    "Log": ("## 5. Statements", "### log"),
    "If": ("## 5. Statements", "### if and for"),
    "For": ("## 5. Statements", "### if and for"),
    "ZoneRef": ("## 5. Statements", "### move"),
}


def _nodes() -> Iterator[type[A.Node]]:
    stack = list(A.Node.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if cls not in ABSTRACT:
            yield cls


def _section(text: str, heading: str) -> str:
    return text.split("\n" + heading, 1)[1].split("\n## ", 1)[0]


def test_every_node_has_a_checker_rule() -> None:
    missing = []
    for cls in _nodes():
        if cls in NOT_CHECKED:
            continue
        checker = Checker if issubclass(cls, A.Expr) else StepChecker
        if not hasattr(checker, f"visit_{cls.__name__}"):
            missing.append(f"{cls.__name__}: no {checker.__name__}.visit_{cls.__name__}")
    assert not missing, missing


def test_every_node_has_code_generation() -> None:
    missing = []
    for cls in _nodes():
        if cls in NOT_COMPILED_ALONE:
            continue
        writer = ExpressionWriter if issubclass(cls, A.Expr) else StatementWriter
        if not hasattr(writer, f"visit_{cls.__name__}"):
            missing.append(f"{cls.__name__}: no {writer.__name__}.visit_{cls.__name__}")
    assert not missing, missing


def test_every_node_has_a_budget_weight() -> None:
    """The budget charges code its size (`weights.size`, every node below it counted): a field that holds
    nodes but is not one of the node's children would be code the budget does not see."""
    missing = []
    for cls in _nodes():
        for f in dataclasses.fields(cls):
            holds_nodes = re.search(r"\b(Expr|Stmt|ZoneRef|Node)\b", str(f.type))
            if holds_nodes and f.name in A._NOT_CHILDREN:
                missing.append(f"{cls.__name__}.{f.name}: holds code the budget does not count")
    assert not missing, missing


def test_every_node_has_docs() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = []
    for cls in _nodes():
        where = DOCS.get(cls.__name__)
        if where is None:
            missing.append(f"{cls.__name__}: no place in docs/language.md (add it to DOCS here)")
        elif where[1] not in _section(text, where[0]):
            missing.append(f"{cls.__name__}: {where[1]!r} is not in {where[0]!r}")
    assert not missing, missing


# ---------------------------------------------------------------- library functions

_LIST_RESULTS = {Result.ITEM, Result.SUM, Result.LIST, Result.FLAT, Result.LISTS}


def _signature_problems(f: LibFunc) -> list[str]:
    s = f.signature
    out = []
    kinds = [p.kind for p in s.params]
    if not kinds:
        out.append("takes no argument")
    if any(p.optional for p in s.params[: f.min_args]):
        out.append("an optional argument before a required one")
    if (any(k.is_function or k is Arg.ITEM for k in kinds) or s.result in _LIST_RESULTS) and \
            not (kinds and kinds[0].is_list):
        out.append("refers to a list's items but its first argument is not a list")
    if s.variadic and kinds != [Arg.LIST]:
        out.append("variadic (max, min) but its one-list form is not one list")
    return out


def test_every_library_function_has_a_checker_rule() -> None:
    """The checker types a call from the record's signature (calls.py): it must be one it can read."""
    missing = [f"{f.name}: {p}" for f in LIBRARY.values() for p in _signature_problems(f)]
    assert not missing, missing


def test_every_library_function_has_code_generation() -> None:
    missing = []
    for f in LIBRARY.values():
        if f.impl is None and f.emit is None:
            missing.append(f"{f.name}: neither an implementation nor a code template")
        if f.impl is not None and RUNTIME_HELPERS.get(f.py) is not f.impl:
            missing.append(f"{f.name}: its implementation {f.py} is not a runtime helper")
        if f.emit is not None:
            fields = {field for _, field, _, _ in string.Formatter().parse(f.emit) if field}
            allowed = {"fold"} | {f"{k}{i}" for k in ("arg", "seat", "card") for i in range(f.max_args)}
            if fields - allowed:
                missing.append(f"{f.name}: unknown fields {sorted(fields - allowed)} in its template")
            called = set(re.findall(r"\b([A-Za-z_][A-Za-z_0-9]*)\(", re.sub(r"\{[^}]*\}", "0", f.emit)))
            if called - abi.EXPORTS:
                missing.append(f"{f.name}: its template calls {sorted(called - abi.EXPORTS)}, not exported (abi.py)")
    assert not missing, missing


def test_every_library_function_has_a_consistent_cost_class() -> None:
    """The cost class is what the compiler charges (dsl/codegen): a function that loops over its input or
    builds a list must not be in a class that charges a fixed amount."""
    missing = []
    for f in LIBRARY.values():
        s = f.signature
        if (f.cost is Cost.PER_ITEM) != s.takes_function:
            missing.append(f"{f.name}: takes a function {s.takes_function}, but its cost is {f.cost.name}")
        if f.cost is Cost.FIXED and s.result in (Result.LIST, Result.LISTS, Result.FLAT, Result.INTS,
                                                 Result.PLAYERS, Result.SUM):
            missing.append(f"{f.name}: builds or walks a list, but its cost is FIXED")
        if f.cost is Cost.BUILD and s.result is not Result.LISTS:
            missing.append(f"{f.name}: BUILD charges lists of lists, but it gives {s.result.name}")
        if f.cost in (Cost.WALK, Cost.WALK_NESTED, Cost.WALK_FIRST) and not s.params[0].kind.is_list:
            missing.append(f"{f.name}: walks its list, but its first argument is {s.params[0].kind.name}")
        if f.cost is Cost.BUILD_NUMBERS and not (f.emit and "_it(" in f.emit):
            missing.append(f"{f.name}: builds a list of numbers its template does not charge (_it)")
    assert WALKS == {f.name for f in LIBRARY.values() if f.cost in (Cost.WALK, Cost.WALK_NESTED)}
    assert BUILDS == {f.name for f in LIBRARY.values() if f.cost is Cost.BUILD}
    assert not missing, missing


def test_every_library_function_has_docs() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = []
    for f in LIBRARY.values():
        for part in ("doc", "usage", "gives", "example", "result"):
            if not getattr(f, part).strip():
                missing.append(f"{f.name}: no {part}")
        if f"{f.name}(" not in f.example or f"`{f.name}(" not in f.usage:
            missing.append(f"{f.name}: its usage or example does not call it")
        if f"| {f.usage} |" not in text:
            missing.append(f"{f.name}: no row in docs/language.md's library tables")
    assert not missing, missing


def test_the_library_tables_are_generated_from_the_records() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert rewrite(text) == text, "docs/language.md's library tables are stale: run " \
        "python -m cardsmith.dsl.library_docs docs/language.md"
