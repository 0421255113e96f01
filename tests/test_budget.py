"""The step budget bounds the work of one move, whatever the rules do (interpreter/engine/budget.py).

Each case is a small game whose `after:` step does some kind of work on a list of 1,000 numbers, 200 times
over. With the budget lowered to 50,000 units the move must stop with a located R004 at that step; with one
round instead of 200 the same step runs. So every way to walk, build or copy a list, call a function or
enumerate an action is charged, and charged for its size, not once.
"""

from __future__ import annotations

from typing import Any

import pytest
from cardsmith.dsl.limits import Limits
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.errors import RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State

GAME = """\
game: Budget
players: 2
deck:
  suits: [a, b]
  ranks: ['1', '2', '3']
zones:
  stock: {}
  hand: {per_player: true}
variables:
  xs: {type: numbers}
  ys: {type: numbers}
  n: {type: number}
define:
  DEFINE
actions:
  go: {}
phases:
  main:
    actions: [go]
    after:
      - xs = range(0, 1000)
      - for: i in range(0, ROUNDS)
        do: [STEP]
      - end deal
match:
  deal:
    - move pack to stock
    - goto main
  over_when: deal_number >= 2
  winners: players
"""


# A small budget, so a runaway rule is stopped in a moment; the limits are passed in, never set globally.
SMALL = Limits(steps=50_000)


def source(step: str, rounds: int, define: str) -> str:
    return GAME.replace("STEP", step).replace("ROUNDS", str(rounds)).replace("DEFINE", define)


def play(step: str, rounds: int, define: str = "unused(x): x", limits: Limits = SMALL) -> State:
    text = source(step, rounds, define)
    loaded = compile_text(text, "budget.yaml", limits)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    s = State.initial(Game(loaded.game, 2), 1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    return s


CASES = [
    '"n = sum(xs)"', '"n = max(xs)"', '"n = min(xs)"', '"ys = sort(xs)"', '"ys = reverse(xs)"',
    '"ys = unique(xs)"', '"n = index_of(xs, 999)"', '"ys = top(xs, 1000)"', '"ys = bottom(xs, 1000)"',
    '"n = len(flatten([xs]))"', '"n = count(xs, x => x > 5)"', '"n = max_by(xs, x => x)"',
    '"ys = sort_by(xs, x => x)"', '"n = len(group_by(xs, x => x))"',
    '"n = if any([x > 2000 for x in xs]) then 1 else 0"',
    '"n = if 999 in xs then 1 else 0"', '"n = if xs == ys then 1 else 0"', '"n = len(range(0, 1000))"',
    '"n = len(xs + xs)"', '"ys = xs"', '"let zs = xs"', '"n = len([x for x in xs])"',
    '{for: "x in xs", do: ["n = x"]}', '"n = f(xs)"', '"n = g(xs)"',
]
DEFINE = "\n  ".join(["f(zs): sum([z * 2 for z in zs])", "\"g(zs)\": \"len(zs) + h(zs)\"", "h(zs): max(zs)"])


@pytest.mark.parametrize("step", CASES)
def test_every_walk_is_charged(step: str) -> None:
    play(step, 1, DEFINE)  # one round fits in the budget
    with pytest.raises(RuleError) as info:
        play(step, 200, DEFINE)
    e = info.value
    assert e.code == "R004", str(e)
    assert e.span is not None, str(e)
    # Located at the step, or inside the function it calls.
    line = source(step, 200, DEFINE).splitlines()[e.span.line - 1]
    assert "do: [" in line or line.startswith("  ") and "(zs)" in line, (line, str(e))


def test_appending_in_a_loop_is_charged_for_each_copy() -> None:
    """`ys += [i]` copies the list (states share lists between clones): n appends cost n*n/2."""
    play('"ys += [i]"', 100)
    with pytest.raises(RuleError) as info:
        play('"ys += [i]"', 1000)  # 500,000 items copied in all
    assert info.value.code == "R004"


def test_calls_are_charged_for_the_size_of_their_body() -> None:
    big = "sum([" + ", ".join(["z"] * 200) + ", n])"  # reads the state: not memoized
    play('"n = k(1)"', 10, f"k(z): {big}")
    with pytest.raises(RuleError) as info:
        play('"n = k(1)"', 400, f"k(z): {big}")  # 400 calls of 400 nodes
    assert info.value.code == "R004"


def test_numbers_stay_within_ten_to_the_eighteen() -> None:
    play('"n = n + 1"', 100)
    with pytest.raises(RuleError) as info:
        play('"n = n + n + 1"', 100)
    assert "left the range" in info.value.message
    with pytest.raises(RuleError):
        play('"n = d(d(d(d(d(d(n + 1))))))"', 20, "d(z): z + z + z + z + z + z + z + z + z + z")


PARAMS = """\
game: Params
players: 2
deck:
  suits: [a]
  ranks: ['1', '2']
zones:
  stock: {}
actions:
  bid:
    params: {a: "range(0, SIZE)", b: "range(0, SIZE)", c: "range(0, SIZE)"}
    when: a + b + c == 0
phases:
  main:
    actions: [bid]
    after: [end deal]
match:
  deal: [goto main]
  over_when: true
  winners: players
"""


def test_enumerating_action_parameters_is_charged() -> None:
    def legal(size: int) -> list[int]:
        loaded = compile_text(PARAMS.replace("SIZE", str(size)), "params.yaml", SMALL)
        assert loaded.ok and loaded.game is not None, loaded.diagnostics
        return State.initial(Game(loaded.game, 2), 1).legal_actions()

    assert legal(10) == [0]  # 1,000 combinations
    with pytest.raises(RuleError) as info:
        legal(1000)  # 10**9 combinations: stopped after 50,000 units, not after hours
    assert info.value.code == "R004"


def test_memo_tables_hold_a_bounded_number_of_items(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.engine import budget
    monkeypatch.setattr(budget, "MEMO_ITEMS", 5_000)
    s = play('"n = f([i, i + 1, i + 2] + xs)"', 200, "f(zs): sum([z * 2 for z in zs])", Limits(steps=10_000_000))
    memos: Any = s.game.ns["MEMOS"]
    held = sum(sum(len(k) for key in m for k in key if isinstance(k, tuple)) for m in memos)
    assert held <= 5_000


def test_list_variables_hold_a_bounded_number_of_items() -> None:
    few = Limits(steps=50_000, held=5_000)
    play('"ys = xs + xs"', 1, limits=few)
    with pytest.raises(RuleError) as info:
        play('"ys = xs + xs + xs + xs + xs + xs"', 1, limits=few)
    assert "--max-held" in str(info.value.context) or "--max-held" in info.value.message


def test_setting_up_the_pack_is_charged() -> None:
    ranks = ", ".join(f"r{i}" for i in range(2000))
    text = PARAMS.replace("SIZE", "2").replace("ranks: ['1', '2']", f"ranks: [{ranks}]\n  properties:\n"
                                                                 "    heavy: \"len([x for x in range(0, 100)])\"")
    loaded = compile_text(text, "setup.yaml", SMALL)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    with pytest.raises(RuleError) as info:
        Game(loaded.game, 2)  # 2,000 kinds of card, 100 units each
    assert info.value.code == "R004"
    shared = [SMALL.steps]
    Game(loaded.game, 2, limits=Limits(steps=10_000_000))
    with pytest.raises(RuleError):
        # One budget shared by several instances (cardsmith validate builds one per player count).
        for _ in range(100):
            Game(loaded.game, 2, budget=shared)


def _after_one_move(loaded: Any, steps: int) -> State:
    s = State.initial(Game(loaded.game, 2, limits=Limits(steps=steps)), 1)
    s.apply_action(s.legal_actions()[0])
    return s


def test_running_out_on_the_engines_own_work_is_located() -> None:
    """The last units of a move may be the engine's own (entering a phase, starting a deal). Whatever
    charge the budget runs out on, the rule error is located in the rule file."""
    text = source('"n = 1"', 1, "unused(x): x")
    loaded = compile_text(text, "budget.yaml", SMALL)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    big = 1_000_000
    s = _after_one_move(loaded, big)
    used = big - s.game.steps[0]  # what the move (ending one deal, starting the next) cost
    places = set()
    for short in range(1, min(used, 40)):
        with pytest.raises(RuleError) as info:
            _after_one_move(loaded, used - short)
        e = info.value
        assert e.code == "R004" and e.span is not None, e
        assert e.span.file == "budget.yaml" and 1 <= e.span.line <= len(text.splitlines()), e.span
        places.add(text.splitlines()[e.span.line - 1].strip())
    # The very last unit is entering the phase of the new deal: the error points at that phase.
    assert "main:" in places, places


def test_a_report_that_cannot_be_shown_is_located_at_the_report() -> None:
    text = source('"n = f(1)"', 1, "f(x): x").replace("  winners: players", "  winners: players\n"
                                                              "  report:\n    nested: f([[1, 2]])")
    loaded = compile_text(text, "budget.yaml", SMALL)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    s = State.initial(Game(loaded.game, 2), 1, log=True)
    with pytest.raises(RuleError) as info:
        s.apply_action(s.legal_actions()[0])
    e = info.value
    assert e.code == "R001" and e.message.startswith("a report must give a number"), e
    assert e.span is not None and text.splitlines()[e.span.line - 1].strip() == "nested: f([[1, 2]])"


def test_a_deal_variable_too_costly_to_start_is_a_move_of_the_match() -> None:
    """Deal variables are set when each deal starts, during the match: running out there is an R004 of
    that move, at the initial value, with the state's context (not a failure to set the game up)."""
    text = source('"n = 1"', 1, "unused(x): x").replace(
        "  n: {type: number}", "  n: {type: number}\n  m: {type: number, scope: deal, "
        "initial: \"len([x for x in range(0, 100000)])\"}")
    loaded = compile_text(text, "budget.yaml", SMALL)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    with pytest.raises(RuleError) as info:
        State.initial(Game(loaded.game, 2), 1)
    e = info.value
    assert e.code == "R004" and "setting the game up" not in e.message, e
    assert e.span is not None and "range(0, 100000)" in text.splitlines()[e.span.line - 1]
    assert e.context is not None and "stock:" in e.context, e.context  # the state's public context


def test_games_with_different_limits_live_side_by_side() -> None:
    """Limits are passed in (cardsmith.load(..., limits=)), not set globally: a game loaded with a small
    action limit stops at it, while a game with the defaults, played in between, does not."""
    import cardsmith
    short = cardsmith.load("stichln", 3, limits=cardsmith.Limits(actions=5))
    usual = cardsmith.load("stichln", 3)
    assert short.limits.actions == 5 and usual.limits == cardsmith.DEFAULT_LIMITS
    a, b = short.new_initial_state(seed=1), usual.new_initial_state(seed=1)
    with pytest.raises(RuleError) as info:
        for _ in range(10):
            b.apply_action(b.legal_actions()[0])
            a.apply_action(a.legal_actions()[0])
    assert info.value.code == "R003" and "--max-actions" in (info.value.context or "") + info.value.message
    assert b.moves == 6 and not b.is_terminal()


# ---------------------------------------------------------------- what the library builds, and the checklist
BUILDING = [
    # subsets of 10 numbers: 1,024 lists holding 5,120 numbers, charged 6,144 units a round
    '"n = len(subsets(range(0, 10)))"',
    # 435 pairs: 1,305 units a round
    '"n = len(combinations(range(0, 30), 2))"',
    # the 1,024 choices of ten groups of one: 11,264 units a round
    '"n = len(packings([[k] for k in range(0, 10)]))"',
    '"n = len(all_max_by(xs, x => 1))"', '"n = len(all_min_by(xs, x => 1))"', '"n = min_by(xs, x => x)"',
]


@pytest.mark.parametrize("step", BUILDING)
def test_every_list_the_library_builds_is_charged(step: str) -> None:
    """The lists a library function builds are charged for their items, nested ones too: a handful of
    numbers may make thousands of lists."""
    play(step, 1, DEFINE)
    with pytest.raises(RuleError) as info:
        play(step, 200, DEFINE)
    assert info.value.code == "R004", str(info.value)


def test_every_library_function_is_in_a_class_of_charges() -> None:
    """A library function walks or builds lists in one of the ways the compiler charges
    (dsl/codegen/expressions.py), or does a fixed amount of work; a new one must be put in a class here
    and in the compiler, or the budget would not see its work."""
    from cardsmith.dsl.codegen.expressions import BUILDS, WALKS
    from cardsmith.dsl.library import LIBRARY
    with_function = {name for name, f in LIBRARY.items() if "F" in f.sig.split("->")[0]}
    charged = {
        "walks its list": WALKS,
        "builds lists of lists (charged for every nested item)": BUILDS,
        "applies a function to every item (charged items times the function's size)": with_function,
        "walks its first list": {"index_of", "top", "bottom"},
        "builds a list of numbers (charged for its items)": {"range"},
        "builds a list of seats (the engine charges it)": {"teammates"},
    }
    fixed = {"len", "first", "last", "abs", "floor", "ceil", "left", "right", "is_active", "played_by",
             "sitting_out",
             "next_active"}  # at most one look at each seat
    classes = list(charged.values()) + [fixed]
    assert set().union(*classes) == set(LIBRARY), sorted(set(LIBRARY) ^ set().union(*classes))
    assert sum(len(c) for c in classes) == len(set().union(*classes)), "a function in two classes"


def _units(step: str, define: str, function: str | None = None) -> int:
    """The units of work one move costs (the move runs STEP once), less the static sizes that differ with
    how the step is written: the `for` step's body it stands in, and `function`'s body."""
    from cardsmith.dsl import ast as A
    from cardsmith.dsl import weights
    loaded = compile_text(source(step, 1, define), "budget.yaml", SMALL)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    spec = loaded.game.spec
    loop = next(st for st in spec.phases[0].after if isinstance(st, A.For))
    sizes = weights.size(loop.body) + sum(weights.size(f.body) for f in spec.functions if f.name == function)
    big = 10_000_000
    s = State.initial(Game(loaded.game, 2, limits=Limits(steps=big)), 1)
    s.apply_action(s.legal_actions()[0])
    return big - s.game.steps[0] - sizes


def test_a_walk_charged_before_its_step_costs_what_it_costs_where_it_runs() -> None:
    """A walk an expression is sure to make over a list known before it runs is charged in statement
    context (dsl/codegen/charges.py); the same walk where it may not run is charged as it starts."""
    for walk in ("sum([x * 2 for x in xs])", "count(xs, x => x > 5)", "max(xs)", "len([p for p in players])",
                 "len(xs + [1, 2])", "len([x + 1 for x in xs + xs])", "if 7 in xs then 1 else 0"):
        sure = _units(f'"n = {walk}"', "unused(x): x")
        maybe = _units(f'"n = if n > -1 then {walk} else 0"', "unused(x): x")
        assert sure == maybe, walk


def test_a_walk_charged_on_entry_to_a_function_costs_what_it_costs_where_it_runs() -> None:
    sure = _units('"n = f(xs)"', "f(zs): sum([z * 2 for z in zs]) + n", "f")
    maybe = _units('"n = f(xs)"', "f(zs): if n > -1 then sum([z * 2 for z in zs]) else 0", "f")
    assert sure == maybe > 3000


def test_a_range_walked_is_charged_once_for_its_numbers_and_once_per_item_walked() -> None:
    """`_it(f_range(a, b), w + 1)`: the range's own charge and the walk's, in one call."""
    plain = _units('"n = 0"', "unused(x): x")
    assert _units('"n = len([x for x in range(0, 100)])"', "unused(x): x") - plain == 100 + 100 * 1
    assert _units('"n = len([x * 2 for x in range(0, 100)])"', "unused(x): x") - plain == 100 + 100 * 3
    assert _units('"n = count(range(0, 100), x => x > 5)"', "unused(x): x") - plain == 100 + 100 * 3
