"""Two gin rummy meld finders written as rule-file functions, timed on the same hands: benchmarks/melds.yaml.

    python benchmarks/melds.py                   # 7 rounds over 1,000 hands of each kind
    python benchmarks/melds.py --rounds 9 --hands 3000
    python benchmarks/melds.py --rounds 1 --hands 5    # a smoke test

`best_melds(h)` finds the least deadwood of a hand (of ten cards, or of eleven once the best card is
discarded) and the melds that give it with the combination functions (`combinations` for the melds,
`packings` for the arrangements); `best_melds_by_hand(h)` the way a designer had to before they existed
(loops over positions, arrangements of one, two and three melds spelt out). Both are called as the
compiled rules call them, on the same hands, in this process, in alternating rounds (the order swaps each
round), so a machine that speeds up or slows down affects both alike. Neither is memoized here (the rules
of benchmarks/melds.yaml call them only in a report), so every call does the whole work.

Two kinds of hand: `random` (ten or eleven cards of the whole pack: few melds, as dealt) and `rich` (ten
or eleven cards of five or six ranks in a row: many melds that share cards, the arrangements a knocking
hand has). For each kind the summary gives the mean time per hand of each finder over all rounds, and the
ratio by hand / combinations (above 1: the combination functions are faster) as the median of the rounds
with their min..max spread. Times are this process's CPU time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RULE_FILE = HERE / "melds.yaml"

from cardsmith.dsl import abi  # noqa: E402
from cardsmith.dsl.pipeline import compile_file  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.engine.state import State  # noqa: E402

FINDERS = {"combinations": "best_melds", "by hand": "best_melds_by_hand"}


def finders() -> tuple[Game, State, dict[str, Callable[..., Any]]]:
    """The game of benchmarks/melds.yaml, a state to call its functions on, and the two finders."""
    loaded = compile_file(str(RULE_FILE))
    if not loaded.ok or loaded.game is None:
        raise SystemExit(f"{RULE_FILE} does not compile: {[d.message for d in loaded.diagnostics]}")
    g = Game(loaded.game, 2)
    return g, State.initial(g, 1), {name: g.ns[abi.function(fn)] for name, fn in FINDERS.items()}


def hands(kind: str, n: int, rng: random.Random) -> list[list[int]]:
    """n hands of ten or eleven cards (ids in pack order: suit * 13 + rank), of the kind named."""
    out = []
    for _ in range(n):
        size = rng.choice([10, 11])
        if kind == "random":
            out.append(sorted(rng.sample(range(52), size)))
        else:
            low, width = rng.randrange(0, 8), rng.choice([5, 6])
            pool = [s * 13 + r for s in range(4) for r in range(low, low + width)]
            out.append(sorted(rng.sample(pool, size)))
    return out


def timed(g: Game, s: State, find: Callable[..., Any], hs: list[list[int]]) -> float:
    """CPU seconds to find the best melds of every hand of hs."""
    steps = g.steps
    t = time.process_time()
    for h in hs:
        steps[0] = g.step_limit  # each hand is charged like one move of the rules
        find(s, h)
    return time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--hands", type=int, default=1000, help="hands of each kind per round")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    g, s, found = finders()
    rng = random.Random(a.seed)
    for kind in ("random", "rich"):
        total = {name: 0.0 for name in found}
        ratios = []
        count = 0
        for r in range(a.rounds):
            hs = hands(kind, a.hands, rng)
            order = list(found) if r % 2 == 0 else list(reversed(found))
            took = {name: timed(g, s, found[name], hs) for name in order}
            for name in found:
                total[name] += took[name]
            count += len(hs)
            ratios.append(took["by hand"] / took["combinations"])
            print(f"{kind} round {r + 1}: combinations {took['combinations'] / len(hs) * 1e3:.3f} ms/hand, "
                  f"by hand {took['by hand'] / len(hs) * 1e3:.3f} ms/hand, by hand/combinations {ratios[-1]:.2f}")
        print(f"{kind}: combinations {total['combinations'] / count * 1e3:.3f} ms/hand, "
              f"by hand {total['by hand'] / count * 1e3:.3f} ms/hand; by hand/combinations "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}..{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
