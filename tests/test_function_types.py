"""`define:` functions: how their bodies are typed, and the bounds that keep checking them finite.

* After checking, a body's types hold for every call (the join of the signatures it was checked
  under), so the compiler never specialises a body for one call's types.
* At most 8 signatures are checked per function and types are cut at 4 levels of lists, so a chain
  of functions calling each other with ever new argument types is checked in linear time.
* Nesting counted through calls is bounded (C036), so no chain of calls nested near the parser's
  limit makes the checker or the compiler's analyses raise RecursionError.
"""

from __future__ import annotations

import time

import pytest
from cardsmith.dsl import ast as A
from cardsmith.dsl import refs as R
from cardsmith.dsl import types as T
from cardsmith.dsl.analysis import ORDER_DEPTH, _Order, nesting_depths, order_free_params, pure_functions
from cardsmith.dsl.calls import MAX_SIGNATURES, TYPE_DEPTH
from cardsmith.dsl.checker import Checker
from cardsmith.dsl.diagnostics import Diagnostic
from cardsmith.dsl.limits import DEFAULT_LIMITS
from cardsmith.dsl.pipeline import compile_text
from cardsmith.dsl.schema import read_spec
from cardsmith.dsl.spec import GameSpec
from cardsmith.dsl.yaml_loader import load
from cardsmith.engine.game import Game
from hypothesis import given
from hypothesis import strategies as st

GAME = """\
game: Funcs
players: 2
deck:
  suits: [clubs]
  ranks: ['2', '3']
zones:
  stock: {{}}
  hand: {{per_player: true}}
variables:
  n: {{type: int}}
  xs: {{type: numbers}}
define:
{DEFINE}
actions:
  go: {{}}
phases:
  main:
    actions: [go]
    after:
{STEPS}
      - end deal
match:
  deal: [move pack to stock, goto main]
  over_when: {OVER}
  winners: players
"""


def game(define: str, steps: str = "      - n = 1", over: str = "true") -> str:
    return GAME.format(DEFINE=define, STEPS=steps, OVER=over)


def checked(text: str) -> Checker:
    r = compile_text(text, "f.yaml")
    assert r.ok and r.game is not None and r.game.checker is not None, [d.message for d in r.diagnostics]
    return r.game.checker


def body(ck: Checker, name: str) -> A.Expr:
    b = ck.funcs[name].body
    assert b is not None
    return b


# ---------------------------------------------------------------- types that hold for every call
def test_a_polymorphic_function_runs_for_each_kind_of_argument() -> None:
    text = game("  dbl(x): x + x", "      - n = dbl(21)\n      - xs = dbl([1, 2])")
    r = compile_text(text, "dbl.yaml")
    assert r.ok and r.game is not None
    g = Game(r.game, 2)
    state = g.new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])
    values = dict(zip(g.var_names, state.v))
    assert values["n"] == 42
    assert values["xs"] == [1, 2, 1, 2]


def test_a_body_is_annotated_with_the_join_of_its_calls() -> None:
    ck = checked(game("  dbl(x): x + x\n  half(x): x / 2 + x\n  one(x): x + [1]",
                      "      - n = dbl(21)\n      - xs = dbl([1, 2])\n      - n = floor(half(3) + half(2.5))\n"
                      "      - xs = one([2])"))
    assert body(ck, "dbl").ty == T.ANY  # a number in one call, a list in the other
    assert ck.signatures["dbl"] == [(T.INT,), (T.list_of(T.INT),)]
    assert body(ck, "half").ty == T.NUM  # int and number: a number
    assert body(ck, "one").ty == T.list_of(T.INT)  # one signature: its own types
    # The calls keep their precise result types.
    steps = ck.spec.phases[0].after
    assert isinstance(steps[0], A.Assign) and steps[0].value.ty == T.INT
    assert isinstance(steps[1], A.Assign) and steps[1].value.ty == T.list_of(T.INT)


def test_each_signature_is_checked_precisely() -> None:
    text = game("  f(x): x + 1\n  g(h): len(h) + f(h)", "      - n = g([1])\n      - n = f(2)")
    r = compile_text(text, "f.yaml")
    assert [(d.code, d.span.line, d.message) for d in r.diagnostics] == [
        ("C026", 13, "cannot add list of int and int"),  # f checked with a list (its call in g)
        ("C026", 14, "cannot add int and list"),  # so f(h) is a list in g
        ("C001", 21, "'n' holds int, not list")]


def test_a_callee_seen_through_the_join_pass_gives_the_join_of_its_results() -> None:
    ck = checked(game("  id(x): x\n  wrap(x): \"[id(x)]\"",
                      "      - n = len(wrap(1))\n      - n = len(wrap([1]))"))
    call = body(ck, "wrap")
    assert isinstance(call, A.ListLit)
    assert call.items[0].ty == T.ANY  # id gave an int for one call of wrap, a list for the other
    assert isinstance(call.items[0], A.Call) and call.items[0].ref == R.UserFunction(ck.funcs["id"])


# ---------------------------------------------------------------- bounded checking
def test_signatures_are_capped_and_further_calls_share_one_check() -> None:
    args = ["1", "'a'", "true", "[1]", "['a']", "[true]", "[[1]]", "[['a']]", "[[true]]", "[[[1]]]", "2.5"]
    steps = "\n".join(f"      - n = size({a})" for a in args)
    ck = checked(game("  size(x): len([x])", steps))
    sigs = ck.signatures["size"]
    assert len(sigs) == MAX_SIGNATURES + 1
    assert sigs[-1] == (T.ANY,)


def test_argument_types_are_cut_at_four_levels_of_lists() -> None:
    calls = "w(" * 30 + "1" + ")" * 30
    ck = checked(game("  w(x): \"[x]\"", f"      - n = len({calls})"))
    assert all(T.bounded(s[0], TYPE_DEPTH) == s[0] for s in ck.signatures["w"])
    deepest = T.list_of(T.list_of(T.list_of(T.list_of(T.ANY))))
    assert (deepest,) in ck.signatures["w"]


def chain(n: int, params: int = 3) -> str:
    ps = ", ".join("abc"[:params])
    lines = [f"  f0({ps}): " + " + ".join(f"len([{p}])" for p in "abc"[:params])]
    for i in range(1, n):
        p = f"f{i - 1}"
        if params == 3:
            calls = [f"{p}(a, b, c)", f"{p}([a], b, c)", f"{p}(b, c, a)", f"{p}(c, [a], b)", f"{p}(b, a, [c])"]
        else:
            calls = [f"{p}(a, b)", f"{p}([a], b)", f"{p}(b, [a])", f"{p}([b], [a])", f"{p}(a, [b])"]
        lines.append(f"  f{i}({ps}): " + " + ".join(calls))
    top = f"f{n - 1}(1, 'x', true)" if params == 3 else f"f{n - 1}(1, 'x')"
    return game("\n".join(lines), over=f"deal_number >= 1 or {top} > 0")


def test_an_exponential_chain_of_signatures_checks_in_linear_time() -> None:
    t = time.process_time()
    ck = checked(chain(20))
    spent = time.process_time() - t
    checks = sum(len(s) for s in ck.signatures.values())
    assert checks <= 20 * (MAX_SIGNATURES + 1)
    assert spent < 2.0, f"checking took {spent:.2f} s of CPU"
    ck2 = checked(chain(20, params=2))
    assert sum(len(s) for s in ck2.signatures.values()) <= 20 * (MAX_SIGNATURES + 1)


# ---------------------------------------------------------------- nesting through calls
WRAPS = ["(1 + {})", "-{}", "abs({})", "({} * 2)", "(let q{k} = 1; {} + q{k})", "max({}, 1)"]


def nested(kinds: list[int], inner: str) -> str:
    s = inner
    for k, w in enumerate(kinds):
        s = WRAPS[w].format(s, k=k)
    return s


def levels(kinds: list[int]) -> int:
    """Levels each wrapper adds above what it wraps (max(x, 1) and abs(x): 1; let ...; x + q: 2)."""
    return sum(2 if WRAPS[w].startswith("(let") else 1 for w in kinds)


# One function of a chain: how deep it nests (wrappers taken in turn from WRAPS, from a start), and
# whether it calls the next function beside that nesting rather than at its bottom.
FUNCTION = st.tuples(st.integers(0, 50), st.integers(0, len(WRAPS) - 1), st.booleans()).map(
    lambda t: ([(t[1] + j) % len(WRAPS) for j in range(t[0])], t[2]))


@given(st.integers(1, 50).flatmap(lambda n: st.lists(FUNCTION, min_size=n, max_size=n)))
def test_chains_of_calls_nested_at_random_validate_or_give_c036(spec: list[tuple[list[int], bool]]) -> None:
    n = len(spec)
    lines = []
    depth_below = 0
    depths = []
    for i in reversed(range(n)):
        kinds, beside = spec[i]
        call = f"f{i + 1}(x)" if i < n - 1 else "x"
        lv = levels(kinds)
        if i == n - 1:
            text, d = nested(kinds, "x"), lv + 1
        elif beside:  # the call sits at level 2, beside the nesting
            text, d = f"{call} + " + nested(kinds, "x"), max(lv + 2, 2 + depth_below)
        else:  # the call at the bottom of the nesting, its argument one level below
            text, d = nested(kinds, call), max(lv + 2, lv + 1 + depth_below)
        lines.append(f"  f{i}(x): \"{text}\"")
        depths.append(d)
        depth_below = d
    r = compile_text(game("\n".join(reversed(lines)), over="f0(1) > 0"), "chain.yaml")
    codes = {d.code for d in r.diagnostics}
    assert codes <= {"C036"}, [(d.code, d.message) for d in r.diagnostics]
    assert all(d.span.line > 1 for d in r.diagnostics)
    assert r.ok == (2 + depth_below <= 240), (depth_below, [d.message for d in r.diagnostics])
    spec_ = r.game.spec if r.game is not None else None
    if spec_ is not None:
        assert nesting_depths(spec_.functions)["f0"] == depth_below


def test_forty_functions_nested_near_the_parser_limit() -> None:
    lines = [f"  f{i}(x): \"" + "(1 + " * 55 + (f"f{i + 1}(x)" if i < 39 else "x") + ")" * 55 + "\""
             for i in range(40)]
    r = compile_text(game("\n".join(lines), over="f0(1) > 0"), "forty.yaml")
    (d,) = r.diagnostics
    line = next(i for i, t in enumerate(game("\n".join(lines)).splitlines(), 1) if t.startswith("  f35("))
    assert d.code == "C036" and d.hint and "'f36'" in d.message and d.span.line == line


# ---------------------------------------------------------------- the compiler's analyses
def spec_of(text: str) -> GameSpec:
    diags: list[Diagnostic] = []
    root = load("a.yaml", text, diags, DEFAULT_LIMITS)
    assert root is not None
    spec = read_spec("a.yaml", root, diags, DEFAULT_LIMITS)
    assert spec is not None
    return spec


@pytest.mark.slow
def test_nesting_depths_of_a_long_chain_need_no_recursion() -> None:
    n = 5000
    define = "\n".join(f"  f{i}(x): f{i + 1}(x) + 1" for i in range(n)) + f"\n  f{n}(x): x"
    spec = spec_of(game(define))
    depths = nesting_depths(spec.functions)
    assert depths["f0"] == 2 * n + 1


def test_order_analysis_gives_up_conservatively_beyond_its_depth() -> None:
    define = "\n".join(f"  f{i}(h): sum([c for c in h]) + f{i + 1}(h)" for i in range(90)) + \
        "\n  f90(h): len(h)"
    text = game(define, "      - n = f0(xs)")
    r = compile_text(text, "o.yaml")
    assert r.ok and r.game is not None
    spec = r.game.spec
    fns = {f.name: f for f in spec.functions}
    assert order_free_params(spec, fns["f85"]) == {"h"}
    # f0 follows 90 calls, each 2 levels down: deeper than ORDER_DEPTH, so "depends on the order".
    assert 90 * 2 > ORDER_DEPTH
    assert order_free_params(spec, fns["f0"]) == set()
    assert {f"f{i}" for i in range(91)} <= pure_functions(spec)


def test_order_analysis_follows_few_kinds_per_function() -> None:
    r = compile_text(chain(12, params=2).replace("len([a]) + len([b])", "len(a) + len(b)")
                     .replace("(1, 'x')", "([1], [2])"), "o.yaml")
    assert r.ok and r.game is not None, [d.message for d in r.diagnostics]
    a = _Order({f.name: f for f in r.game.spec.functions})
    a.call("f11", ("bag", "free"), top=True)
    assert all(n <= 8 for n in a.tried.values())
    b = r.game.spec.functions[1].body
    assert b is not None and any(isinstance(n, A.Call) for n in A.walk(b))
