"""The differential test of the native backend: it and the Python backend play the same random matches in
lockstep, chance drawn by the loop, and must agree on the player to act, every legal set and chance-outcome
list, every player's observation (the dict and its string) and information-state string at every node,
and the returns. `cases` lists what to play for a game: each player count it allows (up to the native backend's
62) at its defaults, then each option's other values (a flag flipped, the other choices, an int's bounds) at its lowest
player count. With `--positions-every K`, at every K-th node between steps the two states' whole positions
are compared too (position.py: hidden cards in order, variables nobody sees, who moved each card), and the
Python state's position is carried into a new native state, which must give back the same words and the same
legal actions.

    python -m cardsmith.native.difftest GAME... [--matches N] [--option-matches M] [--seed S] [--plain]
                                        [--views-every K] [--positions-every K]
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from .lower import MAX_PLAYERS  # (the seats the native backend covers)


def compare(py: Any, nat: Any, matches: int, seed: int, views_every: int = 1,
            positions_every: int = 0) -> tuple[int, int, str | None]:
    """(matches, nodes) played in agreement, or the first disagreement. Every player's observation and
    information-state string are compared at every `views_every`-th node (the Python backend's are most of
    the time of a long run; 0: never, for states that have none, as the prototypes'), the whole positions at
    every `positions_every`-th (0: never; `nat` a NativeGame)."""
    rng = random.Random(seed)
    nodes = 0
    n = py.num_players()
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
            for p in range(n if views_every and nodes % views_every == 0 else 0):
                if a.observation(p) != b.observation(p) or a.observation_string(p) != b.observation_string(p):
                    return m, nodes, f"match {m} node {nodes}: P{p}'s observation differs"
                if a.information_state_string(p) != b.information_state_string(p):
                    return m, nodes, f"match {m} node {nodes}: P{p}'s information state string differs"
            if a.is_chance_node() != b.is_chance_node():
                return m, nodes, f"match {m} node {nodes}: chance {a.is_chance_node()} vs {b.is_chance_node()}"
            if a.is_chance_node():
                la = [o for o, _ in a.chance_outcomes()]
                lb = [o for o, _ in b.chance_outcomes()]
            else:
                if a.current_player() != b.current_player():
                    return m, nodes, f"match {m} node {nodes}: player {a.current_player()} vs {b.current_player()}"
                la, lb = a.legal_actions(), b.legal_actions()
                if positions_every and nodes % positions_every == 0:
                    err = _positions(nat, a, b, la)
                    if err is not None:
                        return m, nodes, f"match {m} node {nodes}: {err}"
            if la != lb:
                return m, nodes, f"match {m} node {nodes}: legal {la} vs {lb}"
            x = la[rng.randrange(len(la))]
            a.apply_action(x)
            b.apply_action(x)
    return matches, nodes, None


def _positions(nat: Any, a: Any, b: Any, legal: list[int]) -> str | None:
    """Where the whole positions of the Python state `a` and the native state `b` differ, or where `a`'s
    position carried into a new native state does not give back the same words and legal actions."""
    from .position import native_at, position
    lay = nat.position_layout
    words = lay.words(a)
    diff = lay.difference(words, position(b) or [])
    if diff is not None:
        return f"the positions differ: {diff} (Python, native)"
    c = native_at(nat, a)
    diff = lay.difference(words, position(c) or [])
    if diff is not None:
        return f"the carried position differs: {diff} (Python, native)"
    return None if c.legal_actions() == legal else f"the carried position's legal actions: {c.legal_actions()}"


def cases(name: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) to play: every player count at the defaults, then each option's other values."""
    from ..dsl.pipeline import compile_file
    from ..engine.bundled import resolve
    from ..engine.game import Game
    r = compile_file(resolve(name), optimize=False)
    assert r.game is not None, r.diagnostics
    spec = r.game.spec
    out: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in range(spec.min_players,
                                                                  min(spec.max_players, MAX_PLAYERS) + 1)]
    n = spec.min_players
    base = Game(r.game, n, {})
    for o in spec.options:
        now = base.options[o.name]
        if o.kind == "bool":
            values: list[Any] = [not now]
        elif o.kind == "choice":
            values = [v for v in o.values if v != now]
        else:
            lo, hi = base.option_ranges.get(o.name, (o.min, o.max))
            values = [v for v in dict.fromkeys((lo, hi)) if v is not None and v != now]
        out += [(n, {o.name: v}) for v in values]
    return out


def run(name: str, players: int, options: dict[str, Any], matches: int, seed: int,
        plain: bool = False, views_every: int = 1, positions_every: int = 0) -> tuple[int, int, str | None]:
    """`plain`: against the Python backend compiled without the optimizer (what the native backend is lowered
    from), instead of `cardsmith.load`'s."""
    import cardsmith

    from .build import plain_game
    py = plain_game(name, players, options) if plain else cardsmith.load(name, players=players, options=options)
    return compare(py, cardsmith.load(name, players=players, options=options, backend="native"), matches, seed,
                   views_every, positions_every)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cardsmith.native.difftest")
    ap.add_argument("games", nargs="+")
    ap.add_argument("--matches", type=int, default=1000, help="per player count")
    ap.add_argument("--option-matches", type=int, default=300, help="per option value")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plain", action="store_true", help="against the Python backend compiled without the optimizer")
    ap.add_argument("--views-every", type=int, default=1, metavar="K",
                    help="compare the observations and information-state strings at every K-th node (1: every node)")
    ap.add_argument("--positions-every", type=int, default=0, metavar="K",
                    help="compare the whole positions, and carry the Python one natively, at every K-th node")
    args = ap.parse_args(argv)
    bad = 0
    for name in args.games:
        for players, options in cases(name):
            k = args.option_matches if options else args.matches
            try:
                m, nodes, err = run(name, players, options, k, args.seed, args.plain, max(1, args.views_every),
                                    max(0, args.positions_every))
            except Exception as e:  # noqa: BLE001 - a case that cannot be set up is reported, not fatal
                m, nodes, err = 0, 0, f"{type(e).__name__}: {e}"
            opts = ",".join(f"{k}={v}" for k, v in options.items())
            print(f"{name}:{players}{':' + opts if opts else ''}: {m} matches, {nodes} nodes agree"
                  + (f"; DISAGREE: {err}" if err else ""), flush=True)
            bad += err is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
