"""Position transfer: a Python backend's state as words that a native state reads (position.h), and back.

A scenario's `set:` stacks the deal and then moves cards and sets variables outside the match's history, so
no replay of the history puts a native state there; the position itself is carried instead: the zones in
order, the variables, the turn's fields, who is out or sitting out, the teams, the winners and returns, who
last moved each card, the seed of the next draw (or the zones' undecided blocks, dealt lazily) and the deal as
it ended. The layout of the variables is the native state's own (the lowering's kind and slot of each, the
plan `Meta::vsees` holds); the whole-number fields are `SCALARS`, which the game's library is built with
(emit_cpp writes `Meta::scalars` from it), so a new one is a row here. `CARRIED` says how every field of
the Python `State` (engine/fields.py) is carried or why it is not part of a position; a test holds the two
tables to each other.

Only between steps: a state whose chance step is half drawn has no position (`PositionError`), on either
backend. A native state's position is the same words (`NativeState.position()`), so two states can be
compared whole (`difference`)."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.errors import GameError
from .infostate import FROM_POSITION
from .ir import NONE_V

if TYPE_CHECKING:
    from ..engine.state import State
    from .backend import NativeGame

# The whole-number fields of a position, in order: the Python state's field (the native `Flat` member of the
# same name) and what it holds: p a phase, n a player, c a count (0 or more).
SCALARS: tuple[tuple[str, str], ...] = (
    ("phase", "p"), ("cur", "n"), ("actor", "n"), ("turns", "c"), ("dealer", "n"), ("deal_no", "c"),
    ("moves", "c"),
)

# How each field of the Python `State` is carried (engine/fields.py's table, field by field).
CARRIED: dict[str, str] = {
    "game": "not carried: the native state is of the same game's library",
    "z": "each zone's cards, bottom first",
    "v": "each variable, as its native kind and slot (the lowering's)",
    "loc": "worked out from the zones",
    "by": "who last moved each card",
    "out": "a bit per player",
    "team": "each player's team",
    "sit": "a bit per player",
    **{name: "a scalar (SCALARS)" for name, _ in SCALARS},
    "stage": "not carried: between steps a match is in a phase or over",
    "terminal": "over",
    "winners": "a bit per winner",
    "rets": "each player's return (zeros before the end, as natively)",
    "rng": "the seed of the next draw, as 32-bit words (its magnitude, as Python's Random takes it)",
    "seed0": "not carried: the match's first seed (the twin keeps it, for serialize)",
    "setup": "not carried: the twin keeps the deals it has fixed so far",
    "unfixed": "each zone's undecided block (dealt lazily, without a seed)",
    "chance_queue": "refused unless empty: outcomes given for a step not yet run",
    "chance_pos": "refused unless empty, with chance_queue",
    "pending": "refused: a chance step half drawn has no position",
    "trail": "not carried: the history before the position (the twin keeps it)",
    "legal": "not carried: a cache",
    "log": "not carried: a side record",
    "ended": "the deal as it ended, a block of its own",
    "seen": "not carried: a cache",
    "draws": "not carried: a record of a step that is running",
    "stack": "not carried: a record of a fixed deal that is running",
    "trace": "not carried: a record of a replay",
}

SEED_WORDS = 8  # pyrandom.h: the widest seed a native state holds, below 2**256
I64 = 1 << 63


class PositionError(GameError):
    """A position that cannot be carried to (or read from) a native state; the message says why."""


def _bits(x: float) -> int:
    """A double's bits as a signed 64-bit word (the native words are int64)."""
    return int(struct.unpack("<q", struct.pack("<d", float(x)))[0])


def _double(w: int) -> float:
    return float(struct.unpack("<d", struct.pack("<q", w))[0])


def seed_words(seed: int | None) -> list[int]:
    """A seed as the binding takes it (loader.cc `seed_of`): how many words, wide, |seed|'s 32-bit words
    least significant first (0 is one zero word); [0, 0] for none."""
    if seed is None:
        return [0, 0]
    mag = abs(seed)
    n = max(1, (mag.bit_length() + 31) // 32)
    if n > SEED_WORDS:
        raise PositionError("the seed of the next draw is 2**256 or more; the native backend takes less")
    return [n, int(seed > 0 and mag.bit_length() > 128), *[(mag >> (32 * i)) & 0xFFFFFFFF for i in range(n)]]


@dataclass(frozen=True)
class Layout:
    """What the words of one game's positions hold: its sizes, each variable's native kind (i, f, l, L, as
    the lowering lays it out) and the library's interned texts."""

    n: int
    num_cards: int
    zones: tuple[str, ...]
    variables: tuple[tuple[str, str], ...]  # (name, kind) in the Python backend's order
    texts: dict[str, int]

    @classmethod
    def of(cls, game: Any, views: dict[str, Any], strings: list[str]) -> Layout:
        kinds = [v[3] for v in views["vars"]]
        variables = tuple(zip(game.var_names, kinds))
        return cls(game.n, game.num_cards, tuple(game.zone_names), variables,
                   {s: i for i, s in enumerate(strings)})

    # ------------------------------------------------------------ a Python state's words
    def words(self, s: State) -> list[int]:
        """The position of the Python state `s` (position.h's layout); PositionError where it has none or
        holds what a native state cannot."""
        if s.pending is not None:
            raise PositionError("a chance step is half drawn (its outcomes are being given): a position is "
                                "carried only between steps")
        if s.chance_queue and s.chance_pos < len(s.chance_queue):
            raise PositionError("chance outcomes are queued for a step not yet run: a position is carried only "
                                "between steps")
        if s.rng is None and s.unfixed is None:
            raise PositionError("the state has no seed and deals no card lazily (its chance is given outcome by "
                                "outcome): the native backend deals with a seed or lazily")
        out: list[int] = []
        self._block(s, out)
        out += seed_words(s.rng)
        if s.ended is None:
            out.append(0)
        else:
            out.append(1)
            self._block(s.ended.state, out)
        return out

    def _block(self, s: State, out: list[int]) -> None:
        for name, _ in SCALARS:
            out.append(int(getattr(s, name)))
        out.append(int(bool(s.terminal)))
        out.append(sum(1 << p for p in set(s.winners)))
        rets = s.rets if s.terminal and s.rets is not None else [0.0] * self.n
        out += [_bits(r) for r in rets]
        out += [int(t) for t in s.team]
        out.append(sum(1 << p for p in range(self.n) if s.out[p]))
        out.append(sum(1 << p for p in range(self.n) if s.sit[p]))
        unfixed = s.unfixed or {}
        for zi, cards in enumerate(s.z):
            out.append(len(cards))
            out += cards
            out.append(unfixed.get(zi, 0))
        out += s.by
        for vi, (name, k) in enumerate(self.variables):
            v = s.v[vi]
            if k == "i":
                out.append(self._item(v, name))
            elif k == "f":
                if v is None or type(v) not in (int, float):
                    raise PositionError(f"variable '{name}' holds {v!r}; natively a number with decimals always "
                                        "holds a number")
                out.append(_bits(v))
            elif k == "l":
                xs = self._list(v, name)
                out.append(len(xs))
                out += [self._item(x, name) for x in xs]
            else:
                xss = self._list(v, name)
                out.append(len(xss))
                for xs in xss:
                    xs = self._list(xs, name)
                    out.append(len(xs))
                    out += [self._item(x, name) for x in xs]

    @staticmethod
    def _list(v: Any, name: str) -> list[Any]:
        if not isinstance(v, list):
            raise PositionError(f"variable '{name}' holds {v!r} where a list is kept")
        return v

    def _item(self, x: Any, name: str) -> int:
        """One value as the native state keeps it: a whole number, a card, a player, a flag, an interned text."""
        if x is None:
            return NONE_V
        if type(x) is bool:
            return int(x)
        if type(x) is int:
            if not -I64 <= x < I64:
                raise PositionError(f"variable '{name}' holds {x}, past a native whole number")
            return x
        if type(x) is str:
            if x not in self.texts:
                raise PositionError(f"variable '{name}' holds the text {x!r}, which the rules never write, so "
                                    "the native backend has no number for it")
            return self.texts[x]
        raise PositionError(f"variable '{name}' holds {x!r}, which the native backend keeps no way of")

    def named(self, message: str) -> str:
        """A refusal of position.h, its zones and variables (numbered there) by name."""
        def name(m: re.Match[str]) -> str:
            names = self.zones if m[1] == "zone" else [v for v, _ in self.variables]
            i = int(m[2])
            return f"{m[1]} '{names[i]}'" if i < len(names) else m[0]
        return re.sub(r"\b(zone|variable) (\d+)", name, message)

    # ------------------------------------------------------------ reading words, to compare them
    def sections(self, w: list[int]) -> list[tuple[str, tuple[int, ...]]]:
        """The words cut into named parts (the scalars, each zone, each variable, the seed...), to say where
        two positions differ. Words that do not parse end in a part named 'the rest'."""
        parts: list[tuple[str, tuple[int, ...]]] = []
        at = 0

        def take(name: str, k: int) -> None:
            nonlocal at
            parts.append((name, tuple(w[at:at + k])))
            at += k

        def block(prefix: str) -> None:
            nonlocal at
            for name, _ in SCALARS:
                take(prefix + name, 1)
            take(prefix + "over", 1)
            take(prefix + "winners", 1)
            take(prefix + "returns", self.n)
            take(prefix + "teams", self.n)
            take(prefix + "out", 1)
            take(prefix + "sitting out", 1)
            for z in self.zones:
                take(f"{prefix}zone {z}", w[at] + 2)
            take(prefix + "played_by", self.num_cards)
            for name, k in self.variables:
                if k in ("i", "f"):
                    take(f"{prefix}variable {name}", 1)
                elif k == "l":
                    take(f"{prefix}variable {name}", w[at] + 1)
                else:
                    start, count = at, w[at]
                    at += 1
                    for _ in range(count):
                        at += w[at] + 1
                    parts.append((f"{prefix}variable {name}", tuple(w[start:at])))

        try:
            block("")
            take("seed", w[at] + 2)
            ended = w[at]
            take("the deal as it ended", 1)
            if ended:
                block("the deal as it ended: ")
        except IndexError:
            pass
        if at < len(w):
            parts.append(("the rest", tuple(w[at:])))
        return parts

    def difference(self, a: list[int], b: list[int]) -> str | None:
        """Where two positions differ, in words (the first part that does), or None if they are the same."""
        if a == b:
            return None
        pa, pb = self.sections(a), self.sections(b)
        for (name, x), (_, y) in zip(pa, pb):
            if x != y:
                return f"{name}: {self._shown(name, x)} against {self._shown(name, y)}"
        return f"{len(a)} words against {len(b)}"

    def _shown(self, name: str, x: tuple[int, ...]) -> str:
        if name.endswith("returns"):
            return str([_double(v) for v in x])
        return str(list(x))


def native_at(game: NativeGame, s: State) -> Any:
    """A native state of `game` at the position of the Python state `s` (of the same rule file, players and
    options), made by reading the position's words (position.h); PositionError where `s` has no position to
    carry or holds what the native state cannot (the message says which). Its history starts here; its twin
    (wrapper.py) is a copy of `s` keeping the deals its setup fixed so far, so that later deals are dealt by
    the seed alone, as natively."""
    lay = game.position_layout
    words = lay.words(s)
    t = game.state_class(game.native, None, game.action_limit, game)
    try:
        t.set_position(struct.pack(f"<{len(words)}q", *words), s.moves)
    except GameError as e:
        raise PositionError(lay.named(str(e))) from None
    t._twin = s.carried_copy()
    t._synced = t.entry_count()
    t._seed = s.seed0
    t._seen = FROM_POSITION  # its history starts here: its information-state strings are the twin's
    return t


def position(t: Any) -> list[int] | None:
    """A native state's position as words (None while its chance step is half drawn)."""
    raw = t.position()
    return None if raw is None else list(struct.unpack(f"<{len(raw) // 8}q", raw))


__all__ = ["CARRIED", "SCALARS", "Layout", "PositionError", "native_at", "position", "seed_words"]
