"""The expression parser, loaded from tables generated once from `grammar.lark` (`grammar.json`).

Building Lark's LALR(1) tables from the grammar takes tens of milliseconds, which every process that read
a rule file used to pay; loading the same tables as data takes a few. They are plain JSON, read with
`json` and given to `Lark.load`, never a pickle: Lark's own `cache=True` would load one from the shared
temporary folder, where another user could plant it. After editing the grammar, regenerate them:

    python -m cardsmith.dsl.grammar_tables

tests/test_startup.py fails while they are stale. The file records the SHA-256 of the grammar it was made
from and the Lark version that wrote it (Lark's serialised form is its own, not promised across
versions); when either differs from what is installed, the parser is built from the grammar as before:
the same parser, only slower to start.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

GRAMMAR = "grammar.lark"
TABLES = "grammar.json"
# The parser's options: the tables hold them, and the fallback builds with them.
OPTIONS: dict[str, Any] = {"parser": "lalr", "start": ["expression", "statement"], "propagate_positions": True,
                           "maybe_placeholders": True}
REGENERATE = "python -m cardsmith.dsl.grammar_tables"
# JSON keys are strings: a mapping with whole-number keys (the memo, the parse table's states and tokens) is
# written as {INT_KEYS: [[key, value], ...]}.
INT_KEYS = "int-keys"


def grammar_text() -> str:
    return resources.files(__package__).joinpath(GRAMMAR).read_text(encoding="utf-8")


def digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def read_tables() -> dict[str, Any] | None:
    """The shipped tables as Lark wrote them, or None if there is no such file."""
    try:
        text = resources.files(__package__).joinpath(TABLES).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    tables: dict[str, Any] = json.loads(text, object_hook=_decode)
    return tables


def stale(tables: dict[str, Any] | None, grammar: str) -> str | None:
    """Why `tables` cannot stand for `grammar` under the installed Lark, or None if they can."""
    if tables is None:
        return f"there is no {TABLES}"
    if tables.get("grammar_sha256") != digest(grammar):
        return f"{TABLES} was generated from another {GRAMMAR}"
    if tables.get("lark") != lark.__version__:
        return f"{TABLES} was written by Lark {tables.get('lark')}, and Lark {lark.__version__} is installed"
    return None


def load_parser() -> Lark:
    """The parser of `grammar.lark`: from the tables when they are current, else built from the grammar."""
    grammar = grammar_text()
    tables = read_tables()
    if tables is not None and stale(tables, grammar) is None:
        parser: Lark = Lark.load({"data": tables["data"], "memo": tables["memo"]})
        return parser
    return build_parser(grammar)


def build_parser(grammar: str) -> Lark:
    return Lark(grammar, **OPTIONS)


def generate(grammar: str) -> dict[str, Any]:
    """The tables of `grammar` as JSON-ready data (what `load_parser` reads back)."""
    data, memo = build_parser(grammar).memo_serialize([TerminalDef, Rule])
    return {"generated": f"from {GRAMMAR} by `{REGENERATE}`; do not edit", "grammar_sha256": digest(grammar),
            "lark": lark.__version__, "data": _encode(data), "memo": _encode(memo)}


def _encode(x: Any) -> Any:
    if isinstance(x, dict):
        if x and all(isinstance(k, int) for k in x):
            return {INT_KEYS: [[k, _encode(v)] for k, v in x.items()]}
        assert all(isinstance(k, str) for k in x) and INT_KEYS not in x, x
        return {k: _encode(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_encode(v) for v in x]
    assert x is None or isinstance(x, (str, int, float, bool)), x
    return x


def _decode(d: dict[str, Any]) -> Any:
    return {k: v for k, v in d[INT_KEYS]} if INT_KEYS in d else d


def main() -> int:
    out = Path(__file__).with_name(TABLES)
    out.write_text(json.dumps(generate(grammar_text()), sort_keys=True, separators=(",", ":")) + "\n",
                   encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
