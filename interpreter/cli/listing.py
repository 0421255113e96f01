"""`cardsmith list [FILE...]`: the bundled games (or the given rule files), their files, player counts, options,
constraints and strategies."""

from __future__ import annotations

import argparse
import sys

from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import render_all
from ..dsl.pipeline import compile_file
from ..dsl.spec import OptionSpec
from ..dsl.table_checks import bounds_vary_with_players_only, option_bounds_text
from ..engine.bundled import bundled_games, resolve
from ..engine.options import option_ranges
from ..engine.text import say
from .common import players


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
        say(f"{name}: {sp.name}, {players(sp.min_players, sp.max_players)}")
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
