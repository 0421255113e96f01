"""cardsmith against OpenSpiel's own C++ games, driven from the same Python loop, alternated in one process.

    python benchmarks/openspiel.py playouts [GAME ...] [--rounds R] [--seconds T] [--backend python|native]
    python benchmarks/openspiel.py native-loop [GAME ...] [--rounds R] [--seconds T]
    python benchmarks/openspiel.py cfr [--rounds R] [--iterations N] [--backend python|native]
    python benchmarks/openspiel.py adapters [--rounds R] [--seconds T]
    python benchmarks/openspiel.py strings [GAME ...] [--rounds R] [--seconds T]
    python benchmarks/openspiel.py import [--rounds R]
    python benchmarks/openspiel.py all --markdown   # every table, as docs/performance.md prints them

`playouts`: random matches of each bundled classic (`CLASSICS`) and of pyspiel's game of the same name
and parameters. Both sides run the same loop (`legal_actions`, a uniform choice, `apply_action`) in
alternating rounds of T seconds, the order swapped each round, so a machine that speeds up or slows down
affects both alike. Two loops:
- `seeded`: cardsmith's state is made with a seed and draws its own chance (as `cardsmith bench`, the
  simulations and the bots' own playouts run it); pyspiel's chance nodes are drawn by the loop.
- `chance`: both states are made without a seed and every chance outcome is drawn by the loop (as the
  OpenSpiel adapter, CFR and ISMCTS over `chance_outcomes` run it).

`--backend native`: cardsmith's side is the native backend (`cardsmith.load(..., backend="native")`) through the
same Python loop; a classic the native backend does not cover yet is left out, saying why.

`native-loop`: the native backend's own playout loop (`game.native.random_playouts`, the whole match in C++,
its chance drawn by itself, uniform random moves) against OpenSpiel's C++ loop, `pyspiel.evaluate_bots` with
uniform random bots, one call per match; games/s of CPU time, alternated as above.

`cfr`: seconds per iteration of OpenSpiel's Python `CFRSolver` on cardsmith's Kuhn and Leduc poker
(through `cardsmith.openspiel`) and on pyspiel's `kuhn_poker` and `leduc_poker`, and of outcome-sampling
MCCFR (`OutcomeSamplingSolver`, 1,000 iterations a round) on Go Fish; alternated as above. `cfr --backend
native`: CFR (N iterations a round on Kuhn, N/10 on Leduc) and external-sampling MCCFR (`ExternalSamplingSolver`,
50N on Kuhn, 5N on Leduc) with cardsmith's Python backend, its native backend and pyspiel's game, the three
in turn (the order rotated each round); iterations/s and each pair's ratio of time per iteration; on Kuhn
poker also OpenSpiel's own Kuhn poker written in Python (`python_kuhn_poker`, the same pyspiel protocol for a
Python game as the adapter's).

`adapters`: random games/s of Hearts through cardsmith's own API against the pyspiel-wrapped game
(`cardsmith.openspiel`, chance drawn by the loop, so against the own API's chance loop) and the
PettingZoo env (chance drawn inside from the seed, so against the own API's seeded loop; the env also
makes the acting agent's observation tensor and action mask at every step, so it is compared as well with
the seeded loop that makes the acting player's observation tensor at every step, `seeded + observation
tensor`). Then the time of one call of the acting player's information state string and of `clone()`, at
every decision of random Hearts matches (chance drawn by the loop), through the own API, the pyspiel game
and pyspiel's own hearts.

`strings`: the acting player's information state string at every decision of random matches of each classic
(chance drawn by the loop), on the Python backend and on the native backend (native/infostate.py), alternated;
microseconds of CPU time per call and the ratio of the times.

`import`: `python -c "import cardsmith"` against `python -c "import pyspiel"`, fresh processes alternated;
wall time of the whole process, the median of the rounds; then the same with Kuhn poker loaded as well
(`cardsmith.load` reads and compiles the rule file; `pyspiel.load_game` makes the C++ game).

Rates are per second of this process's CPU time. Each table gives the ratio cardsmith/pyspiel of games/s
(or of iterations/s) as the median of the rounds with the lowest..highest round. Needs the `rl` extra.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import cardsmith
import pyspiel


@dataclass(frozen=True)
class Classic:
    title: str
    rule_file: str  # a bundled game's name
    openspiel: str
    players: int
    params: dict[str, Any] = field(default_factory=dict)


# The bundled games that OpenSpiel also has, at OpenSpiel's default parameters and player counts.
CLASSICS = [
    Classic("Hearts", "hearts", "hearts", 4),
    Classic("Spades", "spades", "spades", 4),
    Classic("Euchre", "euchre", "euchre", 4),
    Classic("Oh Hell", "oh-hell", "oh_hell", 3),
    Classic("Crazy Eights", "crazy-eights", "crazy_eights", 5),
    Classic("Gin Rummy", "gin-rummy", "gin_rummy", 2),
    Classic("Go Fish", "go-fish", "go_fish", 2),
    Classic("Cribbage", "cribbage", "cribbage", 2),
    Classic("Kuhn poker", "kuhn-poker", "kuhn_poker", 2),
    Classic("Leduc poker", "leduc-poker", "leduc_poker", 2),
]

Play = Callable[[random.Random], int]


def _bundled(name: str) -> bool:
    from cardsmith.engine.bundled import resolve
    try:
        return resolve(name).exists()
    except Exception:  # noqa: BLE001 (a game not bundled yet is left out of the tables)
        return False


def _params(c: Classic) -> dict[str, Any]:
    """pyspiel's parameters of a classic: its own, and the players where the game takes them."""
    takes_players = "players" in pyspiel.load_game(c.openspiel).get_parameters()
    return {**c.params, **({"players": c.players} if takes_players else {})}


def pyspiel_play(game: Any) -> Play:
    def play(rng: random.Random) -> int:
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
    return play


def seeded_play(game: cardsmith.Game) -> Play:
    def play(rng: random.Random) -> int:
        s = game.new_initial_state(seed=rng.getrandbits(31))
        moves = 0
        while not s.is_terminal():
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
            moves += 1
        return moves
    return play


def chance_play(game: cardsmith.Game) -> Play:
    return pyspiel_play(game)  # the same loop: a state without a seed stops at every chance node


def rate(play: Play, rng: random.Random, seconds: float) -> float:
    """Whole games/s of CPU time, for `seconds` of CPU time (at least one game)."""
    n = 0
    c0 = time.process_time()
    end = c0 + seconds
    while True:
        play(rng)
        n += 1
        now = time.process_time()
        if now >= end:
            return n / max(now - c0, 1e-9)


@dataclass
class Ratio:
    """A comparison over alternating rounds: the rates of each side and the ratio per round."""
    mine: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)

    @property
    def ratios(self) -> list[float]:
        return [a / b for a, b in zip(self.mine, self.theirs)]

    def text(self, fmt: str = ".2f") -> str:
        r = self.ratios
        return f"{statistics.median(r):{fmt}} ({min(r):{fmt}}..{max(r):{fmt}})"


def alternate(mine: Callable[[], float], theirs: Callable[[], float], rounds: int) -> Ratio:
    """Both measurements, `rounds` times, the order swapped each round."""
    out = Ratio()
    for r in range(rounds):
        if r % 2 == 0:
            out.theirs.append(theirs())
            out.mine.append(mine())
        else:
            out.mine.append(mine())
            out.theirs.append(theirs())
    return out


def alternate_rates(mine: Play, theirs: Play, rng: random.Random, seconds: float, rounds: int) -> Ratio:
    """Games/s of both random loops, alternated."""
    return alternate(lambda: rate(mine, rng, seconds), lambda: rate(theirs, rng, seconds), rounds)


def _median(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f}"


def _chosen(names: list[str]) -> list[Classic]:
    out = []
    for c in CLASSICS:
        if names and c.rule_file not in names and c.openspiel not in names:
            continue
        if not _bundled(c.rule_file):
            print(f"{c.title}: not bundled, left out", file=sys.stderr)
            continue
        out.append(c)
    return out


def _load(c: Classic, backend: str) -> cardsmith.Game | None:
    """The classic on the backend asked for, or None (said on stderr) where the native backend cannot run it."""
    try:
        return cardsmith.load(c.rule_file, c.players, backend=backend)
    except cardsmith.GameError as e:
        if backend == "python":
            raise
        print(f"{c.title}: left out: {e}", file=sys.stderr)
        return None


def playouts(names: list[str], rounds: int, seconds: float, seed: int,
             backend: str = "python") -> list[list[str]]:
    side = "cardsmith" if backend == "python" else f"cardsmith {backend}"
    rows = [["game", "players", "loop", f"{side} games/s", "pyspiel games/s", f"{side}/pyspiel"]]
    for c in _chosen(names):
        mine = _load(c, backend)
        if mine is None:
            continue
        ref = pyspiel.load_game(c.openspiel, _params(c))
        for loop, make in (("seeded", seeded_play), ("chance", chance_play)):
            rng = random.Random(seed)
            a, b = make(mine), pyspiel_play(ref)
            a(rng), b(rng)  # warm up: memo tables, imports
            res = alternate_rates(a, b, rng, seconds, rounds)
            row = [c.title, str(c.players), loop, _median(res.mine), _median(res.theirs), res.text()]
            print(" | ".join(row), file=sys.stderr)
            rows.append(row)
    return rows


def evaluate_bots_rate(game: Any, seconds: float, seed: int) -> float:
    """Games/s of OpenSpiel's C++ loop with uniform random bots (CPU time), one `evaluate_bots` call per match."""
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    k = 0
    c0 = time.process_time()
    while True:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + k)
        k += 1
        now = time.process_time()
        if now - c0 >= seconds:
            return k / (now - c0)


def native_loop_rate(game: Any, seconds: float, seed: int) -> float:
    """Games/s of the native backend's playout loop (CPU time), in batches of 50 matches per call."""
    k, batch = 0, 50
    c0 = time.process_time()
    while True:
        game.native.random_playouts(batch, seed + k)
        k += batch
        now = time.process_time()
        if now - c0 >= seconds:
            return k / (now - c0)


def native_loop(names: list[str], rounds: int, seconds: float, seed: int) -> list[list[str]]:
    rows = [["game", "players", "native loop games/s", "evaluate_bots games/s", "native/evaluate_bots"]]
    for c in _chosen(names):
        mine = _load(c, "native")
        if mine is None:
            continue
        ref = pyspiel.load_game(c.openspiel, _params(c))
        native_loop_rate(mine, 0.05, seed), evaluate_bots_rate(ref, 0.05, seed)  # warm up
        res = alternate(partial(native_loop_rate, mine, seconds, seed), partial(evaluate_bots_rate, ref, seconds, seed),
                        rounds)
        row = [c.title, str(c.players), _median(res.mine), _median(res.theirs), res.text()]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- CFR


def _per_iteration(solver: Any, step: Callable[[Any], None], iterations: int) -> Callable[[], float]:
    """Iterations/s of CPU time of `step(solver)` run `iterations` times."""
    def measure() -> float:
        c0 = time.process_time()
        for _ in range(iterations):
            step(solver)
        return iterations / max(time.process_time() - c0, 1e-9)
    return measure


def cfr(rounds: int, iterations: int) -> list[list[str]]:
    import cardsmith.openspiel as cs_openspiel
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr

    rows = [["algorithm", "game", "cardsmith s/iteration", "pyspiel s/iteration", "cardsmith/pyspiel time"]]
    runs: list[tuple[str, str, str, str, int]] = [
        ("CFR", "Kuhn poker", "kuhn-poker", "kuhn_poker", iterations),
        ("CFR", "Leduc poker", "leduc-poker", "leduc_poker", max(1, iterations // 10)),
        ("outcome-sampling MCCFR", "Go Fish", "go-fish", "go_fish", 1000),
    ]
    for algo, title, rule_file, name, n in runs:
        if not _bundled(rule_file):
            print(f"{title}: not bundled, left out", file=sys.stderr)
            continue
        mine_game, ref_game = cs_openspiel.load(rule_file, 2, backend="python"), pyspiel.load_game(name)
        if algo == "CFR":
            mine_solver, ref_solver = os_cfr.CFRSolver(mine_game), os_cfr.CFRSolver(ref_game)

            def step(s: Any) -> None:
                s.evaluate_and_update_policy()
        else:
            mine_solver = os_mccfr.OutcomeSamplingSolver(mine_game)
            ref_solver = os_mccfr.OutcomeSamplingSolver(ref_game)

            def step(s: Any) -> None:
                s.iteration()
        step(mine_solver), step(ref_solver)  # warm up (CFR builds its tree of information states here)
        res = alternate(_per_iteration(mine_solver, step, n), _per_iteration(ref_solver, step, n), rounds)
        slower = [1 / r for r in res.ratios]
        row = [algo, title, f"{1 / statistics.median(res.mine):.4g}", f"{1 / statistics.median(res.theirs):.4g}",
               f"{statistics.median(slower):.2f} ({min(slower):.2f}..{max(slower):.2f})"]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


def _native_pyspiel(rule_file: str, players: int) -> Any:
    """The rule file as a pyspiel game (`cardsmith.openspiel`) on the native backend."""
    import cardsmith.openspiel as cs_openspiel
    return cs_openspiel.load(rule_file, players, backend="native")


def alternate_all(measures: list[Callable[[], float]], rounds: int) -> list[list[float]]:
    """Each measurement `rounds` times, in turn, the order rotated each round; the rates of each."""
    out: list[list[float]] = [[] for _ in measures]
    for r in range(rounds):
        k = len(measures)
        for i in [(r + j) % k for j in range(k)]:
            out[i].append(measures[i]())
    return out


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} ({min(xs):.2f}..{max(xs):.2f})"


def cfr_native(rounds: int, iterations: int) -> list[list[str]]:
    """CFR and external-sampling MCCFR on Kuhn and Leduc poker: the Python backend, the native backend and
    pyspiel's own game, iterations/s of CPU time alternated in one process; each ratio per round. On Kuhn poker
    also OpenSpiel's Kuhn poker written in Python (`python_kuhn_poker`): a game through the same Python-game
    protocol of pyspiel as the adapter, whose clone and callbacks every Python game pays."""
    import cardsmith.openspiel as cs_openspiel
    from open_spiel.python import games as _registers_python_games  # noqa: F401
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import external_sampling_mccfr as os_es

    rows = [["algorithm", "game", "Python it/s", "native it/s", "pyspiel it/s", "Python/pyspiel time",
             "native/pyspiel time", "Python/native time", "OpenSpiel's python_kuhn_poker/pyspiel time"]]
    runs: list[tuple[str, str, str, str, int]] = [
        ("CFR", "Kuhn poker", "kuhn-poker", "kuhn_poker", iterations),
        ("CFR", "Leduc poker", "leduc-poker", "leduc_poker", max(1, iterations // 10)),
        ("external-sampling MCCFR", "Kuhn poker", "kuhn-poker", "kuhn_poker", iterations * 50),
        ("external-sampling MCCFR", "Leduc poker", "leduc-poker", "leduc_poker", iterations * 5),
    ]
    for algo, title, rule_file, name, n in runs:
        games = [cs_openspiel.load(rule_file, 2, backend="python"), _native_pyspiel(rule_file, 2),
                 pyspiel.load_game(name)]
        if name == "kuhn_poker":
            games.append(pyspiel.load_game("python_kuhn_poker"))
        if algo == "CFR":
            solvers = [os_cfr.CFRSolver(g) for g in games]

            def step(s: Any) -> None:
                s.evaluate_and_update_policy()
        else:
            solvers = [os_es.ExternalSamplingSolver(g, os_es.AverageType.SIMPLE) for g in games]

            def step(s: Any) -> None:
                s.iteration()
        for solver in solvers:
            step(solver)  # warm up (CFR builds its tree of information states here)
        rates = alternate_all([_per_iteration(solver, step, n) for solver in solvers], rounds)
        py, nat, ref = rates[:3]
        row = [algo, title, f"{statistics.median(py):.4g}", f"{statistics.median(nat):.4g}",
               f"{statistics.median(ref):.4g}", _spread([b / a for a, b in zip(py, ref)]),
               _spread([b / a for a, b in zip(nat, ref)]), _spread([b / a for a, b in zip(py, nat)]),
               _spread([b / a for a, b in zip(rates[3], ref)]) if len(rates) > 3 else "-"]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- adapters


def pettingzoo_play(env: Any) -> Play:
    import numpy as np

    def play(rng: random.Random) -> int:
        env.reset(seed=rng.getrandbits(31))
        moves = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            moves += 1
        return moves
    return play


def agent_play(game: cardsmith.Game) -> Play:
    """The own API doing the work the PettingZoo env does for an agent at each step: the acting player's
    observation tensor, its legal actions, and the action applied (chance drawn from the seed)."""
    def play(rng: random.Random) -> int:
        s = game.new_initial_state(seed=rng.getrandbits(31))
        moves = 0
        while not s.is_terminal():
            s.observation_tensor(s.current_player())
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
            moves += 1
        return moves
    return play


def adapters(rounds: int, seconds: float, seed: int) -> list[list[str]]:
    import cardsmith.openspiel as cs_openspiel
    from cardsmith.pettingzoo import raw_env as pz_env  # unwrapped: PettingZoo's wrappers are not cardsmith's cost

    game = cardsmith.load("hearts", 4)
    rows = [["adapter", "loop", "adapter games/s", "own API games/s", "adapter/own API"]]
    # The adapters over the Python backend (their default is auto): their cost against the same backend's own API.
    adapted = cs_openspiel.load("hearts", 4, backend="python")
    sides = [("pyspiel game (`cardsmith.openspiel`)", "chance", pyspiel_play(adapted), chance_play(game)),
             ("PettingZoo env (`cardsmith.pettingzoo`)", "seeded", pettingzoo_play(pz_env(game)), seeded_play(game)),
             ("PettingZoo env (`cardsmith.pettingzoo`)", "seeded + observation tensor", pettingzoo_play(pz_env(game)),
              agent_play(game))]
    for title, loop, a, b in sides:
        rng = random.Random(seed)
        a(rng), b(rng)
        res = alternate_rates(a, b, rng, seconds, rounds)
        row = [title, loop, _median(res.mine), _median(res.theirs), res.text()]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


def _per_call(game: Any, what: Callable[[Any], Any], rng: random.Random, seconds: float) -> float:
    """Microseconds of CPU time per call of `what(state)`, at every decision node of random matches with
    chance drawn by the loop (the clock's own cost, timed the same way with nothing between, taken off)."""
    spent = 0.0
    calls = 0
    clock = time.process_time
    end = clock() + seconds
    while clock() < end:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            t0 = clock()
            t1 = clock()
            what(s)
            t2 = clock()
            spent += (t2 - t1) - (t1 - t0)
            calls += 1
            la = s.legal_actions()
            s.apply_action(la[int(rng.random() * len(la))])
    return max(spent, 0.0) / max(calls, 1) * 1e6


def calls(rounds: int, seconds: float, seed: int, backend: str = "python") -> list[list[str]]:
    """Hearts: the acting player's information state string and a clone, at every decision of random
    matches, through the own API, the pyspiel game and pyspiel's own hearts, alternated; with
    `backend="native"` the native backend's own API too."""
    import cardsmith.openspiel as cs_openspiel

    sides = [("cardsmith, own API", cardsmith.load("hearts", 4)), ("cardsmith, pyspiel game",
             cs_openspiel.load("hearts", 4, backend="python")), ("pyspiel hearts", pyspiel.load_game("hearts"))]
    if backend == "native":
        sides.insert(1, ("cardsmith native, own API", cardsmith.load("hearts", 4, backend="native")))
    whats: list[tuple[str, Callable[[Any], Any]]] = [
        ("information state string", lambda s: s.information_state_string(s.current_player())),
        ("clone", lambda s: s.clone())]
    rows = [["call", *[name + " us" for name, _ in sides]]]
    for label, what in whats:
        rng = random.Random(seed)
        times: list[list[float]] = [[] for _ in sides]
        for r in range(rounds):
            order = list(range(len(sides))) if r % 2 == 0 else list(reversed(range(len(sides))))
            for i in order:
                times[i].append(_per_call(sides[i][1], what, rng, seconds))
        row = [label, *[f"{statistics.median(t):.1f}" for t in times]]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


def strings(names: list[str], rounds: int, seconds: float, seed: int) -> list[list[str]]:
    """The acting player's information state string at every decision of random matches (chance drawn by the
    loop, the state one action on since the last), on the Python backend and the native backend, alternated."""
    rows = [["game", "players", "Python backend us", "native backend us", "Python/native time"]]
    for c in _chosen(names):
        mine = _load(c, "native")
        if mine is None:
            continue
        sides = [cardsmith.load(c.rule_file, c.players), mine]
        rng = random.Random(seed)
        times: list[list[float]] = [[], []]
        for r in range(rounds):
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                times[i].append(_per_call(sides[i], lambda s: s.information_state_string(s.current_player()),
                                          rng, seconds))
        ratio = [a / b for a, b in zip(*times)]
        row = [c.title, str(c.players), f"{statistics.median(times[0]):.1f}", f"{statistics.median(times[1]):.1f}",
               _spread(ratio)]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- seeding


def seeding(names: list[str], seconds: float, seed: int) -> list[list[str]]:
    """What a seeded match spends on seeding its random numbers: each shuffle and `pick` of a state made with
    a seed draws from a Mersenne Twister seeded with the seed the draw before left (engine/chance.py), which
    keeps every seeded match, record and test the same, and seeding one costs far more than drawing from
    it. The draws per match, the time of one seeding, and their share of a seeded match's time, next to
    pyspiel's time for a whole match of its game."""
    from cardsmith.engine import chance

    per = min(timeit_seeding() for _ in range(5))
    rows = [["game", "players", "seeded draws a match", "their time, us", "share of a seeded match",
             "pyspiel's whole match, us"]]
    for c in CLASSICS:
        if (names and c.rule_file not in names and c.openspiel not in names) or not _bundled(c.rule_file):
            continue
        g = cardsmith.load(c.rule_file, c.players)
        calls = [0]
        plain = chance._rng

        def counted(s: Any, _plain: Callable[[Any], Any] = plain, calls: list[int] = calls) -> Any:
            calls[0] += 1
            return _plain(s)

        rng = random.Random(seed)
        seeded = seeded_play(g)
        seeded(rng)
        matches = [0]

        def play(r: random.Random, _seeded: Play = seeded, matches: list[int] = matches) -> int:
            matches[0] += 1
            return _seeded(r)

        chance._rng = counted
        try:
            games = rate(play, rng, seconds)
        finally:
            chance._rng = plain
        draws = calls[0] / matches[0]
        ref = pyspiel.load_game(c.openspiel, _params(c))
        theirs = rate(pyspiel_play(ref), rng, seconds)
        rows.append([c.title, str(c.players), f"{draws:.1f}", f"{draws * per * 1e6:.0f}",
                     f"{draws * per * games:.0%}", f"{1e6 / theirs:.0f}"])
        print(" | ".join(rows[-1]), file=sys.stderr)
    return rows


def timeit_seeding() -> float:
    """Seconds of CPU time for one `random.Random(seed)` with a 64-bit seed, as a seeded draw makes it."""
    n = 20_000
    c0 = time.process_time()
    for k in range(n):
        random.Random(0x9E3779B97F4A7C15 + k)
    return (time.process_time() - c0) / n


# ---------------------------------------------------------------- start-up


def _wall(code: str) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - t


# What a program does before its first move: import the library, then (second row) load Kuhn poker too.
STARTS = (("`import cardsmith` / `import pyspiel`", "import cardsmith", "import pyspiel"),
          ("and load Kuhn poker", "import cardsmith; cardsmith.load('kuhn-poker', players=2)",
           "import pyspiel; pyspiel.load_game('kuhn_poker')"))


def startup(rounds: int) -> list[list[str]]:
    rows = [["import", "cardsmith ms", "pyspiel ms", "cardsmith/pyspiel time"]]
    for label, mine, theirs in STARTS:
        res = alternate(partial(_wall, mine), partial(_wall, theirs), rounds)
        slower = res.ratios  # times, not rates: cardsmith's time over pyspiel's
        row = [label, f"{statistics.median(res.mine) * 1000:.0f}", f"{statistics.median(res.theirs) * 1000:.0f}",
               f"{statistics.median(slower):.2f} ({min(slower):.2f}..{max(slower):.2f})"]
        print(" | ".join(row), file=sys.stderr)
        rows.append(row)
    return rows


def markdown(rows: list[list[str]]) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["playouts", "native-loop", "cfr", "adapters", "strings", "seeding", "import",
                                     "all"])
    ap.add_argument("games", nargs="*", help="playouts: the games to play (default: every classic)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of each side in a round (default 2)")
    ap.add_argument("--iterations", type=int, default=20,
                    help="cfr: CFR iterations on Kuhn poker per round, a tenth of them on Leduc (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", choices=["python", "native"], default="python",
                    help="playouts: cardsmith's backend (default python); cfr: native compares the Python "
                         "backend, the native backend and pyspiel's game; adapters: native adds the native "
                         "backend's own API to the table of calls")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--write", metavar="FILE",
                    help="also put the tables, as Markdown, in FILE between the lines BEGIN and END (the table of "
                         "docs/performance.md)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.iterations < 1:
        ap.error("--rounds, --seconds and --iterations must be positive")
    heading = (f"Measured on {time.strftime('%Y-%m-%d')} at commit {_commit()} by `python benchmarks/openspiel.py "
               f"{' '.join(sys.argv[1:] if argv is None else argv)}`: Python {sys.version.split()[0]}, open_spiel "
               f"{_openspiel_version()}, {args.rounds} alternating rounds.")
    print(heading, file=sys.stderr)
    tables = []
    if args.what in ("playouts", "all"):
        tables.append(playouts(args.games, args.rounds, args.seconds, args.seed, args.backend))
    if args.what == "native-loop":
        tables.append(native_loop(args.games, args.rounds, args.seconds, args.seed))
    if args.what in ("cfr", "all"):
        tables.append(cfr(args.rounds, args.iterations) if args.backend == "python" else
                      cfr_native(args.rounds, args.iterations))
    if args.what in ("adapters", "all"):
        tables.append(adapters(args.rounds, args.seconds, args.seed))
        tables.append(calls(args.rounds, args.seconds, args.seed, args.backend))
    if args.what == "strings":
        tables.append(strings(args.games, args.rounds, args.seconds, args.seed))
    if args.what in ("seeding", "all"):
        tables.append(seeding(args.games, args.seconds, args.seed))
    if args.what in ("import", "all"):
        tables.append(startup(max(args.rounds, 5)))
    for t in tables:
        print(markdown(t) if args.markdown else "\n".join("  ".join(r) for r in t))
        print()
    if args.write:
        write(args.write, heading + "\n\n" + "\n\n".join(markdown(t) for t in tables))
    return 0


BEGIN = "<!-- benchmarks/openspiel.py: begin (generated; do not edit) -->"
END = "<!-- benchmarks/openspiel.py: end -->"


def write(path: str, text: str) -> None:
    """Put `text` between the BEGIN and END lines of the file at `path`."""
    doc = Path(path).read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{path} has no lines {BEGIN!r} and {END!r} to write between")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    Path(path).write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                             cwd=str(Path(__file__).parent))
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def _openspiel_version() -> str:
    from importlib.metadata import version
    try:
        return version("open_spiel")
    except Exception:  # noqa: BLE001
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
