"""How long `resample_from_infostate` takes on the bundled games, and how often it gives up.

    python benchmarks/resample.py [--states N] [GAME ...]

For each game (all bundled games by default) at 4 players, or its smallest player count without 4:
N states (30 by default) reached by 10 to 150 random events of a match, half of them seeded, each
resampled for a random player. Prints the median and the longest time, and how many gave up. The
states and seeds come from a fixed random sequence, so runs compare.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import cardsmith
from cardsmith import BadOption, GameError


def reach(game: cardsmith.Game, rng: random.Random) -> cardsmith.State:
    """A state after 10 to 150 random events (a chance outcome counts as one)."""
    seeded = rng.random() < 0.5
    s = game.new_initial_state(seed=rng.getrandbits(32) if seeded else None)
    for _ in range(rng.randrange(10, 151)):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            la = s.legal_actions()
            s.apply_action(la[rng.randrange(len(la))])
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", help="bundled game names (default: all)")
    ap.add_argument("--states", type=int, default=30, help="states per game (default 30)")
    args = ap.parse_args()
    names = args.games or sorted(cardsmith.bundled_games())
    for name in names:
        n = 4
        try:
            game = cardsmith.load(name, players=n)
        except BadOption:  # a game for fewer players (Kuhn poker)
            n = 2
            game = cardsmith.load(name, players=n)
        rng = random.Random(1)
        times: list[float] = []
        gave_up = 0
        for _ in range(args.states):
            s = reach(game, rng)
            p, seed = rng.randrange(n), rng.getrandbits(32)
            t0 = time.perf_counter()
            try:
                s.resample_from_infostate(p, seed)
            except GameError:
                gave_up += 1
            times.append(time.perf_counter() - t0)
        print(f"{name} {n}p: median {statistics.median(times) * 1000:.0f} ms, longest {max(times):.2f} s, "
              f"gave up {gave_up} of {args.states}", flush=True)


if __name__ == "__main__":
    main()
