"""`cardsmith compile GAME`: the Python a rule file compiles to, with the rule-file lines it comes from.

For a designer who wants to see what the optimizer did, and for contributors: each stretch of generated
code that comes from one place of the rule file is headed by a comment naming that place and quoting its
line. The code is the module the engine runs, as dsl/codegen/ wrote it (`--no-optimize`: without
dsl/optimize.py's passes).
"""

from __future__ import annotations

import argparse

from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import RuleFileError, Span
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.text import one_line, say

WIDTH = 120  # of an annotation line


def annotated(game: CompiledGame) -> str:
    """The generated source, a `# file:line: text` comment above each line whose place in the rule file
    differs from the line before it."""
    out: list[str] = []
    last: tuple[str, int] | None = None
    for n, code in enumerate(game.source.splitlines(), 1):
        span = game.line_map.get(n)
        if span is not None and (span.file, span.line) != last:
            last = (span.file, span.line)
            indent = code[: len(code) - len(code.lstrip(" "))]
            out.append(f"{indent}# {_place(game, span, WIDTH - len(indent) - 2)}")
        elif not code.strip():
            last = None  # a new function: say where it comes from again
        out.append(code)
    return "\n".join(out) + "\n"


def _place(game: CompiledGame, span: Span, width: int) -> str:
    """`file:line: text`, the text shortened so the whole fits in `width` characters (at least the place)."""
    lines = game.sources.get(span.file, "").splitlines()
    text = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
    place = f"{one_line(span.file.rsplit('/', 1)[-1])}:{span.line}: "
    text = one_line(text)
    room = max(20, width - len(place))
    return place + (text if len(text) <= room else text[: room - 3] + "...")


def cmd_compile(args: argparse.Namespace) -> int:
    loaded = compile_file(resolve(args.game), args.limits, optimize=not args.no_optimize)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    for line in annotated(loaded.game).splitlines():
        say(line)  # escaped like every output of the tool (engine/text.py), line by line
    return 0
