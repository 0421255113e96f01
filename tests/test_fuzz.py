"""Fuzzing: broken rule files and generated expressions never crash cardsmith.

    python -m pytest tests/test_fuzz.py                                  # the "ci" profile: well under a minute
    HYPOTHESIS_PROFILE=fuzz-deep python -m pytest tests/test_fuzz.py --hypothesis-show-statistics

The second command is the deep run: 34 tests of 6,500 examples each, 221,000 cases (about 160 CPU minutes;
FUZZ_EXAMPLES=N sets the examples per test, FUZZ_EXAMPLE_SECONDS the hang guard of one example,
30 s by default; `-k "not scenario and not options"` keeps to the 19 rule-file tests, 123,500 cases).

Whatever text reaches `compile_text`, the outcome is either a game that runs (or stops with a
`GameError`) or a list of located diagnostics; never an uncaught exception. Two fuzzers check this:

* the mutation fuzzer takes every bundled rule file (games/*.yaml) and breaks it: structurally (keys
  dropped, duplicated, retyped, reordered, expression and statement texts and keys broken, `extends:`
  redirected) on the YAML data, which is then dumped back to text, or textually (truncated, lines
  deleted, duplicated, swapped or re-indented, characters inserted) on the file itself;
* the expression fuzzer generates expressions and statements from dsl/grammar.lark (random ones,
  well-typed ones that mostly compile, and token soup) and puts them into a small valid game: as a
  `define:` function body called from a `when:`, an `after:` step, a report, an option default or bound,
  a constraint, a `visible:` rule, a parameter domain, ..., written in the different YAML scalar styles.

The other untrusted inputs get the same treatment: scenario files (tests/scenarios/*.yaml broken the
same ways, then run), and option values, player counts and action ids given to a bundled game.

Every example is compiled, and a compiled game is instantiated at its fewest and most players and
played for a short random walk. A failure prints the rule file text it compiled.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
import re
import signal
import string
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from cardsmith.dsl.checker import BUILTIN_VALUES, CARD_ATTRS
from cardsmith.dsl.diagnostics import RuleFileError, render_all
from cardsmith.dsl.library import LIBRARY
from cardsmith.dsl.limits import Limits
from cardsmith.dsl.parser import KEYWORDS
from cardsmith.dsl.pipeline import Loaded, compile_text
from cardsmith.engine.errors import GameError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.scenario.runner import run_file
from conftest import GAME_FILES, GAMES_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import note as _hypothesis_note
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

pytestmark = [pytest.mark.slow, pytest.mark.fuzz]

# The name every fuzzed text is compiled under. It sits beside the bundled games (it need not exist)
# so that `extends: chwech.yaml` in a mutated variant finds its base.
FUZZ_FILE = str(GAMES_DIR / "fuzz.yaml")

# The errors a user can act on; anything else escaping the pipeline or the engine is a bug.
USER_ERRORS = (GameError, RuleFileError)

MAX_ACTIONS = 200  # actions of one random playout
PLAYOUT_SECONDS = 2.0  # a playout stops (successfully) after this long
# A hard guard: an example running longer than this fails the test (a hang is a bug too).
EXAMPLE_SECONDS = float(os.environ.get("FUZZ_EXAMPLE_SECONDS", "30"))
# A lower budget of list items per step than the default 2,000,000, so a mutated rule that loops
# over huge lists ends (with a RuleError) quickly; everything else runs with the usual limits.
FUZZ_STEPS = 200_000
FUZZ_LIMITS = Limits(steps=FUZZ_STEPS)  # passed to every compile: never set globally

FUZZ_SETTINGS = settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.large_base_example],
    deadline=None,
)




# ============================================================== the property


def note(text: str) -> None:
    """hypothesis.note, which prints with a failing example; a no-op outside a hypothesis test."""
    if currently_in_test_context():
        _hypothesis_note(text)


class ExampleTooSlow(BaseException):
    """Raised by the hang guard (a BaseException, so no `except Exception` in the code under test eats it)."""


@contextmanager
def time_guard(seconds: float) -> Iterator[None]:
    """Fail the example if it runs longer than `seconds` (SIGALRM; a no-op where that is unavailable)."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise ExampleTooSlow(f"one example ran longer than {seconds:g} s (a hang?)")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_diagnostics(loaded: Loaded) -> None:
    """A rule file that does not compile says why, at places in the files that were read."""
    assert loaded.diagnostics, "compile_text failed without any diagnostic"
    for d in loaded.diagnostics:
        sp = d.span
        assert isinstance(sp.line, int) and sp.line >= 1, f"diagnostic with line {sp.line!r}: {d}"
        assert isinstance(sp.col, int) and sp.col >= 1, f"diagnostic with column {sp.col!r}: {d}"
        assert isinstance(d.message, str) and d.message.strip(), f"diagnostic without a message: {d}"
        assert sp.file in loaded.sources, (
            f"diagnostic in {sp.file!r}, which is neither the fuzzed file nor a file it extends "
            f"({sorted(loaded.sources)}): {d}"
        )
    text = render_all(loaded.diagnostics, loaded.sources)
    assert isinstance(text, str) and text


def playout(game: Game, seed: int) -> None:
    """A short random walk; a GameError (a rule failing, a stuck phase) is a fine way for it to end."""
    rnd = random.Random(seed)
    try:
        s = State.initial(game, seed, log=True)
        s.observation(0)
        deadline = time.monotonic() + PLAYOUT_SECONDS
        for _ in range(MAX_ACTIONS):
            if s.is_terminal() or time.monotonic() > deadline:
                break
            legal = s.legal_actions()
            a = rnd.choice(legal)
            s.action_to_string(s.current_player(), a)
            s.apply_action(a)
        s.returns()
        str(s)
    except USER_ERRORS as e:
        note(f"playout (seed {seed}) stopped with {type(e).__name__}: {e}")


def check_outcome(text: str, seed: int = 0, file: str = FUZZ_FILE) -> Loaded:
    """The fuzz property: a valid game that plays, or located diagnostics; nothing else escapes."""
    note(f"rule file text:\n{text}")
    with time_guard(EXAMPLE_SECONDS):
        loaded = compile_text(text, file, limits=FUZZ_LIMITS)
        if not loaded.ok:
            check_diagnostics(loaded)
            return loaded
        compiled = loaded.game
        assert compiled is not None
        sp = compiled.spec
        for n in sorted({sp.min_players, sp.max_players}):
            try:
                game = Game(compiled, n)
            except USER_ERRORS as e:
                note(f"Game({n} players) refused: {type(e).__name__}: {e}")
                continue
            playout(game, seed)
    return loaded


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# ============================================================== vocabulary

OPERATORS = ["+", "-", "*", "/", "//", "%", "mod", "==", "!=", "<", ">", "<=", ">=", "=", "+=", "-=", "=>",
             ".", ",", ";", "(", ")", "[", "]", "{", "}", "'", '"', ":", "#", "&", "*", "!", "|", ">", "@",
             "`", "\\", "\t", "\n", " ", "  ", "- ", ": ", "? "]
WORDS = sorted(KEYWORDS) + sorted(LIBRARY) + sorted(BUILTIN_VALUES) + sorted(CARD_ATTRS)
ODD_TEXT = ["0", "1", "-1", "1.5", "99999999999999999999", "1e308", "'x'", '""', "none", "true", "é", "∞",
            "\x00", "\u2028", "${x}", "{}", "__import__", "__class__", "s", "self"]

IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
TOKEN_RE = re.compile(r"\s+|[A-Za-z_0-9.]+|//|==|!=|<=|>=|=>|\+=|-=|[^\sA-Za-z_0-9]")


def _all_keys(node: Any, out: set[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(str(k))
            _all_keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _all_keys(v, out)


GAME_TEXTS: dict[str, str] = {p.name: p.read_text(encoding="utf-8") for p in GAME_FILES}
GAME_DATA: dict[str, Any] = {name: yaml.safe_load(text) for name, text in GAME_TEXTS.items()}
_keys: set[str] = set()
for _d in GAME_DATA.values():
    _all_keys(_d, _keys)
ALL_KEYS = sorted(_keys)  # every key of every bundled file: sections, their keys, names
NAMES_OF: dict[str, list[str]] = {name: sorted(set(IDENT_RE.findall(text))) for name, text in GAME_TEXTS.items()}
EXTENDS_TARGETS = [p.name for p in GAME_FILES] + ["", ".", "..", "missing.yaml", "fuzz.yaml", "../README.md",
                                                 "../games/chwech.yaml", "/dev/null", "chwech.yaml/x"]


def fragments(file_name: str) -> st.SearchStrategy[str]:
    """Pieces of text to insert: operators, brackets, words of the language and names of the file."""
    return st.one_of(
        st.sampled_from(OPERATORS),
        st.sampled_from(WORDS),
        st.sampled_from(NAMES_OF[file_name]),
        st.sampled_from(ODD_TEXT),
        st.text(max_size=3),
    )


# ============================================================== breaking a string


def break_string(draw: Callable[..., Any], s: str, file_name: str) -> str:
    """A broken variant of an expression or statement text."""
    how = draw(st.sampled_from(["delete", "insert", "swap", "duplicate", "truncate"]), label="break")
    n = len(s)
    if how == "delete" and n:
        i = draw(st.integers(0, n - 1), label="from")
        j = draw(st.integers(i + 1, min(n, i + 12)), label="to")
        return s[:i] + s[j:]
    if how == "insert":
        i = draw(st.integers(0, n), label="at")
        parts = draw(st.lists(fragments(file_name), min_size=1, max_size=4), label="insert")
        sep = draw(st.sampled_from(["", " "]), label="sep")
        return s[:i] + sep.join(parts) + s[i:]
    toks = TOKEN_RE.findall(s)
    words = [i for i, t in enumerate(toks) if not t.isspace()]
    if how == "swap" and len(words) >= 2:
        i = draw(st.sampled_from(words), label="tok1")
        j = draw(st.sampled_from(words), label="tok2")
        toks[i], toks[j] = toks[j], toks[i]
        return "".join(toks)
    if how == "duplicate" and words:
        i = draw(st.sampled_from(words), label="tok")
        toks.insert(i, toks[i] + " ")
        return "".join(toks)
    if n:
        return s[: draw(st.integers(0, n - 1), label="cut")]
    return draw(fragments(file_name), label="filler")


# ============================================================== structural mutations

KeyPath = tuple[Any, ...]


def paths(node: Any, here: KeyPath = ()) -> Iterator[tuple[KeyPath, Any]]:
    yield here, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, here + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, here + (i,))


def get(root: Any, path: KeyPath) -> Any:
    for k in path:
        root = root[k]
    return root


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=70),
    st.sampled_from([0, -1, 10**6, 10**12, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(WORDS + ALL_KEYS),
)
RANDOM_VALUES = st.recursive(
    SCALARS,
    lambda sub: st.one_of(st.lists(sub, max_size=3), st.dictionaries(st.sampled_from(ALL_KEYS), sub, max_size=3)),
    max_leaves=6,
)


def retyped(draw: Callable[..., Any], value: Any) -> Any:
    """The value as another type: string <-> number <-> list <-> mapping <-> null <-> bool."""
    to = draw(st.sampled_from(["str", "int", "float", "list", "map", "null", "bool", "random"]), label="retype")
    if to == "str":
        return json.dumps(value) if not isinstance(value, str) else value + "x"
    if to == "int":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value:
            return draw(st.sampled_from([0, -1, 1, 2, 65, 10**6]), label="int") if abs(value) < 1e18 else 0
        return len(value) if isinstance(value, (str, list, dict)) else draw(st.integers(-2, 9), label="int")
    if to == "float":
        return draw(st.sampled_from([0.5, -0.0, 2.5, float("nan"), float("inf"), 1e300]), label="float")
    if to == "list":
        return [value] if not isinstance(value, list) else (value[:1] * 2 if value else [None])
    if to == "map":
        if isinstance(value, dict):
            return {draw(st.sampled_from(ALL_KEYS), label="key"): value}
        if isinstance(value, list):
            return {str(i): v for i, v in enumerate(value)}
        return {(value if isinstance(value, (str, int, bool)) or value is None else str(value)): value}
    if to == "null":
        return None
    if to == "bool":
        return draw(st.booleans(), label="bool")
    return draw(RANDOM_VALUES, label="value")


def mutate_structure(draw: Callable[..., Any], data: Any, file_name: str) -> Any:
    """One random structural mutation of the YAML data (returns the new root)."""
    all_paths = list(paths(data))
    kind = draw(st.sampled_from(["drop", "duplicate", "retype", "reorder", "break", "break", "break_key", "drop",
                                 "retype", "extends"]), label="mutation")
    inner = [p for p, _ in all_paths if p]
    if kind == "drop" and inner:
        p = draw(st.sampled_from(inner), label="path")
        del get(data, p[:-1])[p[-1]]
        return data
    if kind == "duplicate" and inner:
        src = draw(st.sampled_from(inner), label="source")
        maps = [p for p, v in all_paths if isinstance(v, dict)]
        if not maps:
            return data
        dst = draw(st.sampled_from(maps), label="into")
        target = get(data, dst)
        keys = list(target) + ALL_KEYS + NAMES_OF[file_name]
        key = draw(st.one_of(st.sampled_from(keys), st.from_regex(IDENT_RE, fullmatch=True)), label="key")
        target[key] = copy.deepcopy(get(data, src))
        return data
    if kind == "retype":
        p = draw(st.sampled_from([p for p, _ in all_paths]), label="path")
        new = retyped(draw, get(data, p))
        if not p:
            return new
        get(data, p[:-1])[p[-1]] = new
        return data
    if kind == "reorder":
        seqs = [p for p, v in all_paths if isinstance(v, (dict, list)) and len(v) >= 2]
        if not seqs:
            return data
        p = draw(st.sampled_from(seqs), label="path")
        node = get(data, p)
        if isinstance(node, dict):
            order = draw(st.permutations(list(node)), label="order")
            new_node: Any = {k: node[k] for k in order}
        else:
            new_node = draw(st.permutations(node), label="order")
        if not p:
            return new_node
        get(data, p[:-1])[p[-1]] = new_node
        return data
    if kind == "break":
        strings = [p for p, v in all_paths if isinstance(v, str) and p]
        if not strings:
            return data
        p = draw(st.sampled_from(strings), label="path")
        get(data, p[:-1])[p[-1]] = break_string(draw, get(data, p), file_name)
        return data
    if kind == "break_key":
        named = [(p, k) for p, v in all_paths if isinstance(v, dict) for k in v if isinstance(k, str)]
        if not named:
            return data
        p, k = draw(st.sampled_from(named), label="key")
        node = get(data, p)
        new_key = break_string(draw, k, file_name)
        if new_key in node and new_key != k:
            return data
        renamed = {(new_key if kk == k else kk): vv for kk, vv in node.items()}
        if not p:
            return renamed
        get(data, p[:-1])[p[-1]] = renamed
        return data
    if kind == "extends" and isinstance(data, dict):
        data["extends"] = draw(st.sampled_from(EXTENDS_TARGETS), label="extends")
    return data


# ============================================================== text mutations


def mutate_text(draw: Callable[..., Any], text: str, file_name: str) -> str:
    lines = text.splitlines(keepends=True)
    kind = draw(st.sampled_from(["truncate", "delete_line", "duplicate_line", "swap_lines", "indent", "insert",
                                 "delete"]), label="text mutation")
    if kind == "truncate":
        return text[: draw(st.integers(0, len(text)), label="offset")]
    if kind in ("delete_line", "duplicate_line", "indent") and lines:
        i = draw(st.integers(0, len(lines) - 1), label="line")
        if kind == "delete_line":
            del lines[i]
        elif kind == "duplicate_line":
            lines.insert(i, lines[i])
        else:
            shift = draw(st.sampled_from([-4, -2, -1, 1, 2, 4]), label="shift")
            body = lines[i].lstrip(" ")
            indent = max(0, len(lines[i]) - len(body) + shift)
            lines[i] = " " * indent + body
        return "".join(lines)
    if kind == "swap_lines" and len(lines) >= 2:
        i = draw(st.integers(0, len(lines) - 1), label="line1")
        j = draw(st.integers(0, len(lines) - 1), label="line2")
        lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines)
    if kind == "delete" and text:
        i = draw(st.integers(0, len(text) - 1), label="from")
        j = draw(st.integers(i + 1, min(len(text), i + 40)), label="to")
        return text[:i] + text[j:]
    i = draw(st.integers(0, len(text)), label="at")
    s = draw(st.one_of(fragments(file_name), st.text(max_size=6)), label="insert")
    return text[:i] + s + text[i:]


GAME_NAMES = [p.name for p in GAME_FILES]
files = pytest.mark.parametrize("file_name", GAME_NAMES)


@files
@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_structure_mutations(file_name: str, data: st.DataObject, seed: int) -> None:
    """(1) Keys dropped, duplicated, retyped, reordered; expressions broken; dumped back to YAML."""
    tree = copy.deepcopy(GAME_DATA[file_name])
    for _ in range(data.draw(st.sampled_from([1, 1, 1, 2, 2, 3, 4]), label="mutations")):
        tree = mutate_structure(data.draw, tree, file_name)
    text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=100)
    check_outcome(text, seed)


@files
@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_text_mutations(file_name: str, data: st.DataObject, seed: int) -> None:
    """(1) The file's text truncated, lines deleted / duplicated / swapped / re-indented, characters inserted."""
    text = GAME_TEXTS[file_name]
    for _ in range(data.draw(st.sampled_from([1, 1, 2, 3]), label="mutations")):
        text = mutate_text(data.draw, text, file_name)
    check_outcome(text, seed)


# ============================================================== expressions from the grammar

# A small valid game with $places for the fuzzed text; FUZZ_PLACES gives each place's default (which
# the frame holds when another place is fuzzed), the indentation of its key (for block scalars), and
# the type and local names a well-typed expression there has ("stmt": a statement).
FUZZ_GAME = string.Template("""\
game: Fuzz
players: {min: 2, max: 3}
options:
  bonus: {type: int, default: 2, min: 0, max: 5}
  style: {type: choice, values: [plain, fancy], default: plain}
  strict: {type: bool, default: false}
  extra:
    type: int
    default: $option
    min: 0
    max: 9
  cap:
    type: int
    default: 0
    min: 0
    max: $bound
constraints:
  - refuse: $constraint
    message: refused
constants:
  table: {1: 10, 2: 20}
  limit: 3
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', K, A]
  properties:
    value: {by_rank: {'2': 2, '3': 3, K: 10, A: 11}}
    red: {by_suit: {hearts: true}, default: false}
    double: $property
  pack:
    - where: $where
zones:
  stock: {visible: nobody}
  hand: {per_player: true, visible: owner}
  pile: {}
  shown:
    per_player: true
    visible: $visible
variables:
  score: {type: int, per_player: true}
  best: {type: player, initial: none}
  seen: {type: cards}
  flag: {type: bool}
  ratio:
    type: number
    scope: deal
    initial: $initial
define:
  total(h): sum([c.value for c in h])
  fz(x): $define
procedures:
  bump(p):
    - score[p] += 1
actions:
  play:
    params: {c: "hand[player]"}
    when: $when
    effect:
      - move c to pile
      - seen += [c]
  choose:
    params:
      k: $param
    effect: []
  wait:
    effect: []
phases:
  main:
    first: $first
    actions: [play, choose, wait]
    after:
      - $step
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  deal:
    - move pack to stock
    - shuffle stock
    - deal 2 from stock to hand
    - goto main
  report:
    total: $report
  end_deal:
    - do bump(dealer)
  over_when: $over_when
  winners: $winners
""")
FUZZ_PLACES: dict[str, tuple[str, int, str, tuple[tuple[str, str], ...]]] = {
    "option": ("=bonus + 1", 4, "int", ()),
    "bound": ("=limit + extra", 4, "int", ()),
    "constraint": ("false", 4, "bool", ()),
    "property": ("2 * rank_index", 4, "int",
                 (("rank_index", "int"), ("suit_index", "int"), ("rank", "rank"), ("suit", "suit"))),
    "where": ("true", 6, "bool", (("card", "card"),)),
    "visible": ("[owner]", 4, "players", (("owner", "player"),)),
    "initial": ("0.5", 4, "num", ()),
    "define": ("x", 2, "any", ()),
    "when": ("true", 4, "bool", (("c", "card"),)),
    "param": ("range(0, 3)", 6, "domain", ()),
    "first": ("left(dealer)", 4, "player", ()),
    "step": ("flag = not flag", 6, "stmt", ()),
    "report": ("total(hand[p])", 4, "any", (("p", "player"),)),
    "over_when": ("deal_number >= 2", 2, "bool", ()),
    "winners": ("players", 2, "players", ()),
}
EXPRESSION_PLACES = [k for k, v in FUZZ_PLACES.items() if v[2] != "stmt"]


def fuzz_game(draw: Callable[..., Any] | None = None, place: str | None = None, text: str = "") -> str:
    """The frame with `text` at `place` (written in a YAML style drawn by `draw`) and defaults elsewhere."""
    values = {k: json.dumps(v[0]) for k, v in FUZZ_PLACES.items()}
    if place is not None:
        assert draw is not None
        if place in ("option", "bound"):
            text = "=" + text
        values[place] = yaml_scalar(draw, text, FUZZ_PLACES[place][1])
    return FUZZ_GAME.substitute(values)


GAME_VALUE_NAMES = ["bonus", "style", "strict", "table", "limit", "stock", "hand", "pile", "score", "best", "seen",
                    "flag", "ratio", "p", "c", "x"] + sorted(BUILTIN_VALUES)
GAME_FUNCS = ["total", "fz", "bump"] + sorted(LIBRARY)
LOCAL_NAMES = ["x", "y", "c", "p", "h", "n"]
ATTRS = sorted(CARD_ATTRS) + ["value", "red", "missing", "__class__"]
BINARY_OPS = ["+", "-", "*", "/", "//", "%", "mod", "and", "or", "==", "!=", "<", ">", "<=", ">=", "in", "not in"]

idents = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True)
names = st.one_of(st.sampled_from(GAME_VALUE_NAMES), st.sampled_from(LOCAL_NAMES), idents)
local_names = st.one_of(st.sampled_from(LOCAL_NAMES), st.sampled_from(GAME_VALUE_NAMES), idents)

leaves = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["0", "1", "2.5", "0.0", "1000000", "99999999999999999999", "100001"]),
    st.sampled_from(["'a'", '"hearts"', "''", "'K'", "'plain'", "'A of clubs'", "'{}'"]),
    st.sampled_from(["true", "false", "none"]),
    names,
    names,
)


def _par(s: str) -> str:
    return f"({s})"


def _grow(sub: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    maybe_par = st.tuples(sub, st.booleans()).map(lambda t: _par(t[0]) if t[1] else t[0])
    lam = st.tuples(local_names, sub).map(lambda t: f"{t[0]} => {t[1]}")
    arg = st.one_of(sub, lam)
    comp_tail = st.tuples(local_names, maybe_par, st.one_of(st.just(""), maybe_par.map(lambda s: f" if {s}")))
    return st.one_of(
        st.tuples(maybe_par, st.sampled_from(BINARY_OPS), maybe_par).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(st.sampled_from(["-", "not "]), maybe_par).map("".join),
        st.tuples(sub, sub, sub).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.tuples(st.lists(st.tuples(local_names, sub), min_size=1, max_size=3), sub).map(
            lambda t: "let " + " ".join(f"{n} = {v};" for n, v in t[0]) + " " + t[1]),
        lam.map(_par),
        st.tuples(st.one_of(st.sampled_from(GAME_FUNCS), idents), st.lists(arg, max_size=4)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(st.sampled_from(GAME_FUNCS), sub, comp_tail).map(
            lambda t: f"{t[0]}({t[1]} for {t[2][0]} in {t[2][1]}{t[2][2]})"),
        st.lists(sub, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(sub, comp_tail).map(lambda t: f"[{t[0]} for {t[1][0]} in {t[1][1]}{t[1][2]}]"),
        st.tuples(maybe_par, sub).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(maybe_par, st.sampled_from(ATTRS)).map(lambda t: f"{t[0]}.{t[1]}"),
        sub.map(_par),
    )


EXPRESSIONS = st.recursive(leaves, _grow, max_leaves=20)

ZONE_TEXT = st.one_of(st.sampled_from(["stock", "pile", "hand", "hand[player]", "hand[p]", "hand[0]", "score",
                                       "hand[left(player)]", "missing"]),
                      EXPRESSIONS.map(lambda e: f"hand[{e}]"))
TARGETS = st.one_of(st.sampled_from(["score", "best", "seen", "flag", "ratio", "dealer", "current", "player",
                                     "hand", "bonus", "z"]),
                    st.tuples(st.sampled_from(["score", "seen", "hand", "flag", "x"]), EXPRESSIONS).map(
                        lambda t: f"{t[0]}[{t[1]}]"))
STATEMENTS = st.one_of(
    st.tuples(TARGETS, st.sampled_from(["=", "+=", "-="]), EXPRESSIONS).map(" ".join),
    st.tuples(local_names, EXPRESSIONS).map(lambda t: f"let {t[0]} = {t[1]}"),
    st.tuples(local_names, EXPRESSIONS).map(lambda t: f"pick {t[0]} from {t[1]}"),
    st.tuples(EXPRESSIONS, st.sampled_from(["", "bottom of "]), ZONE_TEXT).map(
        lambda t: f"move {t[0]} to {t[1]}{t[2]}"),
    st.tuples(EXPRESSIONS, ZONE_TEXT, ZONE_TEXT).map(lambda t: f"deal {t[0]} from {t[1]} to {t[2]}"),
    ZONE_TEXT.map(lambda z: f"shuffle {z}"),
    st.sampled_from(["main", "nowhere", "deal"]).map(lambda n: f"goto {n}"),
    st.just("end deal"),
    EXPRESSIONS.map(lambda e: f"eliminate {e}"),
    st.tuples(st.sampled_from(["bump", "fz", "nothing"]), st.lists(EXPRESSIONS, max_size=2)).map(
        lambda t: f"do {t[0]}({', '.join(t[1])})"),
    st.tuples(st.sampled_from(["'x {}'", "'{} {}'", "'no holes'", "'{'"]), st.lists(EXPRESSIONS, max_size=3)).map(
        lambda t: "log " + ", ".join([t[0], *t[1]])),
)

SOUP_TOKENS = (["+", "-", "*", "/", "//", "%", "==", "!=", "<", ">", "<=", ">=", "=", "+=", "-=", "=>", ".", ",",
                ";", "(", ")", "[", "]", "'a'", '"b"', "'", "1", "2.5", "0"]
               + sorted(KEYWORDS) + GAME_FUNCS + GAME_VALUE_NAMES + ATTRS)
SOUP = st.tuples(st.lists(st.sampled_from(SOUP_TOKENS), min_size=1, max_size=25), st.sampled_from([" ", ""])).map(
    lambda t: t[1].join(t[0]))


# Well-typed expressions and statements: the random ones above mostly stop at the checker, so these
# make sure that most examples also reach the compiler (memos, hoisting) and the engine. Each type has
# atoms and forms built from smaller expressions; `scope` holds the local names in reach and their types.
Scope = tuple[tuple[str, str], ...]

TYPED_ATOMS: dict[str, list[str]] = {
    "int": ["0", "1", "2", "7", "-1", "100001", "bonus", "limit", "num_players", "deal_number", "turns"],
    "num": ["2.5", "0.0", "ratio", "1"],
    "bool": ["true", "false", "flag", "strict"],
    "card": ["first(pack)", "last(stock)"],
    "cards": ["stock", "pile", "seen", "pack", "hand[player]", "hand[0]", "[]"],
    "player": ["player", "dealer", "current", "best"],
    "players": ["players", "active_players"],
    "suit": ["'hearts'", "'clubs'", "'spades'"],
    "rank": ["'K'", "'2'", "'Q'"],
    "str": ["'a'", "style", "'plain'", "''"],
}
TYPES = sorted(TYPED_ATOMS)


@functools.cache
def typed(ty: str, scope: Scope = (), depth: int = 3) -> st.SearchStrategy[str]:
    """An expression of type `ty` (mostly: the types of `if` branches, `none` and the like may still clash)."""
    atoms = st.sampled_from(TYPED_ATOMS[ty] + [n for n, t in scope if t == ty])
    if depth <= 0:
        return atoms
    d = depth - 1

    def e(t: str, extra: Scope = ()) -> st.SearchStrategy[str]:
        return typed(t, scope + extra, d)

    cv, pv, nv = f"c{depth}", f"q{depth}", f"n{depth}"
    with_c: Scope = ((cv, "card"),)
    with_p: Scope = ((pv, "player"),)
    with_n: Scope = ((nv, "int"),)

    def fmt(template: str, **parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        keys = list(parts)
        return st.tuples(*parts.values()).map(
            lambda vs: template.format(**dict(zip(keys, vs)), c=cv, q=pv, n=nv))

    common = [
        fmt("(if {b} then {x} else {y})", b=e("bool"), x=e(ty), y=e(ty)),
        fmt("(let {n} = {v}; {body})", v=e("int"), body=e(ty, with_n)),
        fmt("({x})", x=e(ty)),
    ]
    forms: dict[str, list[st.SearchStrategy[str]]] = {
        "int": [
            fmt("len({xs})", xs=e("cards")), fmt("count({xs})", xs=e("players")),
            fmt("count({xs}, {c} => {b})", xs=e("cards"), b=e("bool", with_c)),
            fmt("sum([{v} for {c} in {xs}])", v=e("int", with_c), xs=e("cards")),
            fmt("sum({v} for {n} in range({a}, {b}))", v=e("int", with_n), a=e("int"), b=e("int")),
            fmt("{a} {op} {b}", a=e("int"), b=e("int"), op=st.sampled_from(["+", "-", "*", "//", "%", "mod"])),
            fmt("-{a}", a=e("int")), fmt("max({a}, {b})", a=e("int"), b=e("int")),
            fmt("min([{a}, {b}])", a=e("int"), b=e("int")), fmt("abs({a})", a=e("int")),
            fmt("floor({x})", x=e("num")), fmt("ceil({x})", x=e("num")),
            fmt("index_of({xs}, {x})", xs=e("cards"), x=e("card")), fmt("total({xs})", xs=e("cards")),
            fmt("score[{p}]", p=e("player")), fmt("{x}.value", x=e("card")), fmt("{x}.rank_index", x=e("card")),
            fmt("{x}.suit_index", x=e("card")), fmt("table[{a}]", a=e("int")),
            fmt("first([{a}, {b}])", a=e("int"), b=e("int")), fmt("len(range({a}, {b}))", a=e("int"), b=e("int")),
            fmt("len(group_by({xs}, {c} => {x}.suit))", xs=e("cards"), x=e("card", with_c)),
        ],
        "num": [fmt("{a} / {b}", a=e("int"), b=e("int")), fmt("{a} * {b}", a=e("num"), b=e("num")),
                fmt("{a} + {b}", a=e("num"), b=e("int")), e("int")],
        "bool": [
            fmt("{a} {op} {b}", a=e("int"), b=e("int"), op=st.sampled_from(["==", "!=", "<", ">", "<=", ">="])),
            fmt("{a} < {b} <= {c2}", a=e("int"), b=e("int"), c2=e("int")),
            fmt("{a} and {b}", a=e("bool"), b=e("bool")), fmt("{a} or {b}", a=e("bool"), b=e("bool")),
            fmt("not {a}", a=e("bool")), fmt("{x} in {xs}", x=e("card"), xs=e("cards")),
            fmt("{x} not in {xs}", x=e("player"), xs=e("players")), fmt("{x}.red", x=e("card")),
            fmt("any([{b} for {c} in {xs}])", b=e("bool", with_c), xs=e("cards")),
            fmt("all({b} for {q} in {xs})", b=e("bool", with_p), xs=e("players")),
            fmt("is_active({p})", p=e("player")), fmt("style == {x}", x=e("str")),
            fmt("{x}.suit == {y}", x=e("card"), y=e("suit")), fmt("{x} == {y}", x=e("card"), y=e("card")),
            fmt("{x} != {y}", x=e("player"), y=e("player")), fmt("{x}.rank != {y}", x=e("card"), y=e("rank")),
        ],
        "card": [
            fmt("first({xs})", xs=e("cards")), fmt("last({xs})", xs=e("cards")),
            fmt("max_by({xs}, {c} => {v})", xs=e("cards"), v=e("int", with_c)),
            fmt("min_by({xs}, {c} => {v})", xs=e("cards"), v=e("int", with_c)), fmt("{xs}[{i}]", xs=e("cards"),
                                                                                      i=e("int")),
        ],
        "cards": [
            fmt("hand[{p}]", p=e("player")), fmt("[{c} for {c} in {xs} if {b}]", xs=e("cards"), b=e("bool", with_c)),
            fmt("top({xs}, {i})", xs=e("cards"), i=e("int")), fmt("bottom({xs}, {i})", xs=e("cards"), i=e("int")),
            fmt("sort_by({xs}, {c} => {v})", xs=e("cards"), v=e("int", with_c)), fmt("reverse({xs})", xs=e("cards")),
            fmt("unique({xs})", xs=e("cards")), fmt("{a} + {b}", a=e("cards"), b=e("cards")),
            fmt("flatten([{a}, {b}])", a=e("cards"), b=e("cards")),
            fmt("all_max_by({xs}, {c} => {v})", xs=e("cards"), v=e("int", with_c)),
            fmt("[{a}, {b}]", a=e("card"), b=e("card")), fmt("flatten([hand[{q}] for {q} in {ps}])", ps=e("players")),
            fmt("first(group_by({xs}, {c} => {v}))", xs=e("cards"), v=e("int", with_c)),
        ],
        "player": [
            fmt("left({p})", p=e("player")), fmt("right({p})", p=e("player")), fmt("next_active({p})", p=e("player")),
            fmt("played_by({x})", x=e("card")), fmt("first({ps})", ps=e("players")),
            fmt("max_by({ps}, {q} => {v})", ps=e("players"), v=e("int", with_p)), fmt("{ps}[{i}]", ps=e("players"),
                                                                                      i=e("int")),
        ],
        "players": [
            fmt("[{q} for {q} in {ps} if {b}]", ps=e("players"), b=e("bool", with_p)),
            fmt("all_min_by({ps}, {q} => {v})", ps=e("players"), v=e("int", with_p)),
            fmt("reverse({ps})", ps=e("players")), fmt("{ps} + [{p}]", ps=e("players"), p=e("player")),
        ],
        "suit": [fmt("{x}.suit", x=e("card")), fmt("suits[{i}]", i=e("int"))],
        "rank": [fmt("{x}.rank", x=e("card")), fmt("last(ranks)")],
        "str": [fmt("{x}.name", x=e("card"))],
    }
    return st.one_of(atoms, atoms, *forms[ty], *common)


def typed_statement(scope: Scope = (), depth: int = 2) -> st.SearchStrategy[str]:
    """A well-typed statement; as a YAML flow mapping for `if` and `for` steps."""

    def e(t: str, extra: Scope = ()) -> st.SearchStrategy[str]:
        return typed(t, scope + extra, 2)

    def fmt(template: str, **parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        keys = list(parts)
        return st.tuples(*parts.values()).map(lambda vs: template.format(**dict(zip(keys, vs))))

    simple = [
        fmt("score[{p}] += {v}", p=e("player"), v=e("int")), fmt("score[{p}] = {v}", p=e("player"), v=e("int")),
        fmt("best = {p}", p=e("player")), fmt("flag = {b}", b=e("bool")), fmt("ratio = {x}", x=e("num")),
        fmt("seen = {xs}", xs=e("cards")), fmt("seen += {xs}", xs=e("cards")),
        fmt("let z = {x}", x=st.sampled_from(TYPES).flatmap(lambda t: e(t))),
        fmt("move {xs} to {place}", xs=st.one_of(e("cards"), e("card")),
            place=st.sampled_from(["pile", "stock", "bottom of stock", "hand[player]", "hand[dealer]"])),
        fmt("deal {n} from stock to {z}", n=e("int"), z=st.sampled_from(["hand", "hand[player]", "pile"])),
        st.sampled_from(["shuffle stock", "shuffle pile", "end deal", "goto main"]),
        fmt("log '{{}} and {{}}', {a}, {b}", a=st.sampled_from(TYPES).flatmap(lambda t: e(t)),
            b=st.sampled_from(TYPES).flatmap(lambda t: e(t))),
        fmt("eliminate {p}", p=e("player")), fmt("current = {p}", p=e("player")),
        fmt("dealer = {p}", p=e("player")), fmt("do bump({p})", p=e("player")),
        fmt("pick z from {xs}", xs=st.one_of(e("cards"), e("players"))),
    ]
    stmt = st.one_of(*simple)
    if depth <= 0:
        return stmt
    inner = typed_statement(scope, depth - 1)
    in_for = typed_statement(scope + (("q9", "player"),), depth - 1)
    return st.one_of(
        stmt, stmt, stmt,
        fmt("{{if: {b}, then: [{x}], else: [{y}]}}", b=e("bool").map(json.dumps), x=inner.map(json.dumps),
            y=inner.map(json.dumps)),
        fmt("{{for: {it}, do: [{x}]}}", it=e("players").map(lambda s: json.dumps(f"q9 in {s}")),
            x=in_for.map(json.dumps)),
    )


def yaml_scalar(draw: Callable[..., Any], text: str, indent: int) -> str:
    """`text` as a YAML scalar value in one of the styles a rule file may use."""
    style = draw(st.sampled_from(["double", "single", "literal", "folded", "plain"]), label="style")
    if style == "single" and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    if style in ("literal", "folded"):
        # Spread the text over a few lines (at spaces), as a long expression would be.
        words = text.split(" ")
        cuts = draw(st.lists(st.integers(1, max(1, len(words) - 1)), max_size=3, unique=True), label="cuts")
        lines, start = [], 0
        for c in sorted(cuts) + [len(words)]:
            if c > start:
                lines.append(" ".join(words[start:c]))
                start = c
        pad = " " * (indent + 2)
        mark = "|" if style == "literal" else ">"
        return mark + "\n" + "\n".join(pad + ln if ln.strip() else "" for ln in lines)
    if style == "plain" and text.strip() == text and text and not re.search(r"[:#{}\[\],&*!|>'\"%@`]|^[-?]", text):
        return text
    return json.dumps(text)


def test_fuzz_game_is_valid() -> None:
    """The frame the fuzzed texts are put into compiles and plays as it is."""
    loaded = compile_text(fuzz_game(), FUZZ_FILE, limits=FUZZ_LIMITS)
    assert loaded.ok, render_all(loaded.diagnostics, loaded.sources)
    check_outcome(fuzz_game(), 1)


def with_define(draw: Callable[..., Any], body: str, arg: str) -> str:
    """`fz(x): body`, called from the `when` of 'play' with the argument `arg`."""
    game = fuzz_game(draw, "define", body)
    return game.replace('when: "true"', "when: " + json.dumps(f"fz({arg}) == fz({arg})"), 1)


@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_grammar_expressions(data: st.DataObject, seed: int) -> None:
    """(2) Generated expressions in every place of a small game that holds one, or as a `let` / `log` step."""
    expr = data.draw(EXPRESSIONS, label="expression")
    place = data.draw(st.sampled_from(EXPRESSION_PLACES + ["let", "log"]), label="place")
    if place == "define":
        arg = data.draw(st.sampled_from(["c", "player", "1", "[c]", "hand[player]", "none", "'a'"]), label="arg")
        check_outcome(with_define(data.draw, expr, arg), seed)
        return
    if place == "when":
        caller = data.draw(st.sampled_from(["{e}", "fz({e}) == fz({e})", "fz(c) == fz(c) and {e} == {e}"]),
                           label="condition")
        expr = caller.format(e=_par(expr))
    elif place in ("let", "log"):
        expr = f"let z = {expr}" if place == "let" else f"log 'z {{}}', {expr}"
        place = "step"
    check_outcome(fuzz_game(data.draw, place, expr), seed)


@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_grammar_statements(data: st.DataObject, seed: int) -> None:
    """(2) Generated statements as a step of the phase's `after:` list."""
    stmt = data.draw(STATEMENTS, label="statement")
    check_outcome(fuzz_game(data.draw, "step", stmt), seed)


@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_token_soup(data: st.DataObject, seed: int) -> None:
    """(2) Random sequences of the grammar's tokens, as an expression or as a statement."""
    soup = data.draw(SOUP, label="soup")
    place = data.draw(st.sampled_from(list(FUZZ_PLACES)), label="place")
    check_outcome(fuzz_game(data.draw, place, soup), seed)


DOMAINS = st.one_of(
    st.tuples(typed("int", (), 1), typed("int", (), 1)).map(lambda t: f"range({t[0]}, {t[1]})"),
    typed("cards", (), 2), typed("players", (), 2),
    st.sampled_from(["suits", "ranks", "[true, false]", "['high', 'low']", "range(0, 10000)", "range(5, 1)"]),
)


def typed_rule_file(data: st.DataObject, places: list[str]) -> str:
    """A rule file with a well-typed expression or statement drawn for one of `places` (keys of FUZZ_PLACES),
    so that most examples compile and are played (both backends' fuzz tests draw their files here)."""
    place = data.draw(st.sampled_from(places), label="place")
    _, _, ty, scope = FUZZ_PLACES[place]
    if ty == "any":
        ty = data.draw(st.sampled_from(TYPES), label="type")
    if place == "define":
        arg_ty = data.draw(st.sampled_from(TYPES), label="argument type")
        body = data.draw(typed(ty, (("x", arg_ty),)), label="body")
        arg = data.draw(typed(arg_ty, (("c", "card"),), 1), label="argument")
        return with_define(data.draw, body, arg)
    if ty == "stmt":
        text = data.draw(typed_statement(), label="statement")
        if text.startswith("{"):  # an if / for step: a YAML flow mapping as it is
            return fuzz_game().replace('- "flag = not flag"', "- " + text, 1)
    elif ty == "domain":
        text = data.draw(DOMAINS, label="domain")
    else:
        text = data.draw(typed(ty, scope), label="expression")
    return fuzz_game(data.draw, place, text)


@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_typed_expressions(data: st.DataObject, seed: int) -> None:
    """(2) Well-typed expressions and statements, so that most examples compile and are played."""
    check_outcome(typed_rule_file(data, list(FUZZ_PLACES)), seed)


# Deep nesting, up to the length limit of an expression: a form repeated n times around a core, or
# `if` / `for` steps inside each other up to the YAML depth limit.
NESTING_FORMS = [
    # (head, prefix, core, suffix); "{i}" is the repetition's number
    ("", "let a{i} = 1; ", "a0", ""), ("let ", "a{i} = 1; ", "a0", ""), ("", "let a = ", "1", "; a"),
    ("", "if flag then 1 else ", "2", ""), ("", "if ", "true", " then true else false"), ("", "not ", "flag", ""),
    ("", "-", "bonus", ""), ("", "(", "1", ")"), ("", "[", "1", "]"), ("", "x{i} => ", "1", ""),
    ("", "1 + ", "bonus", ""), ("", "bonus < ", "1", ""), ("", "flag and ", "true", ""), ("", "flag or ", "true", ""),
    ("", "max(1, ", "2", ")"), ("", "abs(", "-1", ")"), ("", "first([", "1", "])"),
    ("", "[x{i} for x{i} in ", "[1]", "]"), ("", "sum(x{i} for x{i} in ", "[1]", ")"),
    ("", "count(", "[1]", ", x => true)"), ("", "max_by(", "[1]", ", x{i} => x{i})"), ("", "len(", "[1]", ") * 1"),
    ("", "", "1", " * bonus"), ("", "", "[1]", "[0]"), ("", "", "first(pack)", ".value + 0"),
    ("", "total(", "pack", ") + 0"), ("", "fz(", "1", ")"), ("[", "", "1", ", 1"), ("max(", "", "1", ", 1"),
]
NESTED_STEPS = [
    '{{if: "flag or true", then: [{inner}], else: ["flag = true"]}}',
    '{{for: "q{i} in players", do: [{inner}]}}',
    '{{for: "c{i} in hand[player]", do: [{inner}]}}',
    '{{for: "n{i} in range(0, {k})", do: [{inner}]}}',
]


def nested_steps(kinds: list[str], k: int) -> str:
    inner = json.dumps("flag = not flag")
    for i, kind in enumerate(kinds):
        inner = kind.format(inner=inner, i=i, k=k)
    return inner


@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_deep_nesting(data: st.DataObject, seed: int) -> None:
    """(2) Each form of the grammar nested deeply: refused with a located diagnostic, or compiled and run."""
    if data.draw(st.integers(0, 4), label="steps?") == 0:
        kinds = data.draw(st.lists(st.sampled_from(NESTED_STEPS), min_size=1, max_size=32), label="steps")
        k = data.draw(st.sampled_from([0, 1, 2, 10, 1000, 100000]), label="range")
        check_outcome(fuzz_game().replace('- "flag = not flag"', "- " + nested_steps(kinds, k), 1), seed)
        return
    head, prefix, core, suffix = data.draw(st.sampled_from(NESTING_FORMS), label="form")
    n = data.draw(st.integers(1, 4000 // max(4, len(prefix) + len(suffix))), label="depth")
    text = head + "".join(prefix.format(i=i) for i in range(n)) + core + "".join(
        suffix.format(i=i) for i in range(n))
    if head and not prefix:  # a flat list: [1, 1, ..., 1] or max(1, ..., 1)
        text += "]" if head == "[" else ")"
    place = data.draw(st.sampled_from(["let", "define", "report", "when"]), label="place")
    if place == "let":
        check_outcome(fuzz_game(data.draw, "step", "let z = " + text), seed)
    elif place == "when":
        check_outcome(fuzz_game(data.draw, "when", f"{text} == {text}" if len(text) < 1990 else text), seed)
    elif place == "define":
        check_outcome(with_define(data.draw, text, "1"), seed)
    else:
        check_outcome(fuzz_game(data.draw, "report", text), seed)


# ============================================================== scenario files, options and moves
#
# The rule file is not the only untrusted input: a scenario file someone sent, the `--option` values
# typed on a command line and the action ids a program sends through the API are too. Broken, they
# give a located diagnostic, a failed scenario or a GameError; nothing else escapes.

SCENARIO_DIR = GAMES_DIR.parent / "tests" / "scenarios"
SCENARIO_FILES = sorted(SCENARIO_DIR.glob("*.yaml"))
SCENARIO_TEXTS: dict[str, str] = {p.name: p.read_text(encoding="utf-8") for p in SCENARIO_FILES}
SCENARIO_DATA: dict[str, Any] = {name: yaml.safe_load(text) for name, text in SCENARIO_TEXTS.items()}
for _name, _text in SCENARIO_TEXTS.items():
    NAMES_OF["scenarios/" + _name] = sorted(set(IDENT_RE.findall(_text)))


def _scenario_excerpt(data: st.DataObject, name: str) -> Any:
    """One or two scenarios of the file (a whole file is slow to run), its game named by absolute path."""
    tree = copy.deepcopy(SCENARIO_DATA[name])
    scenarios = tree["scenarios"]
    i = data.draw(st.integers(0, len(scenarios) - 1), label="scenario")
    tree["scenarios"] = scenarios[i: i + data.draw(st.integers(1, 2), label="how many")]
    game = Path(tree["game"])
    if (SCENARIO_DIR / game).exists():
        tree["game"] = str((SCENARIO_DIR / game).resolve())
    return tree


def check_scenario_outcome(text: str, folder: Path) -> None:
    """Scenarios that pass or fail at a place in the file, or located diagnostics; nothing else escapes."""
    note(f"scenario file text:\n{text}")
    path = folder / "fuzz.scenarios.yaml"
    path.write_text(text, encoding="utf-8")
    with time_guard(EXAMPLE_SECONDS):
        try:
            results = run_file(str(path), limits=FUZZ_LIMITS)
        except RuleFileError as e:
            assert e.diagnostics, "RuleFileError without any diagnostic"
            for d in e.diagnostics:
                assert d.span.line >= 1 and d.span.col >= 1 and d.message.strip(), d
            assert e.render()
            return
        except GameError as e:
            assert str(e).strip()
            return
    for r in results:
        assert isinstance(r.span.line, int) and r.span.line >= 1, r
        assert r.ok or r.message.strip(), r


@pytest.fixture(scope="module")
def scenario_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-scenarios")


scenario_files = pytest.mark.parametrize("scenario_name", [p.name for p in SCENARIO_FILES])


@scenario_files
@FUZZ_SETTINGS
@given(data=st.data())
def test_scenario_mutations(scenario_name: str, scenario_folder: Path, data: st.DataObject) -> None:
    """(1) Scenario files broken like rule files: structurally, then sometimes textually too."""
    key = "scenarios/" + scenario_name
    tree = _scenario_excerpt(data, scenario_name)
    for _ in range(data.draw(st.sampled_from([1, 1, 2, 3]), label="mutations")):
        tree = mutate_structure(data.draw, tree, key)
    text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=100)
    if data.draw(st.booleans(), label="text too?"):
        text = mutate_text(data.draw, text, key)
    check_scenario_outcome(text, scenario_folder)


@functools.cache
def _bundled(file_name: str) -> Any:
    loaded = compile_text(GAME_TEXTS[file_name], str(GAMES_DIR / file_name), limits=FUZZ_LIMITS)
    assert loaded.ok and loaded.game is not None, render_all(loaded.diagnostics, loaded.sources)
    return loaded.game


ODD_OPTION_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6),
    st.sampled_from(["yes", "no", "true", "0", "-1", "1e3", " 2", "99999999999999999999", "nan", "∞"]),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@files
@FUZZ_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_options_players_and_moves(file_name: str, data: st.DataObject, seed: int) -> None:
    """(7) Any player count, any option names and values (as typed or as Python values), any action id:
    a game, or BadOption / IllegalAction; a refused action leaves the state as it was."""
    compiled = _bundled(file_name)
    sp = compiled.spec
    names = [o.name for o in sp.options]
    n = data.draw(st.one_of(st.integers(sp.min_players, sp.max_players), st.integers(-3, 70),
                            st.sampled_from([2**63, -(2**63)])), label="players")
    options = data.draw(st.dictionaries(st.one_of(st.sampled_from(names or ["x"]), st.text(max_size=4)),
                                        ODD_OPTION_VALUES, max_size=3), label="options")
    with time_guard(EXAMPLE_SECONDS):
        try:
            game = Game(compiled, n, options)
        except GameError as e:
            assert str(e).strip()
            return
        s = State.initial(game, seed)
        for _ in range(data.draw(st.integers(0, 40), label="moves")):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            a = data.draw(st.one_of(st.sampled_from(legal), st.integers(-(2**70), 2**70),
                                    st.sampled_from([-1, len(legal), max(legal) + 1, 2**63])), label="action")
            if a in legal:
                try:
                    s.apply_action(a)
                except GameError:
                    return
                continue
            before = str(s)
            with pytest.raises(GameError):
                s.apply_action(a)
            assert str(s) == before, "a refused action changed the state"
