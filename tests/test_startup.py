"""A fast start (issue 30): what `import cardsmith` and the command line load, and the parser's tables.

* The expression parser is loaded from tables generated once from dsl/grammar.lark (dsl/grammar.json,
  dsl/grammar_tables.py): they must be regenerated whenever the grammar changes, and they must parse
  every text exactly as a parser built from the grammar does: the same trees with the same positions,
  the same errors at the same places expecting the same tokens.
* `import cardsmith` imports no grammar, compiler or engine, and the command imports only the command it
  runs. Checked on the modules a fresh interpreter has loaded, not on a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cardsmith.dsl import grammar_tables, parser
from cardsmith.dsl.diagnostics import Span, render
from cardsmith.dsl.limits import DEFAULT_LIMITS
from conftest import GAMES_DIR, ROOT, TESTS
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

DSL = ROOT / "dsl"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # only to collect the texts: libyaml's is faster


# ---------------------------------------------------------------- the generated tables
def test_the_tables_are_generated_from_this_grammar() -> None:
    grammar = (DSL / grammar_tables.GRAMMAR).read_text(encoding="utf-8")
    tables = json.loads((DSL / grammar_tables.TABLES).read_text(encoding="utf-8"))
    assert tables["grammar_sha256"] == grammar_tables.digest(grammar), (
        f"dsl/grammar.lark changed: run `{grammar_tables.REGENERATE}` and commit dsl/grammar.json")


def test_the_parser_is_loaded_from_the_tables() -> None:
    """With the Lark that wrote them, the shipped tables are what the parser is made from (otherwise it is built
    from the grammar: correct, but the start-up time is lost)."""
    tables = grammar_tables.read_tables()
    assert tables is not None
    if tables["lark"] != grammar_tables.lark.__version__:
        pytest.skip(f"the tables were written by Lark {tables['lark']}: `{grammar_tables.REGENERATE}` "
                    "rewrites them for this one")
    assert grammar_tables.stale(tables, grammar_tables.grammar_text()) is None
    assert parser._PARSER.source_path == "<deserialized>"  # what Lark.load sets, never Lark(grammar)


def test_a_stale_table_is_not_used() -> None:
    tables = grammar_tables.read_tables()
    grammar = grammar_tables.grammar_text()
    assert "another grammar.lark" in (grammar_tables.stale(tables, grammar + "\n// changed") or "")
    assert "Lark 0.0.1" in (grammar_tables.stale({**(tables or {}), "lark": "0.0.1"}, grammar) or "")
    assert grammar_tables.stale(None, grammar) == "there is no grammar.json"


def _texts() -> list[str]:
    """Every string of the repository's rule, scenario and template files (expressions, statements, and names
    and prose that fail to parse), each also cut short (for the errors at the end of a text)."""
    seen: dict[str, None] = {}
    visited: dict[int, Any] = {}  # a YAML alias repeats a node: walked once (the attack files repeat them a lot)

    def strings(x: Any) -> Iterator[str]:
        if isinstance(x, str):
            yield x
        elif isinstance(x, (dict, list)) and id(x) not in visited:
            visited[id(x)] = x  # kept, so that no other node gets its id
            for v in (x if isinstance(x, list) else [*x, *x.values()]):
                yield from strings(v)

    files = [*GAMES_DIR.glob("*.yaml"), *TESTS.rglob("*.yaml"), *(ROOT / "interpreter" / "templates").glob("*.yaml"),
             *(ROOT / "docs").rglob("*.yaml")]
    for f in sorted(files):
        if f.is_symlink() or not f.is_file():
            continue  # the attack files include folders, pipes and links to devices
        try:
            docs = list(yaml.load_all(f.read_text(encoding="utf-8"), Loader=LOADER))
        except (yaml.YAMLError, UnicodeDecodeError, ValueError, RecursionError):
            continue  # files broken on purpose
        for text in strings(docs):
            if len(text) <= 2_000:
                seen.update({text: None, text[: len(text) // 2]: None, text[: len(text) * 3 // 4]: None})
    return list(seen)


def _shape(x: Any, names: dict[str, str]) -> Any:
    """A parse tree as plain data, with every position Lark gives."""
    if isinstance(x, Tree):
        m = x.meta
        where = None if getattr(m, "empty", True) else (m.line, m.column, m.end_line, m.end_column, m.start_pos,
                                                        m.end_pos)
        return (str(x.data), where, [_shape(c, names) for c in x.children])
    if isinstance(x, Token):
        return (names.get(x.type, x.type), str(x), x.line, x.column, x.end_line, x.end_column, x.start_pos, x.end_pos)
    return x


def _outcome(p: Lark, text: str, start: str) -> Any:
    """The tree, or the error: its kind, place, and what was expected (by the terminals' patterns, since an
    anonymous terminal's name is Lark's own numbering)."""
    names = {t.name: f"{t.pattern.type}:{t.pattern.value}" for t in p.terminals}
    try:
        return _shape(p.parse(text, start=start), names)
    except UnexpectedInput as e:
        expected = sorted(names.get(n, n) for n in (getattr(e, "expected", None) or getattr(e, "allowed", None)
                                                     or ()))
        token = getattr(e, "token", None)
        return (type(e).__name__, e.line, e.column, e.pos_in_stream, expected,
                None if token is None else (names.get(token.type, token.type), str(token)))


@pytest.mark.slow
def test_the_tables_parse_every_text_as_the_grammar_does(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = grammar_tables.load_parser()
    built = grammar_tables.build_parser(grammar_tables.grammar_text())
    def terminals(p: Lark) -> dict[str, Any]:
        return {t.name: (t.pattern.type, t.pattern.value, sorted(t.pattern.flags), t.priority) for t in p.terminals}
    assert terminals(loaded) == terminals(built)
    texts = _texts()
    assert len(texts) > 5_000  # the repository's files were found
    parsed = 0
    for text in texts:
        for start in ("expression", "statement"):
            got = _outcome(loaded, text, start)
            assert got == _outcome(built, text, start), (text, start)
            parsed += len(got) == 3  # a tree (an error has six parts)
    assert parsed > 2_000  # many texts are expressions or statements
    # And through dsl/parser.py: the same AST, or the same diagnostics, word for word.
    for text in texts[::7]:
        for start in ("expression", "statement"):
            results = []
            for p in (loaded, built):
                monkeypatch.setattr(parser, "_PARSER", p)
                diags: list[Any] = []
                result = parser.parse(text, start, lambda line, col: Span("f.yaml", line, col), diags,
                                      DEFAULT_LIMITS)
                results.append((repr(result), [render(d, text) for d in diags]))
            assert results[0] == results[1], (text, start)
    assert parser.KEYWORDS == frozenset(t.pattern.value for t in built.terminals
                                        if t.pattern.type == "str" and t.pattern.value.isidentifier())


# ---------------------------------------------------------------- what is imported
def _modules(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `code` (its own output goes to stderr)."""
    script = ("import sys\nsys.stdout, out = sys.stderr, sys.stdout\n" + code +
              "\nout.write('\\n'.join(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=TESTS)
    assert r.returncode == 0, r.stderr
    return set(r.stdout.split())


def _under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


# Compiling a rule file needs these; `import cardsmith` does not.
COMPILER = ("lark", "yaml", "cardsmith.dsl.parser", "cardsmith.dsl.grammar_tables", "cardsmith.dsl.pipeline",
            "cardsmith.dsl.checker", "cardsmith.dsl.compiler", "cardsmith.dsl.codegen", "cardsmith.dsl.yaml_loader")
# What only some commands use.
COMMANDS = ("cardsmith.cli.simulate", "cardsmith.cli.serve", "cardsmith.cli.explain", "cardsmith.cli.schema",
            "cardsmith.cli.new", "cardsmith.cli.replay", "cardsmith.cli.bench", "cardsmith.cli.emit",
            "cardsmith.cli.bots", "cardsmith.cli.deep", "cardsmith.cli.validate", "cardsmith.cli.listing",
            "cardsmith.cli.scenarios", "cardsmith.sim", "cardsmith.web", "cardsmith.rulebook", "cardsmith.table.play",
            "cardsmith.scenario", "cardsmith.dsl.json_schema")


def test_import_cardsmith_loads_no_grammar_compiler_or_command() -> None:
    modules = _modules("import cardsmith")
    assert not _under(modules, *COMPILER, *COMMANDS, "cardsmith.engine", "cardsmith.bots", "cardsmith.cli")


def test_the_public_names_are_there_when_asked_for() -> None:
    modules = _modules("import cardsmith\nfrom cardsmith import Limits, GameError\nassert cardsmith.Limits is Limits")
    assert {"cardsmith.dsl.limits", "cardsmith.engine.errors"} <= modules
    assert not _under(modules, *COMPILER)
    import cardsmith
    for name in cardsmith.__all__:
        assert getattr(cardsmith, name) is not None, name
    assert set(cardsmith.__all__) <= set(dir(cardsmith))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cardsmith.nothing  # noqa: B018


def test_help_imports_no_command() -> None:
    modules = _modules("from cardsmith.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert not _under(modules, *COMPILER, *COMMANDS, "cardsmith.bots", "cardsmith.engine.game")


def test_a_command_imports_only_itself() -> None:
    modules = _modules("from cardsmith.cli import main\nmain(['run', 'kuhn-poker', '--players', '2', '--seed', '1'])")
    assert "cardsmith.cli.run" in modules and "cardsmith.dsl.pipeline" in modules
    assert not _under(modules, *COMMANDS)
    modules = _modules("from cardsmith.cli import main\nmain(['list'])")
    assert not _under(modules, *(c for c in COMMANDS if c != "cardsmith.cli.listing"), "cardsmith.bots")


def test_each_command_runs_from_its_own_module(tmp_path: Path) -> None:
    """Every command the parser knows names a module of cli/ with its function (a typo would only show when
    that command is run)."""
    import importlib

    from cardsmith.cli.commands import HOMES
    from cardsmith.cli.main import build_parser
    p = build_parser()
    (sub,) = [a for a in p._actions if a.__class__.__name__ == "_SubParsersAction"]
    assert set(HOMES) == set(sub.choices)  # type: ignore[attr-defined]
    for name, home in HOMES.items():
        assert callable(getattr(importlib.import_module(f"cardsmith.cli.{home}"), f"cmd_{name}")), name
