"""The `cardsmith` command line: its parser, and each command run from its own module of this folder.

The parser of every command is built on each run (commands.py: `--help` lists them all, each checks its own
flags), from small modules only; the module that does a command's work is imported when that command runs,
so `cardsmith --help` or `cardsmith run` does not import the simulator, the web table or the rulebook
(docs/performance.md, "Start-up").
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from collections.abc import Sequence
from importlib import import_module
from typing import Any

from ..dsl.diagnostics import RuleFileError
from ..engine.errors import GameError, RuleError
from ..engine.text import say
from .args import LIMITS, Parser, limits_of
from .commands import HOMES, add_commands

__all__ = ["ABOUT", "LIMITS", "ORDER", "build_parser", "main", "version"]

# Output: every line that holds text from a rule or scenario file (names, labels, messages, paths) is
# printed with `say`, which escapes it; diagnostics come from `render_all` / `render`, which escape
# themselves. Nothing else prints.

ABOUT = "cardsmith: card games from rule files. Write a game as a YAML rule file, then check it, read it, play it, " \
    "test it and measure it."
# The order of the commands in `cardsmith --help`: a designer's day, from a new file to its balance.
ORDER = ("new", "validate", "explain", "schema", "list", "run", "play", "serve", "replay", "bots", "test", "bench",
         "compile", "simulate", "compare")


def version() -> str:
    """The installed distribution's version (pyproject.toml's), as `cardsmith --version` prints it."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("cardsmith")
    except PackageNotFoundError:  # imported from a checkout that was never installed
        return "(not installed)"


class _Version(argparse._VersionAction):
    """--version, reading the installed version only when asked (importlib.metadata takes a while to load)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from ..native.build import status  # (only here: it loads the compiler's front end)
        self.version = f"cardsmith {version()}\n{status()}"
        super().__call__(parser, namespace, values, option_string)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="cardsmith", formatter_class=argparse.RawDescriptionHelpFormatter,
               epilog="'cardsmith COMMAND --help' gives a command's flags; the README and docs/ say the rest.")
    p.add_argument("--version", action=_Version,
                   help="print cardsmith's version, and whether the native backend can be built here, and exit")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=Parser,
                           help="one of the commands above, followed by its arguments")
    sub.required = True
    add_commands(sub)
    p.description = _commands(sub)
    return p


def _commands(sub: Any) -> str:
    """The top-level description: what cardsmith is, then every command with its summary, in ORDER (one
    missing from it last). Made from the subcommands themselves, so a new command is listed once it is
    registered; argparse's own list of them is dropped, or they would be listed twice."""
    found = {a.dest: a.help or "" for a in sub._choices_actions}
    summaries = {name: found[name] for name in sorted(found, key=lambda n: ORDER.index(n) if n in ORDER
                                                      else len(ORDER))}
    sub._choices_actions.clear()
    width = max(len(name) for name in summaries)
    room = max(40, shutil.get_terminal_size().columns - 2)
    lines = textwrap.wrap(ABOUT, room) + ["", "commands:"]
    for name, help_text in summaries.items():
        lines += textwrap.wrap(help_text, room, initial_indent=f"  {name:<{width}}  ",
                               subsequent_indent=" " * (width + 4))
    return "\n".join(lines)



def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.limits = limits_of(args)
    try:
        # The command's module, imported now: only the command that runs is loaded.
        command = getattr(import_module(f".{HOMES[args.cmd]}", __package__), f"cmd_{args.cmd}")
        return int(command(args))
    except RuleFileError as e:
        print(e.render(), file=sys.stderr)
        return 1
    except RuleError as e:
        print(e.render(), file=sys.stderr)
        return 1
    except GameError as e:
        say(f"cardsmith: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
