"""The step budget on the native backend (issue 33): a hostile rule file never hangs a native move.

Rules whose one move would walk 10**10 items (nested `for` steps, nested comprehensions, a chain of calls that
doubles, `combinations` and `packings` in loops) stop with a GameError within the budget in `legal_actions`,
`apply_action` and the native playout loop; the native code alone says the budget's own words; a C++ failure
inside the library's legal() comes out as a GameError; and a rule file just within its budget plays the same
matches on both backends. A hang must fail the test, not CI: each hostile game is played in a subprocess with a
timeout. The builds need g++ and pybind11 (skipped without them), into the test session's cache folder."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import cardsmith
import pytest
from cardsmith import Limits
from cardsmith.engine.budget import over
from cardsmith.native import build
from cardsmith.native.difftest import compare
from cardsmith.native.lower import lower

needs_build = pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}")
pytestmark = [needs_build, pytest.mark.slow]

# A small game whose parts (`define`, the action's `when`, its effect) the cases fill in.
GAME = """\
game: Hostile
players: 2
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3']
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  pile: {{}}
variables:
  n: {{type: number}}
define:
  one(x): x - x + 1
{define}
actions:
  play:
    params: {{c: "hand[player]"}}
    when: "{when}"
    effect:
      - move c to pile
{effect}
phases:
  main:
    first: left(dealer)
    actions: [play]
    after:
      - if: len(pile) == len(pack)
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto main
  over_when: deal_number >= 2
  winners: players
"""


def nested_for(depth: int, items: int) -> str:
    """`for` steps `depth` deep over range(0, items), adding 1 innermost: items**depth iterations."""
    lines, ind = [], "      "
    for d in range(depth):
        lines += [f"{ind}- for: i{d} in range(0, {items})", f"{ind}  do:"]
        ind += "    "
    return "\n".join([*lines, f"{ind}- n += 1"])


def nested_sum(depth: int, items: int) -> str:
    """Comprehensions `depth` deep over range(0, items): items**depth items."""
    e = "1"
    for d in range(depth):
        e = f"sum([{e} for i{d} in range(0, {items})])"
    return e


def doubling_calls(depth: int) -> str:
    """h0(x) calls h1 twice, ... : 2**depth calls, no loop."""
    lines = [f"  h{i}(x): h{i + 1}(x) + h{i + 1}(x)" for i in range(depth)]
    return "\n".join([*lines, f"  h{depth}(x): x"])


# name: (define, when, effect); where the work is: in the legal actions (`when`) or in the move (`effect`)
HOSTILE: dict[str, tuple[str, str, str]] = {
    "for-steps-in-a-move": ("", "true", nested_for(6, 60)),
    "comprehensions-in-a-move": ("", "true", f"      - n = {nested_sum(6, 60)}"),
    "comprehensions-in-legal": ("", f"{nested_sum(6, 60)} > 0", ""),
    "doubling-calls-in-legal": (doubling_calls(40), "h0(1) > 0", ""),
    "combinations-in-a-move": ("", "true", "      - n = " + nested_sum(4, 60).replace(
        "1 for", "len(combinations(range(0, 20), 2)) for", 1)),
    "packings-in-legal": ("", "sum([len(packings([[j] for j in range(0, 16)])) for i in range(0, 60)]) > 0", ""),
}

PLAY = """
import json, random, sys, time
import cardsmith
from cardsmith.engine.errors import GameError
path, players = sys.argv[1], 2
g = cardsmith.load(path, players=players, backend="native")
out = {}
s = g.new_initial_state(1)
rng = random.Random(1)
try:
    for _ in range(50):
        if s.is_terminal():
            break
        la = s.legal_actions()
        s.apply_action(rng.choice(la))
    out["play"] = "finished"
except GameError as e:
    out["play"] = str(e)
plain = g.native.new_initial_state(1)  # the binding's own State: the native message, no Python twin
try:
    for _ in range(50):
        if plain.is_terminal():
            break
        plain.apply_action(rng.choice(plain.legal_actions()))
    out["plain"] = "finished"
except RuntimeError as e:
    out["plain"] = str(e)
try:
    g.native.random_playouts(3, 1)
    out["loop"] = "finished"
except GameError as e:
    out["loop"] = str(e)
print(json.dumps(out))
"""


def _write(tmp_path: Path, name: str, define: str, when: str, effect: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(GAME.format(define=define, when=when, effect=effect))
    return path


def _play(path: Path) -> dict[str, str]:
    """The hostile game played natively in a subprocess (its library built here first, so the subprocess only
    plays): seeded moves through the wrapper, then through the binding's plain State, then the native loop."""
    cardsmith.load(path, players=2, backend="native")
    r = subprocess.run([sys.executable, "-c", PLAY, str(path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    result: dict[str, str] = json.loads(r.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_move_stops_natively_with_a_game_error(name: str, tmp_path: Path) -> None:
    path = _write(tmp_path, name, *HOSTILE[name])
    out = _play(path)
    budget = str(over(Limits().steps))
    # Through the wrapper: the Python backend's own located R004, replayed on the twin.
    assert out["play"].startswith(f"{path}:"), out
    assert "[R004]" in out["play"] or "rule error" in out["play"], out
    assert budget in out["play"], out
    # The native code alone: the budget's words, as the Python backend's first line says them.
    assert out["plain"] == budget, out
    # The native loop: a GameError of one line.
    assert out["loop"] == f"a random playout stopped: {budget}", out


ATTACKS = Path(__file__).parent / "attacks"


@pytest.mark.parametrize("name", ["runtime_exponential_calls", "budget_procedure_fan_out"])
def test_the_call_chain_attacks_stop_natively(name: str) -> None:
    # 2**40 calls of functions, 2**22 of procedures, without a loop: each call that calls takes a unit.
    path = ATTACKS / f"{name}.yaml"
    out = _play(path)
    budget = str(over(Limits().steps))
    assert out["play"].startswith(f"{path}:") and budget in out["play"], out
    assert out["plain"] == budget, out
    assert out["loop"] == f"a random playout stopped: {budget}", out


def test_a_cpp_failure_in_legal_is_a_game_error(tmp_path: Path) -> None:
    # range() of more than 64 numbers is a native failure (a List holds 64) where the Python backend goes on.
    path = _write(tmp_path, "long-range", "", "len(range(0, 100)) > 0", "")
    out = _play(path)
    assert out["play"].startswith("the native backend found no legal action where the Python backend finds "), out
    assert "(range too long); please report it" in out["play"], out
    assert out["plain"] == "range too long", out
    assert out["loop"] == "a random playout stopped: range too long", out


def test_the_budget_is_the_games_limit_and_part_of_the_cache_key(tmp_path: Path) -> None:
    path = _write(tmp_path, "small", "", "true", "")
    src = {steps: build.library_source(lower(build.plain_game(str(path), 2, None, Limits(steps=steps))))
           for steps in (1000, 2_000_000)}
    assert "m.budget = 1000LL;" in src[1000]
    assert f'm.over = "{over(1000)}";' in src[1000]
    assert "m.budget = 2000000LL;" in src[2_000_000]


def _python_units(g: Any, seed: int) -> int:
    """The most units one move or legal query of a seeded random match takes on the Python backend."""
    s = g.new_initial_state(seed)
    rng = random.Random(seed)
    most = 0
    while not s.is_terminal():
        la = s.legal_actions()
        most = max(most, g.step_limit - g.steps[0])
        s.apply_action(rng.choice(la))
        most = max(most, g.step_limit - g.steps[0])
    return most


def test_a_file_just_within_its_budget_plays_the_same_on_both_backends(tmp_path: Path) -> None:
    effect = "\n".join([
        "      - n = sum([sum([i * j for j in range(0, 40)]) for i in range(0, 40)])",
        "      - for: i in range(0, 30)",
        "        do:",
        "          - n += one(len(combinations(hand[player], 1)))",
    ])
    path = _write(tmp_path, "within", "", "sum([one(i) for i in range(0, 50)]) > 0", effect)
    units = _python_units(cardsmith.load(path, players=2, limits=Limits(steps=10**9)), 7)
    assert units > 5000  # the moves do real work
    limits = Limits(steps=units)
    py = cardsmith.load(path, players=2, limits=limits)
    nat = cardsmith.load(path, players=2, limits=limits, backend="native")
    assert _python_units(py, 7) == units
    matches, nodes, diff = compare(py, nat, 20, 7)
    assert diff is None, diff
    assert matches == 20
    moves, _ = nat.native.random_playouts(20, 7)
    assert moves == 20 * 4 * 2  # every match ends: 4 cards played in each of 2 deals
