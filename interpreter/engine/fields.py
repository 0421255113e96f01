"""The fields of a `State`, in one table: how each is copied by a clone, how it is serialized, what a new
state holds. `State.__slots__`, `State.clone` (and `_copy_into`, a step's return to the state before it) and
the new state of `State.initial`/`State.blank` are all derived from it, so a new field is one row here (and its
type annotation on `State`, which tests/test_state_fields.py checks against this table).

The copy functions are written out as Python text made from this table (our own fixed text: no rule file's
text is ever in it) and compiled once at import: a clone is on the hottest path of every bot (playouts,
ISMCTS, CFR), and a loop over the table at each clone would cost several times the hand-written copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context import STARTING

# How a clone copies a field.
SHARED = "shared"  # the same object: immutable, or copied on write by whoever changes it
LIST = "list"  # a shallow copy of a list
NESTED = "nested"  # a copy of each inner list (the zones)
MAYBE_LIST = "maybe list"  # None, or a shallow copy of the list
MAYBE_COPY = "maybe copy"  # None, or the record's own copy() (a record the state changes in place)
DROPPED = "dropped"  # None in the copy: a side record of a step that is running, not part of the position

COPY_TEXT = {
    SHARED: "self.{0}",
    LIST: "self.{0}[:]",
    NESTED: "[z[:] for z in self.{0}]",
    MAYBE_LIST: "None if self.{0} is None else self.{0}[:]",
    MAYBE_COPY: "None if self.{0} is None else self.{0}.copy()",
    DROPPED: "None",
}

# How `State.serialize` (history.py) keeps a field: the text holds the game (its name, players and options),
# the seed, the setup and the history; every other field is what replaying that history gives again.
GAME = "game"  # the game's name, player count and options
SEED = "seed"
SETUP = "setup"
HISTORY = "history"  # the trail's events, and whether the state deals lazily from its start
REPLAYED = "replayed"  # worked out again by the replay
NOT_KEPT = "not kept"  # a cache or a side record: a replayed state starts without it


@dataclass(frozen=True)
class Field:
    name: str
    copy: str  # one of COPY_TEXT's keys
    serial: str  # GAME, SEED, SETUP, HISTORY, REPLAYED or NOT_KEPT
    # A new state's value: a Python expression over `game`, `seed`, `log`, `setup` (the resolved setup or
    # None) and `lazy` (our own text, compiled with the copy functions).
    initial: str
    owner: str = "state"  # the module whose record this is, for a side record


FIELDS: tuple[Field, ...] = (
    Field("game", SHARED, GAME, "game"),
    # The position.
    Field("z", NESTED, REPLAYED, "pack_zones(game)"),  # zones, bottom card first; the first holds the pack
    Field("v", LIST, REPLAYED, "[None] * len(game.var_names)"),
    Field("loc", LIST, REPLAYED, "[0] * game.num_cards"),
    Field("by", LIST, REPLAYED, "[0] * game.num_cards"),
    Field("out", SHARED, REPLAYED, "game.none_out"),  # copied on write (runtime._eliminate)
    Field("team", SHARED, REPLAYED, "game.own_teams"),  # copied on write (runtime._set_team)
    Field("sit", SHARED, REPLAYED, "game.all_seated"),  # copied on write (runtime._sit_out)
    Field("phase", SHARED, REPLAYED, "0"),
    Field("cur", SHARED, REPLAYED, "0"),
    Field("actor", SHARED, REPLAYED, "0"),
    Field("turns", SHARED, REPLAYED, "0"),
    Field("dealer", SHARED, REPLAYED, "0"),
    Field("deal_no", SHARED, REPLAYED, "0"),
    Field("moves", SHARED, REPLAYED, "0"),
    Field("stage", SHARED, REPLAYED, "STARTING"),
    Field("terminal", SHARED, REPLAYED, "False"),
    Field("winners", SHARED, REPLAYED, "[]"),  # replaced, never changed
    Field("rets", SHARED, REPLAYED, "None"),  # never changed once set
    # Chance.
    Field("rng", SHARED, SEED, "seed"),
    Field("seed0", SHARED, SEED, "seed"),
    Field("setup", SHARED, SETUP, "setup"),
    Field("unfixed", SHARED, HISTORY, "{} if seed is None and setup is None and lazy else None"),  # replaced
    Field("chance_queue", SHARED, NOT_KEPT, "[]"),
    Field("chance_pos", SHARED, NOT_KEPT, "0"),
    Field("pending", MAYBE_COPY, REPLAYED, "None", "chance"),  # chance.Pending: changes in place
    Field("trail", SHARED, HISTORY, "()"),  # (previous, who, what) triples: extended, never changed
    # Caches and side records.
    Field("legal", SHARED, NOT_KEPT, "None"),
    Field("log", MAYBE_LIST, NOT_KEPT, "[] if log else None"),
    Field("ended", SHARED, REPLAYED, "None", "observation"),  # observation.Ended: never changed once made
    Field("seen", SHARED, NOT_KEPT, "None", "infostate"),  # a dict replaced on write (State.remember)
    Field("draws", DROPPED, NOT_KEPT, "None", "chance"),  # chance.Draws of a lazy step that is running
    Field("stack", DROPPED, NOT_KEPT, "None", "setup"),  # setup.Stack of a fixed deal that is running
    Field("trace", DROPPED, NOT_KEPT, "None", "resample"),  # where a replay's shuffles took their outcomes
)

SLOTS: tuple[str, ...] = tuple(f.name for f in FIELDS)


def pack_zones(game: Any) -> list[list[int]]:
    z: list[list[int]] = [[] for _ in game.zone_names]
    z[0] = list(range(game.num_cards))  # the first zone listed holds the pack
    return z


def _source() -> str:
    copies = [f"    s.{f.name} = {COPY_TEXT[f.copy].format(f.name)}" for f in FIELDS]
    news = [f"    s.{f.name} = {f.initial}" for f in FIELDS]
    return "\n".join([
        "def clone(self):",
        "    s = new(cls)",
        *copies,
        "    return s",
        "",
        "def copy_into(self, s):",
        *copies,
        "",
        "def fresh(game, seed, log, setup, lazy):",
        "    s = new(cls)",
        *news,
        "    return s",
    ])


def derive(cls: type) -> tuple[Any, Any, Any]:
    """`cls`'s clone(self), copy_into(self, other) and fresh(game, seed, log, setup, lazy), from FIELDS."""
    scope: dict[str, Any] = {"new": cls.__new__, "cls": cls, "pack_zones": pack_zones, "STARTING": STARTING}
    exec(compile(_source(), f"<{cls.__name__} fields>", "exec"), scope)  # our own text, made from FIELDS above
    return scope["clone"], scope["copy_into"], scope["fresh"]
