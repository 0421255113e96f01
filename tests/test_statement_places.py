"""A new statement takes four places (docs/architecture.md, "Where a new feature goes"), and every statement
has each of them; every pass that must know every kind of node knows each.

1. its syntax: an alternative of `statement` in dsl/grammar.lark, which the parser builds into the node;
2. its node in dsl/ast.py, which tells the rulebook how to write it back and say it (`SYNTAX`, `WORDS`, or a
   method of its own there) and the engine which helpers it calls (`HELPERS`, `CHANCE`);
3. its checker rule, `StepChecker.visit_<Class>`;
4. its code, `StatementWriter.visit_<Class>`, calling the helpers its node names, which
   interpreter/engine/runtime.py defines under those names.

Each test names what a statement lacks. The rulebook's round trip (tests/test_explain.py) reads what
unparse.py writes back as the same tree, for every statement of the rule files it covers: every kind of
statement is used there.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import string
from pathlib import Path

import cardsmith.dsl
import cardsmith.rulebook
import pytest
from cardsmith.dsl import abi, parser
from cardsmith.dsl import ast as A
from cardsmith.dsl.codegen.statements import StatementWriter
from cardsmith.dsl.diagnostics import Span
from cardsmith.dsl.steps import StepChecker
from cardsmith.engine.runtime import HELPERS
from cardsmith.rulebook.unparse import _Text
from cardsmith.rulebook.words import Words
from conftest import BUNDLED_DIR, ROOT, compiled

STATEMENTS = A.kinds(A.Stmt)
# Steps written as YAML, not as one line of the grammar: dsl/reader.py makes them from their keys.
YAML_STEPS = {A.If: "if:", A.For: "for:"}
# The rule files whose every statement tests/test_explain.py writes back and reads again.
ROUND_TRIP = sorted(BUNDLED_DIR.glob("*.yaml")) + sorted((ROOT / "tests" / "games").glob("*.yaml")) + [
    ROOT / "docs" / "examples" / "schwimmen-two-lives.yaml"]


def _rule(kind: type[A.Stmt]) -> str:
    return next(name for name, k in parser.STATEMENTS.items() if k is kind)


def _kept(alternative: object) -> list[str]:
    """The parts of a grammar alternative the transformer is given (not its words and punctuation)."""
    return [s.name for s in alternative.expansion if not getattr(s, "filter_out", False)]  # type: ignore[attr-defined]


def _fields(kind: type[A.Node]) -> list[str]:
    return [f.name for f in dataclasses.fields(kind) if f.init and f.name != "span"]


def test_there_are_statements_and_the_parser_knows_each_by_its_rule_name() -> None:
    assert len(STATEMENTS) >= 14 and A.Eliminate in STATEMENTS and A.Expr not in STATEMENTS
    assert set(parser.STATEMENTS.values()) == set(STATEMENTS)
    assert _rule(A.EndDeal) == "end_deal" and _rule(A.SitOut) == "sit_out"


def test_every_statement_has_its_syntax() -> None:
    """An alternative aliased by the node's rule name, built by the parser from its parts in field order, or
    a transformer method that builds the node (a span of its own for a name, a word checked, a default)."""
    alternatives = [r for r in parser._PARSER.rules if r.origin.name == "statement"]
    source = inspect.getsource(parser._Build)
    missing = []
    for kind in STATEMENTS:
        if kind in YAML_STEPS:
            continue
        name = _rule(kind)
        own = [r for r in alternatives if r.alias == name]
        built_by_method = f"A.{kind.__name__}(" in source
        if not own and not built_by_method:
            missing.append(f"{kind.__name__}: no alternative '-> {name}' in dsl/grammar.lark")
        elif own and not hasattr(parser._Build, name):
            for r in own:
                if len(_kept(r)) != len(_fields(kind)):
                    missing.append(f"{kind.__name__}: '-> {name}' gives {_kept(r)}, the node's fields are "
                                   f"{_fields(kind)}: give _Build a method '{name}' (dsl/parser.py)")
    assert not missing, missing


def test_every_statement_node_tells_the_rulebook_how_to_write_it_and_say_it() -> None:
    missing = []
    for kind in STATEMENTS:
        name = kind.__name__
        if not _Text.knows(kind):
            missing.append(f"{name}: no SYNTAX in dsl/ast.py (or visit_{name} in rulebook/unparse.py)")
        if not Words.knows(kind):
            missing.append(f"{name}: no WORDS in dsl/ast.py (or visit_{name} in rulebook/words.py)")
    assert not missing, missing


@pytest.mark.parametrize("kind", [k for k in STATEMENTS if k.SYNTAX or k.WORDS], ids=lambda k: k.__name__)
def test_a_statements_templates_name_its_fields(kind: type[A.Stmt]) -> None:
    """`SYNTAX` writes every field (the text reads back as the same tree); `WORDS` names only fields, each
    as code or in one of the rulebook's forms."""
    fields = set(_fields(kind)) - set(A.PLACE_FIELDS)
    if kind.SYNTAX:
        named = {f for _, f, _, _ in string.Formatter().parse(kind.SYNTAX) if f is not None}
        assert named == fields, f"{kind.__name__}.SYNTAX writes {sorted(named)}, its fields are {sorted(fields)}"
    if kind.WORDS:
        for _, f, form, _ in string.Formatter().parse(kind.WORDS):
            if f is not None:
                assert f in fields and form in ("", "player", "phase"), f"{kind.__name__}.WORDS: {{{f}:{form}}}"


def test_every_statement_is_checked_and_compiled() -> None:
    missing = [f"{k.__name__}: no {cls.__name__}.visit_{k.__name__}" for k in STATEMENTS
               for cls in (StepChecker, StatementWriter) if not hasattr(cls, f"visit_{k.__name__}")]
    assert not missing, missing


def test_the_helpers_a_statement_names_are_the_engines_and_its_code_calls_them() -> None:
    missing = []
    for kind in STATEMENTS:
        visit = getattr(StatementWriter, f"visit_{kind.__name__}", None)
        code = inspect.getsource(visit) if visit is not None else ""  # (a missing visit: the test above)
        for h in kind.HELPERS:
            if h not in HELPERS:
                missing.append(f"{kind.__name__}: no helper {h} in interpreter/engine/runtime.py")
            if f"{h}(" not in code:
                missing.append(f"{kind.__name__}: StatementWriter.visit_{kind.__name__} never calls {h}")
    assert not missing, missing
    assert set(abi.ENGINE_HELPERS) == set(HELPERS) and len(abi.ENGINE_HELPERS) == len(HELPERS)
    assert set(abi.CHANCE_HELPERS) == {"_pick", "_shuffle"}


def test_a_statement_that_meets_chance_has_its_outcomes_bounded() -> None:
    """OpenSpiel asks for the most outcomes of a chance node (interpreter/engine/bounds.py): a shuffle's are
    the pack's cards, a pick's its list's items. A new statement that meets chance gives its own there."""
    assert {k for k in STATEMENTS if k.CHANCE} == {A.Pick, A.Shuffle}


def test_every_statement_is_used_by_a_rule_file_the_rulebook_round_trips() -> None:
    """So tests/test_explain.py reads each kind back from the text unparse.py writes, and the rulebook of a
    file that uses it is built (and the scenarios and play of those files run it)."""
    used: set[type[A.Node]] = set()
    for path in ROUND_TRIP:
        spec = compiled(str(path)).spec
        m = spec.match
        blocks = [m.start, m.deal, m.end_deal] + [a.effect for a in spec.actions] + [
            p.body for p in spec.procedures] + [b for ph in spec.phases for b in (ph.start, ph.after, ph.end)]
        used.update(type(s) for b in blocks for s in A.statements(b))
    unused = sorted(k.__name__ for k in set(STATEMENTS) - used)
    assert not unused, f"used by no rule file of tests/test_explain.py: {unused}"


def _strict_passes() -> list[type[A.StrictVisitor]]:
    for package in (cardsmith.dsl, cardsmith.rulebook):
        for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(m.name)
    out, stack = [], list(A.StrictVisitor.__subclasses__())
    while stack:
        cls = stack.pop()
        out.append(cls)
        stack += cls.__subclasses__()
    return out


def test_every_pass_that_must_know_every_node_knows_each() -> None:
    passes = _strict_passes()
    names = {f"{Path(inspect.getfile(p)).stem}.{p.__name__}" for p in passes}
    # The rulebook's text and words, the order analysis, free names and binders, projection, the charges.
    assert {"unparse._Text", "unparse._Level", "words.Words", "analysis._Order", "optimize._Facts",
            "optimize._Binders", "projection._Projection", "charges._Hoist"} <= names, names
    missing = [f"{p.__module__}.{p.__name__}: no visit_{k.__name__}" for p in passes for base in p.covers
               for k in A.kinds(base) if not p.knows(k)]
    assert not missing, missing


class _Knows(A.StrictVisitor):
    covers = ()  # a pass of this test: it knows numbers only

    def visit_Const(self, e: A.Const) -> object:
        return e.value


def test_a_strict_pass_fails_loudly_on_a_node_it_was_not_told_of() -> None:
    span = Span("x", 1, 1)
    assert _Knows().visit(A.Const(span, 3)) == 3
    with pytest.raises(NotImplementedError, match="_Knows does not know Neg nodes: give it a visit_Neg method"):
        _Knows().visit(A.Neg(span, A.Const(span, 3)))


def _by_hand(stmts: list[A.Stmt], out: list[A.Stmt]) -> list[A.Stmt]:
    for s in stmts:
        out.append(s)
        if isinstance(s, A.If):
            _by_hand(s.then + s.other, out)
        elif isinstance(s, A.For):
            _by_hand(s.body, out)
    return out


def test_statements_are_found_inside_steps_in_file_order() -> None:
    nested = 0
    for path in ROUND_TRIP:
        spec = compiled(str(path)).spec
        for block in [spec.match.deal, spec.match.end_deal] + [a.effect for a in spec.actions]:
            found = list(A.statements(block))
            assert found == _by_hand(block, []), path.name
            nested += len(found) - len(block)
    assert nested > 100
