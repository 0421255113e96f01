"""The optimizations of dsl/optimize.py change no game: the same rule file compiled with and without them
plays the same, step by step, and fails (where a rule fails) with the same error at the same place.

The optimized code of each file is played in lockstep with the plain code: the same seeded random
matches, comparing the player to act, the legal actions, the state's text and, at the end, the returns.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.errors import GameError, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from conftest import GAME_FILES, GAME_PLAYERS, ROOT, compile_result

# Every rule file of the repository that compiles: the bundled games, the test games, the docs' examples and
# the actions whose legal ids are built from what is there (tests/candidates/, dsl/candidates.py).
RULE_FILES = GAME_FILES + sorted((ROOT / "tests" / "scenarios" / "rules").glob("*.yaml")) + \
    sorted((ROOT / "tests" / "games").glob("*.yaml")) + sorted((ROOT / "docs" / "examples").glob("*.yaml")) + \
    sorted((ROOT / "benchmarks").glob("*.yaml")) + sorted((ROOT / "tests" / "candidates").glob("*.yaml"))
MATCHES = 3


def _games(path: Path, n: int) -> tuple[Game, Game] | None:
    plain, fast = compile_file(path, optimize=False), compile_file(path)
    if not plain.ok or plain.game is None or fast.game is None:
        return None
    try:
        return Game(plain.game, n), Game(fast.game, n)
    except GameError:
        return None


def _outcome(fn: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except RuleError as e:
        return "error", (e.code, e.message, e.span)


def _lockstep(plain: Game, fast: Game, seed: int, steps: int = 3000) -> int:
    """Play one seeded random match on both; the number of actions played."""
    rng = random.Random(seed)
    a, b = State.initial(plain, seed), State.initial(fast, seed)
    for k in range(steps):
        assert a.is_terminal() == b.is_terminal()
        if a.is_terminal():
            assert a.returns() == b.returns()
            return k
        assert a.current_player() == b.current_player(), k
        la, lb = _outcome(a.legal_actions), _outcome(b.legal_actions)
        assert la == lb, f"step {k}: legal actions differ"
        if la[0] == "error":
            return k
        action = la[1][rng.randrange(len(la[1]))]
        ra, rb = _outcome(a.apply_action, action), _outcome(b.apply_action, action)
        assert ra == rb, f"step {k}: applying {action} differs"
        if ra[0] == "error":
            return k
        assert str(a) == str(b), f"step {k}"
    return steps


def _cases() -> list[Any]:
    out = []
    for p in RULE_FILES:
        r = compile_result(str(p))
        if not r.ok or r.game is None:
            continue
        players = GAME_PLAYERS.get(str(p)) or range(r.game.spec.min_players, r.game.spec.max_players + 1)
        for n in sorted({players[0], players[-1]}):
            out.append(pytest.param(p, n, id=f"{p.parent.name}/{p.stem}-{n}p"))
    return out


@pytest.mark.parametrize(("path", "n"), _cases())
def test_optimized_code_plays_as_the_plain_code(path: Path, n: int) -> None:
    games = _games(path, n)
    if games is None:
        pytest.skip("no game at this player count")
    played = sum(_lockstep(*games, seed) for seed in range(MATCHES))
    assert played > 0


FAILING = """\
game: t
players: 2
deck: {suits: [a, b], ranks: ['1', '2', '3']}
zones:
  stock: {}
  hand: {per_player: true}
  trick: {}
define:
  led(): first(trick).suit
  may_play(p, c): |
    c.suit == 'a' or
      c.suit == led()
actions:
  play:
    params: {card: "hand[player]"}
    when: may_play(player, card)
    effect: [move card to trick]
phases:
  main:
    actions: [play]
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


def _first_error(optimize: bool) -> RuleError:
    loaded = compile_text(FAILING, "failing.yaml", optimize=optimize)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    game = Game(loaded.game, 2)
    for seed in range(20):
        s = State.initial(game, seed)
        if all(game.card_names[c].endswith("a") for c in s.z[game.zone_names.index("hand[0]")]):
            continue  # a hand of a's never reaches led()
        with pytest.raises(RuleError) as info:
            s.legal_actions()
        return info.value
    pytest.fail("no seed dealt a card of suit b")


def test_a_rule_error_in_an_inlined_function_is_located_in_the_function() -> None:
    """`may_play` and `led` are inlined into the legal-action loop; `first` of the empty trick fails inside
    `led`, and the error is reported there, as without the optimization."""
    source = compile_text(FAILING, "failing.yaml").game.source  # type: ignore[union-attr]
    assert "fn_may_play(" not in source.split("def legal_play")[1].split("def run_play")[0]
    plain, fast = _first_error(False), _first_error(True)
    assert fast.span is not None and fast.span.line == 9 and "first" in fast.message, fast
    assert (fast.code, fast.message, fast.span) == (plain.code, plain.message, plain.span)


MULTI_LINE = FAILING.replace('''  led(): first(trick).suit
  may_play(p, c): |
    c.suit == 'a' or
      c.suit == led()''', '''  led(): first(trick).suit
  score(p): |
    len(hand[p]) * 2 +
      sum([c.rank_index for c in hand[p]]) +
      FAILING_PART
  may_play(p, c): score(p) > 0''')


@pytest.mark.parametrize(("part", "col", "message"), [
    ("first(trick).rank_index", 7, "first() of an empty list"),
    ("hand[p][7].rank_index", 7, "a list position that does not exist"),
    ("(len(trick) // len(trick))", 8, "division by zero"),
])
@pytest.mark.parametrize("optimize", [False, True])
def test_a_rule_error_in_a_multi_line_define_is_located_at_the_failing_sub_expression(
        part: str, col: int, message: str, optimize: bool) -> None:
    """The compiler records where the code of every node stands, and a rule error is reported at the
    innermost node around the instruction that failed: here the third line of `score`, not its first."""
    text = MULTI_LINE.replace("FAILING_PART", part)
    loaded = compile_text(text, "multi.yaml", optimize=optimize)
    assert loaded.ok and loaded.game is not None, loaded.diagnostics
    with pytest.raises(RuleError) as info:
        State.initial(Game(loaded.game, 2), 1).legal_actions()
    e = info.value
    assert e.span is not None and (e.span.line, e.span.col) == (13, col), (e.span, e.message)
    assert e.message == message
    assert text.splitlines()[12][col - 1:].startswith(part.lstrip("("))


def test_inlining_cannot_multiply_the_code() -> None:
    """Each level calls the next eight times: inlined all the way down that would be 8**5 copies of the
    last body. The module's inlining budget (optimize.INLINE_BUDGET nodes) keeps the rest as calls."""
    from cardsmith.dsl.optimize import INLINE_BUDGET
    levels = ["  f5(p): len(hand[p]) > 0 or len(trick) > 7"]
    for k in range(4, -1, -1):
        levels.insert(0, f"  f{k}(p): " + " and ".join([f"f{k + 1}(p)"] * 8))
    text = FAILING.replace("  led(): first(trick).suit\n", "\n".join(levels) + "\n  led(): first(trick).suit\n")
    text = text.replace("when: may_play(player, card)", "when: f0(player)")
    plain, fast = compile_text(text, "many.yaml", optimize=False), compile_text(text, "many.yaml")
    assert fast.ok and fast.game is not None and plain.game is not None, fast.diagnostics
    assert "fn_f1(" in fast.game.source  # past the budget, calls stay calls
    assert len(fast.game.source) < len(plain.game.source) + 60 * INLINE_BUDGET
    s = State.initial(Game(fast.game, 2), 1)
    t = State.initial(Game(plain.game, 2), 1)
    assert s.legal_actions() == t.legal_actions()
