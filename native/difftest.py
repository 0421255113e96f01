"""Differential test: the Python backend (cardsmith.load, optimized) and a native prototype play the same
random matches, chance drawn by the loop: the same legal sets (chance outcomes included) at every node and
the same returns at the end.

    python native/difftest.py a|b|split [GAME:PLAYERS[:OPTION=VALUE,...] ...] [--matches N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardsmith  # noqa: E402
from cardsmith.native import difftest  # noqa: E402  (the one lockstep loop, the package's)


def compare(py: Any, nat: Any, matches: int, seed: int) -> tuple[int, int, str | None]:
    """The package's lockstep loop without the observations, which the prototypes' states do not give."""
    return difftest.compare(py, nat, matches, seed, views_every=0)


def native_game(design: str, name: str, players: int, options: dict[str, str] | None = None) -> Any:
    from build import build_a, build_split, game_b
    return {"a": build_a, "b": game_b, "split": build_split}[design](name, players, options)[0]


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
