"""Each bundled game's OpenSpiel bounds against what random play reaches.

    python benchmarks/limits.py [GAME ...] [--matches N] [--backend native|python] [--markdown]

For each bundled game at its fewest and its most players (default options), N random matches (default
10,000) made without a seed, as OpenSpiel plays them: every chance outcome and every player action drawn
uniformly by this loop. Per game: the longest match in player actions against `max_game_length()`, and the
most outcomes any chance node offered against `max_chance_outcomes()` and the pack. `ratio` is the bound
over the longest match (the issue's target: at most 2). The native backend plays the same matches as the
Python one (the same states, move for move), faster. `--markdown` prints the table docs/research.md holds.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

import cardsmith
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine.bundled import bundled_games


def measure(path: Path, players: int, matches: int, backend: str, seed: int = 1) -> dict[str, object]:
    g = cardsmith.load(path, players, backend=backend)
    rng = random.Random(seed)
    longest = most_outcomes = most_chance = 0
    start = time.process_time()
    for _ in range(matches):
        s = g.new_initial_state()
        actions = chance = 0
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                most_outcomes = max(most_outcomes, len(outcomes))
                chance += 1
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        longest = max(longest, actions)
        most_chance = max(most_chance, chance)
    bound = g.max_game_length()
    return {"game": path.stem, "players": players, "matches": matches, "longest": longest,
            "max_game_length": bound, "ratio": bound / longest if longest else float("inf"),
            "chance_nodes": most_chance, "chance_bound": g.max_chance_nodes_in_history(),
            "chance_open": g.max_chance_nodes_in_history() == (g.action_limit + 1) * g.limits.steps,
            "outcomes": most_outcomes, "max_chance_outcomes": g.max_chance_outcomes(),
            "pack": g.num_cards, "declared": g.declared.actions is not None, "seconds": time.process_time() - start}


def counts(path: Path) -> list[int]:
    r = compile_file(path)
    assert r.game is not None, path
    sp = r.game.spec
    return sorted({sp.min_players, sp.max_players})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="bundled games by name (default: all)")
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--backend", default="native", choices=["native", "python"])
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    games = bundled_games()
    names = a.games or sorted(games)
    rows = []
    for name in names:
        for n in counts(games[name]):
            row = measure(games[name], n, a.matches, a.backend)
            rows.append(row)
            print(row, file=sys.stderr if a.markdown else sys.stdout, flush=True)
    if a.markdown:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip() or "?"
        print(f"{a.matches:,} random matches per row, {a.backend} backend, at {commit}, "
              f"{time.strftime('%Y-%m-%d', time.gmtime())}:\n")
        print("| game | players | longest match (player actions) | `max_game_length` | ratio | "
              "most chance nodes in a match | `max_chance_nodes_in_history` | most outcomes of a chance node | "
              "`max_chance_outcomes` | pack |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            bound = f"{r['max_game_length']:,}" + ("" if r["declared"] else " (limit)")
            print(f"| {r['game']} | {r['players']} | {r['longest']:,} | {bound} | {r['ratio']:.2f} | "
                  f"{r['chance_nodes']:,} | {'(budget)' if r['chance_open'] else format(r['chance_bound'], ',')} | "
                  f"{r['outcomes']} | {r['max_chance_outcomes']:,} | {r['pack']} |")
        print("\nAction ids and results at each game's fewest players (default options), from the rule file:\n")
        print("| game | players | `num_distinct_actions` | `min_utility` | `max_utility` | utility | from |")
        print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
        for name in names:
            n = counts(games[name])[0]
            g = cardsmith.load(games[name], n, backend="python")
            kind = "zero-sum" if g.zero_sum else "constant-sum" if g.utility_sum is not None else "general-sum"
            source = "`match: returns`" if g.spec.match.returns is not None else "the winners' share"
            print(f"| {name} | {n} | {g.num_distinct_actions():,} | {_num(g.min_utility)} | {_num(g.max_utility)} "
                  f"| {kind} | {source} |")
    return 0


def _num(v: float | None) -> str:
    if v is None:
        return "open"
    return f"{v:g}"


if __name__ == "__main__":
    sys.exit(main())
