"""`cardsmith test SCENARIO...`: run scenario files (interpreter/scenario/) and count what passed; with
`--backend native` (or auto, where it can be built) each scenario also runs on the native backend in lockstep
with the Python one (scenario/lockstep.py)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..dsl.diagnostics import RuleFileError
from ..dsl.files import quoted
from ..dsl.suggest import MAX_CANDIDATES, closest
from ..engine.text import say
from ..scenario.runner import read, run_scenarios
from .common import backend_of


def cmd_test(args: argparse.Namespace) -> int:
    lockstep = _lockstep(args)
    if lockstep is None:
        return 1
    passed = failed = unsupported = 0
    names: dict[str, None] = {}  # every scenario name of the files read, in order, for a filter that matches none
    read_files: list[str] = []
    for f in args.files:
        try:
            sf = read(f, args.limits)
            read_files.append(f)
            names.update((sc.name, None) for sc in sf.scenarios)
            # (outcome, result, notes): a lockstep result says its outcome (passed, failed, unsupported)
            rows = [(r.outcome, r, []) for r in lockstep(sf, args.only, args.limits)] if lockstep else \
                [("passed" if r.ok else "failed", r, r.notes) for r in run_scenarios(sf, args.only, args.limits)]
        except RuleFileError as e:
            print(e.render())
            failed += 1
            continue
        for outcome, r, notes in rows:
            for span, note in notes:
                say(f"note  {span}: {r.name}: {note}")
            if outcome == "passed":
                passed += 1
                if args.verbose:
                    say(f"ok    {f}: {r.name}")
            elif outcome == "failed":
                failed += 1
                say(f"FAIL  {r.span}: {r.name}: {r.message}")
            else:
                unsupported += 1
                say(f"UNSUPPORTED  {r.span}: {r.name}: {r.message}")
    # A filter that matches no scenario would otherwise pass with "0 passed": a misspelt name tests nothing.
    unmatched = args.only is not None and read_files and args.only not in names
    if passed or failed or not unmatched:
        say(f"{passed:,} passed, {failed:,} failed" +
            (f", {unsupported:,} unsupported by the native backend" if lockstep else ""))
    if unmatched:
        say(f"cardsmith: error: {_no_such_scenario(args.only, list(names), read_files)}", file=sys.stderr)
        return 1
    return 1 if failed else 0


def _lockstep(args: argparse.Namespace) -> Any:
    """How the scenarios run: False on the Python backend alone; on both in lockstep (scenario/lockstep.py's
    `run_lockstep`) with --backend native, or auto where the native backend can be built here (else a line says
    why they run in Python); None, said on stderr, where native was asked for and cannot be built."""
    backend = backend_of(args)
    if backend == "python":
        return False
    from ..native.build import missing
    why = missing()
    if why is not None:
        if backend == "native":
            say(f"cardsmith: error: the scenarios cannot run on the native backend: {why}", file=sys.stderr)
            return None
        say(f"cardsmith: the scenarios run on the Python backend alone: {why}", file=sys.stderr)
        return False
    from ..scenario.lockstep import run_lockstep
    return run_lockstep


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
