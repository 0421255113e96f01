"""The `cardsmith` command line: validate, run, list, test, bench, play, and the commands of this folder."""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, NoReturn

from ..bots import BadBotSpec, SeatView, make_bot, parse_bots, seat_seed, strategy_names
from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import Diagnostic, RuleFileError, clipped, count_of, render_all
from ..dsl.files import quoted
from ..dsl.limits import Limits
from ..dsl.lint import unreachable_actions
from ..dsl.pipeline import compile_file
from ..dsl.spec import MAX_PLAYERS, OptionSpec
from ..dsl.suggest import MAX_CANDIDATES, closest
from ..dsl.table_checks import bounds_vary_with_players_only, option_bounds_text
from ..engine.bundled import bundled_games, resolve
from ..engine.errors import GameError, RuleError, SetupRefused
from ..engine.game import Game
from ..engine.options import option_ranges
from ..engine.state import State
from ..engine.text import one_line, say
from ..table.record import record_match
from . import bench as bench_cmd
from . import bots as bots_cmd
from . import emit
from . import explain as explain_cmd
from . import new as new_cmd
from . import replay as replay_cmd
from . import schema as schema_cmd
from .deep import BUDGET as DEEP_BUDGET
from .deep import MATCH_FLOOR as DEEP_MATCH_FLOOR
from .narrate import header, narrate

# Output: every line that holds text from a rule or scenario file (names, labels, messages, paths) is
# printed with `say`, which escapes it; diagnostics come from `render_all` / `render`, which escape
# themselves. Nothing else prints.


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"cardsmith: error: {message} (see 'cardsmith {self.prog.split()[-1]} --help')"
                           if " " in self.prog else f"cardsmith: error: {message} (see 'cardsmith --help')") + "\n")


def _error_lines(e: GameError) -> list[str]:
    """A GameError as lines to `say`: a rule error's context goes on a line of its own."""
    if isinstance(e, RuleError):
        where = f"{e.span}: " if e.span else ""
        return [f"{where}rule error: {e.message}"] + ([f"    {e.context}"] if e.context else [])
    return [str(e)]


def _options(pairs: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in pairs or []:
        if "=" not in p:
            raise GameError(f"--option takes NAME=VALUE, not '{p}'")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _instance(args: argparse.Namespace) -> Game:
    """The game a command's GAME, --players and --option name, within its --max-... limits."""
    path = resolve(args.game)
    players: int | None = args.players
    options = _options(args.option)
    loaded = compile_file(path, args.limits)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    spec = loaded.game.spec
    n = players if players is not None else spec.min_players
    return Game(loaded.game, n, options)


# ---------------------------------------------------------------- validate
def cmd_validate(args: argparse.Namespace) -> int:
    bad = 0
    for f in args.files:
        try:
            path = resolve(f)
        except GameError as e:
            say(f"{f}:1:1: error: {e}")
            bad += 1
            continue
        r = compile_file(path, args.limits, warnings=True)
        # Warnings come with a file that checks without errors (dsl/lint.py), and are shown only while nothing
        # else is wrong with it: fix the errors first. --strict makes them errors.
        diags = _strict(r.diagnostics) if args.strict else r.diagnostics
        errors = [d for d in diags if d.severity == "error"]
        if errors or r.game is None:
            print(render_all(errors, r.sources))
            n = len(errors)
            say(f"{r.file}: {count_of(n, 'problem')}")
            bad += 1
            continue
        sp = r.game.spec
        # Build one instance per player count so a pack that fails for some count shows here. The setup work
        # of all of them together is bounded by one budget: 64 counts may not cost 64 budgets.
        problems: list[list[str]] = []
        setup_budget = [args.limits.steps]
        refused: list[int] = []  # player counts whose default options the rules' constraints refuse: by design
        for k in range(sp.min_players, sp.max_players + 1):
            try:
                Game(r.game, k, budget=setup_budget)
            except SetupRefused:
                refused.append(k)
            except GameError as e:
                problems.append(_error_lines(e))
                problems[-1][0] = f"{count_of(k, 'player')}: {problems[-1][0]}"
                if isinstance(e, RuleError) and e.code == "R004":
                    break  # the budget is spent: the other counts cannot be set up either
        if problems:  # errors: the warnings wait until there are none
            for lines in problems:
                say(f"{r.file}: error: {lines[0]}", *lines[1:])
            bad += 1
            continue
        opts = f", {count_of(len(sp.options), 'option')}" if sp.options else ""
        summary = (f"{r.file}: ok: {sp.name}, {_players(sp.min_players, sp.max_players)}, "
                   f"{count_of(len(sp.actions), 'action')}, {count_of(len(sp.phases), 'phase')}{opts}")
        if refused:
            summary += f" (the default options are refused with {_counts(refused)})"
        if not args.deep:
            if diags:
                print(render_all(diags, r.sources))
            say(summary + _warnings(len(diags)))
            continue
        from ..sim.terminal import ProgressBar
        from .deep import explore, never_legal, settings
        # An action no phase that is entered lists was warned of already (W006, W007): not looked for.
        quiet = unreachable_actions(r.diagnostics)
        # On a terminal, the settings played so far (a big file takes minutes); nothing in a pipe or a log.
        with ProgressBar(settings(r.game)[0], f"{Path(r.file).name}: playing", unit="settings") as bar:
            report = explore(r.game, args.deep_games, args.deep_actions, budget=args.deep_budget,
                             wanted={a.name for a in sp.actions if a.span not in quiet}, progress=bar.advance)
        if report.settings < report.total_settings:
            covered = (f"explored {report.settings:,} of {report.total_settings:,} settings (raise --deep-budget "
                       "to explore more)")
        else:
            covered = f"all {report.total_settings:,} settings" if report.total_settings > 1 else "1 setting"
        if report.refused:
            covered += f" ({report.refused:,} refused by the rules' constraints)"
        played = f"{covered}, {count_of(report.games, 'random match')}, {count_of(report.actions, 'action')}"
        found = report.diagnostics + never_legal(r.game, report)
        found = _strict(found) if args.strict else found
        errors = [d for d in found if d.severity == "error"]
        if errors:  # as above, and a match cut short by an error leaves actions it never reached
            print(render_all(errors, r.sources))
            say(f"{r.file}: {count_of(len(errors), 'problem')} found by playing ({played})")
            bad += 1
            continue
        if found or diags:
            print(render_all(diags + found, r.sources))
        say(f"{summary}; deep: {played}, no problems{_warnings(len(diags) + len(found))}")
    return 1 if bad else 0


def _strict(diags: list[Diagnostic]) -> list[Diagnostic]:
    """`validate --strict`: every warning is an error (it keeps its W code)."""
    return [replace(d, severity="error") for d in diags]


def _warnings(n: int) -> str:
    """'; 2 warnings' after the summary of a valid file; nothing for none."""
    return f"; {count_of(n, 'warning')}" if n else ""


def _counts(ns: list[int]) -> str:
    """Player counts in words: '5 players', '2, 3 or 5 players'."""
    if len(ns) == 1:
        return count_of(ns[0], "player")
    return f"{', '.join(f'{n:,}' for n in ns[:-1])} or {ns[-1]:,} players"


def _players(lo: int, hi: int) -> str:
    """A game's player counts: '1 player', '4 players', '2-6 players'."""
    return count_of(lo, "player") if lo == hi else f"{lo:,}-{hi:,} players"


# ---------------------------------------------------------------- run
def cmd_run(args: argparse.Namespace) -> int:
    g = _instance(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    specs = parse_bots(args.bots, g.n, strategy_names(g))
    bots = [make_bot(spec, g, p, seat_seed(seed, p)) for p, spec in enumerate(specs)]
    s = State.initial(g, seed, log=True)
    out: list[str] = [header(g, seed)]
    records: list[dict[str, Any]] = []

    def played() -> Iterator[State]:
        yield s
        while not s.terminal:
            p = s.current_player()
            s.apply_action(bots[p].choose(SeatView(s, p)))
            yield s

    try:
        narrate(g, played(), out, records)
    except GameError as e:
        if not args.json:
            say(*out)
            say(f"(the match stopped after {count_of(len(records), 'event')})")
        if isinstance(e, RuleError):
            # `run` is the designer's own log: the error comes with the designer's view (values, all cards).
            print(e.render(designer=True), file=sys.stderr)
            return 1
        raise
    steps = s.moves
    if args.json or args.record:
        rec = record_match(s, args.game, [str(sp) for sp in specs], [True] * len(specs)).to_json()
        if args.record:
            try:
                with open(args.record, "w", encoding="utf-8") as f:
                    json.dump(rec, f, indent=1)
                    f.write("\n")
            except OSError as e:
                say(f"cardsmith: error: cannot write the record {args.record!r}: {e.strerror or e}", file=sys.stderr)
                return 2
    if args.json:
        # The match record (cardsmith replay reads it), and what a reader of the match wants at hand.
        rec.update({"actions": steps, "deals": s.deal_no, "winners": s.winners, "returns": s.returns(),
                    "returns_name": g.returns_name, "events": records,
                    "variables": {name: s.v[i] for i, name in enumerate(g.var_names)}})
        json.dump(rec, sys.stdout)
        sys.stdout.write("\n")
    else:
        say(*out)
        say(f"({count_of(steps, 'action')}, {count_of(s.deal_no, 'deal')})")
    return 0


# ---------------------------------------------------------------- list
def cmd_list(args: argparse.Namespace) -> int:
    games = bundled_games() if not args.files else {f: resolve(f) for f in args.files}
    bad = 0
    for name, path in games.items():
        r = compile_file(path, args.limits)
        if not r.ok or r.game is None:
            print(render_all(r.diagnostics, r.sources), file=sys.stderr)
            bad += 1
            continue
        sp = r.game.spec
        say(f"{name}: {sp.name}, {_players(sp.min_players, sp.max_players)}")
        if str(path) != name:  # a bundled game: where its file is, to read it or to extend it by path
            say(f"    file: {path}")
        for o in sp.options:
            if o.kind == "int":
                allowed = _int_range(r.game, o)
            elif o.kind == "bool":
                allowed = "yes/no"
            else:
                allowed = "/".join(o.values)
            default = o.default_text if not isinstance(o.default, (int, str, bool)) else (
                ("yes" if o.default else "no") if isinstance(o.default, bool) else o.default)
            doc = f"  {o.doc}" if o.doc else ""
            say(f"    --option {o.name}=VALUE  ({allowed}; default {default}){doc}")
        for c in sp.constraints:
            say(f"    refused {'when' if c.refuse else 'unless'} {c.text}: {c.message}")
        for st in sp.strategies:
            say(f"    --bots {st.name}  (a strategy){'  ' + st.doc if st.doc else ''}")
    return 1 if bad else 0


def _int_range(game: CompiledGame, o: OptionSpec) -> str:
    """An int option's range for a listing: '1..10'. A range worked out for the player count is shown as
    written and, when it reads no other option and the game has at most 8 player counts, with its values:
    '1..52 // num_players: 1..26 with 2 players, 1..17 with 3, ..., 1..8 with 6-7'."""
    written = option_bounds_text(o)
    sp = game.spec
    if not bounds_vary_with_players_only(o) or sp.max_players - sp.min_players >= 8:
        return written
    groups: list[tuple[tuple[int, int], list[int]]] = []
    for n in range(sp.min_players, sp.max_players + 1):
        ranges = option_ranges(game, n)
        if ranges is None or o.name not in ranges:
            return written
        if groups and groups[-1][0] == ranges[o.name]:
            groups[-1][1].append(n)
        else:
            groups.append((ranges[o.name], [n]))
    each = [f"{lo}..{hi} with {ns[0] if len(ns) == 1 else f'{ns[0]}-{ns[-1]}'}" for (lo, hi), ns in groups]
    each[0] += " player" if groups[0][1] == [1] else " players"
    return f"{written}: {', '.join(each)}"


# ---------------------------------------------------------------- test
def cmd_test(args: argparse.Namespace) -> int:
    from ..scenario.runner import read, run_scenarios
    passed = failed = 0
    names: dict[str, None] = {}  # every scenario name of the files read, in order, for a filter that matches none
    read_files: list[str] = []
    for f in args.files:
        try:
            sf = read(f, args.limits)
            read_files.append(f)
            names.update((sc.name, None) for sc in sf.scenarios)
            results = run_scenarios(sf, args.only, args.limits)
        except RuleFileError as e:
            print(e.render())
            failed += 1
            continue
        for r in results:
            if r.ok:
                passed += 1
                if args.verbose:
                    say(f"ok    {f}: {r.name}")
            else:
                failed += 1
                say(f"FAIL  {r.span}: {r.name}: {r.message}")
    # A filter that matches no scenario would otherwise pass with "0 passed": a misspelt name tests nothing.
    unmatched = args.only is not None and read_files and args.only not in names
    if passed or failed or not unmatched:
        say(f"{passed:,} passed, {failed:,} failed")
    if unmatched:
        say(f"cardsmith: error: {_no_such_scenario(args.only, list(names), read_files)}", file=sys.stderr)
        return 1
    return 1 if failed else 0


SCENARIOS_LISTED = 5  # names listed when a --only filter matches none and none is close
NAME_SHOWN = 60  # characters of a scenario name (or of the filter) shown in that message


def _no_such_scenario(only: str, names: list[str], files: list[str]) -> str:
    """Why `--only` ran nothing: the closest name, else the names that hold the filter, else the first names.

    Names come from the files and the filter from the command line: each is shortened and quoted (`say`
    escapes what is left), and at most SCENARIOS_LISTED are listed, so a file of 100,000 scenarios answers
    in one short line."""
    def q(text: str) -> str:
        return quoted(text if len(text) <= NAME_SHOWN else text[:NAME_SHOWN - 3] + "...")
    where = files[0] if len(files) == 1 else f"the {len(files):,} files"
    head = f"--only {q(only)}: no scenario of {where} has this name"
    if not names:
        return f"{head}; {'it has' if len(files) == 1 else 'they have'} no scenarios"
    close = closest(only, names)
    if close is not None:
        return f"{head}; did you mean {q(close)}?"
    holding = [n for n in names[:MAX_CANDIDATES] if only.casefold() in n.casefold()] if only.strip() else []
    listed = holding or names
    what = "the scenarios whose names hold it" if holding else "its scenarios" if len(files) == 1 else \
        "their scenarios"
    more = f", ... ({len(listed):,} in all)" if len(listed) > SCENARIOS_LISTED else ""
    return f"{head}; {what}: {', '.join(q(n) for n in listed[:SCENARIOS_LISTED])}{more}"


# ---------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    from ..table.play import play, resume, source_of
    if args.resume is not None:
        return resume(args.resume, args.seat, args.save)
    if args.game is None:
        print("cardsmith: error: play needs a game (or --resume FILE)", file=sys.stderr)
        return 2
    g = _instance(args)
    return play(g, args.seat, args.seed, args.bots, source_of(args.game), args.save)


def _bot_spec(text: str) -> str:
    try:
        parse_bots(text, strategies=None)  # the names of the rule file's strategies are checked with the game
    except BadBotSpec as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _bot_args(q: argparse.ArgumentParser, what: str) -> None:
    q.add_argument("--bots", "--bot", dest="bots", type=_bot_spec, default="random", metavar="SPEC",
                   help=f"{what}: a bot's name with parameters, like 'ismcts(iterations=400), random', or a "
                        "strategy of the rule file; docs/bots.md lists them")


def _limit_args(q: argparse.ArgumentParser) -> None:
    g = q.add_argument_group(LIMITS, "the most a rule file may ask for; raise them for a big game you trust")
    for f in fields(Limits):
        g.add_argument(Limits.flag(f.name), type=_whole(1, MAX_LIMIT), metavar="N", dest=f"limit_{f.name}",
                       help=f"default {f.default:,}")
    # The usage line names them as one: nine flags there would bury the command's own.
    own = [a for a in q._actions if a not in g._group_actions]
    formatter = q._get_formatter()
    formatter.add_usage(None, own + [argparse.Action(["--max-..."], argparse.SUPPRESS, metavar="N")],
                        q._mutually_exclusive_groups)
    q.usage = formatter.format_help().strip().removeprefix("usage: ").replace("%", "%%")


LIMITS = "limits for untrusted rule files"  # the heading of the --max-... flags in every command's help
MAX_LIMIT = 2**31 - 1  # a larger --max-file-bytes would make Python reserve that much memory to read a file
MAX_SEED = 2**63 - 1
_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_DECIMAL = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


def _whole(lo: int, hi: int) -> Callable[[str], int]:
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


def _seconds(text: str) -> float:
    if not _DECIMAL.match(text):
        raise argparse.ArgumentTypeError(f"expected a number of seconds in the digits 0-9 (like 2 or 0.5), "
                                         f"not '{clipped(text, 40)}'")
    v = float(text)
    if not (0 < v <= 86_400):
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400, not {clipped(text, 40)}")
    return v


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


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cardsmith", formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="'cardsmith COMMAND --help' gives a command's flags; the README and docs/ say the rest.")
    p.add_argument("--version", action="version", version=f"cardsmith {version()}",
                   help="print cardsmith's version and exit")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND", parser_class=_Parser,
                           help="one of the commands above, followed by its arguments")
    sub.required = True

    def game_args(q: argparse.ArgumentParser, optional: bool = False) -> None:
        q.add_argument("game", metavar="FILE_OR_GAME", nargs="?" if optional else None,
                       help="a rule file, or a bundled game's name")
        q.add_argument("--players", "-n", type=_whole(1, MAX_PLAYERS), metavar="N",
                       help="number of players (default: the minimum)")
        q.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                       help="a table option (repeat for several)")

    new_cmd.add_parser(sub)
    v = sub.add_parser("validate", help="check rule files and report every problem")
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files, or bundled games' names")
    v.add_argument("--deep", action="store_true",
                   help="also play random matches at every player count and option value, and report "
                        "rule errors, stuck players and matches that do not end")
    v.add_argument("--deep-games", type=_whole(1, MAX_LIMIT), default=3, metavar="N",
                   help="random matches per player count and option setting (default 3)")
    v.add_argument("--deep-actions", type=_whole(1, MAX_LIMIT), default=20_000, metavar="N",
                   help="a match longer than this does not end (default 20,000)")
    v.add_argument("--deep-budget", type=_whole(1, MAX_LIMIT), default=DEEP_BUDGET, metavar="N",
                   help=f"actions in all the random matches of one file, each match counting at least "
                        f"{DEEP_MATCH_FLOOR:,}; settings beyond it are not explored (default {DEEP_BUDGET:,})")
    v.add_argument("--strict", action="store_true",
                   help="report warnings (what nothing uses or reaches, W001-W010) as errors: exit 1 if any")
    v.set_defaults(fn=cmd_validate)
    explain_cmd.add_parser(sub)
    schema_cmd.add_parser(sub)

    li = sub.add_parser("list", help="bundled games (or the given rule files) with their players and options")
    li.add_argument("files", nargs="*", metavar="FILE", help="rule files to describe (default: the bundled games)")
    li.set_defaults(fn=cmd_list)

    r = sub.add_parser("run", help="play a whole match with bots and print the log")
    game_args(r)
    r.add_argument("--seed", type=_whole(0, MAX_SEED), metavar="S",
                   help="the seed of the shuffles, chance events and bots (default: a random one, printed)")
    r.add_argument("--json", action="store_true",
                   help="print one JSON record instead of the log (a match record: cardsmith replay reads it)")
    r.add_argument("--record", metavar="FILE", help="also write the match record to FILE (see cardsmith replay)")
    _bot_args(r, "the bots, one spec per seat, the last filling the seats left (default random)")
    r.set_defaults(fn=cmd_run)

    pl = sub.add_parser("play", help="play a match yourself against bots in the terminal")
    game_args(pl, optional=True)
    pl.add_argument("--seat", type=_whole(0, MAX_PLAYERS - 1), help="your seat (default 0)")
    pl.add_argument("--seed", type=_whole(0, MAX_SEED), metavar="S",
                    help="the seed of the shuffles, chance events and bots (default: a random one)")
    _bot_args(pl, "the bots at the other seats, as for 'run' (default random)")
    pl.add_argument("--save", metavar="FILE", help="keep the match record in FILE, saved after each of your moves")
    pl.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE (its game, table and bots)")
    pl.set_defaults(fn=cmd_play)
    from . import serve  # the web table; starlette and uvicorn are imported only when it runs
    serve.add_parser(sub)
    replay_cmd.add_parser(sub, _whole(0, MAX_LIMIT))
    bo = bots_cmd.add_parser(sub)

    t = sub.add_parser("test", help="run scenario files")
    t.add_argument("files", nargs="+", metavar="SCENARIO", help="scenario files")
    t.add_argument("--only", metavar="NAME", help="run only the scenarios with this name (an error if none has it)")
    t.add_argument("--verbose", "-v", action="store_true", help="a line for every scenario, passed or not")
    t.set_defaults(fn=cmd_test)
    b = bench_cmd.add_parser(sub, game_args)
    co = emit.add_parser(sub)
    from . import simulate  # here, not at the top: simulate.py uses this module's helpers
    sims = simulate.add_parser(sub, game_args)
    for q in (v, r, li, t, b, pl, co, bo, *sims):
        _limit_args(q)
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
    # One Limits for the whole command, from its --max-... flags (the defaults for those not given).
    args.limits = Limits(**{f.name: value for f in fields(Limits)
                            if (value := getattr(args, f"limit_{f.name}", None)) is not None})
    try:
        return int(args.fn(args))
    except RuleFileError as e:
        print(e.render(), file=sys.stderr)
        return 1
    except RuleError as e:
        print(e.render(), file=sys.stderr)
        return 1
    except GameError as e:
        lines = _error_lines(e)
        say(f"cardsmith: error: {lines[0]}", *lines[1:], file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
