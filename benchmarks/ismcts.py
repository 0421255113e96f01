"""ISMCTS's time per decision: cardsmith's `ismcts` on each backend against OpenSpiel's `ISMCTSBot` on pyspiel's
own game (issue 33), alternated in one process.

    python benchmarks/ismcts.py [--rounds R] [--iterations N] [GAME ...]     # GAME: hearts, kuhn

Each round plays, for each side in turn (the order reversed every other round), random matches in which seat 0
is the search bot and every other seat plays uniformly at random, until seat 0 has made K decisions with more
than one legal action (6 in Hearts, 20 in Kuhn poker); the CPU time of each decision is kept. cardsmith's bot is
`ismcts(iterations=N)` with its defaults, on `cardsmith.load(game, backend=...)` states seeded by the round;
OpenSpiel's is `ISMCTSBot` with N iterations, random rollouts and UCT c = 2, its chance drawn by the loop. The
decisions differ (different states, different bots), so the figure is a median over many, and the ratio of each
side's median to OpenSpiel's is printed; the Python and native backends' decisions are the same for a seed
(tests/test_native_backend.py), so their ratio is exact. Needs the `rl` extra (pyspiel, numpy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import cardsmith
from cardsmith.bots import SeatView, make_bot, parse_bots

# cardsmith's bundled game and player count, and pyspiel's game of the same name, for each name here.
GAMES = {"hearts": (("hearts", 4), "hearts", 6), "kuhn": (("kuhn-poker", 2), "kuhn_poker", 20)}


def cardsmith_decisions(name: str, backend: str, iterations: int, seed: int) -> list[float]:
    (game, players), _, k = GAMES[name]
    g = cardsmith.load(game, players=players, backend=backend)
    rng = random.Random(seed)
    spec = parse_bots(f"ismcts(iterations={iterations})")[0]
    bot = make_bot(spec, g, 0, seed)
    times: list[float] = []
    match = seed
    s = g.new_initial_state(seed=match)
    while len(times) < k:
        if s.is_terminal():
            match += 1_000
            s = g.new_initial_state(seed=match)
            continue
        p, legal = s.current_player(), s.legal_actions()
        if p == 0 and len(legal) > 1:
            t = time.process_time()
            a = bot.choose(SeatView(s, p))
            times.append(time.process_time() - t)
        else:
            a = legal[rng.randrange(len(legal))]
        s.apply_action(a)
    return times


def openspiel_decisions(name: str, iterations: int, seed: int) -> list[float]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    _, os_name, k = GAMES[name]
    game = pyspiel.load_game(os_name)
    rng = random.Random(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), 2.0, iterations,
                           random_state=np.random.RandomState(seed))
    times: list[float] = []
    s = game.new_initial_state()
    while len(times) < k:
        if s.is_terminal():
            s = game.new_initial_state()
            continue
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        p, legal = s.current_player(), s.legal_actions()
        if p == 0 and len(legal) > 1:
            t = time.process_time()
            a = bot.step(s)
            times.append(time.process_time() - t)
        else:
            a = legal[rng.randrange(len(legal))]
        s.apply_action(a)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", choices=[[], *GAMES], default=[])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=200)
    args = ap.parse_args()
    print("| game | side | decisions | CPU ms per decision, median (mean) | / OpenSpiel's |")
    print("| --- | --- | --- | --- | --- |")
    for name in args.games or list(GAMES):
        res: dict[str, list[float]] = {"OpenSpiel ISMCTSBot": [], "cardsmith native": [], "cardsmith python": []}
        for r in range(args.rounds):
            sides = [("OpenSpiel ISMCTSBot", "openspiel"), ("cardsmith native", "native"),
                     ("cardsmith python", "python")]
            for key, backend in sides[::-1] if r % 2 else sides:
                res[key] += (openspiel_decisions(name, args.iterations, r) if backend == "openspiel" else
                             cardsmith_decisions(name, backend, args.iterations, r))
        base = statistics.median(res["OpenSpiel ISMCTSBot"])
        for key, v in res.items():
            m, mean = statistics.median(v), statistics.mean(v)
            print(f"| {name} | {key} | {len(v)} | {m * 1000:,.1f} ({mean * 1000:,.1f}) | {m / base:.2f}x |")


if __name__ == "__main__":
    main()
