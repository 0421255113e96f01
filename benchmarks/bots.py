"""How strong the bots are: ISMCTS against random players, and against OpenSpiel's ISMCTSBot.

    python benchmarks/bots.py random [--games K] [--first K] [--spec SPEC] [GAME:PLAYERS[:GAMES] ...]
    python benchmarks/bots.py openspiel [--games K] [--first K] [--iterations N] [GAME:PLAYERS[:GAMES] ...]

`random`: the bot of SPEC (default `ismcts`, its default settings) at one seat and random players at the
others, the seat taken in turn; its win share (a shared win counts 1/k) with a 95% Wilson interval, the
fair share 1/N, its mean return with a 95% interval (for games scored in chips), and the CPU milliseconds
per decision; in a partnership game also how often its side won (its partners play at random). Default:
every bundled game at its fewest players.

`openspiel`: cardsmith's `ismcts(iterations=N)` against OpenSpiel's `ISMCTSBot` with the same number of
iterations (random rollouts, its default of a fresh resample per iteration, UCT c = 2 on the raw returns
as in its examples), both playing the game through `cardsmith.openspiel`, seats taken in turn; cardsmith's
win share with its interval, its mean return with a 95% interval (the chips it takes from OpenSpiel's bot
in a zero-sum game), and each bot's CPU milliseconds per decision. Matches are seeded by their index, so
runs compare, and `--first K` extends an earlier run with matches K, K+1, ... (in both modes). Both print a
line per match on stderr.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

import cardsmith
from cardsmith.bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from cardsmith.engine.state import State


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def _cases(given: list[str], games: int) -> list[tuple[str, int, int]]:
    """GAME:PLAYERS[:GAMES] cases, or every bundled game at its fewest players."""
    if given:
        out = []
        for c in given:
            name, n, k = (c.rsplit(":", 2) + ["2", str(games)])[:3]
            out.append((name, int(n), int(k)))
        return out
    out = []
    for name in sorted(cardsmith.bundled_games()):
        for n in range(2, 9):
            try:
                cardsmith.load(name, n)
            except cardsmith.BadOption:
                continue
            out.append((name, n, games))
            break
    return out


def vs_random(name: str, n: int, games: int, spec: str, first: int = 0) -> None:
    g = cardsmith.load(name, n)
    wins, sides, decisions, cpu = 0.0, 0, 0, 0.0
    rets: list[float] = []
    teams = g.teams_of is not None
    for i in range(first, first + games):
        seat = i % n
        specs = [parse_bots("random")[0]] * n
        specs[seat] = parse_bots(spec, strategies=strategy_names(g))[0]
        bots = [make_bot(sp, g, p, seat_seed(i, p)) for p, sp in enumerate(specs)]
        s = State.initial(g, i)
        while not s.is_terminal():
            p = s.current_player()
            t = time.process_time()
            a = bots[p].choose(SeatView(s, p))
            if p == seat:
                cpu += time.process_time() - t
                decisions += 1
            s.apply_action(a)
        if seat in s.winners:
            wins += 1 / len(s.winners)
        # In a partnership game the bot's side is the measure: its partners are random players.
        sides += any(s.team[w] == s.team[seat] for w in s.winners)
        rets.append(s.returns()[seat])
        print(f"match {i}: {spec} in seat {seat}, share {(1 / len(s.winners)) if seat in s.winners else 0:.3f}, "
              f"return {rets[-1]:.3f}", file=sys.stderr, flush=True)
    lo, hi = wilson(wins, games)
    mean = statistics.fmean(rets)
    half = 1.96 * statistics.stdev(rets) / math.sqrt(games) if games > 1 else math.inf
    side = ""
    if teams:
        slo, shi = wilson(sides, games)
        side = f"its side won {sides} ({slo:.3f}..{shi:.3f}), fair {1 / len(set(s.team)):.3f}; "
    print(f"{name:<22} {n}p  win share {wins / games:.3f} ({lo:.3f}..{hi:.3f}), fair {1 / n:.3f}; {side}"
          f"mean return {mean:.3f} ({mean - half:.3f}..{mean + half:.3f}); "
          f"{1000 * cpu / max(decisions, 1):.0f} ms/decision; {games} games", flush=True)


def vs_openspiel(name: str, n: int, games: int, iterations: int, first: int = 0) -> None:
    import cardsmith.openspiel as cos
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    game = cos.load(name, n)
    wins, ours_cpu, ours_n, theirs_cpu, theirs_n = 0.0, 0.0, 0, 0.0, 0
    rets: list[float] = []
    for i in range(first, first + games):
        seat = i % n
        rng = random.Random(i)
        theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(i)), 2.0,
                                  iterations, random_state=np.random.RandomState(i))
        ours = make_bot(f"ismcts(iterations={iterations})", game.cardsmith, seat, seat_seed(i, seat))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outs = state.chance_outcomes()
                state.apply_action(outs[rng.randrange(len(outs))][0])
                continue
            p = state.current_player()
            t = time.process_time()
            if p == seat:
                a = ours.choose(SeatView(state.inner, p))
                ours_cpu += time.process_time() - t
                ours_n += 1
            else:
                a = theirs.step(state)
                theirs_cpu += time.process_time() - t
                theirs_n += 1
            state.apply_action(int(a))
        winners = state.inner.winners
        if seat in winners:
            wins += 1 / len(winners)
        rets.append(state.returns()[seat])
        # A line per match on stderr: a long run stopped early still tells what it played.
        print(f"match {i}: cardsmith in seat {seat}, share {(1 / len(winners)) if seat in winners else 0:.3f}, "
              f"return {rets[-1]:.3f}", file=sys.stderr, flush=True)
    lo, hi = wilson(wins, games)
    mean = statistics.fmean(rets)
    half = 1.96 * statistics.stdev(rets) / math.sqrt(games) if games > 1 else math.inf
    print(f"{name:<22} {n}p  cardsmith ismcts {wins / games:6.3f} ({lo:.3f}..{hi:.3f}) against OpenSpiel's "
          f"(fair {1 / n:.3f}); mean return {mean:.3f} ({mean - half:.3f}..{mean + half:.3f}); "
          f"ms/decision: cardsmith {1000 * ours_cpu / max(ours_n, 1):.0f}, "
          f"OpenSpiel {1000 * theirs_cpu / max(theirs_n, 1):.0f}; {games} games, {iterations} iterations",
          flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["random", "openspiel"])
    ap.add_argument("cases", nargs="*", metavar="GAME:PLAYERS")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--spec", default="ismcts")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="index of the first match (its seed), to extend a run")
    args = ap.parse_args(argv)
    for name, n, games in _cases(args.cases, args.games):
        if args.mode == "random":
            vs_random(name, n, games, args.spec, args.first)
        else:
            vs_openspiel(name, n, games, args.iterations, args.first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
