"""Play in the terminal: you take one seat, bots take the others."""

from __future__ import annotations

import random
import sys

from ..bots import SeatView, make_bot, parse_bots, seat_seed, strategy_names
from ..engine.game import Game
from ..engine.state import State
from ..engine.text import one_line


def _show(g: Game, obs: dict) -> str:
    lines = [f"-- deal {obs['deal']}, phase {obs['phase']}, dealer {g.player_name(obs['dealer'])}"]
    for name, v in obs["zones"].items():
        if isinstance(v, list):
            if v:
                lines.append(f"   {name}: {', '.join(v)}")
        elif v:
            lines.append(f"   {name}: {v} card(s), face down")
    for name, v in obs["variables"].items():
        lines.append(f"   {name} = {v}")
    return "\n".join(lines)


def play(g: Game, seat: int, seed: int | None, bots_spec: str) -> int:
    if not 0 <= seat < g.n:
        print(f"cardsmith: error: --seat must be 0 to {g.n - 1}", file=sys.stderr)
        return 2
    seed = seed if seed is not None else random.randrange(2**31)
    specs = parse_bots(bots_spec, g.n - 1, strategy_names(g)) if g.n > 1 else []
    others = [p for p in range(g.n) if p != seat]
    bots = {p: make_bot(spec, g, p, seat_seed(seed, p)) for p, spec in zip(others, specs)}
    s = State.initial(g, seed, log=True)
    seen = 0
    print(one_line(f"{g.name}: you are {g.player_name(seat)}. Type the number of an action, or q to quit."))
    while True:
        log = s.log or []
        for ev in log[seen:]:
            if ev[0] == "action" and ev[1] != seat:
                print(one_line(f"   {g.player_name(ev[1])}: {ev[3]}"))
            elif ev[0] == "announce":
                print(one_line(f"   * {ev[1]}"))
            elif ev[0] == "deal":
                print(f"\n== deal {ev[1]}")
        seen = len(log)
        if s.is_terminal():
            names = " and ".join(g.player_name(p) for p in s.winners) or "nobody"
            print(f"\nThe match is over. Winner: {names}")
            print(one_line(f"{g.returns_name}: " + ", ".join(
                f"{g.player_name(p)} {int(v) if v.is_integer() else v}" for p, v in enumerate(s.returns()))))
            return 0
        p = s.current_player()
        if p != seat:
            s.apply_action(bots[p].choose(SeatView(s, p)))
            continue
        print("\n".join(map(one_line, _show(g, s.observation(seat)).split("\n"))))
        legal = s.legal_actions()
        for i, a in enumerate(legal):
            print(one_line(f"   [{i}] {s.action_to_string(seat, a)}"))
        while True:
            try:
                line = input("> ").strip()
            except EOFError:
                return 0
            if line in ("q", "quit"):
                return 0
            if line.isascii() and line.isdigit() and len(line) < 7 and int(line) < len(legal):
                s.apply_action(legal[int(line)])
                break
            print(f"   type a number from 0 to {len(legal) - 1}, or q")
