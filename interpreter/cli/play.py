"""`cardsmith play GAME` and `cardsmith play --resume FILE`: a match at the terminal against bots
(interpreter/table/play.py)."""

from __future__ import annotations

import argparse
import sys

from ..table.play import play, resume, source_of
from .common import instance


def cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        return resume(args.resume, args.seat, args.save)
    if args.game is None:
        print("cardsmith: error: play needs a game (or --resume FILE)", file=sys.stderr)
        return 2
    g = instance(args)
    return play(g, args.seat, args.seed, args.bots, source_of(args.game), args.save)
