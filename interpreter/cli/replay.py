"""`cardsmith replay RECORD`: a recorded match played again from its record, checked, and told as `run` tells it;
with `--seat K`, looked through step by step at the terminal table as seat K saw it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from ..dsl.diagnostics import count_of
from ..engine.state import State
from ..engine.text import say
from ..table.record import BadRecord, open_record, read_record, steps
from .narrate import header, narrate


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        rec = read_record(args.record)
        g = open_record(rec, changed_ok=args.changed_rules)
    except BadRecord as e:
        say(f"cardsmith: error: {e}", file=sys.stderr)
        return 2
    if args.seat is not None:
        if not 0 <= args.seat < g.n:
            say(f"cardsmith: error: argument --seat: the match has seats 0 to {g.n - 1}", file=sys.stderr)
            return 2
        from ..table.play import Table
        try:
            states = list(steps(rec, g))
        except BadRecord as e:
            say(f"cardsmith: error: {args.record}: {e}", file=sys.stderr)
            return 1
        return Table(g, args.seat, list(rec.seats), rec.seed or 0, rec.source, None, args.plain).replay(states)
    out = [header(g, rec.seed),
           "seats: " + ", ".join(f"{g.player_name(p)} {name}" + (" (bot)" if rec.bots and rec.bots[p] else "")
                                 for p, name in enumerate(rec.seats))]
    records: list[dict[str, Any]] = []
    upto = args.upto

    def until() -> Iterator[State]:
        for i, s in enumerate(steps(rec, g)):
            yield s
            if upto is not None and i >= upto:
                return

    try:
        last = narrate(g, until(), out, records)
    except BadRecord as e:
        if not args.json:
            say(*out)
        say(f"cardsmith: error: {args.record}: {e}", file=sys.stderr)
        return 1
    assert last is not None
    finished = upto is None or last.moves < upto
    if finished and rec.result is not None:
        got = {"winners": list(last.winners), "returns": last.returns()} if last.terminal else None
        if got != rec.result:
            say(*out)
            say(f"cardsmith: error: {args.record}: the replay ends otherwise than recorded: {got} instead of "
                f"{rec.result}", file=sys.stderr)
            return 1
    if args.json:
        json.dump({"game": g.name, "players": g.n, "actions": last.moves, "deals": last.deal_no,
                   "over": last.terminal, "winners": last.winners if last.terminal else None,
                   "returns": last.returns() if last.terminal else None, "events": records}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    say(*out)
    end = ("the result is the one recorded" if rec.result is not None else "the record ends before the match does") \
        if finished else f"stopped after {count_of(last.moves, 'action')}, as asked"
    say(f"({count_of(last.moves, 'action')}, {count_of(last.deal_no, 'deal')}; replayed from the record: {end})")
    return 0
