"""`cardsmith simulate GAME` and `cardsmith compare A B ...`: many matches with bots, and the balance figures
a designer reads from them (docs/simulation.md). The work is in interpreter/sim/; this module reads the
command line, reports problems the way the other commands do, and prints and writes the results.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

from ..bots import BadBotSpec, parse_bots, strategy_names
from ..bots.spec import check_bots
from ..dsl.diagnostics import count_of
from ..dsl.files import quoted
from ..dsl.suggest import closest
from ..engine.bundled import resolve
from ..engine.game import Game
from ..engine.text import say
from ..sim.compare import compare_two
from ..sim.compare import lines as compare_lines
from ..sim.report import summary_json, write_all
from ..sim.runner import Config, Outcome, Player, Row, default_workers, simulate
from ..sim.summary import Meta, summarize
from ..sim.terminal import ProgressBar, print_summary
from .common import instance
from .common import options as table_options


def _fail(args: argparse.Namespace, message: str) -> NoReturn:
    """A bad argument found once the game is loaded: one line and exit status 2, as argparse's."""
    args.sim_parser.error(message)
    raise AssertionError  # error() exits


def _setup(args: argparse.Namespace, game: str, options: list[str]) -> tuple[Game, Config, Meta]:
    ns = argparse.Namespace(**vars(args))
    ns.game, ns.option = game, options
    g = instance(ns)
    try:
        specs = parse_bots(args.bots, g.n, strategy_names(g))
        check_bots(specs, g)
    except BadBotSpec as e:
        _fail(args, f"argument --bots: {e}")
    reports = tuple((label, kind) for label, _fn, kind, _span in g.reports)
    labels = [label for label, _kind in reports]
    if args.score is not None:
        kinds = dict(reports)
        if args.score not in kinds:
            near = closest(args.score, list(labels))
            hint = f"; did you mean {quoted(near)}?" if near else (
                f"; its report lines: {', '.join(quoted(x) for x in labels)}" if labels else "; it has none")
            _fail(args, f"argument --score: {g.name} has no report line {quoted(args.score)}{hint}")
        if kinds[args.score] != "plain":
            _fail(args, f"argument --score: the report line {quoted(args.score)} shows {kinds[args.score]}s, "
                        "not numbers")
    config = Config(str(resolve(game)), g.n, table_options(options), args.limits, tuple(str(sp) for sp in specs),
                    args.rotate, args.seed, (args.score,) if args.score is not None else None,
                    record_scores=not args.no_score)
    meta = Meta(game, g.name, tuple(g.player_name(p) for p in range(g.n)), dict(g.options), g.returns_name,
                config, args.games, reports, args.score, args.score_as, args.score_order)
    return g, config, meta


def _out_dir(args: argparse.Namespace) -> Path | None:
    """--out, made now: a folder that cannot be written is found before the matches are played."""
    if args.out is None:
        return None
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _fail(args, f"argument --out: cannot make the folder {quoted(args.out)}: {e.strerror or e}")
    return out


def _play(args: argparse.Namespace, g: Game, config: Config, meta: Meta,
          what: str) -> tuple[Outcome, dict[str, Any]] | int:
    """Play the matches; the outcome and its summary, or the exit status of a run that failed."""
    workers = min(args.workers or default_workers(), args.games)
    t0 = time.perf_counter()
    bar = ProgressBar(args.games, what, enabled=not args.no_progress)
    if args.ray is not None:
        from ..sim.cluster import simulate_on_ray
        out = simulate_on_ray(config, args.games, args.ray, Player(config, g), bar)
    else:
        out = simulate(config, args.games, workers, g, bar)
    elapsed = time.perf_counter() - t0
    if out.failure is not None:
        f = out.failure
        bots = ", ".join(config.seat_bots(f.index))
        if f.rule_error:
            print(f.text, file=sys.stderr)
        else:
            say(f"cardsmith: error: {f.text}", file=sys.stderr)
        say(f"(match {f.index:,} stopped after {count_of(f.actions, 'action')}; to replay it: cardsmith run "
            f"{meta.game} --players {config.players} --seed {f.seed} --bots '{bots}'"
            + "".join(f" --option {k}={v}" for k, v in config.options.items()) + ")", file=sys.stderr)
        return 1
    if not out.rows:
        say("cardsmith: interrupted before any match finished", file=sys.stderr)
        return 130
    rate = len(out.rows) / elapsed if elapsed > 0 else 0.0
    # Timings stay out of the summary and its file: they differ from run to run, the figures do not.
    on = f"Ray at {args.ray}" if args.ray is not None else f"{workers} worker{'s' if workers != 1 else ''}"
    say(f"({what}: {count_of(len(out.rows), 'match')} in {elapsed:.2f} s: {rate:,.0f} matches/s with {on})",
        file=sys.stderr)
    return out, summarize(out, meta)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.seed is None:
        args.seed = random.randrange(2**31)
    g, config, meta = _setup(args, args.game, args.option or [])
    out_dir = _out_dir(args)
    played = _play(args, g, config, meta, g.name)
    if isinstance(played, int):
        return played
    out, summary = played
    print_summary(summary, fancy=not args.plain)
    if out.interrupted:
        say(f"interrupted: these figures are from the {count_of(len(out.rows), 'match')} finished before Ctrl-C")
    if out_dir is not None:
        for note in write_all(out_dir, out.rows, config, summary):
            say(f"note: {note}", file=sys.stderr)
        say(f"wrote {out_dir / 'summary.json'}, {out_dir / 'matches.csv'} and {out_dir / 'report.html'}")
    return 130 if out.interrupted else 0


def cmd_compare(args: argparse.Namespace) -> int:
    shared = args.option or []
    setups: list[tuple[str, str, list[str]]] = [(game, game, shared) for game in args.files]
    for v in args.variant or []:
        setups.append((f"{args.files[0]} {v}", args.files[0], shared + [p.strip() for p in v.split(",")]))
    if len(setups) < 2:
        _fail(args, "nothing to compare: give two games or more, or a game and --variant NAME=VALUE")
    if args.seed is None:
        args.seed = random.randrange(2**31)
    if args.players is None:
        # Only its player count: the Python backend reads it without a build.
        first = argparse.Namespace(**{**vars(args), "game": args.files[0], "option": shared, "backend": "python"})
        args.players = instance(first).n
    loaded = [(label, *_setup(args, game, opts)) for label, game, opts in setups]
    out_dir = _out_dir(args)
    results: list[tuple[list[Row], dict[str, Any]]] = []
    for i, (label, g, config, meta) in enumerate(loaded):
        played = _play(args, g, config, meta, f"{i + 1}/{len(loaded)} {label}")
        if isinstance(played, int):
            return played
        out, summary = played
        if out.interrupted:
            say(f"interrupted during {label}: no comparison", file=sys.stderr)
            return 130
        results.append((out.rows, summary))
        if out_dir is not None:
            write_all(out_dir / f"config-{i + 1}", out.rows, config, summary)
    labels = [label for label, *_ in loaded]
    (base_rows, base), *others = results
    comparisons = [compare_two(base, base_rows, s, rows) for rows, s in others]
    say(*compare_lines(labels, [s for _, s in results], comparisons))
    if out_dir is not None:
        doc = {"configurations": [{"label": label, "folder": f"config-{i + 1}", "summary": s}
                                  for i, (label, (_, s)) in enumerate(zip(labels, results))],
               "comparisons": [{"label": label, "against": labels[0], **c} for label, c in zip(labels[1:],
                                                                                               comparisons)]}
        (out_dir / "compare.json").write_text(summary_json(doc), encoding="utf-8")
        say(f"wrote {out_dir / 'compare.json'} and a folder of files per configuration")
    return 0
