"""`cardsmith bots [GAME]`: the bots a spec can name, their parameters, and a rule file's strategies."""

from __future__ import annotations

import argparse

from ..bots import describe_bots
from ..dsl.diagnostics import RuleFileError
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.text import say


def cmd_bots(args: argparse.Namespace) -> int:
    say("bots (--bots 'NAME(PARAM=VALUE, ...)', docs/bots.md):")
    for line in describe_bots():
        say(f"  {line}")
    if args.game:
        loaded = compile_file(resolve(args.game), args.limits)
        if not loaded.ok or loaded.game is None:
            raise RuleFileError(loaded.diagnostics, loaded.sources)
        sp = loaded.game.spec
        if sp.strategies:
            say(f"strategies of {sp.name} (--bots NAME):")
            for st in sp.strategies:
                say(f"  {st.name}: {st.doc}" if st.doc else f"  {st.name}")
        else:
            say(f"{sp.name} has no strategies (a rule file writes them under 'strategies:', docs/language.md)")
    return 0
