"""`cardsmith explain GAME`: the rulebook generated from a rule file, as Markdown or one HTML page
(interpreter/rulebook/, docs/rulebook.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..dsl.diagnostics import RuleFileError
from ..dsl.files import quoted
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.errors import GameError
from ..engine.text import say
from ..rulebook import build_rulebook, to_html, to_markdown
from .common import options


def cmd_explain(args: argparse.Namespace) -> int:
    path = resolve(args.game)
    loaded = compile_file(path, args.limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    spec = loaded.game.spec
    named = {o.name for o in spec.options}
    if args.output is not None and "=" in args.output and args.output.split("=", 1)[0] in named:
        # `-o` is the table option in `run` and `play`: here it would silently write a file of that name.
        raise GameError(f"-o names the file to write here; for the table option write --option {args.output}")
    table = options(args.option)
    # A bundled game is named by its name; a file given by path by the file's name.
    doc = build_rulebook(loaded.game, args.players, table, file_name=Path(path).name)
    text = to_html(doc) if args.format == "html" else to_markdown(doc)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as e:
        say(f"cardsmith: error: cannot write {quoted(args.output)}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0
