"""Legal actions from what is there (dsl/candidates.py): the optimized `legal_<action>` builds a parameter's
candidates from the values its conditions can hold for, and tests the parts that read one parameter once per
query. The same ids in the same order, the same rule errors at the same places, and the step budget still
bounding every loop: each is checked here against the plain compilation.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cardsmith.dsl import candidates
from cardsmith.dsl.optimize import Inliner
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.errors import RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import ROOT
from test_optimize import _games, _lockstep

FILES = sorted((ROOT / "tests" / "candidates").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_candidates_give_the_plain_legal_actions_at_every_step(path: Path, n: int) -> None:
    games = _games(path, n)
    assert games is not None
    played = sum(_lockstep(*games, seed) for seed in range(12))
    assert played > 12 * 20  # whole matches, not an error at the first steps


def _legal_source(text: str, action: str, optimize: bool = True) -> str:
    loaded = compile_text(text, "t.yaml", optimize=optimize)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    return loaded.game.source.split(f"def legal_{action}(")[1].split("\ndef ")[0]


ASKING = (ROOT / "tests" / "candidates" / "asking.yaml").read_text(encoding="utf-8")


def test_go_fish_asks_from_the_ranks_held_and_lists_the_targets_once() -> None:
    """One walk of the hand makes the set of ranks held (not one walk per rank), and the targets who may be
    asked are listed once per query, not once per rank."""
    code = _legal_source(ASKING, "ask")
    assert code.count("for l_c in") == 1 and "{C_RANK[l_c] for l_c in" in code
    assert code.index("for l_rank in") < code.index("if _c1 is MISS:") < code.index("for l_target in _d")
    plain = _legal_source(ASKING, "ask", optimize=False)
    assert "fn_holds(s, s.actor, l_rank)" in plain and "{C_RANK" not in plain  # a call for every rank and target


def test_a_part_that_might_fail_first_keeps_the_plain_loops() -> None:
    """`len(hand[asked])` reads a player variable that may be none: nothing after it moves."""
    code = _legal_source(ASKING, "name_asked")
    assert not re.search(r"_[gc]\d+ = ", code) and "any([(C_RANK[l_c] == l_rank)" in code


def test_a_generator_that_reads_an_outer_parameter_is_made_for_each_of_its_values() -> None:
    code = _legal_source(ASKING, "trade")
    made = re.search(r"_g\d+ = \{C_RANK\[l_c\] for l_c in _it\(s.z\[Z_hand \+ l_target\]", code)
    assert made is not None and code.index("for l_target in _c") < made.start() < code.index("for l_want in")


FAILING = """\
game: t
players: 2
deck: {suits: [a, b], ranks: ['1', '2', '3']}
zones:
  stock: {}
  hand: {per_player: true}
  trick: {}
define:
  holds(p, r): any(c.rank == r for c in hand[p])
  led(): first(trick).rank
actions:
  ask:
    params: {rank: ranks, target: players}
    when: WHEN
    effect: ["move hand[target] to trick"]
phases:
  main:
    actions: [ask]
    next: clockwise
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 3 from stock to hand
    - goto main
  over_when: true
  winners: players
"""


def _first_error(text: str, optimize: bool) -> tuple[str, str, object]:
    loaded = compile_text(text, "failing.yaml", optimize=optimize)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    with pytest.raises(RuleError) as info:
        State.initial(Game(loaded.game, 2), 1).legal_actions()
    e = info.value
    return e.code, e.message, e.span


@pytest.mark.parametrize("when", [
    "target != player and holds(player, rank) and led() != rank",      # fails after the parts that move
    "led() != rank and target != player and holds(player, rank)",      # fails first: nothing moves
    "holds(player, rank) and target != player and rank != led()",
    "target != player and holds(player, rank) and 1 // (len(trick) * 0 + 0) > rank_count()",
])
def test_a_rule_error_is_the_plain_codes_error_at_the_same_place(when: str) -> None:
    text = FAILING.replace("WHEN", when).replace("  led(): first(trick).rank\n",
                                                 "  led(): first(trick).rank\n  rank_count(): len(ranks)\n")
    plain, fast = _first_error(text, False), _first_error(text, True)
    assert fast == plain
    if when.startswith("target"):
        assert "{C_RANK[l_c] for l_c in" in _legal_source(text, "ask")  # the generator was made


HOSTILE = """\
game: t
players: 2
deck: {suits: [a, b, c, d, e, f, g, h], ranks: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']}
zones:
  stock: {}
actions:
  bid:
    params: {a: pack, b: pack, c: pack, d: pack}
    when: a in stock and b in stock and c in stock and d in stock
phases:
  main:
    actions: [bid]
    after: [end deal]
match:
  deal: [move pack to stock, goto main]
  over_when: true
  winners: players
"""


def test_candidate_lists_are_charged_to_the_step_budget() -> None:
    """80**4 = 40,960,000 combinations, every one legal: the candidate lists are made once, and each entry of
    a loop over them is still charged, so the budget stops the query."""
    code = _legal_source(HOSTILE, "bid")
    assert code.count("set(_it(s.z[Z_stock]))") == 4 and code.count("_S[0] -= len(_c") == 3
    with pytest.raises(RuleError) as info:
        State.initial(Game(compile_text(HOSTILE, "t.yaml").game, 2), 1).legal_actions()  # type: ignore[arg-type]
    assert info.value.code == "R004"


# ---------------------------------------------------------------- what the analysis proves


@pytest.mark.parametrize(("part", "total"), [
    ("target != player", True),
    ("len(hand[target]) > 0", True),
    ("any(c.rank == rank for c in hand[player])", True),
    ("count(hand[target], c => c.suit == 'a') > 1", True),
    ("rank in [c.rank for c in hand[left(player)]]", True),
    ("len(trick) - 1 < target", True),
    ("first(trick).rank == rank", False),          # first() of an empty list
    ("len(trick) // 2 > 0", False),                # a division
    ("len(hand[asked]) > 0", False),               # a player variable may be none
    ("asked < target", False),                     # so may not be ordered
    ("hand[target][0].rank == rank", False),       # a position that may not exist
    ("holds(player, rank)", True),                 # inlined: its body is judged
    ("hand[player][0].suit < 'b'", False),         # a joker has no suit: none cannot be ordered
    ("count(hand[player], c => c.suit < 'b') > 0", False),
    ("count(hand[player], c => c.rank_index < 2) > 0", True),
    ("big(player)", False),                        # not inlined (it begins with let): a call may fail
])
def test_the_parts_that_cannot_fail(part: str, total: bool) -> None:
    text = FAILING.replace("WHEN", part).replace("  trick: {}\n", "  trick: {}\nvariables:\n  asked: {type: player}\n")
    text = text.replace("  led(): first(trick).rank\n", "  big(p): let n = len(hand[p]); n > 0\n")
    loaded = compile_text(text, "t.yaml")
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    spec = loaded.game.spec
    when = Inliner(spec.functions, set(), set()).inline(spec.actions[0].when)  # type: ignore[arg-type]
    env = {"rank": candidates._SURE, "target": candidates._SURE}
    assert candidates._judge(when, env).total is total


def test_the_plan_of_go_fish() -> None:
    """rank: the ranks held (a generator); target: two parts of its own, the list made once (home 0)."""
    loaded = compile_file(ROOT / "games" / "go-fish.yaml")
    assert loaded.game is not None
    a = loaded.game.spec.actions[0]
    kinds = [i.kind for i in loaded.game.params[a.name]]
    spec = loaded.game.spec
    assert a.when is not None
    when = Inliner(spec.functions, set(), set()).inline(a.when)
    plan = candidates.plan(a, kinds, candidates.parts(when))
    rank, target = plan.levels
    assert not plan.first and [g.part.func for g in rank.generators] == ["holds"]  # type: ignore[attr-defined]
    assert len(target.prefilters) == 2 and not target.checks and target.home == 0 and target.kept(1)


# ---------------------------------------------------------------- random conditions


PARTS = [
    "target != player", "len(hand[target]) > 0", "holds(player, rank)", "holds(target, rank)",
    "rank in [c.rank for c in hand[target] if c.suit != 'a']", "rank != '2'", "target == left(player)",
    "(len(trick) == 0 or led() != rank)", "any(c.rank == rank and c.suit == 'b' for c in hand[player])",
    "count(hand[player], c => c.rank == rank) < 2", "len(trick) < 2", "(len(trick) > 0 and led() == rank)",
    "not holds(target, rank)", "rank in ranks", "len(stock) >= len(hand[target])",
    "first(hand[target]).rank != rank", "1 // len(hand[player]) >= 0",   # fail on an empty hand
]

GAME = FAILING.replace('    effect: ["move hand[target] to trick"]\n', """\
    effect:
      - move [c for c in hand[target] if c.rank == rank] to trick
      - if: len(stock) > 0
        then: ["deal 1 from stock to hand[player]"]
      - if: len(trick) > 3
        then: ["move trick to stock"]
  pass:
    when: true
""").replace("    actions: [ask]\n", "    actions: [ask, pass]\n").replace(
    "    - deal 3 from stock to hand\n", "    - deal 2 from stock to hand\n").replace(
    "ranks: ['1', '2', '3']", "ranks: ['1', '2', '3', '4']").replace("players: 2", "players: {min: 2, max: 3}")


def _random_when(rng: random.Random) -> str:
    return " and ".join(rng.sample(PARTS, rng.randrange(1, 5)))


@pytest.mark.parametrize("case", range(40))
def test_random_conditions_give_the_plain_legal_actions(case: int) -> None:
    """Conditions made of parts that cannot fail and parts that can, in any order, with the parameters in
    either order, played in lockstep with the plain code (legal actions, rule errors, states, returns)."""
    rng = random.Random(case)
    text = GAME.replace("WHEN", _random_when(rng))
    if rng.random() < 0.5:
        text = text.replace("params: {rank: ranks, target: players}", "params: {target: players, rank: ranks}")
    plain, fast = compile_text(text, "t.yaml", optimize=False), compile_text(text, "t.yaml")
    assert plain.game is not None and fast.game is not None, fast.diagnostics
    for n in (2, 3):
        for seed in range(4):
            _lockstep(Game(plain.game, n), Game(fast.game, n), seed, steps=300)
