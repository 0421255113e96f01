"""docs/language.md's library tables, written from the library's records (library.py).

`python -m cardsmith.dsl.library_docs docs/language.md` rewrites the text between the markers;
tests/test_completeness.py fails while the doc differs from what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .library import LIBRARY

BEGIN = "<!-- generated: the library tables (python -m cardsmith.dsl.library_docs docs/language.md) -->"
END = "<!-- end of the generated library tables -->"


def tables() -> str:
    """The tables, one per group of functions, in the records' order."""
    groups: dict[str, list[str]] = {}
    for f in LIBRARY.values():
        groups.setdefault(f.group, []).append(f"| {f.usage} | {f.gives} | `{f.example}` | `{f.result}` |")
    out = []
    for group, rows in groups.items():
        out += [f"**{group}**", "", "| function | what it gives | example | result |", "| --- | --- | --- | --- |"]
        out += rows + [""]
    return "\n".join(out).rstrip("\n")


def rewrite(text: str) -> str:
    """`text` (a whole docs/language.md) with the tables between the markers replaced."""
    head, rest = text.split(BEGIN + "\n", 1)
    _, tail = rest.split("\n" + END, 1)
    return f"{head}{BEGIN}\n{tables()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    path = Path(argv[0] if argv else "docs/language.md")
    text = path.read_text(encoding="utf-8")
    new = rewrite(text)
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"{path}: library tables rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
