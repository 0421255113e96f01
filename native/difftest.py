"""Differential test: the Python backend (cardsmith.load, optimized) and a native prototype play the same
random matches, chance drawn by the loop: the same legal sets (chance outcomes included) at every node and
the same returns at the end.

    python native/difftest.py a|b|split [GAME:PLAYERS[:OPTION=VALUE,...] ...] [--matches N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardsmith  # noqa: E402


def native_game(design: str, name: str, players: int, options: dict[str, str] | None = None) -> Any:
    from build import build_a, build_split, game_b
    return {"a": build_a, "b": game_b, "split": build_split}[design](name, players, options)[0]


def compare(py: Any, nat: Any, matches: int, seed: int) -> tuple[int, int, str | None]:
    """(matches, nodes) played in agreement, or the first disagreement."""
    rng = random.Random(seed)
    nodes = 0
    for m in range(matches):
        a, b = py.new_initial_state(), nat.new_initial_state()
        while True:
            nodes += 1
            if a.is_terminal() != b.is_terminal():
                return m, nodes, f"match {m}: terminal {a.is_terminal()} vs {b.is_terminal()}"
            if a.is_terminal():
                ra, rb = a.returns(), b.returns()
                if any(abs(x - y) > 1e-9 for x, y in zip(ra, rb)):
                    return m, nodes, f"match {m}: returns {ra} vs {rb}"
                break
            if a.is_chance_node() != b.is_chance_node():
                return m, nodes, f"match {m}: chance {a.is_chance_node()} vs {b.is_chance_node()}"
            if a.is_chance_node():
                la = [o for o, _ in a.chance_outcomes()]
                lb = [o for o, _ in b.chance_outcomes()]
            else:
                if a.current_player() != b.current_player():
                    return m, nodes, f"match {m}: player {a.current_player()} vs {b.current_player()}"
                la, lb = a.legal_actions(), b.legal_actions()
            if la != lb:
                return m, nodes, f"match {m} node {nodes}: legal {la} vs {lb}"
            x = la[rng.randrange(len(la))]
            a.apply_action(x)
            b.apply_action(x)
    return matches, nodes, None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("design", choices=["a", "b", "split"])
    ap.add_argument("games", nargs="*", default=["hearts:4", "go-fish:2"])
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    bad = 0
    for spec in args.games:
        name, players, *opts = spec.split(":")
        options = dict(o.split("=") for o in opts[0].split(",")) if opts else {}
        py = cardsmith.load(name, players=int(players), options=options)
        nat = native_game(args.design, name, int(players), options)
        m, nodes, err = compare(py, nat, args.matches, args.seed)
        print(f"{args.design} {spec}: {m} matches, {nodes} nodes agree" + (f"; DISAGREE: {err}" if err else ""))
        bad += err is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
