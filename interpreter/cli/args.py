"""What the commands' parsers share: argparse that answers in one line, whole numbers and seconds in the
digits 0-9, a game with its players and options, the bots, and the `--max-...` flags of dsl/limits.py.

Every run of `cardsmith` builds the parsers of all the commands (`--help` lists them), so this module and
commands.py import only argparse and small modules; what a command does is imported when it runs.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import fields
from typing import NoReturn

from ..dsl.diagnostics import clipped
from ..dsl.limits import MAX_PLAYERS, Limits
from ..engine.backends import BACKEND_ENV, BACKENDS
from ..engine.text import one_line

LIMITS = "limits for untrusted rule files"  # the heading of the --max-... flags in every command's help
MAX_LIMIT = 2**31 - 1  # a larger --max-file-bytes would make Python reserve that much memory to read a file
MAX_SEED = 2**63 - 1
_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


class Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"cardsmith: error: {message} (see 'cardsmith {self.prog.split()[-1]} --help')"
                           if " " in self.prog else f"cardsmith: error: {message} (see 'cardsmith --help')") + "\n")


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from lo to hi in the digits 0-9 (int() would also take '٣' and '1_000')."""
    def parse(text: str) -> int:
        if not _WHOLE.match(text):
            raise argparse.ArgumentTypeError(f"expected a whole number in the digits 0-9, not '{clipped(text, 40)}'")
        digits = text.lstrip("+-").lstrip("0")
        v = int(text) if len(digits) <= 30 else (hi + 1 if not text.startswith("-") else lo - 1)
        if v < lo:
            raise argparse.ArgumentTypeError(f"must be at least {lo:,}, not {clipped(text, 40)}")
        if v > hi:
            raise argparse.ArgumentTypeError(f"must be at most {hi:,}, not {clipped(text, 40)}")
        return v
    return parse


def seconds(text: str) -> float:
    if not _DECIMAL.match(text):
        raise argparse.ArgumentTypeError(f"expected a number of seconds in the digits 0-9 (like 2 or 0.5), "
                                         f"not '{clipped(text, 40)}'")
    v = float(text)
    if not (0 < v <= 86_400):
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400, not {clipped(text, 40)}")
    return v


def game_args(q: argparse.ArgumentParser, optional: bool = False) -> None:
    q.add_argument("game", metavar="FILE_OR_GAME", nargs="?" if optional else None,
                   help="a rule file, or a bundled game's name")
    q.add_argument("--players", "-n", type=whole(1, MAX_PLAYERS), metavar="N",
                   help="number of players (default: the minimum)")
    q.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a table option (repeat for several)")


def backend_arg(q: argparse.ArgumentParser, default: str = "auto", native: str = "") -> None:
    """--backend, default `default` (or $CARDSMITH_BACKEND), resolved when the command runs (common.backend_of):
    argparse keeps None for "not given", so a command can tell a choice from the default. `native`: what the
    native backend means for this command, where it is not "runs the matches"."""
    what = native or "the rule file compiled to C++ (cached), an error where it cannot be"
    q.add_argument("--backend", choices=BACKENDS, default=None,
                   help=f"{'auto (the default)' if default == 'auto' else 'auto'}: native where it can be built "
                        f"here, else python, saying why in one line; native: {what}; python"
                        f"{' (the default)' if default == 'python' else ''}: the reference (${BACKEND_ENV} changes "
                        "the default)")
    # One set per parse: the notes `auto` has said in this command (common.instance), each said once.
    q.set_defaults(backend_default=default, backend_notes=set())


def bot_spec(text: str) -> str:
    """An argparse type: bot specs that parse (the names of the rule file's strategies are checked with the
    game). The bots are imported here, when a command that takes --bots reads its arguments, so that the
    other commands never import them."""
    from ..bots.spec import BadBotSpec, parse_bots
    try:
        parse_bots(text, strategies=None)
    except BadBotSpec as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def bot_args(q: argparse.ArgumentParser, what: str) -> None:
    q.add_argument("--bots", "--bot", dest="bots", type=bot_spec, default="random", metavar="SPEC",
                   help=f"{what}: a bot's name with parameters, like 'ismcts(iterations=400), random', or a "
                        "strategy of the rule file; docs/bots.md lists them")


def limit_args(q: argparse.ArgumentParser) -> None:
    """The --max-... flags, after the command's own (call it last), under one heading and named once in the
    usage line."""
    g = q.add_argument_group(LIMITS, "the most a rule file may ask for; raise them for a big game you trust")
    for f in fields(Limits):
        g.add_argument(Limits.flag(f.name), type=whole(1, MAX_LIMIT), metavar="N", dest=f"limit_{f.name}",
                       help=f"default {f.default:,}")
    # The usage line names them as one: nine flags there would bury the command's own.
    own = [a for a in q._actions if a not in g._group_actions]
    formatter = q._get_formatter()
    formatter.add_usage(None, own + [argparse.Action(["--max-..."], argparse.SUPPRESS, metavar="N")],
                        q._mutually_exclusive_groups)
    q.usage = formatter.format_help().strip().removeprefix("usage: ").replace("%", "%%")


def limits_of(args: argparse.Namespace) -> Limits:
    """One Limits for the whole command, from its --max-... flags (the defaults for those not given)."""
    return Limits(**{f.name: value for f in fields(Limits)
                     if (value := getattr(args, f"limit_{f.name}", None)) is not None})
