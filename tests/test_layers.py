"""The package's layers (docs/architecture.md, "One package, by capability"), checked on its import graph.

The graph is read with `ast`, never by importing: every `import` and `from ... import` of a cardsmith module,
told apart by where it stands: at module level (run when the module loads), inside a function (run when the
function is first called: a lazy import) or under `if TYPE_CHECKING:` (never run; type hints only).

- Every import that runs (module level or in a function) follows the table: a layer imports itself and the
  layers its row names, nothing else. Type-only imports follow it too: a layer that names an upper layer's
  types depends on it all the same.
- No import inside a function hides a cycle: its target must not reach the importing module back, at module
  level or through other imports in functions. A lazy import that only defers loading (the commands, the
  web table, the simulator's cluster) is fine; one that breaks a loop the layers should not have is not,
  because the day someone moves it to the top the package stops importing.

Importing `a.b.c` runs the packages `a` and `a.b` first, so an import also reaches its target's packages
(those the importer is not itself inside).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT

ARCHITECTURE = ROOT / "docs" / "architecture.md"
SECTION = "## One package, by capability"
# The folders the package is installed from (pyproject.toml's package-dir).
FOLDERS = {"interpreter": "cardsmith", "dsl": "cardsmith.dsl", "games": "cardsmith.games"}

MODULE, FUNCTION, TYPING = "module level", "in a function", "type hints only"


@dataclass(frozen=True)
class Import:
    importer: str
    target: str
    path: Path
    line: int
    where: str  # MODULE, FUNCTION or TYPING

    def at(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Layer:
    name: str
    paths: tuple[str, ...]  # folders (ending in /) and files, relative to the repository
    may_import: frozenset[str]


# ---------------------------------------------------------------- the package and its imports
def modules() -> dict[str, Path]:
    """Every module of the package by its installed name."""
    out = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


MODULES = modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The cardsmith modules one import statement loads by name (a `from m import x` loads m.x if x is a module)."""
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names if a.name.split(".")[0] == "cardsmith")
        return
    if node.level:
        package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    if base.split(".")[0] != "cardsmith":
        return
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base


def imports_of(module: str) -> list[Import]:
    path = MODULES[module]
    found: list[Import] = []

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend(Import(module, t, path, child.lineno, where) for t in _targets(module, child))
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    walk(ast.Module(body=[stmt], type_ignores=[]), TYPING)
                for stmt in child.orelse:
                    walk(ast.Module(body=[stmt], type_ignores=[]), where)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(child, TYPING if where == TYPING else FUNCTION)
            else:
                walk(child, where)

    walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), MODULE)
    return found


IMPORTS = [i for m in MODULES for i in imports_of(m)]


def packages_run(importer: str, target: str) -> list[str]:
    """What importing `target` from `importer` runs: the target and its packages the importer is not inside."""
    parts = target.split(".")
    own = {".".join(importer.split(".")[:k]) for k in range(1, importer.count(".") + 2)}
    return [p for p in (".".join(parts[:k]) for k in range(2, len(parts) + 1)) if p not in own and p in MODULES]


# ---------------------------------------------------------------- the table in docs/architecture.md
def layers() -> list[Layer]:
    """The layer table: the first Markdown table of the section, one row a layer."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/architecture.md has no section '{SECTION}'"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    head = [c.strip() for c in rows[0].strip("|").split("|")]
    assert head[0] == "layer" and head[1] == "files" and head[-1] == "may import", head
    out = []
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = re.findall(r"`([^`]+)`", cells[0])
        assert len(name) == 1, f"a layer's row names one layer: {row}"
        out.append(Layer(name[0], tuple(re.findall(r"`([^`]+)`", cells[1])),
                         frozenset(re.findall(r"`([^`]+)`", cells[-1]))))
    return out


LAYERS = layers()


def layer_of(module: str) -> Layer:
    """The row whose most specific path holds the module's file."""
    rel = MODULES[module].relative_to(ROOT).as_posix()
    best: tuple[int, Layer] | None = None
    for layer in LAYERS:
        for p in layer.paths:
            if (rel == p or (p.endswith("/") and rel.startswith(p))) and (best is None or len(p) > best[0]):
                best = (len(p), layer)
    assert best is not None, f"{rel} is in no row of the layer table in docs/architecture.md"
    return best[1]


# ---------------------------------------------------------------- the tests
def test_the_table_names_real_files_and_layers() -> None:
    names = [layer.name for layer in LAYERS]
    assert len(names) == len(set(names)), f"a layer is named twice: {names}"
    for layer in LAYERS:
        for p in layer.paths:
            assert (ROOT / p).exists(), f"layer {layer.name}: {p} does not exist"
        assert layer.may_import <= set(names), f"layer {layer.name} may import an unknown layer: {layer.may_import}"
    for module in MODULES:
        layer_of(module)  # every module is in a row


def layer_breaks(imports: list[Import]) -> list[str]:
    broken = []
    for i in imports:
        have = layer_of(i.importer)
        for target in packages_run(i.importer, i.target):
            want = layer_of(target)
            if want.name != have.name and want.name not in have.may_import:
                broken.append(f"{i.at()}: {i.importer} imports {target} ({i.where}): "
                              f"layer {have.name} may not import layer {want.name}")
    return sorted(set(broken))


def test_every_import_follows_the_layer_table() -> None:
    broken = layer_breaks(IMPORTS)
    assert not broken, "imports against docs/architecture.md's layer table:\n" + "\n".join(broken)


def run_time_graph(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for i in imports:
        if i.where != TYPING:
            graph[i.importer].update(packages_run(i.importer, i.target))
    return graph


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return start == goal


def hidden_cycles(imports: list[Import]) -> list[tuple[Import, str]]:
    graph = run_time_graph(imports)
    return [(i, t) for i in imports if i.where == FUNCTION
            for t in packages_run(i.importer, i.target) if reaches(graph, t, i.importer)]


def test_no_import_in_a_function_hides_a_cycle() -> None:
    hidden = [f"{i.at()}: {i.importer} imports {t} in a function, and {t} imports {i.importer} back"
              for i, t in hidden_cycles(IMPORTS)]
    assert not hidden, "imports in functions that hide a cycle:\n" + "\n".join(sorted(set(hidden)))


# ---------------------------------------------------------------- the reader itself, on known shapes
def test_the_reader_tells_the_three_kinds_of_import_apart() -> None:
    got = {(i.target, i.where) for i in imports_of("cardsmith.engine.state")}
    assert ("cardsmith.engine.game", TYPING) in got
    assert ("cardsmith.engine.errors", MODULE) in got
    got = {(i.target, i.where) for i in imports_of("cardsmith.cli.serve")}
    assert ("cardsmith.web", FUNCTION) in got


def test_an_import_runs_the_packages_its_target_is_in() -> None:
    assert packages_run("cardsmith.web.rooms", "cardsmith.bots.spec") == ["cardsmith.bots", "cardsmith.bots.spec"]
    assert packages_run("cardsmith.bots.greedy", "cardsmith.bots.spec") == ["cardsmith.bots.spec"]


def test_a_broken_layer_and_a_hidden_cycle_are_named_by_file_and_line() -> None:
    """The checks on made-up imports: the engine importing a bot, and that bot importing the engine back."""
    up = Import("cardsmith.engine.game", "cardsmith.bots.spec", MODULES["cardsmith.engine.game"], 7, FUNCTION)
    assert layer_breaks([up]) == [
        "interpreter/engine/game.py:7: cardsmith.engine.game imports cardsmith.bots (in a function): "
        "layer engine may not import layer bots",
        "interpreter/engine/game.py:7: cardsmith.engine.game imports cardsmith.bots.spec (in a function): "
        "layer engine may not import layer bots"]
    back = Import("cardsmith.bots.spec", "cardsmith.engine.game", MODULES["cardsmith.bots.spec"], 3, MODULE)
    cycles = [(i.at(), t) for i, t in hidden_cycles([up, back])]
    assert cycles == [("interpreter/engine/game.py:7", "cardsmith.bots.spec")]
    typing_only = Import("cardsmith.bots.spec", "cardsmith.engine.game", back.path, 3, TYPING)
    assert not hidden_cycles([up, typing_only])
