"""The native resampler's Search against the Python one (issue 33, stage A): CPU time per replayed step.

    python benchmarks/native_search.py [GAME:PLAYERS ...] [--states N] [--budget B] [--rounds R]

For each game (hearts:4 by default), N native states of random matches (40 by default) after 10 to 60 random
actions, each searched for the player to act, as `resample_with_work` searches (step 1 once, then a
backtracking `Search` of B replayed steps, 6,000 by default: a scout's share; `--kind descent` or `deals`:
the descent's or the constraint layer's search instead). Rounds alternate the two in one
process (Python then native, then native then Python, ...), each round every state with the same seeds on
both, so a busy machine slows both alike. Both give the same histories and the same replayed steps (checked
here too, as tests/test_native_resample.py does), so the time per replayed step compares like for like.

Prints per round each side's microseconds per replayed step and their ratio, then the median ratio with its
lowest and highest; and step 1 (`Info`) per state on each side.

With `--ismcts BOT` (a bot spec: `ismcts`, `ismcts(iterations=400)`...): N decisions of the bot on those
states, with the native resampler and with the Python one on the native state's twin, alternated; the CPU
time per decision of each and their ratio (the bot must choose alike with both).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import cardsmith
from cardsmith.bots import view
from cardsmith.bots.spec import make_bot
from cardsmith.bots.view import SeatView
from cardsmith.engine.resample.constraints import Deals
from cardsmith.engine.resample.descent import Descent
from cardsmith.engine.resample.info import Info
from cardsmith.engine.resample.search import Search
from cardsmith.native import resample as nr

KINDS: dict[str, Any] = {"search": Search, "descent": Descent, "deals": Deals}


def states(g: Any, n: int, rnd: random.Random) -> list[tuple[Any, int]]:
    out: list[tuple[Any, int]] = []
    while len(out) < n:
        s = g.new_initial_state(rnd.randrange(10**6) if len(out) % 2 == 0 else None)
        for _ in range(rnd.randrange(10, 60)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(rnd.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rnd.choice(s.legal_actions()))
        while not s.is_terminal() and s.is_chance_node():
            s.apply_action(rnd.choice([a for a, _ in s.chance_outcomes()]))
        if not s.is_terminal():
            out.append((s, s.current_player()))
    return out


def measure(spec: str, n: int, budget: int, rounds: int, kind: str = "search") -> None:
    name, players = spec.split(":")
    g = cardsmith.load(name, players=int(players), backend="native")
    picked = states(g, n, random.Random(1))
    t0 = time.process_time()
    infos = [s.python_state()._evaluating(Info, p) for s, p in picked]
    t1 = time.process_time()
    nis = [nr.info(s, p) for s, p in picked]
    t2 = time.process_time()
    print(f"{spec} ({kind}): {n} states; step 1 (Info) per state: Python {1e3 * (t1 - t0) / n:.2f} ms, "
          f"native {1e3 * (t2 - t1) / n:.2f} ms (native Info includes its replay)")
    ratios = []
    for r in range(rounds):
        seeds = [random.Random(r * 1000 + k).getrandbits(32) for k in range(n)]
        times: dict[str, float] = {}
        works: dict[str, list[Any]] = {}
        for side in (("python", "native") if r % 2 == 0 else ("native", "python")):
            start = time.process_time()
            got = []
            for (_s, p), info, ni, seed in zip(picked, infos, nis, seeds):
                if side == "python":
                    search = KINDS[kind](info, p, random.Random(seed), budget)
                    found = search.run()
                    got.append((found is not None, search.work))
                else:
                    steps, work, _, _ = nr.search(g, ni, random.Random(seed), budget, kind)
                    got.append((steps is not None, work))
            times[side] = time.process_time() - start
            works[side] = got
        assert works["python"] == works["native"], "the two searches differ"
        steps_done = sum(w for _, w in works["python"])
        py_us, na_us = (1e6 * times[k] / steps_done for k in ("python", "native"))
        ratios.append(py_us / na_us)
        print(f"  round {r + 1}: {steps_done:,} replayed steps, {sum(f for f, _ in works['python'])} of {n} "
              f"found; Python {py_us:.2f} us/step, native {na_us:.3f} us/step: {py_us / na_us:.1f}x")
    print(f"  median {statistics.median(ratios):.1f}x ({min(ratios):.1f}..{max(ratios):.1f})")


def ismcts(spec: str, n: int, rounds: int, bot: str) -> None:
    """The bot's decisions on native states with the native resampler and with the Python one on the twin
    (`view.NATIVE_RESAMPLE`), alternated; both must choose alike (the same worlds)."""
    name, players = spec.split(":")
    g = cardsmith.load(name, players=int(players), backend="native")
    picked = states(g, n, random.Random(2))
    ratios = []
    for r in range(rounds):
        times: dict[bool, float] = {}
        chose: dict[bool, list[int]] = {}
        for native in ((True, False) if r % 2 else (False, True)):
            view.NATIVE_RESAMPLE = native
            start = time.process_time()
            chose[native] = [make_bot(bot, g, p, 1000 * r + k).choose(SeatView(s.clone(), p))
                             for k, (s, p) in enumerate(picked)]
            times[native] = time.process_time() - start
        assert chose[True] == chose[False], "the two chose differently"
        ratios.append(times[False] / times[True])
        print(f"  round {r + 1}: {n} decisions of {bot}; CPU per decision: Python resampler "
              f"{times[False] / n:.3f} s, native {times[True] / n:.3f} s: {ratios[-1]:.2f}x")
    view.NATIVE_RESAMPLE = True
    print(f"  median {statistics.median(ratios):.2f}x ({min(ratios):.2f}..{max(ratios):.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=["hearts:4"])
    ap.add_argument("--states", type=int, default=40)
    ap.add_argument("--budget", type=int, default=6000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kind", choices=nr.KINDS, default="search", help="the search measured (search.py's Search, "
                    "descent.py's Descent, constraints.py's Deals)")
    ap.add_argument("--ismcts", metavar="BOT", help="time this bot's decisions instead (e.g. ismcts)")
    a = ap.parse_args()
    for spec in a.games:
        if a.ismcts:
            ismcts(spec, a.states, a.rounds, a.ismcts)
        else:
            measure(spec, a.states, a.budget, a.rounds, a.kind)


if __name__ == "__main__":
    main()
