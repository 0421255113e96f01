"""The compiler's optimisations must never change what a rule means."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from cardsmith.cli.emit import annotated
from cardsmith.dsl.codegen.writer import WIDTH, fold
from cardsmith.dsl.compiler import compile_probe, order_free_params, pure_functions
from cardsmith.dsl.diagnostics import Span
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import CHANCE, State
from conftest import GAME_FILES, GAMES_DIR
from conftest import compiled as compiled_file

BASE = """
game: T
players: {min: 2, max: 3}
deck: {suits: [a, b, c], ranks: ['1', '2', '3', '4']}
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  pile: {}
variables:
  n: {type: int}
define:
  total(h): sum([c.rank_index for c in h])
  head(h): first(h).rank_index
  wrapped(h): total(h) + head(h)
  distinct(h): len(unique([c.suit for c in h]))
  best(h): max_by(h, c => c.rank_index).suit
  reads_state(h): len(h) + n
actions:
  play:
    params: {c: "hand[player]"}
    when: len(pile) < 100 and c.rank_index >= 0
    effect: [move c to pile]
phases:
  main:
    actions: [play]
    after:
      - n = total(hand[player]) + head(pile) + wrapped(pile) + distinct(pile)
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  start: [pick d from players, dealer = d]
  deal: [move pack to stock, shuffle stock, deal 3 from stock to hand, goto main]
  over_when: deal_number >= 2
  winners: players
"""


def compiled():
    r = compile_text(BASE, "t.yaml")
    assert r.ok, r.diagnostics
    return r.game


def test_pure_functions_exclude_state_readers() -> None:
    spec = compiled().spec
    pure = pure_functions(spec)
    assert {"total", "head", "wrapped", "distinct", "best"} <= pure
    assert "reads_state" not in pure


def test_order_analysis_is_conservative() -> None:
    spec = compiled().spec
    fns = {f.name: f for f in spec.functions}
    assert order_free_params(spec, fns["total"]) == {"h"}
    assert order_free_params(spec, fns["distinct"]) == {"h"}
    # first() and max_by() (first of equals) depend on the order of their list.
    assert order_free_params(spec, fns["head"]) == set()
    assert order_free_params(spec, fns["best"]) == set()
    assert order_free_params(spec, fns["wrapped"]) == set()


def test_memoized_functions_agree_with_direct_evaluation() -> None:
    game = compiled()
    g = Game(game, 3)
    ns = g.ns
    rng = random.Random(4)
    s = State.initial(g, 1)
    for _ in range(300):
        h = rng.sample(range(g.num_cards), rng.randint(1, 4))
        for name in ("total", "head", "wrapped", "distinct"):
            memo = ns[f"fn_{name}"](s, h)
            direct = ns[f"fi_{name}"](s, h) if f"fi_{name}" in ns else memo
            assert memo == direct, (name, h)


def test_hoisted_conditions_give_the_same_legal_actions() -> None:
    game = compiled()
    g = Game(game, 2)
    s = State.initial(g, 3)
    hand = s.z[g.zone_names.index(f"hand[{s.cur}]")]
    assert s.legal_actions() == sorted(g.actions[0].offset + c for c in hand)


def test_pick_is_a_chance_event() -> None:
    g = Game(compiled(), 3)
    s = State.initial(g, None)
    assert s.current_player() == CHANCE
    assert [o for o, _ in s.chance_outcomes()] == [0, 1, 2]
    s.apply_action(2)
    # The shuffle comes next: card ids, one position at a time.
    assert s.current_player() == CHANCE
    while s.current_player() == CHANCE:
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.dealer == 2 and s.current_player() == 0


def test_variants_merge_and_point_into_their_own_file(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(BASE)
    (tmp_path / "child.yaml").write_text(
        "extends: base.yaml\n"
        "game: Child\n"
        "define:\n"
        "  total(h): 2 * sum([c.rank_index for c in h])\n"
        "  totl(h): 1\n"
        "new:\n"
        "  define:\n"
        "    extra(x): x + 1\n"
        "remove:\n"
        "  define: [best]\n")
    r = compile_file(tmp_path / "child.yaml")
    assert [(d.code, d.span.line, d.span.col) for d in r.diagnostics] == [("X001", 5, 3)]
    assert "did you mean 'total'?" in (r.diagnostics[0].hint or "")
    (tmp_path / "child.yaml").write_text(
        "extends: base.yaml\ngame: Child\ndefine:\n  total(h): 2 * sum([c.rank_index for c in h])\n"
        "new:\n  define:\n    extra(x): x + 1\nremove:\n  define: [best]\n")
    r = compile_file(tmp_path / "child.yaml")
    assert r.ok and r.game is not None, r.diagnostics
    names = [f.name for f in r.game.spec.functions]
    assert names[:2] == ["total", "head"] and "best" not in names and names[-1] == "extra"
    assert r.game.spec.name == "Child"


# ---------------------------------------------------------------- generated lines people read
@pytest.mark.parametrize("path", [str(p) for p in GAME_FILES], ids=[p.stem for p in GAME_FILES])
def test_generated_lines_fit_in_120_characters(path: str) -> None:
    game = compiled_file(path)
    assert max(len(x) for x in game.source.splitlines()) <= WIDTH
    assert max(len(x) for x in annotated(game).splitlines()) <= WIDTH


@pytest.mark.parametrize("path", [str(p) for p in GAME_FILES], ids=[p.stem for p in GAME_FILES])
def test_folding_lines_keeps_the_code(path: str) -> None:
    # Folded much narrower, every bundled game's module is still the same Python.
    source = compiled_file(path).source
    narrow = "\n".join(piece for line in source.splitlines() for piece in fold(line, 40)) + "\n"
    assert len(narrow.splitlines()) > len(source.splitlines())
    assert ast.dump(ast.parse(narrow)) == ast.dump(ast.parse(source))


def test_a_line_with_no_break_inside_brackets_stays_whole() -> None:
    line = "    x = " + " + ".join(f"a{i}" for i in range(60))
    assert fold(line) == [line]
    assert fold("    y = 'a, b, c, d, e, f, g, h, i, j, k, l, m, n, o'", 20) == \
        ["    y = 'a, b, c, d, e, f, g, h, i, j, k, l, m, n, o'"]


@pytest.mark.parametrize("path", [str(p) for p in GAME_FILES], ids=[p.stem for p in GAME_FILES])
def test_the_module_holds_only_define_functions_the_rules_call(path: str) -> None:
    game = compiled_file(path)
    tree = ast.parse(game.source)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("fn_")}
    for name in defined:
        own = (name, "fi_" + name[3:])  # a memoized function's wrapper and body
        elsewhere = [n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name in own)]
        assert any(isinstance(x, ast.Name) and x.id == name for n in elsewhere for x in ast.walk(n)), name
    # The others are compiled apart and can still be called by name (scenario checks, tools).
    spare = {n.name for n in ast.parse(game.spare_source).body if isinstance(n, ast.FunctionDef)}
    g = Game(game, game.spec.min_players)
    assert not spare & defined and all(callable(g.ns[n]) for n in spare)


def test_a_define_function_the_rules_never_call_answers_a_probe() -> None:
    game = compiled_file(str(GAMES_DIR / "stichln.yaml"))
    assert "def fn_minus_colour(" in game.spare_source and "def fn_minus_colour(" not in game.source
    g = Game(game, 4)
    s = State.initial(g, 5)
    minus = s.z[g.zone_names.index("minus[1]")]
    while not minus:
        s.apply_action(s.legal_actions()[0])
        minus = s.z[g.zone_names.index("minus[1]")]
    code = compile_probe(game, "minus_colour(1)", lambda ln, col: Span("t", ln, col), [])
    assert eval(code, g.ns)(s) == g.card_names[minus[0]].split(" of ")[1]
