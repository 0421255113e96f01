"""`cardsmith bench GAME`: random playouts in rounds, actions/s and games/s on CPU time (or, with `--profile`,
the rule-file lines the time goes to). On the native backend (`auto`, the default, where it can be built, or
`--backend native`), the native playout loop (the whole match in C++, no Python per action), alternated round
by round with the Python backend's loop, and their ratio."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ..dsl.diagnostics import count_of
from ..engine.errors import GameError
from ..engine.game import Game
from ..engine.state import State
from ..engine.text import say
from .common import instance


def cmd_bench(args: argparse.Namespace) -> int:
    """Random playouts in rounds after one warm-up match (not counted): each round's rates, then their
    median and spread. Rates use this process's CPU time, so a busy machine does not skew them; the wall
    time is shown beside them."""
    if args.profile and args.backend is None:
        args.backend = "python"  # the profile is of the Python backend's rule-file lines, whatever the default
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

    if g.backend == "native":
        if args.profile:
            raise GameError("--profile shows the Python backend's rule-file lines: use it without --backend native")
        return _native(args, g, playouts)
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


def _native(args: argparse.Namespace, g: Game, python: Any) -> int:
    """The native loop against the Python backend's, alternated round by round (the order swapped each round,
    so a machine that changes speed affects both alike): games/s of each and their ratio."""
    from ..native.build import status
    native = g.native  # type: ignore[attr-defined]
    seed = args.seed
    say(status())

    def loop(seconds: float) -> tuple[int, int, float]:
        nonlocal seed
        actions = games = 0
        batch = 1
        c0 = time.process_time()
        deadline = time.perf_counter() + seconds
        while True:
            moves, _ = native.random_playouts(batch, seed + 1)
            seed += batch
            actions += moves
            games += batch
            if time.perf_counter() >= deadline:
                return actions, games, max(time.process_time() - c0, 1e-9)
            batch = min(batch * 2, 256)  # few crossings into C++, and still a round that ends on time

    loop(0.0)
    python(0.0)
    per_round = args.seconds / (2 * args.rounds)
    say(f"{g.name}, {count_of(g.n, 'player')}: {count_of(args.rounds, 'round')} of {per_round:.2f} s of random "
        "playouts on each backend, alternated, after a warm-up match")
    nat: list[float] = []
    py: list[float] = []
    for k in range(args.rounds):
        order = ("native", "python") if k % 2 == 0 else ("python", "native")
        for which in order:
            if which == "native":
                a, n, cpu = loop(per_round)
                nat.append(n / cpu)
                say(f"  round {k + 1}, native loop: {a / cpu:,.0f} actions/s, {n / cpu:,.1f} games/s")
            else:
                a, n, cpu, _ = python(per_round)
                py.append(n / cpu)
                say(f"  round {k + 1}, Python backend: {a / cpu:,.0f} actions/s, {n / cpu:,.1f} games/s")
    ratios = [a / b for a, b in zip(nat, py)]
    say(f"median: native loop {statistics.median(nat):,.1f} games/s ({min(nat):,.1f}..{max(nat):,.1f}), "
        f"Python backend {statistics.median(py):,.1f} games/s ({min(py):,.1f}..{max(py):,.1f}); "
        f"native/Python {statistics.median(ratios):,.1f}x ({min(ratios):,.1f}..{max(ratios):,.1f})")
    return 0
