"""Figures for the choice between the two prototypes, alternated in one process (benchmarks/openspiel.py's
loops and rates: CPU time, the order swapped each round).

    python native/bench.py [--rounds R] [--seconds T]

1. The Python loop (`legal_actions`, a uniform choice, `apply_action`): each prototype against pyspiel's C++
   game, `seeded` (the native state draws its own chance) and `chance` (every chance outcome drawn by the
   loop); and the Python backend against pyspiel, for reference.
2. The native loop: random playouts in C++ (`Game.random_playouts`) against OpenSpiel's C++ loop,
   `pyspiel.evaluate_bots` with uniform random bots, one call per game.
   `--designs split`: the chosen design, the game's library with a C ABI loaded by a binding built once.
3. Build: design (a)'s per-game stages (lower, emit, g++), uncached; design (b)'s engine build (once) and
   per-game stages (lower, emit, load the program).
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
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "benchmarks"))

import cardsmith  # noqa: E402
import pyspiel  # noqa: E402
from build import build_a, build_b, build_split, game_b  # noqa: E402
from openspiel import (  # noqa: E402
    CLASSICS,
    _params,
    alternate,
    alternate_rates,
    chance_play,
    pyspiel_play,
    seeded_play,
)


def classics(names: list[str]) -> list[tuple[str, str, str, int, dict[str, Any]]]:
    """benchmarks/openspiel.py's pairs of our classics and pyspiel's, at pyspiel's parameters."""
    return [(c.title, c.rule_file, c.openspiel, c.players, _params(c)) for c in CLASSICS
            if c.rule_file in names or c.openspiel in names]


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f}"


def evaluate_bots_rate(game: Any, seconds: float) -> float:
    """Games/s of OpenSpiel's C++ loop with uniform random bots (CPU time)."""
    n = game.num_players()
    seed = random.getrandbits(31)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(n)]
    k = 0
    c0 = time.process_time()
    while True:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + k)
        k += 1
        now = time.process_time()
        if now - c0 >= seconds:
            return k / (now - c0)


def native_rate(g: Any, seconds: float) -> float:
    k, batch = 0, 50
    c0 = time.process_time()
    while True:
        g.random_playouts(batch, random.getrandbits(31) + 1)
        k += batch
        now = time.process_time()
        if now - c0 >= seconds:
            return k / (now - c0)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--designs", default="a,b,python", help="of a, b, split (the chosen design), python")
    ap.add_argument("--no-build", action="store_true", help="leave out the build times")
    ap.add_argument("--games", default="hearts,go-fish", help="bundled classics (benchmarks/openspiel.py's)")
    ap.add_argument("--loops", default="seeded,chance,native", help="of seeded, chance, native")
    args = ap.parse_args()
    chosen = classics(args.games.split(","))
    loops = args.loops.split(",")
    designs = args.designs.split(",")
    rows = []
    for title, rule, os_name, n, params in chosen:
        ref = pyspiel.load_game(os_name, params)
        makers = {"a": build_a, "b": game_b, "split": build_split}
        games = [(f"native ({d})", makers[d](rule, n)[0]) if d in makers else (d, cardsmith.load(rule, n))
                 for d in designs]
        for label, g in games:
            for loop, make in (("seeded", seeded_play), ("chance", chance_play)):
                if loop not in loops:
                    continue
                rng = random.Random(1)
                mine, theirs = make(g), pyspiel_play(ref)
                mine(rng), theirs(rng)
                r = alternate_rates(mine, theirs, rng, args.seconds, args.rounds)
                row = [title, label, "python loop, " + loop, med(r.mine), med(r.theirs), r.text()]
                print(" | ".join(row), flush=True)
                rows.append(row)
        for label, g in games:
            if label == "python" or "native" not in loops:
                continue
            r = alternate(lambda g=g: native_rate(g, args.seconds),
                          lambda ref=ref: evaluate_bots_rate(ref, args.seconds), args.rounds)
            row = [title, label, "native loop vs evaluate_bots", med(r.mine), med(r.theirs), r.text()]
            print(" | ".join(row), flush=True)
            rows.append(row)
    if args.no_build:
        return 0
    print("\nbuild times (s):")
    for title, rule, _, n, _ in chosen:
        ta = [build_a(rule, n, force=True)[1] for _ in range(3)]
        tb = [game_b(rule, n)[1] for _ in range(3)]
        print(f"{title}: (a) " + ", ".join(f"{k} {statistics.median(t[k] for t in ta):.3f}" for k in ta[0])
              + " | (b) " + ", ".join(f"{k} {statistics.median(t[k] for t in tb):.4f}" for k in tb[0]))
    eng = [build_b(force=True)[1] for _ in range(2)]
    print(f"(b) engine build, once: {statistics.median(eng):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
