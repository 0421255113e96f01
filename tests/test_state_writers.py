"""Only the engine's own functions write a state's fields (issue 31).

Read from the source with `ast`: an assignment to `x.f` (or `setattr(x, "f", ...)`) where `f` is a field of
`State` may stand only in the modules listed in WRITERS. Everywhere else a state is changed through a State
method that says what for (`reading_copy`, `evaluating_as`, `remember`, ...; engine/state.py). `self.f = ...`
in a class's own method is that class's attribute, not a state's; NOT_STATES lists the other names that hold
no state where a field's name is set on them.
"""

from __future__ import annotations

import ast

from cardsmith.engine.fields import SLOTS
from conftest import ROOT

PACKAGE = ROOT / "interpreter"

# The engine's own functions: the state itself and how a match moves on (flow.py), the rules' helpers that
# move cards and seat players, chance (drawing and lazy dealing), a history's replay, and a deal set up with
# fixed cards.
WRITERS = {
    "engine/state.py",
    "engine/flow.py",
    "engine/runtime.py",
    "engine/chance.py",
    "engine/history.py",
    "engine/setup.py",
}

# Module -> names that hold something other than a state there.
NOT_STATES = {
    "cli/simulate.py": {"ns"},  # an argparse.Namespace: ns.game is the game's name
}


def writes(tree: ast.AST, fields: set[str], not_states: set[str]) -> list[tuple[int, str]]:
    """(line, target) of each write of a field of `fields` on an object that may be a state."""
    found: list[tuple[int, str]] = []

    def target(node: ast.expr) -> None:
        for e in ast.walk(node):
            if isinstance(e, ast.Attribute) and isinstance(e.ctx, (ast.Store, ast.Del)) and e.attr in fields:
                owner = e.value
                if isinstance(owner, ast.Name) and (owner.id == "self" or owner.id in not_states):
                    continue
                found.append((e.lineno, ast.unparse(e)))

    for n in ast.walk(tree):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                target(t)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            target(n.target)
        elif isinstance(n, ast.Delete):
            for t in n.targets:
                target(t)
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            target(n.target)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") \
                and len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) and n.args[1].value in fields:
            found.append((n.lineno, ast.unparse(n)))
    return sorted(found)


def test_only_the_engine_writes_a_state() -> None:
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in WRITERS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = writes(tree, set(SLOTS), NOT_STATES.get(rel, set()))
        bad += [f"interpreter/{rel}:{line}: {what}" for line, what in found]
    assert not bad, ("only the engine's own modules (WRITERS) write a state's fields; ask the engine with a State "
                     "method instead:\n" + "\n".join(bad))


def test_the_writers_exist() -> None:
    assert all((PACKAGE / rel).is_file() for rel in [*WRITERS, *NOT_STATES])


def test_the_check_finds_each_kind_of_write() -> None:
    text = """
s.actor = 1
t.legal, n = None, 2
s.moves += 1
for s.cur in range(3): pass
setattr(s, "rng", 4)
self.rng = 5
ns.game = 'x'
s.z[0] = []
"""
    lines = [line for line, _ in writes(ast.parse(text), set(SLOTS), {"ns"})]
    assert lines == [2, 3, 4, 5, 6]
