"""How often `resample_from_infostate` finds a state, and how long it takes, on the bundled games.

    python benchmarks/resample.py [--states N] [GAME ...]
    python benchmarks/resample.py --table [--states N] [--workers W] [--write FILE] [--min-rate R] [GAME ...]

Without --table: each game at 4 players, or its smallest count without 4, N states (30 by default), a line
per game with the median and the longest time and how many gave up (a quick look).

With --table: each game at two player counts, the largest it allows up to 10 and the middle of its range
(rounded up); a game for one count is measured once. Go Fish, for 2 to 10, is measured at 6 and 10.
N states per setting (30 by default; the measure of docs/performance.md is 1,000) reached by 10 to 150
random events of a match, half of them seeded (the others deal lazily, and some stop at a chance node),
each resampled for a random seat.
Reports per setting the share of states resampled (the others gave up: `GameError`), the median and the
90th percentile of the time per resample, and the longest (CPU time of the process that resampled, so a
busy machine does not inflate them). The states and seeds come from a fixed random
sequence per setting, so runs compare; `--write FILE` puts the table between the generated markers of FILE
(docs/performance.md), and `--min-rate R` exits with status 1 if a setting found fewer than R of its states.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import cardsmith
from cardsmith import BadOption, GameError

MAX_PLAYERS = 10


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


def counts(name: str) -> list[int]:
    """The player counts a game is measured at: the middle of its range and its largest, up to MAX_PLAYERS."""
    ok = []
    for n in range(1, MAX_PLAYERS + 1):
        try:
            cardsmith.load(name, players=n)
        except BadOption:
            continue
        ok.append(n)
    if not ok:
        return []
    return sorted({(ok[0] + ok[-1] + 1) // 2, ok[-1]})


def measure(task: tuple[str, int, int]) -> tuple[str, int, int, int, list[float]]:
    """(game, players, states, gave up, seconds per resample) of one setting."""
    name, n, states = task
    game = cardsmith.load(name, players=n)
    rng = random.Random(f"{name}:{n}")
    times: list[float] = []
    gave_up = 0
    for _ in range(states):
        s = reach(game, rng)
        p, seed = rng.randrange(n), rng.getrandbits(32)
        t0 = time.process_time()
        try:
            s.resample_from_infostate(p, seed)
        except GameError:
            gave_up += 1
        times.append(time.process_time() - t0)
    return name, n, states, gave_up, times


def row(name: str, n: int, states: int, gave_up: int, times: list[float]) -> list[str]:
    ms = sorted(t * 1000 for t in times)
    p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
    return [name, str(n), f"{states:,}", f"{100 * (states - gave_up) / states:.1f}%", f"{gave_up:,}",
            f"{statistics.median(ms):.1f}", f"{p90:.0f}", f"{ms[-1] / 1000:.2f}"]


HEAD = ["game", "players", "states", "found", "gave up", "median ms", "p90 ms", "longest s"]  # CPU time
BEGIN = "<!-- benchmarks/resample.py: begin (generated; do not edit) -->"
END = "<!-- benchmarks/resample.py: end -->"


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
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", help="bundled game names (default: all)")
    ap.add_argument("--states", type=int, default=30, help="states per game and player count (default 30)")
    ap.add_argument("--table", action="store_true", help="two player counts per game, as a table")
    ap.add_argument("--players", type=int, nargs="*", help="these player counts instead (each the game allows)")
    ap.add_argument("--workers", type=int, default=1, help="settings measured at once, one per process")
    ap.add_argument("--write", metavar="FILE", help="also put the table in FILE between the generated markers")
    ap.add_argument("--min-rate", type=float, default=0.0,
                    help="exit with status 1 if a setting found fewer than this share of its states")
    args = ap.parse_args(argv)
    names = args.games or sorted(cardsmith.bundled_games())
    if not args.table:
        quick(names, args.states)
        return 0
    tasks = []
    for name in names:
        ns = counts(name) if not args.players else [n for n in args.players if n in counts(name) or _allows(name, n)]
        tasks.extend((name, n, args.states) for n in ns)
    heading = (f"Measured on {time.strftime('%Y-%m-%d')} at commit {_commit()} by `python benchmarks/resample.py "
               f"{' '.join(sys.argv[1:] if argv is None else argv)}`: Python {sys.version.split()[0]}.")
    print(heading, file=sys.stderr)
    rows = [HEAD]
    worst = 1.0
    if args.workers > 1:
        with multiprocessing.get_context().Pool(args.workers) as pool:
            results = pool.imap(measure, tasks)
            for r in results:
                rows.append(row(*r))
                worst = min(worst, 1 - r[3] / r[2])
                print("  ".join(rows[-1]), flush=True)
    else:
        for t in tasks:
            r = measure(t)
            rows.append(row(*r))
            worst = min(worst, 1 - r[3] / r[2])
            print("  ".join(rows[-1]), flush=True)
    table = "\n".join(["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])] +
                      ["| " + " | ".join(r) + " |" for r in rows[1:]])
    if args.write:
        write(args.write, heading + "\n\n" + table)
    if worst < args.min_rate:
        print(f"a setting found {100 * worst:.1f}% of its states, below {100 * args.min_rate:.1f}%", file=sys.stderr)
        return 1
    return 0


def quick(names: list[str], states: int) -> None:
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
        for _ in range(states):
            s = reach(game, rng)
            p, seed = rng.randrange(n), rng.getrandbits(32)
            t0 = time.perf_counter()
            try:
                s.resample_from_infostate(p, seed)
            except GameError:
                gave_up += 1
            times.append(time.perf_counter() - t0)
        print(f"{name} {n}p: median {statistics.median(times) * 1000:.0f} ms, longest {max(times):.2f} s, "
              f"gave up {gave_up} of {states}", flush=True)


def _allows(name: str, n: int) -> bool:
    try:
        cardsmith.load(name, players=n)
    except BadOption:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
