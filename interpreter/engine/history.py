"""A state's history: what it records, how it is read, replayed, written and read back.

`State.trail` is a linked list of `(previous, who, what)` triples, newest last, so extending it is O(1) and
clones share it. `who` is a seat (a player's action id), `CHANCE` (an outcome given at a chance node: a
card of a shuffle or the index of a `pick`), or, for a state that draws its own chance from a seed,
`SHUFFLED` (`what` is the zone's new order) or `PICKED` (the index), and `RESEED` (the state's seed was
replaced by `what`: a resampled state draws its future chance afresh). OpenSpiel's `history()` is the
player actions and the outcomes given at chance nodes; what a seed drew is not in it.

A history is replayed group by group: a player's action and the chance outcomes its step takes (the
first group has no action: the start of the match), each group in one run of the step, so a replay costs
what playing did and not one run per outcome.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from .chance import PICKED, SHUFFLED
from .errors import GameError, IllegalAction
from .setup import BadSetup, Resolved, from_data, to_data

if TYPE_CHECKING:
    from .game import Game
    from .state import State

CHANCE = -1
RESEED = -12
# From here the state deals lazily (chance.py), with these undecided blocks: ((zone, k), ...). A state resampled
# from one that deals lazily is found by an explicit replay; this mark makes it deal as the real one does.
UNFIX = -13

FORMAT = "cardsmith-state"
VERSION = 1
MAX_TEXT = 50_000_000  # characters of a serialized state
# A serialized state made without a seed or a setup deals lazily (chance.py); one without the key, eagerly.
LAZY = "lazy"


def entries(trail: Any) -> list[tuple[int, Any]]:
    """The (who, what) entries of a trail, oldest first."""
    out: list[tuple[int, Any]] = []
    h = trail
    while h:
        h, who, what = h
        out.append((who, what))
    out.reverse()
    return out


def one_action_on(trail: Any, node: Any) -> tuple[int, int] | None | Literal[False]:
    """How `trail` goes on from `node`, an older trail of the same match: by one player action (who, what)
    and any chance, by chance alone (None), or otherwise (False: two actions on, or not from `node`)."""
    action: tuple[int, int] | None = None
    h = trail
    while h is not node:
        if not h:
            return False
        h, who, what = h
        if who >= 0:
            if action is not None:
                return False
            action = (who, what)
    return action


def extend(trail: Any, who: int, whats: list[int]) -> Any:
    for x in whats:
        trail = (trail, who, x)
    return trail


def explicit(items: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """The entries with what a seed drew written as chance outcomes, as a state without a seed takes them.

    A shuffle's outcomes are the cards of its new order from the top down, all but the last (see chance.py);
    a new seed is dropped: the replay gives every outcome."""
    out: list[tuple[int, Any]] = []
    for who, what in items:
        if who == SHUFFLED:
            out.extend((CHANCE, c) for c in reversed(what[1:]))
        elif who == PICKED:
            out.append((CHANCE, what))
        elif who != RESEED:
            out.append((who, what))
    return out


# What follows a step: a new seed, or the blocks a state deals lazily from (UNFIX).
Mark = int | tuple[tuple[int, int], ...] | None
# One step: (who acts or None for the start of the match, the action, its chance outcomes, what follows it).
Group = tuple[int | None, int | None, list[int], Mark]


def groups(items: list[tuple[int, Any]]) -> list[Group]:
    """Split entries into steps: the start of the match, then one per player action; what a seed drew is
    left out (the replay draws it again from the same seed)."""
    out: list[Group] = []
    who0: int | None = None
    action: int | None = None
    outcomes: list[int] = []
    reseed: Mark = None
    for who, what in items:
        if who >= 0:
            out.append((who0, action, outcomes, reseed))
            who0, action, outcomes, reseed = who, what, [], None
        elif who == CHANCE:
            if reseed is not None:
                raise IllegalAction("chance outcomes after a new seed")
            outcomes.append(what)
        elif who in (RESEED, UNFIX):
            reseed = what
        # SHUFFLED and PICKED: drawn again from the seed
    out.append((who0, action, outcomes, reseed))
    return out


def play_group(s: State, action: int | None, outcomes: list[int], trace: list[Any] | None = None) -> None:
    """Run one step of a replay on `s`: a player's action (checked legal) and the chance outcomes it takes
    (checked possible; none for a state with a seed, which draws its own)."""
    if s.unfixed is not None:
        _play_lazy(s, action, outcomes)
        return
    if action is not None:
        if s.terminal or s.pending is not None:
            raise IllegalAction("the history goes on after the match ended or at a chance node")
        if action not in s.legal_actions():
            raise IllegalAction(f"action {action} is not legal for {s.game.player_name(s.cur)} here")
        s.trail = (s.trail, s.cur, action)
    if s.rng is not None:
        if outcomes:
            raise IllegalAction("chance outcomes given to a state that draws its own from a seed")
        s._run(action, None)
        return
    trail = s.trail
    s.trace = trace
    try:
        s._run(action, list(outcomes))
    finally:
        s.trace = None
    s.trail = extend(trail, CHANCE, outcomes)


def _play_lazy(s: State, action: int | None, outcomes: list[int]) -> None:
    """play_group for a state that deals lazily: its chance nodes come as the step needs them (chance.py),
    so the step is played as it was, node by node."""
    if action is None:
        s._run(None, [])
    else:
        if s.terminal or s.pending is not None:
            raise IllegalAction("the history goes on after the match ended or at a chance node")
        if action not in s.legal_actions():
            raise IllegalAction(f"action {action} is not legal for {s.game.player_name(s.cur)} here")
        s.apply_action(action)
    for o in outcomes:
        if s.pending is None:
            raise IllegalAction("more chance outcomes than the step uses")
        s.apply_action(o)


def lazy_from_start(s: State, items: list[tuple[int, Any]]) -> bool:
    """Whether the state, whose history's entries are `items`, dealt lazily from its start (a resampled one
    may start to at a mark)."""
    return s.unfixed is not None and all(who != UNFIX for who, _ in items)


def mark(s: State, after: Mark) -> None:
    """What follows a step of a replay: a new seed, or the state dealing lazily from the blocks given."""
    if s.pending is not None:
        raise IllegalAction("a new seed or a lazy deal at a chance node")
    if isinstance(after, tuple):
        if s.rng is not None or any(not (type(zi) is int and 0 <= zi < len(s.z) and type(k) is int and
                                         2 <= k <= len(s.z[zi])) for zi, k in after):
            raise IllegalAction("a lazy deal of zones or cards the state does not have")
        s.unfixed = dict(after)
        s.trail = (s.trail, UNFIX, after)
    elif after is not None:
        s.rng = after
        s.trail = (s.trail, RESEED, after)


def blank(game: Game, seed: int | None, lazy: bool = False, setup: Resolved | None = None) -> State:
    """A state before the match starts (State.blank): the game makes it, so this module needs no State."""
    return game.blank_state(seed, lazy, setup)


def replay(game: Game, seed: int | None, steps: list[Group],
           after: Callable[[State, int], None] | None = None, setup: Resolved | None = None,
           lazy: bool = False) -> State:
    """The state the steps lead to from a new match (set up with `setup`, if any; dealing lazily if `lazy`);
    `after(state, i)` is called after step i."""
    s = blank(game, seed, lazy and setup is None, setup)
    for i, (who, action, outcomes, reseed) in enumerate(steps):
        if who is not None and (s.pending is not None or s.terminal or s.cur != who):
            raise IllegalAction(f"step {i} is an action of {game.player_name(who)}, who is not to act then")
        play_group(s, action, outcomes)
        if reseed is not None:
            mark(s, reseed)
        if after is not None:
            after(s, i)
    return s


# ---------------------------------------------------------------- text
def serialize(s: State) -> str:
    """The state as one line of JSON: the game, the seed, the setup (if any) and the history, enough to
    replay it."""
    events: list[list[Any]] = []
    items = entries(s.trail)
    for who, what in items:
        if who >= 0 or who == CHANCE:
            events.append([who, what])
        elif who == RESEED:
            events.append(["seed", what])
        elif who == UNFIX:
            events.append([LAZY, [list(b) for b in what]])
    g = s.game
    data = {"format": FORMAT, "version": VERSION, "game": g.name, "players": g.n, "options": g.options,
            "seed": s.seed0, "history": events}
    if s.setup is not None:
        data["setup"] = to_data(g, s.setup)
    if lazy_from_start(s, items):
        data["chance"] = LAZY  # its chance outcomes came as cards were needed (chance.py)
    return json.dumps(data, separators=(",", ":"))


def _whole(x: Any) -> bool:
    return type(x) is int


def deserialize(game: Game, text: Any) -> State:
    """The state `serialize` wrote, replayed on `game`; anything else raises a GameError saying why."""
    if not isinstance(text, str):
        raise GameError(f"a serialized state is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise GameError(f"a serialized state is at most {MAX_TEXT:,} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise GameError("not a serialized cardsmith state: the text is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameError("not a serialized cardsmith state")
    if data.get("version") != VERSION:
        raise GameError(f"a serialized state of version {data.get('version')!r}; this cardsmith reads {VERSION}")
    if data.get("game") != game.name or data.get("players") != game.n:
        raise GameError(f"the state is of {str(data.get('game'))[:80]!r} for {str(data.get('players'))[:20]} "
                        f"players, not {game.name!r} for {game.n}")
    if data.get("options") != game.options:
        raise GameError("the state was played under other table options")
    seed = data.get("seed")
    if seed is not None and not _whole(seed):
        raise GameError("the seed of a serialized state is a whole number or null")
    events = data.get("history")
    if not isinstance(events, list):
        raise GameError("the history of a serialized state is a list")
    items: list[tuple[int, Any]] = []
    for k, e in enumerate(events):
        if isinstance(e, list) and len(e) == 2 and e[0] == LAZY:
            blocks = e[1]
            if not (isinstance(blocks, list) and len(blocks) <= len(game.zone_names) and
                    all(isinstance(b, list) and len(b) == 2 and _whole(b[0]) and _whole(b[1]) for b in blocks)):
                raise GameError(f"event {k} of the history is not a list of [zone, cards] pairs")
            items.append((UNFIX, tuple((b[0], b[1]) for b in blocks)))
            continue
        if not (isinstance(e, list) and len(e) == 2 and _whole(e[1])):
            raise GameError(f"event {k} of the history is not a pair [who, number]")
        who = e[0]
        if who == "seed":
            items.append((RESEED, e[1]))
        elif _whole(who) and -1 <= who < game.n:
            items.append((who, e[1]))
        else:
            raise GameError(f"event {k} of the history names no player nor chance: {str(who)[:20]}")
    chance = data.get("chance")
    if chance not in (None, LAZY):
        raise GameError(f"the chance of a serialized state is {LAZY!r} or left out, not {str(chance)[:20]!r}")
    setup = None
    if data.get("setup") is not None:
        try:
            setup = from_data(game, data["setup"])
        except BadSetup as e:
            raise GameError(f"the setup of a serialized state: {e}") from None
    try:
        return replay(game, seed, groups(items), setup=setup, lazy=chance == LAZY)
    except IllegalAction as e:
        raise GameError(f"the history cannot be replayed: {e}") from None
