"""`cardsmith run GAME`: a whole match with bots, told as a log (or as one JSON record, the match record)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from ..bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from ..dsl.diagnostics import count_of
from ..engine.errors import GameError, RuleError
from ..engine.state import State
from ..engine.text import say
from ..table.record import record_match
from .common import instance
from .narrate import header, narrate


def cmd_run(args: argparse.Namespace) -> int:
    g = instance(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    specs = parse_bots(args.bots, g.n, strategy_names(g))
    bots = [make_bot(spec, g, p, seat_seed(seed, p)) for p, spec in enumerate(specs)]
    native = g.backend == "native"
    # On the native backend the match is played natively, then told from its replay on a Python state that
    # keeps the log (the same seed draws the same chance on both backends).
    s = State.initial(g, seed, log=True)
    out: list[str] = [header(g, seed)]
    records: list[dict[str, Any]] = []

    def played() -> Iterator[State]:
        yield s
        while not s.terminal:
            p = s.current_player()
            s.apply_action(bots[p].choose(SeatView(s, p)))
            yield s

    def replayed() -> Iterator[State]:
        n: Any = g.new_initial_state(seed)  # a native state (native/wrapper.py)
        failed: GameError | None = None
        try:
            while not n.is_terminal():
                p = n.current_player()
                n.apply_action(bots[p].choose(SeatView(n, p)))
        except GameError as e:
            failed = e  # told after the moves that were played
        yield s
        for what in n.history():
            s.apply_action(what)
            yield s
        if failed is not None:
            raise failed

    try:
        narrate(g, replayed() if native else played(), out, records)
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
