"""The expression language on its own: every operator and library function, and the checker's errors."""

from __future__ import annotations

import re
from typing import Any

import pytest
from cardsmith.dsl.compiler import compile_probe
from cardsmith.dsl.diagnostics import Diagnostic, Span
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import game_with

# The base game (tests/fixtures/base.yaml) with options, constants, card properties, variables and functions.
MINI = "\n" + game_with(
    game="Mini",
    options="""\
bonus: {type: int, default: 2, min: 0, max: 5}
style: {type: choice, values: [plain, fancy], default: plain}
""",
    constants="table: {1: 10, 2: 20}\n",
    deck="""\
suits: [clubs, hearts]
ranks: ['2', '3', K, A]
properties:
  value: {by_rank: {'2': 2, '3': 3, K: 10, A: 11}}
  red: {by_suit: {hearts: true}, default: false}
  double: 2 * rank_index
""",
    variables="""\
score: {type: int, per_player: true}
best: {type: player, initial: none}
seen: {type: cards}
""",
    define="""\
total(h): sum([c.value for c in h])
twice(x): x * 2
""",
)


@pytest.fixture(scope="module")
def game() -> tuple[Any, Game, State]:
    loaded = compile_text(MINI, "mini.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    g = Game(loaded.game, 2)
    s = State.initial(g, 1)
    # Fix the hands: P0 holds A and 2 of hearts, P1 the K and 3 of clubs.
    for zi in range(len(s.z)):
        s.z[zi] = []
    names = {"hand[0]": ["A of hearts", "2 of hearts"], "hand[1]": ["K of clubs", "3 of clubs"],
             "pile": ["A of clubs"]}
    used = set()
    for zname, cards in names.items():
        zi = g.zone_names.index(zname)
        for n in cards:
            c = g.card_id(n)
            s.z[zi].append(c)
            s.loc[c] = zi
            used.add(c)
    for c in range(g.num_cards):
        if c not in used:
            s.z[0].append(c)
            s.loc[c] = 0
    s.legal = None
    return loaded.game, g, s


def ev(game: tuple[Any, Game, State], text: str) -> Any:
    compiled, g, s = game
    diags: list[Diagnostic] = []
    code = compile_probe(compiled, text, lambda ln, col: Span("t", ln, col), diags)
    assert code is not None, [d.message for d in diags]
    return eval(code, g.ns)(s)


def errors(game: tuple[Any, Game, State], text: str) -> list[str]:
    compiled, _, _ = game
    diags: list[Diagnostic] = []
    compile_probe(compiled, text, lambda ln, col: Span("t", ln, col), diags)
    return [d.message for d in diags]


@pytest.mark.parametrize("text,expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 // 2", 3), ("7 % 3", 1), ("7 mod 3", 1), ("7 / 2", 3.5),
    ("-3 + 1", -2), ("1 < 2 <= 2", True), ("1 < 2 < 2", False), ("2 in [1, 2]", True),
    ("3 not in [1, 2]", True), ("true and not false", True), ("false or true", True),
    ("if 1 > 2 then 'a' else 'b'", "b"), ("let x = 2; y = x + 1; x * y", 6),
    ("[x * x for x in range(1, 4)]", [1, 4, 9]), ("[x for x in range(0, 6) if x % 2 == 0]", [0, 2, 4]),
    ("sum(x for x in range(1, 5))", 10), ("len([1, 2, 3])", 3), ("count([1, 2, 3], x => x > 1)", 2),
    ("count([1, 2])", 2), ("max([3, 9, 4])", 9), ("max(3, 9, 4)", 9), ("min([3, 9, 4])", 3), ("min(5, 2)", 2),
    ("max_by([3, 9, 4], x => -x)", 3), ("min_by([3, 9, 4], x => -x)", 9),
    ("max_by([1, 2, 3, 4], x => x % 2)", 1), ("all_max_by([1, 2, 3, 4], x => x % 2)", [1, 3]),
    ("all_min_by([1, 2, 3, 4], x => x % 2)", [2, 4]), ("sort_by([3, 1, 2], x => -x)", [3, 2, 1]),
    ("sort([3, 1, 2])", [1, 2, 3]), ("reverse([1, 2, 3])", [3, 2, 1]), ("any([false, true])", True),
    ("all([true, false])", False), ("all([])", True), ("first([5, 6])", 5), ("last([5, 6])", 6),
    ("top([1, 2, 3], 2)", [2, 3]), ("bottom([1, 2, 3], 2)", [1, 2]),
    ("group_by([1, 2, 3, 4], x => x % 2)", [[1, 3], [2, 4]]), ("unique([1, 2, 1, 3])", [1, 2, 3]),
    ("unique([[1, 2], [3], [1, 2], []])", [[1, 2], [3], []]),
    ("flatten([[1], [2, 3]])", [1, 2, 3]), ("sum(flatten([[1, 2], [3]]))", 6),
    ("len(flatten([hand[0], hand[1], pile]))", 5), ("index_of([4, 5], 5)", 1), ("index_of([4, 5], 6)", -1),
    ("abs(-4)", 4), ("floor(3.7)", 3), ("ceil(3.2)", 4), ("[1] + [2]", [1, 2]),
    ("left(1)", 0), ("right(0)", 1), ("next_active(0)", 1), ("is_active(1)", True),
    ("num_players", 2), ("players", [0, 1]), ("active_players", [0, 1]), ("suits", ["clubs", "hearts"]),
    ("ranks", ["2", "3", "K", "A"]), ("bonus", 2), ("style", "plain"), ("table[2]", 20),
    ("total(hand[0])", 13), ("twice(4)", 8), ("len(pile)", 1), ("first(pile).suit", "clubs"),
    ("first(pile).rank", "A"), ("first(pile).value", 11), ("first(pile).red", False),
    ("first(hand[0]).red", True), ("first(pile).rank_index", 3), ("first(pile).double", 6),
    ("first(pile).name", "A of clubs"), ("[c.rank for c in hand[1]]", ["K", "3"]),
    ("score[1]", 0), ("best", None), ("seen", []), ("dealer", 0), ("deal_number", 1), ("phase", "main"),
    ("phase == 'main'", True),
    ("[[x, y] for x in range(0, 3) for y in range(0, 3) if x < y]", [[0, 1], [0, 2], [1, 2]]),
    ("[x * 10 + y for x in range(1, 3) if x > 1 for y in range(0, x)]", [20, 21]),
    ("sum(x * y for x in range(1, 3) for y in range(1, 3))", 9),
    ("len([[a, b] for a in hand[0] for b in hand[1] if a.suit != b.suit])", 4),
    ("[[x, y, z] for x in [1] for y in [x + 1] for z in [y + 1]]", [[1, 2, 3]]),
    # Remainders have the divisor's sign, as Python's (docs/language.md, "Remainders and negative numbers").
    ("-7 % 3", 2), ("-7 mod 3", 2), ("7 % -3", -2), ("-7 % -3", -1), ("-(7 % 3)", -1), ("-7 // 2", -4),
    ("-7.5 % 2", 0.5), ("(0 - 1) mod num_players", 1),
    # Cards have no literal: a card is found by its suit and rank, or compared by its name (not checked).
    ("first([c for c in pack if c.suit == 'clubs' and c.rank == 'A']) == first(pile)", True),
    ("first(pile).name == 'A of clubs'", True), ("first(pile).name == 'A of clbs'", False),
])
def test_expressions(game: Any, text: str, expected: Any) -> None:
    assert ev(game, text) == expected


@pytest.mark.parametrize("text,message", [
    ("nope", "unknown name 'nope'"),
    ("len(1, 2)", "'len' takes 1 argument, got 2"),
    ("1 + 'a'", "'+' needs numbers, not text"),
    ("first(pile).colour", "cards have no property 'colour'"),
    ("first(pile).suit == 'spades'", "'spades' is not a suit of the deck"),
    ("first(pile).rank == 'Q'", "'Q' is not a rank of the deck"),
    ("hand", "'hand' is kept per player: write hand[p]"),
    ("score + 1", "'score' is kept per player: write score[p]"),
    ("frobnicate(1)", "unknown function 'frobnicate'"),
    ("max_by([1], 2)", "expected a function here, written 'x => expression'"),
    ("x => x", "a function 'x => ...' can only be an argument of max_by, sort_by, ..."),
    ("1 in 2", "'in' needs a list on its right, not int"),
    ("not 3", "'not' must be bool, not int"),
    ("total", "'total' is a function: call it as total(...)"),
    ("sum(['a'])", "'sum' needs a list of numbers, not list of text"),
    ("sum(flatten([hand[0], pile]))", "'sum' needs a list of numbers, not cards"),
    ("flatten([1, 2])", "'flatten' needs a list of lists, not list of int"),
    ("phase == 'mian'", "'mian' is not a phase of the game"),
    ("phase + 1", "'+' needs numbers, not text"),
    ("[x for x in [1] for y in x]", "'for ... in' needs a list, not int"),
    ("first(pile) == 'A of clubs'", "cannot compare card with text"),
    ("first(pile) in ['A of clubs']", "a card is never in list of text"),
])
def test_checker_errors(game: Any, text: str, message: str) -> None:
    assert message in errors(game, text)


def test_rule_runtime_errors_are_located() -> None:
    broken = "  broken(): max([c.value for c in pile if c.value > 99])"
    src = MINI.replace("  twice(x): x * 2", "  twice(x): x * 2\n" + broken)
    src = src.replace("      - if: len(hand[player]) == 0",
                      "      - let z = broken()\n      - if: len(hand[player]) == 0")
    loaded = compile_text(src, "mini.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    g = Game(loaded.game, 2)
    s = State.initial(g, 3)
    from cardsmith.engine.errors import RuleError
    with pytest.raises(RuleError) as info:
        s.apply_action(s.legal_actions()[0])
    text = str(info.value)
    line = src.splitlines().index(broken) + 1
    assert text.startswith(f"mini.yaml:{line}:"), text
    assert "max() of an empty list" in text
    assert "in phase 'main'" in text


def _first_rule_error(old: str, new: str, observe: bool) -> tuple[str, Any]:
    """MINI with one text replaced, played (observing each state if asked) until its first rule error."""
    from cardsmith.engine.errors import RuleError
    assert old in MINI
    src = MINI.replace(old, new)
    loaded = compile_text(src, "mini.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    with pytest.raises(RuleError) as info:
        s = State.initial(Game(loaded.game, 2), 3)
        for _ in range(100):
            if observe:
                s.observation(0)
            if s.is_terminal():
                break
            s.apply_action(s.legal_actions()[0])
    return src, info.value


@pytest.mark.parametrize("old,new,message,context", [
    ("    - deal 2 from stock to hand\n", "    - deal 2 from stock to hand\n    - score[0] = 1 // (deal_number - 1)\n",
     "division by zero", "while dealing deal 1 (dealer P0); stock: 4 cards; hand[0]: 2 cards; pile: empty"),
    ("    - deal 2 from stock to hand\n", "    - deal 2 from stock to hand\n    - score[num_players] = 1\n",
     "a player must be a seat from 0 to 1",
     "while dealing deal 1 (dealer P0); stock: 4 cards; hand[0]: 2 cards; pile: empty"),
    ("    - deal 2 from stock to hand\n", "    - deal 2 from stock to hand\n    - score[0] = 1 // (deal_number - 2)\n",
     "division by zero", "while dealing deal 2 (dealer P1); stock: 4 cards; hand[0]: 2 cards; pile: empty"),
    ("match:\n", "match:\n  start: [\"best = players[5]\"]\n", "a list position that does not exist",
     "while the match starts, before the first deal; stock: 8 cards; hand[0]: empty; pile: empty"),
    ("  winners: players", "  winners: players\n  end_deal: [\"score[0] = 1 // (deal_number - 2)\"]",
     "division by zero",
     "at the end of deal 2; stock: 4 cards; hand[0]: empty; pile: 3 of clubs, 2 of hearts, K of clubs"),
    ("  winners: players", "  winners: \"[players[9]]\"", "a list position that does not exist",
     "at the end of deal 2; stock: 4 cards; hand[0]: empty; pile: 3 of clubs, 2 of hearts, K of clubs"),
], ids=["deal-1", "deal-seat-out-of-range", "deal-2", "match-start", "end-deal", "winners"])
def test_rule_errors_outside_a_phase_say_where_they_happened(old: str, new: str, message: str,
                                                            context: str) -> None:
    """`match: start`, `match: deal` and the end of a deal run outside any phase: a rule error there says so,
    not "in phase 'main'" of a phase the deal has not entered yet (or the previous deal's last one)."""
    src, error = _first_rule_error(old, new, observe=False)
    at = next(x for x in new.splitlines() if x not in old.splitlines())
    assert error.span is not None and error.span.line == src.splitlines().index(at) + 1
    assert error.message == message
    assert error.context == context
    assert "in phase" not in str(error)


def test_names_cannot_reach_python(game: Any) -> None:
    for text in ("__import__('os')", "open('x')", "getattr(pile, 'x')", "first(pile).__class__",
                 "eval('1')", "exec('1')", "globals()", "s", "l_c"):
        assert errors(game, text), text


def test_python_tags_are_refused() -> None:
    bad = MINI.replace("game: Mini", "game: !!python/object/apply:os.system ['echo hi']")
    loaded = compile_text(bad, "mini.yaml")
    assert not loaded.ok
    assert any(d.code == "E001" and d.span.line == 2 for d in loaded.diagnostics)


@pytest.mark.parametrize("old,new,message,detail", [
    ("    actions: [play]\n", "    first: 7\n    actions: [play]\n",
     "'first' of phase 'main' must give a player (0 to 1)", "got 7"),
    ("  winners: players", "  winners: none", "'winners' must give a list of players (0 to 1)", "got none"),
    ("  winners: players", "  winners: \"[0, 9]\"", "'winners' must give a list of players (0 to 1)",
     "got [0, 9]"),
    ("  over_when: deal_number >= 2", "  over_when: deal_number >= 2\n  next_dealer: none",
     "'next_dealer' must give a player (0 to 1)", "got none"),
    ("  pile: {}", "  pile: {visible: \"(none)\"}", "'visible' of zone 'pile' must give a list of players",
     "got none"),
])
def test_values_the_engine_relies_on_are_checked_where_they_are_written(old: str, new: str, message: str,
                                                                        detail: str) -> None:
    """`none` and numbers pass the checker as players (it cannot know their values); the engine refuses them
    as a rule error at the line that wrote them, not as a Python error elsewhere. The value itself is the
    designer's detail, not part of the message a player may see."""
    src, error = _first_rule_error(old, new, observe=True)
    text = str(error)
    at = next(x for x in new.splitlines() if x not in old.splitlines())  # the line that wrote the value
    line = src.splitlines().index(at) + 1
    assert text.startswith(f"mini.yaml:{line}:"), text
    assert message in text
    assert detail not in text
    assert error.detail == detail


@pytest.mark.parametrize("text,message", [
    ("combinations(range(0, 40), 20)", "combinations() of more than 100,000 lists"),
    ("subsets(range(0, 17))", "subsets() of more than 100,000 lists"),
    ("packings([[x] for x in range(0, 17)])", "packings() of more than 100,000 lists"),
    ("combinations([1, 2], 0 - 1)", "combinations() needs a whole number of items, 0 or more"),
    ("len(packings([[[1]], [[2]]]))", "packings() needs groups of cards, players, numbers or text"),
])
def test_combination_functions_refuse_results_too_large_to_build(game: Any, text: str, message: str) -> None:
    from cardsmith.dsl.library import RuleRuntimeError
    with pytest.raises(RuleRuntimeError, match=re.escape(message)):
        ev(game, text)


def test_combination_functions() -> None:
    from cardsmith.dsl.library import f_combinations, f_packings, f_subsets
    assert f_combinations([1, 2, 3], 3) == [[1, 2, 3]] and f_combinations([1, 2], 3) == []
    assert len(f_combinations(list(range(20)), 6)) == 38760
    assert len(f_subsets(list(range(16)))) == 65536
    assert f_packings([]) == [[]]
    # Every choice of pairwise disjoint groups, once each: the independent sets of the overlap graph.
    groups = [[1, 2], [2, 3], [3, 4], [4, 5], [6]]
    got = f_packings(groups)
    assert len(got) == len({tuple(map(tuple, p)) for p in got}) == 16
    assert all(len(set(x for g in p for x in g)) == sum(len(g) for g in p) for p in got)
