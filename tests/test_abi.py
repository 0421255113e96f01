"""The contract between the generated module and the runtime (dsl/abi.py) holds for every rule file we have.

* Every global the generated module reads is one the runtime exports (`abi.exported(spec)`) or one the
  module defines itself, and the module redefines no exported name.
* A `Game` puts exactly the exported names in the namespace, and exports what the runtime's helper tables
  hold (engine/runtime.py HELPERS, budget helpers, the library's implementations).
* The engine reads the namespace only through names abi.py builds: no f-string or literal prefix in a
  key (checked on the source), and during play every name read is exported or defined by the module.
* The action codec and the generated code agree: decoding an id gives the values the effect runs with,
  and the legal ids the generated code encodes decode back to themselves.
"""

from __future__ import annotations

import ast
import dis
import random
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import pytest
from cardsmith.dsl import abi
from cardsmith.dsl.compiler import CompiledGame
from cardsmith.dsl.library import RUNTIME_HELPERS
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine import budget
from cardsmith.engine.errors import GameError
from cardsmith.engine.game import Game
from cardsmith.engine.runtime import HELPERS
from conftest import GAMES_DIR, ROOT, TESTS

ENGINE = ROOT / "interpreter"


def _rule_files() -> list[Path]:
    """The bundled games and every rule file under tests/ that compiles (scenario files and files meant to
    fail are left out by compiling them)."""
    return sorted(GAMES_DIR.glob("*.yaml")) + sorted(TESTS.rglob("*.yaml"))


@cache
def _compiled(path: str) -> CompiledGame | None:
    r = compile_file(path)
    return r.game if r.ok else None


def _compiled_all() -> list[tuple[str, CompiledGame]]:
    out = []
    for p in _rule_files():
        g = _compiled(str(p))
        if g is not None:
            out.append((str(p.relative_to(ROOT)), g))
    return out


def _codes(code: CodeType) -> list[CodeType]:
    out, stack = [], [code]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return out


def _globals(g: CompiledGame) -> tuple[set[str], set[str]]:
    """(globals read, names the module defines) of a compiled module and its spare functions (the define:
    functions the rules never call, run in the same namespace), over all nested code objects."""
    reads: set[str] = set()
    defined: set[str] = set()
    for code in (g.code, g.spare):
        for c in _codes(code) if code is not None else []:
            for ins in dis.get_instructions(c):
                if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    reads.add(ins.argval)
                elif ins.opname in ("STORE_NAME", "STORE_GLOBAL"):
                    assert c is code, f"{ins.opname} {ins.argval} inside a function"
                    defined.add(ins.argval)
    return reads, defined


@pytest.mark.slow
@pytest.mark.xdist_group("every-rule-file")
def test_the_test_sees_many_rule_files() -> None:
    files = _compiled_all()
    assert len(files) > 100
    assert sum(1 for f, _ in files if f.startswith("games/")) == len(list(GAMES_DIR.glob("*.yaml")))


@pytest.mark.slow
@pytest.mark.xdist_group("every-rule-file")
def test_every_global_of_the_generated_code_is_exported_or_its_own() -> None:
    for name, g in _compiled_all():
        reads, defined = _globals(g)
        unknown = reads - defined - abi.exported(g.spec)
        assert not unknown, f"{name}: the generated code reads {sorted(unknown)}, which nobody provides"
        assert not defined & abi.EXPORTS, f"{name}: the generated code redefines {sorted(defined & abi.EXPORTS)}"
        # The per-game tables are named only by abi's builders: the module defines none of them.
        assert not defined & abi.tables(g.spec), name
        # An empty block is defined, except a phase's start and after, which are not written at all.
        optional = {f(ph.name) for ph in g.spec.phases for f in (abi.phase_start, abi.phase_after)}
        assert g.empty - optional <= defined and not g.empty & optional & defined, name


def test_the_exports_are_what_the_runtime_provides() -> None:
    assert set(abi.ENGINE_HELPERS) == set(HELPERS)
    assert set(abi.BUDGET_HELPERS) == set(budget.helpers([1], 1))
    assert set(abi.LIBRARY) == set(RUNTIME_HELPERS)
    assert len(set(abi.ENGINE_HELPERS + abi.BUDGET_HELPERS + abi.GAME_VALUES)) == \
        len(abi.ENGINE_HELPERS + abi.BUDGET_HELPERS + abi.GAME_VALUES)


def _game(g: CompiledGame) -> Game | None:
    try:
        return Game(g, g.spec.min_players)
    except GameError:  # a test file whose setup is refused (a rule error, an option) at this count
        return None


@pytest.mark.slow
@pytest.mark.xdist_group("every-rule-file")
def test_a_game_puts_exactly_the_exports_in_its_namespace() -> None:
    built = 0
    for name, g in _compiled_all():
        game = _game(g)
        if game is None:
            continue
        built += 1
        _, defined = _globals(g)
        given = set(game.ns) - {"__builtins__"} - defined
        assert given <= abi.exported(g.spec), f"{name}: not in abi.py: {sorted(given - abi.exported(g.spec))}"
        missing = abi.exported(g.spec) - set(abi.BUILTINS) - set(game.ns)
        assert not missing, f"{name}: exported but not provided: {sorted(missing)}"
        assert set(game.ns["__builtins__"]) == set(abi.BUILTINS)
    assert built > 100


def _ns_keys(tree: ast.AST) -> list[ast.expr]:
    """The keys of every `ns[...]`, `x.ns[...]` and `(x.)ns.get(...)` in a module."""
    def is_ns(e: ast.expr) -> bool:
        return isinstance(e, ast.Name) and e.id == "ns" or isinstance(e, ast.Attribute) and e.attr == "ns"

    keys = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and is_ns(node.value):
            keys.append(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and is_ns(node.func.value) and node.args:
            keys.append(node.args[0])
    return keys


def test_the_engine_names_no_generated_name_itself() -> None:
    """A key into the namespace is built by abi.py, or is an exported name: no prefix spelled here too."""
    seen = 0
    for path in sorted(ENGINE.rglob("*.py")):
        for key in _ns_keys(ast.parse(path.read_text(), str(path))):
            seen += 1
            where = f"{path.relative_to(ROOT)}:{key.lineno}"
            assert not any(isinstance(n, ast.JoinedStr) for n in ast.walk(key)), f"{where}: an f-string key"
            assert not any(isinstance(n, ast.BinOp) for n in ast.walk(key)), f"{where}: a key built by hand"
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                assert key.value in abi.EXPORTS or key.value == "__builtins__", f"{where}: {key.value!r}"
    assert seen > 20


class _Reads(dict):  # type: ignore[type-arg]
    """The namespace, recording the names the engine reads from it."""

    def __init__(self, ns: dict[str, Any]) -> None:
        super().__init__(ns)
        self.read: set[str] = set()

    def __getitem__(self, k: str) -> Any:
        self.read.add(k)
        return super().__getitem__(k)

    def get(self, k: str, default: Any = None) -> Any:
        self.read.add(k)
        return super().get(k, default)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.yaml")) + [TESTS / "games" / "partners.yaml"],
                         ids=lambda p: p.stem)
def test_in_play_the_engine_reads_only_exported_or_generated_names(path: Path) -> None:
    g = _compiled(str(path))
    assert g is not None
    _, defined = _globals(g)
    rng = random.Random(7)
    for n in range(g.spec.min_players, g.spec.max_players + 1):
        game = Game(g, n)
        reads = _Reads(game.ns)
        game.ns = reads  # the generated functions keep their own globals; the engine reads through this
        for seed in range(3):
            s = game.new_initial_state(seed)
            for _ in range(400):
                if s.is_terminal():
                    s.returns()
                    break
                for p in range(n):
                    s.observation(p)
                legal = s.legal_actions()
                a = legal[rng.randrange(len(legal))]
                game.action_to_string(s.current_player(), a)
                s.apply_action(a)
        assert reads.read <= defined | abi.exported(g.spec), sorted(reads.read - defined - abi.exported(g.spec))


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_codec_and_the_generated_code_agree(path: Path) -> None:
    g = _compiled(str(path))
    assert g is not None
    game = Game(g, g.spec.min_players)
    codec = game.codec
    assert codec.num_actions == game.num_actions == sum(a.size for a in codec.actions)
    for a in range(game.num_actions):
        info, values = codec.decode(a)
        assert game.action_for(a) is info and info.offset <= a < info.offset + info.size
        digits = [(a - info.offset) // st % r for st, r in zip(info.stride, info.radix)]
        assert info.encode(digits) == a
        text = game.action_to_string(None, a)
        assert a in game.actions_from_string(text), text
        assert len(values) == len(info.params)
    # The ids the generated legal functions encode are the ones the codec decodes to the same action.
    rng = random.Random(3)
    s = game.new_initial_state(5)
    for _ in range(200):
        if s.is_terminal():
            break
        for a in s.legal_actions():
            assert 0 <= a < game.num_actions
        s.apply_action(rng.choice(s.legal_actions()))


def test_a_game_skips_the_blocks_the_compiler_found_empty() -> None:
    g = _compiled(str(GAMES_DIR / "stichln.yaml"))
    assert g is not None
    game = Game(g, 4)
    for ph in game.phases:
        assert (ph.start is None) == (abi.phase_start(ph.name) in g.empty) == (not ph.spec.start)
        assert (ph.after is None) == (abi.phase_after(ph.name) in g.empty) == (not ph.spec.after)
        # An empty block is not written at all.
        assert (f"def {abi.phase_start(ph.name)}(" in g.source) == bool(ph.spec.start)
        assert (f"def {abi.phase_after(ph.name)}(" in g.source) == bool(ph.spec.after)
    assert any(ph.start is None or ph.after is None for ph in game.phases)
