"""Information state strings worked out afresh, on this tree's cardsmith and on another checkout's, alternately.

The loop is the one of tests/test_infostate.py's `test_strings_kept_along_a_match_are_those_worked_out_afresh`
with its random choices fixed: along a random match, a state read back from its serialization is asked the
string of the player to act, every other step every player's, and every fifth step a child's for every
player. Each round runs the loop once in a new process of each Python (`--base` is the other checkout's
interpreter, e.g. a venv where `cardsmith` is installed from a worktree of an older commit), on the same
machine load:

    python benchmarks/fresh_strings.py --base ../venv-old/bin/python --rounds 3 thirty-one:8 thirty-one:2

It prints each process's CPU time in each round and the ratio base/new (how many times faster this tree
is) as the median of the rounds with its min..max, and checks both wrote the same strings (a hash of all).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import subprocess
import sys
import time


def loop(game: str, players: int, seed: int, seeded: bool, steps: int) -> tuple[float, str]:
    """CPU seconds of the loop and a hash of every fresh string it asked."""
    import cardsmith
    from cardsmith.engine.state import State
    g = cardsmith.load(game, players)
    h = hashlib.sha256()

    def check(t: State, who: range | list[int]) -> None:
        fresh = g.deserialize_state(t.serialize())
        for p in who:
            h.update(fresh.information_state_string(p).encode())

    t0 = time.process_time()
    rng = random.Random(seed)
    s = State.initial(g, seed if seeded else None)
    for k in range(steps):
        if s.is_terminal():
            break
        if s.current_player() >= 0:
            check(s, [s.current_player()])
        if k % 2 == 0:
            check(s, range(g.n))
        options = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        if k % 5 == 0:
            child = s.clone()
            child.apply_action(options[0])
            check(child, range(g.n))
        s.apply_action(options[rng.randrange(len(options))])
    check(s, range(g.n))
    return time.process_time() - t0, h.hexdigest()


def _run(python: str, game: str, players: int, args: argparse.Namespace) -> tuple[float, str]:
    out = subprocess.run([python, __file__, "--one", f"{game}:{players}", "--seed", str(args.seed),
                          "--steps", str(args.steps)] + (["--seeded"] if args.seeded else []),
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), out[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+", help="GAME:PLAYERS")
    ap.add_argument("--base", help="the other checkout's Python")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--seeded", action="store_true", help="a state with a seed (chance drawn inside)")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        game, n = args.games[0].split(":")
        cpu, digest = loop(game, int(n), args.seed, args.seeded, args.steps)
        print(f"{cpu:.3f} {digest}")
        return
    if args.base is None:
        ap.error("--base is needed")
    print("| game | players | this tree, CPU s | base, CPU s | base/this tree |")
    print("| --- | --- | --- | --- | --- |")
    for spec in args.games:
        game, n = spec.split(":")
        new: list[float] = []
        old: list[float] = []
        for _ in range(args.rounds):
            a, ha = _run(sys.executable, game, int(n), args)
            b, hb = _run(args.base, game, int(n), args)
            if ha != hb:
                sys.exit(f"{spec}: the two checkouts wrote different strings")
            new.append(a)
            old.append(b)
        ratios = sorted(b / a for a, b in zip(new, old))
        print(f"| {game} | {n} | {statistics.median(new):.2f} | {statistics.median(old):.2f} | "
              f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}..{ratios[-1]:.2f}) |")


if __name__ == "__main__":
    main()
