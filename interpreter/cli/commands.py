"""Every command's arguments, and the module of cli/ that runs it.

`build_parser` (main.py) adds them all, so that `cardsmith --help` lists every command and each command
checks its own flags; the module that does the work (`HOMES`) is imported only when its command runs. So
this module imports only the small ones args.py does, and keeps here the few values the help shows.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..dsl.diagnostics import clipped
from ..dsl.limits import MAX_PLAYERS
from .args import MAX_LIMIT, MAX_SEED, backend_arg, bot_args, bot_spec, game_args, limit_args, seconds, whole
from .templates import DEFAULT, KINDS, NAME_RULE

# The module of cli/ whose `cmd_<command>` runs each command, in the order they are added (argparse lists
# them so when a command is misspelt).
HOMES = {"new": "new", "validate": "validate", "explain": "explain", "schema": "schema", "list": "listing",
         "run": "run", "play": "play", "serve": "serve", "replay": "replay", "bots": "bots", "test": "scenarios",
         "bench": "bench", "compile": "emit", "simulate": "simulate", "compare": "simulate"}

DEEP_BUDGET = 1_000_000  # actions in all the matches of one file (validate --deep-budget; cli/deep.py)
DEEP_MATCH_FLOOR = 1_000  # what a match counts at least, so matches that end at once cannot run forever
MAX_GAMES = 100_000_000  # simulate --games
MAX_WORKERS = 1024  # simulate --workers


def add_commands(sub: Any) -> None:
    """Each command's parser, in the order of HOMES."""
    _new(sub)
    _validate(sub)
    _explain(sub)
    _schema(sub)
    li = sub.add_parser("list", help="bundled games (or the given rule files) with their players and options")
    li.add_argument("files", nargs="*", metavar="FILE", help="rule files to describe (default: the bundled games)")
    limit_args(li)
    _run(sub)
    _play(sub)
    _serve(sub)
    _replay(sub)
    bo = sub.add_parser("bots", help="the bots --bots can name, and a rule file's strategies")
    bo.add_argument("game", metavar="FILE_OR_GAME", nargs="?", help="a rule file, or a bundled game's name")
    limit_args(bo)
    t = sub.add_parser("test", help="run scenario files")
    t.add_argument("files", nargs="+", metavar="SCENARIO", help="scenario files")
    t.add_argument("--only", metavar="NAME", help="run only the scenarios with this name (an error if none has it)")
    t.add_argument("--verbose", "-v", action="store_true", help="a line for every scenario, passed or not")
    backend_arg(t, default="python", native="each scenario also on the native backend, in lockstep with the "
                "Python one (every position, legal set and view compared), unsupported ones listed")
    limit_args(t)
    _bench(sub)
    co = sub.add_parser("compile", help="print the Python a rule file compiles to, annotated with its lines")
    co.add_argument("game", metavar="FILE_OR_GAME", help="a rule file, or a bundled game's name")
    co.add_argument("--emit-python", action="store_true", help="print the generated Python (the default)")
    co.add_argument("--no-optimize", action="store_true", help="without the optimizations of dsl/optimize.py")
    limit_args(co)
    _simulate(sub)
    _compare(sub)


def _new(sub: Any) -> None:
    c = sub.add_parser("new", help="write a small working rule file and its scenario file to start a game from")
    c.add_argument("name", metavar="NAME",
                   help=f"the game's name and the files' (NAME.yaml, NAME.scenarios.yaml): {NAME_RULE}")
    c.add_argument("--template", "-t", choices=list(KINDS), default=DEFAULT, metavar="KIND",
                   help="the kind of game: " + "; ".join(f"{kind} ({k.rules}; {k.min_players}-{k.max_players} "
                                                         f"players)" for kind, k in KINDS.items())
                        + f" (default {DEFAULT})")
    c.add_argument("--players", "-n", type=whole(1, MAX_PLAYERS), metavar="N",
                   help="a game for exactly N players (default: the template's range)")
    c.add_argument("--dir", default=".", metavar="DIR", help="the folder to write the files in (default: here; "
                                                              "made if missing)")
    c.set_defaults(new_parser=c)


def _validate(sub: Any) -> None:
    v = sub.add_parser("validate", help="check rule files and report every problem")
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files, or bundled games' names")
    v.add_argument("--deep", action="store_true",
                   help="also play random matches at every player count and option value, and report "
                        "rule errors, stuck players and matches that do not end")
    v.add_argument("--deep-games", type=whole(1, MAX_LIMIT), default=3, metavar="N",
                   help="random matches per player count and option setting (default 3)")
    v.add_argument("--deep-actions", type=whole(1, MAX_LIMIT), default=20_000, metavar="N",
                   help="a match longer than this does not end (default 20,000)")
    v.add_argument("--deep-budget", type=whole(1, MAX_LIMIT), default=DEEP_BUDGET, metavar="N",
                   help=f"actions in all the random matches of one file, each match counting at least "
                        f"{DEEP_MATCH_FLOOR:,}; settings beyond it are not explored (default {DEEP_BUDGET:,})")
    v.add_argument("--strict", action="store_true",
                   help="report warnings (what nothing uses or reaches, W001-W010) as errors: exit 1 if any")
    limit_args(v)


def _explain(sub: Any) -> None:
    e = sub.add_parser("explain", help="the rulebook of a rule file, as Markdown or an HTML page (docs/rulebook.md)")
    e.add_argument("game", metavar="FILE_OR_GAME", help="a rule file, or a bundled game's name")
    e.add_argument("--format", choices=["md", "html"], default="md",
                   help="md (Markdown, the default) or html (one page with nothing loaded from elsewhere)")
    e.add_argument("--players", "-n", type=whole(1, MAX_PLAYERS), metavar="N",
                   help="also say what a table of N players plays with (its pack, cards dealt, options)")
    e.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a table option of that table (repeat for several)")
    e.add_argument("-o", "--output", metavar="FILE", help="write the rulebook to FILE instead of printing it")
    limit_args(e)


def _schema(sub: Any) -> None:
    c = sub.add_parser("schema", help="print the JSON Schema of rule files (or scenario files) for editors")
    c.add_argument("--scenario", action="store_true", help="the schema of scenario files, not of rule files")
    c.add_argument("-o", "--output", metavar="FILE", help="write it to FILE instead of printing it")
    c.add_argument("--path", action="store_true",
                   help="print where the installed package keeps the schema file, for an editor's settings")


def _run(sub: Any) -> None:
    r = sub.add_parser("run", help="play a whole match with bots and print the log")
    game_args(r)
    r.add_argument("--seed", type=whole(0, MAX_SEED), metavar="S",
                   help="the seed of the shuffles, chance events and bots (default: a random one, printed)")
    r.add_argument("--json", action="store_true",
                   help="print one JSON record instead of the log (a match record: cardsmith replay reads it)")
    r.add_argument("--record", metavar="FILE", help="also write the match record to FILE (see cardsmith replay)")
    bot_args(r, "the bots, one spec per seat, the last filling the seats left (default random)")
    backend_arg(r)
    limit_args(r)


def _play(sub: Any) -> None:
    pl = sub.add_parser("play", help="play a match yourself against bots in the terminal")
    game_args(pl, optional=True)
    pl.add_argument("--seat", type=whole(0, MAX_PLAYERS - 1), help="your seat (default 0)")
    pl.add_argument("--seed", type=whole(0, MAX_SEED), metavar="S",
                    help="the seed of the shuffles, chance events and bots (default: a random one)")
    bot_args(pl, "the bots at the other seats, as for 'run' (default random)")
    pl.add_argument("--save", metavar="FILE", help="keep the match record in FILE, saved after each of your moves")
    pl.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE (its game, table and bots)")
    limit_args(pl)


def _serve(sub: Any) -> None:
    s = sub.add_parser("serve", help="a web table: a lobby, rooms with people and bots, a link per seat "
                                     "(docs/table.md)")
    s.add_argument("games", nargs="*", metavar="GAME",
                   help="rule files or bundled games to offer (default: every bundled game)")
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for the network)")
    s.add_argument("--port", type=whole(1, 65535), default=8000, help="the port (default 8000)")
    s.add_argument("--max-rooms", type=whole(1, 10_000), default=64, metavar="N",
                   help="rooms open at once (default 64); finished and idle rooms are closed")
    s.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another address the table is reached by, like https://cards.example.org behind a proxy "
                        "(repeatable; default: the addresses served)")
    s.add_argument("--certfile", metavar="FILE", help="serve HTTPS with this certificate (PEM), with --keyfile")
    s.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    s.add_argument("--move-seconds", type=seconds, default=30.0, metavar="S",
                   help="a move that runs longer stops its match (default 30)")
    s.add_argument("--bot-seconds", type=seconds, default=5.0, metavar="S",
                   help="a bot's search per move at most (default 5)")
    s.add_argument("--store", metavar="PATH",
                   help="the SQLite file that keeps every room, written at each move, so a restart brings them "
                        "all back (default $XDG_STATE_HOME/cardsmith/table.sqlite3, ~/.local/state/... without it)")
    s.add_argument("--no-store", action="store_true", help="keep the rooms in memory only (a restart loses them)")
    limit_args(s)


def _replay(sub: Any) -> None:
    count = whole(0, MAX_LIMIT)
    r = sub.add_parser("replay", help="play a recorded match again from its record and print it as run does")
    r.add_argument("record", metavar="RECORD", help="a match record (run --record or --json, play --save, the web "
                                                     "table's Save)")
    r.add_argument("--upto", type=count, metavar="N", help="stop after the first N actions")
    r.add_argument("--json", action="store_true", help="print the events as one JSON object")
    r.add_argument("--seat", type=count, metavar="K",
                   help="look through the match step by step at the terminal table, as seat K saw it")
    r.add_argument("--plain", action="store_true", help="with --seat: plain text, without rich's table")
    r.add_argument("--changed-rules", action="store_true",
                   help="replay even if the rule file has changed since the match was recorded")


def _bench(sub: Any) -> None:
    b = sub.add_parser("bench", help="random playouts for a fixed time: actions/s and games/s")
    game_args(b)
    b.add_argument("--seconds", type=seconds, default=10.0, help="wall time of all the rounds (default 10)")
    b.add_argument("--rounds", type=whole(1, 1000), default=5, help="rounds, each reported (default 5)")
    b.add_argument("--profile", action="store_true",
                   help="instead of rates, where the time goes: the rule-file lines that take most of it")
    b.add_argument("--seed", type=whole(0, MAX_SEED), default=0,
                   help="the seed of the first playout (the next ones count up from it) and of the random moves "
                        "(default 0)")
    backend_arg(b)
    limit_args(b)


# ---------------------------------------------------------------- simulate and compare
def _ray_address(text: str) -> str:
    host, _, port = text.removeprefix("ray://").rpartition(":")
    if text in ("local", "auto") or (host and port.isdigit() and 0 < int(port) < 65536):
        return text
    raise argparse.ArgumentTypeError(f"expected local, auto, HOST:PORT or ray://HOST:PORT, not "
                                     f"'{clipped(text, 60)}'")


def _variant_type(text: str) -> str:
    for part in text.split(","):
        if "=" not in part or not part.split("=", 1)[0].strip():
            raise argparse.ArgumentTypeError(f"expected NAME=VALUE[,NAME=VALUE...], not '{clipped(text, 40)}'")
    return text


def _sim_args(q: argparse.ArgumentParser) -> None:
    """The options simulate and compare share."""
    q.add_argument("--games", "-k", type=whole(1, MAX_GAMES), default=1000, metavar="K",
                   help="matches to play (default 1,000)")
    q.add_argument("--bots", "--bot", dest="bots", type=bot_spec, default="random", metavar="SPEC",
                   help="the bots, one spec per seat, the last filling the seats left, like "
                        "'ismcts(iterations=100), random' (default random)")
    q.add_argument("--rotate", action="store_true",
                   help="rotate the bots through the seats: in match i the first spec sits at seat i mod N")
    q.add_argument("--seed", type=whole(0, MAX_SEED), metavar="S",
                   help="match i plays with a seed derived from S and i (default: a random S, shown)")
    q.add_argument("--workers", "-j", type=whole(1, MAX_WORKERS), metavar="W",
                   help="worker processes (default: every core)")
    q.add_argument("--ray", metavar="ADDRESS", type=_ray_address,
                   help="play on a Ray cluster instead of local workers: 'local' starts one here for the run, "
                        "'auto' joins the one 'ray start' runs here, or HOST:6379 / ray://HOST:10001 "
                        "(needs the 'cluster' extra)")
    q.add_argument("--out", metavar="DIR", help="write summary.json, matches.csv and report.html into DIR")
    q.add_argument("--no-score", action="store_true",
                   help="skip the score heuristics (no event log is kept: faster)")
    q.add_argument("--no-progress", action="store_true", help="no progress bar")
    q.add_argument("--plain", action="store_true", help="plain text even on a terminal (no rich tables)")


def _simulate(sub: Any) -> None:
    s = sub.add_parser("simulate", help="many matches with bots: win shares, lengths, heuristics, a report")
    game_args(s)
    _sim_args(s)
    s.add_argument("--score", metavar="LABEL",
                   help="the report line the score heuristics follow (default: the first with numbers)")
    s.add_argument("--score-as", choices=("total", "deal"), default="total",
                   help="total: the running total of the line's values over the deals (default); deal: each "
                        "deal's value as it is")
    s.add_argument("--score-order", choices=("auto", "high", "low"), default="auto",
                   help="whether a higher or a lower score is better (default auto: as the winners show)")
    s.set_defaults(sim_parser=s)
    backend_arg(s)
    limit_args(s)


def _compare(sub: Any) -> None:
    c = sub.add_parser("compare", help="the same seeds under several rule files or option settings: "
                                       "differences in win share with their p-values")
    c.add_argument("files", nargs="+", metavar="FILE_OR_GAME",
                   help="rule files or bundled games; the first is the baseline")
    c.add_argument("--players", "-n", type=whole(1, MAX_PLAYERS), metavar="N",
                   help="number of players (default: the first game's minimum)")
    c.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a table option for every game")
    c.add_argument("--variant", action="append", type=_variant_type, metavar="NAME=VALUE[,NAME=VALUE...]",
                   help="one more configuration: the first game with these options")
    _sim_args(c)
    c.set_defaults(sim_parser=c, score=None, score_as="total", score_order="auto")
    backend_arg(c)
    limit_args(c)
