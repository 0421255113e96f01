"""How much a second worker process adds to `cardsmith simulate`.

    python benchmarks/workers.py [--rounds R] [--games K] [--workers W] [GAME:PLAYERS]

Each round simulates the same K random matches (the same seed) once with one worker and once with W (2 by
default), in alternating order, through the function `cardsmith simulate` calls. On a shared virtual
machine one run's rate moves by a third from minute to minute, so a single pair says little: the ratio is
reported per round (median and range) and over all rounds (total time of one worker over total time of
W). The CPU seconds per match of the two modes are printed too: if they agree, the pool does the same
work per match and any gap in the ratio is the machine, not the pool.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import cardsmith
from cardsmith.dsl.limits import Limits
from cardsmith.sim.runner import Config, simulate


def run(config: Config, games: int, workers: int, game: cardsmith.Game) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its finished children) of one simulation."""
    c0, t0 = os.times(), time.perf_counter()
    out = simulate(config, games, workers, game)
    t1, c1 = time.perf_counter(), os.times()
    assert len(out.rows) == games and out.failure is None
    cpu = (c1.user - c0.user) + (c1.system - c0.system) + (c1.children_user - c0.children_user) \
        + (c1.children_system - c0.children_system)
    return t1 - t0, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case", nargs="?", default="schwimmen:4", help="GAME:PLAYERS (default schwimmen:4)")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    name, _, n = args.case.partition(":")
    players = int(n or 2)
    game = cardsmith.load(name, players)
    path = str(cardsmith.bundled_games()[name])
    config = Config(path, players, {}, Limits(), ("random",) * players, False, 1)
    ratios: list[float] = []
    wall = {1: 0.0, args.workers: 0.0}
    cpu = {1: 0.0, args.workers: 0.0}
    print(f"{name}, {players} players, {args.games:,} random matches a run, 1 worker against {args.workers}")
    for r in range(args.rounds):
        # Alternate which mode goes first, so a drift in the machine's speed favours neither.
        order = (1, args.workers) if r % 2 == 0 else (args.workers, 1)
        t: dict[int, float] = {}
        for w in order:
            t[w], c = run(config, args.games, w, game)
            wall[w] += t[w]
            cpu[w] += c
        ratios.append(t[1] / t[args.workers])
        print(f"round {r + 1:2}: 1 worker {args.games / t[1]:7,.0f} matches/s, {args.workers} workers "
              f"{args.games / t[args.workers]:7,.0f} matches/s, ratio {ratios[-1]:.2f}", flush=True)
    matches = args.games * args.rounds
    print(f"ratio: median {statistics.median(ratios):.2f} (range {min(ratios):.2f}..{max(ratios):.2f}), "
          f"all rounds {wall[1] / wall[args.workers]:.2f}")
    print(f"CPU per match: 1 worker {cpu[1] / matches * 1e3:.3f} ms, {args.workers} workers "
          f"{cpu[args.workers] / matches * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
