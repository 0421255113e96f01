"""The tensor sizes of every bundled game: the table "Tensors" of docs/research.md.

    python benchmarks/tensors.py [--markdown]

For each bundled game at its fewest and most players (default options): the observation tensor's length,
the information state tensor's history (frames of how many floats, for how many moves: the game's
`max_game_length`, at most `recall.MAX_MOVES`) and its whole length. Nothing is timed: the sizes follow
from the rule files, and tests/test_recall.py checks the table in the docs is this one.
"""

from __future__ import annotations

import argparse
import sys

from cardsmith.api import load
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine import recall, tensors
from cardsmith.engine.bundled import bundled_games, resolve


def rows() -> list[str]:
    out = ["| game | players | observation | history: frame x moves | information state |",
           "| --- | ---: | ---: | ---: | ---: |"]
    for name in bundled_games():
        for n in _players(name):
            g = load(name, n)
            frame = sum(size for _, size in recall.frame_layout(g))
            out.append(f"| {name} | {n} | {tensors.observation_size(g):,} | {frame:,} x {recall.frames(g) - 1:,} | "
                       f"{tensors.information_state_tensor_shape(g)[0]:,} |")
    return out


def _players(name: str) -> list[int]:
    """The fewest and the most players of the rule file."""
    r = compile_file(resolve(name))
    assert r.game is not None, name
    return sorted({r.game.spec.min_players, r.game.spec.max_players})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", action="store_true", help="the table as docs/research.md holds it (the default)")
    ap.parse_args(argv)
    print("\n".join(rows()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
