"""Random playouts of Hearts: the hand-written benchmarks/pyhearts.py against games/hearts.yaml.

    python benchmarks/hearts.py                       # 5 rounds of 3 s for each
    python benchmarks/hearts.py --rounds 9 --seconds 5
    python benchmarks/hearts.py --rounds 1 --games 3  # a fixed number of games per round (a smoke test)
    python benchmarks/hearts.py --chance-nodes        # cardsmith too draws every chance outcome in the loop

Both play the same game (OpenSpiel's default Hearts, one deal) with the same random policy, a uniform
choice among the legal moves, in this process, in alternating rounds: pyhearts, then cardsmith, then
pyhearts again (the order swaps each round), so a machine that speeds up or slows down affects both
alike. pyhearts draws its chance nodes (the pass direction and each dealt card) with the same uniform
choice; cardsmith's state is made with a seed and draws its own (`game.new_initial_state(seed=...)`,
as `cardsmith bench` does). Rates are per second of this process's CPU time, as `cardsmith bench`
reports them; "actions" are the players' moves (passes and plays), the same count in both.

Each line gives a round's games/s and actions/s; the summary gives each side's median and the ratio
cardsmith/pyhearts (games/s) as the median of the rounds with their min..max spread.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULE_FILE = HERE.parent / "games" / "hearts.yaml"
sys.path.insert(0, str(HERE))

import cardsmith  # noqa: E402
from pyhearts import Hearts  # noqa: E402

TERMINAL = -4
CHANCE = -1


def pyhearts_game(rng: random.Random) -> int:
    """One random match of pyhearts; the number of player moves."""
    h = Hearts()
    moves = 0
    while True:
        p = h.current_player()
        if p == TERMINAL:
            return moves
        la = h.legal_actions()
        h.apply(la[int(rng.random() * len(la))])
        if p != CHANCE:
            moves += 1


def cardsmith_player(game: cardsmith.Game, chance_nodes: bool = False) -> Callable[[random.Random], int]:
    def play(rng: random.Random) -> int:
        """One random match of the rule file; the number of player moves."""
        s = game.new_initial_state(seed=rng.randrange(2**31))
        moves = 0
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
            moves += 1
        return moves

    def through_chance_nodes(rng: random.Random) -> int:
        """The same, with every chance outcome chosen by this loop, as pyhearts' are."""
        s = game.new_initial_state()
        moves = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
            moves += 1
        return moves
    return through_chance_nodes if chance_nodes else play


def measure(play: Callable[[random.Random], int], rng: random.Random, seconds: float,
            games: int | None) -> tuple[float, float]:
    """(games/s, actions/s) of CPU time: `games` matches, or whole matches until `seconds` of wall time pass."""
    n = actions = 0
    c0 = time.process_time()
    deadline = time.perf_counter() + seconds
    while True:
        actions += play(rng)
        n += 1
        if (n >= games) if games is not None else (time.perf_counter() >= deadline):
            break
    cpu = max(time.process_time() - c0, 1e-9)
    return n / cpu, actions / cpu


def spread(xs: list[float], fmt: str) -> str:
    return f"{statistics.median(xs):{fmt}} ({min(xs):{fmt}}..{max(xs):{fmt}})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for each side in a round (default 3)")
    ap.add_argument("--games", type=int, default=None, help="play this many games per side and round instead")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random policy (default 1)")
    ap.add_argument("--chance-nodes", action="store_true",
                    help="cardsmith too takes every chance outcome from the loop (a state made without a seed)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or (args.games is not None and args.games < 1) or args.seconds <= 0:
        ap.error("--rounds, --games and --seconds must be positive")

    game = cardsmith.load(str(RULE_FILE), players=4)
    sides: dict[str, Callable[[random.Random], int]] = {"pyhearts": pyhearts_game,
                                                        "cardsmith": cardsmith_player(game, args.chance_nodes)}
    rng = random.Random(args.seed)
    for play in sides.values():  # warm up: compile, memo tables, imports
        play(rng)
    budget = f"{args.games} games" if args.games is not None else f"{args.seconds:g} s"
    print(f"Hearts random playouts, {args.rounds} alternating rounds of {budget} for each side "
          f"(rates per CPU second; Python {sys.version.split()[0]})")
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    ratios: list[float] = []
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in order:
            rates[name].append(measure(sides[name], rng, args.seconds, args.games))
        (pg, pa), (cg, ca) = rates["pyhearts"][-1], rates["cardsmith"][-1]
        ratios.append(cg / pg)
        print(f"round {r + 1}: pyhearts {pg:,.1f} games/s {pa:,.0f} actions/s | "
              f"cardsmith {cg:,.1f} games/s {ca:,.0f} actions/s | cardsmith/pyhearts {cg / pg:.3f}")
    for name in sides:
        print(f"{name}: {spread([g for g, _ in rates[name]], ',.1f')} games/s, "
              f"{spread([a for _, a in rates[name]], ',.0f')} actions/s")
    print(f"cardsmith/pyhearts (games/s): {spread(ratios, '.3f')}  (median, min..max of {len(ratios)} rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
