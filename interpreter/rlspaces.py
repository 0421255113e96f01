"""What the research environments share: a game's versioned name, the bounds of its tensors, its observations.

`cardsmith.pettingzoo`, `cardsmith.gymnasium` and `cardsmith.openspiel` name a game by its rule file's
content (`versioned_name`: `cardsmith_<game>_v<first 8 hex digits of the rules' SHA-256>`), so an edited
rule file is another environment, never the same name with other rules.

Bounds (`tensor_bounds`), block by block of `engine/tensors.tensor_layout`:
- one-hot blocks, bits and presence flags (`seat`, `turn`, `dealer`, `active`, `phase`, every zone's slot:
  its flag, its fraction of the pack, its card bits; a variable's "seen" flag and a bool, text, player, card,
  suit, rank or cards value): [0, 1];
- counts of list items (a `players` variable's count per seat, the length of a `numbers` list, how many
  lists a card-list variable holds): [0, limits.held], the most items the list variables of a state hold;
- the information state's `history` (engine/recall.py): its `dropped` count [0, limits.actions], then the
  frames [0, 1] (flags, one-hots, a card's place), but a number parameter written raw (its offset in a range
  of more than `recall.ONE_HOT_MAX` values): [0, the game's number of action ids];
- `ended`, the last deal as it ended: its flag [0, 1], its deal number as `deal`, then the zones and
  variables as above;
- the deal number, `deal`: [0, float32's largest finite value];
- raw numbers the rules leave unbounded (`int`/`number` variables, the sum of a `numbers` list, and any block
  this module does not know): float32's finite range. The box is then bounded as spaces want it,
  but those entries are raw values: normalise them (e.g. gymnasium's `NormalizeObservation`) for a learner.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .api import load as _load
from .dsl import types as T
from .dsl.files import sources_digest
from .engine import recall, tensors
from .engine.backends import default_backend
from .engine.game import Game
from .engine.text import one_line

# The widest finite float32: a raw number of the tensor is a float32, so every finite one lies within.
WIDE = float(np.finfo(np.float32).max)


def load_game(game: str | Path | Game, players: int | None = None, options: Mapping[str, Any] | None = None,
              backend: str | None = None) -> Game:
    """A `Game` as the environments take one: a `Game` as it is, else the rule file (a path or a bundled game's
    name) at `players` (default: its fewest), on `backend` (default "auto", `cardsmith.load`'s words)."""
    if isinstance(game, Game):
        return game
    if players is None:
        from .dsl.pipeline import compile_file
        from .engine.bundled import resolve
        path = resolve(str(game)) if isinstance(game, str) else game
        r = compile_file(path)
        players = r.game.spec.min_players if r.ok and r.game is not None else 2
    return _load(game, players, options, backend=backend or default_backend())


def illegal_penalty(g: Any) -> float:
    """The default reward of an illegal action: the game's lowest return, or -1 where that is unbounded."""
    low = getattr(g, "min_utility", None)
    return float(low) if low is not None and np.isfinite(low) else -1.0


def rules_digest(g: Any) -> str:
    """SHA-256 of the game's rule file and of every file it extends (`dsl.files.sources_digest`)."""
    kept = g.__dict__.get("_rules_digest")
    if kept is None:
        kept = g.__dict__["_rules_digest"] = sources_digest(g.compiled.sources)
    return str(kept)


def slug(name: str) -> str:
    """A game's name as an identifier: lower case, runs of other characters as one `_`."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "game"


def versioned_name(g: Any) -> str:
    """`cardsmith_<game>_v<8 hex digits>`: the game's name and the first digits of its rules' digest."""
    return f"cardsmith_{slug(g.name)}_v{rules_digest(g)[:8]}"


def _value_bounds(g: Any, ty: T.Type) -> list[tuple[float, float]] | None:
    """The bounds of a variable's value entries (after its "seen" flag), or None for a type not known here."""
    n, c, held = int(g.n), int(g.num_cards), float(g.limits.held)
    if ty in (T.INT, T.NUM):
        return [(-WIDE, WIDE)]
    if ty in (T.BOOL, T.STR):
        return [(0.0, 1.0)]
    if ty == T.PLAYER:
        return [(0.0, 1.0)] * n
    if ty == T.CARD:
        return [(0.0, 1.0)] * c
    if ty == T.SUIT:
        return [(0.0, 1.0)] * len(g.spec.suits)
    if ty == T.RANK:
        return [(0.0, 1.0)] * len(g.spec.ranks)
    if T.card_lists(ty):
        return [(0.0, held)] + [(0.0, 1.0)] * c
    if T.is_list(ty):
        el = T.elem(ty)
        if el == T.CARD:
            return [(0.0, 1.0)] * c
        if el == T.PLAYER:
            return [(0.0, held)] * n
        return [(0.0, held), (-WIDE, WIDE)]
    return None


def _block(g: Any, name: str, size: int) -> tuple[list[float], list[float]] | None:
    """Bounds of one block of the layout, or None where this module does not know its entries."""
    if name in ("seat", "turn", "dealer", "active", "phase") or name.startswith("zone:"):
        return [0.0] * size, [1.0] * size
    if name == "deal":  # the deal number: raw, never negative
        return [0.0] * size, [WIDE] * size
    if name == "history":
        return _history(g, size)
    if name == "ended":
        return _ended(g, size)
    if name.startswith("var:"):
        spec = next((v for v in g.spec.variables if v.name == name[4:]), None)
        entries = None if spec is None else _value_bounds(g, spec.ty)
        if entries is None or size % (1 + len(entries)):
            return None
        slot = [(0.0, 1.0), *entries] * (size // (1 + len(entries)))
        return [lo for lo, _ in slot], [hi for _, hi in slot]
    return None


def _history(g: Any, size: int) -> tuple[list[float], list[float]]:
    highs: list[float] = []
    for block, width in recall.frame_layout(g):
        raw = block.startswith("param:") and width == 1 and block.endswith(":int")
        highs += [float(g.num_distinct_actions()) if raw else 1.0] * width
    frames = (size - 1) // len(highs)
    return [0.0] * size, [float(g.limits.actions)] + highs * frames  # `dropped`, then the frames


def _ended(g: Any, size: int) -> tuple[list[float], list[float]] | None:
    """The last deal as it ended: a flag, its deal number, then the zone and variable blocks again."""
    lows, highs = [0.0, 0.0], [1.0, WIDE]
    for name, width in tensors.tensor_layout(g)[6:]:
        if name == "ended":
            break
        got = _block(g, name, width)
        lo, hi = got if got is not None else ([-WIDE] * width, [WIDE] * width)
        lows += lo
        highs += hi
    return (lows, highs) if len(lows) == size else None


def _bounds(g: Any, info_state: bool) -> tuple[np.ndarray, np.ndarray]:
    key = "_tensor_bounds_info" if info_state else "_tensor_bounds"
    kept = g.__dict__.get(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    lows: list[float] = []
    highs: list[float] = []
    for name, size in tensors.tensor_layout(g, info_state):
        got = _block(g, name, size)
        lo, hi = got if got is not None else ([-WIDE] * size, [WIDE] * size)
        lows += lo
        highs += hi
    low, high = np.array(lows, np.float32), np.array(highs, np.float32)
    low.flags.writeable = high.flags.writeable = False
    g.__dict__[key] = (low, high)
    return low, high


def tensor_bounds(g: Any, info_state: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) of every entry of the observation tensor, or of the information state tensor with
    `info_state` (read-only float32 arrays; see the module's docstring)."""
    return _bounds(g, bool(info_state))


def tensor_size(g: Any, info_state: bool) -> int:
    shape = g.information_state_tensor_shape() if info_state else g.observation_tensor_shape()
    return int(shape[0])


def tensor(s: Any, p: int, info_state: bool, size: int) -> np.ndarray:
    """Player p's observation tensor (or information state tensor) of state s, as float32."""
    if info_state:
        return np.asarray(s.information_state_tensor(p), np.float32)
    out = np.zeros(size, np.float32)
    s._evaluating(tensors.write_observation, p, out)  # rule errors of `visible` rules located
    return out


def action_mask(s: Any, p: int, num_actions: int) -> np.ndarray:
    """One int8 per action id: 1 for p's legal actions where p is to act, else all 0."""
    flags = bytearray(num_actions)  # zeros, and cheaper to set one by one than numpy's
    if not s.is_terminal() and s.current_player() == p:
        for a in s.legal_actions():
            flags[a] = 1
    return np.frombuffer(flags, np.int8)


def raw_lines(g: Any, obs: dict[str, Any]) -> str:
    """An observation as raw lines (zone and variable names as the rule file writes them): the `ansi` render,
    for researchers who debug an agent. The table a person plays at is `cardsmith.table.terminal.Painter`'s."""
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


def ansi(s: Any, p: int | None = None) -> str:
    """The table as seat p sees it (the seat to act by default), with its legal actions where it is to act."""
    g = s.game
    if s.is_terminal():
        names = " and ".join(g.player_name(q) for q in s.winners) or "nobody"
        return f"the match is over; winners: {names}"
    cur = s.current_player()
    p = cur if p is None else p
    lines = [f"{g.name}: {g.player_name(cur)} to act, as {g.player_name(p)} sees the table",
             *map(one_line, raw_lines(g, s.observation(p)).split("\n"))]
    if cur == p:
        lines += [one_line(f"   [{a}] {s.action_to_string(p, a)}") for a in s.legal_actions()]
    return "\n".join(lines)


__all__ = ["WIDE", "action_mask", "ansi", "illegal_penalty", "load_game", "raw_lines", "rules_digest", "slug",
           "tensor", "tensor_bounds", "tensor_size", "versioned_name"]
