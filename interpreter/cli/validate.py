"""`cardsmith validate FILE...`: every problem of each rule file, located; then its warnings; with `--deep`, what
random matches at every player count and option value find (cli/deep.py)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from ..dsl.diagnostics import Diagnostic, count_of, render_all
from ..dsl.lint import unreachable_actions
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.errors import GameError, RuleError, SetupRefused
from ..engine.game import Game
from ..engine.text import say
from ..sim.terminal import ProgressBar
from .common import players
from .deep import explore, never_legal, settings


def _error_lines(e: GameError) -> list[str]:
    """A GameError as lines to `say`: a rule error's context goes on a line of its own."""
    if isinstance(e, RuleError):
        where = f"{e.span}: " if e.span else ""
        return [f"{where}rule error: {e.message}"] + ([f"    {e.context}"] if e.context else [])
    return [str(e)]


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
        summary = (f"{r.file}: ok: {sp.name}, {players(sp.min_players, sp.max_players)}, "
                   f"{count_of(len(sp.actions), 'action')}, {count_of(len(sp.phases), 'phase')}{opts}")
        if refused:
            summary += f" (the default options are refused with {_counts(refused)})"
        if not args.deep:
            if diags:
                print(render_all(diags, r.sources))
            say(summary + _warnings(len(diags)))
            continue
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

