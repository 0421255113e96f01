"""A match record: one JSON document from which a match replays exactly (docs/records.md).

It holds how to find the rule file (a bundled game's name or a path) and a SHA-256 of its text (and of every
file it `extends`), the player count and options, the seed, who sat where, and the history: every player's
action id and every chance outcome, in order. The chance outcomes are written out even for a match played
from a seed. A replay made from the seed is checked against them, so a record whose seed would now deal
differently (a new cardsmith) is found out rather than replayed wrong; a record without a seed replays
from the outcomes alone.

`cardsmith run --record`, `play --save` and the web table write records; `cardsmith replay` and `play
--resume` read them. Reading checks everything (types, sizes, that each action is legal when taken) and
says what is wrong in one line: a record may come from anywhere.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..dsl.diagnostics import RuleFileError
from ..dsl.files import sources_digest
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.errors import BadOption, GameError
from ..engine.game import Game
from ..engine.history import CHANCE, LAZY, entries, explicit, lazy_from_start
from ..engine.state import State

FORMAT = "cardsmith-match"
VERSION = 1
MAX_BYTES = 50_000_000
MAX_SEATS = 64


class BadRecord(GameError):
    """A record that cannot be read or replayed; the message says why, in one line."""


@functools.cache  # the installed version does not change while the program runs; reading it costs ~2 ms
def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _v
    try:
        return _v("cardsmith")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree that is not installed
        return "unknown"


def _digest(sources: dict[str, str]) -> str:
    return sources_digest(sources)


def _stamps(names: list[str]) -> tuple[tuple[int, int], ...] | None:
    try:
        return tuple((st.st_mtime_ns, st.st_size) for st in (Path(n).stat() for n in names))
    except OSError:
        return None


# path -> (the files the loader read, their modification stamps, the digest): the terminal table saves after
# every move, and reading the rules again each time to hash them cost 50 ms a move.
_HASHES: dict[str, tuple[list[str], tuple[tuple[int, int], ...], str]] = {}


def rules_hash(path: Path) -> str:
    """SHA-256 of the rule file's text and of every file it extends, in the order the loader read them."""
    known = _HASHES.get(str(path))
    if known is not None and _stamps(known[0]) == known[1]:
        return known[2]
    return _remember(path, compile_file(path).sources)


def _remember(path: Path, sources: dict[str, str]) -> str:
    digest = _digest(sources)
    stamps = _stamps(list(sources))
    if stamps is not None:
        _HASHES[str(path)] = (list(sources), stamps, digest)
    return digest


@dataclass
class MatchRecord:
    game: str  # the game's name, as its rule file gives it
    source: str  # how to find the rule file: a bundled game's name or a path
    sha256: str
    players: int
    options: dict[str, Any]
    seed: int | None
    seats: list[str]  # who sat at each seat: a bot's spec or a person's name
    history: list[tuple[int, int]]  # (seat, action id) or (-1, chance outcome), in order
    cardsmith: str = field(default_factory=version)
    result: dict[str, Any] | None = None  # {"winners": [...], "returns": [...]} once the match is over
    # Which seats a bot played (a person may be called "random" too); None where the record does not say.
    bots: list[bool] | None = None
    # "lazy": played without a seed by a state that deals shuffled zones lazily (engine/chance.py), whose
    # chance outcomes come as cards are needed; None: every shuffle's outcomes at once (seeded play's, and
    # records of versions before lazy dealing).
    chance: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "cardsmith": self.cardsmith, "game": self.game,
                "source": self.source, "sha256": self.sha256, "players": self.players, "options": self.options,
                "seed": self.seed, "seats": self.seats, "bots": self.bots,
                "history": [list(x) for x in self.history], "result": self.result,
                **({"chance": self.chance} if self.chance is not None else {})}

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadRecord("not a cardsmith match record (its \"format\" is not \"cardsmith-match\")")
        if data.get("version") != VERSION:
            raise BadRecord(f"a match record of version {str(data.get('version'))[:20]}; this cardsmith reads "
                            f"version {VERSION}")

        def want(key: str, ok: Any, what: str) -> Any:
            v = data.get(key)
            if not ok(v):
                raise BadRecord(f"the record's \"{key}\" must be {what}")
            return v

        def text(v: Any) -> bool:
            return isinstance(v, str) and 0 < len(v) <= 4096

        players = want("players", lambda v: type(v) is int and 1 <= v <= MAX_SEATS, f"a whole number 1 to {MAX_SEATS}")
        history = want("history", lambda v: isinstance(v, list) and all(
            isinstance(x, list) and len(x) == 2 and all(type(y) is int for y in x) and -1 <= x[0] < players
            for x in v), "a list of [seat, action] pairs of whole numbers (seat -1 for chance)")
        result = want("result", lambda v: v is None or (isinstance(v, dict) and isinstance(v.get("winners"), list)
                                                        and isinstance(v.get("returns"), list)),
                      "null or {\"winners\": [...], \"returns\": [...]}")
        return cls(
            game=want("game", text, "text"),
            source=want("source", text, "text: a bundled game's name or a rule file's path"),
            sha256=want("sha256", lambda v: isinstance(v, str) and len(v) == 64, "64 hexadecimal digits"),
            players=players,
            options=want("options", lambda v: isinstance(v, dict) and all(isinstance(k, str) for k in v),
                         "a map of option names to values"),
            seed=want("seed", lambda v: v is None or type(v) is int, "a whole number or null"),
            seats=want("seats", lambda v: isinstance(v, list) and len(v) == players and all(text(x) for x in v),
                       "a list of texts, one per seat"),
            history=[(x[0], x[1]) for x in history],
            cardsmith=want("cardsmith", text, "text"),
            result=result,
            bots=want("bots", lambda v: v is None or (isinstance(v, list) and len(v) == players
                                                      and all(type(x) is bool for x in v)),
                      "null or a list of true/false, one per seat"),
            chance=want("chance", lambda v: v is None or v == LAZY, f"\"{LAZY}\" or left out"),
        )

    @property
    def decisions(self) -> int:
        """How many player actions the record holds."""
        return sum(1 for who, _ in self.history if who >= 0)


def record_match(s: State, source: str, seats: list[str], bots: list[bool] | None = None,
                 sha256: str | None = None) -> MatchRecord:
    """The record of `s` so far. `source` finds the rule file again: a bundled game's name or a path;
    `bots` says which seats a bot played; `sha256` is the rules' hash if the caller has it (the web table's,
    made when the rules were read: the file may have changed on disk since)."""
    g = s.game
    items = entries(s.trail)
    history = [(who, what) for who, what in explicit(items) if who >= 0 or who == CHANCE]
    result = {"winners": list(s.winners), "returns": s.returns()} if s.terminal else None
    digest = sha256 or rules_hash(resolve(source))
    return MatchRecord(g.name, source, digest, g.n, dict(g.options), s.seed0, list(seats), history,
                       result=result, bots=None if bots is None else list(bots),
                       chance=LAZY if lazy_from_start(s, items) else None)


def write_record(path: str | Path, rec: MatchRecord) -> None:
    Path(path).write_text(json.dumps(rec.to_json(), indent=1) + "\n", encoding="utf-8")


def read_record(path: str | Path) -> MatchRecord:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise BadRecord(f"{path}: a match record is at most {MAX_BYTES:,} bytes")
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadRecord(f"{path}: cannot read it: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadRecord(f"{path}: not a match record: the text is not JSON") from None
    try:
        return MatchRecord.from_json(data)
    except BadRecord as e:
        raise BadRecord(f"{path}: {e}") from None


def open_record(rec: MatchRecord, changed_ok: bool = False) -> Game:
    """The game the record was played at. A rule file whose text changed since is refused (the same ids
    may mean other moves) unless `changed_ok`."""
    try:
        path = resolve(rec.source)
        loaded = compile_file(path)
        if _remember(path, loaded.sources) != rec.sha256 and not changed_ok:
            raise BadRecord(f"the rule file {rec.source!r} has changed since the match was recorded (its SHA-256 "
                            "differs); replaying it could show other moves")
        if not loaded.ok or loaded.game is None:
            raise RuleFileError(loaded.diagnostics, loaded.sources)
        return Game(loaded.game, rec.players, dict(rec.options))
    except BadOption as e:
        raise BadRecord(f"the record's table cannot be set up: {e}") from None


def steps(rec: MatchRecord, game: Game, log: bool = True) -> Iterator[State]:
    """The state before the first decision, then after each player action of the record, checked as it goes:
    each action must be legal for the seat that took it, and the chance outcomes must be the ones recorded."""
    s = State.initial(game, rec.seed, log=log, lazy=rec.chance == LAZY)
    pos = 0  # next entry of rec.history to compare or give
    hist = rec.history

    def settle() -> None:
        """Give (no seed) or compare (seed) the chance outcomes up to the next player action."""
        nonlocal pos
        if rec.seed is None:
            while pos < len(hist) and hist[pos][0] == CHANCE:
                if not s.is_chance_node() or hist[pos][1] not in dict(s.chance_outcomes()):
                    raise BadRecord(f"entry {pos + 1} of the history: chance outcome {hist[pos][1]} is not "
                                    "possible here")
                s.apply_action(hist[pos][1])
                pos += 1
            return
        drawn = [what for who, what in explicit(entries(s.trail)) if who == CHANCE or who >= 0]
        want = [what for _who, what in hist[:len(drawn)]]
        if drawn != want:
            raise BadRecord("the seed deals differently in this version of cardsmith than in the one that "
                            f"recorded the match ({rec.cardsmith})")
        pos = len(drawn)

    settle()
    yield s
    while pos < len(hist):
        who, a = hist[pos]
        if s.terminal or s.is_chance_node() or who != s.current_player():
            raise BadRecord(f"entry {pos + 1} of the history: {game.player_name(who) if who >= 0 else 'chance'} "
                            "does not act here")
        if a not in s.legal_actions():
            raise BadRecord(f"entry {pos + 1} of the history: action {a} is not legal for "
                            f"{game.player_name(who)} here")
        s = s.clone()
        s.apply_action(a)
        pos += 1
        settle()
        yield s


def replay(rec: MatchRecord, game: Game, upto: int | None = None, log: bool = True) -> State:
    """The state after the record's first `upto` player actions (all of them by default)."""
    last: State | None = None
    for i, s in enumerate(steps(rec, game, log)):
        last = s
        if upto is not None and i >= upto:
            break
    assert last is not None
    if upto is None and rec.result is not None:
        got = {"winners": list(last.winners), "returns": last.returns()} if last.terminal else None
        if got != rec.result:
            raise BadRecord(f"the replay ends otherwise than recorded: {got} instead of {rec.result}")
    return last
