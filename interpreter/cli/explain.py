"""`cardsmith explain GAME`: the rulebook generated from a rule file, as Markdown or one HTML page
(interpreter/rulebook/, docs/rulebook.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..dsl.diagnostics import RuleFileError
from ..dsl.files import quoted
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.errors import GameError
from ..engine.text import say
from ..rulebook import build_rulebook, to_html, to_markdown


def cmd_explain(args: argparse.Namespace) -> int:
    from .main import _options
    path = resolve(args.game)
    loaded = compile_file(path, args.limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    spec = loaded.game.spec
    named = {o.name for o in spec.options}
    if args.output is not None and "=" in args.output and args.output.split("=", 1)[0] in named:
        # `-o` is the table option in `run` and `play`: here it would silently write a file of that name.
        raise GameError(f"-o names the file to write here; for the table option write --option {args.output}")
    options = _options(args.option)
    # A bundled game is named by its name; a file given by path by the file's name.
    doc = build_rulebook(loaded.game, args.players, options, file_name=Path(path).name)
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


def add_parser(sub: Any) -> argparse.ArgumentParser:
    from .main import MAX_PLAYERS, _limit_args
    from .main import _whole as whole
    e: argparse.ArgumentParser = sub.add_parser(
        "explain", help="the rulebook of a rule file, as Markdown or an HTML page (docs/rulebook.md)")
    e.add_argument("game", metavar="FILE_OR_GAME", help="a rule file, or a bundled game's name")
    e.add_argument("--format", choices=["md", "html"], default="md",
                   help="md (Markdown, the default) or html (one page with nothing loaded from elsewhere)")
    e.add_argument("--players", "-n", type=whole(1, MAX_PLAYERS), metavar="N",
                   help="also say what a table of N players plays with (its pack, cards dealt, options)")
    e.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a table option of that table (repeat for several)")
    e.add_argument("-o", "--output", metavar="FILE", help="write the rulebook to FILE instead of printing it")
    e.set_defaults(fn=cmd_explain)
    _limit_args(e)
    return e
