"""Random playouts of the bundled games on this tree's cardsmith and on an older commit, alternately.

The older commit is a worktree of this repository (`git worktree add --detach ../wt-base 1a605c3`). Before
the package was renamed, its engine was the top-level packages `interpreter` and `dsl`. Those names do not
clash with `cardsmith`, so both engines load into one process, and their rounds alternate on the same
machine load:

    python benchmarks/versus.py --base ../wt-base --seconds 2 --rounds 5 stichln:3 schwimmen:2

Both engines play the same seeded random matches: the same seeds, and the action picked by the same
random stream. Rates use process CPU time. For each game the script prints actions/s of each engine in
every round, and the ratio new/base as the median of the rounds with its min..max.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _new_engine(game: str, players: int) -> Callable[[int], Any]:
    import cardsmith
    from cardsmith.engine.state import State
    g = cardsmith.load(game, players)
    return lambda seed: State.initial(g, seed)


def _base_engine(base: Path, game: str, players: int) -> Callable[[int], Any]:
    sys.path.insert(0, str(base))
    try:
        instance = importlib.import_module("interpreter.instance")
        engine = importlib.import_module("interpreter.engine")
    finally:
        sys.path.remove(str(base))
    g = instance.load_game(base / "games" / f"{game}.yaml", players)
    return lambda seed: engine.State.initial(g, seed)


def playouts(start: Callable[[int], Any], seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Random matches from `seed` on for `seconds` of CPU time: (actions, games, CPU seconds)."""
    rng = random.Random(seed)
    actions = games = 0
    c0 = time.process_time()
    end = c0 + seconds
    while True:
        s = start(seed + games)
        while not s.terminal:
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
            actions += 1
        games += 1
        if time.process_time() >= end:
            return actions, games, time.process_time() - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="+", metavar="GAME:PLAYERS")
    ap.add_argument("--base", type=Path, required=True, help="a worktree of the older commit")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per engine per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=float, default=0.3, help="CPU seconds of each engine before the rounds")
    args = ap.parse_args(argv)
    print(f"{'game':<22} {'round':>5} {'base a/s':>11} {'new a/s':>11} {'new/base':>9}")
    for case in args.cases:
        game, _, n = case.partition(":")
        players = int(n or 0) or None
        new = _new_engine(game, players or 2)
        old = _base_engine(args.base.resolve(), game, players or 2)
        playouts(new, args.warmup)
        playouts(old, args.warmup)
        ratios = []
        for k in range(args.rounds):
            # Alternate which engine runs first, so neither always meets a warmer or cooler machine.
            order = [("base", old), ("new", new)] if k % 2 == 0 else [("new", new), ("base", old)]
            rate = {}
            for name, start in order:
                a, _g, cpu = playouts(start, args.seconds, seed=1000 * k)
                rate[name] = a / cpu
            ratios.append(rate["new"] / rate["base"])
            print(f"{case:<22} {k + 1:>5} {rate['base']:>11,.0f} {rate['new']:>11,.0f} {ratios[-1]:>9.2f}")
        print(f"{case:<22} {'median':>5} {'':>11} {'':>11} {statistics.median(ratios):>9.2f}"
              f"   ({min(ratios):.2f}..{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
