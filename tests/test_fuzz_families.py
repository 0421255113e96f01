"""Family fuzzers for issue 9: every example the red team found stands for a family; these generate the family.

    python -m pytest tests/test_fuzz_families.py                          # the "ci" profile: 15 examples a test
    HYPOTHESIS_PROFILE=fuzz-deep python -m pytest tests/test_fuzz_families.py --hypothesis-show-statistics

Each fuzzer builds a small valid game around a generated fragment, compiles it, instantiates it at its
fewest and most players and plays a short match. The property (`check_family`) is the one of
tests/test_fuzz.py made strict: the outcome is a game that plays, located diagnostics, or a `GameError`
that is a located `RuleError` (a span in a file that was read, and `render()` works); never another
exception, never an unlocated rule error, and each example within FUZZ_FAMILY_SECONDS of CPU time
(3 s; a rule file kept within the limits needs a small part of that) and four times that of wall time.
The resource families also run under a memory guard: the address space may grow by at most 1 GiB
during an example (RLIMIT_AS, lowered for the example and restored after), and a rule error saying
the rules ran out of memory fails it too, since the documented limits must stop a rule file first.

The families (see tests/attacks/README.md for the attack files of each):

* parameter domains: one to three action parameters; number bounds from generated arithmetic (division
  by zero, decimals, none, negative and huge numbers, options, constants, table keys and list positions
  that do not exist) and card, player, name and list domains, seats out of range included;
* growing values: loops that append, double, flatten, remove, concatenate lists and texts through
  parameters of type any, repeat and format texts, call memoized functions with growing lists, build
  ranges and walk big lists with each library function; deals that end at once on big packs;
* call chains: functions and procedures calling each other in chains of random depth and fan-out, with
  nested arithmetic, called with arguments of mixed kinds (so parameters become any);
* seats and cards out of range in every place one can be written: the property is stricter here, the
  match must stop with a rule error located at the fragment (a silent success is a failure);
* paths in a rule file's `extends:` and a scenario's `game:` (absolute, `../` chains, /proc/self/environ,
  /dev/zero, /dev/stdin, a FIFO and symlinks made in a temporary folder, a YAML file that is not a rule
  file and holds a secret, folders, names with NUL, newlines and escapes): no hang, no traceback,
  located diagnostics, and neither the secret, the environment nor /etc/passwd in any message.

A few plain tests cover the outputs the fuzzers do not reach: `run --json`, `play` and scenario failure
messages, each on an attack file, in a process of its own under the attack suite's limits.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.diagnostics import RuleFileError, render_all
from cardsmith.dsl.limits import Limits
from cardsmith.dsl.pipeline import Loaded, compile_text
from cardsmith.engine.errors import GameError, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.scenario.runner import run_file
from forkserver import run_cli
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from test_attacks import ATTACKS, MEMORY, PASSWD_LINE, SECRET, located_lines, read_attack
from test_fuzz import FUZZ_SETTINGS, SEEDS, ExampleTooSlow, check_diagnostics, note

pytestmark = [pytest.mark.slow, pytest.mark.fuzz]

# One example may take this much CPU time, and four times as much wall time (a blocking read uses no CPU).
FAMILY_SECONDS = float(os.environ.get("FUZZ_FAMILY_SECONDS", "3"))
FAMILY_MEMORY = MEMORY  # bytes the address space may grow by during one example of a resource family
FAMILY_STEPS = 200_000  # the step budget, lower than the default as in tests/test_fuzz.py
FAMILY_LIMITS = Limits(steps=FAMILY_STEPS)  # passed to every compile: never set globally
MAX_ACTIONS = 60  # actions of one playout
PLAYOUT_SECONDS = 0.5  # a playout stops (successfully) after this much CPU time: limits bound moves, not matches
MOVE_SECONDS = 0.8  # but each move (legal actions, observations, the action) must finish within this
Draw = Callable[..., Any]
# No explain phase: it traces every line, which makes deep recursion in the checker look like a hang.
FAMILY_SETTINGS = settings(FUZZ_SETTINGS, phases=[p for p in Phase if p != Phase.explain])




# ============================================================== the property


class Failed(AssertionError):
    """The property does not hold (an AssertionError, so hypothesis shrinks the example)."""


def _vm_size() -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextmanager
def memory_guard(extra: int) -> Iterator[None]:
    """Let the address space grow by at most `extra` bytes (Linux; a no-op elsewhere)."""
    used = _vm_size()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if used is None:
        yield
        return
    limit = used + extra
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def time_guards(cpu: float, wall: float) -> Iterator[None]:
    """Stop the example after `cpu` seconds of CPU time or `wall` seconds of wall time (a machine shared
    with other work makes wall time alone flaky; a read that blocks uses no CPU time at all)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    fired: list[ExampleTooSlow] = []

    def on_signal(signum: int, frame: Any) -> None:
        what = "CPU" if signum == signal.SIGPROF else "wall"
        fired.append(ExampleTooSlow(f"one example ran longer than {cpu if what == 'CPU' else wall:g} s of {what} "
                                    "time (a hang?)"))
        raise fired[-1]

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGALRM, signal.SIGPROF)}
    # The timers fire again every second: an exception raised where Python ignores it (a garbage
    # collector callback, a __del__) must not let the hang go on.
    signal.setitimer(signal.ITIMER_REAL, wall, 1.0)
    signal.setitimer(signal.ITIMER_PROF, cpu, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        for sig, handler in old.items():
            signal.signal(sig, handler)
    if fired:
        # The timer fired but its exception was swallowed (raised inside a garbage collector callback, a
        # __del__) and the example then ended before the next firing: it was still too slow.
        raise fired[0]


@contextmanager
def guarded(memory: bool) -> Iterator[None]:
    """The time guard (a hang fails the example) and, for the resource families, the memory guard."""
    try:
        with time_guards(FAMILY_SECONDS, 4 * FAMILY_SECONDS):
            if memory:
                with memory_guard(FAMILY_MEMORY):
                    yield
            else:
                yield
    except ExampleTooSlow as e:
        raise Failed(f"{e}: the limits must stop a rule file before this") from None
    except MemoryError:
        raise Failed(f"the example needed more than {FAMILY_MEMORY >> 20} MiB more memory") from None


def check_rule_error(e: GameError, loaded: Loaded, memory: bool) -> RuleError:
    """A GameError from a game that compiled: a RuleError located in a file that was read."""
    if not isinstance(e, RuleError):
        raise Failed(f"{type(e).__name__} where a located rule error was expected: {e}")
    if e.span is None:
        raise Failed(f"a rule error without a place in the rule file: {e}")
    if e.span.file not in loaded.sources or not 1 <= e.span.line <= len(loaded.sources[e.span.file].splitlines()):
        raise Failed(f"a rule error at {e.span}, which is no line of the files read: {e}")
    if memory and ("out of memory" in e.message or isinstance(e.__context__, MemoryError)):
        raise Failed(f"the example needed more than {FAMILY_MEMORY >> 20} MiB: {e}")
    assert e.render().strip()
    return e


def play(game: Game, seed: int, first: bool = False) -> None:
    """A short match; `first` takes the lowest legal action each time (the rules' first action) instead
    of a random one. Every player's observation and the umpire's view are made after each action.

    The limits bound the work of each move, not of a match (a game may have 80,000 legal actions at
    every move, and play on): the playout stops, as a success, once it has used PLAYOUT_SECONDS of CPU
    time, and each move must finish within MOVE_SECONDS."""
    rnd = random.Random(seed)
    start = time.process_time()
    s = State.initial(game, seed, log=True)
    for _ in range(MAX_ACTIONS):
        before = time.process_time()
        if before - start > PLAYOUT_SECONDS:
            return
        for p in range(game.n):
            s.observation(p)
        str(s)
        if s.is_terminal():
            break
        legal = s.legal_actions()
        a = legal[0] if first else rnd.choice(legal)
        s.action_to_string(s.current_player(), a)
        s.apply_action(a)
        if time.process_time() - before > MOVE_SECONDS:
            raise Failed(f"one move took more than {MOVE_SECONDS:g} s of CPU time: the step budget must stop it")
    s.returns()


@dataclass
class Outcome:
    loaded: Loaded
    errors: list[RuleError]  # one per player count that stopped with a rule error
    played: int  # player counts that played without one


def check_family(text: str, seed: int, *, memory: bool = False, first: bool = False) -> Outcome:
    """The strict fuzz property: located diagnostics, or a game that plays or stops with a located
    RuleError, at its fewest and most players; nothing else, within the time (and memory) guard."""
    note(f"rule file text:\n{text}")
    errors: list[RuleError] = []
    played = 0
    with guarded(memory):
        loaded = compile_text(text, FAMILY_FILE, limits=FAMILY_LIMITS)
        if not loaded.ok:
            check_diagnostics(loaded)
            note("refused:\n" + render_all(loaded.diagnostics, loaded.sources))
            return Outcome(loaded, [], 0)
        assert loaded.game is not None
        sp = loaded.game.spec
        for n in sorted({sp.min_players, sp.max_players}):
            try:
                play(Game(loaded.game, n), seed, first)
                played += 1
            except GameError as e:
                errors.append(check_rule_error(e, loaded, memory))
                note(f"{n} players: {e}")
    return Outcome(loaded, errors, played)


# ============================================================== the frame

# The fuzzed text is compiled under this name, in a folder of its own (it need not exist).
FAMILY_FILE = str(Path(__file__).resolve().parent / "attacks" / "family.yaml")


def _steps(items: list[str], indent: int) -> str:
    """YAML list items: statements as double-quoted scalars, `{if: ...}` / `{for: ...}` steps as they are."""
    pad = " " * indent
    return "".join(f"{pad}- {s if s.startswith('{') else json.dumps(s)}\n" for s in items)


def frame(*, define: str = "", procedures: str = "", effect: list[str] | None = None,
          after: list[str] | None = None, actions: str = "", phase_actions: str = "", deal: list[str] | None = None,
          start: list[str] | None = None, report: str = "total(hand[p])", first: str = "left(dealer)",
          match_extra: str = "", over_when: str = "deal_number >= 2", winners: str = "players",
          copies: tuple[int, ...] = (1,), players: str = "{min: 2, max: 3}", zones_extra: str = "",
          variables_extra: str = "") -> str:
    """A small valid game: 8 cards (times `copies`), a hand each, a stock and a pile, a few variables of
    each type, the action 'play' (a card from the hand) and 'pass', one phase, two deals."""
    deal = deal if deal is not None else ["move pack to stock", "shuffle stock", "deal 2 from stock to hand",
                                          "goto main"]
    text = f"""\
game: Family
players: {players}
options:
  bonus: {{type: int, default: 2, min: 0, max: 5}}
  size: {{type: int, default: 3, min: 0, max: 10000}}
constants:
  limit: 3
  sizes: [1, 2]
  table: {{1: 10, 2: 20}}
  modes: [high, low]
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', K, A]
  properties:
    value: rank_index * 2
  pack:
{"".join(f"    - copies: {k}{chr(10)}" for k in copies)}zones:
  stock: {{visible: nobody}}
  hand: {{per_player: true, visible: owner}}
  pile: {{}}
{zones_extra}variables:
  score: {{type: int, per_player: true}}
  secret: {{type: int, visible: nobody, initial: 42}}
  xs: {{type: numbers}}
  ys: {{type: numbers}}
  t: {{type: text, initial: "'ab'"}}
  big: {{type: int, initial: 1}}
  n: {{type: int}}
  best: {{type: player}}
  mark: {{type: card}}
  seen: {{type: cards}}
{variables_extra}define:
  total(h): sum([c.value for c in h])
{define}procedures:
  bump(p):
    - score[p] += 1
{procedures}actions:
  play:
    params: {{c: "hand[player]"}}
    effect:
      - move c to pile
{_steps(effect or [], 6)}  pass: {{}}
{actions}phases:
  main:
    first: {first}
    actions: [play, pass{phase_actions}]
    after:
{_steps(after or [], 6)}      - if: len(hand[player]) == 0
        then: [end deal]
match:
{"  start:" + chr(10) + _steps(start, 4) if start else ""}  deal:
{_steps(deal, 4)}  report:
    total: {report}
  end_deal:
    - do bump(dealer)
{match_extra}  over_when: {over_when}
  winners: {winners}
"""
    return text


def lines_with(text: str, needle: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if needle in line}


def test_frame_is_valid() -> None:
    """The frame compiles and plays as it is, at every player count, under the strict property."""
    out = check_family(frame(), 1)
    assert out.loaded.ok, render_all(out.loaded.diagnostics, out.loaded.sources)
    assert out.played == 2 and not out.errors


# ============================================================== (1) parameter domains

NUMBER_ATOMS = ["0", "1", "3", "-1", "-5", "10000", "9999", "100000", "99999999999999999", "2.5", "0.5", "none",
                "bonus", "size", "limit", "num_players", "sizes[0]", "sizes[5]", "sizes[-9]", "table[1]",
                "table[7]", "len(modes)", "len(pack)", "true"]
ARITH = ["+", "-", "*", "//", "/", "%", "mod"]


@st.composite
def number_bound(draw: Draw, depth: int = 2) -> str:
    """Arithmetic over numbers, options and constants: zero divisors, decimals, none and huge values."""
    if depth <= 0 or draw(st.integers(0, 2), label="leaf?") == 0:
        return str(draw(st.sampled_from(NUMBER_ATOMS), label="atom"))
    form = draw(st.sampled_from(["op", "op", "paren", "if", "neg", "abs"]), label="form")
    a = draw(number_bound(depth - 1))
    if form == "op":
        b = draw(st.one_of(number_bound(depth - 1), st.sampled_from(["0", "(bonus - 2)", "(1 - 1)"])))
        return f"{a} {draw(st.sampled_from(ARITH), label='op')} {b}"
    if form == "paren":
        return f"({a})"
    if form == "if":
        return f"(if bonus > 1 then {a} else {draw(number_bound(depth - 1))})"
    if form == "neg":
        return f"-({a})"
    return f"abs({a})"


SEATS_OUT = ["-1", "-2", "num_players", "num_players + 1", "num_players + 5", "99", "0 - num_players"]
OTHER_DOMAINS = ["hand[player]", "pack", "pile", "stock", "players", "active_players", "suits", "ranks", "modes",
                 "['high', 'low']", "[true, false]", "sizes", "[]", "[c2 for c2 in pack if c2.value > 2]",
                 "[q for q in players if q != player]", "[num_players]", "[-1, 0]", "range(0, 3)",
                 "range(5, 1)", "range(0, 10000)", "table", "'abc'", "none", "3"]


@st.composite
def domain(draw: Draw) -> str:
    kind = draw(st.sampled_from(["range", "range", "other", "seat"]), label="domain kind")
    if kind == "range":
        return f"range({draw(number_bound())}, {draw(number_bound())})"
    if kind == "seat":
        return f"hand[{draw(st.sampled_from(SEATS_OUT), label='seat')}]"
    return str(draw(st.sampled_from(OTHER_DOMAINS), label="domain"))


@FAMILY_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_parameter_domains(data: st.DataObject, seed: int) -> None:
    """(1) One to three parameters of an action, over generated domains: a located refusal at the
    parameter, a game that plays, or a located rule error; no traceback, no endless enumeration."""
    k = data.draw(st.integers(1, 3), label="parameters")
    doms = [data.draw(domain(), label=f"domain {i}") for i in range(k)]
    names = ["a1", "a2", "a3"][:k]
    params = ", ".join(f"{n}: {json.dumps(d)}" for n, d in zip(names, doms))
    when = data.draw(st.sampled_from(["", "true", "a1 == a1", "len(hand[player]) > 0"]), label="when")
    action = f"  choose:\n    params: {{{params}}}\n" + (f"    when: {json.dumps(when)}\n" if when else "") + \
        "    effect: [\"n = n + 1\"]\n"
    check_family(frame(actions=action, phase_actions=", choose"), seed)


# ============================================================== (2) growing values

GROW_SIZES = ["1", "10", "1000", "20000", "100000"]
# (statement, setup statements, procedures, functions); {N} is a size, {i} the innermost loop variable
GROW_OPS: list[tuple[str, list[str], str, str]] = [
    ("xs += [{i}]", [], "", ""),
    ("xs += xs", ["xs = [1]"], "", ""),
    ("xs = xs + xs", ["xs = [1]"], "", ""),
    ("xs = flatten([xs, xs])", ["xs = [1]"], "", ""),
    ("xs += range(0, {N})", [], "", ""),
    ("xs -= ys", ["xs = range(0, {N})", "ys = range({N}, {N} + {N})"], "", ""),
    ("xs -= [{i}]", ["xs = range(0, {N})"], "", ""),
    ("big = big + big", [], "", ""),
    ("big = big + big + big", [], "", ""),
    ("do dbl(xs)", ["xs = [1]", "{if: \"false\", then: [\"do dbl(1)\"]}"],
     "  dbl(v):\n    - xs = v + v\n", ""),
    ("do cat(t)", ["{if: \"false\", then: [\"do cat(1)\"]}"], "  cat(v):\n    - t = v + v\n", ""),
    ("do rep('ab', {N}000)", ["do rep(2, 3)"], "  rep(v, k):\n    - let y = v * k\n    - n = len([y])\n", ""),
    ("do rep([0], {N}00)", ["do rep(2, 3)"], "  rep(v, k):\n    - let y = v * k\n    - n = len([y])\n", ""),
    ("do fm('%0{N}000d', 1)", ["do fm(7, 2)"], "  fm(v, k):\n    - let y = v % k\n    - n = len([y])\n", ""),
    ("n = measure(xs)", ["xs += range(0, {N})"], "", "  measure(h): let k = len(h); k + 1\n"),
    ("n = measure(range(0, {i}))", [], "", "  measure(h): let k = len(h); k + 1\n"),
    ("n = sum(range(0, {N}))", [], "", ""),
    ("n = len(range(0, {N}))", [], "", ""),
    ("n = sum(xs)", ["xs = range(0, {N})"], "", ""),
    ("n = max(xs)", ["xs = range(0, {N})"], "", ""),
    ("n = min(xs)", ["xs = range(0, {N})"], "", ""),
    ("n = len(sort(xs))", ["xs = range(0, {N})"], "", ""),
    ("n = len(sort_by(xs, v => 0 - v))", ["xs = range(0, {N})"], "", ""),
    ("n = len(unique(xs))", ["xs = range(0, {N})"], "", ""),
    ("n = len(group_by(xs, v => v))", ["xs = range(0, {N})"], "", ""),
    ("n = len(reverse(xs))", ["xs = range(0, {N})"], "", ""),
    ("n = index_of(xs, -1)", ["xs = range(0, {N})"], "", ""),
    ("n = len(top(xs, {N}))", ["xs = range(0, {N})"], "", ""),
    ("n = len(bottom(xs, {N}))", ["xs = range(0, {N})"], "", ""),
    ("n = count(xs, v => v < 0)", ["xs = range(0, {N})"], "", ""),
    ("n = len(flatten([xs, ys]))", ["xs = range(0, {N})", "ys = range(0, {N})"], "", ""),
    ("flag_any = any([v < 0 for v in xs])", ["xs = range(0, {N})"], "", ""),
    ("if -1 in xs then n = 1", ["xs = range(0, {N})"], "", ""),
    ("if xs == ys then n = 1", ["xs = range(0, {N})", "ys = range(0, {N})"], "", ""),
]


def _grow_step(op: str, size: str, var: str) -> Any:
    """The operation as a step: a statement (text) or an `if` step (a mapping)."""
    stmt = op.replace("{N}", size).replace("{i}", var)
    if stmt.startswith("flag_any = "):  # a condition: keep its value in n
        return "n = if " + stmt.removeprefix("flag_any = ") + " then 1 else 0"
    if stmt.startswith("if "):
        cond, then = stmt[3:].split(" then ")
        return {"if": cond, "then": [then]}
    return stmt


def _yaml_step(step: Any) -> str:
    """A step for `_steps`: JSON is YAML, so a mapping is written as a JSON object."""
    return json.dumps(step) if isinstance(step, dict) else str(step)


@FAMILY_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_deal_loops(data: st.DataObject, seed: int) -> None:
    """(2) Deals that end at once (no action in between) on packs of up to 5,120 cards, moved and
    shuffled each deal: the match ends, or stops with a located rule error, within the guards."""
    copies = data.draw(st.sampled_from([(1,), (64,), (64,) * 10]), label="copies")  # 8 to 5,120 cards
    over = data.draw(st.sampled_from(["deal_number >= 10", "deal_number >= 1000", "false"]), label="over")
    deal = ["move pack to stock", "shuffle stock"] + data.draw(
        st.sampled_from([["end deal"], ["deal 1 from stock to hand", "end deal"],
                         ["move stock to pile", "shuffle pile", "end deal"]]), label="deal")
    check_family(frame(copies=copies, deal=deal, over_when=over), seed, memory=True)


@FAMILY_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_growing_values(data: st.DataObject, seed: int) -> None:
    """(2) Values that grow inside a step (nested `for` steps) or from action to action: the match plays,
    or stops with a located rule error, within the time and memory guards."""
    op, setup, procs, funcs = data.draw(st.sampled_from(GROW_OPS), label="operation")
    size = data.draw(st.sampled_from(GROW_SIZES), label="size")
    depth = data.draw(st.integers(0, 3), label="loop depth")
    loops = [data.draw(st.sampled_from(GROW_SIZES), label=f"loop {d}") for d in range(depth)]
    step = _grow_step(op, size, f"i{depth - 1}" if depth else "n")
    for d in reversed(range(depth)):
        step = {"for": f"i{d} in range(0, {loops[d]})", "do": [step]}
    first = [s.replace("{N}", size) for s in setup]
    where = data.draw(st.sampled_from(["effect", "after", "report"]), label="where")
    # The match goes on (deal after deal) until the playout's last action: growth per action adds up.
    kw: dict[str, Any] = {"define": funcs, "procedures": procs, "over_when": "false"}
    if where == "report" and isinstance(step, str) and step.startswith("n = "):
        text = frame(effect=first, report=json.dumps(step.removeprefix("n = ")), **kw)
    elif where == "after":
        text = frame(effect=first, after=[_yaml_step(step)], **kw)
    else:
        text = frame(effect=first + [_yaml_step(step)], **kw)
    check_family(text, seed, memory=True)


# ============================================================== (3) call chains

# Arguments of mixed kinds, so that parameters take several types (and procedures' become any).
ARG_KINDS = ["1", "2.5", "'a'", "[1, 2]", "none", "pack", "num_players", "hand[0]", "[[1], [2]]"]
ARG_KINDS_IN_ACTION = ARG_KINDS + ["c", "player", "hand[player]", "[c]"]


@st.composite
def nested(draw: Draw, core: str, depth: int) -> str:
    """`core` inside `depth` levels of arithmetic."""
    out = core
    for k in range(depth):
        op = draw(st.sampled_from(["+", "-", "*", "//", "+"]), label="op")
        side = draw(st.sampled_from([str(k), "1", "(2 - 1)", "len([x])", "(if x == x then 1 else 0)"]), label="side")
        out = f"({out} {op} {side})" if draw(st.booleans(), label="left?") else f"({side} {op} {out})"
    return out


@FAMILY_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_call_chains(data: st.DataObject, seed: int) -> None:
    """(3) Functions and procedures calling each other in chains of random depth and fan-out, with nested
    arithmetic, called with arguments of mixed kinds: located diagnostics (recursion, call depth, types)
    or a game that plays or stops with a located rule error (the budget counts calls); never a
    RecursionError, never a hang."""
    depth = data.draw(st.one_of(st.integers(1, 12), st.sampled_from([40, 60, 99, 100, 101, 150])), label="depth")
    fan = data.draw(st.integers(1, 3), label="fan-out")
    nest = data.draw(st.sampled_from([0, 1, 3, 10, 25, 40]), label="nesting")
    procs = data.draw(st.booleans(), label="procedures?")
    defs = []
    for i in range(depth):
        if i + 1 < depth:
            core = " + ".join(f"f{i + 1}({'x, y' if j % 2 == 0 else 'y, x'})" for j in range(fan))
        else:
            core = data.draw(st.sampled_from(["len([x, y])", "1", "(if x == y then 1 else 2)"]), label="leaf")
        body = data.draw(nested(core, nest), label=f"body {i}")
        defs.append(f"  f{i}(x, y): {json.dumps(body)}\n")
    where = data.draw(st.sampled_from(["effect", "after", "report", "over_when"]), label="where")
    kinds = ARG_KINDS_IN_ACTION if where == "effect" else ARG_KINDS
    args = data.draw(st.lists(st.tuples(st.sampled_from(kinds), st.sampled_from(kinds)), min_size=1, max_size=3),
                     label="arguments")
    calls = [f"n = f0({a}, {b})" for a, b in args]
    proc_text = ""
    if procs:
        pdepth = data.draw(st.integers(1, min(depth, 30)), label="procedure depth")
        for i in range(pdepth):
            nxt = [f"do p{i + 1}(y, x)"] * fan if i + 1 < pdepth else ["n = n + f0(x, y)"]
            proc_text += f"  p{i}(x, y):\n" + _steps(["log 'p {} {}', x, y"] + nxt, 4)
        calls = [f"do p0({a}, {b})" for a, b in args]
    if where == "report" and not procs:
        text = frame(define="".join(defs), report=json.dumps(f"f0({args[0][0]}, {args[0][1]})"))
    elif where == "over_when" and not procs:
        text = frame(define="".join(defs), over_when=json.dumps(f"f0({args[0][0]}, {args[0][1]}) > 0"))
    elif where == "after":
        text = frame(define="".join(defs), procedures=proc_text, after=calls)
    else:
        text = frame(define="".join(defs), procedures=proc_text, effect=calls)
    check_family(text, seed)


# ============================================================== (4) seats and cards out of range

BAD_SEATS = SEATS_OUT + ["num_players * 7", "left(player) + num_players", "-(num_players + 1)"]
BAD_CARDS = ["-1", "-2", "99999", "len(pack)", "0 - len(pack)", "len(pack) + 3"]
# Statements with a seat {p}; each runs in the `after` of the first action.
SEAT_STEPS = [
    "log 'n {}', len(hand[{p}])", "log 'c {}', hand[{p}]", "move hand[player] to hand[{p}]", "move hand[{p}] to pile",
    "move hand[player] to bottom of hand[{p}]", "deal 1 from stock to hand[{p}]", "deal 1 from hand[{p}] to pile",
    "shuffle hand[{p}]", "seen = hand[{p}]", "score[{p}] = 7", "score[{p}] += 1", "log 's {}', score[{p}]",
    "eliminate {p}", "log 'a {}', is_active({p})", "log 'n {}', next_active({p})", "current = {p}",
    "dealer = {p}", "best = {p}", "n = len([q for q in hand[{p}]])",
    '{"for": "q in hand[{p}]", "do": ["log \'q {}\', q"]}', '{"if": "score[{p}] == 42", "then": ["n = 1"]}',
]
# Statements with a card {k}, reached through a procedure parameter of type any.
CARD_STEPS = ["log 's {}', x.suit", "log 'r {}', x.rank", "log 'n {}', x.name", "log 'i {}', x.rank_index",
              "log 'j {}', x.suit_index", "log 'v {}', x.value", "log 'b {}', played_by(x)", "move x to pile",
              "move x to bottom of stock", "mark = x", "seen = [x]"]
# Places other than a statement: (frame argument, text with {p}).
SEAT_PLACES = [("first", "{p}"), ("winners", "[{p}]"), ("over_when", "len(hand[{p}]) >= 0"),
               ("report", "len(hand[{p}])"), ("report", "score[{p}]"), ("match_extra", "  next_dealer: {p}\n"),
               ("when", "len(hand[{p}]) >= 0"), ("domain", "hand[{p}]"), ("visible", "[{p}]"),
               ("initial", "len(hand[{p}])"), ("start", "dealer = {p}"), ("deal", "current = {p}")]


@FAMILY_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_seats_and_cards_out_of_range(data: st.DataObject, seed: int) -> None:
    """(4) A seat or a card that does not exist, in every place one can be written: the match must stop
    with a rule error located at the fragment (or validate refuses it there). The state is flat arrays,
    so an unchecked index reads or writes another zone or variable: a silent success fails."""
    kind = data.draw(st.sampled_from(["step", "step", "card", "place"]), label="kind")
    n_players = data.draw(st.sampled_from(["2", "3", "{min: 2, max: 3}"]), label="players")
    if kind == "card":
        k = data.draw(st.sampled_from(BAD_CARDS), label="card")
        stmt = data.draw(st.sampled_from(CARD_STEPS), label="step")
        procs = "  see(x):\n" + _steps([stmt], 4)
        text = frame(players=n_players, procedures=procs, effect=["do see(c)", f"do see({k})"])
        where = lines_with(text, json.dumps(stmt)) | lines_with(text, json.dumps(f"do see({k})"))
    elif kind == "step":
        p = data.draw(st.sampled_from(BAD_SEATS), label="seat")
        stmt = data.draw(st.sampled_from(SEAT_STEPS), label="step").replace("{p}", p)
        text = frame(players=n_players, after=[stmt])
        where = lines_with(text, stmt if stmt.startswith("{") else json.dumps(stmt))
    else:
        p = data.draw(st.sampled_from(BAD_SEATS), label="seat")
        place, tmpl = data.draw(st.sampled_from(SEAT_PLACES), label="place")
        frag = tmpl.replace("{p}", p)
        q = json.dumps(frag)
        if place == "first":
            text = frame(players=n_players, first=q)
        elif place == "winners":
            text = frame(players=n_players, winners=q)
        elif place == "over_when":
            text = frame(players=n_players, over_when=q)
        elif place == "report":
            text = frame(players=n_players, report=q)
        elif place == "match_extra":
            text = frame(players=n_players, match_extra=frag)
            q = frag.strip()
        elif place == "when":
            text = frame(players=n_players, actions=f"  peek:\n    when: {q}\n", phase_actions=", peek")
        elif place == "domain":
            text = frame(players=n_players, actions=f"  grab:\n    params: {{x: {q}}}\n    effect: [move x to pile]\n",
                         phase_actions=", grab")
        elif place == "visible":
            text = frame(players=n_players, zones_extra=f"  shown:\n    per_player: true\n    visible: {q}\n")
        elif place == "initial":
            text = frame(players=n_players, variables_extra=f"  odd: {{type: int, per_player: true, initial: {q}}}\n")
        elif place == "start":
            text = frame(players=n_players, start=[frag])
        else:
            text = frame(players=n_players, deal=["move pack to stock", "shuffle stock", "deal 2 from stock to hand",
                                                  frag, "goto main"])
        where = lines_with(text, q)
    assert where, "the fragment is not in the text"
    out = check_family(text, seed, first=True)
    if not out.loaded.ok:
        bad = {d.span.line for d in out.loaded.diagnostics if d.span.file == FAMILY_FILE} - where
        assert not bad, f"refused at lines {sorted(bad)}, not at the fragment's lines {sorted(where)}"
        return
    if out.played:
        raise Failed(f"the match played on with a seat or card out of range (lines {sorted(where)}): a silent "
                     "success, the fragment must be a located rule error")
    for e in out.errors:
        assert e.span is not None
        if e.span.line not in where:
            raise Failed(f"the rule error points at line {e.span.line}, not at the fragment's lines "
                         f"{sorted(where)}:\n{e}")


# ============================================================== (5) paths in extends and game

TOKEN = "fuzz-secret-token-7c41d9"
ENV_SECRET = "cardsmith-family-env-secret-2b8e"
GOOD_GAME = frame(over_when="true")


@pytest.fixture(scope="module")
def path_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder with odd things in it: a FIFO, symlinks, a folder named like a rule file, a YAML file that
    is not a rule file and holds a secret; the fuzzed files go in its subfolder `sub/`."""
    d = tmp_path_factory.mktemp("paths")
    (d / "sub").mkdir()
    (d / "game.yaml").write_text(GOOD_GAME, encoding="utf-8")
    (d / "secret.yaml").write_text(f"password: {TOKEN}\napi_key: '{TOKEN}'\n", encoding="utf-8")
    (d / "secret-list.yaml").write_text(f"- {TOKEN}\n", encoding="utf-8")
    (d / "secret-game.yaml").write_text(f"game: {TOKEN}\nplayers: {TOKEN}\ndeck: {{{TOKEN}: 1}}\n", encoding="utf-8")
    (d / "secret.txt").write_text(f"{TOKEN}\n", encoding="utf-8")
    (d / "folder.yaml").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(d / "fifo.yaml")
    for name, target in [("passwd.yaml", "/etc/passwd"), ("environ.yaml", "/proc/self/environ"),
                         ("zero.yaml", "/dev/zero"), ("secret-link.yaml", str(d / "secret.yaml")),
                         ("loop.yaml", str(d / "loop.yaml")), ("dangling.yaml", str(d / "missing" / "x.yaml"))]:
        os.symlink(target, d / name)
    old = os.environ.get("CARDSMITH_FAMILY_SECRET")
    os.environ["CARDSMITH_FAMILY_SECRET"] = ENV_SECRET
    yield d
    if old is None:
        del os.environ["CARDSMITH_FAMILY_SECRET"]
    else:
        os.environ["CARDSMITH_FAMILY_SECRET"] = old


TARGETS = ["game.yaml", "secret.yaml", "secret-list.yaml", "secret-game.yaml", "secret.txt", "folder.yaml",
           "fifo.yaml", "passwd.yaml", "environ.yaml", "zero.yaml", "secret-link.yaml", "loop.yaml", "dangling.yaml",
           "missing.yaml", "sub", ".", "", "sub/fuzz.yaml"]
ABSOLUTE = ["/etc/passwd", "/etc/shadow", "/proc/self/environ", "/proc/self/cmdline", "/proc/self/fd/0", "/dev/zero",
            "/dev/stdin", "/dev/urandom", "/dev/null", "/", "/tmp", "/etc/passwd.yaml", "file:///etc/passwd",
            "http://localhost/x.yaml", "~/.ssh/id_rsa", "~root/.bashrc", "$HOME/x.yaml", "*.yaml", "C:\\x.yaml"]
ODD_NAMES = ["a\x00b.yaml", "game.yaml\x00.txt", "a\nb.yaml", "game.yaml\n", "\x1b[2J.yaml", "%s%n%x.yaml",
             "{}.yaml", "'.yaml", '".yaml', "\\.yaml", "é.yaml", "\u202egame.yaml", "x" * 300 + ".yaml",
             "x" * 5000, "con.yaml", " game.yaml", "game.yaml "]


@st.composite
def odd_path(draw: Draw, folder: Path) -> str:
    kind = draw(st.sampled_from(["relative", "relative", "absolute", "odd", "mine"]), label="path kind")
    if kind == "absolute":
        return str(draw(st.sampled_from(ABSOLUTE), label="absolute"))
    if kind == "odd":
        return str(draw(st.sampled_from(ODD_NAMES), label="name"))
    target = str(draw(st.sampled_from(TARGETS), label="target"))
    if kind == "mine":  # absolute, into the folder
        return str(folder / target)
    ups = draw(st.integers(0, 14), label="../")
    if ups > 10:  # up to the root, then down again: into the folder, or to a system file
        down = draw(st.sampled_from([str(folder).lstrip("/") + "/" + target, "etc/passwd", "proc/self/environ",
                                     "dev/zero"]), label="down")
        return "../" * ups + down
    return "../" * ups + target


def check_no_secret(text: str, what: str) -> None:
    for secret, name in [(TOKEN, "the secret of a file that is not a rule file"), (ENV_SECRET, "the environment"),
                         (SECRET, "the environment"), (PASSWD_LINE, "/etc/passwd")]:
        if secret in text:
            raise Failed(f"{what} shows {name}:\n{text[-2000:]}")


@FAMILY_SETTINGS
@given(data=st.data())
def test_paths_in_extends(path_folder: Path, data: st.DataObject) -> None:
    """(5) `extends:` naming odd paths: located diagnostics (or the merged game, for a real rule file),
    no hang, and nothing of the file read (a secret, the environment, /etc/passwd) in any message."""
    path = data.draw(odd_path(path_folder), label="extends")
    body = data.draw(st.sampled_from(["game: Variant\n", "game: Variant\nvariables:\n  score: {initial: 1}\n",
                                      "game: Variant\nnew:\n  constants:\n    extra: 1\n", ""]), label="body")
    text = f"extends: {json.dumps(path)}\n{body}"
    note(f"rule file text:\n{text}")
    file = str(path_folder / "sub" / "fuzz.yaml")
    with guarded(True):
        loaded = compile_text(text, file, limits=FAMILY_LIMITS)
    check_no_secret(render_all(loaded.diagnostics, loaded.sources), "a diagnostic")
    if not loaded.ok:
        check_diagnostics(loaded)


@FAMILY_SETTINGS
@given(data=st.data())
def test_paths_in_scenario_game(path_folder: Path, data: st.DataObject) -> None:
    """(5) A scenario file whose `game:` names odd paths: located diagnostics or scenario results, no
    hang, and nothing of the file read in any message."""
    path = data.draw(odd_path(path_folder), label="game")
    steps = data.draw(st.sampled_from(["[{random: 1}]", "[{expect: {deal: 1}}]", "[{expect: {password: x}}]"]),
                      label="steps")
    text = f"game: {json.dumps(path)}\nscenarios:\n  - name: odd path\n    steps: {steps}\n"
    note(f"scenario file text:\n{text}")
    file = path_folder / "sub" / "fuzz.scenarios.yaml"
    file.write_text(text, encoding="utf-8")
    messages: list[str] = []
    with guarded(True):
        try:
            for r in run_file(str(file), limits=FAMILY_LIMITS):
                assert r.span.line >= 1, r
                messages.append(r.message)
        except RuleFileError as e:
            assert e.diagnostics, "RuleFileError without any diagnostic"
            for d in e.diagnostics:
                assert d.span.line >= 1 and d.span.col >= 1 and d.message.strip(), d
            messages.append(e.render())
        except GameError as e:
            messages.append(str(e))
    for m in messages:
        check_no_secret(m, "a scenario message")


# ============================================================== the outputs the fuzzers do not reach


def cli(args: list[str], cwd: Path, stdin: str = "") -> tuple[int, str]:
    """`cardsmith ARGS` in a process of its own (tests/forkserver.py) under the attack suite's limits:
    (status, stdout + stderr)."""
    env = dict(os.environ, CARDSMITH_ATTACK_SECRET=SECRET, PYTHONDONTWRITEBYTECODE="1")
    try:
        p = run_cli(args, cwd=cwd, env=env, input=stdin.encode(), timeout=5.0, rlimit_as=MEMORY)
    except subprocess.TimeoutExpired:
        pytest.fail(f"'cardsmith {' '.join(args)}' did not finish within 5 s (a hang)")
    return p.returncode, p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")


def _attacks(*prefixes: str) -> list[Path]:
    return sorted(p for p in ATTACKS.glob("*.yaml") if p.name.startswith(prefixes))


def _check_cli(path: Path, code: int, out: str, what: str, must_fail: bool) -> None:
    a = read_attack(path)
    assert "Traceback" not in out, f"{what} crashed with a traceback:\n{out[-3000:]}"
    assert code in (0, 1), f"{what} ended with status {code}:\n{out[-3000:]}"
    if must_fail:
        assert code == 1, f"{what} succeeded; the attack must stop it with a rule error:\n{out[-3000:]}"
    if code == 1:
        lines = located_lines(path, out)
        assert lines and set(lines) <= a.must | a.may, (
            f"{what}: the error is not located at the attack's lines {sorted(a.must | a.may)}:\n{out[-3000:]}")


@pytest.mark.parametrize("path", _attacks("trace_deep_nested"), ids=lambda p: p.stem)
def test_json_of_deep_values(path: Path, tmp_path: Path) -> None:
    """`run --json` of a match holding a list nested 3,000 deep: JSON, or a located rule error."""
    code, out = cli(["run", str(path), "--seed", "1", "--json"], tmp_path)
    _check_cli(path, code, out, "run --json", must_fail=False)
    if code == 0:
        json.loads(out)


@pytest.mark.parametrize("path", _attacks("trace_current", "trace_dealer", "trace_card_variable",
                                          "trace_player_variable"), ids=lambda p: p.stem)
def test_play_with_seats_out_of_range(path: Path, tmp_path: Path) -> None:
    """`play` (you at seat 0, always choosing the first action) of a game that sets `current`, `dealer` or a
    card variable out of range: a located rule error, not a traceback."""
    code, out = cli(["play", str(path), "--seat", "0", "--seed", "1"], tmp_path, stdin="1\n" * 200)
    _check_cli(path, code, out, "play", must_fail=True)


@pytest.mark.parametrize("path", _attacks("trace_deep_nested_report", "trace_deep_nested_summary"),
                         ids=lambda p: p.stem)
def test_scenario_message_of_deep_values(path: Path, tmp_path: Path) -> None:
    """A scenario expecting a value where the game would hold a list nested 3,000 deep: the scenario fails
    with a message, not a traceback: at its `expect` line, or, since a `numbers` variable may hold only
    numbers, where the game refuses to keep the nested list (a located rule error of the attack file)."""
    scen = tmp_path / "deep.scenarios.yaml"
    scen.write_text(f"game: {json.dumps(str(path))}\nscenarios:\n  - name: deep\n    steps:\n      - random: 1\n"
                    "      - expect: {v: [1]}\n", encoding="utf-8")
    code, out = cli(["test", str(scen)], tmp_path)
    scen.unlink()
    assert "Traceback" not in out, f"the scenario crashed with a traceback:\n{out[-3000:]}"
    refused = re.search(re.escape(str(path)) + r":\d+:\d+: rule error: ", out) is not None
    assert code == 1 and (f"{scen}:6:" in out or refused), \
        f"the scenario must fail at its expect line or with a located rule error:\n{out[-3000:]}"
