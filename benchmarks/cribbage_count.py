"""The show of Cribbage counted two ways: with `subsets` and `combinations`, and by bit masks.

    python benchmarks/cribbage_count.py                        # 2,000 hands, 7 rounds
    python benchmarks/cribbage_count.py --hands 5000 --rounds 9
    python benchmarks/cribbage_count.py --hands 20 --rounds 1  # a smoke test

games/cribbage.yaml counts a hand and the starter (fifteens, pairs, runs, flush, his nobs) in its
`show_points(h, st, is_crib)` with the library's `subsets` and `combinations`; benchmarks/cribbage-count.yaml
is the same game whose `show_points` does it as a designer had to before those existed, over the numbers
0 to 31 as bit masks of the five cards and over pairs of positions. Both are called on the same random
hands (four cards, a starter, hand or crib at random), one after the other in alternating rounds (the
order swaps each round), so that a machine that speeds up or slows down affects both alike; their
results must agree.

Each call is an expression compiled against the game, `show_points([pack[i], ...], pack[j], false)`,
evaluated as `cardsmith test`'s `eval:` is, with the work budget of one move. `show_points` is memoized
(it is a pure function of its cards): every round uses new game instances, whose memo tables start
empty, and the hands are all different, so every call computes its hand. Times are CPU time of this
process; each round prints the mean time per hand of each and their ratio, and the summary the mean of
each over all rounds and the median ratio with its range.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RULE_FILES = {"combinations": HERE.parent / "games" / "cribbage.yaml", "bit masks": HERE / "cribbage-count.yaml"}

from cardsmith.dsl.compiler import compile_probe  # noqa: E402
from cardsmith.dsl.diagnostics import Diagnostic, Span  # noqa: E402
from cardsmith.dsl.pipeline import compile_file  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402


def hands(n: int, seed: int) -> list[tuple[tuple[int, ...], int, bool]]:
    """n different hands: four card numbers (pack order), the starter, and whether it is the crib."""
    rng = random.Random(seed)
    out: dict[tuple[tuple[int, ...], int, bool], None] = {}
    while len(out) < n:
        cards = rng.sample(range(52), 5)
        out[(tuple(cards[:4]), cards[4], rng.random() < 0.5)] = None
    return list(out)


def probe_text(hand: tuple[int, ...], starter: int, crib: bool) -> str:
    cards = ", ".join(f"pack[{c}]" for c in hand)
    return f"show_points([{cards}], pack[{starter}], {'true' if crib else 'false'})"


class Counter:
    """One rule file's show_points, compiled once for every hand."""

    def __init__(self, path: Path, items: list[tuple[tuple[int, ...], int, bool]]) -> None:
        loaded = compile_file(str(path))
        if not loaded.ok or loaded.game is None:
            sys.exit(f"{path} does not compile")
        self.compiled = loaded.game
        self.codes = []
        for hand, starter, crib in items:
            diags: list[Diagnostic] = []
            code = compile_probe(self.compiled, probe_text(hand, starter, crib),
                                 lambda ln, col: Span(str(path), ln, col), diags)
            if code is None:
                sys.exit(f"{path}: {[d.message for d in diags]}")
            self.codes.append(code)

    def run(self) -> tuple[float, list[Any]]:
        """Every hand counted once on a new game instance (empty memo tables): CPU seconds, the points."""
        g = Game(self.compiled, 2)
        s = State.initial(g, 0)
        calls = [eval(code, g.ns) for code in self.codes]  # our own compiled code, checked against the game
        steps, limit = g.steps, g.step_limit
        points = []
        start = time.process_time()
        for call in calls:
            steps[0] = limit  # each hand gets the work budget of one move
            points.append(call(s))
        return time.process_time() - start, points


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands counted in each round (default 2000)")
    ap.add_argument("--rounds", type=int, default=7, help="rounds, alternating which goes first (default 7)")
    ap.add_argument("--seed", type=int, default=1, help="the seed the hands are drawn from")
    args = ap.parse_args(argv)
    items = hands(args.hands, args.seed)
    counters = {name: Counter(path, items) for name, path in RULE_FILES.items()}
    names = list(counters)
    per_hand: dict[str, list[float]] = {name: [] for name in names}
    ratios = []
    for r in range(args.rounds):
        order = names if r % 2 == 0 else names[::-1]
        results = {}
        for name in order:
            seconds, points = counters[name].run()
            per_hand[name].append(seconds / len(items))
            results[name] = points
        if results[names[0]] != results[names[1]]:
            bad = next(i for i, (a, b) in enumerate(zip(results[names[0]], results[names[1]])) if a != b)
            sys.exit(f"the two counts disagree on {probe_text(*items[bad])}: "
                     f"{results[names[0]][bad]} and {results[names[1]][bad]}")
        ratio = per_hand[names[0]][-1] / per_hand[names[1]][-1]
        ratios.append(ratio)
        print(f"round {r + 1}: " + ", ".join(f"{name} {per_hand[name][-1] * 1e6:.1f} us/hand" for name in names)
              + f", {names[0]}/{names[1]} {ratio:.3f}")
    for name in names:
        print(f"{name}: {statistics.mean(per_hand[name]) * 1e6:.1f} us/hand "
              f"({min(per_hand[name]) * 1e6:.1f}..{max(per_hand[name]) * 1e6:.1f})")
    print(f"{names[0]}/{names[1]} (time per hand): {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}..{max(ratios):.3f}), {len(items)} hands, {args.rounds} rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
