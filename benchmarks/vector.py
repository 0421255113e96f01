"""The batched environment's throughput: `cardsmith.vector.VectorEnv` on each backend against a plain loop over N
pyspiel states of OpenSpiel's own game, alternated in one process (issue 34).

    python benchmarks/vector.py [--rounds R] [--seconds S] [--sizes 1,16,64] [--backends python,native] [GAME ...]
    # GAME: hearts, kuhn, leduc
    python benchmarks/vector.py --opponents "ismcts(iterations=50)" --sizes 4 hearts   # the backends alone

A step is one learner decision in each of N matches: seat 0 is the learner, choosing uniformly among its legal
actions from the batched action mask; every other seat is a uniform random player, moved inside the step. Each
side, for N matches at once:
- `VectorEnv(game, N, seat=0, opponents="random", backend=...)`: `step(actions)` (autoreset "next_step": the
  step after a match ends starts the next one), its observations seat 0's observation tensors, float32 (N, size),
  and the masks int8 (N, actions); chance drawn inside each match from its seed.
- OpenSpiel: N states of pyspiel's game in a Python loop doing the same work: the learner's action applied, then
  the random seats and chance (drawn by the loop from `chance_outcomes()`) until seat 0 is to act again or the
  match ends (then a new state, on the next step, as next-step autoreset does), seat 0's tensor written into a
  float32 (N, size) array (the observation tensor where the game has one, else the information-state tensor:
  Hearts) and the legal actions into an int8 mask.
steps/s counts learner steps (N per call) per second of CPU time (`time.process_time`), the figure being the
median over rounds of `--seconds` each, the sides in turn (the order reversed every other round). The ratio is of
rates, each round's, median (lowest..highest). Building a native game and making the envs are not timed. Needs the
`rl` extra (pyspiel, numpy, gymnasium).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

# cardsmith's bundled game and player count, and pyspiel's game of the same name, for each name here.
GAMES = {"hearts": ("hearts", 4, "hearts"), "kuhn": ("kuhn-poker", 2, "kuhn_poker"),
         "leduc": ("leduc-poker", 2, "leduc_poker")}


def cardsmith_side(game: Any, n: int, opponents: str = "random") -> Callable[[float], float]:
    """A measure of `VectorEnv` on a loaded game: learner steps per CPU second for about `seconds`."""
    from cardsmith.vector import VectorEnv
    env = VectorEnv(game, n, seat=0, opponents=opponents, copy=False)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=1)

    def measure(seconds: float) -> float:
        nonlocal obs
        steps, c0 = 0, time.process_time()
        while True:
            for _ in range(8):
                obs, _, _, _, _ = env.step((rng.random(obs["action_mask"].shape) + obs["action_mask"]).argmax(1))
            steps += 8 * n
            spent = time.process_time() - c0
            if spent >= seconds:
                return steps / spent
    return measure


class _Pyspiel:
    """N pyspiel states stepped as `VectorEnv` steps its matches (the module's docstring)."""

    def __init__(self, name: str, n: int) -> None:
        import pyspiel
        self.game = pyspiel.load_game(name)
        self.info = not self.game.get_type().provides_observation_tensor
        shape = self.game.information_state_tensor_shape() if self.info else self.game.observation_tensor_shape()
        self.obs = np.zeros((n, shape[0]), np.float32)
        self.mask = np.zeros((n, self.game.num_distinct_actions()), np.int8)
        self.rng = random.Random(1)
        self.states = [self._new() for _ in range(n)]
        for i in range(n):
            self._write(i)

    def _new(self) -> Any:
        s = self.game.new_initial_state()
        self._advance(s)
        return s

    def _advance(self, s: Any) -> None:
        rng = self.rng
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            elif s.current_player() == 0:
                return
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])

    def _write(self, i: int) -> None:
        s = self.states[i]
        self.mask[i] = 0
        if not s.is_terminal():
            self.mask[i, s.legal_actions()] = 1
        self.obs[i] = s.information_state_tensor(0) if self.info else s.observation_tensor(0)

    def step(self, actions: Any) -> None:
        for i, s in enumerate(self.states):
            if s.is_terminal():
                s = self.states[i] = self._new()
            else:
                s.apply_action(int(actions[i]))
                self._advance(s)
            self._write(i)


def openspiel_side(name: str, n: int) -> Callable[[float], float]:
    env = _Pyspiel(name, n)
    rng = np.random.default_rng(0)

    def measure(seconds: float) -> float:
        steps, c0 = 0, time.process_time()
        while True:
            for _ in range(8):
                env.step((rng.random(env.mask.shape) + env.mask).argmax(1))
            steps += 8 * n
            spent = time.process_time() - c0
            if spent >= seconds:
                return steps / spent
    return measure


def _pyspiel_size(name: str) -> int:
    """The size of the tensor the OpenSpiel loop writes (`_Pyspiel`)."""
    return int(_Pyspiel(name, 1).obs.shape[1])


def _range(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f}x ({min(xs):.2f}..{max(xs):.2f})"


def header() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        commit = "?"
    from importlib.metadata import version
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{when}, at {commit}, load average {load}; open_spiel {version('open_spiel')}, "
            f"gymnasium {version('gymnasium')}, numpy {version('numpy')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", choices=[[], *GAMES], default=[])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--sizes", default="1,16,64", help="the numbers of matches N, comma-separated")
    ap.add_argument("--backends", default="python,native", help="cardsmith's backends to measure, comma-separated")
    ap.add_argument("--opponents", default="random",
                    help="the other seats' bots (`simulate --bots` specs); other than random, OpenSpiel's loop is "
                         "left out and the backends are compared with the first one")
    args = ap.parse_args()
    import cardsmith
    sizes = [int(x) for x in args.sizes.split(",")]
    backends = [b for b in args.backends.split(",") if b]
    cols = [f"cardsmith {b}" for b in backends]
    openspiel = args.opponents == "random"
    base_key = "OpenSpiel loop" if openspiel else cols[0]
    compared = cols if openspiel else cols[1:]
    shown = [*cols, "OpenSpiel loop"] if openspiel else cols
    base_name = "OpenSpiel" if openspiel else backends[0]
    print(header() + ("" if openspiel else f"; opponents {args.opponents}"))
    floats_col = "floats (cardsmith, OpenSpiel)" if openspiel else "floats"
    heads = ["game", floats_col, "N", *shown, *(f"{k.split()[-1]} / {base_name}" for k in compared)]
    print(f"| {' | '.join(heads)} |")
    print("|" + " --- |" * len(heads))
    for name in args.games or list(GAMES):
        file, players, os_name = GAMES[name]
        games = {b: cardsmith.load(file, players, backend=b) for b in backends}
        for n in sizes:
            sides: dict[str, Callable[[float], float]] = {
                f"cardsmith {b}": cardsmith_side(games[b], n, args.opponents) for b in backends}
            if openspiel:
                sides["OpenSpiel loop"] = openspiel_side(os_name, n)
            rates: dict[str, list[float]] = {k: [] for k in sides}
            order = list(sides)
            for r in range(args.rounds):
                for key in order[::-1] if r % 2 else order:
                    rates[key].append(sides[key](args.seconds))
            base = rates[base_key]
            figures = [f"{statistics.median(rates[k]):,.0f}" for k in shown]
            ratios = [_range([a / b for a, b in zip(rates[k], base)]) for k in compared]
            floats = f"{games[backends[0]].observation_tensor_shape()[0]:,}" + \
                (f", {_pyspiel_size(os_name):,}" if openspiel else "")
            print(f"| {' | '.join([name, floats, str(n), *figures, *ratios])} |", flush=True)


if __name__ == "__main__":
    main()
