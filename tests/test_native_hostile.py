"""Hostile rule files against the native backend's own weak points (issue 33): what running the red-team files
natively found, each a regression test.

- The generated C++ numbers each loop's names (`it3`, `ix3`): the 65th loop of a file declared `i64`, the
  runtime's integer type, and the build failed. No numbered name may spell a runtime name.
- A pack of more than 2,048 cards failed a static assertion of the seeded shuffle (a card's place and its key
  share a word): refused by name now; a pack of exactly 2,048 cards shuffles as the Python backend does.
- A chain of a hundred procedures, each nesting `for` steps, was lowered one inside the other, past Python's
  recursion limit: each procedure is lowered after its caller now.
- Rule code nesting deep over lists of a thousand cards overflowed the C++ stack: a crash (status -11). Every
  call that calls, loop and `let` checks the stack left (`Budget::deep`, a RuleError), and the compiler refuses a
  function whose frame would not fit the room the check keeps (`build.FRAME_LIMIT`).
- A command under a memory cap lower than the build's own (`ulimit -v`, the tests' 1 GiB) could not build:
  raising the cap in the compiler's process failed. The lower cap holds now.

Crashes are looked for in a process of its own, so that one fails the test and not the test run. The builds need
g++ and pybind11, into the test session's cache folder (conftest.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import cardsmith
import pytest
from cardsmith.engine.errors import GameError
from cardsmith.native import build
from cardsmith.native.backend import NativeFallback, NativeUnavailable
from cardsmith.native.difftest import compare
from cardsmith.native.lower import MAX_CARDS, Unsupported, lower
from conftest import ROOT
from forkserver import run_cli

needs_build = pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}")
pytestmark = [needs_build, pytest.mark.slow]

NATIVE = ROOT / "interpreter" / "native"

# Two suits of 32 ranks, `copies` times (64 cards each), and room for the parts a case fills in.
GAME = """\
game: Hostile
players: 2
deck:
  suits: [clubs, hearts]
  ranks: [{ranks}]
  pack:
    - copies: {copies}
zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  pile: {{}}
variables:
  n: {{type: int}}
  best: {{type: player, initial: none}}
define:
  rank_of(c): c.rank
{define}
procedures:
  noop(q):
    - n += 0
{procedures}
actions:
  play:
    params: {{c: "hand[player]"}}
    when: "{when}"
    effect:
      - do {call}(player)
      - move c to pile
phases:
  main:
    first: left(dealer)
    actions: [play]
    after:
      - if: len(hand[0]) == 0
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal {deal} from stock to hand
    - goto main
  over_when: deal_number >= 2
  winners: players
"""


def game(copies: int = 1, define: str = "", procedures: str = "", when: str = "true", call: str = "noop",
         deal: int = 2, ranks: int = 32) -> str:
    return GAME.format(ranks=", ".join(f"r{i}" for i in range(ranks)), copies=copies, define=define,
                       procedures=procedures, when=when, call=call, deal=deal)


def chain(procs: int, depth: int) -> str:
    """Procedures p0..p{procs-1}, each `depth` `for` steps deep over a filtered hand, the innermost calling the
    next."""
    out = []
    for i in range(procs):
        lines, ind = [f"  p{i}(q):"], "    "
        for d in range(depth):
            lines += [f"{ind}- for: c{d} in [c for c in hand[q] if rank_of(c) != 'r{d}']", f"{ind}  do:"]
            ind += "    "
        lines += [f"{ind}- n += 1", f"{ind}- do p{i + 1}(q)" if i + 1 < procs else f"{ind}- n += 2"]
        out.append("\n".join(lines))
    return "\n".join(out)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def lockstep(path: Path, matches: int, seed: int = 3) -> None:
    py = cardsmith.load(path, players=2)
    nat = cardsmith.load(path, players=2, backend="native")
    played, _nodes, diff = compare(py, nat, matches, seed)
    assert diff is None, diff
    assert played == matches


# ---------------------------------------------------------------- names the emitter numbers
def test_no_numbered_name_of_the_emitter_spells_a_runtime_name() -> None:
    """Each prefix the emitter numbers (`it{u}`, `o{u}`, ...) against every identifier of the runtime's headers:
    `i{u}` was the loop index until the 65th loop declared `i64`."""
    emitter = (NATIVE / "emit_cpp.py").read_text()
    prefixes = set(re.findall(r"\b([A-Za-z_]+)\{u\}", emitter))
    assert {"it", "ix", "o"} <= prefixes
    headers = "".join((NATIVE / f).read_text() for f in build.HEADERS)
    numbered = {m.group(0): m.group(1) for m in re.finditer(r"\b([A-Za-z_]+?)([0-9]+)\b", headers)}
    assert "i64" in numbered  # the runtime's own numbered names are found
    assert sorted(name for name, prefix in numbered.items() if prefix in prefixes) == []


def test_a_file_of_more_than_64_loops_builds_and_plays_the_same(tmp_path: Path) -> None:
    loops = " + ".join(f"len([d for d in hand[player] if rank_of(d) != 'r{k % 32}'])" for k in range(70))
    path = write(tmp_path, "loops", game(when=f"{loops} >= 0"))
    lockstep(path, 5)


# ---------------------------------------------------------------- the legal query
RANGES = """\
game: Ranges
players: 2
deck:
  suits: [clubs]
  ranks: ['2', '3']
zones:
  stock: {}
variables:
  total: {type: int}
actions:
  choose:
    params: {a: "range(0, 2000)", b: "range(0, 2000)"}
    when: total >= 0 and a >= 1990 and b % 500 == 7 and sum([i for i in range(0, a - 1900)]) > 0
    effect:
      - total += a + b
phases:
  main:
    round: true
    actions: [choose]
    end:
      - if: total > 20000
        then: [end deal]
        else: [goto main]
match:
  deal:
    - goto main
  over_when: true
  winners: all_max_by(players, p => total)
"""


def test_parameters_over_long_ranges_and_when_in_parts(tmp_path: Path) -> None:
    """Two parameters of 2,000 numbers: the native query walked every pair (4,000,000, past the budget) of
    lists it could not hold (a list holds 64 numbers: "range too long"). It walks the ranges one number at a time
    and tests each part of `when` in the loop of the last parameter it reads, as the Python backend does."""
    path = write(tmp_path, "ranges", RANGES)
    lockstep(path, 5)


# ---------------------------------------------------------------- what the fuzzers found
COUNTS = """\
  counts(q):
    - n += count(players) + 10 * count([i for i in range(0, 5)])
    - n += 100 * count([rank_of(c) for c in hand[q] if c.suit == 'clubs'])
    - n += 1000 * count([i / 2 for i in range(0, 3)]) + 10000 * count(players, p => p == q)
"""


def test_count_counts_items_not_their_truth(tmp_path: Path) -> None:
    """`count(players)` counted the players that are not seat 0 natively, and `count([...])` added up the
    comprehension's items: a variable read in every observation differed (tests/test_native_fuzz.py)."""
    path = write(tmp_path, "counts", game(procedures=COUNTS, call="counts"))
    lockstep(path, 5)


def test_turns_is_a_number(tmp_path: Path) -> None:
    """`turns` was lowered as a list: `all_max_by(stock, c => turns)` declared its keys as lists, and the build
    failed ("no match for 'operator='"; the fuzzers' `seen = [c2 for c2 in all_max_by(stock, c1 => turns)]`)."""
    path = write(tmp_path, "turns", game(procedures="  turned(q):\n    - n += len(all_max_by(hand[q], c => turns)) "
                                         "+ turns", call="turned"))
    lockstep(path, 5)


def test_list_positions_as_the_python_backend_reads_them(tmp_path: Path) -> None:
    """A negative position counts from the end on the Python backend (`xs[i]`), and failed natively ("index out
    of range"); and a position computed by a fold, `[5, 6, 7][count(players)]`, opened `[[` in the C++ (an
    attribute): the build failed. Both found by the native fuzz run (`left(active_players[-1])`)."""
    path = write(tmp_path, "positions", game(procedures="  positions(q):\n    - n += left(active_players[-1]) + "
                                             "[5, 6, 7][count(players)] + [5, 6, 7][-2]", call="positions"))
    lockstep(path, 5)


NUMBERS = {
    "a product past 10**18": "    - n = n * 1000 + 7",
    "a sum kept past 10**18": "    - n = n + n + 100000000000000000",
    "a function's number past 10**18": "    - n = grow(n) + 1",
    "none in arithmetic": "    - n += right(best)",
}


@pytest.mark.parametrize("case", list(NUMBERS))
def test_numbers_fail_where_the_python_backend_fails(case: str, tmp_path: Path) -> None:
    """Whole numbers natively were the machine's: a product or a sum past 10**18 went on (wrapping, which C++
    leaves undefined) and `right(none)` gave a seat, where the Python backend stops the move ("a number grew
    beyond 10**18", "a number left the range -10**18 to 10**18", "a value of the wrong kind"). Both now stop it,
    with the Python backend's located error (`mul_i`, `keep_i`, `not_none` in lists.h)."""
    from test_native_fuzz import lockstep as lockstep_errors  # errors compared word for word
    path = write(tmp_path, "numbers", game(define="  grow(x): x * 1000 + x", procedures="  numbers(q):\n" +
                                          NUMBERS[case], call="numbers", deal=4))
    py = cardsmith.load(path, players=2)
    s = py.new_initial_state(1)
    with pytest.raises(GameError):  # the Python backend's match does stop
        for _ in range(40):
            s.apply_action(s.legal_actions()[0])
    lockstep_errors(py, cardsmith.load(path, players=2, backend="native"), 3)


# ---------------------------------------------------------------- the pack
def test_a_pack_past_the_seeded_shuffle_is_refused_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, "big", game(copies=MAX_CARDS // 64, ranks=33))
    assert cardsmith.load(path, players=2).num_cards == MAX_CARDS // 64 * 66
    with pytest.raises(Unsupported) as e:
        lower(build.plain_game(str(path), 2))
    assert str(e.value) == "a pack of more than 2,048 cards"
    with pytest.raises(NativeUnavailable) as u:
        cardsmith.load(path, players=2, backend="native")
    assert str(u.value) == "Hostile cannot run on the native backend: it does not cover a pack of more than " \
                           "2,048 cards yet"


def test_a_pack_of_2048_cards_shuffles_as_the_python_backend_does(tmp_path: Path) -> None:
    path = write(tmp_path, "pack2048", game(copies=MAX_CARDS // 64, deal=3))
    assert cardsmith.load(path, players=2).num_cards == MAX_CARDS
    lockstep(path, 3)


# ---------------------------------------------------------------- deep rules
def test_a_chain_of_a_hundred_procedures_lowers(tmp_path: Path) -> None:
    """99 procedures, each four `for` steps deep: the lowering took them one inside the other (RecursionError,
    refused as a failure of the native backend) where the Python backend plays them."""
    path = write(tmp_path, "chain", game(procedures=chain(99, 4), call="p0", deal=1))
    prog = lower(build.plain_game(str(path), 2))
    assert {f.name for f in prog.funcs} >= {f"pr_p{i}_i" for i in range(99)}


def test_a_chain_of_procedures_plays_the_same(tmp_path: Path) -> None:
    """Each procedure lowered after its caller: the same matches (a chain of 30, which builds in seconds)."""
    path = write(tmp_path, "chain", game(procedures=chain(30, 4), call="p0", deal=1))
    lockstep(path, 3)


def test_a_frame_past_the_limit_is_refused_at_the_build(tmp_path: Path) -> None:
    """A chain of 20 procedures four `for` steps deep over 2,048 cards, which the compiler inlines into one frame
    past the limit: refused at the build. (95 of them crashed natively, status -11, before the stack checks;
    now they are refused the same way, after a minute of the compiler.)"""
    path = write(tmp_path, "frames", game(copies=32, procedures=chain(20, 4), call="p0", deal=1))
    said = "the build of its library failed: a function of the rules needs more than 256 KB of stack"
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load(path, players=2, backend="native")
    assert str(e.value) == f"Hostile cannot run on the native backend: {said}"
    with pytest.warns(NativeFallback):
        assert cardsmith.load(path, players=2, backend="auto").backend == "python"
    py = run_cli(["run", str(path), "--seed", "1"], cwd=tmp_path, timeout=60)
    for backend in ("native", "auto"):
        r = run_cli(["run", str(path), "--seed", "1", "--backend", backend], cwd=tmp_path, timeout=60)
        assert r.returncode == (1 if backend == "native" else py.returncode), r.stderr.decode()[-2000:]
        if backend == "native":
            assert r.stderr.decode() == f"cardsmith: error: Hostile cannot run on the native backend: {said}\n"
        else:
            assert r.stderr.decode() == f"cardsmith: Hostile runs on the Python backend: {said}\n" + \
                py.stderr.decode()
            assert r.stdout == py.stdout


DEEP = """
import json, sys, threading
import cardsmith
from cardsmith.engine.errors import GameError
g = cardsmith.load(sys.argv[1], players=2, backend="native")
out = {}
def play():
    plain = g.native.new_initial_state(1)
    try:
        out["plain"] = repr(plain.legal_actions())
    except RuntimeError as e:
        out["plain"] = str(e)
    try:
        out["loop"] = repr(g.native.random_playouts(1, 1))
    except GameError as e:
        out["loop"] = str(e)
threading.stack_size(int(sys.argv[2]))
t = threading.Thread(target=play)
t.start()
t.join()
print(json.dumps(out))
"""


def test_rule_code_too_deep_for_the_stack_is_an_error_not_a_crash(tmp_path: Path) -> None:
    """`packings` of 256 groups over 2,048 cards recurses 256 deep, 25 KB a level: 6 MB of stack. In a thread
    of 4 MB it crashed the process (status -11); now the check stops it with an error of one line."""
    path = write(tmp_path, "deep", game(copies=32, when="len(packings([[j] for j in range(0, 256)])) > 0"))
    cardsmith.load(path, players=2, backend="native")  # built here: the process below only plays
    r = subprocess.run([sys.executable, "-c", DEEP, str(path), str(4 << 20)], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ))
    assert r.returncode == 0, f"status {r.returncode}:\n{r.stderr[-2000:]}"
    assert r.stdout.strip().splitlines()[-1] == \
        '{"plain": "rule code nests too deep for the native stack", ' \
        '"loop": "a random playout stopped: rule code nests too deep for the native stack"}'


# ---------------------------------------------------------------- the build under a command's limits
def test_a_command_under_a_lower_memory_cap_builds_within_it(tmp_path: Path) -> None:
    """`run --backend native` under a 1 GiB address-space cap (the attack tests' limit) builds a library never
    built before within that cap, and plays the Python backend's match; the build asked for its own 4 GiB
    and failed ("SubprocessError: Exception occurred in preexec_fn")."""
    build.loader()  # the binding, shared by the session (only the game's library is built under the cap)
    path = write(tmp_path, "capped", game(when="len([d for d in hand[player] if rank_of(d) != 'r7']) >= 0"))
    py = run_cli(["run", str(path), "--seed", "1"], cwd=tmp_path, timeout=120, rlimit_as=1 << 30)
    nat = run_cli(["run", str(path), "--seed", "1", "--backend", "native"], cwd=tmp_path, timeout=120,
                  rlimit_as=1 << 30)
    assert py.returncode == 0, py.stderr.decode()[-2000:]
    assert (nat.returncode, nat.stdout, nat.stderr) == (py.returncode, py.stdout, py.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["capped.yaml"]
