"""`cardsmith bench GAME`: random playouts in rounds, actions/s and games/s on CPU time (or, with `--profile`,
the rule-file lines the time goes to)."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ..dsl.diagnostics import count_of
from ..engine.state import State
from ..engine.text import say
from .common import instance


def cmd_bench(args: argparse.Namespace) -> int:
    """Random playouts in rounds after one warm-up match (not counted): each round's rates, then their
    median and spread. Rates use this process's CPU time, so a busy machine does not skew them; the wall
    time is shown beside them."""
    g = instance(args)
    rng = random.Random(args.seed)
    seed = args.seed

    def playouts(seconds: float) -> tuple[int, int, float, float]:
        nonlocal seed
        actions = games = 0
        t0, c0 = time.perf_counter(), time.process_time()
        deadline = t0 + seconds
        while True:
            s = State.initial(g, seed)
            seed += 1
            while not s.terminal:
                la = s.legal_actions()
                s.apply_action(la[int(rng.random() * len(la))])
                actions += 1
            games += 1
            if time.perf_counter() >= deadline:
                return actions, games, max(time.process_time() - c0, 1e-9), time.perf_counter() - t0

    playouts(0.0)  # one match: imports, memo tables and caches warm up outside the rounds
    if args.profile:
        from .profile import Sampler
        sampler = Sampler(g.compiled)
        sampler.run(lambda: playouts(args.seconds))
        say(f"{g.name}, {count_of(g.n, 'player')}: random playouts for {args.seconds:.2f} s")
        for line in sampler.report():
            say(line)
        return 0
    per_round = args.seconds / args.rounds
    say(f"{g.name}, {count_of(g.n, 'player')}: {count_of(args.rounds, 'round')} of {per_round:.2f} s "
        "of random playouts, after a warm-up match")
    rounds = []
    for k in range(args.rounds):
        a, n, cpu, wall = playouts(per_round)
        rounds.append((a, n, cpu, wall))
        say(f"  round {k + 1}: {a / cpu:,.0f} actions/s, {n / cpu:,.1f} games/s")
    acts = [a / cpu for a, _, cpu, _ in rounds]
    games = [n / cpu for _, n, cpu, _ in rounds]
    total_a, total_n = sum(r[0] for r in rounds), sum(r[1] for r in rounds)
    cpu, wall = sum(r[2] for r in rounds), sum(r[3] for r in rounds)
    say(f"median: {statistics.median(acts):,.0f} actions/s ({min(acts):,.0f}..{max(acts):,.0f}), "
        f"{statistics.median(games):,.1f} games/s ({min(games):,.1f}..{max(games):,.1f}); "
        f"{count_of(total_a, 'action')} in {count_of(total_n, 'game')}, {cpu:.2f} s CPU ({wall:.2f} s wall)")
    return 0
